// gpt2.cpp — GPT-2's forward pass on a checkpoint's weights, its positions through one switch
// (pelab/models/gpt2.h). The products go through the trainer's Gemm (the same bits on every CPU
// path), split by columns over threads; LayerNorm and attention are the trainer's own operations.
#include "pelab/models/gpt2.h"

#include "models/dense_products.h"
#include "models/shaped_read.h"
#include "pelab/base/error.h"
#include "pelab/encodings/sinusoidal.h"
#include "positional/method.h"
#include "transformer/operations.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace pelab {

namespace {

using detail::PackPanels;
using detail::Product;
using trainer::Mat;

// y = x·W + b with W stored in × out (GPT-2's Conv1D).
Mat<float> Conv1D(const Mat<float>& x, const std::vector<float>& weight,
                  const std::vector<float>& bias, int threads) {
    const int out = static_cast<int>(bias.size());
    Mat<float> y(x.rows(), out);
    Product(x.data(), static_cast<int>(x.rows()), static_cast<int>(x.cols()), weight.data(), out,
            y.data(), threads);
    y.rowwise() += trainer::ConstMapRow<float>(bias.data(), out);
    return y;
}

// The MLP's activation, in place (float32, as PyTorch computes each in float32).
void Activate(Gpt2Activation activation, Mat<float>& z) {
    float* values = z.data();
    const Eigen::Index count = z.size();
    const auto sigmoid = [](float v) { return 1.0f / (1.0f + std::exp(-v)); };
    switch (activation) {
    case Gpt2Activation::GeluTanh: {
        const float c = std::sqrt(2.0f / static_cast<float>(M_PI));
        for (Eigen::Index i = 0; i < count; ++i) {
            const float v = values[i];
            values[i] = 0.5f * v * (1.0f + std::tanh(c * (v + 0.044715f * v * v * v)));
        }
        break;
    }
    case Gpt2Activation::GeluErf:
        for (Eigen::Index i = 0; i < count; ++i)
            values[i] = 0.5f * values[i] * (1.0f + std::erf(values[i] / std::sqrt(2.0f)));
        break;
    case Gpt2Activation::Relu:
        for (Eigen::Index i = 0; i < count; ++i)
            values[i] = std::max(values[i], 0.0f);
        break;
    case Gpt2Activation::Silu:
        for (Eigen::Index i = 0; i < count; ++i)
            values[i] = values[i] * sigmoid(values[i]);
        break;
    case Gpt2Activation::QuickGelu:
        for (Eigen::Index i = 0; i < count; ++i)
            values[i] = values[i] * sigmoid(1.702f * values[i]);
        break;
    case Gpt2Activation::Tanh:
        for (Eigen::Index i = 0; i < count; ++i)
            values[i] = std::tanh(values[i]);
        break;
    }
}

} // namespace

bool Gpt2ActivationFromName(const std::string& name, Gpt2Activation* out) {
    static constexpr struct {
        const char* name;
        Gpt2Activation activation;
    } kNames[] = {{"gelu_new", Gpt2Activation::GeluTanh},
                  {"gelu_pytorch_tanh", Gpt2Activation::GeluTanh},
                  {"gelu_fast", Gpt2Activation::GeluTanh},
                  {"gelu", Gpt2Activation::GeluErf},
                  {"gelu_python", Gpt2Activation::GeluErf},
                  {"relu", Gpt2Activation::Relu},
                  {"silu", Gpt2Activation::Silu},
                  {"swish", Gpt2Activation::Silu},
                  {"quick_gelu", Gpt2Activation::QuickGelu},
                  {"tanh", Gpt2Activation::Tanh}};
    for (const auto& each : kNames)
        if (name == each.name) {
            *out = each.activation;
            return true;
        }
    return false;
}

