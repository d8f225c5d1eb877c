// ALiBi (Press et al.): no encoding of the tokens; each head's scores get −m_h·|i − j|, the
// slopes m_h the core's alibi_slopes (the analysis panels' rule). Bidirectional models use
// |i − j| both ways. Fixed: no parameter, nothing to add backward.
#include "pelab/encodings/alternatives.h"
#include "positional/method.h"

#include <cstdlib>

namespace pelab::trainer {

template <typename S> class AlibiHooks final : public PositionalHooks<S> {
public:
    explicit AlibiHooks(const SequenceView<S>& sequence)
        : slopes_(alibi_slopes(sequence.config.heads)) {}
    void BiasForward(Mat<S>& scores, int head) const override {
        const double slope = slopes_[static_cast<std::size_t>(head)];
        for (Eigen::Index i = 0; i < scores.rows(); ++i)
            for (Eigen::Index j = 0; j < scores.cols(); ++j)
                scores(i, j) += static_cast<S>(-slope * std::abs(i - j));
    }

private:
    std::vector<double> slopes_;
};

PositionalMethod AlibiMethod() {
    return MethodOf<AlibiHooks>("ALiBi", "Press et al. 2022", NoOwnParameters, NoOptions);
}

} // namespace pelab::trainer
