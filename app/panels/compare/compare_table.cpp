// compare_table.cpp — the compare panel's table of every dimension (the formula's PE(A), PE(B),
// their difference and each pair's share of the dot product), its filter, and its CSV.
#include "panels/compare/panel_compare.h"
#include "panels/scene_controls.h"

#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

float ComparePanel::ShortTableHeight() {
    // The header and three rows, each a text line and its cell padding, and the borders.
    const float row = ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2;
    return row * 4 + 2.0f;
}

bool ComparePanel::FilterUnderTable(const FrameContext& frame) const {
    // Not when it went into the strip, and not on a slide whose step needs no controls.
    return frame.show_controls && !filter_in_strip && (!frame.slides || frame.slide_controls);
}

void ComparePanel::DrawFilterControls(FrameContext& frame, int d) {
    const char* filters[] = {"all", "sin only (even dims)", "cos only (odd dims)", "range",
                             "every k-th"};
    int filter_index = static_cast<int>(filter);
    FlowRow row;
    const float combo = FitWidth(11.0f, "show dimensions");
    row.Item(LabelledWidth(combo, "show dimensions"));
    ImGui::SetNextItemWidth(combo);
    if (ImGui::Combo("show dimensions", &filter_index, filters, IM_ARRAYSIZE(filters)))
        filter = static_cast<DimensionFilter>(filter_index);
    frame.Record("compare.filter");
    if (filter == DimensionFilter::Range) {
        SceneRange(frame, row, kCompareRangeFirst, kCompareRangeLast, &range_first, &range_last,
                   FitWidth(12.0f, "dims"), d - 1);
    } else if (filter == DimensionFilter::EveryKth) {
        SceneSlider(frame, row, kCompareEveryK, &every_k, FitWidth(8.0f, "k-th"));
    }
}

bool ComparePanel::BeginDimensionTable(FrameContext& frame, const char* id, int columns, int d) {
    if (FilterUnderTable(frame)) DrawFilterControls(frame, d);
    range_first = std::clamp(range_first, 0, d - 1);
    range_last = std::clamp(range_last, range_first, d - 1);
    visible_dims.clear();
    for (int dim = 0; dim < d; ++dim)
        if (Shows(dim, d)) visible_dims.push_back(dim);
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersV |
                                  ImGuiTableFlags_Resizable;
    // A scrolling table makes a child window; in a window that is drawn hidden this frame (as
    // ImGui does while it measures one) the child skips its items while the table's columns
    // count as visible, and ImGui 1.86 asserts. Such a frame shows nothing anyway.
    if (ImGui::GetCurrentWindowRead()->Hidden || ImGui::GetContentRegionAvail().x < 1.0f)
        return false;
    const float font = ImGui::GetFontSize();
    if (!ImGui::BeginTable(id, columns, flags,
                           ImVec2(0, std::max(in_band ? ShortTableHeight() : font * 8.0f,
                                              ImGui::GetContentRegionAvail().y))))
        return false;
    ImGui::TableSetupScrollFreeze(0, 1);
    return true;
}

