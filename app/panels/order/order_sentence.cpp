// The Real model view's sentences (order_real.h): what the numbers of one demo say, each claim
// beside the number it rests on (explanation.h), for GPT-2's learned positions and for a rotary
// model's turns; and one sentence per rotary switch.
#include "panels/order/order_real.h"

#include "widgets/number_text.h"

#include <algorithm>
#include <cmath>

namespace pelab {

namespace {

// A token in the sentence as its box shows it: a space as "·" (" ." is the box "·.").
std::string Quoted(const std::string& bytes) {
    std::string shown;
    for (char c : ShownToken(bytes))
        shown += c == ' ' ? std::string("·") : std::string(1, c);
    return "\"" + shown + "\"";
}

std::string Ordinal(int index) {
    const int n = index + 1;
    const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                         : n % 10 == 1                    ? "st"
                         : n % 10 == 2                    ? "nd"
                         : n % 10 == 3                    ? "rd"
                                                          : "th";
    return std::to_string(n) + suffix;
}

// "raises it to y" / "lowers it to y" / "leaves it at x": loss values shown to 3 digits.
std::string LossChange(double from, double to) {
    const std::string a = ShownNumber(from, 3), b = ShownNumber(to, 3);
    if (a == b) return "leaves it at " + a;
    return std::string(to > from ? "raises" : "lowers") + " it to " + b;
}

// How the order part of a sentence names the runs without positions.
struct PositionFreeWords {
    const char* without; ///< "Without positions (zeroed or the mean row)"
    const char* run;     ///< "with positions zeroed": the first position-free run's distance
    const char* key;     ///< the claims' suffix: "zeroed", "none"
};

// The sentences' relation, the tokens that leave block 1 the same in the position-free runs
// (none when free is empty), and the last tokens' distance without positions and as trained.
std::string OrderClauses(const RealOrderDemo& demo, const OrderRun& trained,
                         const std::vector<const OrderRun*>& free, const PositionFreeWords& words,
                         Explanation* out) {
    const OrderResult& r = demo.result;
    const bool same_sentence = demo.ids_a == demo.ids_b;
    std::vector<int> sorted_a = demo.ids_a, sorted_b = demo.ids_b;
    std::sort(sorted_a.begin(), sorted_a.end());
    std::sort(sorted_b.begin(), sorted_b.end());
    const bool reordering = sorted_a == sorted_b;
    out->Claims("same_sentence", same_sentence ? 1 : 0);
    out->Claims("reordering", reordering ? 1 : 0);
    out->Claims("same_prefix_tokens", static_cast<double>(r.same_prefix.size()));
    if (same_sentence)
        return " The two sentences are the same tokens in the same order: there is no second "
               "order to tell apart.";
    std::string text;
    if (!reordering)
        text += " The two sentences hold different tokens, so they differ with or without "
                "positions.";
    double block1 = 0;
    for (const OrderRun* run : free)
        for (double distance : run->same_prefix_block1)
            block1 = std::max(block1, distance);
    if (!r.same_prefix.empty() && !free.empty()) {
        out->Claims("same_prefix_block1_max", block1);
        std::string named;
        const std::size_t shown = std::min<std::size_t>(r.same_prefix.size(), 3);
        const bool more = r.same_prefix.size() > shown;
        for (std::size_t k = 0; k < shown; ++k) {
            const int i = r.same_prefix[k];
            // "a and b", "a, b and c", "a, b, c and 27 more"
            named += (k == 0                    ? ""
                      : k + 1 == shown && !more ? " and "
                                                : ", ") +
                     Quoted(demo.pieces_a[i]) + " (" + Ordinal(i) + ")";
        }
        if (more) named += " and " + std::to_string(r.same_prefix.size() - shown) + " more";
        const bool one = r.same_prefix.size() == 1;
        text +=
            std::string(" ") + words.without +
            " a token leaves block 1 depending only on itself and the tokens up to it, "
            "whatever their order: " +
            named + (one ? " sees" : " see") + " the same tokens up to " + (one ? "it" : "them") +
            " in both sentences and " + (one ? "leaves" : "leave") +
            (block1 <= 1e-5 ? " block 1 the same (largest distance " + ShownNumber(block1, 2) + ")."
                            : " block 1 within " + ShownNumber(block1, 2) +
                                  " of each other (rounding in a long sentence).");
    }
    const int last = free.empty() ? 0 : static_cast<int>(free[0]->last_distances.size()) - 1;
    if (last < 1) return text;
    const double without = free[0]->last_distances[last], with = trained.last_distances[last];
    out->Claims(std::string("last_distance_") + words.key, without);
    out->Claims("last_distance_trained", with);
    const bool order_left = without > 1e-4;
    const bool same_last = demo.ids_a.back() == demo.ids_b.back();
    out->Claims("same_last_token", same_last ? 1 : 0);
    text += " After block " + std::to_string(last) + ", the two last tokens" +
            (same_last ? "" : " (different tokens)") + " are " + ShownNumber(without, 2) +
            " apart " + words.run + " and " + ShownNumber(with, 2) + " as trained";
    if (!(reordering && same_last)) return text + ".";
    out->Claims("order_left_without_positions", order_left ? 1 : 0);
    if (!order_left)
        return text + ": without positions the last token does not tell the two orders apart.";
    if (r.layers >= 2)
        return text + ": from block 2 on the earlier tokens' states, which differ, reach the "
                      "last one, so the causal model still tells the orders apart without its "
                      "positions.";
    return text + ".";
}

int RunOf(const RealOrderDemo& demo, const char* id) {
    for (std::size_t k = 0; k < demo.switch_ids.size(); ++k)
        if (demo.switch_ids[k] == id) return static_cast<int>(k);
    return -1;
}

// The largest of a list (0 when empty).
double Largest(const std::vector<double>& values) {
    return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

// What the shift did to the attention, with its claims: "" when no shift was measured.
std::string ShiftClause(const RealOrderDemo& demo, Explanation* out) {
    const ShiftCloseness& s = demo.shift;
    if (s.shift == 0 || s.f32.empty()) return {};
    const double f32 = Largest(s.f32), bf16 = Largest(s.bf16);
    out->Claims("shift", static_cast<double>(s.shift));
    out->Claims("shift_largest_f32", f32);
    out->Claims("shift_largest_bf16", bf16);
    out->Claims("shift_loss_f32", s.loss_f32);
    out->Claims("shift_absolute_layers", static_cast<double>(s.absolute_layers.size()));
    // transformers forms p·θ in float32: past 2²⁴ neighbouring positions round to one number.
    const long long last = s.shift + std::max(demo.result.tokens_a, demo.result.tokens_b) - 1;
    const bool collapsed = last >= (1LL << 24);
    out->Claims("shift_past_float32", collapsed ? 1 : 0);
    std::string text = " Shifting every position by " +
                       ShownNumber(static_cast<double>(s.shift), 9) +
                       " changes no attention weight by more than " + ShownNumber(f32, 2) +
                       " with float32 cos and sin tables (" + ShownNumber(bf16, 2) +
                       " with the tables rounded to bf16) and the loss by at most " +
                       ShownNumber(s.loss_f32, 2) + " nats";
    if (collapsed)
        return text + ": past position 16 777 216 float32, in which transformers forms the "
                      "angles, no longer holds every whole number, so neighbouring tokens take "
                      "the same angles and their distances are lost.";
    if (s.absolute_layers.empty())
        return text + ": the turned scores depend only on how far apart two tokens are, so only "
                      "rounding differs.";
    const std::size_t count = s.absolute_layers.size();
    return text + ": in " + std::to_string(count) + (count == 1 ? " layer" : " layers") +
           " the rotation depends on the position itself, not only on the distance: " +
           s.absolute_rule + ".";
}

// The shift's closeness block by block (the run's own sentence): the range over the blocks in
// float32 and with bf16 tables.
std::string ShiftBlocksClause(const RealOrderDemo& demo, Explanation* out) {
    const ShiftCloseness& s = demo.shift;
    if (s.shift == 0 || s.f32.empty() || s.bf16.size() != s.f32.size()) return {};
    const auto range = [](const std::vector<double>& values) {
        const auto [low, high] = std::minmax_element(values.begin(), values.end());
        return values.size() == 1 ? ShownNumber(*low, 2)
                                  : "from " + ShownNumber(*low, 2) + " to " + ShownNumber(*high, 2);
    };
    out->Claims("shift_smallest_f32", *std::min_element(s.f32.begin(), s.f32.end()));
    out->Claims("shift_largest_f32", Largest(s.f32));
    out->Claims("shift_smallest_bf16", *std::min_element(s.bf16.begin(), s.bf16.end()));
    out->Claims("shift_largest_bf16", Largest(s.bf16));
    out->Claims("shift_absolute_layers", static_cast<double>(s.absolute_layers.size()));
    std::string text = std::string(s.f32.size() == 1 ? " In the block" : " Block by block") +
                       ", the largest change of an attention weight is " + range(s.f32) +
                       " with float32 cos and sin tables and " + range(s.bf16) +
                       " with the tables rounded to bf16";
    const long long last = s.shift + std::max(demo.result.tokens_a, demo.result.tokens_b) - 1;
    if (last >= (1LL << 24)) return text + ".";
    if (s.absolute_layers.empty())
        return text + ": RoPE's scores depend on the distance between tokens, so what differs is "
                      "rounding, and bf16 rounds more.";
    return text + ": " + s.absolute_rule + ", so the shift changes the rotation itself.";
}

} // namespace

Explanation RealOrderSentence(const RealOrderDemo& demo) {
    Explanation out;
    const OrderResult& r = demo.result;
    if (!demo.error.empty() || r.runs.size() < 3) return out;
    const OrderRun &trained = r.runs[0], &zeroed = r.runs[1], &mean = r.runs[2];
    std::string text;
    // 1. What the positions are worth to the prediction: sentence A's loss.
    out.Claims("tokens_a", r.tokens_a);
    if (r.tokens_a < 2) {
        text = "Sentence A is one token: there is no next token inside it to predict, so no "
               "loss to compare.";
    } else {
        out.Claims("loss_trained_a", trained.loss_a);
        out.Claims("loss_zeroed_a", zeroed.loss_a);
        out.Claims("loss_mean_a", mean.loss_a);
        text = "With its positions as trained, the model predicts each next token of sentence A "
               "with a mean loss of " +
               ShownNumber(trained.loss_a, 3) + " nats; zeroing its positions " +
               LossChange(trained.loss_a, zeroed.loss_a) + " and giving every token the mean row " +
               LossChange(trained.loss_a, mean.loss_a) + ".";
    }
    // 2. Order without positions.
    text += OrderClauses(
        demo, trained, {&zeroed, &mean},
        {"Without positions (zeroed or the mean row)", "with positions zeroed", "zeroed"}, &out);
    text += " The model was trained with its positions: running it without them is an "
            "ablation, not a model trained without positions.";
    out.text = text;
    return out;
}

Explanation RotaryOrderSentence(const RealOrderDemo& demo) {
    Explanation out;
    const OrderResult& r = demo.result;
    const int none = RunOf(demo, "none"), pairing = RunOf(demo, "pairing");
    if (!demo.error.empty() || r.runs.empty() || none < 0 || pairing < 0) return out;
    const OrderRun& trained = r.runs[0];
    std::string text;
    out.Claims("tokens_a", r.tokens_a);
    if (r.tokens_a < 2) {
        text = "Sentence A is one token: there is no next token inside it to predict, so no "
               "loss to compare.";
    } else {
        out.Claims("loss_trained_a", trained.loss_a);
        out.Claims("loss_none_a", r.runs[none].loss_a);
        out.Claims("loss_pairing_a", r.runs[pairing].loss_a);
        text = "With its rotations as trained, the model predicts each next token of sentence A "
               "with a mean loss of " +
               ShownNumber(trained.loss_a, 3) + " nats; turning no pair " +
               LossChange(trained.loss_a, r.runs[none].loss_a) + ", and turning " +
               demo.labels[pairing] +
               " instead of the model's own (what a wrong conversion does) " +
               LossChange(trained.loss_a, r.runs[pairing].loss_a) + ".";
    }
    // Without rotation a layer's scores see no position, unless a window hides tokens.
    std::vector<const OrderRun*> free = {&r.runs[none]};
    if (demo.first_window > 0 && demo.first_window < std::max(r.tokens_a, r.tokens_b)) free.clear();
    text +=
        OrderClauses(demo, trained, free, {"Without rotation", "without rotation", "none"}, &out);
    text += ShiftClause(demo, &out);
    text += " The model was trained with its rotations: running it without them is an "
            "ablation, not a model trained without positions.";
    out.text = text;
    return out;
}

Explanation RotarySwitchSentence(const RealOrderDemo& demo, std::size_t k) {
    Explanation out;
    const OrderResult& r = demo.result;
    if (!demo.error.empty() || k >= r.runs.size() || k >= demo.labels.size()) return out;
    const OrderRun &run = r.runs[k], &trained = r.runs[0];
    const auto top = [](const OrderRun& each, const std::vector<std::string>& texts) {
        return each.top_a.empty() || texts.empty()
                   ? std::string("—")
                   : Quoted(texts[0]) + " (" + ShownNumber(100 * each.top_a[0].probability, 2) +
                         "%)";
    };
    const std::string own = top(run, demo.top_text_a[k]), first = top(trained, demo.top_text_a[0]);
    const int last = static_cast<int>(run.last_distances.size()) - 1;
    std::string text = Capitalised(demo.labels[k]) + ": ";
    if (r.tokens_a >= 2) {
        out.Claims("loss_a", run.loss_a);
        out.Claims("loss_trained_a", trained.loss_a);
        const std::string from = ShownNumber(trained.loss_a, 3), to = ShownNumber(run.loss_a, 3);
        text += k == 0       ? "sentence A's mean loss is " + to + " nats"
                : from == to ? "sentence A's mean loss stays at " + to + " nats"
                             : "sentence A's mean loss goes from " + from + " to " + to + " nats";
        text += ", and ";
    }
    if (!run.top_a.empty()) {
        out.Claims("top_a", run.top_a[0].id);
        out.Claims("top_trained_a", trained.top_a.empty() ? -1 : trained.top_a[0].id);
        const bool same = !trained.top_a.empty() && trained.top_a[0].id == run.top_a[0].id;
        text += k == 0 ? "the likeliest token after A is " + own
                : same ? "the likeliest token after A is still " + own
                       : "the likeliest token after A becomes " + own + " instead of " + first;
    }
    if (last >= 1) {
        out.Claims("last_distance", run.last_distances[last]);
        text +=
            "; after block " + std::to_string(last) + " the two last tokens are " +
            ShownNumber(run.last_distances[last], 2) + " apart" +
            (k == 0 ? "" : " (" + ShownNumber(trained.last_distances[last], 2) + " as trained)");
    }
    text += ".";
    const std::string& note = k < demo.notes.size() ? demo.notes[k] : std::string();
    const bool nothing = note.find("changes nothing") != std::string::npos;
    out.Claims("changes_nothing", nothing ? 1 : 0);
    if (!note.empty()) {
        // The note names the switch first ("scaling-off: …"): the label said it already.
        const std::size_t colon = note.find(": ");
        text += " " + Capitalised(colon == std::string::npos ? note : note.substr(colon + 2)) + ".";
    }
    if (k < demo.switch_details.size() && !demo.switch_details[k].empty())
        text += " " + demo.switch_details[k];
    if (demo.switch_ids[k] == "shift") text += ShiftBlocksClause(demo, &out);
    out.text = text;
    return out;
}

} // namespace pelab
