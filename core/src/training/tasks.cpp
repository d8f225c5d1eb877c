// The training tasks: their batches and the accuracy each bound allows (pelab/training/train.h).
#include "pelab/training/train.h"

#include "pelab/base/draws.h"
#include "pelab/base/error.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace pelab {

const std::vector<TrainTask>& train_tasks() {
    static const std::vector<TrainTask> tasks = {
        TrainTask::Reverse, TrainTask::TokenAt,  TrainTask::Shift,   TrainTask::Sorted,
        TrainTask::First,   TrainTask::Majority, TrainTask::WordBack};
    return tasks;
}

const char* train_task_name(TrainTask task) {
    switch (task) {
    case TrainTask::Reverse:
        return "reverse";
    case TrainTask::TokenAt:
        return "token_at";
    case TrainTask::Shift:
        return "shift";
    case TrainTask::Sorted:
        return "sorted";
    case TrainTask::First:
        return "first";
    case TrainTask::Majority:
        return "majority";
    case TrainTask::WordBack:
        return "word_back";
    }
    return "reverse";
}

TrainTask train_task_from_name(const std::string& name) {
    for (const TrainTask task : train_tasks())
        if (name == train_task_name(task)) return task;
    throw InvalidArgument(
        "unknown task \"" + name +
        "\": one of reverse, token_at, shift, sorted, first, majority, word_back");
}

int task_shortest_length(const TaskOptions& options) {
    switch (options.task) {
    case TrainTask::TokenAt:
    case TrainTask::Shift:
        return options.k + 1;
    case TrainTask::Sorted:
        return 2;
    case TrainTask::WordBack:
        return 2 * options.k + 1; // k words of one token, each with its separator, then one
    default:
        return 1;
    }
}

TokenBatch make_task_batch(const TaskOptions& options, int size, int length,
                           std::mt19937_64& random, bool causal) {
    if (length < task_shortest_length(options))
        throw InvalidArgument(std::string(train_task_name(options.task)) + " needs at least " +
                              std::to_string(task_shortest_length(options)) + " tokens (got " +
                              std::to_string(length) + ")");
    TokenBatch batch;
    batch.size = size;
    batch.length = length;
    const std::size_t count = static_cast<std::size_t>(size) * static_cast<std::size_t>(length);
    batch.tokens.resize(count);
    batch.targets.assign(count, -1);
    for (int b = 0; b < size; ++b) {
        int* x = batch.tokens.data() + static_cast<std::size_t>(b) * length;
        int* y = batch.targets.data() + static_cast<std::size_t>(b) * length;
        if (options.task == TrainTask::WordBack) {
            // Words of 1 to 3 tokens drawn from 1 … vocab − 1, each ended by the separator 0
            // (the last one cut where the sequence ends). A separator belongs to the word it ends.
            std::vector<int> word_start;
            for (int p = 0; p < length;) {
                const int letters = draw_between(random, 1, 3);
                word_start.push_back(p);
                const int word = static_cast<int>(word_start.size()) - 1;
                for (int l = 0; l <= letters && p < length; ++l, ++p) {
                    x[p] =
                        l < letters ? draw_between(random, 1, std::max(1, options.vocab - 1)) : 0;
                    if (word >= options.k)
                        y[p] = x[word_start[static_cast<std::size_t>(word - options.k)]];
                }
            }
            continue;
        }
        for (int p = 0; p < length; ++p)
            x[p] = draw_between(random, 0, options.vocab - 1);
        switch (options.task) {
        case TrainTask::Reverse:
            // Causal: position p sees x[0 … p], so x[length − 1 − p] from the middle on.
            for (int p = causal ? length / 2 : 0; p < length; ++p)
                y[p] = x[length - 1 - p];
            break;
        case TrainTask::TokenAt:
            for (int p = causal ? options.k : 0; p < length; ++p)
                y[p] = x[options.k];
            break;
        case TrainTask::Shift:
            for (int p = options.k; p < length; ++p)
                y[p] = x[p - options.k];
            break;
        case TrainTask::Sorted: {
            // Half sorted; the other half as drawn (which is sorted by chance only when short).
            if (draw_below(random, 2) == 1) std::sort(x, x + length);
            y[length - 1] = std::is_sorted(x, x + length) ? 1 : 0;
            break;
        }
        case TrainTask::First:
            for (int p = 0; p < length; ++p)
                y[p] = std::find(x, x + p, x[p]) != x + p ? 1 : 0;
            break;
        case TrainTask::WordBack: // drawn above
            break;
        case TrainTask::Majority: {
            std::vector<int> counts(static_cast<std::size_t>(options.vocab), 0);
            for (int p = 0; p < length; ++p)
                ++counts[static_cast<std::size_t>(x[p])];
            const int most =
                static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
            // Causal: only the last position has seen every token.
            for (int p = causal ? length - 1 : 0; p < length; ++p)
                y[p] = most;
            break;
        }
        }
    }
    return batch;
}

