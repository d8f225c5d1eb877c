#include "widgets/heatmap.h"

#include "widgets/fonts.h"
#include "widgets/widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace pelab {

std::string FitColumnLabel(const std::string& label, float width,
                           const std::function<float(const std::string&)>& measure) {
    const std::size_t space = label.find(' ');
    if (measure(label) <= width || space == std::string::npos) return label;
    const std::string word = label.substr(space + 1), index = label.substr(0, space);
    return measure(word) <= width ? word : index;
}

namespace {
ImU32 CellColor(const HeatmapStyle& style, double value) {
    if (style.diverging) {
        const double range = style.range > 0 ? style.range : 1.0;
        return plot::Diverging(value / range, style.map);
    }
    const double span = style.range - style.range_min;
    return plot::Sequential(span > 0 ? (value - style.range_min) / span : 0.5);
}
} // namespace

float HeatmapLabelWidth(const std::vector<std::string>& row_labels) {
    float width = 0;
    for (const std::string& label : row_labels)
        width = std::max(width, ImGui::CalcTextSize(label.c_str()).x);
    return width + ImGui::GetFontSize() * 0.5f;
}

float HeatmapWidth(const std::vector<std::string>& row_labels, int cols, float cell_size) {
    return HeatmapLabelWidth(row_labels) + cols * cell_size;
}

float HeatmapHeight(int rows, float cell_size) {
    return ImGui::GetFontSize() * 1.4f + rows * cell_size;
}

void AnnotatedHeatmap(const char* id, const double* values, int rows, int cols,
                      const std::vector<std::string>& row_labels,
                      const std::vector<std::string>& col_labels, const HeatmapStyle& style,
                      const char* tooltip_note) {
    if (rows <= 0 || cols <= 0) return;
    const float font = ImGui::GetFontSize();
    const float label_width = HeatmapLabelWidth(row_labels);
    const float cell = style.cell_size > 0 ? style.cell_size : font * 3.4f;
    const float cell_w = style.cell_width > 0 ? style.cell_width : cell; // wider to fill a row
    const float header = font * 1.4f;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(label_width + cols * cell_w, header + rows * cell);
    ImGui::InvisibleButton(id, size);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    // Column labels, clipped to their cell.
    for (int c = 0; c < cols && c < static_cast<int>(col_labels.size()); ++c) {
        const ImVec2 min(origin.x + label_width + c * cell_w, origin.y);
        const ImVec2 max(min.x + cell_w, origin.y + header);
        const std::string label =
            FitColumnLabel(col_labels[c], cell_w - ImGui::GetFontSize() * 0.5f,
                           [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; });
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        draw->PushClipRect(min, max, true);
        draw->AddText(ImVec2(min.x + std::max(2.0f, (cell_w - w) * 0.5f), min.y), text,
                      label.c_str());
        draw->PopClipRect();
    }
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    char buffer[64];
    for (int r = 0; r < rows; ++r) {
        const float y = origin.y + header + r * cell;
        if (r < static_cast<int>(row_labels.size()))
            draw->AddText(ImVec2(origin.x, y + (cell - font) * 0.5f), text, row_labels[r].c_str());
        for (int c = 0; c < cols; ++c) {
            const double value = values[static_cast<std::size_t>(r) * cols + c];
            const ImVec2 min(origin.x + label_width + c * cell_w, y);
            const ImVec2 max(min.x + cell_w - 1.0f, y + cell - 1.0f);
            const ImU32 fill = CellColor(style, value);
            draw->AddRectFilled(min, max, fill);
            if (style.value_format && cell >= font * 1.2f && cell_w >= font * 2.0f) {
                std::snprintf(buffer, sizeof buffer, style.value_format, value);
                const ImVec2 sz = ImGui::CalcTextSize(buffer);
                draw->PushClipRect(min, max, true);
                draw->AddText(ImVec2(min.x + (cell_w - sz.x) * 0.5f, min.y + (cell - sz.y) * 0.5f),
                              plot::TextColorOn(fill), buffer);
                draw->PopClipRect();
            }
            if (r == style.highlight_row && c == style.highlight_col) {
                // The highlight colour inside a contrasting ring, so the outline reads on any
                // cell colour (yellow alone vanished on orange cells).
                // Ring widths grow with the text (3 and 5 px at the base size).
                const float ring = std::max(1.0f, font / kBaseFontPixels);
                draw->AddRect(ImVec2(min.x - 2 * ring, min.y - 2 * ring),
                              ImVec2(max.x + 2 * ring, max.y + 2 * ring),
                              plot::TextColorOn(style.highlight), 0.0f, 0, 5.0f * ring);
                draw->AddRect(ImVec2(min.x - ring, min.y - ring),
                              ImVec2(max.x + ring, max.y + ring), style.highlight, 0.0f, 0,
                              3.0f * ring);
            }
            if (hovered && mouse.x >= min.x && mouse.x < max.x + 1 && mouse.y >= min.y &&
                mouse.y < max.y + 1) {
                ImGui::BeginTooltip();
                ImGui::Text("%s → %s: %.6f",
                            r < static_cast<int>(row_labels.size()) ? row_labels[r].c_str() : "?",
                            c < static_cast<int>(col_labels.size()) ? col_labels[c].c_str() : "?",
                            value);
                if (tooltip_note) ImGui::TextDisabled("%s", tooltip_note);
                ImGui::EndTooltip();
            }
        }
    }
}

