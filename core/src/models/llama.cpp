// llama.cpp — a Llama-family forward pass on a checkpoint's weights, its rotations through one
// switch (pelab/models/llama.h). The products go through the trainer's Gemm in column panels
// (dense_products.h), as GPT-2's pass; RMSNorm, RoPE and attention are written here in float32,
// each step rounded as PyTorch's float32 kernels round it.
#include "pelab/models/llama.h"

#include "base/format.h"
#include "models/dense_products.h"
#include "models/llama_weights.h"
#include "models/shaped_read.h"
#include "pelab/base/error.h"
#include "pelab/models/families.h"
#include "pelab/models/rope_tables.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace pelab {

namespace {

// y (rows × out) = x (rows × in) · W (packed in × out) + bias (empty: none).
std::vector<float> Linear(const std::vector<float>& x, int rows, int /*in*/,
                          const detail::PackedWeight& w, const std::vector<float>& bias, int out,
                          int threads) {
    std::vector<float> y(static_cast<std::size_t>(rows) * out);
    detail::Product(x.data(), rows, w, y.data(), threads);
    if (!bias.empty())
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < out; ++c)
                y[static_cast<std::size_t>(r) * out + c] += bias[c];
    return y;
}

// Hugging Face's RMSNorm over groups of `width` numbers in place: x · 1/√(mean(x²) + ε) · weight,
// the mean of squares accumulated in float32 as torch's mean of a float32 tensor.
void RmsNorm(std::vector<float>* values, int width, const std::vector<float>& weight,
             double epsilon) {
    for (std::size_t start = 0; start < values->size(); start += width) {
        float* x = values->data() + start;
        double squares = 0;
        for (int c = 0; c < width; ++c)
            squares += static_cast<double>(x[c]) * x[c];
        const float variance = static_cast<float>(squares / width);
        const float scale = 1.0f / std::sqrt(variance + static_cast<float>(epsilon));
        for (int c = 0; c < width; ++c)
            x[c] = weight[c] * (x[c] * scale);
    }
}

// Turns the first 2·pairs dimensions of each of `heads` heads (width head_dim) of n rows by the
// cos and sin tables (n × pairs): pairs (i, i + pairs) when half-split, (2i, 2i + 1) interleaved.
void Rotate(std::vector<float>* x, int n, int heads, int head_dim, int pairs,
            const std::vector<double>& cos, const std::vector<double>& sin, RotaryPairing pairing) {
    for (int t = 0; t < n; ++t)
        for (int h = 0; h < heads; ++h) {
            float* head = x->data() + (static_cast<std::size_t>(t) * heads + h) * head_dim;
            for (int i = 0; i < pairs; ++i) {
                const float c = static_cast<float>(cos[static_cast<std::size_t>(t) * pairs + i]);
                const float s = static_cast<float>(sin[static_cast<std::size_t>(t) * pairs + i]);
                const int a = pairing == RotaryPairing::HalfSplit ? i : 2 * i;
                const int b = pairing == RotaryPairing::HalfSplit ? i + pairs : 2 * i + 1;
                const float xa = head[a], xb = head[b];
                head[a] = xa * c - xb * s;
                head[b] = xb * c + xa * s;
            }
        }
}

// Causal attention of every head over the n rows of q (n × heads·d), k and v (n × kv·d): each
// head reads key head h / (heads / kv); window > 0 limits a query to the last `window` keys.
// The weights (heads × n × n) go to *weights, the concatenated outputs are returned.
std::vector<float> Attend(const std::vector<float>& q, const std::vector<float>& k,
                          const std::vector<float>& v, int n, int heads, int kv, int d,
                          long long window, std::vector<float>* weights) {
    std::vector<float> out(static_cast<std::size_t>(n) * heads * d, 0.0f);
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
    // Every row kept in *weights, or (weights null) each row in turn in one buffer.
    const std::size_t first = weights ? weights->size() : 0;
    if (weights) weights->resize(first + static_cast<std::size_t>(heads) * n * n, 0.0f);
    std::vector<float> scores(n), row_buffer(weights ? 0 : n);
    for (int h = 0; h < heads; ++h) {
        const int g = h / (heads / kv);
        for (int t = 0; t < n; ++t) {
            const float* query = q.data() + (static_cast<std::size_t>(t) * heads + h) * d;
            const int from = window > 0 ? static_cast<int>(std::max(0LL, t - window + 1)) : 0;
            float top = -INFINITY;
            for (int s = from; s <= t; ++s) {
                const float* key = k.data() + (static_cast<std::size_t>(s) * kv + g) * d;
                float dot = 0;
                for (int c = 0; c < d; ++c)
                    dot += query[c] * key[c];
                scores[s] = dot * scale;
                top = std::max(top, scores[s]);
            }
            double sum = 0;
            for (int s = from; s <= t; ++s)
                sum += std::exp(static_cast<double>(scores[s] - top));
            float* row = weights
                             ? weights->data() + first + (static_cast<std::size_t>(h) * n + t) * n
                             : row_buffer.data();
            float* result = out.data() + (static_cast<std::size_t>(t) * heads + h) * d;
            for (int s = from; s <= t; ++s) {
                row[s] = static_cast<float>(std::exp(static_cast<double>(scores[s] - top)) / sum);
                const float* value = v.data() + (static_cast<std::size_t>(s) * kv + g) * d;
                for (int c = 0; c < d; ++c)
                    result[c] += row[s] * value[c];
            }
        }
    }
    return out;
}

