// alternatives_rope.cpp — the alternatives panel's RoPE tab: q and k turned by their positions,
// the score that depends only on m − n (checked), its curve and its decay with distance.
#include "io/scene.h"
#include "panels/alternatives/panel_alternatives.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

constexpr int kRopeCurveHalfWidth = 256; ///< q·k is drawn for m − n in [−256, 256]
constexpr double kDecayMaxDistance = 4096;

// m and n are the shared positions A and B, drawn from their rows.
constexpr NumberControl kRopeM = Stepped(Drawn(kPosA, "m (pos A)", "alternatives.rope_m"), 1, 10);
constexpr NumberControl kRopeN = Stepped(Drawn(kPosB, "n (pos B)", "alternatives.rope_n"), 1, 10);

// Room for 1000000 beside the ± buttons.
void PositionInput(FrameContext& frame, FlowRow& row, const NumberControl& control,
                   double* position) {
    SceneInput(frame, row, control, position, FitWidth(8.0f, control.label));
}

using RopeInputs = AlternativesPanel::RopeInputs;
using RopePoint = AlternativesPanel::RopePoint;
using RopeShift = AlternativesPanel::RopeShift;

struct RopeCurve {
    std::vector<double> x, y; ///< q·k against m − n
};
struct RopeDecay {
    std::vector<double> distances, expected, bound;
};
struct DecayInputs {
    int d = 0;
    double base = 0;
    bool operator==(const DecayInputs& o) const { return d == o.d && base == o.base; }
};

struct RopeTab final : AlternativesTab {
    mutable Cached<RopeInputs, RopeCurve> rope_curve;
    mutable Cached<DecayInputs, RopeDecay> rope_decay;
    plot::PlotView rope_view, rope_curve_view, decay_view;
    int decay_view_d = 0;

