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
    bool factor_given = false;             ///< yarn and longrope take max / original when it is not
    double original_context = 0;           ///< original_max_position_embeddings (0: absent)
    double beta_fast = 32, beta_slow = 1;  ///< yarn
    bool truncate = true;                  ///< yarn: the ramp's ends rounded to whole pairs
    double mscale = 0, mscale_all_dim = 0; ///< yarn (DeepSeek's form; 0: absent)
    double attention_factor = 0;           ///< yarn / longrope (0: absent)
    double low_freq_factor = 1, high_freq_factor = 4; ///< llama3
    std::vector<double> short_factor, long_factor;    ///< longrope, one per pair
    /// Ministral 3: the queries scaled by 1 + β·ln(1 + ⌊p / original⌋) (0: absent).
    double llama4_scaling_beta = 0;
    /// Multimodal RoPE (Qwen2-VL and after): the rotary pairs split into t/h/w sections.
    std::vector<double> mrope_section;
    bool mrope_interleaved = false;
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
    bool rope_theta_defaulted = false; ///< rope_theta is the family's default (none was given)
    double layer_norm_epsilon = 0;     ///< layer_norm_epsilon / _eps, rms_norm_eps (0: absent)
    double partial_rotary = 1;         ///< share of each head's dimensions that rotate
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
    // The rotary families' MLP activation and output layer (Hugging Face's LlamaConfig …):
    // hidden_act ("" when absent: silu) and tie_word_embeddings.
    std::string hidden_act;
    bool tie_word_embeddings = false, tie_word_embeddings_given = false;

    // ---- What differs from layer to layer (pelab/models/layer_schedule.h builds the plan) ----
    std::vector<std::string> layer_types; ///< "full_attention", "sliding_attention", … (or empty)
    long long sliding_window = 0;         ///< sliding_window (0: absent or null)
    bool use_sliding_window = true;       ///< Qwen's switch (false: sliding_window unused)
    int max_window_layers = -1;           ///< Qwen: sliding from this layer on (−1: absent)
    int sliding_window_pattern = 0;       ///< Gemma 3, Cohere2 (0: the family's default)
    double local_base = 0;                ///< rope_local_base_freq / local_rope_theta (0: absent)
    double global_base = 0;               ///< ModernBERT global_rope_theta (0: absent)
    int global_every = 0;          ///< ModernBERT global_attn_every_n_layers (0: the default)
    long long local_attention = 0; ///< ModernBERT's local window (0: absent)
    std::vector<long long> no_rope_layers; ///< Llama 4, SmolLM3: 1 = RoPE on that layer
    int no_rope_layer_interval = 0;        ///< (0: the family's default)
    long long attention_chunk_size = 0;    ///< Llama 4's chunked attention (0: absent)
    int full_attention_interval = 0;       ///< Qwen3-Next (0: the family's default)
    /// Where layer_types came from when config.json gives none but the family's class builds
    /// it from another key ("full_attn_idxs": LFM2, "hybrid_override_pattern": Nemotron-H);
    /// "" when layer_types is config.json's own or absent.
    std::string layer_types_from;
    /// Llama 4: the queries of its layers without RoPE scaled by position
    /// (attn_temperature_tuning).
    bool temperature_tuning = false, temperature_tuning_given = false;
    double floor_scale = 8192, attn_scale = 0.1;
    // ---- Multi-head latent attention (DeepSeek V2/V3, Kimi K2) ----
    int qk_rope_head_dim = 0, qk_nope_head_dim = 0, v_head_dim = 0; ///< 0: absent
    int kv_lora_rank = 0, q_lora_rank = 0;
    bool rope_interleave = true, rope_interleave_given = false;
    int rotary_dim = 0;        ///< Phi-2 (phi-msft), GPT-J: rotating dimensions (0: absent)
    double alibi_bias_max = 0; ///< MPT (0: absent; the default 8 is ALiBi's own slopes)
    int global_head_dim = 0;   ///< Gemma 4: the global layers' head width (0: absent)
    /// Gemma 4: num_global_key_value_heads, the global layers' key heads when attention_k_eq_v
    /// (Gemma4TextConfig's default: false) shares their keys and values (0: absent).
    int global_kv_heads = 0;
    bool attention_k_eq_v = false;
    /// quantization_config.weight_block_size: the rows × columns each FP8 block scale covers
    /// (DeepSeek V3 and Qwen3-FP8 128 × 128; empty when absent).
    std::vector<long long> weight_block;
    /// The keys config.json leaves out that the family's defaults filled in ("head_dim 256").
    std::vector<std::string> defaulted_keys;
    /// Keys that change positions and that PE Lab does not compute: each named in a note.
    std::vector<std::string> positions_not_shown;

    /// A head's width: head_dim when given (Gemma's is not hidden ÷ heads), else hidden ÷ heads;
    /// 0 when neither is known.
    int HeadWidth() const;
    /// The width RoPE rotates in: qk_rope_head_dim (MLA), else rotary_dim, else the head's width
    /// times the partial rotary share; 0 when unknown. Always even.
    int RotaryWidth() const;
    /// Query heads per key head (grouped-query attention): heads ÷ kv_heads (1 when not given).
    int GroupSize() const;
};

/// Reads the settings above from doc (config.json parsed). Ok or a one-line message naming the
/// field ("config field \"n_head\": must be a whole number in [1, 4096] (got \"12\")"); *out is
/// written only on success.
Status ReadModelConfig(const nlohmann::json& doc, CheckpointConfig* out);

} // namespace pelab
