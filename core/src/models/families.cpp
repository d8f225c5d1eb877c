#include "pelab/models/families.h"

#include <algorithm>

namespace pelab {

namespace {

using Kind = PositionKind;
using Pairing = RotaryPairing;
using Rule = LayerRule;

// One row per family. The rules, from transformers' files (main, 2026-11):
//  - layer_types defaults: gemma2 and gpt_oss "sliding_attention" if (i + 1) % 2 else
//    "full_attention"; gemma3 and cohere2 "sliding_attention" if (i + 1) % sliding_window_pattern
//    (6 and 4), olmo3 likewise with 4; qwen2/qwen3 sliding for i >= max_window_layers when
//    use_sliding_window; qwen3_next "linear_attention" if (i + 1) % full_attention_interval (4).
//  - no_rope_layers (llama4, smollm3): [int((i + 1) % no_rope_layer_interval != 0)], and a
//    layer rotates when no_rope_layers[i] is 1.
//  - modernbert: global when layer_id % global_attn_every_n_layers == 0 (3), its rotary base
//    global_rope_theta, else local_rope_theta with a window of local_attention.
//  - cohere2: apply_rotary_pos_emb only when the layer has a sliding window.
//  - pairing: llama4 multiplies adjacent pairs as complex numbers (view_as_complex);
//    deepseek_v2/v3 and kimi_k2 rotate interleaved pairs (rope_interleave, by default true);
//    glm and glm4 rotate the interleaved pairs of the rotating part (x[..., 0::2], x[..., 1::2]);
//    cohere and cohere2 repeat_interleave their frequencies (pairs 2i, 2i + 1).
//  - default_theta (class attribute): llama4 500 000, smollm3 2·10⁶, gpt_oss 150 000, gemma3
//    10⁶ (its local layers 10 000); the others 10 000.
//  - compute_default_rope_parameters honours partial_rotary_factor only in phi, phi3, glm,
//    glm4, gpt_neox, qwen3_next and qwen3_5 (modeling_phi3.py); the Llama-like families rotate
//    the whole head in their default RoPE. glm4 and qwen3_next default it to 0.5 and 0.25.
//  - lfm2 builds layer_types from full_attn_idxs (the others "conv", short convolutions);
//    nemotron_h from hybrid_override_pattern (M Mamba-2, * attention, E experts, - MLP), and its
//    attention applies no RoPE at all (modeling_nemotron_h.py never calls apply_rotary_pos_emb);
//    mimo_v2_flash's convert_rope_params_to_dict does nothing, so its class's RoPE (global base
//    5·10⁶, sliding 10 000, partial_rotary_factor 0.334) and layer pattern (layer 0 and every
//    6th global) stand whatever config.json says; minimax_m2 ignores rotary_dim (layer_keys.cpp).
//  - gated_query: qwen3_next and qwen3_5 build q_proj num_heads · head_dim · 2 wide and split
//    each head's rows into the query and the output gate (torch.chunk of view(…, head_dim · 2)).
ModelFamily Row(const char* id, const char* display, std::vector<const char*> types, Kind kind,
                const char* source) {
    ModelFamily row;
    row.id = id;
    row.display = display;
    row.model_types = std::move(types);
    row.kind = kind;
    row.source = source;
    return row;
}

ModelFamily Rope(const char* id, const char* display, std::vector<const char*> types,
                 const char* source, Rule layers = Rule::Uniform, int interval = 0,
                 Pairing pairing = Pairing::HalfSplit) {
    ModelFamily row = Row(id, display, std::move(types), Kind::Rope, source);
    row.layers = layers;
    row.default_interval = interval;
    row.pairing = pairing;
    return row;
}

// The class defaults of configuration_<family>.py (main, 2026-08, c49429e) for the keys that
// shape positions.
std::vector<std::pair<std::string, const char*>> FamilyDefaults() {
    return {
        {"llama", R"({"hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
            "max_position_embeddings": 2048})"},
        {"llama4", R"({"hidden_size": 5120, "num_attention_heads": 40, "num_hidden_layers": 48,
            "head_dim": 128, "max_position_embeddings": 131072, "no_rope_layer_interval": 4,
            "attention_chunk_size": 8192, "attn_temperature_tuning": true, "floor_scale": 8192,
            "attn_scale": 0.1})"},
        {"smollm3", R"({"hidden_size": 2048, "num_attention_heads": 16, "num_hidden_layers": 36,
            "max_position_embeddings": 32768, "use_sliding_window": false,
            "no_rope_layer_interval": 4})"},
        {"gemma2", R"({"hidden_size": 2304, "num_attention_heads": 8, "num_hidden_layers": 26,
            "head_dim": 256, "max_position_embeddings": 8192, "sliding_window": 4096})"},
        {"gemma3", R"({"hidden_size": 2304, "num_attention_heads": 8, "num_key_value_heads": 4,
            "num_hidden_layers": 26, "head_dim": 256, "max_position_embeddings": 131072,
            "sliding_window": 4096})"},
        {"gemma4", R"({"hidden_size": 2304, "num_attention_heads": 8, "num_hidden_layers": 30,
            "head_dim": 256, "max_position_embeddings": 131072, "sliding_window": 512,
            "global_head_dim": 512})"},
        {"cohere2", R"({"hidden_size": 8192, "num_attention_heads": 64, "num_hidden_layers": 40,
            "max_position_embeddings": 8192, "sliding_window": 4096})"},
        {"modernbert", R"({"hidden_size": 768, "num_attention_heads": 12,
            "num_hidden_layers": 22, "max_position_embeddings": 8192, "local_attention": 128})"},
        {"qwen3_next", R"({"hidden_size": 2048, "num_attention_heads": 16,
            "num_hidden_layers": 48, "max_position_embeddings": 32768, "head_dim": 256})"},
        {"qwen3_5", R"({"hidden_size": 4096, "num_attention_heads": 16, "num_hidden_layers": 32,
            "max_position_embeddings": 32768, "head_dim": 256})"},
        {"gpt_oss", R"({"num_hidden_layers": 36, "hidden_size": 2880, "head_dim": 64,
            "num_attention_heads": 64, "sliding_window": 128,
            "max_position_embeddings": 131072, "rope_parameters": {"rope_type": "yarn",
            "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": false,
            "original_max_position_embeddings": 4096}})"},
        {"mistral", R"({"hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
            "max_position_embeddings": 131072, "sliding_window": 4096})"},
        {"ministral", R"({"hidden_size": 4096, "num_attention_heads": 32,
            "num_hidden_layers": 32, "max_position_embeddings": 131072, "sliding_window": 4096})"},
        {"deepseek", R"({"hidden_size": 7168, "num_attention_heads": 128,
            "num_hidden_layers": 61, "max_position_embeddings": 4096, "qk_rope_head_dim": 64,
            "qk_nope_head_dim": 128, "v_head_dim": 128, "kv_lora_rank": 512,
            "rope_interleave": true})"},
        {"phi3", R"({"hidden_size": 3072, "num_attention_heads": 32, "num_hidden_layers": 32,
            "max_position_embeddings": 4096, "original_max_position_embeddings": 4096})"},
        {"olmo2", R"({"hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
            "max_position_embeddings": 2048})"},
        {"olmo3", R"({"hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
            "max_position_embeddings": 2048, "sliding_window": 4096})"},
        {"glm", R"({"hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 40,
            "head_dim": 128, "max_position_embeddings": 131072})"},
        {"qwen2", R"({"hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
            "max_position_embeddings": 32768, "use_sliding_window": false,
            "sliding_window": 4096, "max_window_layers": 28})"},
        {"lfm2", R"({"hidden_size": 2560, "num_attention_heads": 32, "num_key_value_heads": 8,
            "num_hidden_layers": 32, "max_position_embeddings": 128000})"},
        {"mimo_v2_flash", R"({"hidden_size": 4096, "num_attention_heads": 64,
            "num_key_value_heads": 4, "num_hidden_layers": 48, "head_dim": 192,
            "max_position_embeddings": 131072, "sliding_window": 128})"},
        {"minimax_m2", R"({"hidden_size": 3072, "num_attention_heads": 48,
            "num_key_value_heads": 8, "num_hidden_layers": 62, "head_dim": 128,
            "max_position_embeddings": 196608})"},
        {"qwen3", R"({"hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
            "max_position_embeddings": 32768, "head_dim": 128, "use_sliding_window": false,
            "sliding_window": 4096, "max_window_layers": 28})"},
    };
}

