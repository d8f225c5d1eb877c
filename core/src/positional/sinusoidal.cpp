// Vaswani et al.'s sinusoidal encoding added to the input: x₀[p] += PE(p), PE's dims 2i and
// 2i + 1 the sin and cos of p·base^(−2i/d_model), from the core's own sinusoid
// (pe_vector_double, the analysis panels' formula). Fixed: it owns no parameter, and its
// backward has nothing to add.
#include "pelab/sinusoidal.h"
#include "positional/method.h"

namespace pelab::trainer {

template <typename S> class SinusoidalHooks final : public PositionalHooks<S> {
public:
    explicit SinusoidalHooks(const SequenceView<S>& sequence) : config_(sequence.config) {}
    void InputForward(Mat<S>& x) const override {
        for (Eigen::Index p = 0; p < x.rows(); ++p) {
            const std::vector<double> pe =
                pe_vector_double(static_cast<double>(p), config_.d_model, config_.base);
            for (Eigen::Index k = 0; k < x.cols(); ++k)
                x(p, k) += static_cast<S>(pe[static_cast<std::size_t>(k)]);
        }
    }

private:
    const TransformerConfig& config_;
};

PositionalMethod SinusoidalMethod() {
    return MethodOf<SinusoidalHooks>(NoOwnParameters, NoOptions);
}

} // namespace pelab::trainer
