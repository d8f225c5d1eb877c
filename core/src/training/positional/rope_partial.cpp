// Partial rotary, as GPT-NeoX and Pythia use it (rotary_pct 0.25): only the first quarter of
// each head's dimensions turn, r = ⌊0.25·d_h⌋ rounded down to even, at base^(−2i/r) (the whole
// spectrum over fewer pairs; pelab/scaling/rope_family.h's partial_rotary_plan), paired half-split
// within them as NeoX's rotate_half does: pair i is dimensions (i, i + r/2). The other
// dimensions carry no position.
#include "positional/plan_hooks.h"

#include "pelab/base/error.h"

#include <string>

namespace pelab::trainer {

namespace {

constexpr double kRotaryFraction = 0.25; ///< GPT-NeoX's rotary_pct

template <typename S> class PartialRotaryHooks final : public PositionalHooks<S> {
public:
    explicit PartialRotaryHooks(const SequenceView<S>& sequence)
        : hooks_(sequence,
                 partial_rotary_plan(HeadWidth(sequence.config), sequence.config.base,
                                     kRotaryFraction),
                 Dimensions(HeadWidth(sequence.config))) {}
    void TurnForward(Mat<S>& q, Mat<S>& k) const override { hooks_.TurnForward(q, k); }
    void TurnBackward(Mat<S>& dq, Mat<S>& dk) const override { hooks_.TurnBackward(dq, dk); }

private:
    static int HeadWidth(const TransformerConfig& c) { return c.d_model / c.heads; }
    // Half-split pairs inside the rotary dimensions; the pairs past them do not turn.
    static PairDimensions Dimensions(int width) {
        const int rotary = static_cast<int>(kRotaryFraction * width) / 2 * 2;
        PairDimensions dims = PairsOf(RopePairing::HalfSplit, rotary);
        for (int i = rotary / 2; i < width / 2; ++i) {
            dims.first.push_back(rotary + 2 * (i - rotary / 2));
            dims.second.push_back(rotary + 2 * (i - rotary / 2) + 1);
        }
        return dims;
    }
    PlanHooks<S> hooks_;
};

// A head too narrow for a quarter of it to hold a pair would train a model without positions
// under this name: refused, saying what it needs.
void NeedsARotaryPair(const TransformerConfig& config) {
    const int width = config.d_model / config.heads;
    if (static_cast<int>(kRotaryFraction * width) / 2 * 2 < 2)
        throw InvalidArgument("rope_partial turns a quarter of each head's dimensions, none at "
                              "head width " +
                              std::to_string(width) +
                              ": it needs a head width of 8 or more (a wider model or fewer "
                              "heads)");
}

} // namespace

PositionalMethod RopePartialMethod() {
    return MethodOf<PartialRotaryHooks>("Partial rotary", "Black et al. 2022 (GPT-NeoX)",
                                        NoOwnParameters, NeedsARotaryPair);
}

} // namespace pelab::trainer
