#include "pelab/transformer.h"

#include "pelab/alternatives.h"
#include "pelab/error.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace pelab {

namespace {

template <typename S> using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename S> using RowVec = Eigen::Matrix<S, 1, Eigen::Dynamic>;
template <typename S> using MapMat = Eigen::Map<Mat<S>>;
template <typename S> using ConstMapMat = Eigen::Map<const Mat<S>>;
template <typename S> using MapRow = Eigen::Map<RowVec<S>>;
template <typename S> using ConstMapRow = Eigen::Map<const RowVec<S>>;

constexpr double kLayerNormEpsilon = 1e-5; // PyTorch's nn.LayerNorm default
constexpr double kLearnedTableStd = 0.02;  // as GPT-2 initialises its position table

// Where each tensor starts in the flat parameter vector.
struct LayerOffsets {
    std::size_t ln1_weight, ln1_bias, qkv_weight, qkv_bias, out_weight, out_bias;
    std::size_t ln2_weight, ln2_bias, mlp1_weight, mlp1_bias, mlp2_weight, mlp2_bias;
};
struct ParameterLayout {
    std::size_t embedding = 0, learned = 0, t5 = 0;
    std::vector<LayerOffsets> layers;
    std::size_t final_weight = 0, final_bias = 0, head_weight = 0, head_bias = 0;
    std::size_t total = 0;
};

enum class Init { Normal, Uniform, One, Zero };
struct SlotSpec {
    ParameterSlot slot;
    Init init;
    double scale; // the normal's deviation or the uniform's half-width
};

// The tensors in PyTorch's order (embedding, blocks, final norm, head), with their initialisers.
std::vector<SlotSpec> SlotSpecs(const TransformerConfig& c) {
    std::vector<SlotSpec> specs;
    std::size_t offset = 0;
    const auto add = [&](const std::string& name, int rows, int cols, Init init, double scale) {
        specs.push_back({ParameterSlot{name, offset, rows, cols}, init, scale});
        offset += static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    };
    const int d = c.d_model, hidden = c.mlp_ratio * c.d_model;
    const double in_d = 1.0 / std::sqrt(static_cast<double>(d));
    const double in_hidden = 1.0 / std::sqrt(static_cast<double>(hidden));
    add("embedding", c.vocab, d, Init::Normal, 1.0);
    for (int l = 0; l < c.layers; ++l) {
        const std::string p = "layer" + std::to_string(l) + ".";
        add(p + "ln1.weight", 1, d, Init::One, 0);
        add(p + "ln1.bias", 1, d, Init::Zero, 0);
        add(p + "qkv.weight", 3 * d, d, Init::Uniform, in_d);
        add(p + "qkv.bias", 1, 3 * d, Init::Uniform, in_d);
        add(p + "out.weight", d, d, Init::Uniform, in_d);
        add(p + "out.bias", 1, d, Init::Uniform, in_d);
        add(p + "ln2.weight", 1, d, Init::One, 0);
        add(p + "ln2.bias", 1, d, Init::Zero, 0);
        add(p + "mlp1.weight", hidden, d, Init::Uniform, in_d);
        add(p + "mlp1.bias", 1, hidden, Init::Uniform, in_d);
        add(p + "mlp2.weight", d, hidden, Init::Uniform, in_hidden);
        add(p + "mlp2.bias", 1, d, Init::Uniform, in_hidden);
    }
    add("final_ln.weight", 1, d, Init::One, 0);
    add("final_ln.bias", 1, d, Init::Zero, 0);
    add("head.weight", c.vocab, d, Init::Uniform, in_d);
    add("head.bias", 1, c.vocab, Init::Uniform, in_d);
    // The variant's own tensors last: every variant draws the shared ones from the same random
    // stream, so that models compared from one seed start equal but for their encoding.
    if (c.positional == PositionalKind::Learned)
        add("learned.table", c.max_len, d, Init::Normal, kLearnedTableStd);
    if (c.positional == PositionalKind::T5) add("t5.bias", c.t5_buckets, c.heads, Init::Zero, 0);
    return specs;
}

ParameterLayout LayoutOf(const std::vector<ParameterSlot>& slots, int layers) {
    ParameterLayout layout;
    layout.layers.resize(static_cast<std::size_t>(layers));
    for (const ParameterSlot& s : slots) {
        const std::string& n = s.name;
        layout.total = std::max(layout.total, s.offset + static_cast<std::size_t>(s.rows) *
                                                             static_cast<std::size_t>(s.cols));
        if (n == "embedding") layout.embedding = s.offset;
        if (n == "learned.table") layout.learned = s.offset;
        if (n == "t5.bias") layout.t5 = s.offset;
        if (n == "final_ln.weight") layout.final_weight = s.offset;
        if (n == "final_ln.bias") layout.final_bias = s.offset;
        if (n == "head.weight") layout.head_weight = s.offset;
        if (n == "head.bias") layout.head_bias = s.offset;
        if (n.rfind("layer", 0) != 0) continue;
        const std::size_t dot = n.find('.');
        LayerOffsets& o = layout.layers[std::stoul(n.substr(5, dot - 5))];
        const std::string field = n.substr(dot + 1);
        if (field == "ln1.weight") o.ln1_weight = s.offset;
        if (field == "ln1.bias") o.ln1_bias = s.offset;
        if (field == "qkv.weight") o.qkv_weight = s.offset;
        if (field == "qkv.bias") o.qkv_bias = s.offset;
        if (field == "out.weight") o.out_weight = s.offset;
        if (field == "out.bias") o.out_bias = s.offset;
        if (field == "ln2.weight") o.ln2_weight = s.offset;
        if (field == "ln2.bias") o.ln2_bias = s.offset;
        if (field == "mlp1.weight") o.mlp1_weight = s.offset;
        if (field == "mlp1.bias") o.mlp1_bias = s.offset;
        if (field == "mlp2.weight") o.mlp2_weight = s.offset;
        if (field == "mlp2.bias") o.mlp2_bias = s.offset;
    }
    return layout;
}

// ---- Layers, forward and backward -----------------------------------------------------------

template <typename S> struct LayerNormCache {
    Mat<S> normalised;                        // (x − mean)/σ, row by row
    Eigen::Matrix<S, Eigen::Dynamic, 1> rstd; // 1/σ per row
};

template <typename S>
Mat<S> LayerNormForward(const Mat<S>& x, const S* weight, const S* bias, LayerNormCache<S>& cache) {
    const Eigen::Index n = x.rows(), d = x.cols();
    const ConstMapRow<S> gamma(weight, d), beta(bias, d);
    cache.normalised.resize(n, d);
    cache.rstd.resize(n);
    Mat<S> y(n, d);
    for (Eigen::Index i = 0; i < n; ++i) {
        const S mean = x.row(i).mean();
        const RowVec<S> centred = x.row(i).array() - mean;
        const S variance = centred.squaredNorm() / static_cast<S>(d);
        const S rstd = S(1) / std::sqrt(variance + static_cast<S>(kLayerNormEpsilon));
        cache.rstd(i) = rstd;
        cache.normalised.row(i) = centred * rstd;
        y.row(i) = cache.normalised.row(i).cwiseProduct(gamma) + beta;
    }
    return y;
}

template <typename S>
Mat<S> LayerNormBackward(const Mat<S>& dy, const S* weight, const LayerNormCache<S>& cache,
                         S* d_weight, S* d_bias) {
    const Eigen::Index n = dy.rows(), d = dy.cols();
    const ConstMapRow<S> gamma(weight, d);
    Mat<S> dx(n, d);
    for (Eigen::Index i = 0; i < n; ++i) {
        const RowVec<S> xhat = cache.normalised.row(i);
        const RowVec<S> dxhat = dy.row(i).cwiseProduct(gamma);
        if (d_weight != nullptr) {
            MapRow<S>(d_weight, d) += dy.row(i).cwiseProduct(xhat);
            MapRow<S>(d_bias, d) += dy.row(i);
        }
        const S mean_dxhat = dxhat.mean();
        const S mean_dxhat_xhat = dxhat.cwiseProduct(xhat).mean();
        dx.row(i) =
            cache.rstd(i) * (dxhat.array() - mean_dxhat - xhat.array() * mean_dxhat_xhat).matrix();
    }
    return dx;
}

// y = x·Wᵀ + b (W: out × in, as torch.nn.Linear).
template <typename S>
Mat<S> LinearForward(const Mat<S>& x, const S* weight, const S* bias, int out) {
    const ConstMapMat<S> w(weight, out, x.cols());
    Mat<S> y = x * w.transpose();
    y.rowwise() += ConstMapRow<S>(bias, out);
    return y;
}

// Accumulates dW += dyᵀ·x and db += Σ dy (when d_weight is given); returns dx = dy·W.
template <typename S>
Mat<S> LinearBackward(const Mat<S>& dy, const Mat<S>& x, const S* weight, S* d_weight, S* d_bias) {
    const Eigen::Index out = dy.cols(), in = x.cols();
    const ConstMapMat<S> w(weight, out, in);
    if (d_weight != nullptr) {
        MapMat<S>(d_weight, out, in).noalias() += dy.transpose() * x;
        MapRow<S>(d_bias, out) += dy.colwise().sum();
    }
    return dy * w;
}

template <typename S> S Gelu(S z) {
    return S(0.5) * z * (S(1) + std::erf(z / std::sqrt(S(2))));
}
template <typename S> S GeluDerivative(S z) {
    const S cdf = S(0.5) * (S(1) + std::erf(z / std::sqrt(S(2))));
    const S pdf = std::exp(S(-0.5) * z * z) / std::sqrt(S(2) * static_cast<S>(M_PI));
    return cdf + z * pdf;
}

// RoPE: row p's pair i (columns 2i, 2i + 1) turned by p·θ_i (backward: by −p·θ_i).
template <typename S>
void Rotate(Mat<S>& m, const Mat<S>& cosines, const Mat<S>& sines, bool backward) {
    for (Eigen::Index p = 0; p < m.rows(); ++p)
        for (Eigen::Index i = 0; i < cosines.cols(); ++i) {
            const S c = cosines(p, i), s = backward ? -sines(p, i) : sines(p, i);
            const S a = m(p, 2 * i), b = m(p, 2 * i + 1);
            m(p, 2 * i) = a * c - b * s;
            m(p, 2 * i + 1) = a * s + b * c;
        }
}

template <typename S> struct LayerCache {
    LayerNormCache<S> ln1, ln2;
    Mat<S> h1, qkv, attended, x1, h2, z, g;
    std::vector<Mat<S>> q, k, weights; // per head: rotated q and k, softmax weights
};

// One sequence through the model. With targets: adds the summed cross-entropy (times
// loss_scale) to *loss_sum and, when gradient is given, loss_scale × its gradient to gradient.
// logits_out (n × vocab) and attention_out (the weights of attention_layer, attention_head) are
// filled when given.
template <typename S> struct SequencePass {
    const TransformerConfig& c;
    const ParameterLayout& layout;
    const S* params;

    void Run(const int* tokens, const int* targets, int n, S loss_scale, double* loss_sum,
             S* gradient, S* logits_out, int attention_layer, int attention_head,
             S* attention_out) const {
        const int d = c.d_model, heads = c.heads, dh = d / heads, hidden = c.mlp_ratio * d;
        const S scale = S(1) / std::sqrt(static_cast<S>(dh));
        // Positions' tables: RoPE's angles, the bias of each head (ALiBi, T5).
        Mat<S> cosines, sines;
        if (c.positional == PositionalKind::Rope) {
            cosines.resize(n, dh / 2);
            sines.resize(n, dh / 2);
            for (int p = 0; p < n; ++p)
                for (int i = 0; i < dh / 2; ++i) {
                    const double theta = std::pow(c.base, -2.0 * i / static_cast<double>(dh)) * p;
                    cosines(p, i) = static_cast<S>(std::cos(theta));
                    sines(p, i) = static_cast<S>(std::sin(theta));
                }
        }
        std::vector<double> slopes;
        if (c.positional == PositionalKind::Alibi) slopes = alibi_slopes(heads);
        std::vector<int> buckets;
        if (c.positional == PositionalKind::T5) {
            const T5BucketOptions options{c.t5_buckets, c.t5_max_distance, !c.causal};
            buckets.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    buckets[static_cast<std::size_t>(i) * n + j] = t5_bucket(j - i, options);
        }
        const auto bias = [&](int head, int i, int j) -> S {
            if (c.causal && j > i) return -std::numeric_limits<S>::infinity();
            if (c.positional == PositionalKind::Alibi)
                return static_cast<S>(-slopes[head] * std::abs(i - j));
            if (c.positional == PositionalKind::T5)
                return params[layout.t5 +
                              static_cast<std::size_t>(
                                  buckets[static_cast<std::size_t>(i) * n + j]) *
                                  heads +
                              head];
            return S(0);
        };

        // Embedding and the added encodings.
        Mat<S> x(n, d);
        for (int p = 0; p < n; ++p) {
            x.row(p) = ConstMapRow<S>(
                params + layout.embedding + static_cast<std::size_t>(tokens[p]) * d, d);
            if (c.positional == PositionalKind::Sinusoidal)
                for (int k = 0; k < d; ++k) {
                    const int pair = k / 2; // dims 2i (sin) and 2i + 1 (cos) share ω_i
                    const double angle = p * std::pow(c.base, -2.0 * pair / static_cast<double>(d));
                    x(p, k) += static_cast<S>(k % 2 == 0 ? std::sin(angle) : std::cos(angle));
                }
            if (c.positional == PositionalKind::Learned)
                x.row(p) +=
                    ConstMapRow<S>(params + layout.learned + static_cast<std::size_t>(p) * d, d);
        }

        std::vector<LayerCache<S>> caches(static_cast<std::size_t>(c.layers));
        for (int l = 0; l < c.layers; ++l) {
            const LayerOffsets& o = layout.layers[static_cast<std::size_t>(l)];
            LayerCache<S>& cache = caches[static_cast<std::size_t>(l)];
            cache.h1 = LayerNormForward(x, params + o.ln1_weight, params + o.ln1_bias, cache.ln1);
            cache.qkv = LinearForward(cache.h1, params + o.qkv_weight, params + o.qkv_bias, 3 * d);
            cache.attended.resize(n, d);
            cache.q.resize(static_cast<std::size_t>(heads));
            cache.k.resize(static_cast<std::size_t>(heads));
            cache.weights.resize(static_cast<std::size_t>(heads));
            for (int h = 0; h < heads; ++h) {
                Mat<S> q = cache.qkv.block(0, h * dh, n, dh);
                Mat<S> k = cache.qkv.block(0, d + h * dh, n, dh);
                const Mat<S> v = cache.qkv.block(0, 2 * d + h * dh, n, dh);
                if (c.positional == PositionalKind::Rope) {
                    Rotate(q, cosines, sines, false);
                    Rotate(k, cosines, sines, false);
                }
                Mat<S> scores = q * k.transpose() * scale;
                Mat<S>& weights = cache.weights[static_cast<std::size_t>(h)];
                weights.resize(n, n);
                for (int i = 0; i < n; ++i) {
                    for (int j = 0; j < n; ++j)
                        scores(i, j) += bias(h, i, j);
                    const S top = scores.row(i).maxCoeff();
                    weights.row(i) = (scores.row(i).array() - top).exp();
                    // Masked keys weigh exactly 0 (Eigen's exp clamps −∞ to about 1e-308).
                    if (c.causal) weights.row(i).tail(n - 1 - i).setZero();
                    weights.row(i) /= weights.row(i).sum();
                }
                cache.attended.block(0, h * dh, n, dh) = weights * v;
                cache.q[static_cast<std::size_t>(h)] = std::move(q);
                cache.k[static_cast<std::size_t>(h)] = std::move(k);
                if (attention_out != nullptr && l == attention_layer && h == attention_head)
                    MapMat<S>(attention_out, n, n) = weights;
            }
            cache.x1 =
                x + LinearForward(cache.attended, params + o.out_weight, params + o.out_bias, d);
            cache.h2 =
                LayerNormForward(cache.x1, params + o.ln2_weight, params + o.ln2_bias, cache.ln2);
            cache.z = LinearForward(cache.h2, params + o.mlp1_weight, params + o.mlp1_bias, hidden);
            cache.g = cache.z.unaryExpr([](S value) { return Gelu(value); });
            x = cache.x1 + LinearForward(cache.g, params + o.mlp2_weight, params + o.mlp2_bias, d);
        }
        LayerNormCache<S> final_cache;
        const Mat<S> hf = LayerNormForward(x, params + layout.final_weight,
                                           params + layout.final_bias, final_cache);
        const Mat<S> logits =
            LinearForward(hf, params + layout.head_weight, params + layout.head_bias, c.vocab);
        if (logits_out != nullptr) MapMat<S>(logits_out, n, c.vocab) = logits;
        if (targets == nullptr) return;

        // The loss and d loss / d logits: softmax − one-hot, for the scored positions.
        Mat<S> d_logits = Mat<S>::Zero(n, c.vocab);
        for (int p = 0; p < n; ++p) {
            if (targets[p] < 0) continue;
            const S top = logits.row(p).maxCoeff();
            const RowVec<S> e = (logits.row(p).array() - top).exp();
            const S sum = e.sum();
            *loss_sum += static_cast<double>(loss_scale) *
                         (static_cast<double>(std::log(sum)) + static_cast<double>(top) -
                          static_cast<double>(logits(p, targets[p])));
            d_logits.row(p) = e / sum;
            d_logits(p, targets[p]) -= S(1);
        }
        if (gradient == nullptr) return;
        d_logits *= loss_scale;

        // Backward, layer by layer.
        S* grad = gradient;
        Mat<S> dx = LinearBackward(d_logits, hf, params + layout.head_weight,
                                   grad + layout.head_weight, grad + layout.head_bias);
        dx = LayerNormBackward(dx, params + layout.final_weight, final_cache,
                               grad + layout.final_weight, grad + layout.final_bias);
        for (int l = c.layers - 1; l >= 0; --l) {
            const LayerOffsets& o = layout.layers[static_cast<std::size_t>(l)];
            const LayerCache<S>& cache = caches[static_cast<std::size_t>(l)];
            // The MLP's residual branch.
            Mat<S> dg = LinearBackward(dx, cache.g, params + o.mlp2_weight, grad + o.mlp2_weight,
                                       grad + o.mlp2_bias);
            const Mat<S> dz =
                dg.cwiseProduct(cache.z.unaryExpr([](S value) { return GeluDerivative(value); }));
            const Mat<S> dh2 = LinearBackward(dz, cache.h2, params + o.mlp1_weight,
                                              grad + o.mlp1_weight, grad + o.mlp1_bias);
            const Mat<S> dx1 = dx + LayerNormBackward(dh2, params + o.ln2_weight, cache.ln2,
                                                      grad + o.ln2_weight, grad + o.ln2_bias);
            // The attention's residual branch.
            const Mat<S> d_attended = LinearBackward(dx1, cache.attended, params + o.out_weight,
                                                     grad + o.out_weight, grad + o.out_bias);
            Mat<S> d_qkv = Mat<S>::Zero(n, 3 * d);
            for (int h = 0; h < heads; ++h) {
                const Mat<S>& weights = cache.weights[static_cast<std::size_t>(h)];
                const Mat<S> v = cache.qkv.block(0, 2 * d + h * dh, n, dh);
                const Mat<S> d_out = d_attended.block(0, h * dh, n, dh);
                d_qkv.block(0, 2 * d + h * dh, n, dh) = weights.transpose() * d_out;
                const Mat<S> d_weights = d_out * v.transpose();
                Mat<S> d_scores(n, n);
                for (int i = 0; i < n; ++i) {
                    const S dot = d_weights.row(i).dot(weights.row(i));
                    d_scores.row(i) =
                        weights.row(i).cwiseProduct((d_weights.row(i).array() - dot).matrix());
                }
                if (c.positional == PositionalKind::T5)
                    for (int i = 0; i < n; ++i)
                        for (int j = 0; j < n; ++j)
                            grad[layout.t5 +
                                 static_cast<std::size_t>(
                                     buckets[static_cast<std::size_t>(i) * n + j]) *
                                     heads +
                                 h] += d_scores(i, j);
                Mat<S> dq = d_scores * cache.k[static_cast<std::size_t>(h)] * scale;
                Mat<S> dk = d_scores.transpose() * cache.q[static_cast<std::size_t>(h)] * scale;
                if (c.positional == PositionalKind::Rope) {
                    Rotate(dq, cosines, sines, true);
                    Rotate(dk, cosines, sines, true);
                }
                d_qkv.block(0, h * dh, n, dh) = dq;
                d_qkv.block(0, d + h * dh, n, dh) = dk;
            }
            const Mat<S> dh1 = LinearBackward(d_qkv, cache.h1, params + o.qkv_weight,
                                              grad + o.qkv_weight, grad + o.qkv_bias);
            dx = dx1 + LayerNormBackward(dh1, params + o.ln1_weight, cache.ln1, grad + o.ln1_weight,
                                         grad + o.ln1_bias);
        }
        for (int p = 0; p < n; ++p) {
            MapRow<S>(grad + layout.embedding + static_cast<std::size_t>(tokens[p]) * d, d) +=
                dx.row(p);
            if (c.positional == PositionalKind::Learned)
                MapRow<S>(grad + layout.learned + static_cast<std::size_t>(p) * d, d) += dx.row(p);
        }
    }
};

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

const std::vector<PositionalKind>& positional_kinds() {
    static const std::vector<PositionalKind> kinds = {
        PositionalKind::None, PositionalKind::Sinusoidal, PositionalKind::Learned,
        PositionalKind::Rope, PositionalKind::Alibi,      PositionalKind::T5};
    return kinds;
}

const char* positional_kind_name(PositionalKind kind) {
    switch (kind) {
    case PositionalKind::None:
        return "none";
    case PositionalKind::Sinusoidal:
        return "sinusoidal";
    case PositionalKind::Learned:
        return "learned";
    case PositionalKind::Rope:
        return "rope";
    case PositionalKind::Alibi:
        return "alibi";
    case PositionalKind::T5:
        return "t5";
    }
    return "none";
}

PositionalKind positional_kind_from_name(const std::string& name) {
    for (const PositionalKind kind : positional_kinds())
        if (name == positional_kind_name(kind)) return kind;
    throw InvalidArgument("unknown positional encoding \"" + name +
                          "\": one of none, sinusoidal, learned, rope, alibi, t5");
}

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
    if (c.positional == PositionalKind::T5)
        validate_t5_options(T5BucketOptions{c.t5_buckets, c.t5_max_distance, !c.causal});
}

