// parameters.h — the flat parameter vector's layout, written once: the shared tensors in
// PyTorch's order (embedding, blocks, final norm, head), then the positional method's own, each
// with the initialiser PyTorch gives it.
#pragma once

#include "pelab/training/transformer.h"
#include "positional/method.h"

#include <cstdint>
#include <vector>

namespace pelab::trainer {

/// Where each tensor of one block starts.
struct LayerOffsets {
    std::size_t ln1_weight, ln1_bias, qkv_weight, qkv_bias, out_weight, out_bias;
    std::size_t ln2_weight, ln2_bias, mlp1_weight, mlp1_bias, mlp2_weight, mlp2_bias;
};

/// Where each tensor starts; own is where the method's own tensors start (total when it owns
/// none).
struct ParameterLayout {
    std::size_t embedding = 0;
    std::vector<LayerOffsets> layers;
    std::size_t final_weight = 0, final_bias = 0, head_weight = 0, head_bias = 0;
    std::size_t own = 0;
    bool has_own = false;
    std::size_t total = 0;
};

/// A tensor with its initialiser.
struct SlotSpec {
    ParameterSlot slot;
    Init init;
    double scale; ///< the normal's deviation or the uniform's half-width
};

/// Every tensor of the model configured so, in the vector's order.
std::vector<SlotSpec> SlotSpecs(const TransformerConfig& config);
/// The offsets of the slots SlotSpecs made.
ParameterLayout LayoutOf(const std::vector<ParameterSlot>& slots, const TransformerConfig& config);
/// The initial values, drawn in the slots' order from one seed: the shared tensors come first,
/// so models of different methods compared from one seed start equal but for their encoding.
template <typename S>
std::vector<S> InitialParameters(const std::vector<SlotSpec>& specs, std::uint64_t seed);

} // namespace pelab::trainer
