// alternatives_nope.h — what the alternatives panel's NoPE tab computes: iRoPE's layers without
// positions against RoPE's for the RoPE tabs' q and k, and what a causal mask alone tells a
// model about position; and its sentence (checked over a sweep of scenes by the tests).
#pragma once

#include "panels/alternatives/panel_alternatives.h"

#include <vector>

namespace pelab {

/// Where the first token's even share of neighbours, 1/(p + 1) and 1/(p + 2), is the same stored
/// number (pelab/encodings/precision.h's first_share_collision): constants, computed once.
struct ShareCollisions {
    long long bfloat16 = 0, float16 = 0, float32 = 0;
};
ShareCollisions ComputeShareCollisions();

struct NopeResult {
    int d = 0;
    /// q·k against m − n, 0 … 256, in a RoPE layer; in a layer without positions it is q·k at
    /// every distance.
    std::vector<double> distances, rope_scores, nope_scores;
    double nope_score = 0, rope_lowest = 0, rope_highest = 0;
    /// iRoPE's pattern: of `layers`, those numbered nope_every, 2·nope_every, … (from 1).
    int layers = 0, nope_every = 0;
    std::vector<int> nope_layers;
    /// The causal leak at pos A counted in whole tokens: position m sees m + 1 tokens, so an
    /// even spread gives the first token share 1/(m + 1); the next position's is 1/(m + 2).
    double position_asked = 0; ///< pos A as set (it may be fractional)
    long long position = 0;    ///< floor(pos A)
    double share = 0, next_share = 0, gap = 0;
    /// Against position 0 … `reach` (at least 64, twice the position): the causal share and the
    /// bidirectional one (1/n for a sequence of reach + 1 tokens, the same at every position).
    std::vector<double> positions, causal_shares, bidirectional_shares;
    ShareCollisions collisions;
};
NopeResult ComputeNope(const AlternativesPanel::RopeInputs& inputs, int layers, int nope_every,
                       const ShareCollisions& collisions);

/// The tab's sentence, with its claims: nope_layers (how many), nope_score (q·k in those
/// layers), rope_lowest and rope_highest (q·k's range in RoPE's over 0 … 256), position, share,
/// next_share, bfloat16_from, float16_from, float32_from.
Explanation NopeSentence(const NopeResult& result);

} // namespace pelab