namespace {

// The sizes of the tables and config.json together, and the config keys that change the
// computation (computed as they say, or refused by name): "" or why they disagree.
Status SizesOf(Checkpoint& checkpoint, const std::string& prefix, const CheckpointConfig& config,
               Gpt2Sizes* out) {
    Status error;
    const TensorInfo* wte = checkpoint.Find(prefix + "wte.weight", &error);
    const TensorInfo* wpe = checkpoint.Find(prefix + "wpe.weight", &error);
    if (wte == nullptr || wpe == nullptr)
        return "no GPT-2 position table (\"" + prefix + "wpe.weight\")";
    if (wte->shape.size() != 2 || wpe->shape.size() != 2 || wte->shape[1] != wpe->shape[1])
        return "GPT-2's wte.weight and wpe.weight must be 2-D tables of the same width";
    Gpt2Sizes sizes;
    sizes.vocab = static_cast<int>(std::min<std::int64_t>(wte->shape[0], 1 << 30));
    sizes.width = static_cast<int>(std::min<std::int64_t>(wte->shape[1], 1 << 20));
    sizes.context = static_cast<int>(std::min<std::int64_t>(wpe->shape[0], 1 << 30));
    sizes.layers = config.layers;
    sizes.heads = config.heads;
    if (config.layer_norm_epsilon > 0) sizes.layer_norm_epsilon = config.layer_norm_epsilon;
    if (sizes.layers <= 0 || sizes.heads <= 0)
        return "config.json gives no n_layer and n_head (GPT-2 needs both)";
    if (config.hidden > 0 && config.hidden != sizes.width)
        return "config.json's n_embd (" + std::to_string(config.hidden) +
               ") is not the width of wte.weight (" + std::to_string(sizes.width) + ")";
    if (sizes.width % sizes.heads != 0)
        return "n_embd " + std::to_string(sizes.width) + " does not split into " +
               std::to_string(sizes.heads) + " heads";
    if (sizes.vocab < 1 || sizes.context < 1 || sizes.width < 1)
        return "GPT-2's tables must have at least one row and column";
    if (config.vocab_size > 0 && config.vocab_size != sizes.vocab)
        return "config.json's vocab_size (" + std::to_string(config.vocab_size) +
               ") is not the number of rows of wte.weight (" + std::to_string(sizes.vocab) + ")";
    // The keys that change the computation: computed as they say, or refused by name.
    if (!config.activation.empty() && !Gpt2ActivationFromName(config.activation, &sizes.activation))
        return "config.json's activation_function \"" + config.activation.substr(0, 40) +
               "\" is not one PE Lab computes (gelu_new, gelu_pytorch_tanh, gelu_fast, gelu, "
               "gelu_python, relu, silu, swish, quick_gelu, tanh)";
    for (int layer = 0; layer < sizes.layers; ++layer)
        sizes.score_scale.push_back(
            (config.scale_attn_weights
                 ? 1.0 / std::sqrt(static_cast<double>(sizes.width) / sizes.heads)
                 : 1.0) /
            (config.scale_attn_by_inverse_layer_idx ? layer + 1.0 : 1.0));
    if (config.reorder_and_upcast_attn)
        sizes.notes.push_back("reorder_and_upcast_attn is true: it computes the scores in float32, "
                              "as PE Lab's pass always does, so it changes nothing here");
    if (const TensorInfo* head = checkpoint.Find("lm_head.weight", &error);
        head != nullptr && head->shape != std::vector<std::int64_t>{sizes.vocab, sizes.width})
        return "tensor \"lm_head.weight\" is not vocab × width (" + std::to_string(sizes.vocab) +
               " × " + std::to_string(sizes.width) +
               "): GPT-2's output layer is its token table wte.weight, and this one does not fit "
               "it";
    *out = std::move(sizes);
    return {};
}

} // namespace