namespace {

// P(every one of `symbols` equally likely symbols occurs at most `cap` times in `tokens`
// draws), symbol by symbol: the symbol added takes j of the m draws (binomially, 1 in t), the
// ones before share the rest. Long double: (1/2)^1024 is past double's range. The work is
// symbols × tokens × cap multiply-adds.
long double AllAtMost(int tokens, int symbols, int cap) {
    std::vector<long double> at_most(static_cast<std::size_t>(tokens) + 1);
    for (int m = 0; m <= tokens; ++m)
        at_most[static_cast<std::size_t>(m)] = m <= cap ? 1.0L : 0.0L; // one symbol
    for (int t = 2; t <= symbols; ++t) {
        const long double p = 1.0L / t, odds = p / (1 - p);
        std::vector<long double> next(at_most.size(), 0.0L);
        for (int m = 0; m <= tokens; ++m) {
            long double pmf = std::pow(1 - p, static_cast<long double>(m)); // j = 0
            long double sum = 0;
            for (int j = 0; j <= std::min(cap, m); ++j) {
                sum += pmf * at_most[static_cast<std::size_t>(m - j)];
                pmf *= odds * (m - j) / (j + 1);
            }
            next[static_cast<std::size_t>(m)] = sum;
        }
        at_most = std::move(next);
    }
    return at_most[static_cast<std::size_t>(tokens)];
}

// P(token 0 is the majority answer): it occurs c times and every other token at most c times.
// The most frequent token occurs at least length / vocab times, so c starts there; the
// binomial tail past c stops the sum once it can no longer move the 13th digit.
double MajorityZeroShare(int length, int vocab) {
    const long double p = 1.0L / vocab;
    long double share = 0;
    for (int c = std::max(1, (length + vocab - 1) / vocab); c <= length; ++c) {
        const long double p_c = std::exp(std::lgamma(length + 1.0L) - std::lgamma(c + 1.0L) -
                                         std::lgamma(length - c + 1.0L) + c * std::log(p) +
                                         (length - c) * std::log1p(-p));
        if (p_c < 1e-14L && c > length / vocab + 1) break;
        share += p_c * AllAtMost(length - c, vocab - 1, c);
    }
    return static_cast<double>(share);
}

} // namespace

TaskBounds task_bounds(const TaskOptions& options, int length, bool causal) {
    (void)causal; // the scored positions change with the mask, their answers' shares do not
    const double v = options.vocab, n = length;
    TaskBounds bounds;
    switch (options.task) {
    case TrainTask::Reverse:
    case TrainTask::TokenAt:
    case TrainTask::Shift:
        bounds.chance = 1.0 / v;
        break;
    case TrainTask::Sorted: {
        // Half are sorted on purpose; the other half by chance: C(n + v − 1, n) of the vⁿ.
        const double by_chance =
            std::exp(std::lgamma(n + v) - std::lgamma(n + 1) - std::lgamma(v) - n * std::log(v));
        const double yes = 0.5 + 0.5 * std::min(1.0, by_chance);
        bounds.chance = std::max(yes, 1 - yes);
        break;
    }
    case TrainTask::First: {
        // Position p answers yes with probability 1 − q^p, q = 1 − 1/v; the mean over p < n.
        const double q = 1 - 1 / v;
        const double yes = 1 - (1 - std::pow(q, n)) / (n * (1 - q));
        bounds.chance = std::max(yes, 1 - yes);
        break;
    }
    case TrainTask::Majority:
        bounds.chance = MajorityZeroShare(length, options.vocab);
        break;
    case TrainTask::WordBack:
        // The answer is a word's first token, drawn evenly from the vocab − 1 word tokens.
        bounds.chance = 1.0 / std::max(1.0, v - 1);
        break;
    }
    bounds.ceiling = 1;
    return bounds;
}

double learned_accuracy(const TaskBounds& bounds) {
    return bounds.chance + kLearnedShare * (bounds.ceiling - bounds.chance);
}

bool task_needs_order(TrainTask task, bool causal) {
    switch (task) {
    case TrainTask::Majority:
    case TrainTask::Sorted:
        return false;
    case TrainTask::First:
        return !causal;
    default:
        return true;
    }
}

FirstTokenShare first_token_share(const std::vector<double>& map, int length, bool causal) {
    if (length < 2 || map.size() != static_cast<std::size_t>(length) * length)
        throw InvalidArgument("a first-token share needs a map of at least 2 × 2 weights (got " +
                              std::to_string(map.size()) + " for length " + std::to_string(length) +
                              ")");
    FirstTokenShare out;
    for (int i = 1; i < length; ++i) {
        out.share += map[static_cast<std::size_t>(i) * length];
        out.even += causal ? 1.0 / (i + 1) : 1.0 / length;
    }
    out.share /= length - 1;
    out.even /= length - 1;
    return out;
}

} // namespace pelab
