// rope_hooks.h — RoPE's hooks (Su et al.) for either way of pairing a head's dimensions:
//   interleaved: pair i is dimensions (2i, 2i + 1) — the paper's, GPT-J's;
//   half-split:  pair i is dimensions (i, i + d_h/2) — GPT-NeoX's, and Llama's Hugging Face code.
// (pelab/encodings/alternatives.h's RopePairing, rope_pair_dimension). Either way pair i of row p
// turns by p·θ_i, θ_i = base^(−2i/d_h) (the core's rope_frequencies, the analysis panels' formula),
// with rope_turn, the turn rope_rotate makes; the two differ by a permutation of the head's
// dimensions, so both keep q·k a function of m − n. A turn is orthogonal: its backward turns the
// gradients by −p·θ_i. Neither owns a parameter.
#pragma once

#include "pelab/encodings/alternatives.h"
#include "positional/method.h"

#include <cmath>
#include <vector>

namespace pelab::trainer {

template <typename S, RopePairing Pairing> class RopeHooks final : public PositionalHooks<S> {
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
    // Row p's pair i turned by p·θ_i (back: by −p·θ_i).
    void Turn(Mat<S>& m, bool back) const {
        const Eigen::Index pairs = cosines_.cols();
        for (Eigen::Index p = 0; p < m.rows(); ++p)
            for (Eigen::Index i = 0; i < pairs; ++i) {
                const int width = static_cast<int>(2 * pairs), pair = static_cast<int>(i);
                const Eigen::Index first = rope_pair_dimension(Pairing, pair, 0, width);
                const Eigen::Index second = rope_pair_dimension(Pairing, pair, 1, width);
                rope_turn(m(p, first), m(p, second), cosines_(p, i),
                          back ? -sines_(p, i) : sines_(p, i));
            }
    }
    Mat<S> cosines_, sines_;
};

template <typename S> using InterleavedRopeHooks = RopeHooks<S, RopePairing::Interleaved>;
template <typename S> using HalfSplitRopeHooks = RopeHooks<S, RopePairing::HalfSplit>;

} // namespace pelab::trainer
