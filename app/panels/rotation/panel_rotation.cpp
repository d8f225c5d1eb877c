#include "panels/rotation/panel_rotation.h"
#include "widgets/number_text.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/rotation.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/gpu_picture.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pelab {

namespace {
constexpr NumberControl kRotationPair =
    Drawn(kPair, "pair i", "rotation.pair",
          "The pair drawn on the circle (Up/Down arrows), shared with every panel.");
constexpr NumberControl kRotationShift =
    Drawn(kShiftK, "k", "rotation.shift_k",
          "The shift: from pos A to pos A + k (Ctrl+click to type up to ±1000).");
constexpr NumberControl kRotationPosA = Drawn(kPosA, "pos A", "rotation.pos_a");
constexpr NumberControl kRotationCurveK{"rotation_max_k",
                                        "the rotation curves run over k = -K ... K",
                                        1,
                                        kRotationMaxK,
                                        40,
                                        "curves ±K",
                                        "%d",
                                        true,
                                        "The curves of PE(p)·PE(p + k) run over k = −K … K.",
                                        "rotation.max_k"};
constexpr NumberControl kRotationHeatmapLen{
    "rotation_len",
    "positions of the rotation panel's heatmap",
    2,
    kRotationMaxLen,
    256,
    "heatmap L",
    "%d",
    true,
    "Positions of the similarity heatmap, 2 to 4096. It is built from the 1-D table f(k) = "
    "Σ cos(ω_i k): O(L·d) work, not O(L²·d).",
    "rotation.similarity_len"};
} // namespace

std::vector<double> RotationPanel::Starts(double pos_a) {
    std::vector<double> starts;
    // Upwards from pos A, or downwards where that would pass the last position, so the four
    // starts stay four different positions.
    for (const double offset : {0.0, 100.0, 1000.0, 10000.0})
        starts.push_back(pos_a + offset <= kUiMaxPosition ? pos_a + offset
                                                          : std::max(0.0, pos_a - offset));
    return starts;
}

RotationPanel::CurvesResult RotationPanel::ComputeCurves(const CurvesInputs& inputs) {
    CurvesResult result;
    const std::vector<double> starts = Starts(inputs.pos_a);
    for (const double p : starts) {
        Curve curve;
        curve.start = p;
        const int k_min = std::max(-inputs.max_k, static_cast<int>(-std::floor(p)));
        const int k_max = std::min(inputs.max_k, static_cast<int>(std::floor(kUiMaxPosition - p)));
        if (k_min <= k_max) {
            curve.dots = shift_dot_products(p, k_min, k_max, inputs.d_model, inputs.base);
            for (int k = k_min; k <= k_max; ++k)
                curve.ks.push_back(k);
        }
        result.curves.push_back(std::move(curve));
    }
    // The spread over the offsets every curve has.
    double k_min = -inputs.max_k, k_max = inputs.max_k;
    for (const Curve& curve : result.curves) {
        if (curve.ks.empty())
            k_min = 1, k_max = 0;
        else
            k_min = std::max(k_min, curve.ks.front()), k_max = std::min(k_max, curve.ks.back());
    }
    for (double k = k_min; k <= k_max; ++k) {
        double low = 1e300, high = -1e300;
        for (const Curve& curve : result.curves) {
            const double dot = curve.dots[static_cast<std::size_t>(k - curve.ks.front())];
            low = std::min(low, dot), high = std::max(high, dot);
        }
        result.spread = std::max(result.spread, high - low);
    }
    return result;
}

const RotationPanel::CurvesResult& RotationPanel::Curves(const AppState& state) const {
    return curves_cache.GetNow(CurvesInputs{state.pos_a, state.base, state.d_model, curve_max_k},
                               ComputeCurves);
}

