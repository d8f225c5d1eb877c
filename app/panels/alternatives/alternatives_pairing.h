// alternatives_pairing.h — what the alternatives panel's RoPE pairs tab computes for the RoPE
// tabs' q and k under RoPE's two pairings, and its sentence.
#pragma once

#include "panels/alternatives/panel_alternatives.h"

#include <vector>

namespace pelab {

/// RoPE's two pairings for the RoPE tabs' q and k.
struct PairingResult {
    std::vector<double> distances, interleaved, half_split; ///< q·k at m − n = distance
    /// Each dimension and the θ it turns at under either pairing.
    std::vector<double> dimensions, interleaved_theta, half_split_theta;
    double interleaved_shift_change = 0, half_split_shift_change = 0; ///< as the RoPE tab's
    double largest_gap = 0;   ///< max over distances of |half-split − interleaved q·k|
    double largest_score = 0; ///< max |interleaved q·k| over the distances
    double largest_half_split_score = 0; ///< max |half-split q·k| over the distances
    int same_frequency_dims = 0, d = 0;
};
PairingResult ComputePairing(const AlternativesPanel::RopeInputs& inputs);

/// The RoPE pairs tab's sentence, with its claims: both pairings relative (both_relative), how
/// many dimensions keep their frequency across pairings (same_frequency_dims), how far the two
/// score curves are apart (largest_gap).
Explanation PairingSentence(const PairingResult& result);

} // namespace pelab
