#include "panels/model/model_sentences.h"

#include "pelab/encodings/alternatives.h"
#include "pelab/models/rope_analysis.h"
#include "pelab/models/table_analysis.h"
#include "widgets/number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

std::string Percent(double share) {
    return ShownNumber(100 * share, 3) + "%";
}

std::string Plural(double count, const char* one, const char* many) {
    return ShownNumber(count) + " " + (count == 1 ? one : many);
}

} // namespace

Explanation TableSentence(const FoundPositions& found, const TableReport& table,
                          const TableReport& twin) {
    Explanation out;
    const auto top2 = [](const TableReport& report) {
        double sum = 0;
        for (std::size_t k = 0; k < 2 && k < report.explained.size(); ++k)
            sum += report.explained[k];
        return sum;
    };
    const double mine = top2(table), theirs = top2(twin);
    out.Claims("rows", table.rows);
    bool flat = true;
    for (double share : table.explained)
        flat = flat && share == 0;
    out.Claims("all_rows_equal", flat ? 1 : 0);
    if (flat) {
        // No variance: every row is the same vector (all zero, or one constant row repeated).
        out.Claims("edge_rows", 0);
        out.text = "All " + ShownNumber(table.rows) + " rows of " + found.family +
                   "'s table are the same vector: it holds no information about position.";
        return out;
    }
    out.Claims("top2_percent", 100 * mine);
    out.Claims("twin_top2_percent", 100 * theirs);
    std::string text =
        "The first two principal components of " + found.family + "'s " +
        Plural(table.rows, "position row", "position rows") + " hold " + Percent(mine) +
        " of their variance; the sinusoidal table of the same size, " + Percent(theirs) + ".";
    const double wavelength = table.wavelengths.empty() ? 0 : table.wavelengths.front();
    const double share = table.wave_shares.empty() ? 0 : table.wave_shares.front();
    // A period: a wave that carries most of the component and is seen at least twice.
    const bool twice = 2 * wavelength <= table.rows;
    const bool period = wavelength > 0 && share >= kWaveStandsOut && twice;
    out.Claims("wavelength_1", wavelength);
    out.Claims("wave_share_1", share);
    out.Claims("period_1", period ? 1 : 0);
    out.Claims("fits_twice", twice ? 1 : 0);
    if (period)
        text += " Along component 1 the positions repeat about every " +
                ShownNumber(wavelength, 3) + " positions (that wave carries " + Percent(share) +
                " of the component's variance).";
    else if (wavelength > 0 && !twice)
        text += " Component 1 has no clear period: its strongest wave (one every " +
                ShownNumber(wavelength, 3) + " positions) carries " + Percent(share) +
                " of its variance but does not fit twice in the " +
                Plural(table.rows, "row", "rows") + ".";
    else if (wavelength > 0)
        text += " Component 1 has no clear period: its strongest wave (one every " +
                ShownNumber(wavelength, 3) + " positions) carries only " + Percent(share) +
                " of its variance.";
    else
        text += " Component 1 completes less than one wave over the rows: it orders the "
                "positions rather than cycling through them.";
    // The last rows against the median row; not when the median row is all zeros (no ratio).
    const int edge = table.rows > 16 && table.median_norm > 0 ? 16 : 0;
    out.Claims("edge_rows", edge);
    const double ratio = table.edge_norm_ratio;
    out.Claims("edge_ratio", edge ? ratio : 0);
    out.Claims("edge_lower", edge && ratio < 0.95 ? 1 : 0);
    out.Claims("edge_higher", edge && ratio > 1.05 ? 1 : 0);
    if (edge) {
        char shown_ratio[32];
        std::snprintf(shown_ratio, sizeof shown_ratio, "%.2f", ratio);
        text +=
            std::string(" The last 16 rows' norms average ") + shown_ratio + " × the median row's";
        if (ratio < 0.95)
            text += ": the table's end is shorter than its middle.";
        else if (ratio > 1.05)
            text += ": the table's end is longer than its middle.";
        else
            text += ", as long as the rest.";
    }
    out.text = text;
    return out;
}

