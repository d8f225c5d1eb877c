#include "panels/heatmap/panel_heatmap.h"

#include "io/json_input.h"
#include "io/scene.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/similarity.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/gpu_picture.h"
#include "widgets/heatmap.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

int LayoutDimension(int pair, bool is_cos, int d_model, bool concatenated) {
    return concatenated ? pair + (is_cos ? d_model / 2 : 0) : 2 * pair + (is_cos ? 1 : 0);
}

void HeatmapPanel::Draw(FrameContext& frame) {
    const AppState& state = frame.state;
    max_len = std::clamp(max_len, 1, kHeatmapMaxLen);
    if (BeginControls(frame)) {
        DrawControls(frame);
        EndControls(frame);
    }
    // The home view is the whole matrix; it is fitted again when its size changes.
    const plot::Range home_x{0.0, static_cast<double>(state.d_model)};
    const plot::Range home_y{0.0, static_cast<double>(max_len)};
    if (view_d_model != state.d_model || view_max_len != max_len) {
        view.Refit(home_x, home_y);
        view_d_model = state.d_model;
        view_max_len = max_len;
    }
    view.SetHome(home_x, home_y);
    const plot::Range positions{0.0, static_cast<double>(max_len)};
    if (similarity_view.home_x.max != max_len) similarity_view.Refit(positions, positions);
    similarity_view.SetHome(positions, positions);
    DrawLegend(frame);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float height = std::max(ImGui::GetFontSize() * 12.0f, avail.y);
    if (similarity) {
        DrawSimilarity(frame, ImVec2(-1, height));
        return;
    }
    if (!both_layouts) {
        DrawHeatmap(frame, "##pe_heatmap", concatenated, 0, ImVec2(-1, height));
        return;
    }
    // The two conventions side by side, one view: the same cell is the same (pos, dim) index.
    const float half = (avail.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    ImGui::BeginGroup();
    ImGui::TextUnformatted("interleaved: sin, cos, sin, cos, …");
    DrawHeatmap(frame, "##pe_interleaved", false, 0,
                ImVec2(half, height - ImGui::GetFrameHeight()));
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted("concatenated: all sins, then all cosines");
    DrawHeatmap(frame, "##pe_concatenated", true, 1,
                ImVec2(half, height - ImGui::GetFrameHeight()));
    ImGui::EndGroup();
}

void HeatmapPanel::DrawControls(FrameContext& frame) {
    FlowRow row;
    const char* pictures[] = {"PE matrix", "similarity PE(p)·PE(q)"};
    int picture = similarity ? 1 : 0;
    const float picture_width = FitWidth(12.0f, "show");
    row.Item(LabelledWidth(picture_width, "show"));
    ImGui::SetNextItemWidth(picture_width);
    if (ImGui::Combo("show", &picture, pictures, 2)) similarity = picture == 1;
    FormulaTooltip("PE matrix: PE(pos, dim), positions × dimensions.\nsimilarity: PE(p)·PE(q), "
                   "positions × positions, divided by its maximum d_model/2; it depends only on "
                   "p − q, so the GPU looks it up in a table of max_len values.");
    frame.Record("heatmap.picture");
    const float slider = FitWidth(10.0f, "positions");
    SceneSlider(frame, row, kHeatmapPositions, &max_len, slider);
    // The layouts are the PE matrix's business, and an advanced setting.
    if (!similarity && frame.ShowsAdvanced("heatmap.layout")) {
        const char* layouts[] = {"interleaved", "concatenated"};
        int layout = concatenated ? 1 : 0;
        const float combo = FitWidth(9.0f, "layout");
        row.Item(LabelledWidth(combo, "layout"));
        ImGui::SetNextItemWidth(combo);
        if (ImGui::Combo("layout", &layout, layouts, 2)) concatenated = layout == 1;
        FormulaTooltip(
            "interleaved: dimension 2i = sin(ω_i·pos), 2i + 1 = cos(ω_i·pos) (the paper)\n"
            "concatenated: dimensions 0 … d/2 − 1 are the sins, d/2 … d − 1 the cosines (some "
            "libraries). Same numbers, different order.");
        frame.Record("heatmap.layout");
        row.Item(CheckboxWidth("both layouts"));
        ImGui::Checkbox("both layouts", &both_layouts);
        frame.Record("heatmap.both_layouts");
    }
    if (similarity) {
        const char* scales[] = {"fitted to the data", "fixed −1 … 1"};
        int scale = fitted_colours ? 0 : 1;
        const float combo = FitWidth(10.0f, "colours");
        row.Item(LabelledWidth(combo, "colours"));
        ImGui::SetNextItemWidth(combo);
        if (ImGui::Combo("colours", &scale, scales, 2)) fitted_colours = scale == 0;
        FormulaTooltip("fitted: the colours span the lowest to the highest value of the matrix "
                       "(over a few hundred positions every value is close to 1, and −1 … 1 "
                       "shows one colour); fixed: −1 … 1, the same scale for every matrix.");
        frame.Record("heatmap.colour_scale");
    }
    row.Item(CheckboxWidth("grey"));
    ImGui::Checkbox("grey", &grey);
    FormulaTooltip("Grey levels (v + 1)/2 instead of colours: for printing.");
    frame.Record("heatmap.grey");
    row.Item(SmallButtonWidth("Reset view"));
    if (ImGui::SmallButton("Reset view")) (similarity ? similarity_view : view).Reset();
    FormulaTooltip("The whole matrix again (also: double-click the picture).");
    frame.Record("heatmap.reset_view");
    const char* hint = similarity ? "wheel: zoom  drag: pan  click: pick pos A (row) and pos B "
                                    "(column)"
                                  : "wheel: zoom  drag: pan  click: pick pos A and the pair";
    row.Item(ImGui::CalcTextSize(hint).x);
    ImGui::TextDisabled("%s", hint);
}

void HeatmapPanel::DrawLegend(FrameContext& frame) {
    HeatmapStyle style;
    style.map = {frame.Color(Role::MapNegative), frame.Color(Role::MapMiddle),
                 frame.Color(Role::MapPositive)};
    if (grey)
        style.map = {IM_COL32(0, 0, 0, 255), IM_COL32(128, 128, 128, 255),
                     IM_COL32(255, 255, 255, 255)};
    style.range = 1.0;
    ImGui::TextDisabled(similarity ? "PE(p)·PE(q) / (d/2):" : "PE value:");
    ImGui::SameLine();
    const float width = std::min(ImGui::GetFontSize() * 12.0f, ImGui::GetContentRegionAvail().x);
    if (similarity && (colour_low != -1.0 || colour_high != 1.0))
        FittedColorLegend(style.map, colour_low, colour_high, width);
    else
        ColorLegend(style, width);
    frame.Record("heatmap.colour_bar");
}

void HeatmapPanel::DrawHeatmap(FrameContext& frame, const char* id, bool concatenated_layout,
                               int slot, ImVec2 size) {
    AppState& state = frame.state;
    plot::PlotConfig config;
    config.x_label = "dimension";
    config.y_label = "position";
    config.flags = plot::PlotFlags_NoHoverReadout | plot::PlotFlags_NoLegend;
    config.x_limits = plot::Range{0.0, static_cast<double>(state.d_model)};
    config.y_limits = plot::Range{0.0, static_cast<double>(max_len)};
    plot::Plot p;
    if (!p.Begin(id, view, size, config)) return;
    frame.Record(slot == 0 ? "heatmap.plot" : "heatmap.plot_concatenated");
    HeatmapRequest request;
    request.concatenated = concatenated_layout;
    DrawGpuPicture(frame, p, view, slot, request, grey, gpu_error, "heatmap");
    // pos A and pos B rows, and the selected pair's two columns.
    const Result& result = ResultFor(state);
    if (result.pos_a_row < max_len)
        p.HLine(result.pos_a_row + 0.5, frame.Color(Role::PosA), "pos A", frame.Px(2.0f));
    if (state.pos_b < max_len)
        p.HLine(std::floor(state.pos_b) + 0.5, frame.Color(Role::PosB), "pos B", frame.Px(2.0f));
    const int layout = concatenated_layout ? 1 : 0;
    for (const int dim : {result.sin_column[layout], result.cos_column[layout]}) {
        p.VLine(dim, frame.Color(Role::Highlight), nullptr, frame.Px(1.5f));
        p.VLine(dim + 1, frame.Color(Role::Highlight), nullptr, frame.Px(1.5f));
    }
    const double mouse_dim = std::floor(p.MouseX()), mouse_pos = std::floor(p.MouseY());
    const bool on_cell = p.IsHovered() && mouse_dim >= 0 && mouse_dim < state.d_model &&
                         mouse_pos >= 0 && mouse_pos < max_len;
    if (on_cell) {
        const int dim = static_cast<int>(mouse_dim);
        const int pairs = state.d_model / 2;
        const int pair = concatenated_layout ? dim % pairs : dim / 2;
        const bool is_cos = concatenated_layout ? dim >= pairs : dim % 2 == 1;
        const double w = omega(pair, state.d_model, state.base);
        const double value =
            pe_value(mouse_pos, 2 * pair + (is_cos ? 1 : 0), state.d_model, state.base);
        ImGui::BeginTooltip();
        ImGui::Text("pos %.0f, dimension %d: pair %d, %s", mouse_pos, dim, pair,
                    is_cos ? "cos" : "sin");
        ImGui::Text("PE = %s(ω_%d · pos) = %s(%.8g · %.0f) = %+.8f", is_cos ? "cos" : "sin", pair,
                    is_cos ? "cos" : "sin", w, mouse_pos, value);
        ImGui::TextDisabled("ω_%d = base^(−2·%d/d_model) = %.6g^(−%.6f); computed in double on "
                            "the CPU. Click: pos A = %.0f, pair = %d.",
                            pair, pair, state.base, 2.0 * pair / state.d_model, mouse_pos, pair);
        ImGui::EndTooltip();
        if (p.Clicked()) {
            state.pos_a = mouse_pos;
            state.pair = pair;
        }
    }
    p.End();
}

void HeatmapPanel::DrawSimilarity(FrameContext& frame, ImVec2 size) {
    DrawSimilarityPlot(frame, "##similarity", similarity_view, max_len, 2, size, grey, gpu_error,
                       "heatmap.similarity_plot", SimilarityColumn::PosB, fitted_colours);
    double low = -1.0, high = 1.0;
    if (frame.gpu != nullptr && frame.gpu->LastValueRange(&low, &high))
        colour_low = low, colour_high = high;
}

void HeatmapPanel::AddSceneFields(SceneTable& table) {
    table.Integer(kHeatmapPositions, &max_len);
    table.Add({"heatmap_layout", "\"interleaved\" or \"concatenated\": the PE heatmap's layout",
               [this](const nlohmann::json& value, const nlohmann::json&) -> std::function<void()> {
                   if (value == "interleaved") return [this] { concatenated = false; };
                   if (value == "concatenated") return [this] { concatenated = true; };
                   throw SceneFieldError{"must be \"interleaved\" or \"concatenated\" (got " +
                                         Excerpt(value) + ")"};
               },
               [this] { return nlohmann::json(concatenated ? "concatenated" : "interleaved"); }});
    table.Bool("heatmap_both_layouts", "the PE heatmap shows both layouts side by side",
               &both_layouts);
    table.Bool("heatmap_grey", "the PE heatmap in grey levels", &grey);
    table.Bool("heatmap_similarity", "the heatmap shows PE(p)·PE(q) over positions × positions",
               &similarity);
    table.Add({"heatmap_colours", "\"fitted\" or \"fixed\": the similarity's colour scale",
               [this](const nlohmann::json& value, const nlohmann::json&) -> std::function<void()> {
                   if (value == "fitted") return [this] { fitted_colours = true; };
                   if (value == "fixed") return [this] { fitted_colours = false; };
                   throw SceneFieldError{"must be \"fitted\" or \"fixed\" (got " + Excerpt(value) +
                                         ")"};
               },
               [this] { return nlohmann::json(fitted_colours ? "fitted" : "fixed"); }});
}

HeatmapPanel::Result HeatmapPanel::Compute(const Inputs& inputs) {
    Result result;
    result.pos_a_row = static_cast<int>(std::floor(inputs.pos_a));
    for (const int layout : {0, 1}) {
        result.sin_column[layout] =
            LayoutDimension(inputs.pair, false, inputs.d_model, layout == 1);
        result.cos_column[layout] = LayoutDimension(inputs.pair, true, inputs.d_model, layout == 1);
    }
    result.sin_value = pe_value(result.pos_a_row, 2 * inputs.pair, inputs.d_model, inputs.base);
    result.cos_value = pe_value(result.pos_a_row, 2 * inputs.pair + 1, inputs.d_model, inputs.base);
    return result;
}

const HeatmapPanel::Result& HeatmapPanel::ResultFor(const AppState& state) const {
    return result_cache.Get(Inputs{state.d_model, state.pair, state.base, state.pos_a}, Compute);
}

nlohmann::json HeatmapPanel::Readouts(const AppState& state) const {
    // The cell under pos A in the selected pair, in both layouts: same value, other column.
    const Result& result = ResultFor(state);
    const int layout = concatenated ? 1 : 0;
    return {{"max_len", max_len},
            {"layout", concatenated ? "concatenated" : "interleaved"},
            {"pos_a_row", result.pos_a_row},
            {"sin_column", result.sin_column[layout]},
            {"cos_column", result.cos_column[layout]},
            {"sin_value", result.sin_value},
            {"cos_value", result.cos_value},
            // What the similarity picture's colour map ends at, as last drawn (±1 when fixed or
            // never drawn).
            {"similarity_colours",
             {{"scale", fitted_colours ? "fitted" : "fixed"},
              {"low", colour_low},
              {"high", colour_high}}}};
}

std::vector<WidgetName> HeatmapPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        {"heatmap.both_layouts",
         "the both layouts checkbox: interleaved and concatenated side by side"},
        {"heatmap.grey", "the grey checkbox: grey levels instead of colours, for printing"},
        {"heatmap.layout", "the layout dropdown: sin and cos dims interleaved or concatenated"},
        ControlWidget(kHeatmapPositions),
        {"heatmap.picture", "the show dropdown: the PE matrix or the similarity of positions"},
        {"heatmap.plot", "the PE matrix heatmap (the interleaved one when both layouts show)"},
        {"heatmap.plot_concatenated",
         "the concatenated-layout heatmap, right of the interleaved one"},
        {"heatmap.reset_view", "the Reset view button: zooms back out to the whole matrix"},
        {"heatmap.similarity_plot",
         "the similarity heatmap: the PE dot product of every two positions"},
        {"heatmap.colour_scale", "the colours dropdown: scale fitted to the data or fixed -1 to 1"},
        {"heatmap.colour_bar",
         "the colour bar saying which colour stands for which value",
         {"similarity_colours"}},
    };
}

} // namespace pelab
