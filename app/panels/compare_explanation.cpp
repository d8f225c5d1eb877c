// The compare panel's explanation: which pairs tell two positions apart, and why, worded from
// the numbers (and with the similarity readout's own label, so the two never disagree).
#include "panel_compare.h"

#include "pelab/similarity.h"
#include "pelab/sinusoidal.h"

#include <cmath>
#include <cstdio>

namespace pelab {

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
    // notice"; pairs that turned more than half a turn have wrapped around, so their values
    // look unrelated rather than ordered.
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
    if (wrapped == 0) {
        std::snprintf(
            text, sizeof text,
            "Positions %.6g and %.6g are %.6g apart (similarity %s). The fast pairs (from pair 0) "
            "tell them apart, turning up to %.2f rad between them; %d of the %d pairs, "
            "the slow ones (wavelength ≫ %.6g), have barely moved and look the same.",
            pos_a, pos_b, distance, label, w[0] * distance, still, pairs, distance);
    } else if (telling > 0) {
        std::snprintf(
            text, sizeof text,
            "Positions %.6g and %.6g are %.6g apart (similarity %s). The %d fastest pairs have "
            "turned more than half a turn between them: they still differ, but no "
            "longer in order. Pairs %d to %d (wavelengths %.0f to %.0f) separate the two "
            "positions in order, and the %d slowest pairs barely differ.",
            pos_a, pos_b, distance, label, wrapped, first_telling, last_telling,
            2 * M_PI / w[first_telling], 2 * M_PI / w[last_telling], still);
    } else if (still > 0) {
        // Small d_model: the frequencies are so far apart that none falls in between.
        std::snprintf(text, sizeof text,
                      "Positions %.6g and %.6g are %.6g apart, and no pair turns a readable amount "
                      "between them: the %d fastest turn more than half a turn (they differ, but "
                      "not in order) and the %d slowest less than 0.1 rad (they barely differ). "
                      "With %d pairs the frequencies are too far apart to cover this distance; a "
                      "larger d_model fills the gap.",
                      pos_a, pos_b, distance, wrapped, still, pairs);
    } else if (pairs == 1) {
        std::snprintf(text, sizeof text,
                      "Positions %.6g and %.6g are %.6g apart: the only pair (ω_0 = 1 whatever the "
                      "base) has turned more than half a turn, so its values differ but not in "
                      "order. A larger d_model adds slower pairs that would order them.",
                      pos_a, pos_b, distance);
    } else {
        std::snprintf(text, sizeof text,
                      "Positions %.6g and %.6g are %.6g apart: every pair has turned more than "
                      "half a turn at base %.6g, so the encodings differ but not in order; a "
                      "larger base or d_model would give slow pairs that still order them.",
                      pos_a, pos_b, distance, base);
    }
    return text;
}

} // namespace pelab
