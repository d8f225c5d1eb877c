// alternatives_partial.cpp — the alternatives panel's Partial tab: two ways of turning only part
// of a head, often confused. Partial rotary (GPT-NeoX's rotary_pct, Phi's
// partial_rotary_factor) turns the first r dimensions with the whole spectrum squeezed into
// them (base^(−2i/r)); p-RoPE (Barbero et al., 2024) keeps RoPE's own θ_i for the fastest pairs
// and stops the slowest. Per pair: the wavelength each plan gives (∞: not turned). Against
// distance: this q and k scored by RoPE and by each.
#include "panels/alternatives/alternatives_partial.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

PartialResult ComputePartial(const AlternativesPanel::RopeInputs& inputs, double fraction, double p,
                             RopePairing pairing) {
    PartialResult r;
    const std::vector<double> q = AlternativesPanel::RopeVectorFor(inputs, true);
    const std::vector<double> k = AlternativesPanel::RopeVectorFor(inputs, false);
    r.d = static_cast<int>(q.size());
    r.fraction = fraction;
    r.p = p;
    r.pairing = pairing;
    const RopePairPlan rope = rope_plan(r.d, inputs.base);
    const RopePairPlan partial = partial_rotary_plan(r.d, inputs.base, fraction);
    const RopePairPlan p_rope = p_rope_plan(r.d, inputs.base, p);
    r.partial_turned = partial.turned_pairs();
    r.p_turned = p_rope.turned_pairs();
    r.rotary_dims = 2 * r.partial_turned;
    const auto wavelength = [](double theta) { return theta > 0 ? 2 * M_PI / theta : INFINITY; };
    for (int i = 0; i < r.d / 2; ++i) {
        const auto at = static_cast<std::size_t>(i);
        r.pairs.push_back(i);
        r.rope_wavelength.push_back(wavelength(rope.theta[at]));
        r.partial_wavelength.push_back(wavelength(partial.theta[at]));
        r.p_wavelength.push_back(wavelength(p_rope.theta[at]));
    }
    r.rope_longest = r.rope_wavelength.back();
    r.partial_longest = r.partial_turned > 0 ? r.partial_wavelength[r.partial_turned - 1] : 0;
    r.p_longest = r.p_turned > 0 ? r.p_wavelength[r.p_turned - 1] : 0;
    // The plans score interleaved pairs: q and k reordered so that the pairs drawn are theirs
    // (RoPE and p-RoPE pair across the whole head, partial rotary within its r dimensions).
    const std::vector<double> q_whole = rope_as_interleaved(q, pairing),
                              k_whole = rope_as_interleaved(k, pairing),
                              q_rotary = rope_as_interleaved(q, pairing, r.rotary_dims),
                              k_rotary = rope_as_interleaved(k, pairing, r.rotary_dims);
    for (int distance = 0; distance <= 256; ++distance) {
        r.distances.push_back(distance);
        r.rope_scores.push_back(plan_score_relative(q_whole, k_whole, distance, rope));
        r.partial_scores.push_back(plan_score_relative(q_rotary, k_rotary, distance, partial));
        r.p_scores.push_back(plan_score_relative(q_whole, k_whole, distance, p_rope));
        r.partial_gap =
            std::max(r.partial_gap, std::abs(r.partial_scores.back() - r.rope_scores.back()));
        r.p_gap = std::max(r.p_gap, std::abs(r.p_scores.back() - r.rope_scores.back()));
        r.rope_largest = std::max(r.rope_largest, std::abs(r.rope_scores.back()));
    }
    return r;
}

