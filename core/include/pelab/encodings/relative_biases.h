// pelab/encodings/relative_biases.h — the formulas of the relative schemes that add to (or gate)
// the attention scores, each written once: the training lab's hooks (core/src/training/
// positional/) and the Alternatives panel's tabs both call them.
//
//   KERPLE (Chi et al. 2022), a head's bias at distance d = |i − j|:
//     logarithmic  b(d) = −r₁·log(1 + r₂·d)       power  b(d) = −r₁·d^p      (r₁, r₂ > 0, p ∈ (0,
//     2])
//   FIRE (Li et al. 2024), the MLP's input for query position i and distance d = i − j:
//     u = ψ(d) / ψ(max(L, i)),  ψ(x) = log(1 + c·x)                          (c > 0, L > 0)
//   CoPE (Golovneva et al. 2024), a key's gate from its score: g = σ(s) = 1 / (1 + e^(−s)).
//
// Contracts: arguments finite and in the ranges above (d ≥ 0); no checks here (the callers'
// settings are validated where they are made), so the trainer's inner loops pay nothing.
#pragma once

#include <algorithm>
#include <cmath>

namespace pelab {

inline double kerple_log_bias(double r1, double r2, double distance) {
    return -r1 * std::log1p(r2 * distance);
}

inline double kerple_power_bias(double r1, double power, double distance) {
    return -r1 * std::pow(distance, power);
}

inline double fire_input(double distance, double query, double c, double threshold) {
    return std::log1p(c * distance) / std::log1p(c * std::max(threshold, query));
}

/// In the caller's precision (the trainer's float pass gates in float).
template <typename Real> Real cope_gate(Real score) {
    return Real(1) / (Real(1) + std::exp(-score));
}

} // namespace pelab
