#include "panel_precision.h"

#include "layout.h"
#include "pelab/precision.h"
#include "pelab/sinusoidal.h"
#include "scene.h"
#include "widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

constexpr PeRecipe kRecipes[3] = {PeRecipe::Float32Code, PeRecipe::Float32AngleDouble,
                                  PeRecipe::PelabCore};
constexpr double kMarkedPositions[3] = {2048, 1e5, 1e6};
constexpr int kPointsPerDecade = 20;

// Short names for the legend and the table (the tooltips say what each recipe does).
const char* RecipeLabel(int recipe) {
    const char* labels[3] = {"float32 code", "float32 angle, double sin", "pelab_core"};
    return labels[recipe];
}

Role RecipeRole(int recipe) {
    const Role roles[3] = {Role::PosA, Role::Accent, Role::PosB};
    return roles[recipe];
}

} // namespace

std::string PrecisionMeaning(double position, double error, int d_model, double base) {
    const int pairs = d_model / 2;
    const int below = pairs_below_step(error, d_model, base);
    char text[512];
    if (below == 0) {
        std::snprintf(text, sizeof text,
                      "At pos %.6g an error of %.2g is smaller than the step between neighbouring "
                      "positions in every pair (the smallest step, pair %d's, is %.2g): pos %.6g "
                      "and %.6g stay apart in every pair.",
                      position, error, pairs - 1, neighbour_step(pairs - 1, d_model, base),
                      position, position + 1);
    } else if (below == pairs) {
        std::snprintf(text, sizeof text,
                      "At pos %.6g an error of %.2g is as large as the step between neighbouring "
                      "positions in every pair: the vector cannot tell pos %.6g from %.6g.",
                      position, error, position, position + 1);
    } else {
        const int first = pairs - below;
        std::snprintf(text, sizeof text,
                      "At pos %.6g an error of %.2g exceeds the step between neighbouring "
                      "positions in the %d slowest of %d pairs (pairs %d to %d, wavelengths %.3g "
                      "and more): there pos %.6g and %.6g can no longer be told apart "
                      "reliably; the other %d pairs still separate them.",
                      position, error, below, pairs, first, pairs - 1,
                      wavelength(first, d_model, base), position, position + 1, pairs - below);
    }
    return text;
}

void PrecisionPanel::UpdateCurves(const AppState& state) {
    if (cached_d_model == state.d_model && cached_base == state.base) return;
    positions.clear();
    // Whole positions, log-spaced from 1 to 10⁶ (duplicates at the low end dropped).
    for (int k = 0; k <= 6 * kPointsPerDecade; ++k) {
        const double pos = std::round(std::pow(10.0, static_cast<double>(k) / kPointsPerDecade));
        if (positions.empty() || pos != positions.back()) positions.push_back(pos);
    }
    const auto curves = recipe_error_curves(positions, state.d_model, state.base);
    for (int r = 0; r < 3; ++r) {
        errors[r] = curves[static_cast<int>(kRecipes[r])];
        for (double& error : errors[r])
            error = std::max(1e-12, error); // exact zeros (pos 1, d 2) stay on the log axis
    }
    cached_d_model = state.d_model;
    cached_base = state.base;
    cached_inspect = -1; // the table too
}

void PrecisionPanel::UpdateTable(const AppState& state) {
    if (cached_inspect == inspect_position) return;
    const auto rows = recipe_error_curves(
        {kMarkedPositions[0], kMarkedPositions[1], kMarkedPositions[2], inspect_position},
        state.d_model, state.base);
    for (int row = 0; row < 4; ++row)
        for (int r = 0; r < 3; ++r)
            table_errors[row][r] = rows[static_cast<int>(kRecipes[r])][row];
    cached_inspect = inspect_position;
}

void PrecisionPanel::Draw(FrameContext& frame) {
    if (BeginControls(frame)) {
        DrawControls(frame);
        EndControls(frame);
    }
    {
        CoreTimer core_time(frame.stats);
        UpdateCurves(frame.state);
        UpdateTable(frame.state);
    }
    const float font = ImGui::GetFontSize();
    if (!frame.pictures_first)
        MutedWrappedText("The common float32 code forms the angle pos·ω_i in float32: its relative "
                         "error of ~6e-8 becomes an absolute error that grows with pos. pelab_core "
                         "forms the angle in double and rounds only the result.");
    // The table below needs about 6 lines; the plot takes the rest.
    const float table = font * 7.5f + ImGui::GetStyle().ItemSpacing.y * 6;
    DrawPlot(frame, std::max(font * 13.0f, ImGui::GetContentRegionAvail().y - table));
    DrawTable(frame);
}

