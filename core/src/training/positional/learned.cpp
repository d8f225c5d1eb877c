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
    explicit LearnedHooks(const SequenceView<S>& sequence)
        : table_(sequence.own), length_(sequence.length) {}
    void InputForward(Mat<S>& x) const override {
        const Eigen::Index d = x.cols();
        for (Eigen::Index r = 0; r < x.rows(); ++r)
            x.row(r) += ConstMapRow<S>(table_ + (r % length_) * d, d);
    }
    void InputBackward(const Mat<S>& dx, S* d_own) const override {
        const Eigen::Index d = dx.cols();
        for (Eigen::Index r = 0; r < dx.rows(); ++r)
            MapRow<S>(d_own + (r % length_) * d, d) += dx.row(r);
    }

private:
    const S* table_;
    Eigen::Index length_;
};

namespace {
std::vector<OwnParameter> LearnedTable(const TransformerConfig& config) {
    return {{"learned.table", config.max_len, config.d_model, Init::Normal, kLearnedTableStd}};
}
} // namespace

PositionalMethod LearnedMethod() {
    return MethodOf<LearnedHooks>("Learned table", "Gehring et al. 2017", LearnedTable, NoOptions);
}

} // namespace pelab::trainer
