// alternatives_pairing.cpp — the alternatives panel's RoPE pairs tab: the two ways code pairs a
// head's dimensions for RoPE (interleaved (2i, 2i + 1): the paper, GPT-J; half-split
// (i, i + d/2): GPT-NeoX, Llama's Hugging Face code), for the RoPE tab's q and k. Both keep q·k a
// function of m − n (measured); the same q and k run with the other pairing give another score
// curve, because most dimensions then turn at a frequency they were not made for (counted).
#include "panels/alternatives/alternatives_pairing.h"

#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {
constexpr int kPairingDistances = 128;                     ///< q·k drawn for m − n in [0, 128]
constexpr int kPairingShifts = 20, kPairingShiftStep = 50; ///< m, n moved by 50 … 950
} // namespace

PairingResult ComputePairing(const AlternativesPanel::RopeInputs& inputs) {
    PairingResult r;
    const std::vector<double> q = AlternativesPanel::RopeVectorFor(inputs, true),
                              k = AlternativesPanel::RopeVectorFor(inputs, false);
    const int d = static_cast<int>(q.size());
    r.d = d;
    // The half-split pairing is the interleaved one on reordered vectors (rope_as_interleaved):
    // the interleaved formulas then serve both.
    const std::vector<double> q_half = rope_as_interleaved(q, RopePairing::HalfSplit);
    const std::vector<double> k_half = rope_as_interleaved(k, RopePairing::HalfSplit);
    for (int distance = 0; distance <= kPairingDistances; ++distance) {
        r.distances.push_back(distance);
        r.interleaved.push_back(rope_score_relative(q, k, distance, inputs.base));
        r.half_split.push_back(rope_score_relative(q_half, k_half, distance, inputs.base));
        r.largest_score = std::max(r.largest_score, std::abs(r.interleaved.back()));
        r.largest_half_split_score =
            std::max(r.largest_half_split_score, std::abs(r.half_split.back()));
        r.largest_gap =
            std::max(r.largest_gap, std::abs(r.half_split.back() - r.interleaved.back()));
    }
    const double room = kPairingShiftStep * kPairingShifts;
    const double m = std::min(inputs.m, kUiMaxPosition - room);
    const double n = std::min(inputs.n, kUiMaxPosition - room);
    r.interleaved_shift_change =
        rope_max_shift_change(q, k, m, n, inputs.base, kPairingShifts, kPairingShiftStep);
    r.half_split_shift_change =
        rope_max_shift_change(q_half, k_half, m, n, inputs.base, kPairingShifts, kPairingShiftStep);
    const std::vector<double> theta = rope_frequencies(d, inputs.base);
    for (int dimension = 0; dimension < d; ++dimension) {
        const int interleaved = rope_pair_of(RopePairing::Interleaved, dimension, d);
        const int half = rope_pair_of(RopePairing::HalfSplit, dimension, d);
        r.dimensions.push_back(dimension);
        r.interleaved_theta.push_back(theta[static_cast<std::size_t>(interleaved)]);
        r.half_split_theta.push_back(theta[static_cast<std::size_t>(half)]);
        r.same_frequency_dims += interleaved == half;
    }
    return r;
}

Explanation PairingSentence(const PairingResult& r) {
    Explanation out;
    // A score that moves by less than this share of the largest one, over a sweep of 20
    // shifts, depends on m − n alone up to rounding.
    const double rounding = 1e-9 * std::max({1.0, r.largest_score, r.largest_half_split_score});
    const bool both_relative =
        r.interleaved_shift_change <= rounding && r.half_split_shift_change <= rounding;
    out.Claims("both_relative", both_relative ? 1 : 0);
    out.Claims("same_frequency_dims", r.same_frequency_dims);
    out.Claims("largest_gap", r.largest_gap);
    // Said as a bound, not as the rounding's own digits (which differ between C libraries).
    out.text =
        both_relative
            ? std::string("Both pairings keep q·k a function of m − n alone: moving m and n "
                          "together by 50, 100, … 950 changes it only by rounding (less "
                          "than 10⁻⁹ of the largest |q·k|), with interleaved pairs (2i, "
                          "2i + 1), the paper's, as with half-split pairs (i, i + d/2), "
                          "GPT-NeoX's and Llama's Hugging Face code.")
            : "Moving m and n together changes q·k by up to " +
                  ShownNumber(std::max(r.interleaved_shift_change, r.half_split_shift_change), 2) +
                  ": more than rounding, which no pairing of RoPE should do.";
    const int d = r.d;
    out.text += " Run with the other pairing, the same q and k score differently: " +
                std::to_string(d - r.same_frequency_dims) + " of the " + std::to_string(d) +
                " dimensions turn at another frequency than the one they were paired for (" +
                std::to_string(r.same_frequency_dims) +
                (r.same_frequency_dims == 1 ? " keeps its own" : " keep their own") +
                "), and the two curves differ by up to " + ShownNumber(r.largest_gap, 3) +
                " (the largest |q·k| is " + ShownNumber(r.largest_score, 3) + " interleaved, " +
                ShownNumber(r.largest_half_split_score, 3) + " half-split).";
    if (d == 2) out.text += " At d = 2 there is one pair, the same either way: nothing differs.";
    return out;
}