void RotationPanel::Draw(FrameContext& frame) {
    if (BeginControls(frame)) {
        DrawControls(frame);
        EndControls(frame);
    }
    const CurvesResult* curves = nullptr;
    {
        CoreTimer core_time(frame.stats);
        curves = &curves_cache.GetForFrame(
            CurvesInputs{frame.state.pos_a, frame.state.base, frame.state.d_model, curve_max_k},
            ComputeCurves, frame.compute_in_background, &curves_current, &frame.stats.computing);
    }
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    // The similarity picture, in a child of its own width so that its title wraps to it.
    const auto draw_similarity = [&](float width, float height) {
        similarity_view.SetHome(plot::Range{0, static_cast<double>(similarity_len)},
                                plot::Range{0, static_cast<double>(similarity_len)});
        if (similarity_view_len != similarity_len)
            similarity_view.Reset(), similarity_view_len = similarity_len;
        ImGui::BeginChild("##similarity_area", ImVec2(width, height), false,
                          ImGuiWindowFlags_NoScrollbar);
        char title[160];
        std::snprintf(title, sizeof title,
                      "PE(p)·PE(q) / %d over %d positions: each diagonal (one p − q) has one "
                      "colour.",
                      frame.state.d_model / 2, similarity_len);
        WrappedText(title);
        DrawSimilarityPlot(frame, "##rotation_similarity", similarity_view, similarity_len, 3,
                           ImVec2(-1, ImGui::GetContentRegionAvail().y), false, gpu_error,
                           "rotation.similarity", SimilarityColumn::ShiftK);
        ImGui::EndChild();
    };
    // Beside the text when the width allows (then 40 % of the height), else alone on its row.
    const bool beside = avail.x > font * 48.0f;
    if (frame.pictures_first && !beside) {
        // A short, narrow window (a projector at text ×2): the circle and the curves side by
        // side over the whole height, the two pictures of "a shift is a fixed turn"; the matrix,
        // its residual and the similarity picture follow below the fold.
        // The curves take the larger share: their legend names all four starts.
        // A slide about the turn itself (the matrix or its residual, not the curves) leaves the
        // curves out: the circle, the matrix and the residual are its subject, whole.
        const bool turn_slide =
            (frame.SlideOutlines("rotation.matrix") || frame.SlideOutlines("rotation.residual")) &&
            !frame.SlideOutlines("rotation.curves");
        const float circle_width = (avail.x - spacing) * 0.28f;
        const float band = std::max(font * 10.0f, avail.y);
        DrawCircle(frame, turn_slide ? std::max(font * 8.0f, avail.y * 0.4f)
                                     : std::min(band, circle_width));
        if (!turn_slide) {
            ImGui::SameLine();
            ImGui::BeginChild("##curves_area", ImVec2(0, band), false,
                              ImGuiWindowFlags_NoScrollbar);
            DrawCurves(frame, ImGui::GetContentRegionAvail(), *curves);
            ImGui::EndChild();
        }
        DrawMatrix(frame);
        draw_similarity(avail.x, std::max(font * 12.0f, avail.y));
        return;
    }
    // The circle and its matrix on top, the two "depends only on k" pictures below: side by
    // side when there is width for both, stacked otherwise.
    const float circle_size =
        beside ? std::clamp(std::min(avail.y * 0.4f, avail.x * 0.4f), font * 8.0f, font * 24.0f)
               : std::clamp(std::min(std::max(avail.y * 0.6f, font * 12.0f), avail.x), font * 8.0f,
                            font * 24.0f);
    DrawCircle(frame, circle_size);
    SameLineIfFits(font * 24.0f);
    ImGui::BeginGroup();
    DrawMatrix(frame);
    ImGui::EndGroup();
    const float rest = ImGui::GetContentRegionAvail().y;
    const bool side_by_side = avail.x > font * 50.0f;
    const float width = side_by_side ? (avail.x - spacing) * 0.5f : -1.0f;
    const float height = std::max(font * 10.0f, side_by_side ? rest : rest * 0.5f);
    // Each picture in a child of its own width, so that its title wraps to the picture.
    const float child_width = side_by_side ? width : avail.x;
    ImGui::BeginChild("##curves_area", ImVec2(child_width, height), false,
                      ImGuiWindowFlags_NoScrollbar);
    DrawCurves(frame, ImGui::GetContentRegionAvail(), *curves);
    ImGui::EndChild();
    if (side_by_side) ImGui::SameLine();
    draw_similarity(child_width, height);
}

void RotationPanel::DrawControls(FrameContext& frame) {
    AppState& state = frame.state;
    FlowRow row;
    const float slider = FitWidth(9.0f, "pair i");
    SceneSlider(frame, row, kRotationPair, &state.pair, slider, state.d_model / 2 - 1);
    SceneSlider(frame, row, kRotationShift, &state.shift_k, slider);
    SceneDrag(frame, row, kRotationPosA, &state.pos_a, slider, 0.5f, PositionFormat(state.pos_a));
    SceneSlider(frame, row, kRotationCurveK, &curve_max_k, slider);
    SceneSlider(frame, row, kRotationHeatmapLen, &similarity_len, slider);
}

