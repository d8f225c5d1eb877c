// The compare panel's explanation: which pairs tell two positions apart, and why, worded from
// the numbers (and with the similarity readout's own label, so the two never disagree).
#include "panels/compare/panel_compare.h"

#include "widgets/number_text.h"

#include "pelab/encodings/pair_turns.h"
#include "pelab/encodings/similarity.h"
#include "pelab/encodings/sinusoidal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

// "the fastest pair" or "the 3 fastest pairs".
std::string Counted(int count, const char* adjective) {
    char text[64];
    if (count == 1)
        std::snprintf(text, sizeof text, "the %s pair", adjective);
    else
        std::snprintf(text, sizeof text, "the %d %s pairs", count, adjective);
    return text;
}

// "Pair 4 (wavelength 97)" or "Pairs 4 to 9 (wavelengths 97 to 2952)".
std::string Span(int first, int last, const std::vector<double>& w) {
    char text[160];
    if (first == last)
        std::snprintf(text, sizeof text, "Pair %d (wavelength %.0f)", first, 2 * M_PI / w[first]);
    else
        std::snprintf(text, sizeof text, "Pairs %d to %d (wavelengths %.0f to %.0f)", first, last,
                      2 * M_PI / w[first], 2 * M_PI / w[last]);
    return text;
}

} // namespace

namespace {

// Every pair barely moved or came back to (almost) its angle: the encodings nearly agree.
bool LooksAlike(const MotionCounts& counts) {
    return counts.in_order == 0 && counts.wrapped == 0;
}

// The sentence on the pairs that came round (aliasing), or "" when none did.
std::string CameRoundText(const std::vector<PairTurn>& turns, const MotionCounts& counts,
                          double distance) {
    if (counts.came_round == 0) return {};
    char text[640];
    const PairTurn* closest = nullptr;
    for (const PairTurn& turn : turns)
        if (turn.motion == PairMotion::CameRound &&
            (!closest || turn.off_whole_turn > closest->off_whole_turn))
            closest = &turn;
    std::snprintf(text, sizeof text,
                  " %s came round: %s a whole number of turns to within %s rad of %s "
                  "start, so %s alike at both positions although they are %s apart "
                  "(aliasing).",
                  Capitalised(PairList(turns, PairMotion::CameRound)).c_str(),
                  counts.came_round == 1 ? "it turned" : "each turned",
                  ShownNumber(closest->off_whole_turn, 2).c_str(),
                  counts.came_round == 1 ? "its" : "its own",
                  counts.came_round == 1 ? "it looks" : "they look", ShownNumber(distance).c_str());
    return text;
}

// What the pairs say about the two positions, after the head sentence.
std::string DifferenceBody(const MotionCounts& counts, const std::vector<double>& w,
                           double distance, int pairs, double base, const std::string& came_round) {
    char text[640];
    // Past half a turn: the pairs that came round look alike, the rest differ out of order.
    const int past_half = counts.wrapped + counts.came_round;
    const std::string fastest = Counted(past_half, "fastest"),
                      slowest = Counted(counts.still, "slowest");
    const bool one_fast = past_half == 1, one_slow = counts.still == 1;
    const bool looks_alike = LooksAlike(counts);
    std::string body;
    if (past_half == 0 && counts.in_order == 0) {
        // A tiny distance: even pair 0 has hardly turned.
        std::snprintf(text, sizeof text,
                      " Even the fastest pair turns only %s rad between them (under 0.1 rad), so "
                      "every pair barely differs.",
                      ShownNumber(w[0] * distance, 3).c_str());
        body = text;
    } else if (past_half == 0) {
        std::snprintf(text, sizeof text, " %s %s them apart, turning up to %.2f rad between them",
                      Span(counts.first_in_order, counts.last_in_order, w).c_str(),
                      counts.first_in_order == counts.last_in_order ? "tells" : "tell",
                      w[0] * distance);
        body = text;
        if (counts.still > 0) {
            std::snprintf(text, sizeof text,
                          "; %s (wavelength%s ≫ %s) %s barely moved and look%s the same.",
                          slowest.c_str(), one_slow ? "" : "s", ShownNumber(distance).c_str(),
                          one_slow ? "has" : "have", one_slow ? "s" : "");
            body += text;
        } else {
            body += ".";
        }
    } else if (counts.in_order > 0) {
        std::snprintf(text, sizeof text,
                      " %s turned more than half a turn between them, so %s no longer in order%s. "
                      "%s %s the two positions in order",
                      Capitalised(fastest + (one_fast ? " has" : " have")).c_str(),
                      one_fast ? "it is" : "they are",
                      counts.came_round == 0
                          ? (one_fast ? " (it still differs)" : " (they still differ)")
                          : "",
                      Span(counts.first_in_order, counts.last_in_order, w).c_str(),
                      counts.first_in_order == counts.last_in_order ? "separates" : "separate");
        body = text;
        if (counts.still > 0) {
            std::snprintf(text, sizeof text, ", and %s barely %s.", slowest.c_str(),
                          one_slow ? "differs" : "differ");
            body += text;
        } else {
            body += ".";
        }
        body += came_round;
    } else if (looks_alike) {
        body = came_round;
        std::snprintf(text, sizeof text,
                      " Every pair either barely moved or came round again, so the two encodings "
                      "are nearly the same: with %d pair%s this encoding can hardly tell these "
                      "positions apart.",
                      pairs, pairs == 1 ? "" : "s");
        body += text;
    } else if (counts.still > 0) {
        // Small d_model: the frequencies are so far apart that none falls in between.
        std::snprintf(text, sizeof text,
                      " No pair turns a readable amount between them: %s %s more than half a turn "
                      "(not in order) and %s less than 0.1 rad (barely %s). With %d pairs "
                      "the frequencies are too far apart to cover this distance; a larger d_model "
                      "fills the gap.",
                      fastest.c_str(), one_fast ? "turns" : "turn", slowest.c_str(),
                      one_slow ? "differs" : "differ", pairs);
        body = text + came_round;
    } else if (pairs == 1) {
        body = " The only pair (ω_0 = 1 whatever the base) has turned more than half a turn, so "
               "its values differ but not in order. A larger d_model adds slower pairs that would "
               "order them.";
    } else {
        std::snprintf(text, sizeof text,
                      " Every pair has turned more than half a turn at base %s, so no pair orders "
                      "them; a larger base or d_model would give slow pairs that still order them.",
                      ShownNumber(base).c_str());
        body = text + came_round;
    }
    return body;
}

} // namespace

