// pelab/scaling/rope_family.h — RoPE's relatives as plans over a head's pairs: which frequency each
// pair turns at (0: it does not turn) and, for xPos, how its share of q·k decays with distance.
//
//   RoPE (Su et al.)         pair i turns at θ_i = base^(−2i/d)
//   partial rotary           only the first r = ⌊fraction·d⌋ dimensions turn (GPT-NeoX 0.25,
//                            Phi 0.4), at base^(−2i/r): the whole spectrum over fewer pairs
//   p-RoPE (Barbero et al.)  pairs keep RoPE's θ_i, but the lowest frequencies, all but the
//                            first ⌊p·d/2⌋ pairs, are set to 0 (p = 1 is RoPE, p = 0 none)
//   xPos (Sun et al. 2022)   RoPE with q at m scaled by ζ_i^(m/B) and k at n by ζ_i^(−n/B),
//                            ζ_i = (2i/d + γ)/(1 + γ) (γ = 0.4, B = 512 in the paper): pair i's
//                            term of q·k carries ζ_i^((m − n)/B), a decay for keys before the
//                            query (causal models only: a key after it would grow)
//
// The pairs are numbered as in pelab/encodings/alternatives.h (pair i is dimensions (2i, 2i + 1),
// or (i, i + d/2) under the half-split pairing: which dimensions pair up does not change a pair's
// term). Contracts (InvalidArgument otherwise): d even in [2, kMaxDModel]; base as in
// sinusoidal.h; fractions in [0, 1]; γ in (0, 10]; B in [1, 10⁶].
#pragma once

#include <cmath>
#include <string>
#include <vector>

namespace pelab {

/// What each pair of a head does with position.
struct RopePairPlan {
    std::vector<double> theta; ///< the angle per position step of pair i (0: not turned)
    std::vector<double> zeta;  ///< xPos's ζ_i (1: no decay); the score carries ζ_i^(Δ/B)
    double scale_base = 512;   ///< B
    int pairs() const { return static_cast<int>(theta.size()); }
    int turned_pairs() const; ///< how many pairs have θ_i > 0
};

/// RoPE: every pair turns at θ_i = base^(−2i/d).
RopePairPlan rope_plan(int d, double base);
/// Partial rotary: the first ⌊fraction·d⌋ dimensions, rounded down to even (r), turn at
/// base^(−2i/r) for i < r/2; the others do not turn (GPT-NeoX's rotary_pct, Phi's
/// partial_rotary_factor).
RopePairPlan partial_rotary_plan(int d, double base, double fraction);
/// p-RoPE: RoPE's θ_i for the first ⌊p·d/2⌋ pairs (the fastest), 0 for the rest.
RopePairPlan p_rope_plan(int d, double base, double p);

struct XposOptions {
    double gamma = 0.4;      ///< γ
    double scale_base = 512; ///< B
};
/// ζ_i = (2i/d + γ)/(1 + γ), for i < d/2.
std::vector<double> xpos_zeta(int d, double gamma);
/// xPos's decay of a pair over `steps` positions: ζ^(steps/B), 1 when ζ is 1 (no decay) whatever
/// the steps; may overflow to +∞ for a large negative exponent's reciprocal (the caller says so).
inline double xpos_decay(double zeta, double steps, double scale_base) {
    return zeta == 1 ? 1.0 : std::pow(zeta, steps / scale_base);
}
/// xPos: RoPE's θ_i and xPos's ζ_i.
RopePairPlan xpos_plan(int d, double base, const XposOptions& options);

/// Σ_i ζ_i^(Δ/B)·|q_i||k_i|·cos(Δ·θ_i + φ_i) over the pairs (2i, 2i + 1) of q and k (the same
/// even length, 2·plan.pairs()): the score of q at m and k at n from Δ = m − n alone.
double plan_score_relative(const std::vector<double>& q, const std::vector<double>& k,
                           double distance, const RopePairPlan& plan);
/// The same score by scaling and turning q at m and k at n one by one (q by ζ^(m/B), k by
/// ζ^(−n/B)), as a trainer does: equal to plan_score_relative up to rounding while the scales
/// stay finite.
double plan_score(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                  const RopePairPlan& plan);

/// Where scaling q and k by their absolute positions fails in float32 for xPos: the first
/// position at which ζ_0^(p/B) (q's smallest scale) falls below float32's smallest normal value
/// (its precision thins, then it reaches 0), and at which ζ_0^(−p/B) (k's largest) exceeds its
/// largest value (infinity). The paper's code computes the scales relative to the middle of
/// the block for this reason: the product needs only m − n.
struct XposFloat32Limits {
    double q_subnormal_from = 0;
    double k_overflow_from = 0;
};
XposFloat32Limits xpos_float32_limits(int d, const XposOptions& options);

} // namespace pelab
