// iRoPE (the interleaved layers of Llama 4): RoPE's interleaved pairs in every layer but the
// pattern's, layers nope_every, 2·nope_every, … (counted from 1), which attend without
// positions (NoPE) and so must read order from what the earlier layers wrote and from the
// causal mask. Llama 4 leaves every fourth layer so; the trainer's models have 1 to 4 layers,
// so the period is its option, nope_every (MethodOptions::nope_every, --nope-every).
#include "pelab/base/error.h"
#include "pelab/training/train.h"
#include "positional/rope_hooks.h"

#include <string>

namespace pelab::trainer {

namespace {

void CheckPattern(const TransformerConfig& config) {
    if (config.options.nope_every < 2)
        throw InvalidArgument("irope's nope_every must be at least 2 (got " +
                              std::to_string(config.options.nope_every) +
                              "): with every layer without positions it is none");
    if (config.options.nope_every > config.layers)
        throw InvalidArgument("irope leaves layers " + std::to_string(config.options.nope_every) +
                              ", " + std::to_string(2 * config.options.nope_every) +
                              ", … without positions, and a model of " +
                              std::to_string(config.layers) +
                              (config.layers == 1 ? " layer" : " layers") +
                              " has none of them: it would train as rope (set nope_every to at "
                              "most the layers, or add layers)");
}

} // namespace

PositionalMethod IropeMethod() {
    PositionalMethod method = MethodOf<InterleavedRopeHooks>("iRoPE", "Meta 2025 (Llama 4)",
                                                             NoOwnParameters, CheckPattern);
    method.layer_pattern = true;
    method.options = {{"nope_every", "nope every",
                       "irope: layers N, 2N, … attend without positions (Llama 4 leaves every "
                       "fourth layer so)",
                       &MethodOptions::nope_every, 2, kTrainMaxLayers, true}};
    return method;
}

} // namespace pelab::trainer
