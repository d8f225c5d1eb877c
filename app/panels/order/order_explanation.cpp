// The order demo's sentences: the verdict, its one-line headline, and the same two words in both
// sentences, worded from the computed scores.
#include "panels/order/panel_order.h"
#include "widgets/number_text.h"

#include "pelab/encodings/attention.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace pelab {

std::string OrderHeadlineText(const OrderDemoResult& result) {
    const ReorderVerdict& v = result.verdict;
    if (!v.same_multiset) return "Not re-orderings of each other: the words differ.";
    if (result.tokens_a == result.tokens_b)
        return "The same sentence twice: nothing to tell apart.";
    char text[160];
    if (v.same_up_to_reordering) return "Same scores, re-ordered: the two orders look alike.";
    std::snprintf(text, sizeof text,
                  "Different (largest difference %.3f): the positions tell the orders apart.",
                  v.max_difference);
    return text;
}

std::string OrderVerdictText(const OrderDemoResult& result, bool pe_enabled) {
    const ReorderVerdict& v = result.verdict;
    char text[640];
    // How B's words were matched with A's, when a repeated word leaves a choice.
    char method[160] = "";
    if (v.matchings > 1)
        std::snprintf(method, sizeof method,
                      v.matching_exact
                          ? " (repeated words: the best of all %.0f matchings of equal words)"
                          : " (repeated words: a local best of %.0f matchings, by swapping equal "
                            "words)",
                      v.matchings);
    if (!v.same_multiset) {
        std::snprintf(text, sizeof text,
                      "The two sentences are not re-orderings of each other (their words differ), "
                      "so their score matrices cannot be matched cell by cell.");
    } else if (result.tokens_a == result.tokens_b) {
        // Equal after lower-casing: there is no second order, so no tie to break.
        std::snprintf(text, sizeof text,
                      "Both sentences are the same words in the same order (after lower-casing "
                      "A–Z), so the scores are equal cell by cell: there is no second order to "
                      "tell apart. Swap two words in B to see what the positions do.");
    } else if (v.same_up_to_reordering) {
        std::snprintf(
            text, sizeof text,
            "Identical up to re-ordering: B's scores are A's scores with rows and columns "
            "shuffled (largest difference after re-ordering: %s%s). %s",
            ShownNumber(v.max_difference, 3).c_str(), method,
            pe_enabled ? "The encoding changes the scores by less than rounding here (is "
                         "its scale 0?), so the tie stands."
                       : "Without positions, the model cannot tell the two orders apart.");
    } else {
        const std::string& row_word = result.tokens_b[v.row_b];
        const std::string& col_word = result.tokens_b[v.col_b];
        std::snprintf(
            text, sizeof text,
            "Different: after matching the words%s, the largest difference is %.3f, for "
            "\"%s\" attending to \"%s\": %.3f in A (row %d, column %d) vs %.3f in B (row %d, "
            "column %d). The positions make the two orders distinguishable.",
            method, v.max_difference, row_word.c_str(), col_word.c_str(),
            result.scores_a.at(v.row_a, v.col_a), v.row_a, v.col_a,
            result.scores_b.at(v.row_b, v.col_b), v.row_b, v.col_b);
    }
    return text;
}

// The same two words in both sentences, "bites" → "dog": equal scores when the order is
// invisible, different ones when the positions show it. Empty when the first word of A is not
// exactly once in each sentence.
std::string OrderSameWordsText(const OrderDemoResult& result) {
    if (result.tokens_a.size() < 2 || result.tokens_b.size() < 2) return "";
    const std::string& first = result.tokens_a[0];
    const std::string& second = result.tokens_a[1];
    const auto count = [](const std::vector<std::string>& tokens, const std::string& word) {
        return std::count(tokens.begin(), tokens.end(), word);
    };
    if (count(result.tokens_a, first) != 1 || count(result.tokens_b, first) != 1 ||
        count(result.tokens_a, second) != 1 || count(result.tokens_b, second) != 1)
        return "";
    const auto column = [&](const std::string& word) {
        return static_cast<int>(std::find(result.tokens_b.begin(), result.tokens_b.end(), word) -
                                result.tokens_b.begin());
    };
    const double score_a = result.scores_a.at(1, 0);
    const double score_b = result.scores_b.at(column(second), column(first));
    char text[256];
    if (result.verdict.same_up_to_reordering)
        std::snprintf(text, sizeof text,
                      "They differ only because another word comes first: \"%s\" → \"%s\" "
                      "scores %.3f in both sentences.",
                      second.c_str(), first.c_str(), score_a);
    else
        std::snprintf(text, sizeof text,
                      "The same two words score differently once the order changes: \"%s\" → "
                      "\"%s\" is %.3f in A vs %.3f in B.",
                      second.c_str(), first.c_str(), score_a, score_b);
    return text;
}

} // namespace pelab
