// pelab/models/model_config.h — the position settings of a Hugging Face config.json: the context
// the model was trained for, its widths and heads, RoPE's base, partial rotary and rope_scaling,
// and the markers of ALiBi and T5's relative buckets.
//
// Each setting has the names its families use (GPT-2 n_positions/n_embd/n_head, Llama
// max_position_embeddings/hidden_size/num_attention_heads, T5 d_model/num_heads/d_kv, GPT-NeoX
// rotary_pct/rotary_emb_base, …). A multimodal model's text settings under "text_config" take
// the place of the top level's. null counts as absent, keys not listed here are ignored, and a
// listed key of the wrong type or out of range is refused with a message naming it.
//
// RoPE's settings come in transformers' two forms, read as its RotaryEmbeddingConfigMixin
// (src/transformers/modeling_rope_utils.py, v5) reads them: v4's top-level rope_theta beside a
// rope_scaling object, and v5's rope_parameters holding rope_theta, the type and its fields,
// either flat (one RoPE for every layer) or keyed by the layer types that layer_types names
// ({"full_attention": {…}, "sliding_attention": {…}}, an entry null for layers with none).
#pragma once

#include "pelab/base/status.h"
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pelab {

struct RopeScalingConfig {
    std::string type; ///< "" (none), "linear", "dynamic", "yarn", "llama3", "longrope", …
    double factor = 1.0;
    double original_context = 0;           ///< original_max_position_embeddings (0: absent)
    double beta_fast = 32, beta_slow = 1;  ///< yarn
    bool truncate = true;                  ///< yarn: the ramp's ends rounded to whole pairs
    double mscale = 0, mscale_all_dim = 0; ///< yarn (DeepSeek's form; 0: absent)
    double attention_factor = 0;           ///< yarn / longrope (0: absent)
    double low_freq_factor = 1, high_freq_factor = 4; ///< llama3
    std::vector<double> short_factor, long_factor;    ///< longrope, one per pair
};

/// One layer type of a config whose rope_parameters is keyed by layer type (v5): its RoPE, or
/// none, and how many layers are of this type.
struct RopeLayerKind {
    std::string name;          ///< the layer type, as layer_types names it ("sliding_attention")
    int layers = 0;            ///< layers of this type in layer_types
    bool rotary = true;        ///< false: its entry is null (these layers have no RoPE)
    double rope_theta = 0;     ///< its base (0: none given)
    double partial_rotary = 1; ///< its share of each head's dimensions that rotate
    bool partial_rotary_given = false;
    RopeScalingConfig scaling; ///< type "" when unscaled
};

struct CheckpointConfig {
    std::string model_type;                 ///< "gpt2", "llama", "t5", … ("" when absent)
    std::vector<std::string> architectures; ///< "GPT2LMHeadModel", …
    long long max_positions = 0;            ///< the context it was trained for (0: absent)
    int hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, layers = 0; ///< 0: absent
    double rope_theta = 0;                                             ///< RoPE's base (0: absent)
    double layer_norm_epsilon = 0; ///< layer_norm_epsilon / layer_norm_eps (0: absent)
    double partial_rotary = 1;     ///< share of each head's dimensions that rotate
    bool partial_rotary_given = false;
    RopeScalingConfig rope_scaling;
    /// Where rope_theta and rope_scaling were read: "rope_scaling" (v4, with a top-level
    /// rope_theta), "rope_parameters" (v5), or "" (neither object given).
    std::string rope_source;
    /// A v5 rope_parameters keyed by layer type: one row per type, in the order layer_types
    /// first names them; empty otherwise. rope_theta, partial_rotary and rope_scaling above are
    /// those of rope_kind_shown (full_attention when it has RoPE, else the first type that has).
    std::vector<RopeLayerKind> rope_layer_kinds;
    std::string rope_kind_shown;
    bool alibi = false;            ///< BLOOM, MPT with attn_config.alibi, Falcon alibi
    int relative_buckets = 0;      ///< T5 relative_attention_num_buckets (0: absent)
    int relative_max_distance = 0; ///< T5 relative_attention_max_distance
    bool from_text_config = false; ///< read from a nested text_config
    long long vocab_size = 0;      ///< 0: absent
    // GPT-2's keys that change its computation (Hugging Face's GPT2Config): the MLP's
    // activation_function ("" when absent: gelu_new), scale_attn_weights (scores ÷ √d_head),
    // scale_attn_by_inverse_layer_idx (scores ÷ (layer + 1)) and reorder_and_upcast_attn (the
    // scores in float32, which PE Lab's pass always is).
    std::string activation;
    bool scale_attn_weights = true, scale_attn_by_inverse_layer_idx = false;
    bool reorder_and_upcast_attn = false;

    /// A head's width: head_dim when given (Gemma's is not hidden ÷ heads), else hidden ÷ heads;
    /// 0 when neither is known.
    int HeadWidth() const;
    /// Query heads per key head (grouped-query attention): heads ÷ kv_heads (1 when not given).
    int GroupSize() const;
};

/// Reads the settings above from doc (config.json parsed). Ok or a one-line message naming the
/// field ("config field \"n_head\": must be a whole number in [1, 4096] (got \"12\")"); *out is
/// written only on success.
Status ReadModelConfig(const nlohmann::json& doc, CheckpointConfig* out);

} // namespace pelab
