// alternatives_xpos.h — what the alternatives panel's xPos tab computes for the RoPE tabs' q and
// k, and its sentence (checked over a sweep of scenes by the tests).
#pragma once

#include "panels/alternatives/panel_alternatives.h"
#include "pelab/scaling/rope_family.h"

#include <vector>

namespace pelab {

struct XposResult {
    std::vector<double> q, k;
    int d = 0;
    XposOptions options;
    std::vector<double> zeta; ///< ζ_i per pair
    /// Against m − n from 0 to 4B: q·k under RoPE and xPos, and the largest |q·k| each allows
    /// (Σ_i |q_i||k_i|, with xPos's ζ_i^((m − n)/B)).
    std::vector<double> distances, rope_scores, xpos_scores, envelope, rope_envelope;
    double distance = 0;             ///< m − n (pos A − pos B)
    std::vector<double> pairs, kept; ///< ζ_i^((m − n)/B) per pair
    std::vector<double> kept_at_4b;  ///< ζ_i^4, what each pair keeps at m − n = 4B
    double score = 0, rope_score = 0;
    /// The fastest pair's factor at this m − n (a key far after the query) is past the largest
    /// double: no score (score 0, the readouts' null).
    bool overflows = false;
    XposFloat32Limits limits;
};
XposResult ComputeXpos(const AlternativesPanel::RopeInputs& inputs, const XposOptions& options);

/// The tab's sentence, with its claims: distance, fastest_kept, slowest_kept (pair 0's and the
/// last pair's ζ^((m − n)/B)), q_subnormal_from, k_overflow_from.
Explanation XposSentence(const XposResult& result);

} // namespace pelab