namespace {

struct PairingTab final : AlternativesTab {
    mutable Cached<AlternativesPanel::RopeInputs, PairingResult> pairing;
    plot::PlotView pairing_view, pairing_theta_view;

    const PairingResult& PairingFor(const AlternativesPanel& panel, const AppState& state) const {
        return pairing.Get(panel.RopeInputsFor(state), ComputePairing);
    }
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
};

void PairingTab::Draw(AlternativesPanel& panel, FrameContext& frame) {
    const PairingResult* result = nullptr;
    {
        CoreTimer core_time(frame.stats);
        result = &PairingFor(panel, frame.state);
    }
    const PairingResult& r = *result;
    const Explanation sentence = PairingSentence(r);
    SentenceAndPlots layout;
    layout.Begin(frame, sentence.text, "alternatives.pairing_text");
    const float height = layout.height, half_width = layout.half_width;
    {
        double low = 0, high = 0;
        for (std::size_t k = 0; k < r.distances.size(); ++k)
            low = std::min({low, r.interleaved[k], r.half_split[k]}),
            high = std::max({high, r.interleaved[k], r.half_split[k]});
        pairing_view.SetHome(
            plot::Range{0, kPairingDistances},
            plot::Range{low - 0.1 * (high - low) - 1e-9, high + 0.1 * (high - low) + 1e-9});
        if (!pairing_view.has_home) pairing_view.Reset();
        plot::PlotConfig config;
        config.x_label = "m − n";
        plot::Plot p;
        if (p.Begin("q·k against m − n##pairing_scores", pairing_view, ImVec2(half_width, height),
                    config)) {
            frame.Record("alternatives.pairing_scores");
            const int count = static_cast<int>(r.distances.size());
            p.Line("interleaved (2i, 2i + 1)", r.distances.data(), r.interleaved.data(), count,
                   frame.Color(Role::PosA), frame.Px(2.0f));
            p.Line("half-split (i, i + d/2)", r.distances.data(), r.half_split.data(), count,
                   frame.Color(Role::PosB), frame.Px(2.0f));
            p.End();
        }
    }
    ImGui::SameLine();
    {
        pairing_theta_view.SetHome(plot::Range{-0.5, static_cast<double>(r.d) - 0.5},
                                   plot::Range{r.interleaved_theta.back() * 0.5, 2.0});
        if (!pairing_theta_view.has_home) pairing_theta_view.Reset();
        plot::PlotConfig config;
        config.x_label = "dimension";
        config.x_flags = plot::AxisFlags_Integer;
        config.y_flags = plot::AxisFlags_Log;
        plot::Plot p;
        if (p.Begin("the frequency each dimension turns at##pairing_frequencies",
                    pairing_theta_view, ImVec2(-1, height), config)) {
            frame.Record("alternatives.pairing_frequencies");
            const int count = static_cast<int>(r.dimensions.size());
            p.Markers("θ of its interleaved pair", r.dimensions.data(), r.interleaved_theta.data(),
                      count, frame.Color(Role::PosA), frame.Px(3.0f));
            p.Markers("θ of its half-split pair", r.dimensions.data(), r.half_split_theta.data(),
                      count, frame.Color(Role::PosB), frame.Px(3.0f));
            p.End();
        }
    }
    layout.End(frame);
}

nlohmann::json PairingTab::Readouts(const AlternativesPanel& panel, const AppState& state) const {
    const PairingResult& r = PairingFor(panel, state);
    const Explanation sentence = PairingSentence(r);
    const nlohmann::json claims = ClaimsJson(sentence);
    return {{"pairing",
             {{"interleaved_shift_change", r.interleaved_shift_change},
              {"half_split_shift_change", r.half_split_shift_change},
              {"same_frequency_dims", r.same_frequency_dims},
              {"largest_gap", r.largest_gap},
              {"largest_score", r.largest_score},
              {"sentence", sentence.text},
              {"claims", claims}}}};
}

std::vector<WidgetName> PairingTab::Widgets() const {
    return {
        {"alternatives.pairing_text",
         "the sentence on RoPE's two pairings: both relative, how far apart run crossed",
         {"pairing"}},
        {"alternatives.pairing_scores",
         "q·k against m − n for the interleaved and the half-split pairing"},
        {"alternatives.pairing_frequencies",
         "the frequency each dimension turns at under either pairing (log scale)"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakePairingTab() {
    return std::make_unique<PairingTab>();
}

} // namespace pelab
