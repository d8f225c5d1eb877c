// RoPE trained with one pairing and measured with the other: the weights learn with the paper's
// interleaved pairs (2i, 2i + 1), as `rope` does, bit for bit; every measurement (accuracy,
// logits, attention maps) runs them with the half-split pairs (i, i + d_h/2) of GPT-NeoX and
// Llama's Hugging Face code (rope_hooks.h). What a model loses when a checkpoint is loaded
// into code of the other convention: q·k stays a function of m − n, but most dimensions turn at
// a frequency they were not trained for.
#include "positional/rope_hooks.h"

#include <memory>

namespace pelab::trainer {

namespace {

template <typename S> class CrossedRopeHooks final : public PositionalHooks<S> {
public:
    explicit CrossedRopeHooks(const SequenceView<S>& sequence) {
        if (sequence.measuring)
            turn_ = std::make_unique<HalfSplitRopeHooks<S>>(sequence);
        else
            turn_ = std::make_unique<InterleavedRopeHooks<S>>(sequence);
    }
    void TurnForward(Mat<S>& q, Mat<S>& k) const override { turn_->TurnForward(q, k); }
    void TurnBackward(Mat<S>& dq, Mat<S>& dk) const override { turn_->TurnBackward(dq, dk); }

private:
    std::unique_ptr<PositionalHooks<S>> turn_;
};

} // namespace

PositionalMethod RopeCrossedMethod() {
    return MethodOf<CrossedRopeHooks>("RoPE, pairs crossed", "Su et al. 2021", NoOwnParameters,
                                      NoOptions);
}

} // namespace pelab::trainer
