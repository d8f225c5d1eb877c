#include "pelab/encodings/pair_turns.h"

#include "pelab/encodings/sinusoidal.h"

#include <cmath>

namespace pelab {

PairMotion classify_turn(double turned) {
    if (turned < kStillRadians) return PairMotion::Still;
    if (turned <= M_PI) return PairMotion::InOrder;
    const double turns = std::round(turned / (2 * M_PI));
    return std::fabs(turned - 2 * M_PI * turns) < kStillRadians ? PairMotion::CameRound
                                                                : PairMotion::Wrapped;
}

std::vector<PairTurn> pair_turns(double pos_a, double pos_b, int d_model, double base) {
    validate_position(pos_a);
    validate_position(pos_b);
    const std::vector<double> w = frequencies(d_model, base);
    const double distance = std::fabs(pos_a - pos_b);
    std::vector<PairTurn> turns(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
        PairTurn& turn = turns[i];
        turn.pair = static_cast<int>(i);
        turn.turned = w[i] * distance;
        const double whole = std::round(turn.turned / (2 * M_PI));
        turn.whole_turns = static_cast<int>(whole);
        turn.off_whole_turn = std::fabs(turn.turned - 2 * M_PI * whole);
        turn.motion = classify_turn(turn.turned);
    }
    return turns;
}

MotionCounts count_motions(const std::vector<PairTurn>& turns) {
    MotionCounts counts;
    for (const PairTurn& turn : turns)
        switch (turn.motion) {
        case PairMotion::Still:
            ++counts.still;
            break;
        case PairMotion::InOrder:
            ++counts.in_order;
            if (counts.first_in_order < 0) counts.first_in_order = turn.pair;
            counts.last_in_order = turn.pair;
            break;
        case PairMotion::CameRound:
            ++counts.came_round;
            if (counts.first_came_round < 0) counts.first_came_round = turn.pair;
            counts.last_came_round = turn.pair;
            break;
        case PairMotion::Wrapped:
            ++counts.wrapped;
            break;
        }
    return counts;
}

} // namespace pelab
