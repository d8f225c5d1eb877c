// llama_load.cpp — LlamaModel::Load (pelab/models/llama.h): the sizes from config.json checked
// against the tensors, every weight read as float32, the products' matrices packed once.
#include "models/dense_products.h"
#include "models/llama_weights.h"
#include "models/shaped_read.h"
#include "pelab/models/families.h"
#include "pelab/models/llama.h"

namespace pelab {

namespace {

constexpr const char* kModel = "this config's model";

// The sizes config.json gives, and the family's choices the tensors reveal.
Status SizesOf(Checkpoint& checkpoint, const CheckpointConfig& config, LlamaSizes* out) {
    const ModelFamily* family = family_of_model_type(config.model_type);
    LlamaSizes s;
    s.family_id = family ? family->id : "";
    if (!LlamaPassRuns(s.family_id))
        return "PE Lab's rotary pass runs Llama, Mistral, Ministral, Qwen2, Qwen3, OLMo 2 and "
               "SmolLM3; model_type \"" +
               config.model_type.substr(0, 40) + "\" is " +
               (family ? std::string("the family ") + family->display + ", not one of them"
                       : std::string("not a family PE Lab knows"));
    s.layers = config.layers;
    s.heads = config.heads;
    s.kv_heads = config.kv_heads > 0 ? config.kv_heads : config.heads;
    s.width = config.hidden;
    s.head_dim = config.HeadWidth();
    s.context = config.max_positions;
    if (s.layers <= 0 || s.heads <= 0 || s.width <= 0 || s.head_dim <= 0)
        return std::string("config.json must give num_hidden_layers, num_attention_heads and "
                           "hidden_size (and head_dim where heads do not split the width)");
    if (s.heads % s.kv_heads != 0)
        return "num_attention_heads (" + std::to_string(s.heads) +
               ") is not a multiple of num_key_value_heads (" + std::to_string(s.kv_heads) + ")";
    // The classes' default ε where config.json gives none (LlamaConfig 1e-6, Olmo2Config 1e-5).
    s.rms_epsilon = config.layer_norm_epsilon > 0 ? config.layer_norm_epsilon
                    : s.family_id == "olmo2"      ? 1e-5
                                                  : 1e-6;
    Status error;
    const TensorInfo* embed = checkpoint.Find("model.embed_tokens.weight", &error);
    if (embed == nullptr)
        return error.ok() ? Status("no token table \"model.embed_tokens.weight\": not a "
                                   "checkpoint of Hugging Face's " +
                                   std::string(family->display) + " layout")
                          : error;
    if (embed->shape.size() != 2 || embed->shape[1] != s.width)
        return "model.embed_tokens.weight is not vocab × hidden_size (" + std::to_string(s.width) +
               " columns)";
    s.vocab = static_cast<int>(std::min<std::int64_t>(embed->shape[0], 1 << 30));
    const TensorInfo* gate = checkpoint.Find("model.layers.0.mlp.gate_proj.weight", &error);
    if (gate == nullptr)
        return error.ok() ? Status("layer 0 has no mlp.gate_proj.weight (a mixture of experts?): "
                                   "PE Lab's rotary pass runs dense models")
                          : error;
    if (gate->shape.size() != 2 || gate->shape[1] != s.width)
        return "model.layers.0.mlp.gate_proj.weight is not intermediate × hidden_size";
    s.intermediate = static_cast<int>(std::min<std::int64_t>(gate->shape[0], 1 << 24));
    s.tied = !checkpoint.Has("lm_head.weight");
    if (s.tied && config.tie_word_embeddings_given && !config.tie_word_embeddings)
        return std::string("config.json's tie_word_embeddings is false, but the checkpoint has "
                           "no lm_head.weight (the output layer)");
    if (!config.hidden_act.empty() && config.hidden_act != "silu" && config.hidden_act != "swish")
        return "config.json's hidden_act \"" + config.hidden_act.substr(0, 40) +
               "\" is not the SiLU the pass computes";
    if (config.vocab_size > 0 && config.vocab_size != s.vocab)
        return "config.json's vocab_size (" + std::to_string(config.vocab_size) +
               ") is not the rows of model.embed_tokens.weight (" + std::to_string(s.vocab) + ")";
    s.output_norms = s.family_id == "olmo2";
    // Qwen3 normalises each head's q and k, OLMo 2 the whole projections (their modeling
    // files); the others have no q_norm.
    s.whole_norms = s.family_id == "olmo2";
    s.head_norms = s.family_id == "qwen3";
    s.schedule = BuildLayerSchedule(config);
    s.notes = s.schedule.notes;
    if (static_cast<int>(s.schedule.layers.size()) != s.layers)
        return std::string("config.json's layer plan does not cover its num_hidden_layers");
    for (const LayerPlan& plan : s.schedule.layers)
        if (plan.rope && plan.pairing != RotaryPairing::HalfSplit)
            return std::string("PE Lab's rotary pass turns half-split pairs, as these families' "
                               "checkpoints hold them; this config's are interleaved");
    *out = std::move(s);
    return {};
}

} // namespace

namespace detail {

namespace {

// The bytes the weights hold, and (as_float32) what they would hold as float32.
std::size_t WeightBytesOf(const LlamaWeights& w, bool as_float32) {
    const auto packed = [as_float32](const auto& each) {
        return as_float32 ? (each.f32.size() + each.bf16.size()) * 4 : each.Bytes();
    };
    std::size_t bytes = packed(w.embed) + packed(w.lm_head) + w.final_norm.size() * 4;
    for (const LlamaLayerWeights& layer : w.layers) {
        for (const PackedWeight* each :
             {&layer.q, &layer.k, &layer.v, &layer.o, &layer.gate, &layer.up, &layer.down})
            bytes += packed(*each);
        for (const std::vector<float>* v :
             {&layer.input_norm, &layer.q_bias, &layer.k_bias, &layer.v_bias, &layer.o_bias,
              &layer.q_norm, &layer.k_norm, &layer.post_attention_norm,
              &layer.post_feedforward_norm, &layer.gate_bias, &layer.up_bias, &layer.down_bias})
            bytes += v->size() * 4;
    }
    return bytes;
}

} // namespace

std::size_t LlamaWeights::Bytes() const {
    return WeightBytesOf(*this, false);
}
std::size_t LlamaWeights::Float32Bytes() const {
    return WeightBytesOf(*this, true);
}

} // namespace detail

std::size_t LlamaModel::WeightBytes() const {
    return weights_ ? weights_->Bytes() : 0;
}
std::size_t LlamaModel::Float32WeightBytes() const {
    return weights_ ? weights_->Float32Bytes() : 0;
}

Status LlamaModel::Load(Checkpoint& checkpoint, const CheckpointConfig& config, LlamaModel* out) {
    LlamaModel model;
    if (Status problem = SizesOf(checkpoint, config, &model.sizes_); !problem.ok()) return problem;
    const LlamaSizes& s = model.sizes_;
    const std::int64_t d = s.width, qw = static_cast<std::int64_t>(s.heads) * s.head_dim,
                       kw = static_cast<std::int64_t>(s.kv_heads) * s.head_dim, ff = s.intermediate;
    auto weights = std::make_shared<detail::LlamaWeights>();
    std::vector<float> table;
    Status problem =
        detail::ReadShaped(checkpoint, "model.embed_tokens.weight", {s.vocab, d}, kModel, &table);
    if (problem.ok()) weights->embed = detail::PackTable(std::move(table), s.vocab, s.width);
    if (problem.ok())
        problem =
            detail::ReadShaped(checkpoint, "model.norm.weight", {d}, kModel, &weights->final_norm);
    if (problem.ok() && !s.tied) {
        problem = detail::ReadShaped(checkpoint, "lm_head.weight", {s.vocab, d}, kModel, &table);
        if (problem.ok()) weights->lm_head = detail::PackTable(std::move(table), s.vocab, s.width);
    }
    bool fp8 = false;        // some projection was fine-grained FP8
    std::vector<float> read; // every projection read into one buffer, then packed
    for (int l = 0; l < s.layers && problem.ok(); ++l) {
        const std::string at = "model.layers." + std::to_string(l) + ".";
        detail::LlamaLayerWeights layer;
        // name, shape, where (a product's matrix: packed, out × in), required
        struct Part {
            const char* name;
            std::vector<std::int64_t> shape;
            std::vector<float>* values;
            detail::PackedWeight* packed;
            bool required;
        };
        const std::vector<Part> parts = {
            {"input_layernorm.weight", {d}, &layer.input_norm, nullptr, !s.output_norms},
            {"self_attn.q_proj.weight", {qw, d}, &read, &layer.q, true},
            {"self_attn.k_proj.weight", {kw, d}, &read, &layer.k, true},
            {"self_attn.v_proj.weight", {kw, d}, &read, &layer.v, true},
            {"self_attn.o_proj.weight", {d, qw}, &read, &layer.o, true},
            // Qwen2's attention always has q, k and v biases (modeling_qwen2.py).
            {"self_attn.q_proj.bias", {qw}, &layer.q_bias, nullptr, s.family_id == "qwen2"},
            {"self_attn.k_proj.bias", {kw}, &layer.k_bias, nullptr, s.family_id == "qwen2"},
            {"self_attn.v_proj.bias", {kw}, &layer.v_bias, nullptr, s.family_id == "qwen2"},
            {"self_attn.o_proj.bias", {d}, &layer.o_bias, nullptr, false},
            {"self_attn.q_norm.weight",
             {s.whole_norms ? qw : s.head_dim},
             &layer.q_norm,
             nullptr,
             s.head_norms || s.whole_norms},
            {"self_attn.k_norm.weight",
             {s.whole_norms ? kw : s.head_dim},
             &layer.k_norm,
             nullptr,
             s.head_norms || s.whole_norms},
            {"post_attention_layernorm.weight", {d}, &layer.post_attention_norm, nullptr, true},
            {"post_feedforward_layernorm.weight",
             {d},
             &layer.post_feedforward_norm,
             nullptr,
             s.output_norms},
            {"mlp.gate_proj.weight", {ff, d}, &read, &layer.gate, true},
            {"mlp.up_proj.weight", {ff, d}, &read, &layer.up, true},
            {"mlp.down_proj.weight", {d, ff}, &read, &layer.down, true},
            {"mlp.gate_proj.bias", {ff}, &layer.gate_bias, nullptr, false},
            {"mlp.up_proj.bias", {ff}, &layer.up_bias, nullptr, false},
            {"mlp.down_proj.bias", {d}, &layer.down_bias, nullptr, false}};
        for (const Part& part : parts) {
            if (!part.required && !checkpoint.Has(at + part.name)) continue;
            bool scaled = false;
            problem = part.packed != nullptr
                          ? detail::ReadShapedWeight(checkpoint, at + part.name, part.shape, kModel,
                                                     config.weight_block, part.values, &scaled)
                          : detail::ReadShaped(checkpoint, at + part.name, part.shape, kModel,
                                               part.values);
            if (!problem.ok()) break;
            fp8 = fp8 || scaled;
            if (part.packed != nullptr)
                *part.packed = detail::PackLinear(*part.values, static_cast<int>(part.shape[0]),
                                                  static_cast<int>(part.shape[1]));
        }
        weights->layers.push_back(std::move(layer));
    }
    if (!problem.ok()) return problem;
    if (checkpoint.Has("model.layers." + std::to_string(s.layers) + ".mlp.gate_proj.weight"))
        return "the checkpoint holds more layers than config.json's num_hidden_layers (" +
               std::to_string(s.layers) + ")";
    if (fp8)
        model.sizes_.notes.push_back(
            "the projections are FP8: each widened to float32 as its 8-bit value times its "
            "block's scale (weight_scale_inv), and the pass computes in float32 (an FP8 kernel "
            "that also rounds the activations to 8 bits gives other numbers)");
    model.weights_ = std::move(weights);
    model.config_ = config;
    model.rope_.resize(s.layers);
    for (int l = 0; l < s.layers; ++l)
        if (s.schedule.layers[l].rope)
            if (Status bad = rope_table_spec(config, l, &model.rope_[l]); !bad.ok()) return bad;
    *out = std::move(model);
    return {};
}

} // namespace pelab
