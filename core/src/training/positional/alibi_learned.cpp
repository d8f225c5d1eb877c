// ALiBi with learned slopes: ALiBi's bias −m_h·|i − j| (Press et al. 2022, alibi.cpp), each
// head's slope trained instead of fixed. The paper fixes the slopes; this row lets the lab train
// them from the same start. A slope is kept positive as m_h·softplus(w_h)/ln 2 of a free w_h, so
// w_h = 0 (the start) gives the paper's slope exactly and the gradient stays smooth for the
// checks. The table is heads × 1, shared by the layers; bidirectional models use |i − j| both
// ways, as ALiBi's here.
#include "pelab/encodings/alternatives.h"
#include "positional/method.h"

#include <cmath>
#include <cstdlib>

namespace pelab::trainer {

template <typename S> class AlibiLearnedHooks final : public PositionalHooks<S> {
public:
    explicit AlibiLearnedHooks(const SequenceView<S>& sequence)
        : paper_slopes_(alibi_slopes(sequence.config.heads)), raw_(sequence.own) {}
    void BiasForward(Mat<S>& scores, int head) const override {
        const double slope = Slope(head);
        for (Eigen::Index i = 0; i < scores.rows(); ++i)
            for (Eigen::Index j = 0; j < scores.cols(); ++j)
                scores(i, j) += static_cast<S>(-slope * static_cast<double>(std::abs(i - j)));
    }
    void BiasBackward(const Mat<S>& d_scores, int head, S* d_own) const override {
        double d_slope = 0;
        for (Eigen::Index i = 0; i < d_scores.rows(); ++i)
            for (Eigen::Index j = 0; j < d_scores.cols(); ++j)
                d_slope -=
                    static_cast<double>(d_scores(i, j)) * static_cast<double>(std::abs(i - j));
        // d slope / d w_h = m_h·σ(w_h)/ln 2.
        d_own[head] +=
            static_cast<S>(d_slope * PaperSlope(head) * Sigmoid(Raw(head)) / std::log(2.0));
    }

private:
    double PaperSlope(int head) const { return paper_slopes_[static_cast<std::size_t>(head)]; }
    double Raw(int head) const { return static_cast<double>(raw_[head]); }
    double Slope(int head) const { return PaperSlope(head) * Softplus(Raw(head)) / std::log(2.0); }
    std::vector<double> paper_slopes_;
    const S* raw_;
};

namespace {

std::vector<OwnParameter> LearnedSlopes(const TransformerConfig& config) {
    return {{"alibi_learned.slope", config.heads, 1, Init::Zero, 0.0}};
}

} // namespace

PositionalMethod AlibiLearnedMethod() {
    return MethodOf<AlibiLearnedHooks>("ALiBi, learned slopes", "Press et al. 2022", LearnedSlopes,
                                       NoOptions);
}

} // namespace pelab::trainer
