// models/llama_weights.h — the weights of a rotary pass (pelab/models/llama.h) as the pass holds
// them: each product's matrix packed in column panels (dense_products.h), as bfloat16 halves when
// the checkpoint's values are bfloat16 (the Hub's BF16 files: half the memory, and the pass reads
// half the bytes), else float32; norms and biases float32 (empty where the family has none).
#pragma once

#include "models/dense_products.h"

#include <vector>

namespace pelab::detail {

struct LlamaLayerWeights {
    std::vector<float> input_norm, q_bias, k_bias, v_bias, o_bias, q_norm, k_norm,
        post_attention_norm, post_feedforward_norm, gate_bias, up_bias, down_bias;
    PackedWeight q, k, v, o, gate, up, down;
};

struct LlamaWeights {
    PackedTable embed, lm_head; ///< lm_head empty when tied
    std::vector<float> final_norm;
    std::vector<LlamaLayerWeights> layers;
    /// The bytes held, and what float32 would hold.
    std::size_t Bytes() const;
    std::size_t Float32Bytes() const;
};

} // namespace pelab::detail