Explanation ExplainDifference(double pos_a, double pos_b, int d_model, double base) {
    Explanation out;
    const double distance = std::fabs(pos_a - pos_b);
    char text[640];
    const std::vector<PairTurn> turns = pair_turns(pos_a, pos_b, d_model, base);
    const MotionCounts counts = count_motions(turns);
    const int pairs = static_cast<int>(turns.size());
    out.Claims("pairs", pairs);
    out.Claims("still_pairs", counts.still);
    out.Claims("in_order_pairs", counts.in_order);
    out.Claims("came_round_pairs", counts.came_round);
    out.Claims("wrapped_pairs", counts.wrapped);
    if (distance == 0) {
        std::snprintf(text, sizeof text,
                      "The two positions are the same, so every dimension agrees: Δ is 0 "
                      "everywhere and the dot product is its maximum, d_model/2 = %d.",
                      d_model / 2);
        out.text = text;
        out.Claims("looks_alike", 1);
        return out;
    }
    // A pair separates the positions when its hands are far apart: the angle between them,
    // θ_i = ω_i·|A−B| (mod 2π), is large (pelab/encodings/pair_turns.h names the four cases).
    const std::vector<double> w = frequencies(d_model, base);
    // The distance is described with the same word as the similarity readout, so the two never
    // disagree ("far" beside "similarity: moderate" did).
    const char* label =
        similarity_label(compare_positions(pos_a, pos_b, d_model, base).cosine_similarity);
    char head[200];
    // Each position with the digits that tell it from the other (1 000 000 and 999 999.5).
    const auto [shown_a, shown_b] = ShownPair(pos_a, pos_b);
    std::snprintf(head, sizeof head, "Positions %s and %s are %s apart (similarity %s).",
                  shown_a.c_str(), shown_b.c_str(), ShownNumber(distance).c_str(), label);
    out.Claims("looks_alike", LooksAlike(counts) ? 1 : 0);
    out.text = head + DifferenceBody(counts, w, distance, pairs, base,
                                     CameRoundText(turns, counts, distance));
    return out;
}

} // namespace pelab
