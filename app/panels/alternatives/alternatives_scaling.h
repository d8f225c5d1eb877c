// alternatives_scaling.h — the sentence of the alternatives panel's Long context tab, which the
// sentence checks sweep (panels/sentences.cpp).
#pragma once

#include "panels/alternatives/panel_alternatives.h"

namespace pelab {

/// The long-context tab's sentence: what each scaling method keeps and slows at these options,
/// worded from the counts of its factors, with its claims.
Explanation ScalingSentence(const ContextScalingOptions& options);

} // namespace pelab