    const RopeCurve& RopeCurveFor(const AlternativesPanel& panel, const AppState& state) const;
    const RopeDecay& RopeDecayFor(int d, double base) const;
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    /// Pair i as two hands: q's pair turned by mθ_i, k's by nθ_i.
    void DrawPairCircle(FrameContext& frame, const std::vector<double>& q,
                        const std::vector<double>& k, float circle);
    /// q·k against m − n for this q and k, with m − n now marked.
    void DrawScoreCurve(FrameContext& frame, const RopeCurve& curve, double relative, float height);
    /// The mean score's decay with distance beside the RoPE paper's bound.
    void DrawDecay(FrameContext& frame, const RopeDecay& decay, int d);
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

const RopeCurve& RopeTab::RopeCurveFor(const AlternativesPanel& panel,
                                       const AppState& state) const {
    // q·k against m − n depends on q, k and the base only, not on where m and n are.
    RopeInputs inputs = panel.RopeInputsFor(state);
    inputs.m = inputs.n = 0;
    return rope_curve.Get(inputs, [&](const RopeInputs& key) {
        const RopePoint& point = panel.RopeAt(state);
        RopeCurve curve;
        for (int delta = -kRopeCurveHalfWidth; delta <= kRopeCurveHalfWidth; ++delta) {
            curve.x.push_back(delta);
            curve.y.push_back(rope_score_relative(point.q, point.k, delta, key.base));
        }
        return curve;
    });
}

const RopeDecay& RopeTab::RopeDecayFor(int d, double base) const {
    return rope_decay.Get(DecayInputs{d, base}, [](const DecayInputs& key) {
        RopeDecay decay;
        const double at_zero = rope_decay_bound(0, key.d, key.base);
        for (int s = 0; s <= 400; ++s) {
            const double distance = kDecayMaxDistance * s / 400.0;
            decay.distances.push_back(distance);
            decay.expected.push_back(rope_expected_similarity(distance, key.d, key.base));
            decay.bound.push_back(rope_decay_bound(distance, key.d, key.base) / at_zero);
        }
        return decay;
    });
}

void RopeTab::Draw(AlternativesPanel& panel, FrameContext& frame) {
    AppState& state = frame.state;
    if (BeginControls(frame)) {
        FlowRow row;
        PositionInput(frame, row, kRopeM, &state.pos_a);
        PositionInput(frame, row, kRopeN, &state.pos_b);
        panel.RopeVectorControls(frame, row);
        AlternativesBasePresets(frame, row, "alternatives.rope_base");
        EndControls(frame);
    }
    const RopePoint* point = nullptr;
    const RopeShift* shift = nullptr;
    const RopeCurve* curve = nullptr;
    const RopeDecay* decay = nullptr;
    {
        CoreTimer core_time(frame.stats);
        point = &panel.RopeAt(state);
        shift = &panel.rope_shift.GetForFrame(
            panel.RopeInputsFor(state), AlternativesPanel::ComputeRopeShift,
            frame.compute_in_background, &panel.rope_shift_current, &frame.stats.computing);
        curve = &RopeCurveFor(panel, state);
        decay = &RopeDecayFor(static_cast<int>(point->q.size()), state.base);
    }
    const std::vector<double>& q = point->q;
    const std::vector<double>& k = point->k;
    const int d = static_cast<int>(q.size());
    if (panel.rope_typed && !panel.UsesTypedVectors())
        ErrorText(frame, "q and k need the same number of values: the seeded vectors are used.");
    const double m = state.pos_a, n = state.pos_b;
    const double score = point->score, relative = point->relative, change = shift->change;
    // While m or n is dragged the sweep runs off the frame: the last one is said as such.
    const std::string change_text =
        ShownNumber(change, 2) + (panel.rope_shift_current ? "" : " (updating…)");
    char line[480];
    std::snprintf(line, sizeof line,
                  "RoPE turns pair i of q by m·θ_i and of k by n·θ_i (θ_i = base^(−2i/d), base "
                  "%s, d = %d). Rotating both and taking the dot product gives q·k = %.6f; "
                  "the sum Σ|q_i||k_i|cos((m − n)θ_i + φ_i), which knows only m − n = %s, "
                  "gives %.6f. Moving m and n together by 10, 20, … %d changes q·k by at most "
                  "%s: the score depends on the distance alone.",
                  ShownNumber(state.base).c_str(), d, score, ShownNumber(m - n).c_str(), relative,
                  AlternativesPanel::kRopeShiftStep * (AlternativesPanel::kRopeShifts - 1),
                  change_text.c_str());
    const auto check_sentence = [&] {
        WrappedText(line);
        frame.Record("alternatives.rope_check");
    };
    // A short window (a projector) shows the pair and the curve first, then the sentence.
    if (!frame.pictures_first) check_sentence();
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float top_height =
        std::max(font * 10.0f, avail.y * (frame.pictures_first ? 0.7f : 0.55f));
    const float circle = std::min(top_height - font * 2.5f, avail.x * 0.35f);
    DrawPairCircle(frame, q, k, circle);
    ImGui::SameLine();
    DrawScoreCurve(frame, *curve, relative, top_height);
    if (frame.pictures_first) check_sentence();
    DrawDecay(frame, *decay, d);
}

void RopeTab::DrawPairCircle(FrameContext& frame, const std::vector<double>& q,
                             const std::vector<double>& k, float circle) {
    const AppState& state = frame.state;
    const double m = state.pos_a, n = state.pos_b;
    const int d = static_cast<int>(q.size());
    const int i = std::min(state.pair, d / 2 - 1);
    const std::vector<double> rq = rope_rotate(q, m, state.base),
                              rk = rope_rotate(k, n, state.base);
    const double scale =
        std::max({std::hypot(q[2 * i], q[2 * i + 1]), std::hypot(k[2 * i], k[2 * i + 1]), 1e-12});
    plot::PlotView& view = rope_view;
    view.SetHome(plot::Range{-1.3, 1.3}, plot::Range{-1.3, 1.3});
    if (!view.has_home) view.Reset();
    plot::PlotConfig config;
    config.flags =
        plot::PlotFlags_EqualAspect | plot::PlotFlags_NoHoverReadout | plot::PlotFlags_NoLegend;
    // The legend as two coloured lines above the circle (a narrow plot has no room for it).
    ImGui::BeginGroup();
    ImGui::TextColored(frame.ColorVec(Role::PosA), "q's pair %d, turned by m·θ", i);
    ImGui::TextColored(frame.ColorVec(Role::PosB), "k's pair %d, turned by n·θ", i);
    plot::Plot p;
    if (p.Begin("##rope_circle", view, ImVec2(circle, circle), config)) {
        frame.Record("alternatives.rope_circle");
        double xs[129], ys[129];
        for (int s = 0; s <= 128; ++s)
            xs[s] = std::cos(2 * M_PI * s / 128), ys[s] = std::sin(2 * M_PI * s / 128);
        p.Line("##circle", xs, ys, 129, ImGui::GetColorU32(ImGuiCol_Border, 1.0f), frame.Px(1.5f));
        const double qx[] = {0, rq[2 * i] / scale}, qy[] = {0, rq[2 * i + 1] / scale};
        const double kx[] = {0, rk[2 * i] / scale}, ky[] = {0, rk[2 * i + 1] / scale};
        p.Line("q turned by m·θ", qx, qy, 2, frame.Color(Role::PosA), frame.Px(3.0f));
        p.Line("k turned by n·θ", kx, ky, 2, frame.Color(Role::PosB), frame.Px(3.0f));
        p.End();
    }
    ImGui::EndGroup();
}

void RopeTab::DrawScoreCurve(FrameContext& frame, const RopeCurve& curve, double relative,
                             float height) {
    const double m = frame.state.pos_a, n = frame.state.pos_b;
    const std::vector<double>& xs = curve.x;
    const std::vector<double>& ys = curve.y;
    double low = 0, high = 0;
    for (const double value : ys)
        low = std::min(low, value), high = std::max(high, value);
    plot::PlotConfig config;
    config.x_label = "m − n";
    // No y label: the legend names the curve (q·k), and a label there would sit on the
    // line beside the circle.
    plot::PlotView& view = rope_curve_view;
    view.SetHome(plot::Range{-static_cast<double>(kRopeCurveHalfWidth), kRopeCurveHalfWidth},
                 plot::Range{low * 1.1, high * 1.1});
    if (!view.has_home) view.Reset();
    plot::Plot p;
    if (p.Begin("q·k against m − n (this q and k)##rope_curve", view, ImVec2(-1, height), config)) {
        frame.Record("alternatives.rope_curve");
        p.Line("q·k", xs.data(), ys.data(), static_cast<int>(xs.size()), frame.Color(Role::Accent),
               frame.Px(2.0f));
        if (std::abs(m - n) <= kRopeCurveHalfWidth) {
            const double here_x = m - n;
            p.Markers("m − n now", &here_x, &relative, 1, frame.Color(Role::PosA), frame.Px(6.0f));
        }
        p.End();
    }
}

void RopeTab::DrawDecay(FrameContext& frame, const RopeDecay& decay, int d) {
    const double m = frame.state.pos_a, n = frame.state.pos_b;
    const std::vector<double>& distances = decay.distances;
    const std::vector<double>& expected = decay.expected;
    const std::vector<double>& bound = decay.bound;
    decay_view.SetHome(plot::Range{0, kDecayMaxDistance}, plot::Range{-0.3, 1.05});
    if (!decay_view.has_home || decay_view_d != d) decay_view.Reset();
    decay_view_d = d;
    plot::PlotConfig config;
    config.x_label = "distance |m − n|";
    config.y_label = "relative to distance 0";
    plot::Plot p;
    if (p.Begin("decay with distance##rope_decay", decay_view, ImVec2(-1, RemainingHeight()),
                config)) {
        frame.Record("alternatives.rope_decay");
        const int count = static_cast<int>(distances.size());
        p.Line("mean q·k over random q = k (mean of cos Δθ_i)", distances.data(), expected.data(),
               count, frame.Color(Role::Sin), frame.Px(2.0f));
        p.Line("RoPE paper's decay term Σ_j |S_j|, scaled to 1 at 0", distances.data(),
               bound.data(), count, frame.Color(Role::Cos), frame.Px(2.0f));
        p.VLine(std::abs(m - n), frame.Color(Role::PosA), "|m − n|");
        p.End();
    }
}

nlohmann::json RopeTab::Readouts(const AlternativesPanel& panel, const AppState& state) const {
    const RopePoint& rope = panel.RopeAt(state);
    return {{"rope",
             {{"m", state.pos_a},
              {"n", state.pos_b},
              {"d", rope.q.size()},
              {"typed", panel.UsesTypedVectors()},
              {"score", rope.score},
              {"score_from_distance", rope.relative},
              {"max_shift_change", panel.RopeShiftAt(state).change}}}};
}

std::optional<MethodRowJob> RopeTab::RowJob(const AlternativesPanel& panel,
                                            const AppState& state) const {
    const RopeInputs inputs = panel.RopeInputsFor(state);
    // The same computation, on the same inputs, as the number the tab shows.
    return MethodRowJob{
        inputs.Key(), [inputs] {
            const double change = AlternativesPanel::ComputeRopeShift(inputs).change;
            const bool relative = change < 1e-6;
            const std::string past_training =
                "defined at any position; quality past training needs scaling (Long context tab)";
            return MethodRow{
                {"RoPE", "Llama, Mistral, Gemma, Qwen", "q and k turned in every attention layer",
                 "0", past_training,
                 (relative ? "yes, q·k: change " : "no: q·k changes by ") + ShownNumber(change, 2)},
                relative ? Verdict::Yes : Verdict::No,
                change,
                "rope"};
        }};
}

std::vector<WidgetName> RopeTab::Widgets() const {
    return {
        {"alternatives.rope_base", "the base 10 000 button on the RoPE tab"},
        {"alternatives.rope_check",
         "the sentence showing the RoPE score depends only on m - n",
         {"rope"}},
        {"alternatives.rope_circle",
         "the circle with q's and k's hands for one pair, turned by m and n"},
        {"alternatives.rope_curve", "the plot of the q-k score against the distance m - n"},
        {"alternatives.rope_decay", "the decay plot: how the score falls off with distance"},
        {"alternatives.rope_k", "the k text box: the key vector, typed"},
        ControlWidget(kRopeM, "box"),
        ControlWidget(kRopeN, "box"),
        {"alternatives.rope_q", "the q text box: the query vector, typed"},
        ControlWidget(kRopeSeed, "box"),
        {"alternatives.rope_typed", "the type q, k checkbox: type q and k instead of a seed"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeRopeTab() {
    return std::make_unique<RopeTab>();
}

} // namespace pelab
