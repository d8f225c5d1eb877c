#include "pelab/models/layer_schedule.h"

#include "base/format.h"
#include "models/config_fields.h"
#include "pelab/base/limits.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace pelab {

using nlohmann::json;

namespace {

// "st", "nd", "rd" or "th" after n ("every 4th", "every 2nd").
const char* Ordinal(int n) {
    if (n % 100 >= 11 && n % 100 <= 13) return "th";
    switch (n % 10) {
    case 1:
        return "st";
    case 2:
        return "nd";
    case 3:
        return "rd";
    default:
        return "th";
    }
}

LayerAttention AttentionOfType(const std::string& type, bool* known) {
    *known = true;
    if (type == "sliding_attention") return LayerAttention::Sliding;
    if (type == "chunked_attention") return LayerAttention::Chunked;
    if (type == "linear_attention") return LayerAttention::Linear;
    if (type == "conv") return LayerAttention::Conv;                 // LFM2's short convolution
    if (type == "moe" || type == "mlp") return LayerAttention::None; // Nemotron-H's blocks
    *known = type == "full_attention";
    return LayerAttention::Full;
}

// The layer types of the family's rule when layer_types is not given (families.h says which).
std::vector<std::string> RuleTypes(const CheckpointConfig& config, const ModelFamily* family,
                                   std::vector<bool>* rope, std::string* rule) {
    const int n = config.layers;
    std::vector<std::string> types(n, "full_attention");
    rope->assign(n, true);
    const LayerRule kind = family ? family->layers : LayerRule::Uniform;
    const int period = family ? family->default_interval : 0;
    const auto sliding_if = [&](auto condition) {
        for (int i = 0; i < n; ++i)
            if (condition(i)) types[i] = "sliding_attention";
    };
    switch (kind) {
    case LayerRule::Uniform:
        if (config.sliding_window > 0) {
            sliding_if([](int) { return true; });
            *rule = "sliding_window on every layer";
        }
        break;
    case LayerRule::AlternateSliding:
        sliding_if([](int i) { return (i + 1) % 2 != 0; });
        *rule = "sliding and global layers alternate (the family's default)";
        break;
    case LayerRule::SlidingPattern: {
        const int p = config.sliding_window_pattern > 0 ? config.sliding_window_pattern : period;
        sliding_if([&](int i) { return (i + 1) % p != 0; });
        *rule = detail::concat("sliding_window_pattern ", p,
                               config.sliding_window_pattern > 0 ? "" : " (the family's default)");
        break;
    }
    case LayerRule::MaxWindowLayers: {
        const int from = config.max_window_layers >= 0 ? config.max_window_layers : 28;
        if (config.use_sliding_window && config.sliding_window > 0) {
            sliding_if([&](int i) { return i >= from; });
            *rule = detail::concat("use_sliding_window from layer ", from);
        }
        break;
    }
    case LayerRule::NoRopeLayers: {
        const int every =
            config.no_rope_layer_interval > 0 ? config.no_rope_layer_interval : period;
        const bool listed = static_cast<int>(config.no_rope_layers.size()) == n;
        for (int i = 0; i < n; ++i)
            (*rope)[i] = listed ? config.no_rope_layers[i] == 1 : (i + 1) % every != 0;
        *rule = listed ? std::string("no_rope_layers")
                       : detail::concat(
                             "no_rope_layer_interval ", every,
                             config.no_rope_layer_interval > 0 ? "" : " (the family's default)");
        if (config.attention_chunk_size > 0)
            for (int i = 0; i < n; ++i)
                if ((*rope)[i]) types[i] = "chunked_attention";
        // SmolLM3 slides only on its layers without RoPE (modeling_smollm3.py).
        if (config.use_sliding_window && config.sliding_window > 0 && family &&
            std::string(family->id) == "smollm3")
            sliding_if([&](int i) { return !(*rope)[i]; });
        break;
    }
    case LayerRule::GlobalEveryN: {
        const int every = config.global_every > 0 ? config.global_every : period;
        sliding_if([&](int i) { return i % every != 0; });
        *rule = detail::concat("global_attn_every_n_layers ", every,
                               config.global_every > 0 ? "" : " (the family's default)");
        break;
    }
    case LayerRule::LinearInterval: {
        const int every =
            config.full_attention_interval > 0 ? config.full_attention_interval : period;
        for (int i = 0; i < n; ++i)
            if ((i + 1) % every != 0) types[i] = "linear_attention";
        *rule = detail::concat("full_attention_interval ", every,
                               config.full_attention_interval > 0 ? "" : " (the family's default)");
        break;
    }
    case LayerRule::FirstAndEveryNth:
        sliding_if([&](int i) { return i != 0 && (i + 1) % period != 0; });
        *rule = detail::concat("layer 0 and every ", period, Ordinal(period),
                               " global: the class's pattern, whatever hybrid_layer_pattern says");
        break;
    }
    return types;
}

std::string GroupName(const LayerPlan& plan) {
    std::string where = layer_attention_name(plan.attention);
    if (plan.span > 0) where += detail::concat(" ", plan.span);
    if (plan.attention == LayerAttention::Linear) return "linear attention, no positions";
    if (plan.attention == LayerAttention::Conv) return "short convolution, no positions";
    if (plan.attention == LayerAttention::None) return "no token mixing (feed-forward only)";
    switch (plan.positions) {
    case PositionKind::Alibi:
        return "ALiBi bias, " + where;
    case PositionKind::RelativeBuckets:
        return "T5 bucket bias, " + where;
    case PositionKind::LearnedTable:
        return "positions in its input (learned table), " + where;
    case PositionKind::None:
        return "no positions, " + where;
    case PositionKind::Rope:
        break;
    }
    const bool scaled = !plan.scaling.type.empty() && plan.scaling.type != "default";
    return detail::concat("RoPE base ", plan.rope_theta > 0 ? plan.rope_theta : 10000.0,
                          scaled ? " " + plan.scaling.type : std::string(), ", ", where);
}

// A layer's head width and key heads: the config's, but configuration_gemma4.py's global layers
// are global_head_dim wide with num_global_key_value_heads key heads (when attention_k_eq_v).
void SetHeads(const CheckpointConfig& config, const ModelFamily* family, LayerPlan* plan) {
    plan->head_dim = config.HeadWidth();
    plan->kv_heads = config.kv_heads > 0 ? config.kv_heads : config.heads;
    if (!(family && std::string(family->id) == "gemma4" && plan->attention == LayerAttention::Full))
        return;
    if (config.global_head_dim > 0) plan->head_dim = config.global_head_dim;
    if (config.global_kv_heads > 0 && config.attention_k_eq_v)
        plan->kv_heads = config.global_kv_heads;
}

// A layer's base, scaling and rotating share: its layer type's rope_parameters entry, the
// family's local or global base, else the config's (the family's default theta when absent).
double SetBase(const CheckpointConfig& config, const ModelFamily* family, LayerPlan* plan) {
    double partial = config.partial_rotary;
    plan->rope_theta = config.rope_theta;
    plan->scaling = config.rope_scaling;
    if (family && family->class_rope_only && config.rope_layer_kinds.empty()) {
        // MiMoV2FlashConfig: its own bases and share, whatever config.json says (noted).
        const bool sliding = plan->attention == LayerAttention::Sliding;
        plan->rope_theta = sliding ? family->local_base_default : family->default_theta;
        plan->theta_defaulted = config.rope_theta <= 0;
        plan->scaling = RopeScalingConfig{};
        return family->default_partial;
    }
    if (!config.rope_layer_kinds.empty()) {
        for (const RopeLayerKind& kind : config.rope_layer_kinds)
            if (kind.name == plan->layer_type) {
                plan->rope = plan->rope && kind.rotary;
                plan->rope_theta = kind.rope_theta;
                plan->scaling = kind.scaling;
                partial = kind.partial_rotary;
            }
    } else if (plan->attention == LayerAttention::Sliding && family && family->local_base_key) {
        plan->rope_theta = config.local_base > 0 ? config.local_base : family->local_base_default;
        plan->theta_defaulted = config.local_base <= 0;
        if (family->local_unscaled) plan->scaling = RopeScalingConfig{};
    } else if (plan->attention == LayerAttention::Sliding && family && family->local_unscaled &&
               family->default_theta > 0) {
        // OLMo 3: Olmo3Config's convert hands rope_theta and a legacy rope_scaling to the full
        // layers; the sliding ones keep the class's default base, unscaled.
        plan->rope_theta = family->default_theta;
        plan->scaling = RopeScalingConfig{};
    } else if (family && family->global_base_key) {
        plan->rope_theta =
            config.global_base > 0 ? config.global_base : family->global_base_default;
        plan->theta_defaulted = config.global_base <= 0;
    }
    // No base given: the class's default_theta (RotaryEmbeddingConfigMixin's 10 000 unless the
    // family sets its own).
    if (plan->rope_theta <= 0) {
        plan->rope_theta = family && family->default_theta > 0 ? family->default_theta : 10000;
        plan->theta_defaulted = true;
    }
    return partial;
}

// A window as long as the context (Phi-3.5's 262 144 beside 131 072) hides nothing: said.
void WindowNote(const CheckpointConfig& config, LayerSchedule* out) {
    for (const LayerPlan& plan : out->layers)
        if (plan.attention == LayerAttention::Sliding && plan.span > 0 &&
            config.max_positions > 0 && plan.span >= config.max_positions) {
            out->notes.push_back(
                detail::concat("sliding window ", plan.span, " is not shorter than the context (",
                               config.max_positions, "): those layers see every earlier token"));
            return;
        }
}

} // namespace

