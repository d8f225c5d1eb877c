// Vaswani et al.'s sinusoidal encoding added to the input: x₀[p] += PE(p), PE's dims 2i and
// 2i + 1 the sin and cos of p·base^(−2i/d_model), from the core's own sinusoid
// (pe_vector_double, the analysis panels' formula). Fixed: it owns no parameter, and its
// backward has nothing to add.
#include "pelab/encodings/sinusoidal.h"
#include "positional/method.h"

namespace pelab::trainer {

template <typename S> class SinusoidalHooks final : public PositionalHooks<S> {
public:
    explicit SinusoidalHooks(const SequenceView<S>& sequence)
        : table_(sequence.length, sequence.config.d_model) {
        for (int p = 0; p < sequence.length; ++p) {
            const std::vector<double> pe = pe_vector_double(
                static_cast<double>(p), sequence.config.d_model, sequence.config.base);
            for (Eigen::Index k = 0; k < table_.cols(); ++k)
                table_(p, k) = static_cast<S>(pe[static_cast<std::size_t>(k)]);
        }
    }
    void InputForward(Mat<S>& x) const override {
        for (Eigen::Index r = 0; r < x.rows(); ++r)
            x.row(r) += table_.row(r % table_.rows());
    }

private:
    Mat<S> table_; ///< PE(p) for the batch's positions, rounded once to S
};

PositionalMethod SinusoidalMethod() {
    return MethodOf<SinusoidalHooks>("Sinusoidal", "Vaswani et al. 2017", NoOwnParameters,
                                     NoOptions);
}

} // namespace pelab::trainer
