// A learned table of positions added to the input, as GPT-2's: x₀[p] += P[p], P max_len ×
// d_model, starting N(0, 0.02²). Rows past the longest trained sequence never get a gradient
// (the table's hard edge, which the length plot shows).
#include "positional/method.h"

namespace pelab::trainer {

namespace {
constexpr double kLearnedTableStd = 0.02; // as GPT-2 initialises its position table
}

template <typename S> class LearnedHooks final : public PositionalHooks<S> {
public:
    explicit LearnedHooks(const SequenceView<S>& sequence) : table_(sequence.own) {}
    void InputForward(Mat<S>& x) const override {
        const Eigen::Index d = x.cols();
        for (Eigen::Index p = 0; p < x.rows(); ++p)
            x.row(p) += ConstMapRow<S>(table_ + p * d, d);
    }
    void InputBackward(const Mat<S>& dx, S* d_own) const override {
        const Eigen::Index d = dx.cols();
        for (Eigen::Index p = 0; p < dx.rows(); ++p)
            MapRow<S>(d_own + p * d, d) += dx.row(p);
    }

private:
    const S* table_;
};

namespace {
std::vector<OwnParameter> LearnedTable(const TransformerConfig& config) {
    return {{"learned.table", config.max_len, config.d_model, Init::Normal, kLearnedTableStd}};
}
} // namespace

PositionalMethod LearnedMethod() {
    return MethodOf<LearnedHooks>(LearnedTable, NoOptions);
}

} // namespace pelab::trainer