void RotationPanel::DrawCircle(FrameContext& frame, float size) {
    const AppState& state = frame.state;
    const double w = omega(state.pair, state.d_model, state.base);
    const double from = w * state.pos_a, turn = w * state.shift_k;
    circle_view.SetHome(plot::Range{-1.35, 1.35}, plot::Range{-1.35, 1.35});
    if (!circle_view.has_home) circle_view.Reset();
    plot::PlotConfig config;
    // No legend or axis titles: the matrix text beside it names the colours, and a small circle
    // keeps its room for the picture.
    config.flags =
        plot::PlotFlags_EqualAspect | plot::PlotFlags_NoHoverReadout | plot::PlotFlags_NoLegend;
    plot::Plot p;
    if (!p.Begin("##circle", circle_view, ImVec2(size, size), config)) return;
    frame.Record("rotation.circle");
    // The circle, then the arc of the turn by ω_i·k (one turn at most), then the two points.
    // Points are (sin θ, cos θ), as the clock hands: up at θ = 0, clockwise.
    double xs[129], ys[129];
    for (int k = 0; k <= 128; ++k) {
        xs[k] = std::sin(2 * M_PI * k / 128);
        ys[k] = std::cos(2 * M_PI * k / 128);
    }
    p.Line("##circle", xs, ys, 129, ImGui::GetColorU32(ImGuiCol_Border, 1.0f), frame.Px(1.5f));
    const double ax[] = {0, std::sin(from)}, ay[] = {0, std::cos(from)};
    // pos A + k only where it is a position (the text says so otherwise).
    const double shifted = state.pos_a + state.shift_k;
    if (shifted >= 0 && shifted <= kUiMaxPosition) {
        const double shown = std::clamp(turn, -2 * M_PI, 2 * M_PI);
        for (int k = 0; k <= 64; ++k) {
            xs[k] = 0.8 * std::sin(from + shown * k / 64);
            ys[k] = 0.8 * std::cos(from + shown * k / 64);
        }
        p.Line("turn ω_i·k", xs, ys, 65, frame.Color(Role::ShiftArc), frame.Px(3.0f));
        const double bx[] = {0, std::sin(from + turn)}, by[] = {0, std::cos(from + turn)};
        p.Line("PE_i(pos A + k)", bx, by, 2, frame.Color(Role::PosB), frame.Px(2.5f));
        p.Markers("##b", bx + 1, by + 1, 1, frame.Color(Role::PosB), frame.Px(6.0f),
                  plot::Marker::Ring);
    }
    p.Line("PE_i(pos A)", ax, ay, 2, frame.Color(Role::PosA), frame.Px(2.5f));
    p.Markers("##a", ax + 1, ay + 1, 1, frame.Color(Role::PosA), frame.Px(6.0f));
    p.End();
}