Explanation RopeSentence(const RopeReport& rope) {
    Explanation out;
    out.Claims("pairs", rope.pairs);
    out.Claims("rotary_dims", rope.rotary_dims);
    out.Claims("head_dim", rope.head_dim);
    const double fastest = rope.wavelength.empty() ? 0 : rope.wavelength.front();
    const double slowest = rope.wavelength.empty() ? 0 : rope.wavelength.back();
    out.Claims("fastest", fastest);
    out.Claims("slowest", slowest);
    out.Claims("context", static_cast<double>(rope.context));
    std::string text = ShownNumber(rope.rotary_dims) + " of each head's " +
                       ShownNumber(rope.head_dim) + " dimensions rotate, in " +
                       Plural(rope.pairs, "pair", "pairs") + " with wavelengths from " +
                       ShownNumber(fastest, 4) + " to " + ShownNumber(slowest, 4) + " positions.";
    if (rope.context > 0) {
        out.Claims("without_turn", rope.pairs_without_turn);
        if (rope.pairs_without_turn == 0)
            text += " Every pair turns at least once within the " +
                    ShownNumber(static_cast<double>(rope.context)) +
                    " positions it was trained for";
        else
            text += " " + ShownNumber(rope.pairs_without_turn) + " of them " +
                    (rope.pairs_without_turn == 1 ? "does" : "do") +
                    " not complete one turn within the " +
                    ShownNumber(static_cast<double>(rope.context)) +
                    " positions it was trained for";
        out.Claims("without_turn_scaled", rope.without_turn_scaled ? 1 : 0);
        if (rope.without_turn_scaled) text += ", its positions stretched by rope_scaling";
        out.Claims("extended_context", static_cast<double>(rope.extended_context));
        // A context below the original one (a GGUF converted with llama3 factors for 8 192
        // from a shorter config) is not a stretch.
        text += rope.extended_context > rope.context
                    ? " (its config stretches the context to " +
                          ShownNumber(static_cast<double>(rope.extended_context)) + ")."
                : rope.extended_context > 0 && rope.extended_context < rope.context
                    ? " (its config gives a context of " +
                          ShownNumber(static_cast<double>(rope.extended_context)) +
                          ", shorter than that)."
                    : ".";
    } else {
        text += " config.json gives no trained context to compare them with.";
    }
    // A sliding window or a chunk: a query sees only so far back, whatever the context.
    out.Claims("window", static_cast<double>(rope.window));
    out.Claims("without_turn_in_window", rope.window > 0 ? rope.pairs_without_turn_in_window : 0);
    if (rope.window > 0) {
        const std::string span = ShownNumber(static_cast<double>(rope.window));
        text += rope.window_chunked
                    ? " These layers attend within chunks of " + span + " positions"
                    : " These layers' sliding window sees the last " + span + " positions";
        const int n = rope.pairs_without_turn_in_window;
        text += n == 0 ? ", and every pair turns within it."
                       : ": " + ShownNumber(n) + (n == 1 ? " pair does" : " pairs do") +
                             " not complete one turn within that span.";
    }
    if (!rope.scaled_wavelength.empty()) {
        const double scaled = rope.scaled_wavelength.back();
        out.Claims("scaled_slowest", scaled);
        text += " Its rope_scaling (" + rope.scaling + ") makes the slowest " +
                ShownNumber(scaled, 4) + " positions.";
    }
    out.text = text;
    return out;
}

std::vector<double> UsageGrid(const RopeReport& rope, int head) {
    const std::size_t cells = static_cast<std::size_t>(std::max(rope.layers, 0)) *
                              static_cast<std::size_t>(std::max(rope.pairs, 0));
    if (head < 0 || head >= rope.heads || rope.usage.size() < cells * rope.heads)
        return rope.layer_usage;
    std::vector<double> grid(cells);
    for (int layer = 0; layer < rope.layers; ++layer)
        for (int pair = 0; pair < rope.pairs; ++pair)
            grid[static_cast<std::size_t>(layer) * rope.pairs + pair] =
                rope.usage[(static_cast<std::size_t>(layer) * rope.heads + head) * rope.pairs +
                           pair];
    return grid;
}

