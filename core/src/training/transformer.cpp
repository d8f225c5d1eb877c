// The tiny transformer's public face (pelab/training/transformer.h): its settings checked, its
// parameters laid out and drawn, and the pass (transformer/pass.cpp) run over the whole batch for
// the loss and its gradient, the logits or one head's attention.
#include "pelab/training/transformer.h"

#include "pelab/base/error.h"
#include "transformer/pass.h"

#include <string>

namespace pelab {

namespace {

void CheckBatch(const TransformerConfig& c, const TokenBatch& batch, bool with_targets) {
    if (batch.size < 1 || batch.length < 1)
        throw InvalidArgument("a batch needs at least one sequence of at least one token (got " +
                              std::to_string(batch.size) + " × " + std::to_string(batch.length) +
                              ")");
    if (batch.length > c.max_len)
        throw InvalidArgument("sequence length " + std::to_string(batch.length) +
                              " is longer than the model's max_len " + std::to_string(c.max_len));
    const std::size_t count =
        static_cast<std::size_t>(batch.size) * static_cast<std::size_t>(batch.length);
    if (batch.tokens.size() != count || (with_targets && batch.targets.size() != count))
        throw InvalidArgument("a batch of " + std::to_string(batch.size) + " × " +
                              std::to_string(batch.length) + " needs that many tokens and targets");
    for (std::size_t k = 0; k < count; ++k) {
        if (batch.tokens[k] < 0 || batch.tokens[k] >= c.vocab)
            throw InvalidArgument("token " + std::to_string(batch.tokens[k]) +
                                  " is outside the vocabulary [0, " + std::to_string(c.vocab) +
                                  ")");
        if (with_targets && (batch.targets[k] < -1 || batch.targets[k] >= c.vocab))
            throw InvalidArgument("target " + std::to_string(batch.targets[k]) +
                                  " is outside the vocabulary (or −1: not scored)");
    }
}

} // namespace

void validate_transformer_config(const TransformerConfig& c) {
    const auto in = [](const char* name, int value, int low, int high) {
        if (value < low || value > high)
            throw InvalidArgument(std::string(name) + " must be in [" + std::to_string(low) + ", " +
                                  std::to_string(high) + "] (got " + std::to_string(value) + ")");
    };
    in("vocab", c.vocab, 2, 4096);
    in("d_model", c.d_model, 4, 512);
    in("layers", c.layers, 1, 8);
    in("heads", c.heads, 1, 16);
    in("mlp_ratio", c.mlp_ratio, 1, 8);
    in("max_len", c.max_len, 1, 65536);
    if (c.d_model % c.heads != 0 || (c.d_model / c.heads) % 2 != 0)
        throw InvalidArgument("d_model " + std::to_string(c.d_model) + " must split into " +
                              std::to_string(c.heads) +
                              " heads of an even width (RoPE turns pairs)");
    if (!(c.base >= 10 && c.base <= 1e6))
        throw InvalidArgument("base must be in [10, 1e6] (got " + std::to_string(c.base) + ")");
    if (positional_kind_causal_only(c.positional) && !c.causal)
        throw InvalidArgument(std::string(positional_kind_name(c.positional)) +
                              " is defined for causal models only: train it with causal "
                              "attention (keys after the query masked: the causal box, or "
                              "--causal)");
    trainer::MethodFor(c.positional).validate(c);
}

bool layer_without_positions(const TransformerConfig& config, int layer) {
    return trainer::MethodFor(config.positional).layer_pattern && config.options.nope_every > 0 &&
           (layer + 1) % config.options.nope_every == 0;
}

template <typename Scalar>
TinyTransformer<Scalar>::TinyTransformer(const TransformerConfig& config, std::uint64_t seed)
    : config_(config) {
    validate_transformer_config(config);
    const std::vector<trainer::SlotSpec> specs = trainer::SlotSpecs(config);
    for (const trainer::SlotSpec& spec : specs)
        slots_.push_back(spec.slot);
    parameters_ = trainer::InitialParameters<Scalar>(specs, seed);
}

template <typename Scalar>
const ParameterSlot& TinyTransformer<Scalar>::slot(const std::string& name) const {
    for (const ParameterSlot& s : slots_)
        if (s.name == name) return s;
    throw InvalidArgument("the model has no parameter \"" + name + "\"");
}

template <typename Scalar>
Scalar TinyTransformer<Scalar>::loss(const TokenBatch& batch, std::vector<Scalar>* gradient) const {
    CheckBatch(config_, batch, true);
    const trainer::ParameterLayout layout = trainer::LayoutOf(slots_, config_);
    long scored = 0;
    for (const int target : batch.targets)
        scored += target >= 0 ? 1 : 0;
    if (gradient != nullptr) gradient->assign(parameters_.size(), Scalar(0));
    if (scored == 0) return Scalar(0);
    double loss_sum = 0;
    trainer::PassRequest<Scalar> request;
    request.batch = batch.size;
    request.length = batch.length;
    request.loss_scale = Scalar(1) / static_cast<Scalar>(scored);
    request.loss_sum = &loss_sum;
    request.gradient = gradient != nullptr ? gradient->data() : nullptr;
    request.tokens = batch.tokens.data();
    request.targets = batch.targets.data();
    trainer::RunBatch(config_, layout, parameters_.data(), request);
    return static_cast<Scalar>(loss_sum);
}

template <typename Scalar>
std::vector<Scalar> TinyTransformer<Scalar>::logits(const TokenBatch& batch) const {
    CheckBatch(config_, batch, false);
    const trainer::ParameterLayout layout = trainer::LayoutOf(slots_, config_);
    const std::size_t n = static_cast<std::size_t>(batch.length);
    std::vector<Scalar> out(static_cast<std::size_t>(batch.size) * n * config_.vocab);
    trainer::PassRequest<Scalar> request;
    request.batch = batch.size;
    request.length = batch.length;
    request.tokens = batch.tokens.data();
    request.logits = out.data();
    request.measuring = true;
    trainer::RunBatch(config_, layout, parameters_.data(), request);
    return out;
}

template <typename Scalar>
std::vector<Scalar> TinyTransformer<Scalar>::attention(const std::vector<int>& tokens, int layer,
                                                       int head) const {
    TokenBatch batch;
    batch.size = 1;
    batch.length = static_cast<int>(tokens.size());
    batch.tokens = tokens;
    CheckBatch(config_, batch, false);
    if (layer < 0 || layer >= config_.layers || head < 0 || head >= config_.heads)
        throw InvalidArgument("no layer " + std::to_string(layer) + ", head " +
                              std::to_string(head) + " in this model");
    const trainer::ParameterLayout layout = trainer::LayoutOf(slots_, config_);
    std::vector<Scalar> weights(tokens.size() * tokens.size());
    trainer::PassRequest<Scalar> request;
    request.tokens = tokens.data();
    request.length = batch.length;
    request.attention_layer = layer;
    request.attention_head = head;
    request.attention = weights.data();
    request.measuring = true;
    trainer::RunBatch(config_, layout, parameters_.data(), request);
    return weights;
}

template class TinyTransformer<float>;
template class TinyTransformer<double>;

} // namespace pelab