template <typename Scalar>
TinyTransformer<Scalar>::TinyTransformer(const TransformerConfig& config, std::uint64_t seed)
    : config_(config) {
    validate_transformer_config(config);
    const std::vector<SlotSpec> specs = SlotSpecs(config);
    std::mt19937_64 random(seed);
    for (const SlotSpec& spec : specs) {
        slots_.push_back(spec.slot);
        const std::size_t count =
            static_cast<std::size_t>(spec.slot.rows) * static_cast<std::size_t>(spec.slot.cols);
        std::normal_distribution<double> normal(0.0, spec.scale > 0 ? spec.scale : 1.0);
        std::uniform_real_distribution<double> uniform(-spec.scale, spec.scale);
        for (std::size_t k = 0; k < count; ++k) {
            double value = 0;
            switch (spec.init) {
            case Init::Normal:
                value = normal(random);
                break;
            case Init::Uniform:
                value = uniform(random);
                break;
            case Init::One:
                value = 1;
                break;
            case Init::Zero:
                value = 0;
                break;
            }
            parameters_.push_back(static_cast<Scalar>(value));
        }
    }
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
    const ParameterLayout layout = LayoutOf(slots_, config_.layers);
    long scored = 0;
    for (const int target : batch.targets)
        scored += target >= 0 ? 1 : 0;
    if (gradient != nullptr) gradient->assign(parameters_.size(), Scalar(0));
    if (scored == 0) return Scalar(0);
    const Scalar scale = Scalar(1) / static_cast<Scalar>(scored);
    const SequencePass<Scalar> pass{config_, layout, parameters_.data()};
    double loss_sum = 0;
    for (int b = 0; b < batch.size; ++b) {
        const std::size_t start =
            static_cast<std::size_t>(b) * static_cast<std::size_t>(batch.length);
        pass.Run(batch.tokens.data() + start, batch.targets.data() + start, batch.length, scale,
                 &loss_sum, gradient != nullptr ? gradient->data() : nullptr, nullptr, -1, -1,
                 nullptr);
    }
    return static_cast<Scalar>(loss_sum);
}

