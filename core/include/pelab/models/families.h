// pelab/models/families.h — the model families PE Lab reads: one row per family, keyed by the
// model_type values of config.json (as transformers keys its configurations and llama.cpp its
// architectures). A row says how the family keeps positions, how it pairs RoPE's dimensions and
// how its layers differ from one another; adding a family is adding a row (and, where its
// tensor names are not enough, a finder in model_positions.cpp).
//
// The rules are those of each family's configuration_*.py and modeling_*.py in transformers
// (main of 2026-11, v5): the file is named in the row's note.
#pragma once

#include <string>
#include <vector>

namespace pelab {

enum class PositionKind { None, LearnedTable, RelativeBuckets, Alibi, Rope };
const char* position_kind_name(PositionKind kind); ///< "none", "learned table", "T5 buckets", …

/// Which dimensions of a head rotate together. Hugging Face's rotate_half pairs dimension i with
/// i + r/2 of the r rotating dimensions; Meta's Llama code, GPT-J, Llama 4 (complex products),
/// DeepSeek V2/V3 (rope_interleave) and GLM pair 2i with 2i + 1.
enum class RotaryPairing { HalfSplit, Interleaved };
const char* rotary_pairing_name(RotaryPairing pairing); ///< "half-split", "interleaved"

/// How a family's layers differ in what they do with positions, when config.json's layer_types
/// does not list them one by one (layer_types, when given, always wins).
enum class LayerRule {
    Uniform,          ///< every layer alike (sliding when sliding_window is set: Mistral, Phi-3)
    AlternateSliding, ///< Gemma 2, GPT-OSS: layers 0, 2, 4, … sliding, 1, 3, 5, … global
    SlidingPattern,   ///< Gemma 3, Cohere2: every sliding_window_pattern-th layer global
    MaxWindowLayers,  ///< Qwen2/3: sliding from layer max_window_layers on, if use_sliding_window
    NoRopeLayers,     ///< Llama 4, SmolLM3: no_rope_layers[i] = 1 rotates; default every 4th not
    GlobalEveryN,     ///< ModernBERT: layer i global when i % global_attn_every_n_layers == 0
    LinearInterval,   ///< Qwen3-Next, Qwen3.5: every full_attention_interval-th layer attends
    FirstAndEveryNth, ///< MiMo-V2-Flash: layer 0 and every n-th global, the others sliding
};

struct ModelFamily {
    const char* id;      ///< PE Lab's id, compared by the app ("llama4", "gemma3", "gpt2")
    const char* display; ///< the name shown ("Llama 4")
    std::vector<const char*> model_types; ///< config.json's model_type values of the family
    PositionKind kind = PositionKind::Rope;
    RotaryPairing pairing = RotaryPairing::HalfSplit;
    LayerRule layers = LayerRule::Uniform;
    int default_interval = 0; ///< the rule's default period (pattern, interval, every n)
    /// Cohere2: only the sliding layers rotate (its global layers have no position encoding).
    bool rope_on_sliding_only = false;
    /// The key of the sliding layers' own base and its default (Gemma 3 rope_local_base_freq
    /// 10 000, ModernBERT local_rope_theta 10 000); nullptr: they share the global base.
    const char* local_base_key = nullptr;
    double local_base_default = 0;
    /// ModernBERT's global layers read global_rope_theta (default 160 000) for their base.
    const char* global_base_key = nullptr;
    double global_base_default = 0;
    /// The sliding layers' RoPE drops rope_scaling (Gemma 3; ModernBERT scales both kinds).
    bool local_unscaled = false;
    /// rope_theta when config.json gives none: the family's default_theta (0: 10 000).
    double default_theta = 0;
    /// partial_rotary_factor when config.json gives none (GLM-4 0.5, Qwen3-Next 0.25; 0: 1).
    double default_partial = 0;
    /// Whether the family's default RoPE honours partial_rotary_factor: Llama-like families'
    /// compute_default_rope_parameters rotate the whole head whatever it says.
    bool applies_partial = true;
    /// q_proj holds per head [q (head_dim rows) | gate (head_dim rows)]: the attention's output
    /// gate (Qwen3-Next, Qwen3.5: q_proj is num_heads · head_dim · 2 wide).
    bool gated_query = false;
    /// The configuration class keeps its own RoPE and ignores config.json's rope_theta,
    /// partial_rotary_factor and rope_scaling (MiMo-V2-Flash: default_theta on the global
    /// layers, local_base_default on the sliding ones, default_partial on both); a v5
    /// rope_parameters is still read.
    bool class_rope_only = false;
    /// transformers' class defaults of the position keys (JSON): a key config.json leaves out is
    /// read as the family's configuration class fills it in (Gemma 3's Hub config gives no head
    /// count). "" when none is kept here.
    const char* defaults = "";
    const char* source = ""; ///< transformers' file the rules come from
};

/// Every family, in the order the docs list them.
const std::vector<ModelFamily>& model_families();
/// The family of a model_type; nullptr when none has it.
const ModelFamily* family_of_model_type(const std::string& model_type);
/// The id of the family whose display name is display ("" when none has it).
std::string family_id_of_display(const std::string& display);
/// The family with this id; nullptr when none has it.
const ModelFamily* family_by_id(const std::string& id);

} // namespace pelab
