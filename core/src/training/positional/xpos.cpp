// xPos (Sun et al., 2022, "A Length-Extrapolatable Transformer"): RoPE's interleaved pairs with
// queries at p scaled by ζ_i^(p/B) and keys by ζ_i^(−p/B), ζ_i = (2i/d_h + 0.4)/1.4, B = 512 (the
// paper's γ and scale base; pelab/scaling/rope_family.h), so each pair's share of q·k decays as
// ζ_i^((m − n)/B) with the distance to an earlier key. Causal only: a key after the query would
// be scaled up instead. The trainer's sequences are at most 1 024 long, where the scales stay
// within 0.08 … 12.3 in float, so they are computed from absolute positions (the paper's code
// centres them on the block, which only matters past ~36 000 positions: xpos_float32_limits).
#include "positional/plan_hooks.h"

namespace pelab::trainer {

namespace {

template <typename S> class XposHooks final : public PositionalHooks<S> {
public:
    explicit XposHooks(const SequenceView<S>& sequence)
        : hooks_(sequence,
                 xpos_plan(HeadWidth(sequence.config), sequence.config.base, XposOptions{}),
                 PairsOf(RopePairing::Interleaved, HeadWidth(sequence.config))) {}
    void TurnForward(Mat<S>& q, Mat<S>& k) const override { hooks_.TurnForward(q, k); }
    void TurnBackward(Mat<S>& dq, Mat<S>& dk) const override { hooks_.TurnBackward(dq, dk); }

private:
    static int HeadWidth(const TransformerConfig& c) { return c.d_model / c.heads; }
    PlanHooks<S> hooks_;
};

} // namespace

PositionalMethod XposMethod() {
    PositionalMethod method =
        MethodOf<XposHooks>("xPos", "Sun et al. 2022", NoOwnParameters, NoOptions);
    method.causal_only = true; // its scale would grow for keys after the query
    return method;
}

} // namespace pelab::trainer
