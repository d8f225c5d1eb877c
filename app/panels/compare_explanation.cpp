// The compare panel's explanation: which pairs tell two positions apart, and why, worded from
// the numbers (and with the similarity readout's own label, so the two never disagree).
#include "panel_compare.h"

#include "pelab/similarity.h"
#include "pelab/sinusoidal.h"

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

std::string Capitalised(std::string text) {
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z')
        text[0] = static_cast<char>(text[0] - 32);
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

std::string ExplainDifference(double pos_a, double pos_b, int d_model, double base) {
    const double distance = std::fabs(pos_a - pos_b);
    char text[512];
    if (distance == 0) {
        std::snprintf(text, sizeof text,
                      "The two positions are the same, so every dimension agrees: Δ is 0 "
                      "everywhere and the dot product is its maximum, d_model/2 = %d.",
                      d_model / 2);
        return text;
    }
    // A pair separates the positions when its hands are far apart: the angle between them,
    // ω_i·|A−B| (mod 2π), is large. Pairs that turned less than 0.1 rad are "too slow to
    // notice"; past half a turn the gap between the two hands shrinks again as the distance
    // grows, so such a pair still tells the positions apart but no longer in order of distance.
    const std::vector<double> w = frequencies(d_model, base);
    int wrapped = 0, telling = 0, still = 0, first_telling = -1, last_telling = -1;
    for (int i = 0; i < static_cast<int>(w.size()); ++i) {
        const double turned = w[i] * distance;
        if (turned > M_PI) {
            ++wrapped;
        } else if (turned >= 0.1) {
            ++telling;
            if (first_telling < 0) first_telling = i;
            last_telling = i;
        } else {
            ++still;
        }
    }
    const int pairs = static_cast<int>(w.size());
    // The distance is described with the same word as the similarity readout, so the two never
    // disagree ("far" beside "similarity: moderate" did).
    const char* label =
        similarity_label(compare_positions(pos_a, pos_b, d_model, base).cosine_similarity);
    char head[160];
    std::snprintf(head, sizeof head, "Positions %.6g and %.6g are %.6g apart (similarity %s).",
                  pos_a, pos_b, distance, label);
    // Counts are worded for one or many, and a group of no pairs is not mentioned at all.
    const std::string fastest = Counted(wrapped, "fastest"), slowest = Counted(still, "slowest");
    const bool one_fast = wrapped == 1, one_slow = still == 1;
    std::string body;
    if (wrapped == 0 && telling == 0) {
        // A tiny distance: even pair 0 has hardly turned.
        std::snprintf(text, sizeof text,
                      " Even the fastest pair turns only %.3g rad between them (under 0.1 rad), so "
                      "every pair barely differs.",
                      w[0] * distance);
        body = text;
    } else if (wrapped == 0) {
        std::snprintf(text, sizeof text, " %s %s them apart, turning up to %.2f rad between them",
                      Span(first_telling, last_telling, w).c_str(),
                      first_telling == last_telling ? "tells" : "tell", w[0] * distance);
        body = text;
        if (still > 0) {
            std::snprintf(text, sizeof text,
                          "; %s (wavelength%s ≫ %.6g) %s barely moved and look%s the same.",
                          slowest.c_str(), one_slow ? "" : "s", distance, one_slow ? "has" : "have",
                          one_slow ? "s" : "");
            body += text;
        } else {
            body += ".";
        }
    } else if (telling > 0) {
        std::snprintf(text, sizeof text,
                      " %s turned more than half a turn between them: %s, but no longer in order. "
                      "%s %s the two positions in order",
                      Capitalised(fastest + (one_fast ? " has" : " have")).c_str(),
                      one_fast ? "it still differs" : "they still differ",
                      Span(first_telling, last_telling, w).c_str(),
                      first_telling == last_telling ? "separates" : "separate");
        body = text;
        if (still > 0) {
            std::snprintf(text, sizeof text, ", and %s barely %s.", slowest.c_str(),
                          one_slow ? "differs" : "differ");
            body += text;
        } else {
            body += ".";
        }
    } else if (still > 0) {
        // Small d_model: the frequencies are so far apart that none falls in between.
        std::snprintf(text, sizeof text,
                      " No pair turns a readable amount between them: %s %s more than half a turn "
                      "(%s, but not in order) and %s less than 0.1 rad (barely %s). With %d pairs "
                      "the frequencies are too far apart to cover this distance; a larger d_model "
                      "fills the gap.",
                      fastest.c_str(), one_fast ? "turns" : "turn",
                      one_fast ? "it differs" : "they differ", slowest.c_str(),
                      one_slow ? "differs" : "differ", pairs);
        body = text;
    } else if (pairs == 1) {
        body = " The only pair (ω_0 = 1 whatever the base) has turned more than half a turn, so "
               "its values differ but not in order. A larger d_model adds slower pairs that would "
               "order them.";
    } else {
        std::snprintf(text, sizeof text,
                      " Every pair has turned more than half a turn at base %.6g, so the encodings "
                      "differ but not in order; a larger base or d_model would give slow pairs "
                      "that still order them.",
                      base);
        body = text;
    }
    return head + body;
}

} // namespace pelab