Explanation UsageSentence(const RopeReport& rope, int head) {
    Explanation out;
    const int pairs = rope.pairs, layers = rope.layers;
    const bool one_head =
        head >= 0 && head < rope.heads &&
        rope.usage.size() >= static_cast<std::size_t>(layers) * rope.heads * pairs;
    const std::vector<double> grid = UsageGrid(rope, head);
    out.Claims("head", one_head ? head : -1);
    std::vector<double> per_pair(static_cast<std::size_t>(std::max(pairs, 0)), 0.0);
    double total = 0;
    for (int layer = 0; layer < layers; ++layer)
        for (int pair = 0; pair < pairs; ++pair) {
            const double value = grid[static_cast<std::size_t>(layer) * pairs + pair];
            per_pair[pair] += value;
            total += value;
        }
    const int quarter = std::max(1, pairs / 4);
    double fast = 0, slow = 0;
    for (int pair = 0; pair < pairs; ++pair) {
        if (pair < quarter) fast += per_pair[pair];
        if (pair >= pairs - quarter) slow += per_pair[pair];
    }
    const int top = pairs > 0
                        ? static_cast<int>(std::max_element(per_pair.begin(), per_pair.end()) -
                                           per_pair.begin())
                        : 0;
    const double fast_share = total > 0 ? fast / total : 0,
                 slow_share = total > 0 ? slow / total : 0;
    out.Claims("fast_share_percent", 100 * fast_share);
    out.Claims("slow_share_percent", 100 * slow_share);
    out.Claims("top_pair", top);
    out.Claims("top_wavelength", pairs > 0 ? rope.wavelength[top] : 0);
    if (total <= 0 || pairs == 0) {
        out.text = std::string("The query and key weights of the rotating dimensions are all "
                               "zero") +
                   (one_head ? " in head " + ShownNumber(head + 1) : std::string()) +
                   ": no pair can carry anything.";
        return out;
    }
    out.text =
        "From the weights alone (‖W_q‖·‖W_k‖ of each pair's two rows, a proxy for what the "
        "pairs carry, not a measurement on text): the fastest " +
        (quarter == 1 ? std::string("pair holds ") : Plural(quarter, "", "pairs hold ")) +
        Percent(fast_share) + " of the total and the slowest " +
        (quarter == 1 ? std::string("pair ") : Plural(quarter, "", "pairs ")) +
        Percent(slow_share) + "; pair " + ShownNumber(top) + " (wavelength " +
        ShownNumber(rope.wavelength[top], 4) + ") has the most, summed over layers" +
        (one_head ? " in query head " + ShownNumber(head + 1) + " of " + ShownNumber(rope.heads)
                  : std::string(rope.heads > 1 ? ", mean over heads" : "")) +
        ".";
    return out;
}

Explanation BucketSentence(const BucketReport& buckets) {
    Explanation out;
    out.Claims("heads", buckets.heads);
    out.Claims("buckets", buckets.buckets);
    const T5BucketOptions options{buckets.buckets, buckets.max_distance, buckets.bidirectional};
    const long long last = t5_last_bucket_start(options);
    out.Claims("last_bucket_start", static_cast<double>(last));
    int top_head = 0;
    std::size_t top_index = 0;
    const std::size_t count = buckets.distances.size();
    for (int h = 0; h < buckets.heads; ++h)
        for (std::size_t j = 0; j < count; ++j)
            if (buckets.bias[static_cast<std::size_t>(h) * count + j] >
                buckets.bias[static_cast<std::size_t>(top_head) * count + top_index])
                top_head = h, top_index = j;
    const double top_bias =
        count ? buckets.bias[static_cast<std::size_t>(top_head) * count + top_index] : 0;
    const long long top_distance = count ? buckets.distances[top_index] : 0;
    out.Claims("top_head", top_head);
    out.Claims("top_distance", static_cast<double>(top_distance));
    out.Claims("top_bias", top_bias);
    out.text =
        "The " + buckets.stack + "'s " + Plural(buckets.heads, "head shares", "heads share") + " " +
        ShownNumber(buckets.buckets) + " buckets. The largest bias, " + ShownNumber(top_bias, 3) +
        ", is head " + ShownNumber(top_head + 1) +
        "'s at key − query = " + ShownNumber(static_cast<double>(top_distance)) + ". From " +
        ShownNumber(static_cast<double>(last)) +
        " tokens back on, every key gets its head's last bucket: the model cannot tell those "
        "distances apart.";
    return out;
}

Explanation AlibiSentence(const std::vector<double>& slopes) {
    Explanation out;
    const double steepest = slopes.empty() ? 0 : *std::max_element(slopes.begin(), slopes.end());
    const double gentlest = slopes.empty() ? 0 : *std::min_element(slopes.begin(), slopes.end());
    out.Claims("heads", static_cast<double>(slopes.size()));
    out.Claims("steepest", steepest);
    out.Claims("gentlest", gentlest);
    out.Claims("steepest_at_100", 100 * steepest);
    out.Claims("gentlest_at_100", 100 * gentlest);
    out.text = Plural(static_cast<double>(slopes.size()), "head", "heads") + " with slopes from " +
               ShownNumber(steepest, 4) + " to " + ShownNumber(gentlest, 4) +
               ": a key 100 tokens back loses " + ShownNumber(100 * steepest, 4) +
               " from its score in the steepest head and " + ShownNumber(100 * gentlest, 4) +
               " in the gentlest. No tensor holds this: it follows from the head count alone.";
    return out;
}

} // namespace pelab
