#include "pelab/models/model_config.h"

#include "base/format.h"
#include "models/config_fields.h"
#include "pelab/base/limits.h"
#include "pelab/models/layer_schedule.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace pelab {

using nlohmann::json;
using namespace detail; // NOLINT(google-build-using-namespace): the config readers

namespace {

Status Factors(const json& object, const char* name, std::vector<double>* out) {
    const auto at = object.find(name);
    if (at == object.end() || at->is_null()) return {};
    const std::string message = "config field \"" + std::string(name) +
                                "\": must be a list of at most 8192 positive numbers";
    if (!at->is_array() || at->size() > 8192) return message + " (got " + Got(*at) + ")";
    std::vector<double> factors;
    for (const json& item : *at) {
        if (!item.is_number() || !std::isfinite(item.get<double>()) || item.get<double>() <= 0 ||
            item.get<double>() > 1e6)
            return message + " (got " + Got(item) + " in it)";
        factors.push_back(item.get<double>());
    }
    *out = std::move(factors);
    return {};
}

// The scaling fields of scaling (a v4 rope_scaling or a v5 rope_parameters entry); where names it
// in messages ("rope_parameters.full_attention").
Status ReadScaling(const json& scaling, const std::string& where, RopeScalingConfig* out) {
    if (!scaling.is_object())
        return "config field \"" + where + "\": must be an object or null (got " + Got(scaling) +
               ")";
    RopeScalingConfig read;
    std::string type;
    if (Status error = Text(scaling, "rope_type", &type); !error.ok()) return error;
    if (type.empty())
        if (Status error = Text(scaling, "type", &type); !error.ok()) return error;
    if (type.empty())
        return "config field \"" + where + "\": names no type (\"rope_type\" or \"type\")";
    read.type = type;
    std::string error;
    const auto check = [&](const Status& problem) {
        if (error.empty() && !problem.ok())
            error = "config field \"" + where +
                    "\": " + problem.message().substr(std::string("config field ").size());
    };
    check(Number(scaling, {"factor"}, 0, 1e6, true, &read.factor, &read.factor_given));
    double original = 0;
    check(Number(scaling, {"original_max_position_embeddings"}, 1, 1e9, false, &original));
    read.original_context = original;
    check(Number(scaling, {"beta_fast"}, 0, 1e6, true, &read.beta_fast));
    check(Number(scaling, {"beta_slow"}, 0, 1e6, true, &read.beta_slow));
    check(Number(scaling, {"mscale"}, 0, 1e6, false, &read.mscale));
    check(Number(scaling, {"mscale_all_dim"}, 0, 1e6, false, &read.mscale_all_dim));
    check(Number(scaling, {"attention_factor"}, 0, 1e6, true, &read.attention_factor));
    check(Number(scaling, {"low_freq_factor"}, 0, 1e6, true, &read.low_freq_factor));
    check(Number(scaling, {"high_freq_factor"}, 0, 1e6, true, &read.high_freq_factor));
    if (const auto at = scaling.find("truncate"); at != scaling.end() && !at->is_null()) {
        if (!at->is_boolean())
            check("config field \"truncate\": must be true or false (got " + Got(*at) + ")");
        else
            read.truncate = at->get<bool>();
    }
    check(Factors(scaling, "short_factor", &read.short_factor));
    check(Factors(scaling, "long_factor", &read.long_factor));
    check(Number(scaling, {"llama_4_scaling_beta"}, 0, 100, false, &read.llama4_scaling_beta));
    check(Factors(scaling, "mrope_section", &read.mrope_section));
    check(Boolean(scaling, "mrope_interleaved", &read.mrope_interleaved));
    if (!error.empty()) return error;
    // Qwen2-VL's "mrope" is its default RoPE with the pairs split into sections
    // (configuration_qwen2_vl.py turns the type into "default").
    if (type == "mrope") read.type = type = "default";
    // The fields transformers requires of each type (its rope validation refuses the config
    // without them): never filled in with a default here.
    const auto present = [&](const char* key) {
        const auto at = scaling.find(key);
        return at != scaling.end() && !at->is_null();
    };
    std::vector<const char*> required;
    if (type == "linear" || type == "dynamic" || type == "yarn") required = {"factor"};
    if (type == "llama3")
        required = {"factor", "original_max_position_embeddings", "low_freq_factor",
                    "high_freq_factor"};
    if (type == "longrope") required = {"short_factor", "long_factor"};
    for (const char* field : required)
        if (!present(field))
            return "config field \"" + where + "\": " + type + " needs \"" + field +
                   "\" (transformers refuses a " + type + " " + where + " without it)";
    // Equal ends are read as transformers reads them (Kimi K2's betas 1 and 1, Llama 4 Scout's
    // factors 1 and 1); inverted ones are refused.
    if (read.beta_slow > read.beta_fast)
        return "config field \"" + where + "\": beta_slow must not exceed beta_fast";
    if (read.low_freq_factor > read.high_freq_factor)
        return "config field \"" + where + "\": low_freq_factor must not exceed high_freq_factor";
    *out = std::move(read);
    return {};
}

// One RoPE entry (a v4 rope_scaling, a v5 rope_parameters or one of its layer types' entries)
// with the top level's settings, as standardize_rope_params combines them: the entry's
// rope_theta before the top level's, the top level's partial_rotary_factor before the entry's,
// and for llama3, yarn and longrope a top-level original_max_position_embeddings (Phi-3 keeps
// it there) before the entry's. No type: "default" (unscaled).
Status ReadRopeEntry(const json& entry, const json& top, const std::string& where, double* theta,
                     double* partial, bool* partial_given, RopeScalingConfig* scaling) {
    if (!entry.is_object())
        return "config field \"" + where + "\": must be an object or null (got " + Got(entry) + ")";
    if (Status error =
            Inside(Number(entry, {"rope_theta"}, kMinBaseExclusive, kMaxBase, true, theta), where);
        !error.ok())
        return error;
    if (!*partial_given)
        if (Status error =
                Inside(Number(entry, {"partial_rotary_factor"}, 0, 1, true, partial, partial_given),
                       where);
            !error.ok())
            return error;
    const bool typed = (entry.contains("rope_type") && !entry["rope_type"].is_null()) ||
                       (entry.contains("type") && !entry["type"].is_null());
    RopeScalingConfig read;
    // v5 takes an entry without a type as "default"; a v4 rope_scaling must name one
    // (transformers 4 looks the missing type up and fails).
    if (typed || where == "rope_scaling")
        if (Status error = ReadScaling(entry, where, &read); !error.ok()) return error;
    if (read.type == "llama3" || read.type == "yarn" || read.type == "longrope") {
        double original = 0;
        if (Status error =
                Number(top, {"original_max_position_embeddings"}, 1, 1e9, false, &original);
            !error.ok())
            return error;
        if (original > 0) read.original_context = original;
    }
    *scaling = std::move(read);
    return {};
}

// RoPE's settings in either form (the header says how): transformers takes rope_scaling when it
// is a non-empty object, else rope_parameters; keyed by layer type when layer_types is given and
// names every key of it.
Status ReadRope(const json& top, CheckpointConfig* config) {
    const auto present = [&](const char* key) -> const json* {
        const auto at = top.find(key);
        return at != top.end() && !at->is_null() ? &*at : nullptr;
    };
    const json* v4 = present("rope_scaling");
    const json* v5 = present("rope_parameters");
    const json* rope = v4 != nullptr && !(v4->is_object() && v4->empty()) ? v4 : v5;
    if (rope == nullptr) return {};
    config->rope_source = rope == v4 ? "rope_scaling" : "rope_parameters";
    if (!rope->is_object())
        return "config field \"" + config->rope_source + "\": must be an object or null (got " +
               Got(*rope) + ")";
    const std::vector<std::string>& layer_types = config->layer_types;
    const auto named = [&](const std::string& key) {
        return std::find(layer_types.begin(), layer_types.end(), key) != layer_types.end();
    };
    bool keyed = !layer_types.empty() && !rope->empty();
    for (const auto& item : rope->items())
        keyed = keyed && named(item.key());
    // Some keys naming layer types beside flat ones: transformers reads the whole as one flat
    // entry, so the layer types' entries go unused; said.
    std::string unused;
    for (const auto& item : rope->items())
        if (!keyed && named(item.key())) unused += (unused.empty() ? "" : ", ") + item.key();
    if (!unused.empty())
        config->positions_not_shown.push_back(
            config->rope_source + " mixes layer-type entries (" + unused +
            ") with other keys: read as one entry for every layer, as transformers reads it; "
            "those entries are not used");
    if (!keyed)
        return ReadRopeEntry(*rope, top, config->rope_source, &config->rope_theta,
                             &config->partial_rotary, &config->partial_rotary_given,
                             &config->rope_scaling);
    const double top_theta = config->rope_theta;
    for (const std::string& type : layer_types) {
        const auto known =
            std::find_if(config->rope_layer_kinds.begin(), config->rope_layer_kinds.end(),
                         [&](const RopeLayerKind& kind) { return kind.name == type; });
        if (known != config->rope_layer_kinds.end()) {
            ++known->layers;
            continue;
        }
        RopeLayerKind kind;
        kind.name = type;
        kind.layers = 1;
        const std::string where = config->rope_source + "." + type;
        const auto entry = rope->find(type);
        // transformers looks every layer type up in the dict: a type without an entry fails.
        if (entry == rope->end())
            return "config field \"" + config->rope_source +
                   "\": gives no entry for the layer "
                   "type \"" +
                   type + "\" that layer_types names";
        kind.rotary = !entry->is_null();
        if (kind.rotary) {
            kind.rope_theta = top_theta;
            kind.partial_rotary = config->partial_rotary;
            kind.partial_rotary_given = config->partial_rotary_given;
            if (Status error =
                    ReadRopeEntry(*entry, top, where, &kind.rope_theta, &kind.partial_rotary,
                                  &kind.partial_rotary_given, &kind.scaling);
                !error.ok())
                return error;
        }
        config->rope_layer_kinds.push_back(std::move(kind));
    }
    // The layers shown: the global ones (full_attention) when they rotate, else the first type
    // that does.
    const RopeLayerKind* shown = nullptr;
    for (const RopeLayerKind& kind : config->rope_layer_kinds)
        if (kind.rotary && kind.name == "full_attention") shown = &kind;
    for (const RopeLayerKind& kind : config->rope_layer_kinds)
        if (kind.rotary && shown == nullptr) shown = &kind;
    if (shown == nullptr) return {}; // no layer rotates: FindPositions finds no RoPE to show
    config->rope_kind_shown = shown->name;
    config->rope_theta = shown->rope_theta;
    config->partial_rotary = shown->partial_rotary;
    config->partial_rotary_given = shown->partial_rotary_given;
    config->rope_scaling = shown->scaling;
    return {};
}

// settings with the keys config.json leaves out as the family's configuration class fills them
// in (held in *storage), each named in config->defaulted_keys; settings itself when the family
// keeps no defaults here.
const json* WithFamilyDefaults(const json& settings, CheckpointConfig* config, json* storage) {
    const ModelFamily* family = family_of_model_type(config->model_type);
    if (family == nullptr || *family->defaults == '\0' || !settings.is_object()) return &settings;
    *storage = settings;
    const json defaults = json::parse(family->defaults); // kept: items() refers into it
    // A v4 rope_scaling stands in for the class's default rope_parameters (GPT-OSS's YaRN).
    const auto v4 = settings.find("rope_scaling");
    const bool scaled = v4 != settings.end() && v4->is_object() && !v4->empty();
    for (const auto& item : defaults.items())
        if (!storage->contains(item.key()) && !(scaled && item.key() == "rope_parameters")) {
            (*storage)[item.key()] = item.value();
            config->defaulted_keys.push_back(item.key() + " " + item.value().dump());
        }
    return storage;
}

// Fine-grained FP8 (DeepSeek V3, Qwen3-FP8): quantization_config.weight_block_size, kept at the
// top level even when the language model's settings are in text_config.
Status ReadWeightBlock(const json& doc, const json& settings, CheckpointConfig* config) {
    for (const json* holder : {&doc, &settings}) {
        const auto at = holder->find("quantization_config");
        if (at == holder->end() || !at->is_object()) continue;
        std::vector<long long> block;
        if (Status problem = Inside(WholeList(*at, "weight_block_size", 1, 1 << 20, 2, &block),
                                    "quantization_config");
            !problem.ok())
            return problem;
        if (block.size() == 1)
            return "config field \"quantization_config.weight_block_size\": must give two "
                   "numbers, rows and columns (got one)";
        if (block.size() == 2) config->weight_block = {block[0], block[1]};
    }
    return {};
}

// Rotating widths that cannot be: odd (rotate_half needs pairs) or wider than the head.
Status WidthProblem(const CheckpointConfig& config) {
    if (config.qk_rope_head_dim % 2 != 0)
        return detail::concat("config field \"qk_rope_head_dim\": must be even, since RoPE "
                              "rotates pairs of dimensions (got ",
                              config.qk_rope_head_dim, ")");
    if (config.rotary_dim % 2 != 0)
        return detail::concat("config field \"rotary_dim\": must be even, since RoPE rotates "
                              "pairs of dimensions (got ",
                              config.rotary_dim, ")");
    const int head = config.HeadWidth();
    if (config.rotary_dim > 0 && head > 0 && config.rotary_dim > head)
        return detail::concat("config field \"rotary_dim\": ", config.rotary_dim,
                              " rotating dimensions in a head of ", head,
                              " (hidden_size / num_attention_heads): it must be at most the head");
    return {};
}

} // namespace

