// CoPE (Golovneva et al., 2024, "Contextual Position Encoding"): positions counted by the
// model itself. Each query i gates every key it sees, g_ij = σ(s_ij) from the scores s (q·kᵀ/√d_h),
// and key j's position is the gates' sum from j to i, p_ij = Σ_{t=j..i} g_it: a count of the
// keys between that the query finds relevant (the words, if gates open on word ends), not of the
// tokens. A position embedding e[p] (rows 0 … max_len, one table of d_h values per row) is
// interpolated between ⌊p⌋ and ⌈p⌉ and scored against the query: s_ij += q_i·e[p_ij]. As the
// paper's code does, on the scores after scaling, the gates of masked keys 0; its table is per
// layer and shared by the heads, here one table shared by the layers as well (as T5's buckets
// are), starting at zero. Causal only: the count runs back from the query.
#include "pelab/base/error.h"
#include "pelab/encodings/relative_biases.h"
#include "positional/method.h"

#include <cmath>

namespace pelab::trainer {

namespace {

int HeadWidth(const TransformerConfig& c) {
    return c.d_model / c.heads;
}

} // namespace

template <typename S> class CopeHooks final : public PositionalHooks<S> {
public:
    explicit CopeHooks(const SequenceView<S>& sequence)
        : table_(sequence.own), rows_(sequence.config.max_len + 1),
          width_(HeadWidth(sequence.config)) {}
    bool ReadsContent() const override { return true; }
    void ContentForward(const Mat<S>& q, Mat<S>& scores) const override {
        const Mat<S> z = Scores(q); // z(i, r) = q_i·e[r]
        for (Eigen::Index i = 0; i < scores.rows(); ++i) {
            S position = 0;
            for (Eigen::Index j = i; j >= 0; --j) {
                position += Gate(scores(i, j));
                const Between at = At(position);
                scores(i, j) += (1 - at.w) * z(i, at.floor) + at.w * z(i, at.ceil);
            }
        }
    }
    void ContentBackward(const Mat<S>& q, const Mat<S>& read, const Mat<S>& d_scores,
                         Mat<S>& d_read, Mat<S>& dq, S* d_own) const override {
        const Eigen::Index n = read.rows();
        const Mat<S> z = Scores(q);
        Mat<S> dz = Mat<S>::Zero(n, rows_);
        std::vector<S> gates(static_cast<std::size_t>(n)), d_position(static_cast<std::size_t>(n));
        for (Eigen::Index i = 0; i < n; ++i) {
            S position = 0;
            for (Eigen::Index j = i; j >= 0; --j) {
                const S gate = Gate(read(i, j));
                gates[static_cast<std::size_t>(j)] = gate;
                position += gate;
                const Between at = At(position);
                const S d = d_scores(i, j);
                dz(i, at.floor) += d * (1 - at.w);
                dz(i, at.ceil) += d * at.w;
                // d/dp of the interpolation (0 at a whole p, where ⌊p⌋ = ⌈p⌉, as autograd says).
                d_position[static_cast<std::size_t>(j)] = d * (z(i, at.ceil) - z(i, at.floor));
            }
            // p_ij sums the gates g_it for t from j to i: gate t feeds every p_ij with j ≤ t.
            S feeds = 0;
            for (Eigen::Index t = 0; t <= i; ++t) {
                feeds += d_position[static_cast<std::size_t>(t)];
                const S gate = gates[static_cast<std::size_t>(t)];
                d_read(i, t) += feeds * gate * (1 - gate);
            }
        }
        const auto table = ConstMapMat<S>(table_, rows_, width_);
        dq += dz * table;
        MapMat<S>(d_own, rows_, width_) += dz.transpose() * q;
    }

private:
    struct Between {
        Eigen::Index floor, ceil;
        S w; ///< p − ⌊p⌋
    };
    static S Gate(S score) { return cope_gate(score); }
    Between At(S position) const {
        // p ≤ i + 1 ≤ max_len: within the table's rows (the clamp guards rounding only).
        const S top = static_cast<S>(rows_ - 1);
        position = std::min(position, top);
        const S below = std::floor(position);
        return {static_cast<Eigen::Index>(below), static_cast<Eigen::Index>(std::ceil(position)),
                position - below};
    }
    Mat<S> Scores(const Mat<S>& q) const {
        return q * ConstMapMat<S>(table_, rows_, width_).transpose();
    }
    const S* table_;
    int rows_, width_;
};

namespace {

std::vector<OwnParameter> CopeTable(const TransformerConfig& config) {
    return {{"cope.table", config.max_len + 1, HeadWidth(config), Init::Zero, 0.0}};
}

} // namespace

PositionalMethod CopeMethod() {
    PositionalMethod method =
        MethodOf<CopeHooks>("CoPE", "Golovneva et al. 2024", CopeTable, NoOptions);
    method.causal_only = true; // the count runs back from the query over the keys it sees
    return method;
}

} // namespace pelab::trainer