Status Gpt2Model::Load(Checkpoint& checkpoint, const CheckpointConfig& config, Gpt2Model* out) {
    // Names with or without the LM head model's "transformer." prefix.
    std::string prefix;
    if (!checkpoint.Has("wte.weight")) {
        if (!checkpoint.Has("transformer.wte.weight"))
            return "no GPT-2 token table (\"wte.weight\" or \"transformer.wte.weight\"): not a "
                   "GPT-2 checkpoint";
        prefix = "transformer.";
    }
    Gpt2Sizes sizes;
    if (Status problem = SizesOf(checkpoint, prefix, config, &sizes); !problem.ok()) return problem;
    const auto read = [&](const std::string& name, const std::vector<std::int64_t>& shape,
                          std::vector<float>* values) {
        return detail::ReadShaped(checkpoint, prefix + name, shape, "GPT-2 of this config", values);
    };
    Gpt2Model model;
    model.sizes_ = sizes;
    const std::int64_t d = sizes.width;
    Status problem = read("wte.weight", {sizes.vocab, d}, &model.token_table_);
    if (problem.ok()) problem = read("wpe.weight", {sizes.context, d}, &model.position_table_);
    if (problem.ok()) problem = read("ln_f.weight", {d}, &model.final_weight_);
    if (problem.ok()) problem = read("ln_f.bias", {d}, &model.final_bias_);
    for (int layer = 0; layer < sizes.layers && problem.ok(); ++layer) {
        const std::string h = "h." + std::to_string(layer) + ".";
        Block block;
        const struct {
            const char* name;
            std::vector<std::int64_t> shape;
            std::vector<float>* values;
        } parts[] = {{"ln_1.weight", {d}, &block.ln1_weight},
                     {"ln_1.bias", {d}, &block.ln1_bias},
                     {"attn.c_attn.weight", {d, 3 * d}, &block.attn_weight},
                     {"attn.c_attn.bias", {3 * d}, &block.attn_bias},
                     {"attn.c_proj.weight", {d, d}, &block.proj_weight},
                     {"attn.c_proj.bias", {d}, &block.proj_bias},
                     {"ln_2.weight", {d}, &block.ln2_weight},
                     {"ln_2.bias", {d}, &block.ln2_bias},
                     {"mlp.c_fc.weight", {d, 4 * d}, &block.fc_weight},
                     {"mlp.c_fc.bias", {4 * d}, &block.fc_bias},
                     {"mlp.c_proj.weight", {4 * d, d}, &block.mproj_weight},
                     {"mlp.c_proj.bias", {d}, &block.mproj_bias}};
        for (const auto& part : parts) {
            problem = read(h + part.name, part.shape, part.values);
            if (!problem.ok()) break;
            if (part.shape.size() == 2) // the products' weights, packed once (PackPanels)
                *part.values = PackPanels(*part.values, static_cast<int>(part.shape[0]),
                                          static_cast<int>(part.shape[1]));
        }
        model.blocks_.push_back(std::move(block));
    }
    if (!problem.ok()) return problem;
    // A config of fewer blocks, or another context, than the checkpoint holds: not this model.
    if (checkpoint.Has(prefix + "h." + std::to_string(sizes.layers) + ".ln_1.weight"))
        return "the checkpoint holds more blocks than config.json's n_layer (" +
               std::to_string(sizes.layers) + ")";
    if (config.max_positions > 0 && config.max_positions != sizes.context)
        return "config.json's n_positions (" + std::to_string(config.max_positions) +
               ") is not the number of rows of wpe.weight (" + std::to_string(sizes.context) + ")";
    *out = std::move(model);
    return {};
}

