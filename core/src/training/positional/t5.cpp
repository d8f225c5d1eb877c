// T5's relative bias (Raffel et al.): each head's scores get a learned bias per bucket of the
// offset j − i, the buckets the core's t5_bucket (the analysis panels' rule; bidirectional
// unless causal), one table of buckets × heads shared by the layers and starting at 0.
#include "pelab/encodings/alternatives.h"
#include "positional/method.h"

namespace pelab::trainer {

namespace {
T5BucketOptions T5Options(const TransformerConfig& config) {
    return {config.t5_buckets, config.t5_max_distance, !config.causal};
}
} // namespace

template <typename S> class T5Hooks final : public PositionalHooks<S> {
public:
    explicit T5Hooks(const SequenceView<S>& sequence)
        : biases_(sequence.own), heads_(sequence.config.heads), length_(sequence.length) {
        const T5BucketOptions options = T5Options(sequence.config);
        buckets_.resize(static_cast<std::size_t>(length_) * static_cast<std::size_t>(length_));
        for (int i = 0; i < length_; ++i)
            for (int j = 0; j < length_; ++j)
                buckets_[Cell(i, j)] = t5_bucket(j - i, options);
    }
    void BiasForward(Mat<S>& scores, int head) const override {
        for (int i = 0; i < length_; ++i)
            for (int j = 0; j < length_; ++j)
                scores(i, j) += biases_[Bias(i, j, head)];
    }
    void BiasBackward(const Mat<S>& d_scores, int head, S* d_own) const override {
        for (int i = 0; i < length_; ++i)
            for (int j = 0; j < length_; ++j)
                d_own[Bias(i, j, head)] += d_scores(i, j);
    }

private:
    std::size_t Cell(int i, int j) const { return static_cast<std::size_t>(i) * length_ + j; }
    // The table is buckets × heads, row-major.
    std::size_t Bias(int i, int j, int head) const {
        return static_cast<std::size_t>(buckets_[Cell(i, j)]) * heads_ + head;
    }
    const S* biases_;
    int heads_, length_;
    std::vector<int> buckets_;
};

namespace {
std::vector<OwnParameter> T5Table(const TransformerConfig& config) {
    return {{"t5.bias", config.t5_buckets, config.heads, Init::Zero, 0.0}};
}
void CheckT5Options(const TransformerConfig& config) {
    validate_t5_options(T5Options(config));
}
} // namespace

PositionalMethod T5Method() {
    return MethodOf<T5Hooks>("T5 buckets", "Raffel et al. 2020", T5Table, CheckT5Options);
}

} // namespace pelab::trainer
