// alternatives_cope.h — what the alternatives panel's CoPE tab computes: the positions a query
// at the end of a text gives its keys when its gates open on one token (a sentence end, say),
// against the token distances; and its sentence (checked over a sweep of scenes by the tests).
#pragma once

#include "panels/alternatives/panel_alternatives.h"

#include <string>
#include <vector>

namespace pelab {

struct CopeResult {
    std::vector<std::string> tokens; ///< the text's; the query is the last
    std::string separator;           ///< the token the gates open on
    double sharpness = 0;        ///< the gate's logit: σ(+s) on the separator, σ(−s) elsewhere
    double open = 0, closed = 0; ///< σ(s), σ(−s)
    int separators = 0;          ///< how often the separator occurs in the text
    /// Per key j (0 … i): its gate, its CoPE position Σ_{t=j..i} gate_t, its token distance
    /// i − j, and the position every gate 1 would give (i − j + 1: a count of tokens).
    std::vector<double> keys, gates, positions, distances, token_counts;
    int key = 0;          ///< the key the sentence is about: ⌊pos B⌋, at most the last token
    double key_asked = 0; ///< pos B as set
    int separators_between = 0; ///< separators among keys key … i
    /// Tokens without a separator that count as one more position: ⌈1/σ(−s)⌉ (0 when s = 0 is
    /// not the case and σ(−s) underflows: never here, s ≤ 20).
    long long creep = 0;
    /// Tokens without a separator whose gates together pass one separator's gate: the least k
    /// with k·σ(−s) > σ(s), ⌊σ(s)/σ(−s)⌋ + 1 (one fewer than creep: σ(s) < 1).
    long long outweigh = 0;
};
CopeResult ComputeCope(const std::string& text, const std::string& separator, double sharpness,
                       double key_position);

/// The tab's sentence, with its claims: key_position (the key's CoPE position), distance (its
/// token distance), separators_between, open, closed, creep, outweigh.
Explanation CopeSentence(const CopeResult& result);

} // namespace pelab
