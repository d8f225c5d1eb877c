// operations.h — the trainer's operations, one plain function per operation and direction, as
// llm.c writes GPT-2's: the pass (pass.cpp) calls them in order, forward then backward. Each
// backward adds to the gradients of its parameters (when given) and returns the gradient of
// its input. Shapes: a batch of B sequences of n positions is B·n rows, one sequence after
// another; only attention looks across rows, within each sequence.
#pragma once

#include "positional/method.h"
#include "transformer/gemm.h"
#include "transformer/tensor.h"

#include <unsupported/Eigen/SpecialFunctions>

#include <cmath>
#include <limits>
#include <vector>

namespace pelab::trainer {

constexpr double kLayerNormEpsilon = 1e-5; // PyTorch's nn.LayerNorm default

// ---- Embedding: x[p] = E[token p] ----------------------------------------------------------

template <typename S> Mat<S> EmbeddingForward(const int* tokens, int n, const S* table, int d) {
    Mat<S> x(n, d);
    for (int p = 0; p < n; ++p)
        x.row(p) = ConstMapRow<S>(table + static_cast<std::size_t>(tokens[p]) * d, d);
    return x;
}

template <typename S> void EmbeddingBackward(const Mat<S>& dx, const int* tokens, S* d_table) {
    const Eigen::Index d = dx.cols();
    for (Eigen::Index p = 0; p < dx.rows(); ++p)
        MapRow<S>(d_table + static_cast<std::size_t>(tokens[p]) * d, d) += dx.row(p);
}

// ---- LayerNorm: y = (x − mean)/σ · γ + β, row by row ---------------------------------------

template <typename S> struct LayerNormCache {
    Mat<S> normalised; // (x − mean)/σ, row by row
    ColVec<S> rstd;    // 1/σ per row
};

template <typename S>
Mat<S> LayerNormForward(const Mat<S>& x, const S* weight, const S* bias, LayerNormCache<S>& cache,
                        double epsilon = kLayerNormEpsilon) {
    const Eigen::Index n = x.rows(), d = x.cols();
    const ConstMapRow<S> gamma(weight, d), beta(bias, d);
    cache.normalised.resize(n, d);
    cache.rstd.resize(n);
    Mat<S> y(n, d);
    for (Eigen::Index i = 0; i < n; ++i) {
        const S mean = x.row(i).mean();
        const RowVec<S> centred = x.row(i).array() - mean;
        const S variance = centred.squaredNorm() / static_cast<S>(d);
        const S rstd = S(1) / std::sqrt(variance + static_cast<S>(epsilon));
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

// ---- Products: every matrix product of the pass, C = op(A)·B with op(A) = A or Aᵀ ---------
// Float passes multiply through Gemm (gemm.h: the same bits on every CPU); double passes, which
// check the gradients, through Eigen.

template <typename S> using ConstRef = Eigen::Ref<const Mat<S>, 0, Eigen::OuterStride<>>;
template <typename S> using Ref = Eigen::Ref<Mat<S>, 0, Eigen::OuterStride<>>;

/// c = op(a)·b, or c += op(a)·b when accumulate (c sized by the caller; it may be a block, so
/// it is taken by value: a Ref is a view).
inline void Multiply(const ConstRef<double>& a, bool a_transposed, const ConstRef<double>& b,
                     Ref<double> c, bool accumulate = false) {
    if (!accumulate) c.setZero();
    if (a_transposed)
        c.noalias() += a.transpose() * b;
    else
        c.noalias() += a * b;
}
inline void Multiply(const ConstRef<float>& a, bool a_transposed, const ConstRef<float>& b,
                     Ref<float> c, bool accumulate = false) {
    const int stride = static_cast<int>(a.outerStride());
    Gemm(static_cast<int>(c.rows()), static_cast<int>(c.cols()), static_cast<int>(b.rows()),
         a_transposed ? TransposeOf(a.data(), stride) : RowMajor(a.data(), stride), b.data(),
         static_cast<int>(b.outerStride()), c.data(), static_cast<int>(c.outerStride()),
         accumulate);
}

// ---- Linear: y = x·Wᵀ + b (W: out × in, as torch.nn.Linear) -------------------------------

template <typename S>
Mat<S> LinearForward(const Mat<S>& x, const S* weight, const S* bias, int out) {
    // Wᵀ laid out once per call (in × out, a few thousand numbers) so the product reads rows.
    const Mat<S> weight_t = ConstMapMat<S>(weight, out, x.cols()).transpose();
    Mat<S> y(x.rows(), out);
    Multiply(x, false, weight_t, y);
    y.rowwise() += ConstMapRow<S>(bias, out);
    return y;
}

// Adds dW += dyᵀ·x and db += Σ dy (when d_weight is given); returns dx = dy·W.
template <typename S>
Mat<S> LinearBackward(const Mat<S>& dy, const Mat<S>& x, const S* weight, S* d_weight, S* d_bias) {
    const Eigen::Index out = dy.cols(), in = x.cols();
    if (d_weight != nullptr) {
        Multiply(dy, true, x, MapMat<S>(d_weight, out, in), true);
        // Row after row: the same order (and bits) whatever the batch's size.
        MapRow<S> d_b(d_bias, out);
        for (Eigen::Index i = 0; i < dy.rows(); ++i)
            d_b += dy.row(i);
    }
    Mat<S> dx(dy.rows(), in);
    Multiply(dy, false, ConstMapMat<S>(weight, out, in), dx);
    return dx;
}

// ---- GELU, exact: g = z·Φ(z) ----------------------------------------------------------------
// Φ through Eigen's vectorised erf (unsupported/Eigen/SpecialFunctions: within 4e-7 of the
// exact erf in float, 1e-16 in double); the forward keeps Φ(z) for the backward.

template <typename S> Mat<S> GeluForward(const Mat<S>& z, Mat<S>& cdf) {
    const S inv_sqrt2 = S(1) / std::sqrt(S(2));
    cdf = (S(0.5) * ((z.array() * inv_sqrt2).erf() + S(1))).matrix();
    return z.cwiseProduct(cdf);
}

/// dz = dg · (Φ(z) + z·φ(z)).
template <typename S> Mat<S> GeluBackward(const Mat<S>& dg, const Mat<S>& z, const Mat<S>& cdf) {
    const S inv_sqrt_2pi = S(1) / std::sqrt(S(2) * static_cast<S>(M_PI));
    const auto pdf = (z.array().square() * S(-0.5)).exp() * inv_sqrt_2pi;
    return (dg.array() * (cdf.array() + z.array() * pdf)).matrix();
}

// ---- Attention: per sequence and head, S = q·kᵀ/√d_h + bias, keys after the query masked
// when causal, out = softmax(S)·v. The method's hooks turn q and k and add the bias. ---------

template <typename S> struct AttentionCache {
    /// Per sequence and head (index sequence × heads + head): turned q and k, softmax weights.
    std::vector<Mat<S>> q, k, weights;
    /// The scores a method reading content was given (PositionalHooks::ReadsContent), else none.
    std::vector<Mat<S>> read;
};

/// qkv: B·n × 3d (the batch's sequences of n rows one after another; q, k, v side by side,
/// each split into heads of d_h); returns B·n × d. When weights_out is given, the weights of
/// the first sequence's head weights_head are copied there (n × n).
template <typename S>
Mat<S> AttentionForward(const Mat<S>& qkv, int length, int heads, bool causal,
                        const PositionalHooks<S>& hooks, AttentionCache<S>& cache,
                        int weights_head = -1, S* weights_out = nullptr) {
    const Eigen::Index n = length, d = qkv.cols() / 3, dh = d / heads;
    const Eigen::Index batch = qkv.rows() / n;
    const S scale = S(1) / std::sqrt(static_cast<S>(dh));
    Mat<S> attended(qkv.rows(), d);
    const std::size_t count = static_cast<std::size_t>(batch * heads);
    cache.q.resize(count);
    cache.k.resize(count);
    cache.weights.resize(count);
    cache.read.resize(hooks.ReadsContent() ? count : 0);
    for (Eigen::Index b = 0; b < batch; ++b)
        for (int h = 0; h < heads; ++h) {
            const std::size_t slot = static_cast<std::size_t>(b * heads + h);
            Mat<S> q = qkv.block(b * n, h * dh, n, dh);
            Mat<S> k = qkv.block(b * n, d + h * dh, n, dh);
            hooks.TurnForward(q, k);
            const Mat<S> k_t = k.transpose();
            Mat<S> scores(n, n);
            Multiply(q, false, k_t, scores);
            scores *= scale;
            hooks.BiasForward(scores, h);
            if (hooks.ReadsContent()) {
                cache.read[slot] = scores;
                hooks.ContentForward(q, scores);
            }
            Mat<S>& weights = cache.weights[slot];
            weights.resize(n, n);
            for (Eigen::Index i = 0; i < n; ++i) {
                if (causal)
                    for (Eigen::Index j = i + 1; j < n; ++j)
                        scores(i, j) = -std::numeric_limits<S>::infinity();
                const S top = scores.row(i).maxCoeff();
                weights.row(i) = (scores.row(i).array() - top).exp();
                // Masked keys weigh exactly 0 (Eigen's exp clamps −∞ to about 1e-308).
                if (causal) weights.row(i).tail(n - 1 - i).setZero();
                weights.row(i) /= weights.row(i).sum();
            }
            Multiply(weights, false, qkv.block(b * n, 2 * d + h * dh, n, dh),
                     attended.block(b * n, h * dh, n, dh));
            cache.q[slot] = std::move(q);
            cache.k[slot] = std::move(k);
            if (weights_out != nullptr && b == 0 && h == weights_head)
                MapMat<S>(weights_out, n, n) = weights;
        }
    return attended;
}

/// Returns d qkv (B·n × 3d); the method's bias parameters get their share in d_own.
template <typename S>
Mat<S> AttentionBackward(const Mat<S>& d_attended, const Mat<S>& qkv, int length, int heads,
                         const PositionalHooks<S>& hooks, const AttentionCache<S>& cache,
                         S* d_own) {
    const Eigen::Index n = length, d = qkv.cols() / 3, dh = d / heads;
    const Eigen::Index batch = qkv.rows() / n;
    const S scale = S(1) / std::sqrt(static_cast<S>(dh));
    Mat<S> d_qkv(qkv.rows(), 3 * d);
    for (Eigen::Index b = 0; b < batch; ++b)
        for (int h = 0; h < heads; ++h) {
            const std::size_t slot = static_cast<std::size_t>(b * heads + h);
            const Mat<S>& weights = cache.weights[slot];
            const auto d_out = d_attended.block(b * n, h * dh, n, dh);
            Multiply(weights, true, d_out, d_qkv.block(b * n, 2 * d + h * dh, n, dh));
            const Mat<S> v_t = qkv.block(b * n, 2 * d + h * dh, n, dh).transpose();
            Mat<S> d_weights(n, n);
            Multiply(d_out, false, v_t, d_weights);
            Mat<S> d_scores(n, n);
            for (Eigen::Index i = 0; i < n; ++i) {
                const S dot = d_weights.row(i).dot(weights.row(i));
                d_scores.row(i) =
                    weights.row(i).cwiseProduct((d_weights.row(i).array() - dot).matrix());
            }
            // A method reading content: its term's gradient through q, and through the scores
            // it read, which join the scores' own.
            Mat<S> dq_content;
            if (hooks.ReadsContent()) {
                Mat<S> d_read = Mat<S>::Zero(n, n);
                dq_content = Mat<S>::Zero(n, dh);
                hooks.ContentBackward(cache.q[slot], cache.read[slot], d_scores, d_read, dq_content,
                                      d_own);
                d_scores += d_read;
            }
            hooks.BiasBackward(d_scores, h, d_own);
            Mat<S> dq(n, dh), dk(n, dh);
            Multiply(d_scores, false, cache.k[slot], dq);
            Multiply(d_scores, true, cache.q[slot], dk);
            dq *= scale;
            dk *= scale;
            if (hooks.ReadsContent()) dq += dq_content;
            hooks.TurnBackward(dq, dk);
            d_qkv.block(b * n, h * dh, n, dh) = dq;
            d_qkv.block(b * n, d + h * dh, n, dh) = dk;
        }
    return d_qkv;
}

// ---- Cross-entropy: the mean over the scored positions, as loss_scale × the sum ------------

/// Adds loss_scale × Σ −log softmax(logits)[target] over the scored positions (target ≥ 0) to
/// *loss_sum, in double; returns the softmax of each scored row (zero rows elsewhere), which
/// the backward needs.
template <typename S>
Mat<S> CrossEntropyForward(const Mat<S>& logits, const int* targets, S loss_scale,
                           double* loss_sum) {
    Mat<S> probabilities = Mat<S>::Zero(logits.rows(), logits.cols());
    for (Eigen::Index p = 0; p < logits.rows(); ++p) {
        if (targets[p] < 0) continue;
        const S top = logits.row(p).maxCoeff();
        const RowVec<S> e = (logits.row(p).array() - top).exp();
        const S sum = e.sum();
        *loss_sum += static_cast<double>(loss_scale) *
                     (static_cast<double>(std::log(sum)) + static_cast<double>(top) -
                      static_cast<double>(logits(p, targets[p])));
        probabilities.row(p) = e / sum;
    }
    return probabilities;
}

/// d loss / d logits = loss_scale × (softmax − one-hot) on the scored rows.
template <typename S>
Mat<S> CrossEntropyBackward(const Mat<S>& probabilities, const int* targets, S loss_scale) {
    Mat<S> d_logits = probabilities;
    for (Eigen::Index p = 0; p < d_logits.rows(); ++p)
        if (targets[p] >= 0) d_logits(p, targets[p]) -= S(1);
    d_logits *= loss_scale;
    return d_logits;
}

} // namespace pelab::trainer