namespace {

// The bar of ColorLegend, `width` wide from `origin`.
void DrawColorBar(const HeatmapStyle& style, ImVec2 origin, float width, float height) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const int steps = 48;
    for (int k = 0; k < steps; ++k) {
        const double t0 = static_cast<double>(k) / steps;
        const double value = style.diverging
                                 ? (2 * t0 - 1) * style.range
                                 : style.range_min + t0 * (style.range - style.range_min);
        draw->AddRectFilled(ImVec2(origin.x + width * k / steps, origin.y),
                            ImVec2(origin.x + width * (k + 1) / steps + 1, origin.y + height),
                            CellColor(style, value));
    }
}

} // namespace

void ColorLegend(const HeatmapStyle& style, float width, bool labels_beside) {
    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float height = font * 0.8f;
    char low[32], high[32];
    std::snprintf(low, sizeof low, "%.3g", style.diverging ? -style.range : style.range_min);
    std::snprintf(high, sizeof high, "%.3g", style.range);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (labels_beside) {
        // low ▭ high on one text line.
        const float gap = font * 0.4f, low_width = ImGui::CalcTextSize(low).x;
        draw->AddText(origin, text, low);
        DrawColorBar(style, ImVec2(origin.x + low_width + gap, origin.y + (font - height) * 0.5f),
                     width, height);
        draw->AddText(ImVec2(origin.x + low_width + 2 * gap + width, origin.y), text, high);
        ImGui::Dummy(ImVec2(low_width + 2 * gap + width + ImGui::CalcTextSize(high).x,
                            ColorLegendHeight(true)));
        return;
    }
    DrawColorBar(style, origin, width, height);
    draw->AddText(ImVec2(origin.x, origin.y + height), text, low);
    draw->AddText(ImVec2(origin.x + width - ImGui::CalcTextSize(high).x, origin.y + height), text,
                  high);
    ImGui::Dummy(ImVec2(width, ColorLegendHeight()));
}

float ColorLegendHeight(bool labels_beside) {
    return labels_beside ? ImGui::GetFontSize() : ImGui::GetFontSize() * 1.9f;
}

void FittedColorLegend(const plot::DivergingMap& map, double low, double high, float width) {
    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float height = font * 0.8f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const int steps = 48;
    for (int k = 0; k < steps; ++k)
        draw->AddRectFilled(ImVec2(origin.x + width * k / steps, origin.y),
                            ImVec2(origin.x + width * (k + 1) / steps + 1, origin.y + height),
                            plot::Diverging(2.0 * k / (steps - 1) - 1.0, map));
    // Enough digits to tell the three labels apart (a table of near-1 values needs more than 3).
    const double middle = (low + high) / 2;
    int digits = 3;
    char text[3][32];
    for (; digits <= 8; ++digits) {
        std::snprintf(text[0], sizeof text[0], "%.*g", digits, low);
        std::snprintf(text[1], sizeof text[1], "%.*g", digits, middle);
        std::snprintf(text[2], sizeof text[2], "%.*g", digits, high);
        if (std::strcmp(text[0], text[1]) != 0 && std::strcmp(text[1], text[2]) != 0) break;
    }
    const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
    const float y = origin.y + height;
    draw->AddText(ImVec2(origin.x, y), colour, text[0]);
    draw->AddText(ImVec2(origin.x + (width - ImGui::CalcTextSize(text[1]).x) / 2, y), colour,
                  text[1]);
    draw->AddText(ImVec2(origin.x + width - ImGui::CalcTextSize(text[2]).x, y), colour, text[2]);
    ImGui::Dummy(ImVec2(width, height + font * 1.1f));
    if (ImGui::IsItemHovered())
        Tooltip("Colours fitted to the values shown: %s (lowest) … %s (highest); the "
                "middle colour is their midpoint %s, not 0.",
                text[0], text[2], text[1]);
}

} // namespace pelab
