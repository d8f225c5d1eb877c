// FIRE (Li et al., 2023, "Functional Interpolation for Relative Positions Improves Long Context
// Transformers"): each head's bias on key j of query i is a learned MLP f of one number,
//   b_h(i, j) = f(u)_h,  u = ψ(i − j)/ψ(max(L, i)),  ψ(x) = log(c·x + 1),
// f one hidden layer of 32 ReLU units (the paper's; no output bias, as a constant per head does
// not move a softmax, so its gradient would be 0), c and L learned (kept positive as softplus
// of free parameters, both starting at ln 2), all shared by the layers. u lies in [0, 1] at any
// length: the query's own position normalises the distance. Causal only (i ≥ j).
//
// u and f(u) depend on the positions alone, so the hooks compute them once per batch for every
// pair j ≤ i; the backward gathers each pair's gradient from every sequence, layer and head and
// runs f's backward once, in InputBackward (the pass calls it after every other backward hook).
#include "pelab/encodings/relative_biases.h"
#include "positional/method.h"

#include <algorithm>
#include <cmath>

namespace pelab::trainer {

namespace {

constexpr int kHidden = 32;

// Where each tensor starts among the method's own parameters (own_parameters' order).
struct FireLayout {
    int heads;
    int w1() const { return 0; }
    int b1() const { return kHidden; }
    int w2() const { return 2 * kHidden; }
    int c() const { return 2 * kHidden + heads * kHidden; }
    int threshold() const { return c() + 1; }
};

} // namespace

template <typename S> class FireHooks final : public PositionalHooks<S> {
public:
    explicit FireHooks(const SequenceView<S>& sequence)
        : own_(sequence.own), at_{sequence.config.heads}, length_(sequence.length) {
        const std::size_t pairs = Pair(length_, 0);
        inputs_.resize(pairs);
        outputs_.resize(pairs * static_cast<std::size_t>(at_.heads));
        gathered_.assign(outputs_.size(), 0.0);
        const double c = Softplus(Own(at_.c())), threshold = Softplus(Own(at_.threshold()));
        for (int i = 0; i < length_; ++i)
            for (int j = 0; j <= i; ++j) {
                const double u = fire_input(i - j, i, c, threshold);
                inputs_[Pair(i, j)] = u;
                double hidden[kHidden];
                Hidden(u, hidden);
                for (int h = 0; h < at_.heads; ++h) {
                    double out = 0;
                    for (int k = 0; k < kHidden; ++k)
                        out += Own(at_.w2() + h * kHidden + k) * hidden[k];
                    outputs_[Pair(i, j) * at_.heads + h] = out;
                }
            }
    }
    void BiasForward(Mat<S>& scores, int head) const override {
        for (int i = 0; i < length_; ++i)
            for (int j = 0; j <= i; ++j)
                scores(i, j) += static_cast<S>(outputs_[Pair(i, j) * at_.heads + head]);
    }
    void BiasBackward(const Mat<S>& d_scores, int head, S* /*d_own*/) const override {
        for (int i = 0; i < length_; ++i)
            for (int j = 0; j <= i; ++j)
                gathered_[Pair(i, j) * at_.heads + head] += static_cast<double>(d_scores(i, j));
    }
    void InputBackward(const Mat<S>& /*dx*/, S* d_own) const override {
        if (d_own == nullptr) return;
        std::vector<double> d(static_cast<std::size_t>(at_.threshold() + 1), 0.0);
        double* grad = d.data(); // indexed as own_ is
        const double c_raw = Own(at_.c()), threshold_raw = Own(at_.threshold());
        const double c = Softplus(c_raw), threshold = Softplus(threshold_raw);
        for (int i = 0; i < length_; ++i)
            for (int j = 0; j <= i; ++j) {
                const std::size_t pair = Pair(i, j);
                const double u = inputs_[pair];
                double hidden[kHidden], d_hidden[kHidden] = {};
                Hidden(u, hidden);
                for (int h = 0; h < at_.heads; ++h) {
                    const double g = gathered_[pair * at_.heads + h];
                    for (int k = 0; k < kHidden; ++k) {
                        grad[at_.w2() + h * kHidden + k] += g * hidden[k];
                        d_hidden[k] += g * Own(at_.w2() + h * kHidden + k);
                    }
                }
                double d_u = 0;
                for (int k = 0; k < kHidden; ++k) {
                    if (hidden[k] <= 0) continue; // ReLU's gradient: 0 where it is off
                    grad[at_.w1() + k] += d_hidden[k] * u;
                    grad[at_.b1() + k] += d_hidden[k];
                    d_u += d_hidden[k] * Own(at_.w1() + k);
                }
                // u = A/B, A = log(1 + c·(i − j)), B = log(1 + c·max(L, i)).
                const double distance = i - j, scale = std::max(threshold, double(i));
                const double a = std::log1p(c * distance), b = std::log1p(c * scale);
                const double d_a_c = distance / (1 + c * distance), d_b_c = scale / (1 + c * scale);
                grad[at_.c()] += d_u * (d_a_c * b - a * d_b_c) / (b * b);
                if (threshold > i) // max(L, i) = L
                    grad[at_.threshold()] += d_u * (-a / (b * b)) * c / (1 + c * threshold);
            }
        grad[at_.c()] *= Sigmoid(c_raw);
        grad[at_.threshold()] *= Sigmoid(threshold_raw);
        for (std::size_t k = 0; k < d.size(); ++k)
            d_own[k] += static_cast<S>(d[k]);
    }

private:
    static std::size_t Pair(int i, int j) {
        return static_cast<std::size_t>(i) * (static_cast<std::size_t>(i) + 1) / 2 +
               static_cast<std::size_t>(j);
    }
    double Own(int k) const { return static_cast<double>(own_[k]); }
    void Hidden(double u, double* hidden) const {
        for (int k = 0; k < kHidden; ++k)
            hidden[k] = std::max(0.0, Own(at_.w1() + k) * u + Own(at_.b1() + k));
    }
    const S* own_;
    FireLayout at_;
    int length_;
    std::vector<double> inputs_, outputs_; ///< per pair j ≤ i: u; per pair and head: f(u)
    mutable std::vector<double> gathered_; ///< d loss / d f(u), per pair and head
};

namespace {

std::vector<OwnParameter> FireParameters(const TransformerConfig& config) {
    // PyTorch's Linear initialisation: U(±1/√in) for weights and biases.
    const double second = 1 / std::sqrt(static_cast<double>(kHidden));
    return {{"fire.mlp1.weight", kHidden, 1, Init::Uniform, 1.0},
            {"fire.mlp1.bias", kHidden, 1, Init::Uniform, 1.0},
            {"fire.mlp2.weight", config.heads, kHidden, Init::Uniform, second},
            {"fire.c", 1, 1, Init::Zero, 0.0},
            {"fire.threshold", 1, 1, Init::Zero, 0.0}};
}

} // namespace

PositionalMethod FireMethod() {
    PositionalMethod method =
        MethodOf<FireHooks>("FIRE", "Li et al. 2023", FireParameters, NoOptions);
    method.causal_only = true; // u is defined for keys at or before the query
    return method;
}

} // namespace pelab::trainer
