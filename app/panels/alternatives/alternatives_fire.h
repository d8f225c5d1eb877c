// alternatives_fire.h — what the alternatives panel's FIRE tab computes: the input FIRE's learned
// function reads, ψ(i − j)/ψ(max(L, i)) with ψ(x) = log(c·x + 1), for queries at several
// positions; and its sentence (checked over a sweep of scenes by the tests).
#pragma once

#include "panels/alternatives/panel_alternatives.h"

#include <vector>

namespace pelab {

struct FireResult {
    double c = 0, threshold = 0; ///< ψ's c and the threshold L
    /// The queries drawn: m, 4m and 16m (m = pos A, at least 1).
    std::vector<double> queries;
    /// Per query: its keys' distance d = 0 … query and FIRE's input there; and the same inputs
    /// against d / query (the share of the context behind the key).
    std::vector<std::vector<double>> distances, inputs, shares;
    double query = 0, distance = 0; ///< m = ⌊pos A⌋ (at least 1) and d = m − ⌊pos B⌋, in [0, m]
    double query_asked = 0, key_asked = 0; ///< pos A and pos B as set
    bool key_after_query = false;          ///< ⌊pos B⌋ > m: masked in a causal model
    double input = 0;                      ///< FIRE's input for that key
    /// The key at the same share of the context seen from 4m (distance 4d), and its input.
    double input_at_4 = 0;
    double log_distance = 0; ///< ψ(d)/ψ(threshold): what the input would be without the max
};
FireResult ComputeFire(double c, double threshold, double query, double key);

/// The tab's sentence, with its claims: query, distance, input, input_at_4.
Explanation FireSentence(const FireResult& result);

} // namespace pelab
