// alternatives_xpos.cpp — the alternatives panel's xPos tab (Sun et al., 2022): RoPE whose pair
// i also carries ζ_i^((m − n)/B) in q·k, so a key's share fades with its distance before the
// query. Against distance: this q and k scored by RoPE and by xPos, and the largest score each
// allows. Per pair: ζ_i and what pair i keeps at the current m − n. The sentence says where
// computing the scales one position at a time leaves float32.
#include "panels/alternatives/alternatives_xpos.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace pelab {

XposResult ComputeXpos(const AlternativesPanel::RopeInputs& inputs, const XposOptions& options) {
    XposResult r;
    r.q = AlternativesPanel::RopeVectorFor(inputs, true);
    r.k = AlternativesPanel::RopeVectorFor(inputs, false);
    const int d = static_cast<int>(r.q.size());
    r.d = d;
    r.options = options;
    const RopePairPlan xpos = xpos_plan(d, inputs.base, options);
    const RopePairPlan rope = rope_plan(d, inputs.base);
    r.zeta = xpos.zeta;
    // Keys before the query (causal): m − n from 0 to 4B, 401 points.
    const double reach = 4 * options.scale_base;
    for (int s = 0; s <= 400; ++s) {
        const double distance = reach * s / 400.0;
        r.distances.push_back(distance);
        r.rope_scores.push_back(plan_score_relative(r.q, r.k, distance, rope));
        r.xpos_scores.push_back(plan_score_relative(r.q, r.k, distance, xpos));
        double envelope = 0, rope_envelope = 0;
        for (int i = 0; i < d / 2; ++i) {
            const double size =
                std::hypot(r.q[2 * i], r.q[2 * i + 1]) * std::hypot(r.k[2 * i], r.k[2 * i + 1]);
            rope_envelope += size;
            envelope +=
                xpos_decay(xpos.zeta[static_cast<std::size_t>(i)], distance, options.scale_base) *
                size;
        }
        r.envelope.push_back(envelope);
        r.rope_envelope.push_back(rope_envelope);
    }
    r.distance = inputs.m - inputs.n;
    for (int i = 0; i < d / 2; ++i) {
        r.pairs.push_back(i);
        const double zeta = r.zeta[static_cast<std::size_t>(i)];
        r.kept.push_back(xpos_decay(zeta, r.distance, options.scale_base));
        r.kept_at_4b.push_back(xpos_decay(zeta, 4.0 * options.scale_base, options.scale_base));
    }
    r.rope_score = plan_score_relative(r.q, r.k, r.distance, rope);
    // A key far after the query: the fastest pair's factor ζ_0^((m − n)/B) can pass the largest
    // double; the score is then not a number to show.
    r.overflows = !std::isfinite(r.kept.front());
    r.score = r.overflows ? 0.0 : plan_score_relative(r.q, r.k, r.distance, xpos);
    r.limits = xpos_float32_limits(d, options);
    return r;
}

namespace {

// A ζ below 1 said with enough digits not to read as 1 (0.9997, not "1").
std::string BelowOne(double value) {
    for (int digits = 3; digits < 12; ++digits) {
        std::string shown = ShownNumber(value, digits);
        if (shown != "1") return shown;
    }
    return ShownNumber(value, 12);
}

} // namespace

