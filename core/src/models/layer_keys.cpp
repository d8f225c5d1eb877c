// The config.json keys that differ from layer to layer or shape a layer's RoPE
// (models/config_fields.h's ReadLayerKeys): read into CheckpointConfig, each checked.
#include "base/format.h"
#include "models/config_fields.h"
#include "pelab/base/limits.h"
#include "pelab/models/model_config.h"

namespace pelab {

using nlohmann::json;

namespace detail {

Status ReadLayerKeys(const json& s, CheckpointConfig* config) {
    std::string error;
    const auto check = [&](const Status& problem) {
        if (error.empty() && !problem.ok()) error = problem.message();
    };
    constexpr std::size_t kMaxLayers = 100000;
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
                           "ignores rotary_dim and rotates the whole head"));
    if (!error.empty()) return error;
    if (config->rotary_dim % 2 != 0)
        return "config field \"rotary_dim\": must be even (got " +
               std::to_string(config->rotary_dim) + ")";
    return {};
}

} // namespace detail

} // namespace pelab