std::vector<float> Gpt2Model::PositionRows(const PositionChoice& choice, int n) const {
    const int d = sizes_.width, context = sizes_.context;
    if (n < 1 || n > context)
        throw InvalidArgument("GPT-2 reads 1 to " + std::to_string(context) + " tokens (got " +
                              std::to_string(n) + ")");
    std::vector<float> rows(static_cast<std::size_t>(n) * d, 0.0f);
    const auto copy_row = [&](int token, int row) {
        std::copy_n(position_table_.begin() + static_cast<std::ptrdiff_t>(row) * d, d,
                    rows.begin() + static_cast<std::ptrdiff_t>(token) * d);
    };
    switch (choice.kind) {
    case PositionSwitch::Trained:
        for (int t = 0; t < n; ++t)
            copy_row(t, t);
        break;
    case PositionSwitch::Zeroed:
        break;
    case PositionSwitch::Shuffled: {
        const std::vector<int> order = ShuffleOrder(n, choice.seed);
        for (int t = 0; t < n; ++t)
            copy_row(t, order[t]);
        break;
    }
    case PositionSwitch::Shifted:
        if (choice.shift < 0 || choice.shift > context - n)
            throw InvalidArgument(
                "shifted by " + std::to_string(choice.shift) + ", " +
                (n == 1 ? std::string("the token") : "the " + std::to_string(n) + " tokens") +
                " would run past the table's " + std::to_string(context) + " rows (shift at most " +
                std::to_string(context - n) + ")");
        for (int t = 0; t < n; ++t)
            copy_row(t, t + choice.shift);
        break;
    case PositionSwitch::Same:
        if (choice.same_row < 0 || choice.same_row >= context)
            throw InvalidArgument("row " + std::to_string(choice.same_row) +
                                  " is past the table's " + std::to_string(context) + " rows");
        for (int t = 0; t < n; ++t)
            copy_row(t, choice.same_row);
        break;
    case PositionSwitch::MeanRow: {
        std::vector<double> mean(static_cast<std::size_t>(d), 0.0);
        for (int r = 0; r < context; ++r)
            for (int c = 0; c < d; ++c)
                mean[c] += position_table_[static_cast<std::size_t>(r) * d + c];
        for (int t = 0; t < n; ++t)
            for (int c = 0; c < d; ++c)
                rows[static_cast<std::size_t>(t) * d + c] = static_cast<float>(mean[c] / context);
        break;
    }
    case PositionSwitch::Sinusoidal: {
        // Scaled so its rows (each of norm √(d/2) unscaled) have the table's mean row norm.
        double norms = 0;
        for (int r = 0; r < context; ++r) {
            double squares = 0;
            for (int c = 0; c < d; ++c)
                squares +=
                    static_cast<double>(position_table_[static_cast<std::size_t>(r) * d + c]) *
                    position_table_[static_cast<std::size_t>(r) * d + c];
            norms += std::sqrt(squares);
        }
        const int even = d - d % 2;
        if (even < 2) throw InvalidArgument("a sinusoidal table needs a width of at least 2");
        const double scale = norms / context / std::sqrt(even / 2.0);
        const FloatArray sinusoid = pe_matrix(n, even, 10000.0);
        for (int t = 0; t < n; ++t)
            for (int c = 0; c < even; ++c)
                rows[static_cast<std::size_t>(t) * d + c] =
                    static_cast<float>(sinusoid[static_cast<std::size_t>(t) * even + c] * scale);
        break;
    }
    }
    return rows;
}