// The number after "name:" in text, or false.
bool NumberAfter(const std::string& text, const std::string& name, double* out) {
    if (text.rfind(name + ":", 0) != 0) return false;
    const std::string rest = text.substr(name.size() + 1);
    char* end = nullptr;
    const double value = std::strtod(rest.c_str(), &end);
    if (rest.empty() || end != rest.c_str() + rest.size() || !std::isfinite(value)) return false;
    *out = value;
    return true;
}

} // namespace

namespace {

std::string SwitchName(const RotaryChoice& choice) {
    switch (choice.kind) {
    case RotarySwitch::Trained:
        return "trained";
    case RotarySwitch::None:
        return "none";
    case RotarySwitch::Pairing:
        return "pairing";
    case RotarySwitch::Base:
        return detail::concat("base:", choice.base_factor);
    case RotarySwitch::Shift:
        return detail::concat("shift:", choice.shift);
    case RotarySwitch::ScalingOff:
        return "scaling-off";
    case RotarySwitch::NopeFrom:
        return detail::concat("nope-from:", choice.nope_from);
    }
    return "trained";
}

} // namespace

std::string RotaryChoiceName(const RotaryChoice& choice) {
    return SwitchName(choice) + (choice.bf16_tables ? "/bf16" : "");
}

Status ParseRotaryChoice(const std::string& named, RotaryChoice* out) {
    RotaryChoice choice;
    double value = 0;
    constexpr const char* kBf16 = "/bf16";
    const bool bf16 = named.size() > 5 && named.compare(named.size() - 5, 5, kBf16) == 0;
    const std::string text = bf16 ? named.substr(0, named.size() - 5) : named;
    choice.bf16_tables = bf16;
    if (text == "trained") {
    } else if (text == "none") {
        choice.kind = RotarySwitch::None;
    } else if (text == "pairing") {
        choice.kind = RotarySwitch::Pairing;
    } else if (text == "scaling-off") {
        choice.kind = RotarySwitch::ScalingOff;
    } else if (NumberAfter(text, "base", &value)) {
        if (!(value >= 1e-6 && value <= 1e6))
            return "base:K: the base's factor K must be a number in [1e-6, 1e6] (got " +
                   text.substr(5) + ")";
        choice.kind = RotarySwitch::Base;
        choice.base_factor = value;
    } else if (NumberAfter(text, "shift", &value)) {
        if (!(value >= 0 && value <= 1e9 && value == std::floor(value)))
            return "shift:K: K must be a whole number of positions in [0, 10⁹] (got " +
                   text.substr(6) + ")";
        choice.kind = RotarySwitch::Shift;
        choice.shift = static_cast<long long>(value);
    } else if (NumberAfter(text, "nope-from", &value)) {
        if (!(value >= 0 && value <= 100000 && value == std::floor(value)))
            return "nope-from:L: L must be a layer index, a whole number from 0 (got " +
                   text.substr(10) + ")";
        choice.kind = RotarySwitch::NopeFrom;
        choice.nope_from = static_cast<int>(value);
    } else {
        return "positions \"" + text.substr(0, 40) +
               "\" is not one of trained, none, pairing, base:K, shift:K, scaling-off, "
               "nope-from:L (each may end in /bf16)";
    }
    *out = choice;
    return {};
}