template <typename Scalar>
std::vector<Scalar> TinyTransformer<Scalar>::logits(const TokenBatch& batch) const {
    CheckBatch(config_, batch, false);
    const ParameterLayout layout = LayoutOf(slots_, config_.layers);
    const SequencePass<Scalar> pass{config_, layout, parameters_.data()};
    const std::size_t n = static_cast<std::size_t>(batch.length);
    std::vector<Scalar> out(static_cast<std::size_t>(batch.size) * n * config_.vocab);
    for (int b = 0; b < batch.size; ++b)
        pass.Run(batch.tokens.data() + b * n, nullptr, batch.length, Scalar(1), nullptr, nullptr,
                 out.data() + b * n * config_.vocab, -1, -1, nullptr);
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
    const ParameterLayout layout = LayoutOf(slots_, config_.layers);
    const SequencePass<Scalar> pass{config_, layout, parameters_.data()};
    std::vector<Scalar> weights(tokens.size() * tokens.size());
    pass.Run(tokens.data(), nullptr, batch.length, Scalar(1), nullptr, nullptr, nullptr, layer,
             head, weights.data());
    return weights;
}

template <typename Scalar>
AdamW<Scalar>::AdamW(std::size_t parameter_count, const AdamWOptions& options)
    : options_(options), first_(parameter_count, 0.0), second_(parameter_count, 0.0) {}