Explanation PartialSentence(const PartialResult& r) {
    Explanation out;
    const int pairs = r.d / 2;
    out.Claims("partial_turned", r.partial_turned);
    out.Claims("p_turned", r.p_turned);
    out.Claims("partial_longest", r.partial_longest);
    out.Claims("p_longest", r.p_longest);
    out.Claims("rope_longest", r.rope_longest);
    const auto count = [](int n, const char* one) {
        return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
    };
    std::string partial;
    if (r.partial_turned == pairs)
        partial = "Partial rotary with fraction " + ShownNumber(r.fraction, 3) +
                  " turns every dimension at RoPE's own frequencies: it is RoPE.";
    else if (r.partial_turned == 0)
        partial = "Partial rotary with fraction " + ShownNumber(r.fraction, 3) +
                  " turns no pair at d = " + std::to_string(r.d) +
                  " (fewer than two dimensions): it is no encoding at all here.";
    else
        partial =
            "Partial rotary with fraction " + ShownNumber(r.fraction, 3) + " turns the first " +
            count(r.rotary_dims, "dimension") + " (" + count(r.partial_turned, "pair") + " of " +
            std::to_string(pairs) + ") with the whole spectrum squeezed into them, base^(−2i/" +
            std::to_string(r.rotary_dims) + "): its slowest turning pair has wavelength " +
            ShownNumber(r.partial_longest, 4) +
            " positions (RoPE's slowest: " + ShownNumber(r.rope_longest, 4) + "), and the other " +
            count(pairs - r.partial_turned, "pair") + " carry no position.";
    std::string p_part;
    if (r.p_turned == pairs)
        p_part =
            " p-RoPE with p = " + ShownNumber(r.p, 3) + " keeps every pair turning: it is RoPE.";
    else if (r.p_turned == 0)
        p_part = " p-RoPE with p = " + ShownNumber(r.p, 3) + " stops every pair: no encoding.";
    else
        p_part = " p-RoPE with p = " + ShownNumber(r.p, 3) + " keeps RoPE's own θ_i for the " +
                 count(r.p_turned, "fastest pair") + " and stops the slowest " +
                 count(pairs - r.p_turned, "pair") + ", those with wavelengths past " +
                 ShownNumber(r.p_longest, 4) +
                 " positions: it removes the low end of the spectrum instead of compressing it.";
    out.Claims("partial_gap", r.partial_gap);
    out.Claims("p_gap", r.p_gap);
    const bool half_split = r.pairing == RopePairing::HalfSplit;
    out.Claims("half_split", half_split ? 1 : 0);
    const std::string rotary_half = r.rotary_dims > 0 && r.rotary_dims < r.d
                                        ? "i + " + std::to_string(r.rotary_dims / 2) +
                                              " within partial rotary's turned dimensions, "
                                        : "";
    const std::string pairing =
        half_split ? " Dimensions pair as GPT-NeoX's and Phi's rotate_half pairs them: i with " +
                         rotary_half + "i + " + std::to_string(r.d / 2) + " across the head."
                   : " Dimensions pair interleaved, (2i, 2i + 1), as GPT-J does; GPT-NeoX and "
                     "Phi pair them half-split.";
    out.text = partial + p_part + pairing + " Over m − n from 0 to " +
               ShownNumber(r.distances.back()) + ", q·k differs from RoPE's by up to " +
               ShownNumber(r.partial_gap, 3) + " with partial rotary and " +
               ShownNumber(r.p_gap, 3) +
               " with p-RoPE (RoPE's largest |q·k| there: " + ShownNumber(r.rope_largest, 3) + ").";
    return out;
}

namespace {

struct PartialInputs {
    AlternativesPanel::RopeInputs rope;
    double fraction = 0, p = 0;
    RopePairing pairing = RopePairing::HalfSplit;
    bool operator==(const PartialInputs& o) const {
        return rope == o.rope && fraction == o.fraction && p == o.p && pairing == o.pairing;
    }
};

constexpr NumberControl kPartialFraction{
    "partial_fraction",
    "the share of each head's dimensions partial rotary turns",
    0,
    1,
    0.25,
    "rotary fraction",
    "%.2f",
    false,
    "GPT-NeoX's rotary_pct, Phi's partial_rotary_factor: the share of each head's dimensions "
    "that turn.",
    "alternatives.partial_fraction"};
constexpr NumberControl kPartialP{
    "partial_p",
    "p-RoPE's p, the share of pairs that keep turning",
    0,
    1,
    0.75,
    "p",
    "%.2f",
    false,
    "p-RoPE's p: the share of pairs, the fastest, that keep turning (1: RoPE, 0: none).",
    "alternatives.partial_p"};

constexpr const char* kHalfSplitLabel = "half-split pairs (NeoX, Phi)";

struct PartialTab final : AlternativesTab {
    double fraction = kPartialFraction.initial; ///< GPT-NeoX's rotary_pct
    double p = kPartialP.initial;
    /// The pairing of GPT-NeoX and Phi, whose fractions the tab offers; off: interleaved.
    bool half_split = true;
    RopePairing Pairing() const {
        return half_split ? RopePairing::HalfSplit : RopePairing::Interleaved;
    }
    mutable Cached<PartialInputs, PartialResult> result;
    plot::PlotView wavelength_view, score_view;