std::string RotaryChoiceNote(const LlamaSizes& sizes, const RotaryChoice& choice, int tokens) {
    const std::string name = RotaryChoiceName(choice);
    bool scaled = false, rotates = false;
    for (const LayerPlan& plan : sizes.schedule.layers) {
        rotates = rotates || plan.rope;
        scaled =
            scaled || (plan.rope && !plan.scaling.type.empty() && plan.scaling.type != "default");
    }
    if (!rotates && choice.kind != RotarySwitch::Trained)
        return name + ": no layer of this model rotates, so it changes nothing";
    if (choice.kind == RotarySwitch::NopeFrom && choice.nope_from >= sizes.layers)
        return detail::concat(name, ": the model's layers are 0 to ", sizes.layers - 1,
                              ", so it changes nothing");
    if ((choice.kind == RotarySwitch::Shift && choice.shift == 0) ||
        (choice.kind == RotarySwitch::Base && choice.base_factor == 1))
        return name + ": it leaves every position and base as trained, so it changes nothing";
    if (choice.kind == RotarySwitch::ScalingOff && !scaled)
        return name + ": no layer's RoPE is scaled, so it changes nothing";
    // transformers forms p·θ in float32: past 2²⁴ consecutive positions round to the same float.
    constexpr long long kExactPositions = 1LL << 24;
    if (choice.kind == RotarySwitch::Shift && choice.shift + tokens > kExactPositions)
        return detail::concat(
            name,
            ": past position 16 777 216, float32 (in which transformers forms the angles) "
            "holds one position in ",
            1LL << std::max(1, static_cast<int>(std::ceil(
                                   std::log2(static_cast<double>(choice.shift + tokens)))) -
                                   24),
            ", so neighbouring tokens share their angles");
    return {};
}

bool LlamaPassRuns(const std::string& family_id) {
    static const char* const kRuns[] = {"llama", "mistral", "ministral", "qwen2",
                                        "qwen3", "olmo2",   "smollm3"};
    return std::any_of(std::begin(kRuns), std::end(kRuns),
                       [&](const char* id) { return family_id == id; });
}

// Load: llama_load.cpp.