std::vector<ModelFamily> BuildFamilies() {
    std::vector<ModelFamily> rows = {
        Row("gpt2", "GPT-2", {"gpt2"}, Kind::LearnedTable, "models/gpt2/modeling_gpt2.py"),
        Row("gpt_neo", "GPT-Neo", {"gpt_neo"}, Kind::LearnedTable,
            "models/gpt_neo/modeling_gpt_neo.py"),
        Row("bert", "BERT", {"bert", "distilbert"}, Kind::LearnedTable,
            "models/bert/modeling_bert.py"),
        Row("roberta", "RoBERTa", {"roberta"}, Kind::LearnedTable,
            "models/roberta/modeling_roberta.py"),
        Row("xlm_roberta", "XLM-RoBERTa", {"xlm-roberta"}, Kind::LearnedTable,
            "models/xlm_roberta/modeling_xlm_roberta.py"),
        Row("camembert", "CamemBERT", {"camembert"}, Kind::LearnedTable,
            "models/camembert/modeling_camembert.py"),
        Row("longformer", "Longformer", {"longformer"}, Kind::LearnedTable,
            "models/longformer/modeling_longformer.py"),
        Row("opt", "OPT", {"opt"}, Kind::LearnedTable, "models/opt/modeling_opt.py"),
        Row("t5", "T5", {"t5", "mt5", "umt5"}, Kind::RelativeBuckets, "models/t5/modeling_t5.py"),
        Row("bloom", "BLOOM", {"bloom"}, Kind::Alibi, "models/bloom/modeling_bloom.py"),
        Row("mpt", "MPT", {"mpt"}, Kind::Alibi, "models/mpt/modeling_mpt.py"),
        Rope("falcon", "Falcon", {"falcon", "RefinedWeb", "RefinedWebModel"},
             "models/falcon/modeling_falcon.py"),
        Rope("llama", "Llama", {"llama"}, "models/llama/modeling_llama.py"),
        Rope("llama4", "Llama 4", {"llama4", "llama4_text"}, "models/llama4/modeling_llama4.py",
             Rule::NoRopeLayers, 4, Pairing::Interleaved),
        Rope("mistral", "Mistral", {"mistral"}, "models/mistral/modeling_mistral.py"),
        Rope("ministral", "Ministral", {"ministral", "ministral3", "mistral3"},
             "models/ministral/modeling_ministral.py"),
        Rope("mixtral", "Mixtral", {"mixtral"}, "models/mixtral/modeling_mixtral.py"),
        Rope("qwen2", "Qwen2",
             {"qwen2", "qwen2_vl", "qwen2_5_vl", "qwen2_5_vl_text", "qwen2_vl_text"},
             "models/qwen2/configuration_qwen2.py", Rule::MaxWindowLayers),
        Rope("qwen2_moe", "Qwen2-MoE", {"qwen2_moe"}, "models/qwen2_moe/configuration_qwen2_moe.py",
             Rule::MaxWindowLayers),
        Rope("qwen3", "Qwen3", {"qwen3", "qwen3_moe", "qwen3_vl_text", "qwen3_vl_moe_text"},
             "models/qwen3/configuration_qwen3.py", Rule::MaxWindowLayers),
        Rope("qwen3_next", "Qwen3-Next", {"qwen3_next"},
             "models/qwen3_next/configuration_qwen3_next.py", Rule::LinearInterval, 4),
        Rope("qwen3_5", "Qwen3.5", {"qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text"},
             "models/qwen3_5/configuration_qwen3_5.py", Rule::LinearInterval, 4),
        Rope("gemma", "Gemma", {"gemma"}, "models/gemma/modeling_gemma.py"),
        Rope("gemma2", "Gemma 2", {"gemma2"}, "models/gemma2/configuration_gemma2.py",
             Rule::AlternateSliding),
        Rope("gemma3", "Gemma 3", {"gemma3", "gemma3_text"},
             "models/gemma3/configuration_gemma3.py", Rule::SlidingPattern, 6),
        Rope("cohere", "Cohere", {"cohere"}, "models/cohere/modeling_cohere.py", Rule::Uniform, 0,
             Pairing::Interleaved),
        Rope("cohere2", "Cohere2", {"cohere2"}, "models/cohere2/modeling_cohere2.py",
             Rule::SlidingPattern, 4, Pairing::Interleaved),
        Rope("gpt_oss", "GPT-OSS", {"gpt_oss"}, "models/gpt_oss/configuration_gpt_oss.py",
             Rule::AlternateSliding),
        Rope("phi", "Phi", {"phi", "phi-msft"}, "models/phi/modeling_phi.py"),
        Rope("phi3", "Phi-3", {"phi3", "phimoe"}, "models/phi3/modeling_phi3.py"),
        Rope("gpt_neox", "GPT-NeoX", {"gpt_neox"}, "models/gpt_neox/modeling_gpt_neox.py"),
        Rope("olmo", "OLMo", {"olmo"}, "models/olmo/modeling_olmo.py"),
        Rope("olmo2", "OLMo 2", {"olmo2"}, "models/olmo2/modeling_olmo2.py"),
        Rope("olmo3", "OLMo 3", {"olmo3"}, "models/olmo3/configuration_olmo3.py",
             Rule::SlidingPattern, 4),
        Rope("starcoder2", "StarCoder2", {"starcoder2"},
             "models/starcoder2/modeling_starcoder2.py"),
        Rope("smollm3", "SmolLM3", {"smollm3"}, "models/smollm3/configuration_smollm3.py",
             Rule::NoRopeLayers, 4),
        Rope("modernbert", "ModernBERT", {"modernbert"}, "models/modernbert/modeling_modernbert.py",
             Rule::GlobalEveryN, 3),
        Rope("deepseek", "DeepSeek", {"deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2"},
             "models/deepseek_v3/modeling_deepseek_v3.py", Rule::Uniform, 0, Pairing::Interleaved),
        Rope("glm", "GLM", {"glm", "glm4", "chatglm"}, "models/glm/modeling_glm.py", Rule::Uniform,
             0, Pairing::Interleaved),
        Rope("gemma4", "Gemma 4", {"gemma4", "gemma4_text"},
             "models/gemma4/configuration_gemma4.py", Rule::SlidingPattern, 6),
        Rope("lfm2", "LFM2", {"lfm2"}, "models/lfm2/configuration_lfm2.py"),
        Rope("mimo_v2_flash", "MiMo-V2-Flash", {"mimo_v2_flash"},
             "models/mimo_v2_flash/configuration_mimo_v2_flash.py", Rule::FirstAndEveryNth, 6),
        Rope("minimax_m2", "MiniMax-M2", {"minimax_m2"},
             "models/minimax_m2/modeling_minimax_m2.py"),
        Row("nemotron_h", "Nemotron-H", {"nemotron_h"}, Kind::None,
            "models/nemotron_h/modeling_nemotron_h.py"),
    };
    const std::vector<std::string> partial = {"phi",           "phi3",      "glm",    "gpt_neox",
                                              "qwen3_next",    "qwen3_5",   "falcon", "olmo",
                                              "mimo_v2_flash", "minimax_m2"};
    const std::vector<std::pair<std::string, const char*>> defaults = FamilyDefaults();
    for (ModelFamily& row : rows) {
        const std::string id = row.id;
        for (const auto& [family, keys] : defaults)
            if (family == id) row.defaults = keys;
        row.applies_partial = row.kind != Kind::Rope ||
                              std::find(partial.begin(), partial.end(), id) != partial.end();
        if (id == "llama4") row.default_theta = 500000;
        if (id == "smollm3") row.default_theta = 2e6;
        if (id == "gpt_oss") row.default_theta = 150000;
        if (id == "gemma3") row.default_theta = 1e6, row.local_unscaled = true;
        if (id == "gemma4") row.default_theta = 1e6, row.local_unscaled = true;
        // Olmo3Config's convert gives a legacy rope_scaling to full_attention only.
        if (id == "olmo3") row.default_theta = 500000, row.local_unscaled = true;
        if (id == "glm") row.default_partial = 0.5;
        if (id == "lfm2") row.default_theta = 1e6;
        if (id == "minimax_m2") row.default_theta = 5e6;
        if (id == "mimo_v2_flash") {
            row.default_theta = 5e6, row.local_base_default = 10000, row.default_partial = 0.334;
            row.class_rope_only = true;
        }
        if (id == "qwen3_next" || id == "qwen3_5")
            row.default_partial = 0.25, row.gated_query = true;
        if (id == "gemma3" || id == "gemma4") {
            row.local_base_key = "rope_local_base_freq";
            row.local_base_default = 10000;
        }
        if (id == "cohere2") row.rope_on_sliding_only = true;
        if (id == "modernbert") {
            row.local_base_key = "local_rope_theta";
            row.local_base_default = 10000;
            row.global_base_key = "global_rope_theta";
            row.global_base_default = 160000;
        }
    }
    return rows;
}

} // namespace

const std::vector<ModelFamily>& model_families() {
    static const std::vector<ModelFamily> rows = BuildFamilies(); // immutable after its build
    return rows;
}

const ModelFamily* family_of_model_type(const std::string& model_type) {
    for (const ModelFamily& row : model_families())
        if (std::any_of(row.model_types.begin(), row.model_types.end(),
                        [&](const char* type) { return model_type == type; }))
            return &row;
    return nullptr;
}

const ModelFamily* family_by_id(const std::string& id) {
    for (const ModelFamily& row : model_families())
        if (id == row.id) return &row;
    return nullptr;
}

std::string family_id_of_display(const std::string& display) {
    for (const ModelFamily& row : model_families())
        if (display == row.display) return row.id;
    return {};
}

const char* rotary_pairing_name(RotaryPairing pairing) {
    return pairing == RotaryPairing::Interleaved ? "interleaved" : "half-split";
}

} // namespace pelab