Explanation XposSentence(const XposResult& r) {
    Explanation out;
    const double fastest = r.kept.front(), slowest = r.kept.back();
    out.Claims("distance", r.distance);
    out.Claims("fastest_kept", fastest);
    out.Claims("slowest_kept", slowest);
    out.Claims("q_subnormal_from", r.limits.q_subnormal_from);
    out.Claims("k_overflow_from", r.limits.k_overflow_from);
    const std::string zeta_range =
        r.d == 2
            ? "ζ_0 = γ/(1 + γ) = " + BelowOne(r.zeta.front()) + " (one pair)"
            : "ζ_i = (2i/d + γ)/(1 + γ) runs from " + BelowOne(r.zeta.front()) + " (pair 0) to " +
                  BelowOne(r.zeta.back()) + " (pair " + std::to_string(r.d / 2 - 1) + ")";
    const std::string pairs_keep = r.d == 2
                                       ? "the one pair keeps " + BelowOne(fastest) + " of its share"
                                       : "the fastest pair keeps " + BelowOne(fastest) +
                                             " of its share and the slowest " + BelowOne(slowest);
    if (r.distance > 0) {
        out.text = "xPos scales pair i's share of q·k by ζ_i^((m − n)/B): " + zeta_range +
                   ", so at m − n = " + ShownNumber(r.distance) +
                   " (B = " + ShownNumber(r.options.scale_base) + ") " + pairs_keep + "; q·k is " +
                   ShownNumber(r.score, 4) + " where RoPE gives " + ShownNumber(r.rope_score, 4) +
                   ".";
    } else if (r.distance == 0) {
        out.text = "xPos scales pair i's share of q·k by ζ_i^((m − n)/B) (" + zeta_range +
                   "): at m − n = 0 every pair keeps all of it, and q·k is RoPE's (" +
                   ShownNumber(r.score, 4) + "). Move m past n to see the decay.";
    } else {
        const std::string factor = r.overflows
                                       ? "past the largest double, 1.8·10³⁰⁸, so no score is shown"
                                       : ShownNumber(fastest, 3);
        out.text =
            "Here the key comes after the query (m − n = " + ShownNumber(r.distance) +
            "): xPos's factor ζ_i^((m − n)/B) is then above 1 (the fastest pair's: " + factor +
            "), growing with the distance, which is why xPos is used in causal models "
            "only, where such keys are masked.";
    }
    out.text += " Computed one position at a time in float32, q's scale ζ_0^(m/B) falls below "
                "float32's smallest normal number from position " +
                ShownNumber(r.limits.q_subnormal_from) + " and k's ζ_0^(−n/B) overflows from " +
                ShownNumber(r.limits.k_overflow_from) +
                ": the paper's code measures positions from the middle of the block, since "
                "q·k needs only m − n.";
    return out;
}

namespace {

struct XposInputs {
    AlternativesPanel::RopeInputs rope;
    double gamma = 0, scale_base = 0;
    bool operator==(const XposInputs& o) const {
        return rope == o.rope && gamma == o.gamma && scale_base == o.scale_base;
    }
};

constexpr NumberControl kXposGamma{"xpos_gamma",
                                   "xPos's γ in ζ_i = (2i/d + γ)/(1 + γ)",
                                   0.05,
                                   2,
                                   0.4,
                                   "gamma",
                                   "%.2f",
                                   false,
                                   "γ in ζ_i = (2i/d + γ)/(1 + γ): larger keeps more of every pair "
                                   "(the paper: 0.4).",
                                   "alternatives.xpos_gamma"};
constexpr NumberControl kXposScaleBase{"xpos_scale_base",
                                       "the distance unit B of xPos's decay",
                                       16,
                                       65536,
                                       512,
                                       "scale B",
                                       "%.0f",
                                       false,
                                       "B in ζ_i^((m − n)/B): the distance over which a pair keeps "
                                       "ζ_i of its share (the paper: 512).",
                                       "alternatives.xpos_scale_base"};

struct XposTab final : AlternativesTab {
    double gamma = kXposGamma.initial;          ///< the paper's γ
    double scale_base = kXposScaleBase.initial; ///< the paper's B
    mutable Cached<XposInputs, XposResult> result;

    /// xPos is causal: a key after the query (pos B > pos A) grows instead of decaying.
    void Opened(AppState& state) override {
        if (state.pos_b > state.pos_a) std::swap(state.pos_a, state.pos_b);
    }
    plot::PlotView score_view, pair_view;