Gpt2Pass Gpt2Model::Run(const std::vector<int>& tokens, const PositionChoice& choice,
                        const Gpt2Options& options) const {
    const int n = static_cast<int>(tokens.size());
    const int d = sizes_.width, heads = sizes_.heads, vocab = sizes_.vocab;
    for (int token : tokens)
        if (token < 0 || token >= vocab)
            throw InvalidArgument("token id " + std::to_string(token) + " is not in the " +
                                  std::to_string(vocab) + "-word vocabulary");
    Gpt2Pass pass;
    pass.tokens = n;
    pass.positions = PositionRows(choice, n); // checks n
    pass.all_logits = options.all_logits;
    const int threads = std::max(1, options.threads);

    Mat<float> x(n, d);
    for (int t = 0; t < n; ++t)
        for (int c = 0; c < d; ++c)
            x(t, c) = token_table_[static_cast<std::size_t>(tokens[t]) * d + c] +
                      pass.positions[static_cast<std::size_t>(t) * d + c];
    const auto keep_state = [&] {
        pass.states.insert(pass.states.end(), x.data(), x.data() + x.size());
    };
    keep_state();
    const trainer::PositionalHooks<float> no_positions; // GPT-2 adds its positions at the input
    pass.attention.reserve(static_cast<std::size_t>(sizes_.layers) * heads * n * n);
    for (const Block& block : blocks_) {
        trainer::LayerNormCache<float> norm_cache;
        const Mat<float> a =
            trainer::LayerNormForward(x, block.ln1_weight.data(), block.ln1_bias.data(), norm_cache,
                                      sizes_.layer_norm_epsilon);
        Mat<float> qkv = Conv1D(a, block.attn_weight, block.attn_bias, threads);
        // The pass divides the scores by √d_h; another scale (config.json's
        // scale_attn_weights, scale_attn_by_inverse_layer_idx) is folded into q.
        const double default_scale = 1.0 / std::sqrt(static_cast<double>(d) / heads);
        const double scale = sizes_.score_scale[static_cast<std::size_t>(&block - blocks_.data())];
        if (scale != default_scale) qkv.leftCols(d) *= static_cast<float>(scale / default_scale);
        trainer::AttentionCache<float> attention_cache;
        const Mat<float> attended =
            trainer::AttentionForward(qkv, n, heads, true, no_positions, attention_cache);
        for (const Mat<float>& weights : attention_cache.weights)
            pass.attention.insert(pass.attention.end(), weights.data(),
                                  weights.data() + weights.size());
        x += Conv1D(attended, block.proj_weight, block.proj_bias, threads);
        const Mat<float> m =
            trainer::LayerNormForward(x, block.ln2_weight.data(), block.ln2_bias.data(), norm_cache,
                                      sizes_.layer_norm_epsilon);
        Mat<float> hidden = Conv1D(m, block.fc_weight, block.fc_bias, threads);
        Activate(sizes_.activation, hidden);
        x += Conv1D(hidden, block.mproj_weight, block.mproj_bias, threads);
        keep_state();
    }
    trainer::LayerNormCache<float> norm_cache;
    const Mat<float> final_rows = trainer::LayerNormForward(
        x, final_weight_.data(), final_bias_.data(), norm_cache, sizes_.layer_norm_epsilon);
    // logitsᵀ = wte · hᵀ (vocab × m, m the tokens whose logits are wanted): the tied token table
    // read as it is stored, its rows split over the threads.
    const int first = options.all_logits ? 0 : n - 1, m = n - first;
    Mat<float> h_t = final_rows.bottomRows(m).transpose(); // d × m
    Mat<float> logits_t(vocab, m);
    detail::TableProduct(token_table_.data(), vocab, d, h_t.data(), m, logits_t.data(), threads);
    pass.logits.resize(static_cast<std::size_t>(m) * vocab);
    for (int r = 0; r < m; ++r)
        for (int v = 0; v < vocab; ++v)
            pass.logits[static_cast<std::size_t>(r) * vocab + v] = logits_t(v, r);
    pass.loss = MeanNextTokenLoss(pass, tokens, vocab);
    return pass;
}

double MeanNextTokenLoss(const Gpt2Pass& pass, const std::vector<int>& tokens, int vocab) {
    const int n = static_cast<int>(tokens.size());
    if (!pass.all_logits || n < 2) return 0;
    double total = 0;
    for (int t = 0; t + 1 < n; ++t) {
        const float* row = pass.logits.data() + static_cast<std::size_t>(t) * vocab;
        const double top = *std::max_element(row, row + vocab);
        double sum = 0;
        for (int v = 0; v < vocab; ++v)
            sum += std::exp(row[v] - top);
        total += top + std::log(sum) - row[tokens[t + 1]];
    }
    return total / (n - 1);
}

} // namespace pelab
