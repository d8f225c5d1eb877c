// What the training lab's tests share (train_run_file_test.cpp, train_verdict_test.cpp,
// train_panel_test.cpp): the built-in runs, one accuracy of a run, and a tiny run trained here.
#pragma once

#include "headless_fixture.h"
#include "temp_folder.h"

#include "io/json_input.h"
#include "io/train_run.h"
#include "panels/train/panel_train.h"
#include "panels/train/train_verdict.h"
#include "shell/file_menu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <thread>

using namespace pelab;

namespace {

inline TrainRun BuiltIn(const std::string& name) {
    const BuiltInTrainRun* built_in = FindBuiltInTrainRun(name);
    EXPECT_NE(built_in, nullptr) << name;
    nlohmann::json doc;
    EXPECT_EQ(ParseJsonInput(built_in->text, &doc), "");
    TrainRun run;
    EXPECT_EQ(ReadTrainRun(doc, &run), "") << name;
    return run;
}

// The mean over the run's seeds at one test length, and the lowest and highest seed there.
struct SeedsAt {
    double mean = -1, lowest = -1, highest = -1;
};
inline SeedsAt SeedsOfAt(const TrainRun& run, PositionalKind kind, int length) {
    const std::vector<int> lengths = test_lengths(run.settings);
    const std::size_t at = static_cast<std::size_t>(
        std::find(lengths.begin(), lengths.end(), length) - lengths.begin());
    for (const VariantResult& v : run.variants)
        if (v.variant == kind) return {v.MeanAt(at), v.LowestAt(at), v.HighestAt(at)};
    ADD_FAILURE() << "no variant " << positional_kind_name(kind);
    return {};
}

inline double At(const TrainRun& run, PositionalKind kind, int length) {
    const std::vector<int> lengths = test_lengths(run.settings);
    const std::size_t at = static_cast<std::size_t>(
        std::find(lengths.begin(), lengths.end(), length) - lengths.begin());
    for (const VariantResult& v : run.variants)
        if (v.variant == kind) return v.accuracy_by_length.at(at);
    ADD_FAILURE() << "no variant " << positional_kind_name(kind);
    return -1;
}

// A run small enough to train in a moment (tiny model, a few steps).
inline TrainSettings Tiny() {
    TrainSettings s;
    s.task.task = TrainTask::Shift;
    s.causal = true;
    s.layers = 1;
    s.d_model = 16;
    s.heads = 2;
    s.train_len = 4;
    s.min_train_len = 4;
    s.test_len = 8;
    s.batch = 4;
    s.steps = 6;
    s.eval_every = EvalEvery(s.steps);
    s.eval_batches = 1;
    s.variants = {PositionalKind::None, PositionalKind::Rope};
    return s;
}

inline TrainRun TrainedTiny() {
    const TrainSettings s = Tiny();
    TrainRun run;
    run.settings = s;
    run.example = train_example(s);
    for (const PositionalKind kind : s.variants) {
        TrainSettings one = s;
        one.variants = {kind};
        Trainer trainer(one);
        while (!trainer.Done())
            trainer.Step(10);
        run.variants.push_back(VariantResultOf(trainer, 0, run.example));
    }
    return run;
}

} // namespace