    XposOptions Options() const { return XposOptions{gamma, scale_base}; }
    const XposResult& ResultFor(const AlternativesPanel& panel, const AppState& state) const {
        return result.Get(XposInputs{panel.RopeInputsFor(state), gamma, scale_base},
                          [](const XposInputs& in) {
                              return ComputeXpos(in.rope, XposOptions{in.gamma, in.scale_base});
                          });
    }
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

void XposTab::Draw(AlternativesPanel& panel, FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float slider = FitWidth(7.0f, "gamma");
        SceneSlider(frame, row, kXposGamma, &gamma, slider);
        // B is a whole number of positions.
        if (SceneInput(frame, row, kXposScaleBase, &scale_base, FitWidth(6.0f, "scale B")))
            scale_base = std::round(scale_base);
        panel.RopeVectorControls(frame, row);
        EndControls(frame);
    }
    const XposResult* computed = nullptr;
    {
        CoreTimer core_time(frame.stats);
        computed = &ResultFor(panel, frame.state);
    }
    const XposResult& r = *computed;
    const Explanation sentence = XposSentence(r);
    SentenceAndPlots layout;
    layout.Begin(frame, sentence.text, "alternatives.xpos_text");
    const float height = layout.height, half_width = layout.half_width;
    {
        double top = 0;
        // Fitted to the two score curves (the envelope starts far above them at large d).
        for (std::size_t k = 0; k < r.distances.size(); ++k)
            top = std::max({top, std::abs(r.rope_scores[k]), std::abs(r.xpos_scores[k])});
        score_view.SetHome(plot::Range{0, r.distances.back()},
                           plot::Range{-top * 1.05, top * 1.05});
        if (!score_view.has_home) score_view.Reset();
        plot::PlotConfig config;
        config.x_label = "m − n (key before the query)";
        config.y_label = "q·k";
        plot::Plot p;
        if (p.Begin("q·k against m − n##xpos_scores", score_view, ImVec2(half_width, height),
                    config)) {
            frame.Record("alternatives.xpos_scores");
            const int count = static_cast<int>(r.distances.size());
            // xPos under RoPE's thinner line: where the decay is still ~1 the two coincide, and
            // RoPE's stays visible on top instead of showing through in fragments.
            p.Line("xPos", r.distances.data(), r.xpos_scores.data(), count,
                   frame.Color(Role::Accent), frame.Px(2.5f));
            p.Line("RoPE", r.distances.data(), r.rope_scores.data(), count,
                   frame.Color(Role::Muted), frame.Px(1.25f));
            // The envelope is listed only when some of it is in view (at large d it stays far
            // above both curves over the distances drawn).
            if (*std::min_element(r.envelope.begin(), r.envelope.end()) <= top * 1.05)
                p.Line("xPos's largest |q·k|", r.distances.data(), r.envelope.data(), count,
                       frame.Color(Role::ShiftArc), frame.Px(1.5f));
            if (r.distance >= 0 && r.distance <= r.distances.back())
                p.VLine(r.distance, frame.Color(Role::PosA), "m − n");
            p.End();
        }
    }
    ImGui::SameLine();
    {
        pair_view.SetHome(plot::Range{-0.5, r.d * 0.5 - 0.5}, plot::Range{0, 1.05});
        if (!pair_view.has_home) pair_view.Reset();
        plot::PlotConfig config;
        config.x_label = "pair i";
        config.y_label = "share of its term kept";
        config.x_flags = plot::AxisFlags_Integer;
        plot::Plot p;
        if (p.Begin("what each pair keeps of its share##xpos_pairs", pair_view, ImVec2(-1, height),
                    config)) {
            frame.Record("alternatives.xpos_pairs");
            const int count = static_cast<int>(r.pairs.size());
            if (count >= 2) {
                p.Line("kept at m − n = B (ζ_i)", r.pairs.data(), r.zeta.data(), count,
                       frame.Color(Role::Cos), frame.Px(1.5f));
                p.Line("at 4B", r.pairs.data(), r.kept_at_4b.data(), count, frame.Color(Role::Sin),
                       frame.Px(1.5f));
            } else { // one pair: a point, not a line
                p.Markers("kept at m − n = B (ζ_i)", r.pairs.data(), r.zeta.data(), count,
                          frame.Color(Role::Cos), frame.Px(3.5f), plot::Marker::Square);
                p.Markers("at 4B", r.pairs.data(), r.kept_at_4b.data(), count,
                          frame.Color(Role::Sin), frame.Px(3.5f), plot::Marker::Ring);
            }
            if (r.distance >= 0)
                p.Markers("at this m − n", r.pairs.data(), r.kept.data(), count,
                          frame.Color(Role::PosA), frame.Px(3.5f));
            p.End();
        }
    }
    layout.End(frame);
}

void XposTab::AddFields(SceneTable& table) {
    table.Number(kXposGamma, &gamma);
    table.Number(kXposScaleBase, &scale_base);
}

nlohmann::json XposTab::Readouts(const AlternativesPanel& panel, const AppState& state) const {
    const XposResult& r = ResultFor(panel, state);
    const Explanation sentence = XposSentence(r);
    const nlohmann::json claims = ClaimsJson(sentence);
    return {{"xpos",
             {{"gamma", gamma},
              {"scale_base", scale_base},
              {"zeta", r.zeta},
              {"distance", r.distance},
              {"kept", r.kept},
              {"score", r.overflows ? nlohmann::json() : nlohmann::json(r.score)},
              {"overflows", r.overflows},
              {"rope_score", r.rope_score},
              {"q_subnormal_from", r.limits.q_subnormal_from},
              {"k_overflow_from", r.limits.k_overflow_from},
              {"sentence", sentence.text},
              {"claims", claims}}}};
}

std::optional<MethodRowJob> XposTab::RowJob(const AlternativesPanel& panel,
                                            const AppState& state) const {
    const AlternativesPanel::RopeInputs rope = panel.RopeInputsFor(state);
    const XposOptions options = Options();
    char numbers[80];
    std::snprintf(numbers, sizeof numbers, " gamma %.17g B %.17g", gamma, scale_base);
    return MethodRowJob{
        rope.Key() + numbers, [rope, options] {
            // q·k at (m, n) and at both moved by 10, 20, … 990, scaled and
            // turned one position at a time.
            const std::vector<double> q = AlternativesPanel::RopeVectorFor(rope, true);
            const std::vector<double> k = AlternativesPanel::RopeVectorFor(rope, false);
            const RopePairPlan plan = xpos_plan(static_cast<int>(q.size()), rope.base, options);
            const double m = std::min(rope.m, 1000.0), n = std::min(rope.n, 1000.0);
            const double at = plan_score(q, k, m, n, plan);
            double change = 0;
            for (int s = 1; s < 100; ++s)
                change =
                    std::max(change, std::abs(plan_score(q, k, m + 10 * s, n + 10 * s, plan) - at));
            const bool relative = change < 1e-6 * std::max(1.0, std::abs(at));
            return MethodRow{
                {"xPos", "the LEX Transformer (TorchScale)",
                 "q and k turned and scaled in every attention layer", "0",
                 "a key's share fades as ζ_i^((m − n)/B) with its distance",
                 (relative ? "yes, q·k: change " : "no: q·k changes by ") + ShownNumber(change, 2)},
                relative ? Verdict::Yes : Verdict::No,
                change,
                "xpos"};
        }};
}

std::vector<WidgetName> XposTab::Widgets() const {
    return {
        ControlWidget(kXposGamma),
        ControlWidget(kXposScaleBase, "box"),
        {"alternatives.xpos_text",
         "the sentence on what xPos keeps of each pair and where float32 fails",
         {"xpos"}},
        {"alternatives.xpos_scores", "q·k against m − n under RoPE and under xPos"},
        {"alternatives.xpos_pairs", "ζ_i and what each pair keeps at the current m − n"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeXposTab() {
    return std::make_unique<XposTab>();
}

} // namespace pelab
