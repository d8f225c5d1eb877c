// operations.h — the trainer's operations, one plain function per operation and direction, as
// llm.c writes GPT-2's: the pass (pass.cpp) calls them in order, forward then backward. Each
// backward adds to the gradients of its parameters (when given) and returns the gradient of
// its input. Shapes: a sequence of n positions is n rows.
#pragma once

#include "positional/method.h"
#include "transformer/tensor.h"

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

// ---- Linear: y = x·Wᵀ + b (W: out × in, as torch.nn.Linear) -------------------------------

template <typename S>
Mat<S> LinearForward(const Mat<S>& x, const S* weight, const S* bias, int out) {
    const ConstMapMat<S> w(weight, out, x.cols());
    Mat<S> y = x * w.transpose();
    y.rowwise() += ConstMapRow<S>(bias, out);
    return y;
}

// Adds dW += dyᵀ·x and db += Σ dy (when d_weight is given); returns dx = dy·W.
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

// ---- GELU, exact: g = z·Φ(z) ----------------------------------------------------------------

template <typename S> S Gelu(S z) {
    return S(0.5) * z * (S(1) + std::erf(z / std::sqrt(S(2))));
}
template <typename S> S GeluDerivative(S z) {
    const S cdf = S(0.5) * (S(1) + std::erf(z / std::sqrt(S(2))));
    const S pdf = std::exp(S(-0.5) * z * z) / std::sqrt(S(2) * static_cast<S>(M_PI));
    return cdf + z * pdf;
}

template <typename S> Mat<S> GeluForward(const Mat<S>& z) {
    return z.unaryExpr([](S value) { return Gelu(value); });
}

template <typename S> Mat<S> GeluBackward(const Mat<S>& dg, const Mat<S>& z) {
    return dg.cwiseProduct(z.unaryExpr([](S value) { return GeluDerivative(value); }));
}

// ---- Attention: per head, S = q·kᵀ/√d_h + bias, keys after the query masked when causal,
// out = softmax(S)·v. The method's hooks turn q and k and add the bias. ----------------------

template <typename S> struct AttentionCache {
    std::vector<Mat<S>> q, k, weights; // per head: turned q and k, softmax weights
};

/// qkv: n × 3d (q, k, v side by side, each split into heads of d_h); returns n × d. When
/// weights_out is given, the weights of head weights_head are copied there (n × n).
template <typename S>
Mat<S> AttentionForward(const Mat<S>& qkv, int heads, bool causal, const PositionalHooks<S>& hooks,
                        AttentionCache<S>& cache, int weights_head = -1, S* weights_out = nullptr) {
    const Eigen::Index n = qkv.rows(), d = qkv.cols() / 3, dh = d / heads;
    const S scale = S(1) / std::sqrt(static_cast<S>(dh));
    Mat<S> attended(n, d);
    cache.q.resize(static_cast<std::size_t>(heads));
    cache.k.resize(static_cast<std::size_t>(heads));
    cache.weights.resize(static_cast<std::size_t>(heads));
    for (int h = 0; h < heads; ++h) {
        Mat<S> q = qkv.block(0, h * dh, n, dh);
        Mat<S> k = qkv.block(0, d + h * dh, n, dh);
        const Mat<S> v = qkv.block(0, 2 * d + h * dh, n, dh);
        hooks.TurnForward(q, k);
        Mat<S> scores = q * k.transpose() * scale;
        hooks.BiasForward(scores, h);
        Mat<S>& weights = cache.weights[static_cast<std::size_t>(h)];
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
        attended.block(0, h * dh, n, dh) = weights * v;
        cache.q[static_cast<std::size_t>(h)] = std::move(q);
        cache.k[static_cast<std::size_t>(h)] = std::move(k);
        if (weights_out != nullptr && h == weights_head) MapMat<S>(weights_out, n, n) = weights;
    }
    return attended;
}

/// Returns d qkv (n × 3d); the method's bias parameters get their share in d_own.
template <typename S>
Mat<S> AttentionBackward(const Mat<S>& d_attended, const Mat<S>& qkv, int heads,
                         const PositionalHooks<S>& hooks, const AttentionCache<S>& cache,
                         S* d_own) {
    const Eigen::Index n = qkv.rows(), d = qkv.cols() / 3, dh = d / heads;
    const S scale = S(1) / std::sqrt(static_cast<S>(dh));
    Mat<S> d_qkv = Mat<S>::Zero(n, 3 * d);
    for (int h = 0; h < heads; ++h) {
        const Mat<S>& weights = cache.weights[static_cast<std::size_t>(h)];
        const Mat<S> v = qkv.block(0, 2 * d + h * dh, n, dh);
        const Mat<S> d_out = d_attended.block(0, h * dh, n, dh);
        d_qkv.block(0, 2 * d + h * dh, n, dh) = weights.transpose() * d_out;
        const Mat<S> d_weights = d_out * v.transpose();
        Mat<S> d_scores(n, n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const S dot = d_weights.row(i).dot(weights.row(i));
            d_scores.row(i) =
                weights.row(i).cwiseProduct((d_weights.row(i).array() - dot).matrix());
        }
        hooks.BiasBackward(d_scores, h, d_own);
        Mat<S> dq = d_scores * cache.k[static_cast<std::size_t>(h)] * scale;
        Mat<S> dk = d_scores.transpose() * cache.q[static_cast<std::size_t>(h)] * scale;
        hooks.TurnBackward(dq, dk);
        d_qkv.block(0, h * dh, n, dh) = dq;
        d_qkv.block(0, d + h * dh, n, dh) = dk;
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
