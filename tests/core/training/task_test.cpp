// The training tasks' chance levels and ceilings (pelab/training/train.h task_bounds) counted over every
// sequence at small vocabularies and lengths, from the tasks' definitions written out here, and
// make_task_batch held to the same definitions (its targets and the positions it scores).
#include "pelab/training/train.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <unordered_map>
#include <vector>

using namespace pelab;

namespace {

// The answer at position p, or −1 where the task (under this mask) does not score it.
int Answer(TrainTask task, const std::vector<int>& x, int p, int k, int vocab, bool causal) {
    const int n = static_cast<int>(x.size());
    switch (task) {
    case TrainTask::Reverse:
        return !causal || n - 1 - p <= p ? x[n - 1 - p] : -1;
    case TrainTask::TokenAt:
        return !causal || p >= k ? x[k] : -1;
    case TrainTask::Shift:
        return p >= k ? x[p - k] : -1;
    case TrainTask::Sorted:
        return p == n - 1 ? (std::is_sorted(x.begin(), x.end()) ? 1 : 0) : -1;
    case TrainTask::First:
        return std::count(x.begin(), x.begin() + p, x[p]) > 0 ? 1 : 0;
    case TrainTask::WordBack: {
        // Words start at 0 and after each separator 0; p's word is the separators before it.
        std::vector<int> starts = {0};
        for (int q = 0; q < p; ++q)
            if (x[q] == 0) starts.push_back(q + 1);
        const int word = static_cast<int>(starts.size()) - 1;
        return word >= k ? x[starts[word - k]] : -1;
    }
    case TrainTask::Majority: {
        if (causal && p != n - 1) return -1;
        std::vector<int> counts(static_cast<std::size_t>(vocab), 0);
        for (const int t : x)
            ++counts[static_cast<std::size_t>(t)];
        return static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
    }
    }
    return -1;
}

// word_back's generator, every draw it can make: a word of 1, 2 or 3 tokens (a third each) of
// 1 … vocab − 1 (evenly), then the separator 0, until n tokens (the last word cut there).
void Words(std::vector<int>& x, int n, int vocab, double weight,
           std::vector<std::pair<std::vector<int>, double>>& all) {
    const int at = static_cast<int>(x.size());
    if (at == n) {
        all.emplace_back(x, weight);
        return;
    }
    const int letters = std::max(1, vocab - 1);
    for (int length = 1; length <= 3; ++length) {
        // Every way to fill the word's tokens that fit, then its separator if it fits.
        const int fit = std::min(length, n - at);
        std::vector<int> word(static_cast<std::size_t>(fit), 1);
        while (true) {
            std::vector<int> y = x;
            y.insert(y.end(), word.begin(), word.end());
            if (static_cast<int>(y.size()) < n) y.push_back(0);
            double w = weight / 3;
            for (int l = 0; l < fit; ++l)
                w /= letters;
            Words(y, n, vocab, w, all);
            int i = 0;
            while (i < fit && ++word[static_cast<std::size_t>(i)] > letters)
                word[static_cast<std::size_t>(i++)] = 1;
            if (i == fit) break;
        }
    }
}

// Every sequence with its probability under the task's generator: uniform tokens; for sorted,
// half of each draw's weight on the draw sorted; word_back's words.
std::vector<std::pair<std::vector<int>, double>> Sequences(TrainTask task, int vocab, int n) {
    std::vector<std::pair<std::vector<int>, double>> all;
    if (task == TrainTask::WordBack) {
        std::vector<int> x;
        Words(x, n, vocab, 1.0, all);
        return all;
    }
    std::vector<int> x(static_cast<std::size_t>(n), 0);
    double total = 1;
    for (int i = 0; i < n; ++i)
        total *= vocab;
    while (true) {
        if (task == TrainTask::Sorted) {
            std::vector<int> sorted = x;
            std::sort(sorted.begin(), sorted.end());
            all.emplace_back(x, 0.5 / total);
            all.emplace_back(sorted, 0.5 / total);
        } else {
            all.emplace_back(x, 1 / total);
        }
        int i = 0;
        while (i < n && ++x[static_cast<std::size_t>(i)] == vocab)
            x[static_cast<std::size_t>(i++)] = 0;
        if (i == n) break;
    }
    return all;
}

} // namespace