const char* layer_attention_name(LayerAttention attention) {
    switch (attention) {
    case LayerAttention::Full:
        return "global";
    case LayerAttention::Sliding:
        return "sliding window";
    case LayerAttention::Chunked:
        return "chunked";
    case LayerAttention::Linear:
        return "linear attention";
    case LayerAttention::Conv:
        return "short convolution";
    case LayerAttention::None:
        return "no attention";
    }
    return "global";
}

LayerSchedule BuildLayerSchedule(const CheckpointConfig& config) {
    LayerSchedule out;
    const ModelFamily* family = family_of_model_type(config.model_type);
    out.family_id = family ? family->id : "";
    out.floor_scale = config.floor_scale;
    out.attn_scale = config.attn_scale;
    out.llama4_beta = config.rope_scaling.llama4_scaling_beta;
    out.llama4_original = config.rope_scaling.original_context > 0
                              ? config.rope_scaling.original_context
                              : static_cast<double>(config.max_positions);
    if (family == nullptr && !config.model_type.empty())
        out.notes.push_back("model_type " + detail::shown_name(config.model_type) +
                            " is not a family PE Lab knows: its layers are read alike, from the "
                            "keys it shares with Llama (layer_types when given)");
    // Kimi K2's config.json names remote code (auto_map: DeepseekV3Config); transformers has no
    // kimi_k2 class.
    if (config.model_type == "kimi_k2")
        out.notes.push_back("model_type kimi_k2 has no class in transformers: read as DeepSeek V3, "
                            "the class its auto_map and architectures name");
    if (config.layers <= 0) {
        out.notes.push_back("config.json gives no layer count (num_hidden_layers): no plan");
        return out;
    }
    const int n = config.layers;
    std::vector<bool> rope;
    std::vector<std::string> types = RuleTypes(config, family, &rope, &out.rule);
    if (!config.layer_types.empty()) {
        types = config.layer_types; // ReadModelConfig checked there is one per layer
        out.rule = config.layer_types_from.empty() ? "layer_types" : config.layer_types_from;
    }
    const bool rotary_family =
        family ? family->kind == PositionKind::Rope : !config.alibi && config.relative_buckets == 0;
    // The positions of a family without RoPE, in every layer alike.
    const PositionKind other_positions = config.alibi ? PositionKind::Alibi
                                         : family     ? family->kind
                                         : config.relative_buckets > 0
                                             ? PositionKind::RelativeBuckets
                                             : PositionKind::None;
    const bool tuned = family && std::string(family->id) == "llama4" &&
                       (config.temperature_tuning_given ? config.temperature_tuning : true);
    RotaryPairing pairing = family ? family->pairing : RotaryPairing::HalfSplit;
    if (config.rope_interleave_given)
        pairing = config.rope_interleave ? RotaryPairing::Interleaved : RotaryPairing::HalfSplit;
    std::vector<std::string> unknown_types;
    for (int i = 0; i < n; ++i) {
        LayerPlan plan;
        plan.index = i;
        plan.layer_type = types[i];
        bool known = true;
        plan.attention = AttentionOfType(types[i], &known);
        if (!known &&
            std::find(unknown_types.begin(), unknown_types.end(), types[i]) == unknown_types.end())
            unknown_types.push_back(types[i]);
        if (plan.attention == LayerAttention::Sliding)
            plan.span = family && std::string(family->id) == "modernbert"
                            ? (config.local_attention > 0 ? config.local_attention : 128)
                            : config.sliding_window;
        if (plan.attention == LayerAttention::Chunked) plan.span = config.attention_chunk_size;
        const bool attends = plan.attention != LayerAttention::Linear &&
                             plan.attention != LayerAttention::Conv &&
                             plan.attention != LayerAttention::None;
        plan.rope = rotary_family && rope[i] && attends;
        if (family && family->rope_on_sliding_only && plan.attention != LayerAttention::Sliding)
            plan.rope = false;
        const double partial = SetBase(config, family, &plan);
        SetHeads(config, family, &plan);
        if (plan.rope) {
            // The width as CheckpointConfig::RotaryWidth computes it, for this layer's head and
            // share (no copy of the config: a layer_types list of 10⁵ would make it quadratic).
            double share = partial;
            if (!config.partial_rotary_given && family && family->default_partial > 0)
                share = family->default_partial;
            if (family && family->class_rope_only) share = partial;
            const bool unscaled = plan.scaling.type.empty() || plan.scaling.type == "default";
            if (family && !family->applies_partial && unscaled) share = 1;
            int width = config.qk_rope_head_dim > 0 ? config.qk_rope_head_dim
                        : config.rotary_dim > 0     ? config.rotary_dim
                                                    : static_cast<int>(plan.head_dim * share);
            plan.rotary_dims = width - width % 2;
            plan.frequency_dims = plan.rotary_dims;
            // p-RoPE (modeling_rope_utils.py, proportional): int(p · head / 2) pairs turn, their
            // exponent runs over the whole head: θ_i = base^(−2i / head).
            if (plan.scaling.type == "proportional") {
                plan.rotary_dims = 2 * static_cast<int>(share * plan.head_dim / 2);
                plan.frequency_dims = plan.head_dim;
            }
            plan.pairing = pairing;
        } else {
            plan.rope_theta = 0;
            plan.scaling = RopeScalingConfig{};
            plan.temperature_tuned = tuned;
        }
        plan.positions = plan.rope                   ? PositionKind::Rope
                         : rotary_family || !attends ? PositionKind::None
                                                     : other_positions;
        out.layers.push_back(std::move(plan));
    }
    WindowNote(config, &out);
    for (const std::string& type : unknown_types)
        out.notes.push_back("layer type \"" + type +
                            "\" is not one PE Lab knows: read as global "
                            "attention");
    std::map<std::string, int> group_of;
    for (const LayerPlan& plan : out.layers) {
        const std::string name = GroupName(plan) + (plan.temperature_tuned ? ", tuned" : "");
        auto [at, added] = group_of.emplace(name, static_cast<int>(out.groups.size()));
        if (added) out.groups.push_back({name, {}, plan.index});
        out.groups[at->second].layers.push_back(plan.index);
    }
    for (const LayerPlan& plan : out.layers)
        if (plan.rope && plan.attention == LayerAttention::Full && out.shown_layer < 0)
            out.shown_layer = plan.index;
    for (const LayerPlan& plan : out.layers)
        if (plan.rope && out.shown_layer < 0) out.shown_layer = plan.index;
    return out;
}

