#include "models/rope_config.h"

#include "base/format.h"
#include "pelab/models/layer_schedule.h"

#include <algorithm>
#include <cstdio>

namespace pelab {

namespace {

// The RoPE of each layer type of a config whose rope_parameters is keyed by layer type: which
// one the views show, and what the others do ("the 40 sliding_attention layers: base 10000,
// unscaled, not shown").
std::string LayerKindsNote(const CheckpointConfig& config) {
    int total = 0;
    for (const RopeLayerKind& kind : config.rope_layer_kinds)
        total += kind.layers;
    const auto layers = [&](const RopeLayerKind& kind) {
        return detail::concat("the ", kind.layers, " ", kind.name,
                              kind.layers == 1 ? " layer" : " layers");
    };
    const auto rope = [](const RopeLayerKind& kind) {
        const bool scaled = !kind.scaling.type.empty() && kind.scaling.type != "default";
        return detail::concat("base ", kind.rope_theta > 0 ? kind.rope_theta : 10000.0,
                              kind.rope_theta > 0 ? "" : " (no rope_theta: the default)", ", ",
                              scaled ? kind.scaling.type : std::string("unscaled"),
                              kind.partial_rotary < 1 ? detail::concat(", ", kind.partial_rotary,
                                                                       " of each head rotating")
                                                      : std::string());
    };
    std::string note = detail::concat("rope_parameters differs by layer type (", total,
                                      total == 1 ? " layer" : " layers", "): shown are ");
    std::string others;
    for (const RopeLayerKind& kind : config.rope_layer_kinds) {
        if (kind.name == config.rope_kind_shown) {
            note += layers(kind) + " (" + rope(kind) + ")";
            continue;
        }
        others += "; " + layers(kind) +
                  (kind.rotary ? ": " + rope(kind) + ", not shown" : ": no RoPE (null entry)");
    }
    return note + others;
}

} // namespace

namespace detail {

// What RoPE's pairs need from config.json that it does not give: "" when it gives them all.
Status RopeConfigProblem(const CheckpointConfig* config, const std::string& first_query) {
    if (config == nullptr)
        return "the checkpoint holds a RoPE model's attention (" + detail::shown_name(first_query) +
               "), but its heads, head width and base are in config.json: put config.json "
               "beside the weights or name it with --config";
    if (config->heads == 0)
        return "config.json gives no head count (num_attention_heads), which RoPE's pairs need";
    if (config->HeadWidth() == 0)
        return config->hidden == 0
                   ? "config.json gives no head width: neither head_dim nor hidden_size"
                   : "config.json gives no head width: head_dim is absent and hidden_size (" +
                         std::to_string(config->hidden) + ") is not a multiple of the " +
                         std::to_string(config->heads) + " heads";
    return {};
}

void NoPositionsFamily(const CheckpointConfig& config, const ModelFamily& family,
                       FoundPositions* found) {
    found->kind = PositionKind::None;
    found->family = family.display;
    const LayerSchedule schedule = BuildLayerSchedule(config);
    int reading_in_turn = 0;
    for (const LayerPlan& plan : schedule.layers)
        reading_in_turn +=
            plan.attention == LayerAttention::Linear || plan.attention == LayerAttention::Conv;
    found->notes.push_back(detail::concat(
        found->family,
        " has no position encoding: its attention applies no RoPE and adds no "
        "bias (transformers' ",
        family.source, ")",
        reading_in_turn > 0
            ? detail::concat("; order reaches it through its ", reading_in_turn,
                             reading_in_turn == 1 ? " layer" : " layers",
                             " of linear attention or convolution, which read the tokens in "
                             "turn, and through the causal mask.")
            : std::string("; order reaches it only through the causal mask.")));
    if (config.rope_theta > 0)
        found->notes.push_back(detail::concat("config.json's rope_theta ", config.rope_theta,
                                              " is not used by ", found->family, "."));
    for (const std::string& note : config.positions_not_shown)
        found->notes.push_back(note);
}

// RoPE's heads, rotating dimensions, pairing, base and contexts, from config.json alone.
Status RopeFromConfig(const CheckpointConfig* config, FoundPositions* found) {
    found->heads = config->heads;
    found->kv_heads = config->kv_heads > 0 ? config->kv_heads : config->heads;
    found->head_dim = config->HeadWidth();
    const LayerSchedule schedule = BuildLayerSchedule(*config);
    const LayerPlan* shown =
        schedule.shown_layer >= 0 ? &schedule.layers[schedule.shown_layer] : nullptr;
    if (!schedule.layers.empty() && shown == nullptr) {
        // Every layer without RoPE (no_rope_layers all 0, every layer linear): no positions.
        found->kind = PositionKind::None;
        found->notes.push_back(
            detail::concat("none of the ", schedule.layers.size(), " layers rotates (",
                           schedule.rule, "): the model has no position encoding in any layer"));
        return {};
    }
    // Without a layer plan (no layer count), every layer as the config's top level says.
    LayerPlan whole;
    whole.rope_theta = config->rope_theta;
    whole.head_dim = found->head_dim;
    whole.rotary_dims = config->RotaryWidth();
    whole.frequency_dims = whole.rotary_dims;
    whole.scaling = config->rope_scaling;
    UseLayerPositions(*config, shown ? *shown : whole, found);
    if (found->rotary_dims < 2) {
        char factor[32];
        std::snprintf(factor, sizeof factor, "%g", config->partial_rotary); // 1e-300, not 0.000000
        return std::string("config: partial rotary ") + factor + " of a head of " +
               std::to_string(found->head_dim) + " dimensions leaves no pair to rotate";
    }
    found->base = config->rope_theta > 0 ? config->rope_theta : 10000.0;
    found->base_from_default = config->rope_theta <= 0;
    if (config->rope_theta_defaulted)
        found->notes.push_back(detail::concat("config.json gives no rope_theta: ", found->family,
                                              "'s default ", found->base, " is used"));
    if (found->base_from_default)
        found->notes.push_back("config.json gives no rope_theta: Hugging Face's default "
                               "10 000 is used");
    if (!config->rope_layer_kinds.empty()) found->notes.push_back(LayerKindsNote(*config));
    if (config->qk_rope_head_dim > 0)
        found->notes.push_back(
            detail::concat("multi-head latent attention: the last ", found->rotary_dims,
                           " of each query head's ", found->head_dim,
                           " dimensions rotate (qk_rope_head_dim), and the keys' rotating part "
                           "is one for all heads (kv_a_proj_with_mqa)"));
    if (!config->rope_scaling.mrope_section.empty()) {
        std::string sections;
        for (double part : config->rope_scaling.mrope_section)
            sections += (sections.empty() ? "" : ", ") + detail::concat(part);
        double total = 0;
        for (double part : config->rope_scaling.mrope_section)
            total += part;
        const int pairs = found->rotary_dims / 2;
        found->notes.push_back(
            "mrope_section [" + sections +
            "]: multimodal RoPE gives time, height and width their own pairs; in text all three "
            "positions are equal, as shown here" +
            (total != pairs
                 ? detail::concat(" (its sections add up to ", total, ", not the ", pairs,
                                  " pairs: transformers could not split the pairs by them)")
                 : std::string()));
    }
    // Every key filled in from the family's class defaults: each shapes the positions (a head
    // width from hidden_size, a schedule from an interval, a whole rope_parameters).
    std::string filled;
    for (const std::string& entry : config->defaulted_keys)
        filled += (filled.empty() ? "" : ", ") + entry;
    if (!filled.empty())
        found->notes.push_back("config.json leaves out " + filled + ": " + found->family +
                               "'s defaults in transformers, as shown");
    for (const std::string& note : config->positions_not_shown)
        found->notes.push_back(note);
    if (found->frequency_dims != found->rotary_dims)
        found->notes.push_back(detail::concat(
            "p-RoPE (proportional): ", found->rotary_dims / 2, " pairs turn, at base^(−2i/",
            found->frequency_dims, ") over the whole head; pair i rotates dimensions i and i + ",
            found->frequency_dims / 2, ", and the head's other pairs carry no position"));
    if (found->rotary_dims < found->head_dim && config->qk_rope_head_dim == 0 &&
        found->frequency_dims == found->rotary_dims)
        found->notes.push_back(std::to_string(found->rotary_dims) + " of each head's " +
                               std::to_string(found->head_dim) +
                               " dimensions rotate (partial rotary); the rest carry no position");
    return {};
}

} // namespace detail

void UseLayerPositions(const CheckpointConfig& config, const LayerPlan& layer,
                       FoundPositions* found) {
    found->base = layer.rope_theta > 0 ? layer.rope_theta : 10000.0;
    if (layer.head_dim > 0) found->head_dim = layer.head_dim;
    found->rotary_dims = layer.rotary_dims;
    found->frequency_dims = layer.frequency_dims;
    found->pairing = layer.pairing;
    found->rotary_first =
        config.qk_rope_head_dim > 0 ? std::max(0, found->head_dim - found->rotary_dims) : 0;
    found->context = config.max_positions;
    found->extended_context = 0;
    const RopeScalingConfig& scaling = layer.scaling;
    if (!scaling.type.empty() && scaling.type != "default" && scaling.original_context > 0 &&
        static_cast<long long>(scaling.original_context) != config.max_positions) {
        found->context = static_cast<long long>(scaling.original_context);
        found->extended_context = config.max_positions;
    }
    const bool windowed =
        layer.attention == LayerAttention::Sliding || layer.attention == LayerAttention::Chunked;
    found->window = windowed ? layer.span : 0;
    found->window_chunked = layer.attention == LayerAttention::Chunked;
}

CheckpointConfig ConfigOfLayer(const CheckpointConfig& config, const LayerPlan& layer) {
    CheckpointConfig out = config;
    if (!layer.rope) return out;
    out.rope_theta = layer.rope_theta;
    out.rope_scaling = layer.scaling;
    if (config.qk_rope_head_dim == 0 && config.rotary_dim == 0 && config.HeadWidth() > 0) {
        out.partial_rotary = static_cast<double>(layer.rotary_dims) / config.HeadWidth();
        out.partial_rotary_given = out.partial_rotary < 1;
    }
    return out;
}

Status FindPositionsFromConfig(const CheckpointConfig& config, FoundPositions* out) {
    FoundPositions found;
    const ModelFamily* family = family_of_model_type(config.model_type);
    found.family =
        family ? family->display : (config.model_type.empty() ? "unknown" : config.model_type);
    found.context = config.max_positions;
    const bool rope_marked = config.rope_theta > 0 || !config.rope_source.empty() ||
                             config.qk_rope_head_dim > 0 || config.rotary_dim > 0;
    PositionKind kind = family ? family->kind : PositionKind::None;
    if (config.alibi) kind = PositionKind::Alibi;
    if (!family && !config.alibi)
        kind = config.relative_buckets > 0 ? PositionKind::RelativeBuckets
               : rope_marked               ? PositionKind::Rope
                                           : PositionKind::None;
    found.kind = kind;
    if (kind == PositionKind::Rope) {
        if (Status problem = detail::RopeConfigProblem(&config, "config.json"); !problem.ok())
            return problem;
        if (Status problem = detail::RopeFromConfig(&config, &found); !problem.ok()) return problem;
        if (found.kind == PositionKind::Rope)
            found.notes.push_back("config.json alone: the pairs' use (the weights' q and k) needs "
                                  "the weights (model.safetensors or its shards)");
    } else if (kind == PositionKind::Alibi) {
        if (config.heads == 0)
            return std::string("config.json marks an ALiBi model but gives no head count");
        found.alibi_heads = config.heads;
        for (const std::string& note : config.positions_not_shown)
            found.notes.push_back(note);
    } else if (kind == PositionKind::LearnedTable) {
        found.notes.push_back(found.family + " learns a table of positions: it is in the "
                                             "weights (model.safetensors), not in config.json");
    } else if (kind == PositionKind::RelativeBuckets) {
        found.notes.push_back("T5's bucket biases are learned: they are in the weights "
                              "(model.safetensors), not in config.json");
    } else if (family) {
        detail::NoPositionsFamily(config, *family, &found);
    } else {
        found.notes.push_back("config.json names no position scheme PE Lab knows (model_type " +
                              detail::shown_name(config.model_type) + ")");
    }
    found.family_id = family ? family->id : "";
    *out = std::move(found);
    return {};
}

} // namespace pelab