int CheckpointConfig::HeadWidth() const {
    if (qk_rope_head_dim > 0) return qk_nope_head_dim + qk_rope_head_dim; // MLA's query heads
    if (head_dim > 0) return head_dim;
    if (hidden > 0 && heads > 0 && hidden % heads == 0) return hidden / heads;
    return 0;
}

int CheckpointConfig::RotaryWidth() const {
    int width = qk_rope_head_dim > 0 ? qk_rope_head_dim
                : rotary_dim > 0     ? rotary_dim
                                     : static_cast<int>(HeadWidth() * partial_rotary);
    return width - width % 2;
}

int CheckpointConfig::GroupSize() const {
    if (heads > 0 && kv_heads > 0 && heads % kv_heads == 0) return heads / kv_heads;
    return 1;
}

namespace {

// Falcon's attention (modeling_falcon.py): num_kv_heads when new_decoder_architecture or not
// multi_query, else one key head.
void FalconKeyHeads(const json& s, CheckpointConfig* config) {
    const auto flag = [&](const char* key) {
        const auto at = s.find(key);
        return at != s.end() && at->is_boolean() && at->get<bool>();
    };
    if (flag("multi_query") && !flag("new_decoder_architecture")) config->kv_heads = 1;
}

} // namespace

Status ReadModelConfig(const json& doc, CheckpointConfig* out) {
    if (!doc.is_object()) return "config: must be a JSON object (got " + Got(doc) + ")";
    CheckpointConfig config;
    std::string error;
    const auto check = [&](const Status& problem) {
        if (error.empty()) error = problem.message();
    };
    check(Text(doc, "model_type", &config.model_type));
    if (const auto at = doc.find("architectures"); at != doc.end() && !at->is_null()) {
        if (!at->is_array() || at->size() > 64)
            check("config field \"architectures\": must be a list of names (got " + Got(*at) + ")");
        else
            for (const json& name : *at) {
                if (!name.is_string() || name.get<std::string>().size() > 200)
                    check("config field \"architectures\": must be a list of names (got " +
                          Got(name) + " in it)");
                else
                    config.architectures.push_back(name.get<std::string>());
            }
    }
    // A multimodal model keeps its language model's settings in text_config.
    const json* settings = &doc;
    if (const auto at = doc.find("text_config"); at != doc.end() && !at->is_null()) {
        if (!at->is_object())
            check("config field \"text_config\": must be an object (got " + Got(*at) + ")");
        else
            settings = &*at, config.from_text_config = true;
    }
    const bool top_level_error = !error.empty();
    if (config.from_text_config) {
        std::string inner_type;
        check(Text(*settings, "model_type", &inner_type));
        if (!inner_type.empty()) config.model_type = inner_type;
    }
    json with_defaults;
    settings = WithFamilyDefaults(*settings, &config, &with_defaults);
    const json& s = *settings;
    check(Whole(
        s, {"max_position_embeddings", "n_positions", "n_ctx", "max_sequence_length", "seq_length"},
        1, 1000000000, &config.max_positions));
    check(WholeInt(s, {"hidden_size", "n_embd", "d_model", "dim"}, 1, 1 << 20, &config.hidden));
    check(WholeInt(s, {"num_attention_heads", "n_head", "num_heads", "n_heads"}, 1, 4096,
                   &config.heads));
    check(WholeInt(s, {"num_key_value_heads", "num_kv_heads", "n_kv_heads"}, 1, 4096,
                   &config.kv_heads));
    check(WholeInt(s, {"head_dim", "d_kv"}, 1, 1 << 16, &config.head_dim));
    check(WholeInt(s, {"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, 1, 100000,
                   &config.layers));
    check(Number(s, {"rope_theta", "rotary_emb_base", "rope_base"}, kMinBaseExclusive, kMaxBase,
                 true, &config.rope_theta));
    check(Number(s, {"layer_norm_epsilon", "layer_norm_eps", "rms_norm_eps"}, 0, 1, true,
                 &config.layer_norm_epsilon));
    check(Number(s, {"partial_rotary_factor", "rotary_pct"}, 0, 1, true, &config.partial_rotary,
                 &config.partial_rotary_given));
    long long context_check = 0; // n_ctx beside n_positions (GPT-2): checked, the first kept
    check(Whole(s, {"n_ctx"}, 1, 1000000000, &context_check));
    check(Whole(s, {"vocab_size"}, 1, 1 << 30, &config.vocab_size));
    check(ReadPassKeys(s, &config));
    check(WholeInt(s, {"relative_attention_num_buckets"}, 1, 1 << 16, &config.relative_buckets));
    check(WholeInt(s, {"relative_attention_max_distance"}, 1, 1 << 30,
                   &config.relative_max_distance));
    FalconKeyHeads(s, &config);
    check(ReadLayerKeys(s, &config));
    if (error.empty() && !config.layer_types.empty() && config.layers > 0 &&
        static_cast<int>(config.layer_types.size()) != config.layers)
        check(detail::concat("config field \"layer_types\": names ", config.layer_types.size(),
                             " layer types for ", config.layers,
                             " layers (num_hidden_layers): transformers needs one per layer"));
    if (error.empty() && !config.no_rope_layers.empty() && config.layers > 0 &&
        static_cast<int>(config.no_rope_layers.size()) != config.layers)
        check(detail::concat("config field \"no_rope_layers\": has ", config.no_rope_layers.size(),
                             " entries for ", config.layers,
                             " layers (num_hidden_layers): one per layer"));
    check(ReadRope(s, &config));
    // ALiBi: BLOOM always; Falcon and MPT say so.
    if (const auto at = s.find("alibi"); at != s.end() && !at->is_null()) {
        if (!at->is_boolean())
            check("config field \"alibi\": must be true or false (got " + Got(*at) + ")");
        else
            config.alibi = at->get<bool>();
    }
    if (const auto at = s.find("attn_config"); at != s.end() && at->is_object())
        if (const auto alibi = at->find("alibi"); alibi != at->end() && alibi->is_boolean())
            config.alibi = config.alibi || alibi->get<bool>();
    if (config.model_type == "bloom") config.alibi = true;
    // A wrong key of the language model's settings is named where it is (text_config.…).
    if (config.from_text_config && !top_level_error && !error.empty())
        error = Inside(error, "text_config").message();
    check(ReadWeightBlock(doc, s, &config));
    if (!error.empty()) return error;
    if (Status problem = WidthProblem(config); !problem.ok()) return problem;
    // A family whose global layers keep their own base (ModernBERT's global_rope_theta): the
    // views show those layers, so the shown settings are theirs.
    if (config.rope_layer_kinds.empty()) {
        const LayerSchedule schedule = BuildLayerSchedule(config);
        if (schedule.shown_layer >= 0) {
            const LayerPlan& shown = schedule.layers[schedule.shown_layer];
            config.rope_theta_defaulted = config.rope_theta <= 0 && shown.theta_defaulted;
            if (shown.rope_theta > 0) config.rope_theta = shown.rope_theta;
            config.rope_scaling = shown.scaling;
        }
    }
    if (config.rope_scaling.original_context > 0 && config.max_positions > 0 &&
        config.rope_scaling.original_context > static_cast<double>(config.max_positions) &&
        config.rope_scaling.type == "yarn")
        return "config: rope_scaling's original_max_position_embeddings (" +
               std::to_string(static_cast<long long>(config.rope_scaling.original_context)) +
               ") exceeds max_position_embeddings (" + std::to_string(config.max_positions) +
               "): yarn stretches the original context, it cannot be longer than the result";
    if (config.heads > 0 && config.kv_heads > 0 && config.heads % config.kv_heads != 0)
        return "config: num_attention_heads (" + std::to_string(config.heads) +
               ") is not a multiple of num_key_value_heads (" + std::to_string(config.kv_heads) +
               ")";
    *out = std::move(config);
    return {};
}

} // namespace pelab