TEST(TaskBounds, ChanceAndCeilingAreWhatCountingEverySequenceGives) {
    const int k = 2;
    int checked = 0;
    for (const TrainTask task : train_tasks())
        for (const bool causal : {false, true})
            for (int vocab = 2; vocab <= 4; ++vocab)
                for (int n = 1; n <= 8; ++n) {
                    TaskOptions options;
                    options.task = task;
                    options.vocab = vocab;
                    options.k = k;
                    if (n < task_shortest_length(options)) continue;
                    // Weighted share of each answer over the scored positions, and for the
                    // ceiling each answer's weight per (position, what the position sees).
                    std::map<int, double> by_answer;
                    // Key: the position and the tokens it sees, as one number (base vocab).
                    std::unordered_map<long long, std::vector<double>> by_view;
                    double scored = 0;
                    for (const auto& [x, weight] : Sequences(task, vocab, n))
                        for (int p = 0; p < n; ++p) {
                            const int answer = Answer(task, x, p, k, vocab, causal);
                            if (answer < 0) continue;
                            scored += weight;
                            by_answer[answer] += weight;
                            long long view = p;
                            for (int i = 0; i < (causal ? p + 1 : n); ++i)
                                view = view * vocab + x[static_cast<std::size_t>(i)];
                            std::vector<double>& answers = by_view[view];
                            answers.resize(static_cast<std::size_t>(vocab), 0.0);
                            answers[static_cast<std::size_t>(answer)] += weight;
                        }
                    double chance = 0, ceiling = 0;
                    for (const auto& [answer, weight] : by_answer)
                        chance = std::max(chance, weight / scored);
                    for (const auto& [view, answers] : by_view)
                        ceiling += *std::max_element(answers.begin(), answers.end()) / scored;
                    const TaskBounds bounds = task_bounds(options, n, causal);
                    SCOPED_TRACE(std::string(train_task_name(task)) + (causal ? " causal" : "") +
                                 " vocab " + std::to_string(vocab) + " length " +
                                 std::to_string(n));
                    EXPECT_NEAR(bounds.chance, chance, 1e-9); // the counts add up to 130 000 terms
                    EXPECT_NEAR(bounds.ceiling, ceiling, 1e-9);
                    EXPECT_NEAR(learned_accuracy(bounds), chance + 0.9 * (ceiling - chance), 1e-9);
                    ++checked;
                }
    EXPECT_GT(checked, 250);
}

TEST(TaskBounds, LargerSizesMatchTheSharesOfManyBatches) {
    // Beyond counting: the default vocabulary at 16 and 64 tokens, against the answers'
    // shares in 4 000 sequences from make_task_batch (within 4 standard errors).
    std::mt19937_64 random(5);
    for (const TrainTask task : train_tasks())
        for (const int n : {16, 64}) {
            TaskOptions options;
            options.task = task;
            const TokenBatch batch = make_task_batch(options, 4000, n, random);
            std::map<int, double> counts;
            double scored = 0;
            for (const int target : batch.targets)
                if (target >= 0) counts[target] += 1, scored += 1;
            double top = 0;
            for (const auto& [answer, count] : counts)
                top = std::max(top, count / scored);
            const double chance = task_bounds(options, n, false).chance;
            const double error = std::sqrt(chance * (1 - chance) / 4000);
            EXPECT_NEAR(top, chance, 4 * error + 1e-3) << train_task_name(task) << " " << n;
        }
}

TEST(TaskBounds, BatchesFollowTheDefinitions) {
    // make_task_batch's targets and scored positions are the definitions above, on random
    // sequences (sorted: the label of the sequence as it came out).
    std::mt19937_64 random(6);
    for (const TrainTask task : train_tasks())
        for (const bool causal : {false, true})
            for (const int n : {3, 8, 17}) {
                TaskOptions options;
                options.task = task;
                options.vocab = 5;
                if (n < task_shortest_length(options)) continue; // word_back: 5
                const TokenBatch batch = make_task_batch(options, 50, n, random, causal);
                for (int b = 0; b < batch.size; ++b) {
                    const std::vector<int> x(batch.tokens.begin() + b * n,
                                             batch.tokens.begin() + (b + 1) * n);
                    for (int p = 0; p < n; ++p)
                        ASSERT_EQ(batch.targets[static_cast<std::size_t>(b * n + p)],
                                  Answer(task, x, p, options.k, options.vocab, causal))
                            << train_task_name(task) << (causal ? " causal" : "") << " p " << p;
                }
            }
}

TEST(TaskBounds, OrderIsNeededWhereTheDefinitionsNeedIt) {
    EXPECT_TRUE(task_needs_order(TrainTask::Reverse, true));
    EXPECT_TRUE(task_needs_order(TrainTask::Shift, true));
    EXPECT_TRUE(task_needs_order(TrainTask::TokenAt, false));
    EXPECT_TRUE(task_needs_order(TrainTask::First, false));
    EXPECT_FALSE(task_needs_order(TrainTask::First, true));
    EXPECT_FALSE(task_needs_order(TrainTask::Majority, false));
    EXPECT_FALSE(task_needs_order(TrainTask::Sorted, true));
    EXPECT_TRUE(task_needs_order(TrainTask::WordBack, true));
}
