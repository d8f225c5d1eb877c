// RoPE (Su et al.): each head's queries and keys turned by their position, pair i of row p by
// the angle p·θ_i, θ_i = base^(−2i/d_h) (the core's rope_frequencies, the analysis panels'
// formula), each pair with rope_turn, the same turn rope_rotate makes. A turn is orthogonal,
// so its backward turns the gradients by −p·θ_i. Fixed: no parameter of its own.
#include "pelab/alternatives.h"
#include "positional/method.h"

#include <cmath>

namespace pelab::trainer {

template <typename S> class RopeHooks final : public PositionalHooks<S> {
public:
    explicit RopeHooks(const SequenceView<S>& sequence) {
        const TransformerConfig& c = sequence.config;
        const int head_width = c.d_model / c.heads;
        const std::vector<double> theta = rope_frequencies(head_width, c.base);
        cosines_.resize(sequence.length, head_width / 2);
        sines_.resize(sequence.length, head_width / 2);
        for (int p = 0; p < sequence.length; ++p)
            for (int i = 0; i < head_width / 2; ++i) {
                const double angle = theta[static_cast<std::size_t>(i)] * p;
                cosines_(p, i) = static_cast<S>(std::cos(angle));
                sines_(p, i) = static_cast<S>(std::sin(angle));
            }
    }
    void TurnForward(Mat<S>& q, Mat<S>& k) const override {
        Turn(q, false);
        Turn(k, false);
    }
    void TurnBackward(Mat<S>& dq, Mat<S>& dk) const override {
        Turn(dq, true);
        Turn(dk, true);
    }

private:
    // Row p's pair i (columns 2i, 2i + 1) turned by p·θ_i (back: by −p·θ_i).
    void Turn(Mat<S>& m, bool back) const {
        for (Eigen::Index p = 0; p < m.rows(); ++p)
            for (Eigen::Index i = 0; i < cosines_.cols(); ++i)
                rope_turn(m(p, 2 * i), m(p, 2 * i + 1), cosines_(p, i),
                          back ? -sines_(p, i) : sines_(p, i));
    }
    Mat<S> cosines_, sines_;
};

PositionalMethod RopeMethod() {
    return MethodOf<RopeHooks>(NoOwnParameters, NoOptions);
}

} // namespace pelab::trainer