void RotationPanel::DrawMatrix(FrameContext& frame) {
    const AppState& state = frame.state;
    const int i = state.pair, k = state.shift_k;
    const double w = omega(i, state.d_model, state.base);
    const Rotation2 r = rotation_matrix(i, k, state.d_model, state.base);
    char line[256];
    std::snprintf(line, sizeof line,
                  "Pair %d turns ω_%d = %s rad per position, so k = %d turns it by ω·k = %s "
                  "rad (the arc).",
                  i, i, ShownNumber(w).c_str(), k, ShownNumber(w * k).c_str());
    WrappedText(line);
    // R_k beside its numbers, as two aligned rows.
    const ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX;
    if (ImGui::BeginTable("##r_k", 6, flags)) {
        const char* formula[2][2] = {{"cos ω·k", "sin ω·k"}, {"−sin ω·k", "cos ω·k"}};
        const double numbers[2][2] = {{r.m00, r.m01}, {r.m10, r.m11}};
        for (int row = 0; row < 2; ++row) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(row == 0 ? "R_k =" : "");
            for (int col = 0; col < 2; ++col) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(formula[row][col]);
            }
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(row == 0 ? "=" : "");
            for (int col = 0; col < 2; ++col) {
                ImGui::TableNextColumn();
                ImGui::Text("%+.6f", numbers[row][col]);
            }
        }
        ImGui::EndTable();
    }
    FormulaTooltip("R_k acts on the column (sin, cos) of pair i: sin(θ + ω·k) = cos ω·k · sin θ + "
                   "sin ω·k · cos θ, cos(θ + ω·k) = −sin ω·k · sin θ + cos ω·k · cos θ.");
    frame.Record("rotation.matrix");
    const double pos_b = state.pos_a + k;
    if (pos_b < 0 || pos_b > kUiMaxPosition) {
        ErrorText(frame, "pos A + k is outside [0, 1000000]: move pos A or k to compare.");
        return;
    }
    double rotated_sin = 0, rotated_cos = 0;
    apply_rotation(r, std::sin(w * state.pos_a), std::cos(w * state.pos_a), &rotated_sin,
                   &rotated_cos);
    ImGui::TextColored(frame.ColorVec(Role::PosA), "PE_%d(pos A = %.6g) = (%+.6f, %+.6f)", i,
                       state.pos_a, std::sin(w * state.pos_a), std::cos(w * state.pos_a));
    ImGui::TextColored(frame.ColorVec(Role::PosB), "PE_%d(pos A + k = %.6g) = (%+.6f, %+.6f)", i,
                       pos_b, std::sin(w * pos_b), std::cos(w * pos_b));
    ImGui::Text("R_k · PE_%d(pos A) = (%+.6f, %+.6f)", i, rotated_sin, rotated_cos);
    double residual = 0, residual_float = 0;
    {
        CoreTimer core_time(frame.stats);
        residual = rotation_residual_double(state.pos_a, k, state.d_model, state.base);
        residual_float = rotation_residual(state.pos_a, k, state.d_model, state.base);
    }
    std::snprintf(line, sizeof line,
                  "Over %s %d pair%s, max |PE(pos A + k) − R_k·PE(pos A)| = %s in double "
                  "(%s with float32 vectors): the same R_k, whatever pos A.",
                  state.d_model > 2 ? "all" : "its", state.d_model / 2,
                  state.d_model > 2 ? "s" : "", ShownNumber(residual, 2).c_str(),
                  ShownNumber(residual_float, 2).c_str());
    WrappedText(line);
    FormulaTooltip("Each pair's (sin, cos) turned by its own R_k, compared with PE(pos A + k) "
                   "computed directly; only rounding is left.");
    frame.Record("rotation.residual");
}

