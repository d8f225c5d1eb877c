// Whatever `pelab train` accepts, it writes a file PE Lab opens (docs/reliability.md, "Files PE
// Lab writes are read back"). A run file's size depends on the run's shape (variants, layers,
// heads, the example's length, the number of loss and accuracy points), not on what training
// learned, so runs are built here at the corner shapes of the options without training: each is
// written as `pelab train` writes it (TrainRunText), read back through the file reader that File
// → Open and `readouts --run` use, and must come back whole.
#include "temp_folder.h"

#include "io/json_input.h"
#include "io/train_run.h"
#include "pelab/training/train.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace pelab;

namespace {

// The options' ranges (pelab train --help, core/src/training/train.cpp's validate_train_settings).
struct Corner {
    TrainTask task = TrainTask::TokenAt;
    int k = 64, vocab = 256, layers = 4, heads = 4, train_len = 256, test_len = 1024;
    int steps = 1000000;
    bool causal = false, all_variants = true;
};

TrainSettings SettingsOf(const Corner& c) {
    TrainSettings s;
    s.task.task = c.task;
    // word_back's own limits: k ≤ 16 words back, a vocabulary of at least 3.
    s.task.k = c.task == TrainTask::WordBack ? std::min(c.k, kTrainMaxWordBackK) : c.k;
    s.task.vocab =
        c.task == TrainTask::WordBack ? std::max(c.vocab, kTrainMinWordBackVocab) : c.vocab;
    s.layers = c.layers;
    s.heads = c.heads;
    s.d_model = 128;
    s.causal = c.causal;
    s.train_len = std::max(c.train_len, task_shortest_length(s.task));
    s.min_train_len = s.train_len;
    s.test_len = std::max(c.test_len, s.train_len);
    s.steps = c.steps;
    s.batch = 1;
    s.eval_every = EvalEvery(s.steps);
    if (!c.all_variants) s.variants = {PositionalKind::Learned};
    validate_train_settings(s);
    return s;
}

// A finished run of that shape whose numbers are the longest a file holds: losses of six
// significant digits, accuracies that are not round, attention rows of equal weights (1/n is
// the weight whose rounding to 1e-4 moves a row's sum the most: 65 × 0.0154 = 1.001).
TrainRun RunOf(const TrainSettings& s) {
    TrainRun run;
    run.settings = s;
    run.example = train_example(s);
    const int n = run.example.length;
    const int loss_every = LossEvery(s.steps);
    const std::size_t loss_points =
        static_cast<std::size_t>((s.steps + loss_every - 1) / loss_every);
    for (const PositionalKind kind : s.variants) {
        VariantResult v;
        v.variant = kind;
        for (std::size_t p = 0; p < loss_points; ++p)
            v.loss.push_back(0.123456789 + 1e-3 * static_cast<double>(p % 977));
        for (int step = s.eval_every; step < s.steps; step += s.eval_every)
            v.accuracy_steps.push_back(step);
        v.accuracy_steps.push_back(s.steps);
        v.accuracy.assign(v.accuracy_steps.size(), 1.0 / 3.0);
        v.accuracy_by_length.assign(test_lengths(s).size(), 2.0 / 3.0);
        v.seconds = 12345.678;
        v.attention.assign(static_cast<std::size_t>(s.layers),
                           std::vector<std::vector<double>>(static_cast<std::size_t>(s.heads)));
        for (auto& layer : v.attention)
            for (auto& map : layer) {
                map.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0);
                for (int i = 0; i < n; ++i) {
                    const int keys = s.causal ? i + 1 : n;
                    for (int j = 0; j < keys; ++j)
                        map[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
                            static_cast<std::size_t>(j)] = 1.0 / keys;
                }
            }
        v.prediction.assign(static_cast<std::size_t>(n), s.task.vocab - 1);
        run.variants.push_back(std::move(v));
    }
    run.seconds = 98765.4321;
    run.tokens_per_second_per_thread = 12345.6789;
    return run;
}

// Writes the run as `pelab train` does, reads it through the file reader, and checks it whole.
void ExpectReadsBack(const Corner& c, const TempFolder& folder, std::size_t* largest) {
    const TrainSettings s = SettingsOf(c);
    const TrainRun run = RunOf(s);
    const std::string text = TrainRunText(run);
    *largest = std::max(*largest, text.size());
    const std::string where =
        std::string(train_task_name(s.task.task)) + " k=" + std::to_string(s.task.k) +
        " layers=" + std::to_string(s.layers) + " heads=" + std::to_string(s.heads) +
        " train_len=" + std::to_string(s.train_len) + (s.causal ? " causal" : "") +
        " variants=" + std::to_string(s.variants.size());
    EXPECT_LE(text.size(), kMaxRunBytes) << where;
    // Each number as short as its rounding allows: 0.0138, never 0.013800000000000002.
    EXPECT_EQ(text.find("00000000"), std::string::npos) << where;
    JsonFile file;
    ASSERT_EQ(ReadJsonFile(folder.Write("run.json", text), &file), "") << where;
    TrainRun again;
    ASSERT_EQ(ReadTrainRun(file.doc, &again), "") << where;
    ASSERT_EQ(again.variants.size(), run.variants.size()) << where;
    EXPECT_EQ(again.example.tokens, run.example.tokens) << where;
    EXPECT_EQ(again.variants.back().attention.size(), static_cast<std::size_t>(s.layers));
    EXPECT_EQ(again.variants.back().loss.size(), run.variants.back().loss.size());
    // The weights as the file keeps them: each within half of 1e-4.
    const double w = again.variants.back().attention.back().back().back();
    const double was = run.variants.back().attention.back().back().back();
    EXPECT_LE(std::abs(w - was), 5e-5 + 1e-12) << where;
}

} // namespace

// The largest corner (every variant, 4 × 4 heads, token_at at k = 64: a 65-token example,
// 1 000 000 steps) and the smallest, then each option moved alone from each of them.
TEST(TrainRunLimits, EveryCornerOfTheOptionsWritesAFileThatReadsBack) {
    const TempFolder folder;
    std::size_t largest = 0;
    for (const Corner& base :
         {Corner{}, Corner{TrainTask::Reverse, 0, 2, 1, 1, 1, 1, 1, false, false}}) {
        ExpectReadsBack(base, folder, &largest);
        for (const TrainTask task : train_tasks()) {
            Corner c = base;
            c.task = task;
            ExpectReadsBack(c, folder, &largest);
        }
        for (int moved = 0; moved < 8; ++moved) {
            Corner c = base;
            switch (moved) {
            case 0:
                c.k = c.k == 64 ? 0 : 64;
                break;
            case 1:
                c.vocab = c.vocab == 256 ? 2 : 256;
                break;
            case 2:
                c.layers = 5 - c.layers;
                break;
            case 3:
                c.heads = 5 - c.heads;
                break;
            case 4:
                c.causal = !c.causal;
                break;
            case 5:
                c.all_variants = !c.all_variants;
                break;
            case 6:
                c.steps = c.steps == 1 ? 1000000 : 1;
                break;
            default:
                c.test_len = c.test_len == 1024 ? c.train_len : 1024;
                break;
            }
            ExpectReadsBack(c, folder, &largest);
        }
    }
    // The largest run holds about 3.2 MB: the limit has room, and is not a hundred times more.
    EXPECT_GT(largest, 2'000'000u);
    EXPECT_LT(largest, kMaxRunBytes);
    std::printf("largest run file: %zu bytes (limit %zu)\n", largest, kMaxRunBytes);
}