template <typename Scalar>
double AdamW<Scalar>::step(std::vector<Scalar>& parameters, std::vector<Scalar>& gradient) {
    if (parameters.size() != first_.size() || gradient.size() != first_.size())
        throw InvalidArgument("AdamW: the parameters and the gradient must have " +
                              std::to_string(first_.size()) + " values");
    double norm_squared = 0;
    for (const Scalar g : gradient)
        norm_squared += static_cast<double>(g) * static_cast<double>(g);
    const double norm = std::sqrt(norm_squared);
    // torch.nn.utils.clip_grad_norm_: scale by max_norm / (norm + 1e-6) when that is below 1.
    const double clip = options_.clip_norm > 0 ? options_.clip_norm / (norm + 1e-6) : 1.0;
    ++steps_;
    const double correction1 = 1 - std::pow(options_.beta1, static_cast<double>(steps_));
    const double correction2 = 1 - std::pow(options_.beta2, static_cast<double>(steps_));
    const double lr = options_.learning_rate;
    for (std::size_t k = 0; k < parameters.size(); ++k) {
        if (clip < 1) gradient[k] = static_cast<Scalar>(gradient[k] * clip);
        const double g = gradient[k];
        double p = parameters[k];
        p *= 1 - lr * options_.weight_decay;
        first_[k] = options_.beta1 * first_[k] + (1 - options_.beta1) * g;
        second_[k] = options_.beta2 * second_[k] + (1 - options_.beta2) * g * g;
        const double denominator =
            std::sqrt(second_[k]) / std::sqrt(correction2) + options_.epsilon;
        p -= lr / correction1 * first_[k] / denominator;
        parameters[k] = static_cast<Scalar>(p);
    }
    return norm;
}

template class TinyTransformer<float>;
template class TinyTransformer<double>;
template class AdamW<float>;
template class AdamW<double>;

} // namespace pelab
