// alternatives_kerple.h — what the alternatives panel's KERPLE tab computes (its logarithmic and
// power biases against ALiBi's with the same slope at 0), and its sentence.
#pragma once

#include "panels/alternatives/panel_alternatives.h"

#include <vector>

namespace pelab {

struct KerpleResult {
    double r1 = 0, r2 = 0, power = 0; ///< log: −r₁·log(1 + r₂·d); power: −r₁·d^power
    double slope = 0;                 ///< ALiBi's with the log's slope at d = 0: r₁·r₂
    /// Against distance d = 0 … reach: each bias, and what one more token costs each (the bias
    /// at d minus the bias at d + 1).
    std::vector<double> distances, log_bias, power_bias, alibi_bias, log_step, power_step,
        alibi_step;
    double distance = 0; ///< |m − n|
    double log_at = 0, power_at = 0, alibi_at = 0, log_step_at = 0;
    double far = 1000, log_far = 0, alibi_far = 0; ///< at d = 1 000
};
KerpleResult ComputeKerple(double r1, double r2, double power, double distance);

/// The tab's sentence, with its claims: distance, log_bias, power_bias, alibi_bias, log_step,
/// log_far, alibi_far.
Explanation KerpleSentence(const KerpleResult& result);

} // namespace pelab
