// pelab/encodings/pair_turns.h — how each sinusoidal pair moved between two positions, the fact
// every explanation of "why these two positions differ (or look alike)" is worded from.
//
// Pair i's hands turn by θ_i = ω_i·|A − B| radians between positions A and B. What a reader
// sees in the pair's two dims depends on θ_i alone:
//   Still      θ_i < kStillRadians: the pair has barely moved; its dims look the same.
//   InOrder    kStillRadians ≤ θ_i ≤ π: the pair tells the positions apart, and a larger
//              distance gives a larger gap (up to half a turn).
//   CameRound  θ_i > π and within kStillRadians of a whole number of turns (k ≥ 1): the pair has
//              gone round and come back to almost the same angle, so its dims look alike
//              although the positions are far apart (aliasing: positions 2π·k/ω_i apart).
//   Wrapped    every other θ_i > π: the dims differ, but no longer in order of distance.
// Contracts: as pelab/encodings/sinusoidal.h (d_model, base, positions).
#pragma once

#include <vector>

namespace pelab {

constexpr double kStillRadians = 0.1;

enum class PairMotion { Still, InOrder, CameRound, Wrapped };

struct PairTurn {
    int pair = 0;
    double turned = 0;         ///< θ_i = ω_i·|A − B|, radians
    int whole_turns = 0;       ///< round(θ_i / 2π)
    double off_whole_turn = 0; ///< |θ_i − 2π·whole_turns|, radians
    PairMotion motion = PairMotion::Still;
};

/// The motion of a pair that turned by `turned` radians (≥ 0), by the rules above.
PairMotion classify_turn(double turned);

/// Every pair's turn between pos_a and pos_b, pair 0 (fastest) first.
std::vector<PairTurn> pair_turns(double pos_a, double pos_b, int d_model, double base);

/// How many pairs of turns have each motion: counts[static_cast<int>(motion)].
struct MotionCounts {
    int still = 0, in_order = 0, came_round = 0, wrapped = 0;
    int first_in_order = -1, last_in_order = -1; ///< pair indices, -1 when none
    int first_came_round = -1, last_came_round = -1;
};
MotionCounts count_motions(const std::vector<PairTurn>& turns);

} // namespace pelab
