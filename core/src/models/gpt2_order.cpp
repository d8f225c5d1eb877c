#include "pelab/models/gpt2_order.h"

#include "pelab/base/error.h"

#include <algorithm>
#include <map>

namespace pelab {

std::vector<int> SamePrefixTokens(const std::vector<int>& a, const std::vector<int>& b) {
    std::vector<int> same;
    // Counts of a's prefix minus b's: the multisets agree when every count is 0.
    std::map<int, int> balance;
    int unbalanced = 0;
    const auto add = [&](int token, int step) {
        int& count = balance[token];
        unbalanced -= count != 0;
        count += step;
        unbalanced += count != 0;
    };
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        add(a[i], 1);
        add(b[i], -1);
        if (a[i] == b[i] && unbalanced == 0) same.push_back(static_cast<int>(i));
    }
    return same;
}

bool PositionFree(const PositionChoice& choice) {
    return choice.kind == PositionSwitch::Zeroed || choice.kind == PositionSwitch::MeanRow ||
           choice.kind == PositionSwitch::Same;
}

OrderResult StartOrderResult(const std::vector<int>& a, const std::vector<int>& b, int layers,
                             int heads) {
    OrderResult result;
    result.tokens_a = static_cast<int>(a.size());
    result.tokens_b = static_cast<int>(b.size());
    result.layers = layers;
    result.heads = heads;
    result.same_prefix = SamePrefixTokens(a, b);
    return result;
}

OrderRun MeasureOrderRun(Gpt2Pass pass_a, Gpt2Pass pass_b, int vocab, int width, int layers,
                         const std::vector<int>& same_prefix, int top) {
    OrderRun run;
    run.top_a = TopNext(pass_a, vocab, top);
    run.top_b = TopNext(pass_b, vocab, top);
    run.loss_a = pass_a.loss;
    run.loss_b = pass_b.loss;
    run.last_distances = LastStateDistances(pass_a, pass_b, width);
    for (int i : same_prefix)
        run.same_prefix_block1.push_back(
            StateDistance(pass_a, i, pass_b, i, std::min(1, layers), width));
    run.attention_a = std::move(pass_a.attention);
    run.attention_b = std::move(pass_b.attention);
    return run;
}

OrderResult RunOrderOnGpt2(const Gpt2Model& model, const std::vector<int>& a,
                           const std::vector<int>& b, const std::vector<PositionChoice>& switches,
                           int top, int threads, PassProgress* progress) {
    const Gpt2Sizes& sizes = model.Sizes();
    OrderResult result = StartOrderResult(a, b, sizes.layers, sizes.heads);
    Gpt2Options options;
    options.all_logits = true; // the loss
    options.threads = threads;
    if (progress != nullptr) progress->total = static_cast<int>(2 * switches.size());
    for (const PositionChoice& choice : switches) {
        PassProgress::Check(progress);
        Gpt2Pass pass_a = model.Run(a, choice, options);
        PassProgress::Step(progress);
        PassProgress::Check(progress);
        Gpt2Pass pass_b = model.Run(b, choice, options);
        PassProgress::Step(progress);
        result.runs.push_back(MeasureOrderRun(std::move(pass_a), std::move(pass_b), sizes.vocab,
                                              sizes.width, sizes.layers, result.same_prefix, top));
    }
    return result;
}

} // namespace pelab