    const PartialResult& ResultFor(const AlternativesPanel& panel, const AppState& state) const {
        return result.Get(PartialInputs{panel.RopeInputsFor(state), fraction, p, Pairing()},
                          [](const PartialInputs& in) {
                              return ComputePartial(in.rope, in.fraction, in.p, in.pairing);
                          });
    }
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

void PartialTab::Draw(AlternativesPanel& panel, FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float slider = FitWidth(7.0f, "rotary fraction");
        SceneSlider(frame, row, kPartialFraction, &fraction, slider);
        row.Item(ButtonWidth("NeoX 0.25") + ButtonWidth("Phi 0.4") + FlowRow::Spacing());
        if (ImGui::Button("NeoX 0.25")) fraction = 0.25;
        ImGui::SameLine();
        if (ImGui::Button("Phi 0.4")) fraction = 0.4;
        SceneSlider(frame, row, kPartialP, &p, slider);
        row.Item(CheckboxWidth(kHalfSplitLabel));
        ImGui::Checkbox(kHalfSplitLabel, &half_split);
        frame.Record("alternatives.partial_half_split");
        panel.RopeVectorControls(frame, row);
        EndControls(frame);
    }
    const PartialResult* computed = nullptr;
    {
        CoreTimer core_time(frame.stats);
        computed = &ResultFor(panel, frame.state);
    }
    const PartialResult& r = *computed;
    const Explanation sentence = PartialSentence(r);
    SentenceAndPlots layout;
    layout.Begin(frame, sentence.text, "alternatives.partial_text");
    const float height = layout.height, half_width = layout.half_width;
    {
        // A pair that does not turn has no wavelength: it is drawn on the line marked ∞, above
        // the longest finite one.
        double longest = 1;
        for (const std::vector<double>* each :
             {&r.rope_wavelength, &r.partial_wavelength, &r.p_wavelength})
            for (const double w : *each)
                if (std::isfinite(w)) longest = std::max(longest, w);
        const double infinity_row = longest * 10;
        const auto drawn = [&](const std::vector<double>& w) {
            std::vector<double> out = w;
            for (double& each : out)
                if (!std::isfinite(each)) each = infinity_row;
            return out;
        };
        const std::vector<double> rope = drawn(r.rope_wavelength),
                                  partial = drawn(r.partial_wavelength),
                                  p_rope = drawn(r.p_wavelength);
        wavelength_view.SetHome(plot::Range{-0.5, r.d * 0.5 - 0.5},
                                plot::Range{1, infinity_row * 3});
        wavelength_view.Refit(wavelength_view.home_x, wavelength_view.home_y);
        plot::PlotConfig config;
        config.x_label = "pair i";
        config.y_label = "wavelength (positions)";
        config.x_flags = plot::AxisFlags_Integer;
        config.y_flags = plot::AxisFlags_Log;
        plot::Plot w;
        if (w.Begin(
                "wavelength of each pair (positions; top line ∞: not turned)##partial_wavelengths",
                wavelength_view, ImVec2(half_width, height), config)) {
            frame.Record("alternatives.partial_wavelengths");
            const int count = static_cast<int>(r.pairs.size());
            w.Line("RoPE", r.pairs.data(), rope.data(), count, frame.Color(Role::Muted),
                   frame.Px(1.5f));
            w.Markers("partial rotary", r.pairs.data(), partial.data(), count,
                      frame.Color(Role::PosB), frame.Px(3.5f), plot::Marker::Ring);
            w.Markers("p-RoPE", r.pairs.data(), p_rope.data(), count, frame.Color(Role::PosA),
                      frame.Px(3.0f));
            w.HLine(infinity_row, frame.Color(Role::Warning), "∞");
            w.End();
        }
    }
    ImGui::SameLine();
    {
        double low = 0, high = 0;
        for (std::size_t k = 0; k < r.distances.size(); ++k)
            low = std::min({low, r.rope_scores[k], r.partial_scores[k], r.p_scores[k]}),
            high = std::max({high, r.rope_scores[k], r.partial_scores[k], r.p_scores[k]});
        score_view.SetHome(
            plot::Range{0, r.distances.back()},
            plot::Range{low - 0.05 * (high - low) - 1e-9, high + 0.05 * (high - low) + 1e-9});
        if (!score_view.has_home) score_view.Reset();
        plot::PlotConfig config;
        config.x_label = "m − n";
        config.y_label = "q·k";
        plot::Plot s;
        if (s.Begin("q·k against m − n##partial_scores", score_view, ImVec2(-1, height), config)) {
            frame.Record("alternatives.partial_scores");
            const int count = static_cast<int>(r.distances.size());
            s.Line("RoPE", r.distances.data(), r.rope_scores.data(), count,
                   frame.Color(Role::Muted), frame.Px(1.5f));
            s.Line("partial rotary", r.distances.data(), r.partial_scores.data(), count,
                   frame.Color(Role::PosB), frame.Px(2.0f));
            s.Line("p-RoPE", r.distances.data(), r.p_scores.data(), count, frame.Color(Role::PosA),
                   frame.Px(2.0f));
            s.End();
        }
    }
    layout.End(frame);
}

void PartialTab::AddFields(SceneTable& table) {
    table.Number(kPartialFraction, &fraction);
    table.Number(kPartialP, &p);
    table.Bool("partial_half_split",
               "the Partial tab pairs i with i + r/2 as GPT-NeoX and Phi do (false: interleaved, "
               "2i with 2i + 1)",
               &half_split);
}

nlohmann::json PartialTab::Readouts(const AlternativesPanel& panel, const AppState& state) const {
    const PartialResult& r = ResultFor(panel, state);
    const Explanation sentence = PartialSentence(r);
    const nlohmann::json claims = ClaimsJson(sentence);
    return {{"partial",
             {{"fraction", r.fraction},
              {"p", r.p},
              {"d", r.d},
              {"rotary_dims", r.rotary_dims},
              {"partial_turned", r.partial_turned},
              {"p_turned", r.p_turned},
              {"half_split", r.pairing == RopePairing::HalfSplit},
              {"sentence", sentence.text},
              {"claims", claims}}}};
}

std::optional<MethodRowJob> PartialTab::RowJob(const AlternativesPanel& panel,
                                               const AppState& state) const {
    const AlternativesPanel::RopeInputs rope = panel.RopeInputsFor(state);
    char numbers[64];
    std::snprintf(numbers, sizeof numbers, " fraction %.17g p %.17g", fraction, p);
    return MethodRowJob{
        rope.Key() + numbers, [rope, fraction = fraction, p = p] {
            // q·k at (m, n) and at both moved by 10, 20, … 990, under each plan.
            const std::vector<double> q = AlternativesPanel::RopeVectorFor(rope, true);
            const std::vector<double> k = AlternativesPanel::RopeVectorFor(rope, false);
            const int d = static_cast<int>(q.size());
            const double m = std::min(rope.m, 1000.0), n = std::min(rope.n, 1000.0);
            double change = 0, largest = 1;
            for (const RopePairPlan& plan :
                 {partial_rotary_plan(d, rope.base, fraction), p_rope_plan(d, rope.base, p)}) {
                const double at = plan_score(q, k, m, n, plan);
                largest = std::max(largest, std::abs(at));
                for (int s = 1; s < 100; ++s)
                    change = std::max(
                        change, std::abs(plan_score(q, k, m + 10 * s, n + 10 * s, plan) - at));
            }
            const bool relative = change < 1e-6 * largest;
            return MethodRow{
                {"partial rotary, p-RoPE", "GPT-NeoX, Phi (partial); Barbero et al. 2024 (p-RoPE)",
                 "q and k of some pairs turned, the rest not", "0",
                 "the pairs left still carry no position at any length",
                 (relative ? "yes, q·k: change " : "no: q·k changes by ") + ShownNumber(change, 2)},
                relative ? Verdict::Yes : Verdict::No,
                change,
                "partial"};
        }};
}

std::vector<WidgetName> PartialTab::Widgets() const {
    return {
        ControlWidget(kPartialFraction),
        ControlWidget(kPartialP),
        {"alternatives.partial_half_split",
         "the checkbox pairing the dimensions half-split (GPT-NeoX, Phi) or interleaved"},
        {"alternatives.partial_text",
         "the sentence on which pairs partial rotary and p-RoPE turn",
         {"partial"}},
        {"alternatives.partial_wavelengths",
         "each pair's wavelength under RoPE, partial rotary and p-RoPE"},
        {"alternatives.partial_scores", "q·k against m − n under the three"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakePartialTab() {
    return std::make_unique<PartialTab>();
}

} // namespace pelab
