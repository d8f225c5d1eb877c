// p-RoPE (Barbero et al., 2024, "Round and Round We Go! What makes Rotary Positional Encodings
// useful?"): RoPE's interleaved pairs with the lowest frequencies removed. The first
// ⌊p·d_h/2⌋ pairs, the fastest, keep θ_i = base^(−2i/d_h); the rest do not turn
// (pelab/scaling/rope_family.h's p_rope_plan), here with p = 0.75.
#include "positional/plan_hooks.h"

#include "pelab/base/error.h"

#include <string>

namespace pelab::trainer {

namespace {

constexpr double kKeptShare = 0.75; ///< p

template <typename S> class PRopeHooks final : public PositionalHooks<S> {
public:
    explicit PRopeHooks(const SequenceView<S>& sequence)
        : hooks_(sequence,
                 p_rope_plan(HeadWidth(sequence.config), sequence.config.base, kKeptShare),
                 PairsOf(RopePairing::Interleaved, HeadWidth(sequence.config))) {}
    void TurnForward(Mat<S>& q, Mat<S>& k) const override { hooks_.TurnForward(q, k); }
    void TurnBackward(Mat<S>& dq, Mat<S>& dk) const override { hooks_.TurnBackward(dq, dk); }

private:
    static int HeadWidth(const TransformerConfig& c) { return c.d_model / c.heads; }
    PlanHooks<S> hooks_;
};

// At head width 2 the one pair is the slowest quarter too: nothing would turn.
void NeedsATurningPair(const TransformerConfig& config) {
    const int width = config.d_model / config.heads;
    const int pairs = width / 2; // the width is even
    if (static_cast<int>(kKeptShare * pairs) < 1)
        throw InvalidArgument("p_rope keeps the fastest three quarters of each head's pairs "
                              "turning, none at head width " +
                              std::to_string(width) +
                              ": it needs a head width of 4 or more (a wider model or fewer "
                              "heads)");
}

} // namespace

PositionalMethod PRopeMethod() {
    return MethodOf<PRopeHooks>("p-RoPE", "Barbero et al. 2024", NoOwnParameters,
                                NeedsATurningPair);
}

} // namespace pelab::trainer
