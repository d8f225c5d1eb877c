// KERPLE (Chi et al., 2022, "KERPLE: Kernelized Relative Positional Embedding for Length
// Extrapolation"), its logarithmic variant, the one the paper finds best: each head's scores get
// −r₁·log(1 + r₂·|i − j|), r₁ and r₂ > 0 learned per head. Kept positive as softplus of a free
// parameter (the paper clamps them at a small ε after each step; softplus keeps the gradient
// smooth for the checks), both starting at softplus(0) = ln 2. Bidirectional models use |i − j|
// both ways, as ALiBi's here. The table is heads × 2 (r₁'s and r₂'s free parameters), shared by
// the layers.
#include "pelab/encodings/relative_biases.h"
#include "positional/method.h"

#include <cmath>
#include <cstdlib>

namespace pelab::trainer {

namespace {} // namespace

template <typename S> class KerpleHooks final : public PositionalHooks<S> {
public:
    explicit KerpleHooks(const SequenceView<S>& sequence) : raw_(sequence.own) {}
    void BiasForward(Mat<S>& scores, int head) const override {
        const double r1 = Softplus(Raw(head, 0)), r2 = Softplus(Raw(head, 1));
        for (Eigen::Index i = 0; i < scores.rows(); ++i)
            for (Eigen::Index j = 0; j < scores.cols(); ++j)
                scores(i, j) +=
                    static_cast<S>(kerple_log_bias(r1, r2, static_cast<double>(std::abs(i - j))));
    }
    void BiasBackward(const Mat<S>& d_scores, int head, S* d_own) const override {
        const double r1 = Softplus(Raw(head, 0)), r2 = Softplus(Raw(head, 1));
        double d_r1 = 0, d_r2 = 0;
        for (Eigen::Index i = 0; i < d_scores.rows(); ++i)
            for (Eigen::Index j = 0; j < d_scores.cols(); ++j) {
                const double distance = static_cast<double>(std::abs(i - j));
                const double d = static_cast<double>(d_scores(i, j));
                d_r1 -= d * std::log1p(r2 * distance);
                d_r2 -= d * r1 * distance / (1 + r2 * distance);
            }
        d_own[2 * head] += static_cast<S>(d_r1 * Sigmoid(Raw(head, 0)));
        d_own[2 * head + 1] += static_cast<S>(d_r2 * Sigmoid(Raw(head, 1)));
    }

private:
    double Raw(int head, int which) const { return static_cast<double>(raw_[2 * head + which]); }
    const S* raw_;
};

namespace {

std::vector<OwnParameter> KerpleTable(const TransformerConfig& config) {
    return {{"kerple.r", config.heads, 2, Init::Zero, 0.0}};
}

} // namespace

PositionalMethod KerpleMethod() {
    return MethodOf<KerpleHooks>("KERPLE", "Chi et al. 2022", KerpleTable, NoOptions);
}

} // namespace pelab::trainer
