// alternatives_partial.h — what the alternatives panel's Partial tab computes (partial rotary
// against p-RoPE for the RoPE tabs' q and k), and its sentence.
#pragma once

#include "panels/alternatives/panel_alternatives.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/scaling/rope_family.h"

#include <vector>

namespace pelab {

struct PartialResult {
    int d = 0;
    double fraction = 0, p = 0;
    /// Which dimensions pair up: half-split as GPT-NeoX's and Phi's rotate_half (i with
    /// i + r/2 among the r turned dimensions; i + d/2 for RoPE and p-RoPE) or interleaved
    /// (2i, 2i + 1). q and k are the same vectors either way, so the scores differ.
    RopePairing pairing = RopePairing::HalfSplit;
    int rotary_dims = 0, partial_turned = 0, p_turned = 0;
    /// Per pair: the wavelength 2π/θ_i in positions under each plan (∞: not turned).
    std::vector<double> pairs, rope_wavelength, partial_wavelength, p_wavelength;
    /// The slowest turning pair's wavelength under each (0 when none turns).
    double rope_longest = 0, partial_longest = 0, p_longest = 0;
    /// q·k against m − n, 0 … 256.
    std::vector<double> distances, rope_scores, partial_scores, p_scores;
    /// The largest |q·k − RoPE's q·k| over those distances, and RoPE's largest |q·k|.
    double partial_gap = 0, p_gap = 0, rope_largest = 0;
};
PartialResult ComputePartial(const AlternativesPanel::RopeInputs& inputs, double fraction, double p,
                             RopePairing pairing);

/// The tab's sentence, with its claims: partial_turned, p_turned (pairs that turn),
/// partial_longest, p_longest, rope_longest (the slowest turning pair's wavelength),
/// partial_gap, p_gap (the largest distance from RoPE's score curve), half_split (1 when the
/// dimensions pair as GPT-NeoX's rotate_half pairs them, 0 interleaved).
Explanation PartialSentence(const PartialResult& result);

} // namespace pelab