Gpt2Pass LlamaModel::Run(const std::vector<int>& tokens, const RotaryChoice& choice,
                         const Gpt2Options& options) const {
    const LlamaSizes& s = sizes_;
    const int n = static_cast<int>(tokens.size());
    if (n < 1) throw InvalidArgument("the pass needs at least one token");
    for (int token : tokens)
        if (token < 0 || token >= s.vocab)
            throw InvalidArgument("token id " + std::to_string(token) + " is not in the " +
                                  std::to_string(s.vocab) + "-word vocabulary");
    const int d = s.width, hd = s.head_dim, qw = s.heads * hd, kw = s.kv_heads * hd;
    const int threads = std::max(1, options.threads);
    Gpt2Pass pass;
    pass.tokens = n;
    pass.all_logits = options.all_logits;
    std::vector<float> x(static_cast<std::size_t>(n) * d);
    for (int t = 0; t < n; ++t)
        weights_->embed.Row(tokens[t], x.data() + static_cast<std::ptrdiff_t>(t) * d);
    pass.states.insert(pass.states.end(), x.begin(), x.end());
    const long long first_position = choice.kind == RotarySwitch::Shift ? choice.shift : 0;
    for (int l = 0; l < s.layers; ++l) {
        const detail::LlamaLayerWeights& layer = weights_->layers[l];
        const LayerPlan& plan = s.schedule.layers[l];
        std::vector<float> a = x;
        if (!layer.input_norm.empty()) RmsNorm(&a, d, layer.input_norm, s.rms_epsilon);
        std::vector<float> q = Linear(a, n, d, layer.q, layer.q_bias, qw, threads);
        std::vector<float> k = Linear(a, n, d, layer.k, layer.k_bias, kw, threads);
        const std::vector<float> v = Linear(a, n, d, layer.v, layer.v_bias, kw, threads);
        if (s.whole_norms) {
            RmsNorm(&q, qw, layer.q_norm, s.rms_epsilon);
            RmsNorm(&k, kw, layer.k_norm, s.rms_epsilon);
        } else if (s.head_norms) {
            RmsNorm(&q, hd, layer.q_norm, s.rms_epsilon);
            RmsNorm(&k, hd, layer.k_norm, s.rms_epsilon);
        }
        const bool rotates = plan.rope && choice.kind != RotarySwitch::None &&
                             !(choice.kind == RotarySwitch::NopeFrom && l >= choice.nope_from);
        if (rotates) {
            RopeTableSpec spec = rope_[l];
            if (choice.kind == RotarySwitch::Base) spec.base *= choice.base_factor;
            if (choice.kind == RotarySwitch::ScalingOff) spec.scaling = RopeScalingConfig{};
            const RopeFrequencies frequencies =
                rope_inv_freq(spec, first_position + n, RopeReference::Transformers);
            const int pairs = static_cast<int>(frequencies.inv_freq.size());
            std::vector<double> cos(static_cast<std::size_t>(n) * pairs),
                sin(static_cast<std::size_t>(n) * pairs);
            const TableDtype dtype = choice.bf16_tables ? TableDtype::BF16 : TableDtype::F32;
            for (const auto& [kind, table] :
                 {std::pair{RopeTableKind::Cos, &cos}, std::pair{RopeTableKind::Sin, &sin}})
                rope_table_rows(frequencies, RopeReference::Transformers, kind, first_position, n,
                                TableLayout::Undoubled, dtype, table->data());
            RotaryPairing pairing = plan.pairing;
            if (choice.kind == RotarySwitch::Pairing)
                pairing = pairing == RotaryPairing::HalfSplit ? RotaryPairing::Interleaved
                                                              : RotaryPairing::HalfSplit;
            Rotate(&q, n, s.heads, hd, pairs, cos, sin, pairing);
            Rotate(&k, n, s.kv_heads, hd, pairs, cos, sin, pairing);
        }
        // Ministral 3 scales every query after RoPE by 1 + β·ln(1 + ⌊p / original⌋).
        if (s.schedule.llama4_beta != 0)
            for (int t = 0; t < n; ++t) {
                const float scale =
                    static_cast<float>(Llama4BetaScale(s.schedule, first_position + t));
                for (int c = 0; c < qw; ++c)
                    q[static_cast<std::size_t>(t) * qw + c] *= scale;
            }
        const long long window = plan.attention == LayerAttention::Sliding ? plan.span : 0;
        const std::vector<float> attended =
            Attend(q, k, v, n, s.heads, s.kv_heads, hd, window,
                   options.keep_attention ? &pass.attention : nullptr);
        std::vector<float> o = Linear(attended, n, qw, layer.o, layer.o_bias, d, threads);
        if (s.output_norms) RmsNorm(&o, d, layer.post_attention_norm, s.rms_epsilon);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] += o[i];
        std::vector<float> m = x;
        if (!s.output_norms) RmsNorm(&m, d, layer.post_attention_norm, s.rms_epsilon);
        std::vector<float> gate =
            Linear(m, n, d, layer.gate, layer.gate_bias, s.intermediate, threads);
        const std::vector<float> up =
            Linear(m, n, d, layer.up, layer.up_bias, s.intermediate, threads);
        for (std::size_t i = 0; i < gate.size(); ++i)
            gate[i] = gate[i] / (1.0f + std::exp(-gate[i])) * up[i]; // SiLU(gate) ⊙ up
        std::vector<float> down =
            Linear(gate, n, s.intermediate, layer.down, layer.down_bias, d, threads);
        if (s.output_norms) RmsNorm(&down, d, layer.post_feedforward_norm, s.rms_epsilon);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] += down[i];
        pass.states.insert(pass.states.end(), x.begin(), x.end());
    }
    RmsNorm(&x, d, weights_->final_norm, s.rms_epsilon);
    const int first = options.all_logits ? 0 : n - 1, m = n - first;
    std::vector<float> h_t(static_cast<std::size_t>(d) * m); // d × m
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < d; ++c)
            h_t[static_cast<std::size_t>(c) * m + r] =
                x[static_cast<std::size_t>(first + r) * d + c];
    std::vector<float> logits_t(static_cast<std::size_t>(s.vocab) * m);
    detail::TableProduct(weights_->lm_head.empty() ? weights_->embed : weights_->lm_head,
                         h_t.data(), m, logits_t.data(), threads);
    pass.logits.resize(static_cast<std::size_t>(m) * s.vocab);
    for (int r = 0; r < m; ++r)
        for (int w = 0; w < s.vocab; ++w)
            pass.logits[static_cast<std::size_t>(r) * s.vocab + w] =
                logits_t[static_cast<std::size_t>(w) * m + r];
    pass.loss = MeanNextTokenLoss(pass, tokens, s.vocab);
    return pass;
}

} // namespace pelab