double TemperatureScale(const LayerSchedule& schedule, double position) {
    return 1 +
           schedule.attn_scale * std::log(std::floor((position + 1) / schedule.floor_scale) + 1);
}

double Llama4BetaScale(const LayerSchedule& schedule, double position) {
    if (schedule.llama4_beta == 0 || schedule.llama4_original <= 0) return 1;
    return 1 + schedule.llama4_beta * std::log(1 + std::floor(position / schedule.llama4_original));
}

std::string LayerList(const std::vector<int>& layers, int counted_from) {
    std::string text;
    const std::size_t n = layers.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (n > 8 && i == 3) {
            text += ", …";
            i = n - 1;
        }
        text += (text.empty() ? "" : ", ") + std::to_string(layers[i] + counted_from);
    }
    return text;
}

std::string ScheduleSummary(const LayerSchedule& schedule, int counted_from) {
    const int n = static_cast<int>(schedule.layers.size());
    if (n == 0) return "no layer plan (config.json gives no layer count)";
    if (schedule.groups.size() == 1)
        return detail::concat(
            n, n == 1 ? " layer, all alike: " : " layers, all alike: ", schedule.groups[0].name);
    // A group whose layers come at a fixed step is said by its step; when all the others are,
    // the one left is "the others", said last.
    const auto step_of = [](const std::vector<int>& at) {
        const int step = at.size() >= 3 ? at[1] - at[0] : 0;
        for (std::size_t i = 1; step > 1 && i < at.size(); ++i)
            if (at[i] - at[i - 1] != step) return 0;
        return step > 1 ? step : 0;
    };
    int irregular = 0;
    for (const LayerGroup& group : schedule.groups)
        irregular += step_of(group.layers) == 0 ? 1 : 0;
    std::string text = detail::concat(n, " layers: "), rest;
    for (const LayerGroup& group : schedule.groups) {
        const std::vector<int>& at = group.layers;
        const int step = step_of(at);
        const std::string where =
            step > 0
                ? detail::concat("every ", step, Ordinal(step), ": ", LayerList(at, counted_from))
            : irregular == 1
                ? std::string("the others")
                : (at.size() == 1 ? "layer " : "layers ") + LayerList(at, counted_from);
        const std::string part = detail::concat(at.size(), " ", group.name, " (", where, ")");
        if (step == 0 && irregular == 1)
            rest = part;
        else
            text += (text.back() == ' ' ? "" : "; ") + part;
    }
    if (!rest.empty()) text += (text.back() == ' ' ? "" : "; ") + rest;
    return text;
}

} // namespace pelab
