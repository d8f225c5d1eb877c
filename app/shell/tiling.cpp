#include "shell/tiling.h"

#include <algorithm>
#include <cmath>

namespace pelab {

Tile TileFor(int index, int count, ImVec2 area_pos, ImVec2 area_size, float gap) {
    count = std::max(count, 1);
    const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count))));
    const int rows = (count + columns - 1) / columns;
    const int row = index / columns, column = index % columns;
    const int in_row = std::min(columns, count - row * columns);
    const float width = area_size.x / static_cast<float>(in_row);
    const float height = area_size.y / static_cast<float>(rows);
    return {ImVec2(area_pos.x + column * width + gap, area_pos.y + row * height + gap),
            ImVec2(width - 2 * gap, height - 2 * gap)};
}

int TilesThatFit(int count, ImVec2 area_size, float font_size) {
    for (int fit = count; fit > 1; --fit) {
        const Tile tile = TileFor(0, fit, ImVec2(0, 0), area_size, 0.0f);
        const Tile last = TileFor(fit - 1, fit, ImVec2(0, 0), area_size, 0.0f);
        if (std::min(tile.size.x, last.size.x) >= kMinTileWidthEms * font_size &&
            std::min(tile.size.y, last.size.y) >= kMinTileHeightEms * font_size)
            return fit;
    }
    return 1;
}

bool TitleBarReachable(ImVec2 pos, float width, ImVec2 display, float bar) {
    const float grip = bar; // at least this much of the title bar must be on screen
    return pos.x + width >= grip && pos.x <= display.x - grip && pos.y >= 0 &&
           pos.y <= display.y - 2 * bar;
}

} // namespace pelab
