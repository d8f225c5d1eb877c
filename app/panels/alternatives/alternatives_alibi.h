// alternatives_alibi.h — what the ALiBi tab of the alternatives panel computes for its order
// sentence: whether −m·|i − j| tells "dog bites man" from "man bites dog".
#pragma once

#include "panels/alternatives/panel_alternatives.h"

#include <string>

namespace pelab {

/// The order demo's tie and ALiBi (one-hot embeddings, d_model 16, PE off). Scores: the largest
/// difference after re-ordering, without and with head's bias −m·|i − j| added in both
/// directions. Weights: the same for the causal softmax weights, with the mask alone and with
/// mask and bias (ALiBi is used in causal models, and the mask by itself already sees order).
struct AlibiTie {
    double without_bias = 0;
    double with_bias = 0;
    /// Every pair of words is as far apart in B as in A under the best matching (B is A
    /// backwards, say): then −m·|i − j| cannot tell the orders apart.
    bool distances_kept = false;
    double causal_mask_only = 0;
    double causal_with_bias = 0;
    bool same_words = false;
    std::string error; ///< a sentence the order demo refuses
};
AlibiTie AlibiBreaksTie(const std::string& sentence_a, const std::string& sentence_b, double slope);

} // namespace pelab
