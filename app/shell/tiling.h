// tiling.h — where the tiled panels go, and whether a moved window can still be grabbed.
#pragma once

#include <imgui.h>

namespace pelab {

/// Where the k-th of n tiled panels goes, between the menu bar and the status bar: a grid of
/// ⌈√n⌉ columns; a last row with fewer panels stretches them to the full width.
struct Tile {
    ImVec2 pos, size;
};
Tile TileFor(int index, int count, ImVec2 area_pos, ImVec2 area_size, float gap);

/// How many of `count` tiled panels fit the area with every tile at least kMinTileWidthEms
/// font heights wide and kMinTileHeightEms tall (at least 1): a smaller tile shows its controls
/// and almost none of its picture (four tiles on a 1024×768 projector at text ×2 are 15 × 10
/// ems, two are 15 × 19 and still show only the controls; one shows the pictures).
constexpr float kMinTileWidthEms = 20.0f;
constexpr float kMinTileHeightEms = 14.0f;
int TilesThatFit(int count, ImVec2 area_size, float font_size);

/// Whether a window at pos, width wide, keeps a grip of its title bar on a display of that size
/// (below the menu bar, above the status bar).
bool TitleBarReachable(ImVec2 pos, float width, ImVec2 display, float bar);

} // namespace pelab