void PrecisionPanel::DrawControls(FrameContext& frame) {
    AppState& state = frame.state;
    const float slider = FitWidth(11.0f, "d_model");
    FlowRow row;
    row.Item(LabelledWidth(slider, "d_model"));
    DModelSlider(frame, slider, &d_model_note);
    frame.Record("precision.d_model");
    row.Item(LabelledWidth(slider, "base"));
    ImGui::SetNextItemWidth(slider);
    ImGui::SliderScalar("base", ImGuiDataType_Double, &state.base, &kUiMinBase, &kUiMaxBase, "%.0f",
                        ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    frame.Record("precision.base");
    const float input = FitWidth(7.0f, "inspect pos");
    row.Item(LabelledWidth(input, "inspect pos"));
    ImGui::SetNextItemWidth(input);
    double typed = inspect_position;
    if (ImGui::InputDouble("inspect pos", &typed, 0, 0, "%.0f",
                           ImGuiInputTextFlags_EnterReturnsTrue) &&
        std::isfinite(typed))
        inspect_position = std::clamp(std::round(typed), 0.0, kUiMaxPosition);
    FormulaTooltip("The position of the table's last row (or click the plot).");
    frame.Record("precision.inspect_input");
    if (!d_model_note.empty()) ErrorText(frame, d_model_note.c_str());
    state.Clamp();
}

void PrecisionPanel::DrawPlot(FrameContext& frame, float height) {
    const AppState& state = frame.state;
    view.SetHome(plot::Range{1, 1e6}, plot::Range{1e-10, 1});
    if (!view.has_home) view.Reset();
    plot::PlotConfig config;
    config.x_label = "position (click: pick it for the table)";
    config.y_label = "max |PE − exact| over all dims";
    config.x_flags = plot::AxisFlags_Log;
    config.y_flags = plot::AxisFlags_Log;
    config.x_limits = plot::Range{1, 1e6};
    config.y_limits = plot::Range{1e-13, 10};
    plot::Plot p;
    if (!p.Begin("##precision", view, ImVec2(-1, height), config)) return;
    frame.Record("precision.plot");
    const int count = static_cast<int>(positions.size());
    // The float32 code wide and underneath: the float32-angle line lies on it almost everywhere
    // (double sin/cos cannot repair the angle), and both stay visible.
    for (int r = 0; r < 3; ++r)
        p.Line(RecipeLabel(r), positions.data(), errors[r].data(), count,
               frame.Color(RecipeRole(r)), frame.Px(r == 0 ? 5.0f : 2.0f));
    // The smallest step between neighbouring positions (the slowest pair's): an error above it
    // hides a whole position in that pair.
    const int slowest = state.d_model / 2 - 1;
    p.HLine(neighbour_step(slowest, state.d_model, state.base), frame.Color(Role::Highlight),
            "step between neighbours, slowest pair", frame.Px(1.5f));
    p.VLine(std::max(1.0, inspect_position), frame.Color(Role::ShiftArc), "picked", frame.Px(1.5f));
    if (p.Clicked() && p.MouseX() >= 1)
        inspect_position = std::clamp(std::round(p.MouseX()), 1.0, kUiMaxPosition);
    p.End();
}

void PrecisionPanel::DrawTable(FrameContext& frame) {
    const AppState& state = frame.state;
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##errors", 5, flags)) return;
    const char* headers[] = {"position", "float32 code", "f32 angle", "pelab_core",
                             "pairs swamped"};
    for (const char* header : headers)
        ImGui::TableSetupColumn(header);
    const char* tooltips[] = {
        "the position p (the last row: the one you inspect)",
        "max over dims of |PE − exact|: div_term = exp(2i·(−ln base/d)), angle = p·div_term, "
        "sin and cos, every step in float32",
        "the same float32 angle, then sin and cos in double: no better, the angle is already off",
        "pelab_core: the angle in double, the result rounded once to float32",
        "pairs whose step between neighbouring positions, 2·sin(ω_i/2), is smaller than the "
        "float32 code's error: there p and p + 1 look alike"};
    TableHeadersWithTooltips(frame, tooltips, "precision");
    for (int row = 0; row < 4; ++row) {
        const double pos = row < 3 ? kMarkedPositions[row] : inspect_position;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text(row < 3 ? "%.6g" : "%.6g (picked)", pos);
        double code_error = 0;
        for (int r = 0; r < 3; ++r) {
            ImGui::TableNextColumn();
            const double error = table_errors[row][r];
            if (r == 0) code_error = error;
            ImGui::TextColored(frame.ColorVec(RecipeRole(r)), "%.2g", error);
        }
        ImGui::TableNextColumn();
        ImGui::Text("%d of %d", pairs_below_step(code_error, state.d_model, state.base),
                    state.d_model / 2);
        if (row == 3) {
            frame.Record("precision.inspected_row");
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip(
                    "%s", PrecisionMeaning(pos, code_error, state.d_model, state.base).c_str());
        }
    }
    ImGui::EndTable();
    frame.Record("precision.table");
    WrappedText(PrecisionMeaning(kMarkedPositions[1], table_errors[1][0], state.d_model, state.base)
                    .c_str());
    frame.Record("precision.meaning");
}

void PrecisionPanel::AddSceneFields(SceneTable& table) {
    table.Number("precision_position",
                 "number in [0, 1e6]: the position the precision panel inspects", &inspect_position,
                 0, kUiMaxPosition);
}

nlohmann::json PrecisionPanel::Readouts(const AppState& state) const {
    nlohmann::json rows = nlohmann::json::array();
    for (const double pos :
         {kMarkedPositions[0], kMarkedPositions[1], kMarkedPositions[2], inspect_position}) {
        nlohmann::json row = {{"position", pos}};
        for (int r = 0; r < 3; ++r) {
            const char* keys[] = {"float32_code", "float32_angle_double_sin", "pelab_core"};
            row[keys[r]] = recipe_max_error(kRecipes[r], pos, state.d_model, state.base);
        }
        row["pairs_swamped"] =
            pairs_below_step(row["float32_code"].get<double>(), state.d_model, state.base);
        rows.push_back(row);
    }
    return {{"errors", rows},
            {"slowest_neighbour_step",
             neighbour_step(state.d_model / 2 - 1, state.d_model, state.base)},
            {"meaning_at_1e5", PrecisionMeaning(1e5, rows[1]["float32_code"].get<double>(),
                                                state.d_model, state.base)}};
}

} // namespace pelab