void RotationPanel::DrawCurves(FrameContext& frame, ImVec2 size, const CurvesResult& result) {
    const AppState& state = frame.state;
    const std::vector<Curve>& curves = result.curves;
    const double spread = result.spread;
    double low = 0, high = 1;
    for (const Curve& curve : curves)
        for (const double dot : curve.dots)
            low = std::min(low, dot), high = std::max(high, dot);
    const double margin = 0.08 * (high - low);
    curve_view.SetHome(plot::Range{-1.0 * curve_max_k, 1.0 * curve_max_k},
                       plot::Range{low - margin, high + 2 * margin});
    if (curve_view_k != curve_max_k || curve_view_d_model != state.d_model ||
        curve_view_base != state.base)
        curve_view.Reset();
    curve_view_k = curve_max_k, curve_view_d_model = state.d_model, curve_view_base = state.base;
    ImGui::BeginGroup();
    char title[280];
    // The claim follows the measurement: a spread above a millionth of the curves' size (d/2)
    // would be visible, and then the sentence only reports it.
    if (spread <= 1e-6 * state.d_model / 2)
        std::snprintf(title, sizeof title,
                      "PE(p)·PE(p + k) from %d starts p: the curves lie on each other (largest "
                      "spread %s), so the dot product depends only on k.",
                      kRotationStarts, ShownNumber(spread, 2).c_str());
    else
        std::snprintf(title, sizeof title,
                      "PE(p)·PE(p + k) from %d starts p: largest spread between the curves %s.",
                      kRotationStarts, ShownNumber(spread, 2).c_str());
    // Shown while the curves for the new settings are computed off the frame: the curves and
    // the spread drawn are the last ones (their starts are in the legend).
    if (!curves_current)
        std::snprintf(title + std::strlen(title), sizeof title - std::strlen(title),
                      " (updating…)");
    if (std::abs(state.shift_k) > curve_max_k) {
        char note[96];
        std::snprintf(note, sizeof note, " k = %d is beyond ±K, off this chart.", state.shift_k);
        std::snprintf(title + std::strlen(title), sizeof title - std::strlen(title), "%s", note);
    }
    const float title_top = ImGui::GetCursorPosY();
    WrappedText(title);
    frame.Record("rotation.spread");
    plot::PlotConfig config;
    config.x_label = "offset k";
    plot::Plot p;
    const float title_height = ImGui::GetCursorPosY() - title_top;
    if (p.Begin("##curves", curve_view, ImVec2(size.x, size.y - title_height), config)) {
        frame.Record("rotation.curves");
        char labels[kRotationStarts][32];
        const plot::Marker shapes[] = {plot::Marker::Circle, plot::Marker::Square,
                                       plot::Marker::Ring};
        const Role roles[] = {Role::PosB, Role::Accent, Role::ShiftArc};
        for (int c = 0; c < static_cast<int>(curves.size()) && c < kRotationStarts; ++c) {
            const Curve& curve = curves[c];
            std::snprintf(labels[c], sizeof labels[c], "p = %.6g", curve.start);
            const int count = static_cast<int>(curve.ks.size());
            if (c == 0) { // the first start as a line, the others as markers on top of it
                p.Line(labels[c], curve.ks.data(), curve.dots.data(), count,
                       frame.Color(Role::PosA), frame.Px(3.0f));
                continue;
            }
            // At most ~40 markers per curve, staggered so that each curve's stay visible.
            const int step = std::max(3, count / 40);
            std::vector<double> xs, ys;
            for (int index = (c - 1) * step / 3; index < count; index += step)
                xs.push_back(curve.ks[index]), ys.push_back(curve.dots[index]);
            p.Markers(labels[c], xs.data(), ys.data(), static_cast<int>(xs.size()),
                      frame.Color(roles[c - 1]), frame.Px(4.0f), shapes[c - 1]);
        }
        p.VLine(state.shift_k, frame.Color(Role::Highlight), "k", frame.Px(1.5f));
        p.End();
    }
    ImGui::EndGroup();
}

void RotationPanel::AddSceneFields(SceneTable& table) {
    table.Integer(kRotationCurveK, &curve_max_k);
    table.Integer(kRotationHeatmapLen, &similarity_len);
}

nlohmann::json RotationPanel::Readouts(const AppState& state) const {
    const Rotation2 r = rotation_matrix(state.pair, state.shift_k, state.d_model, state.base);
    nlohmann::json result = {{"pair", state.pair},
                             {"k", state.shift_k},
                             {"r_k", {{r.m00, r.m01}, {r.m10, r.m11}}},
                             {"curve_starts", Starts(state.pos_a)},
                             {"curve_max_k", curve_max_k},
                             {"curve_spread", Curves(state).spread}};
    const double pos_b = state.pos_a + state.shift_k;
    if (pos_b >= 0 && pos_b <= kUiMaxPosition) {
        result["residual_double"] =
            rotation_residual_double(state.pos_a, state.shift_k, state.d_model, state.base);
        result["residual_float32"] =
            rotation_residual(state.pos_a, state.shift_k, state.d_model, state.base);
    }
    return result;
}

std::vector<WidgetName> RotationPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        {"rotation.circle", "the circle: pair i's point at pos A and its turn by k"},
        {"rotation.curves",
         "the plot of PE(p)·PE(p + k) against k for four starts p",
         {"curve_starts"}},
        {"rotation.matrix", "the 2×2 rotation matrix R_k, as formulas and as numbers", {"r_k"}},
        ControlWidget(kRotationCurveK),
        ControlWidget(kRotationPair),
        ControlWidget(kRotationPosA, "field"),
        {"rotation.residual",
         "the line on the largest gap of PE(pos A + k) from R_k·PE(pos A)",
         {"residual_double", "residual_float32"}},
        ControlWidget(kRotationShift),
        {"rotation.similarity", "the heatmap of PE(p)·PE(q) over L positions"},
        ControlWidget(kRotationHeatmapLen),
        {"rotation.spread",
         "the title over the curves, with their largest spread",
         {"curve_spread"}},
    };
}

} // namespace pelab