void ComparePanel::DrawTable(FrameContext& frame) {
    AppState& state = frame.state;
    const float font = ImGui::GetFontSize();
    // The width the vectors were computed for this frame (never past their end).
    const int d = static_cast<int>(shown->pe_a.size());
    if (!BeginDimensionTable(frame, "##dims", 6, d)) return;
    ImGui::TableSetupColumn("dim", ImGuiTableColumnFlags_WidthFixed, font * 4.5f);
    ImGui::TableSetupColumn("ω", ImGuiTableColumnFlags_WidthFixed, font * 4.5f);
    ImGui::TableSetupColumn("PE_A", ImGuiTableColumnFlags_WidthFixed, font * 4.5f);
    ImGui::TableSetupColumn("PE_B", ImGuiTableColumnFlags_WidthFixed, font * 4.5f);
    ImGui::TableSetupColumn("|Δ|", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("pair share", ImGuiTableColumnFlags_WidthStretch);
    const char* const header_tips[] = {
        "dimension: 2i holds sin(ω_i·pos), 2i + 1 holds cos(ω_i·pos)",
        "ω_i = base^(−2i/d_model): how fast pair i turns, in radians per position",
        "PE(A) in this dimension",
        "PE(B) in this dimension",
        "Δ = |PE_A − PE_B|: how much this dimension differs between A and B (0 to 2)",
        ("pair i's share of the dot product: sin·sin + cos·cos = cos(ω_i·(A − B)), from −1 to 1; "
         "the shares add up to PE(A)·PE(B)")};
    TableHeadersWithTooltips(frame, header_tips, "compare.table");
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(visible_dims.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const int dim = visible_dims[row], pair = dim / 2;
            const double delta = std::fabs(shown->pe_a[dim] - shown->pe_b[dim]);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d %s", dim, dim % 2 == 0 ? "sin" : "cos");
            const char* fn = dim % 2 == 0 ? "sin" : "cos";
            ImGui::TableNextColumn();
            ImGui::Text(shown->omegas[pair] >= 0.01 ? "%.3f" : "%.2e", shown->omegas[pair]);
            if (ImGui::IsItemHovered())
                Tooltip("ω_%d = base^(−2·%d/d) = %.6g^(−%.6f) = %.8g", pair, pair, state.base,
                        2.0 * pair / d, shown->omegas[pair]);
            ImGui::TableNextColumn();
            ImGui::Text("%+.3f", shown->pe_a[dim]);
            if (ImGui::IsItemHovered())
                Tooltip("PE(A, %d) = %s(ω_%d · A) = %s(%.8g · %.6g) = %+.8f", dim, fn, pair, fn,
                        shown->omegas[pair], state.pos_a, shown->pe_a[dim]);
            ImGui::TableNextColumn();
            ImGui::Text("%+.3f", shown->pe_b[dim]);
            if (ImGui::IsItemHovered())
                Tooltip("PE(B, %d) = %s(ω_%d · B) = %s(%.8g · %.6g) = %+.8f", dim, fn, pair, fn,
                        shown->omegas[pair], state.pos_b, shown->pe_b[dim]);
            // Δ in [0, 2]: a bar from the left.
            ImGui::TableNextColumn();
            {
                const ImVec2 p = ImGui::GetCursorScreenPos();
                const float width = ImGui::GetContentRegionAvail().x,
                            height = ImGui::GetTextLineHeight();
                draw->AddRectFilled(
                    p, ImVec2(p.x + width * static_cast<float>(delta / 2.0), p.y + height),
                    frame.Color(Role::Magnitude));
                ImGui::Text("%.2f", delta);
                if (ImGui::IsItemHovered())
                    Tooltip("Δ = |PE_A − PE_B| = |%+.6f − %+.6f| = %.6f (at most 2)",
                            shown->pe_a[dim], shown->pe_b[dim], delta);
            }
            // Pair share in [−1, 1]: a bar from the centre, on the pair's sin row.
            ImGui::TableNextColumn();
            if (dim % 2 == 0 || filter == DimensionFilter::CosOnly) {
                const double share = shown->contributions[pair];
                const ImVec2 p = ImGui::GetCursorScreenPos();
                const float width = ImGui::GetContentRegionAvail().x,
                            height = ImGui::GetTextLineHeight();
                const float mid = p.x + width * 0.5f;
                const float end = mid + width * 0.5f * static_cast<float>(share);
                draw->AddRectFilled(
                    ImVec2(std::min(mid, end), p.y), ImVec2(std::max(mid, end), p.y + height),
                    share >= 0 ? frame.Color(Role::Positive) : frame.Color(Role::Negative));
                draw->AddLine(ImVec2(mid, p.y), ImVec2(mid, p.y + height), text_color);
                ImGui::Text("%+.3f", share);
                if (ImGui::IsItemHovered())
                    Tooltip("pair %d: sin·sin + cos·cos = cos(ω_%d · (A − B)) = cos(%.4f · %.6g)",
                            pair, pair, shown->omegas[pair], state.pos_a - state.pos_b);
            }
        }
    }
    ImGui::EndTable();
    frame.Record("compare.table");
}

bool ComparePanel::Shows(int dim, int d) const {
    const int first = std::clamp(range_first, 0, d - 1);
    const int last = std::clamp(range_last, first, d - 1);
    switch (filter) {
    case DimensionFilter::All:
        return true;
    case DimensionFilter::SinOnly:
        return dim % 2 == 0;
    case DimensionFilter::CosOnly:
        return dim % 2 == 1;
    case DimensionFilter::Range:
        return dim >= first && dim <= last;
    case DimensionFilter::EveryKth:
        return dim % std::max(every_k, 1) == 0;
    }
    return true;
}

std::string ComparePanel::TableCsv(const AppState& state) const {
    if (ShowsRows(state)) return RowsCsv(state);
    // The rows the table shows, from the same result.
    const int d = state.d_model;
    const Result& result = ResultFor(state);
    const std::vector<double>& a = result.pe_a;
    const std::vector<double>& b = result.pe_b;
    std::string csv = "dim,function,omega,pe_a,pe_b,abs_delta,pair_share\n";
    char line[256];
    for (int dim = 0; dim < d; ++dim) {
        if (!Shows(dim, d)) continue;
        const int pair = dim / 2;
        const double omega = result.omegas[pair];
        const double share = result.contributions[pair];
        std::snprintf(line, sizeof line, "%d,%s,%.17g,%.17g,%.17g,%.17g,%.17g\n", dim,
                      dim % 2 == 0 ? "sin" : "cos", omega, a[dim], b[dim],
                      std::fabs(a[dim] - b[dim]), share);
        csv += line;
    }
    return csv;
}

} // namespace pelab
