// plan_hooks.h — the turn hooks of RoPE's relatives (pelab/scaling/rope_family.h): each pair of a
// head's dimensions, at row p, is scaled by ζ^(p/B) (queries) or ζ^(−p/B) (keys) and turned by p·θ
// with rope_turn, the turn of every RoPE in the core. A pair with θ = 0 and ζ = 1 is left as
// it is. Backward: the gradients are turned back by −p·θ and scaled by the same factors (a turn
// is orthogonal and a scale its own transpose). None owns a parameter.
#pragma once

#include "pelab/encodings/alternatives.h"
#include "pelab/scaling/rope_family.h"
#include "positional/method.h"

#include <cmath>
#include <vector>

namespace pelab::trainer {

/// Which two dimensions of a head each pair of the plan turns.
struct PairDimensions {
    std::vector<int> first, second;
};

/// Pair i is (2i, 2i + 1) or (i, i + width/2) (pelab/encodings/alternatives.h's RopePairing).
inline PairDimensions PairsOf(RopePairing pairing, int width) {
    PairDimensions dims;
    for (int i = 0; i < width / 2; ++i) {
        dims.first.push_back(rope_pair_dimension(pairing, i, 0, width));
        dims.second.push_back(rope_pair_dimension(pairing, i, 1, width));
    }
    return dims;
}

template <typename S> class PlanHooks final : public PositionalHooks<S> {
public:
    PlanHooks(const SequenceView<S>& sequence, const RopePairPlan& plan, PairDimensions dims)
        : dims_(std::move(dims)) {
        for (int i = 0; i < plan.pairs(); ++i) {
            const auto at = static_cast<std::size_t>(i);
            if (plan.theta[at] == 0 && plan.zeta[at] == 1) continue;
            Pair pair{dims_.first[at], dims_.second[at], {}, {}, {}, {}};
            for (int p = 0; p < sequence.length; ++p) {
                const double angle = plan.theta[at] * p;
                pair.cosines.push_back(static_cast<S>(std::cos(angle)));
                pair.sines.push_back(static_cast<S>(std::sin(angle)));
                const bool decays = plan.zeta[at] != 1;
                pair.query_scale.push_back(
                    static_cast<S>(decays ? std::pow(plan.zeta[at], p / plan.scale_base) : 1.0));
                pair.key_scale.push_back(
                    static_cast<S>(decays ? std::pow(plan.zeta[at], -p / plan.scale_base) : 1.0));
            }
            pairs_.push_back(std::move(pair));
        }
    }
    void TurnForward(Mat<S>& q, Mat<S>& k) const override {
        Apply(q, true, false);
        Apply(k, false, false);
    }
    void TurnBackward(Mat<S>& dq, Mat<S>& dk) const override {
        Apply(dq, true, true);
        Apply(dk, false, true);
    }

private:
    struct Pair {
        int first, second;
        std::vector<S> cosines, sines, query_scale, key_scale;
    };
    // Forward: scale, then turn by p·θ; back: turn by −p·θ, then scale (the two commute).
    void Apply(Mat<S>& m, bool query, bool back) const {
        for (const Pair& pair : pairs_)
            for (Eigen::Index p = 0; p < m.rows(); ++p) {
                const auto at = static_cast<std::size_t>(p);
                const S scale = query ? pair.query_scale[at] : pair.key_scale[at];
                S& a = m(p, pair.first);
                S& b = m(p, pair.second);
                a *= scale;
                b *= scale;
                rope_turn(a, b, pair.cosines[at], back ? -pair.sines[at] : pair.sines[at]);
            }
    }
    PairDimensions dims_;
    std::vector<Pair> pairs_;
};

} // namespace pelab::trainer
