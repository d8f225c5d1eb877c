// The config.json keys that differ from layer to layer or shape a layer's RoPE
// (models/config_fields.h's ReadLayerKeys): read into CheckpointConfig, each checked.
#include "base/format.h"
#include "models/config_fields.h"
#include "pelab/base/limits.h"
#include "pelab/models/families.h"
#include "pelab/models/model_config.h"

#include <algorithm>

namespace pelab {

using nlohmann::json;

namespace detail {

namespace {

constexpr std::size_t kMaxLayers = 100000;

// LFM2 (configuration_lfm2.py): layer_types from full_attn_idxs, the others short convolutions
// (an empty list: every layer one); every layer attends when it is absent or null. A layer_types
// list makes a convolution of every layer that is not "full_attention" (modeling_lfm2.py).
Status Lfm2LayerTypes(const json& s, CheckpointConfig* config) {
    if (!config->layer_types.empty()) {
        for (std::string& type : config->layer_types)
            if (type != "full_attention") type = "conv";
        return {};
    }
    std::vector<long long> full;
    if (Status problem = WholeList(s, "full_attn_idxs", 0, kMaxLayers, kMaxLayers, &full);
        !problem.ok())
        return problem;
    const auto listed = s.find("full_attn_idxs");
    if (listed == s.end() || listed->is_null() || config->layers <= 0) return {};
    config->layer_types.assign(config->layers, "conv");
    for (long long index : full)
        if (index < config->layers) config->layer_types[index] = "full_attention";
    config->layer_types_from = "full_attn_idxs";
    const long long past = full.empty() ? 0 : *std::max_element(full.begin(), full.end());
    if (past >= config->layers)
        config->positions_not_shown.push_back(
            detail::concat("full_attn_idxs names layer ", past, ", past the ", config->layers,
                           " layers (num_hidden_layers): no such layer attends"));
    return {};
}

// Nemotron-H (configuration_nemotron_h.py): one character per layer in hybrid_override_pattern
// (M Mamba-2, * attention, E mixture of experts, - MLP), and as many layers as it has characters
// whatever num_hidden_layers says; a layer_types list of the older names is renamed.
Status NemotronLayerTypes(const json& s, CheckpointConfig* config) {
    if (!config->layer_types.empty()) {
        for (std::string& type : config->layer_types)
            if (type == "mamba" || type == "conv")
                type = "linear_attention";
            else if (type == "attention")
                type = "full_attention";
        config->layers = static_cast<int>(config->layer_types.size());
        return {};
    }
    // transformers' NemotronHConfig keeps the kinds in layers_block_type (layer_types maps to it).
    std::vector<std::string> block_types;
    if (Status problem = TextList(s, "layers_block_type", kMaxLayers, &block_types); !problem.ok())
        return problem;
    if (!block_types.empty()) {
        config->layer_types = block_types;
        config->layer_types_from = "layers_block_type";
        return NemotronLayerTypes(json::object(), config);
    }
    std::string pattern = "ME*-"; // the class's default: one layer of each
    const auto given = s.find("hybrid_override_pattern");
    if (given == s.end() || given->is_null())
        config->positions_not_shown.push_back(
            "config.json gives no hybrid_override_pattern (nor layer_types): the class's "
            "default, ME*- (4 layers), as transformers reads it");
    if (const auto& at = given; at != s.end() && !at->is_null()) {
        if (!at->is_string() || at->get_ref<const std::string&>().empty() ||
            at->get_ref<const std::string&>().size() > kMaxLayers)
            return "config field \"hybrid_override_pattern\": must be a text of one character "
                   "per layer, at most 100000 (got " +
                   Got(*at) + ")";
        pattern = at->get<std::string>();
    }
    const int declared = config->layers;
    config->layer_types.clear();
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        const char* type = c == 'M'   ? "linear_attention"
                           : c == '*' ? "full_attention"
                           : c == 'E' ? "moe"
                           : c == '-' ? "mlp"
                                      : nullptr;
        if (type == nullptr)
            return detail::concat("config field \"hybrid_override_pattern\": character ", i + 1,
                                  " is not one of M (Mamba-2), * (attention), E (experts) or - "
                                  "(MLP)");
        config->layer_types.push_back(type);
    }
    config->layers = static_cast<int>(pattern.size());
    if (declared > 0 && declared != config->layers)
        config->positions_not_shown.push_back(
            detail::concat("num_hidden_layers ", declared, " is not read: transformers counts the ",
                           config->layers, " characters of hybrid_override_pattern, as shown"));
    config->layer_types_from = "hybrid_override_pattern";
    return {};
}

// MiMo-V2-Flash (configuration_mimo_v2_flash.py): the class's own RoPE and layer pattern; the
// keys config.json writes for them are not read, so each that differs is said.
Status MimoIgnoredKeys(const json& s, const ModelFamily& family, CheckpointConfig* config) {
    double swa_theta = 0;
    std::vector<long long> pattern;
    if (Status problem =
            Number(s, {"swa_rope_theta"}, kMinBaseExclusive, kMaxBase, true, &swa_theta);
        !problem.ok())
        return problem;
    if (Status problem = WholeList(s, "hybrid_layer_pattern", 0, 1, kMaxLayers, &pattern);
        !problem.ok())
        return problem;
    const auto given = [&](const char* key) {
        const auto at = s.find(key);
        return at != s.end() && !at->is_null() && !(at->is_object() && at->empty());
    };
    // A v5 rope_parameters keyed by layer type (with layer_types) is read.
    if (given("rope_parameters") && !config->layer_types.empty() &&
        s["rope_parameters"].is_object() && s["rope_parameters"].contains("full_attention"))
        return {};
    std::vector<std::string> differ;
    if (config->rope_theta > 0 && config->rope_theta != family.default_theta)
        differ.push_back(detail::concat("rope_theta ", config->rope_theta));
    if (swa_theta > 0 && swa_theta != family.local_base_default)
        differ.push_back(detail::concat("swa_rope_theta ", swa_theta));
    if (config->partial_rotary_given && config->partial_rotary != family.default_partial)
        differ.push_back(detail::concat("partial_rotary_factor ", config->partial_rotary));
    if (given("rope_scaling")) differ.push_back("rope_scaling");
    if (given("rope_parameters")) differ.push_back("rope_parameters");
    bool same_pattern = static_cast<int>(pattern.size()) == config->layers;
    for (int i = 0; same_pattern && i < config->layers; ++i)
        same_pattern = (pattern[i] == 0) == (i == 0 || (i + 1) % family.default_interval == 0);
    if (!pattern.empty() && !same_pattern && config->layer_types.empty())
        differ.push_back("hybrid_layer_pattern");
    std::string keys;
    for (const std::string& key : differ)
        keys += (keys.empty() ? "" : ", ") + key;
    if (!keys.empty())
        config->positions_not_shown.push_back(detail::concat(
            "config.json's ", keys,
            ": not read by transformers' MiMoV2FlashConfig, which keeps its own RoPE (base ",
            family.default_theta, " on the global layers, ", family.local_base_default,
            " on the sliding ones, partial_rotary_factor ", family.default_partial, ")",
            config->layer_types.empty() ? detail::concat(" and layer pattern (layer 0 and every ",
                                                         family.default_interval, "th global)")
                                        : std::string(),
            ", as shown"));
    return {};
}

} // namespace

Status ReadLayerKeys(const json& s, CheckpointConfig* config) {
    std::string error;
    const auto check = [&](const Status& problem) {
        if (error.empty() && !problem.ok()) error = problem.message();
    };
    check(TextList(s, "layer_types", kMaxLayers, &config->layer_types));
    check(Whole(s, {"sliding_window"}, 1, 1000000000, &config->sliding_window));
    check(Boolean(s, "use_sliding_window", &config->use_sliding_window));
    check(WholeInt(s, {"max_window_layers"}, 0, 100000, &config->max_window_layers));
    check(WholeInt(s, {"sliding_window_pattern"}, 1, 100000, &config->sliding_window_pattern));
    check(Number(s, {"rope_local_base_freq", "local_rope_theta"}, kMinBaseExclusive, kMaxBase, true,
                 &config->local_base));
    check(
        Number(s, {"global_rope_theta"}, kMinBaseExclusive, kMaxBase, true, &config->global_base));
    check(WholeInt(s, {"global_attn_every_n_layers"}, 1, 100000, &config->global_every));
    check(Whole(s, {"local_attention"}, 2, 1000000000, &config->local_attention));
    check(WholeList(s, "no_rope_layers", 0, 1, kMaxLayers, &config->no_rope_layers));
    check(WholeInt(s, {"no_rope_layer_interval"}, 1, 100000, &config->no_rope_layer_interval));
    check(Whole(s, {"attention_chunk_size"}, 1, 1000000000, &config->attention_chunk_size));
    check(WholeInt(s, {"full_attention_interval"}, 1, 100000, &config->full_attention_interval));
    // attn_temperature_tuning is a flag, and some Llama 4 configs write it as a number (4).
    if (const auto at = s.find("attn_temperature_tuning"); at != s.end() && !at->is_null()) {
        if (at->is_boolean() || at->is_number()) {
            config->temperature_tuning =
                at->is_boolean() ? at->get<bool>() : at->get<double>() != 0;
            config->temperature_tuning_given = true;
        } else {
            check("config field \"attn_temperature_tuning\": must be true or false (got " +
                  Got(*at) + ")");
        }
    }
    check(Number(s, {"floor_scale"}, 0, 1e9, true, &config->floor_scale));
    check(Number(s, {"attn_scale"}, 0, 1000, false, &config->attn_scale));
    check(WholeInt(s, {"qk_rope_head_dim"}, 2, 1 << 16, &config->qk_rope_head_dim));
    check(WholeInt(s, {"qk_nope_head_dim"}, 0, 1 << 16, &config->qk_nope_head_dim));
    check(WholeInt(s, {"v_head_dim"}, 1, 1 << 16, &config->v_head_dim));
    check(WholeInt(s, {"kv_lora_rank"}, 1, 1 << 20, &config->kv_lora_rank));
    check(WholeInt(s, {"q_lora_rank"}, 1, 1 << 20, &config->q_lora_rank));
    if (s.contains("rope_interleave") && !s["rope_interleave"].is_null()) {
        check(Boolean(s, "rope_interleave", &config->rope_interleave));
        config->rope_interleave_given = true;
    }
    check(WholeInt(s, {"rotary_dim"}, 2, 1 << 16, &config->rotary_dim));
    if (const auto at = s.find("attn_config"); at != s.end() && at->is_object())
        check(Number(*at, {"alibi_bias_max"}, 0, 1000, true, &config->alibi_bias_max));
    check(WholeInt(s, {"global_head_dim"}, 2, 1 << 16, &config->global_head_dim));
    check(WholeInt(s, {"num_global_key_value_heads"}, 1, 4096, &config->global_kv_heads));
    check(Boolean(s, "attention_k_eq_v", &config->attention_k_eq_v));
    if (config->alibi_bias_max > 0 && config->alibi_bias_max != 8)
        config->positions_not_shown.push_back(detail::concat(
            "attn_config.alibi_bias_max ", config->alibi_bias_max, ": MPT's slopes 2^(−",
            config->alibi_bias_max, "·h/H) differ from ALiBi's (8), which are the ones shown"));
    if (const auto at = s.find("dual_chunk_attention_config"); at != s.end() && !at->is_null())
        config->positions_not_shown.push_back(
            "dual_chunk_attention_config: dual-chunk attention re-indexes positions past the "
            "chunk (not shown)");
    // modeling_minimax_m2.py (transformers c49429e) sizes its RoPE from partial_rotary_factor
    // alone; the Hub's remote code (auto_map), which the weights were trained with, from
    // rotary_dim.
    if (config->model_type == "minimax_m2" && config->rotary_dim > 0)
        config->positions_not_shown.push_back(
            detail::concat("rotary_dim ", config->rotary_dim,
                           ": the model's own code (auto_map) rotates ", config->rotary_dim,
                           " dimensions of each head, as shown; transformers' MiniMaxM2 class "
                           "ignores rotary_dim and rotates partial_rotary_factor × the head "
                           "(the whole head when that is absent)"));
    if (!error.empty()) return error;
    if (config->model_type == "lfm2") check(Lfm2LayerTypes(s, config));
    if (config->model_type == "nemotron_h") check(NemotronLayerTypes(s, config));
    if (const ModelFamily* family = family_of_model_type(config->model_type);
        family && family->class_rope_only)
        check(MimoIgnoredKeys(s, *family, config));
    if (!error.empty()) return error;
    if (config->rotary_dim % 2 != 0)
        return "config field \"rotary_dim\": must be even (got " +
               std::to_string(config->rotary_dim) + ")";
    return {};
}

} // namespace detail

} // namespace pelab
