// The training lab's app side: run files (io/train_run.h) read back whole or refused with a
// message naming the field; the built-in runs hold what docs/train.md states; the verdict and
// paper notes (panels/train/train_verdict.h) say what their claims say over a sweep of runs,
// each claim recomputed here from the accuracies; the panel's live run equals the trainer's,
// cancels, and a bad file changes nothing.
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

TrainRun BuiltIn(const std::string& name) {
    const BuiltInTrainRun* built_in = FindBuiltInTrainRun(name);
    EXPECT_NE(built_in, nullptr) << name;
    nlohmann::json doc;
    EXPECT_EQ(ParseJsonInput(built_in->text, &doc), "");
    TrainRun run;
    EXPECT_EQ(ReadTrainRun(doc, &run), "") << name;
    return run;
}

double At(const TrainRun& run, PositionalKind kind, int length) {
    const std::vector<int> lengths = test_lengths(run.settings);
    const std::size_t at = static_cast<std::size_t>(
        std::find(lengths.begin(), lengths.end(), length) - lengths.begin());
    for (const VariantResult& v : run.variants)
        if (v.variant == kind) return v.accuracy_by_length.at(at);
    ADD_FAILURE() << "no variant " << positional_kind_name(kind);
    return -1;
}

// A run small enough to train in a moment (tiny model, a few steps).
TrainSettings Tiny() {
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

TrainRun TrainedTiny() {
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

// What docs/train.md's tables state for the three built-in runs (3 decimals there).
TEST(TrainRunFile, BuiltInRunsHoldWhatTheDocsState) {
    ASSERT_EQ(BuiltInTrainRuns().size(), 3u);
    const TrainRun reverse = BuiltIn("reverse");
    EXPECT_FALSE(reverse.settings.causal);
    EXPECT_NEAR(At(reverse, PositionalKind::Sinusoidal, 16), 1.000, 5e-4);
    EXPECT_NEAR(At(reverse, PositionalKind::None, 16), 0.191, 5e-4);
    EXPECT_NEAR(At(reverse, PositionalKind::Rope, 16), 0.376, 5e-4);
    EXPECT_NEAR(At(reverse, PositionalKind::Sinusoidal, 32), 0.069, 5e-4);
    const TrainRun shift = BuiltIn("shift-causal");
    EXPECT_TRUE(shift.settings.causal);
    EXPECT_NEAR(At(shift, PositionalKind::Rope, 64), 0.917, 5e-4);
    EXPECT_NEAR(At(shift, PositionalKind::T5, 64), 0.640, 5e-4);
    EXPECT_NEAR(At(shift, PositionalKind::None, 16), 0.289, 5e-4);
    EXPECT_NEAR(At(shift, PositionalKind::Alibi, 16), 0.296, 5e-4);
    const TrainRun majority = BuiltIn("majority");
    for (const PositionalKind kind : positional_kinds()) {
        EXPECT_GE(At(majority, kind, 16), 0.88 - 5e-4) << positional_kind_name(kind);
        EXPECT_LE(At(majority, kind, 16), 0.93 + 5e-4) << positional_kind_name(kind);
    }
    EXPECT_NEAR(At(majority, PositionalKind::Sinusoidal, 64), 0.364, 5e-4);
    for (const TrainRun* run : {&reverse, &shift, &majority}) {
        EXPECT_TRUE(run->Complete());
        EXPECT_EQ(run->variants.size(), 6u);
        EXPECT_EQ(run->variants[0].loss.size(), 300u);
    }
}

// Written and read back: every number kept (the file rounds attention to 1e-4, losses to 6
// digits), so reading what was read and written again changes nothing.
TEST(TrainRunFile, RoundTripKeepsEveryNumber) {
    const TrainRun tiny = TrainedTiny();
    TrainRun once, twice;
    ASSERT_EQ(ReadTrainRun(TrainRunJson(tiny), &once), "");
    ASSERT_EQ(ReadTrainRun(TrainRunJson(once), &twice), "");
    EXPECT_EQ(TrainRunJson(once), TrainRunJson(twice));
    ASSERT_EQ(once.variants.size(), 2u);
    for (std::size_t v = 0; v < 2; ++v) {
        EXPECT_EQ(once.variants[v].accuracy_by_length, tiny.variants[v].accuracy_by_length);
        EXPECT_EQ(once.variants[v].prediction, tiny.variants[v].prediction);
        for (std::size_t k = 0; k < tiny.variants[v].loss.size(); ++k)
            EXPECT_NEAR(once.variants[v].loss[k], tiny.variants[v].loss[k],
                        1e-5 * tiny.variants[v].loss[k]);
        const auto& map = tiny.variants[v].attention[0][1];
        for (std::size_t k = 0; k < map.size(); ++k)
            EXPECT_NEAR(once.variants[v].attention[0][1][k], map[k], 5e-5 + 1e-12);
    }
    EXPECT_EQ(once.example.tokens, tiny.example.tokens);
    EXPECT_EQ(once.settings.seed, tiny.settings.seed);
}

// Each kind of damage is refused with a message naming where it is.
TEST(TrainRunFile, BadFilesAreAMessageNamingTheField) {
    const nlohmann::json good = TrainRunJson(TrainedTiny());
    TrainRun run;
    ASSERT_EQ(ReadTrainRun(good, &run), "");
    struct Case {
        std::function<void(nlohmann::json&)> damage;
        const char* says;
    };
    const std::vector<Case> cases = {
        {[](nlohmann::json& d) { d["format"] = "pelab-scene"; }, "field \"format\""},
        {[](nlohmann::json& d) { d["version"] = 2; }, "newer PE Lab"},
        {[](nlohmann::json& d) { d.erase("settings"); }, "field \"settings\": missing"},
        {[](nlohmann::json& d) { d["extra"] = 1; }, "unknown field \"extra\""},
        {[](nlohmann::json& d) { d["settings"]["vocab"] = "16"; }, "field \"vocab\""},
        {[](nlohmann::json& d) { d["settings"]["layers"] = 9; }, "field \"layers\""},
        {[](nlohmann::json& d) { d["settings"]["d_model"] = 17.5; }, "field \"d_model\""},
        {[](nlohmann::json& d) { d["settings"]["seed"] = "12a"; }, "field \"seed\""},
        {[](nlohmann::json& d) { d["settings"]["seed"] = "99999999999999999999"; }, "2^64"},
        {[](nlohmann::json& d) { d["settings"]["task"] = "sort"; }, "unknown task"},
        {[](nlohmann::json& d) {
             d["settings"]["variants"] = {"rope", "rope"};
         },
         "named twice"},
        {[](nlohmann::json& d) { d["settings"]["test_len"] = 2; }, "test_len"},
        {[](nlohmann::json& d) { d["settings"]["eval_every"] = 3; }, "field \"eval_every\""},
        {[](nlohmann::json& d) { d["test_lengths"][0] = 3; }, "field \"test_lengths\""},
        {[](nlohmann::json& d) { d["example"]["tokens"][0] = 16; }, "field \"tokens\""},
        {[](nlohmann::json& d) { d["variants"][1]["pe"] = "alibi"; }, "variant 1 (rope)"},
        {[](nlohmann::json& d) { d["variants"].erase(1); }, "field \"variants\""},
        {[](nlohmann::json& d) { d["variants"][0]["loss"].erase(0); }, "field \"loss\""},
        {[](nlohmann::json& d) { d["variants"][0]["loss"][2] = -1; }, "item 2"},
        {[](nlohmann::json& d) { d["variants"][0]["accuracy"][0] = 1.5; }, "field \"accuracy\""},
        {[](nlohmann::json& d) {
             d["variants"][1]["accuracy_steps"] = {6, 6};
         },
         "field \"accuracy_steps\""},
        {[](nlohmann::json& d) { d["variants"][1]["accuracy_by_length"][0] = nullptr; },
         "field \"accuracy_by_length\""},
        {[](nlohmann::json& d) { d["variants"][0]["attention"][0][0][0] = 0.5; }, "sum to 1"},
        // Causal: row 0 may only look at key 0.
        {[](nlohmann::json& d) {
             d["variants"][0]["attention"][0][1][0] = 0.5;
             d["variants"][0]["attention"][0][1][1] = 0.5;
         },
         "later key"},
        {[](nlohmann::json& d) { d["variants"][0]["attention"][0].erase(1); }, "layer 0"},
        {[](nlohmann::json& d) { d["variants"][1]["prediction"][3] = 99; }, "field \"prediction\""},
        {[](nlohmann::json& d) { d["seconds"] = -1; }, "field \"seconds\""},
        {[](nlohmann::json& d) { d = nlohmann::json::array(); }, "must be an object"},
    };
    for (const Case& c : cases) {
        nlohmann::json bad = good;
        c.damage(bad);
        const std::string message = ReadTrainRun(bad, &run);
        EXPECT_NE(message.find(c.says), std::string::npos) << message << "\nwanted: " << c.says;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

// Every value of a run replaced by one of every other type: a message or a run, never an
// exception (a lesson file of the wrong type once quit the app).
TEST(TrainRunFile, EveryValueOfEveryTypeIsAMessageOrARun) {
    const nlohmann::json good = TrainRunJson(TrainedTiny());
    std::vector<nlohmann::json::json_pointer> pointers;
    const std::function<void(const nlohmann::json&, const nlohmann::json::json_pointer&)> walk =
        [&](const nlohmann::json& value, const nlohmann::json::json_pointer& at) {
            if (!at.empty()) pointers.push_back(at);
            if (value.is_object())
                for (const auto& item : value.items())
                    walk(item.value(), at / item.key());
            else if (value.is_array())
                for (std::size_t k = 0; k < value.size(); ++k)
                    walk(value[k], at / std::to_string(k));
        };
    walk(good, nlohmann::json::json_pointer());
    ASSERT_GT(pointers.size(), 100u);
    const std::vector<nlohmann::json> others = {nullptr,
                                                true,
                                                -1,
                                                0,
                                                1,
                                                2.5,
                                                1e308,
                                                -1e308,
                                                18446744073709551615ull,
                                                "x",
                                                nlohmann::json::array(),
                                                nlohmann::json::object()};
    int accepted = 0;
    for (const auto& at : pointers)
        for (const nlohmann::json& other : others) {
            nlohmann::json bad = good;
            bad[at] = other;
            TrainRun run;
            std::string message;
            ASSERT_NO_THROW(message = ReadTrainRun(bad, &run)) << at.to_string();
            EXPECT_EQ(message.find('\n'), std::string::npos);
            if (message.empty()) {
                ++accepted;
                (void)TrainVerdict(run);
                (void)TrainPaperNotes(run);
            }
        }
    EXPECT_GT(accepted, 0); // some replacements are valid values (a loss of 1)
}

namespace {

// The claims recomputed from the run's accuracies, independently of train_verdict.cpp.
struct Expected {
    int finished = 0, learned = 0, kept = 0;
    double best_trained = -1, worst_trained = 2, best_longest = -1;
    bool tie = false, has_none = false;
    double none_trained = 0, none_longest = 0;
};

TrainRun RandomRun(std::mt19937_64& random) {
    TrainRun run;
    TrainSettings& s = run.settings;
    const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
    s.task.task = train_tasks()[static_cast<std::size_t>(pick(6))];
    s.causal = pick(2) == 1;
    s.train_len = 4 + pick(20);
    s.min_train_len = s.train_len;
    s.test_len = pick(3) == 0 ? s.train_len : s.train_len * (2 + pick(3));
    s.variants.clear();
    for (const PositionalKind kind : positional_kinds())
        if (pick(3) != 0) s.variants.push_back(kind);
    if (s.variants.empty()) s.variants.push_back(PositionalKind::None);
    const std::size_t lengths = test_lengths(s).size();
    // Accuracies that hit the thresholds exactly, tie, or spread.
    const std::vector<double> special = {0.0, 0.05, 0.85, 0.899, 0.9, 0.9001, 0.95, 1.0};
    const double tie_level = std::uniform_real_distribution<double>(0, 1)(random);
    const int style = pick(3);
    for (const PositionalKind kind : s.variants) {
        VariantResult v;
        v.variant = kind;
        if (pick(8) != 0) // some not finished yet
            for (std::size_t k = 0; k < lengths; ++k)
                v.accuracy_by_length.push_back(
                    style == 0   ? special[static_cast<std::size_t>(pick(8))]
                    : style == 1 ? std::clamp(tie_level + 0.03 * (pick(5) - 2) / 2.0, 0.0, 1.0)
                                 : std::uniform_real_distribution<double>(0, 1)(random));
        run.variants.push_back(v);
    }
    return run;
}

Expected ExpectedOf(const TrainRun& run) {
    Expected e;
    const std::vector<int> lengths = test_lengths(run.settings);
    std::size_t trained = 0;
    while (lengths[trained] != run.settings.train_len)
        ++trained;
    for (const VariantResult& v : run.variants) {
        if (v.accuracy_by_length.empty()) continue;
        ++e.finished;
        const double a = v.accuracy_by_length[trained], b = v.accuracy_by_length.back();
        e.learned += a >= 0.9 ? 1 : 0;
        e.kept += b >= 0.9 ? 1 : 0;
        e.best_trained = std::max(e.best_trained, a);
        e.worst_trained = std::min(e.worst_trained, a);
        e.best_longest = std::max(e.best_longest, b);
        if (v.variant == PositionalKind::None)
            e.has_none = true, e.none_trained = a, e.none_longest = b;
    }
    e.tie = e.finished >= 2 && e.best_trained - e.worst_trained <= 0.05 && e.learned >= 1;
    return e;
}

bool Contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string Three(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

} // namespace

TEST(TrainVerdict, SaysWhatTheAccuraciesShowOverASweepOfRuns) {
    std::mt19937_64 random(2026);
    int ties = 0, none_learned = 0, judged_haviv = 0, judged_press = 0;
    for (int sample = 0; sample < 4000; ++sample) {
        const TrainRun run = RandomRun(random);
        const Expected e = ExpectedOf(run);
        const Explanation verdict = TrainVerdict(run);
        const std::string& text = verdict.text;
        SCOPED_TRACE(text);
        ASSERT_EQ(verdict.Value("finished"), e.finished);
        if (e.finished == 0) {
            EXPECT_TRUE(Contains(text, "No variant has finished"));
            continue;
        }
        EXPECT_EQ(verdict.Value("learned_count"), e.learned);
        EXPECT_EQ(verdict.Value("best_trained"), e.best_trained);
        EXPECT_EQ(Contains(text, "no variant learned the task"), e.learned == 0);
        EXPECT_TRUE(Contains(text, Three(e.best_trained)));
        EXPECT_EQ(verdict.Value("tie"), e.tie ? 1 : 0);
        EXPECT_EQ(Contains(text, "makes no difference"), e.tie);
        ties += e.tie ? 1 : 0;
        none_learned += e.learned == 0 ? 1 : 0;
        const bool none_said = e.has_none && !e.tie && e.finished >= 2;
        EXPECT_EQ(!std::isnan(verdict.Value("none_gap")), none_said);
        if (none_said) {
            EXPECT_EQ(verdict.Value("none_gap"), e.best_trained - e.none_trained);
            EXPECT_TRUE(Contains(text, "Without an encoding"));
        }
        const bool longer = run.settings.test_len > run.settings.train_len;
        EXPECT_EQ(!std::isnan(verdict.Value("kept_count")), longer);
        if (longer) {
            EXPECT_EQ(verdict.Value("kept_count"), e.kept);
            EXPECT_EQ(verdict.Value("best_longest"), e.best_longest);
            EXPECT_EQ(Contains(text, "no variant reaches"), e.kept == 0);
            EXPECT_TRUE(Contains(text, "At " + std::to_string(run.settings.test_len) + " tokens"));
        }
        // Paper notes: judged only where the run can judge them, and in the direction the
        // numbers point.
        const Explanation notes = TrainPaperNotes(run);
        const bool order = run.settings.task.task != TrainTask::Majority;
        const bool haviv =
            run.settings.causal && order && e.has_none && e.finished >= 2 && e.best_trained >= 0.9;
        EXPECT_EQ(!std::isnan(notes.Value("haviv")), haviv);
        if (haviv) {
            ++judged_haviv;
            EXPECT_EQ(notes.Value("haviv"), e.none_trained >= 0.9 ? 1 : 0);
            EXPECT_EQ(Contains(notes.text, "As Haviv"), e.none_trained >= 0.9);
        }
        const VariantResult* alibi = nullptr;
        for (const VariantResult& v : run.variants)
            if (v.variant == PositionalKind::Alibi && !v.accuracy_by_length.empty()) alibi = &v;
        std::size_t trained = 0;
        while (test_lengths(run.settings)[trained] != run.settings.train_len)
            ++trained;
        const bool press = alibi != nullptr && longer && alibi->accuracy_by_length[trained] >= 0.9;
        EXPECT_EQ(!std::isnan(notes.Value("press")), press);
        if (press) {
            ++judged_press;
            EXPECT_EQ(notes.Value("press"), alibi->accuracy_by_length.back() >= 0.9 ? 1 : 0);
            EXPECT_EQ(Contains(notes.text, "as Press et al. (2022) found"),
                      alibi->accuracy_by_length.back() >= 0.9);
        }
        if (!std::isnan(notes.Value("kazemnejad"))) {
            EXPECT_TRUE(run.settings.causal && order && longer && e.none_trained >= 0.9);
            EXPECT_EQ(Contains(notes.text, "as Kazemnejad"), notes.Value("kazemnejad") == 1);
        }
    }
    // The sweep reached every branch.
    EXPECT_GT(ties, 50);
    EXPECT_GT(none_learned, 50);
    EXPECT_GT(judged_haviv, 50);
    EXPECT_GT(judged_press, 20);
}

// The built-in runs' verdicts, read against docs/train.md's findings.
TEST(TrainVerdict, BuiltInRunsSayTheDocumentedFindings) {
    const Explanation reverse = TrainVerdict(BuiltIn("reverse"));
    EXPECT_EQ(reverse.Value("learned_count"), 1); // only sinusoidal
    EXPECT_TRUE(Contains(reverse.text, "sinusoidal (1.000) learned the task"));
    const TrainRun shift = BuiltIn("shift-causal");
    const Explanation notes = TrainPaperNotes(shift);
    EXPECT_EQ(notes.Value("haviv"), 0); // causal NoPE did not learn the shift in 300 steps
    EXPECT_TRUE(std::isnan(notes.Value("press"))); // ALiBi did not learn it: not judged
    EXPECT_TRUE(Contains(notes.text, "ALiBi did not learn the task"));
    const Explanation majority = TrainVerdict(BuiltIn("majority"));
    EXPECT_EQ(majority.Value("tie"), 1);
}

class TrainPanelTest : public HeadlessApp {};

// The live run is the trainer's, bit for bit, however the worker interleaves the variants; the
// panel's readouts report it, and the verdict is built from it.
TEST_F(TrainPanelTest, LiveRunEqualsTheTrainer) {
    auto& panel = Get<TrainPanel>("train");
    app.view.presented_panel = "train";
    panel.edit = Tiny();
    ASSERT_TRUE(panel.StartTraining());
    EXPECT_EQ(panel.result_name, "");
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (panel.job.Running() && std::chrono::steady_clock::now() < give_up) {
        Frame();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_FALSE(panel.job.Running());
    Frame();
    const TrainRun expected = TrainedTiny();
    ASSERT_TRUE(panel.own_run.Complete());
    for (std::size_t v = 0; v < 2; ++v) {
        EXPECT_EQ(panel.own_run.variants[v].loss, expected.variants[v].loss);
        EXPECT_EQ(panel.own_run.variants[v].accuracy_by_length,
                  expected.variants[v].accuracy_by_length);
        EXPECT_EQ(panel.own_run.variants[v].attention, expected.variants[v].attention);
    }
    const nlohmann::json readouts = panel.Readouts(state);
    EXPECT_EQ(readouts["source"], "your run");
    EXPECT_EQ(readouts["verdict"], TrainVerdict(expected).text);
    EXPECT_EQ(readouts["variants"][1]["accuracy_by_length"],
              nlohmann::json(expected.variants[1].accuracy_by_length));
}

// Cancel stops the worker within a step; the curves so far stay on screen.
TEST_F(TrainPanelTest, CancelStopsTheRunAndKeepsItsCurves) {
    auto& panel = Get<TrainPanel>("train");
    app.view.presented_panel = "train";
    panel.edit = Tiny();
    panel.edit.steps = 20000;
    ASSERT_TRUE(panel.StartTraining());
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (panel.job.Progress() == 0 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    Frame();
    panel.job.Cancel();
    const auto stopping = std::chrono::steady_clock::now();
    while (panel.job.Running() &&
           std::chrono::steady_clock::now() - stopping < std::chrono::seconds(5))
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_FALSE(panel.job.Running());
    EXPECT_TRUE(panel.job.Cancelled());
    Frame();
    ASSERT_EQ(panel.own_run.variants.size(), 2u);
    EXPECT_FALSE(panel.own_run.Complete());
    EXPECT_GT(panel.own_run.variants[0].loss.size(), 0u);
    EXPECT_LT(panel.job.Progress(), 1.0);
    EXPECT_EQ(panel.Readouts(state)["verdict"],
              "No variant has finished training yet: the verdict comes once one has.");
}

// Bad settings are a message and start nothing.
TEST_F(TrainPanelTest, BadSettingsAreAMessage) {
    auto& panel = Get<TrainPanel>("train");
    panel.edit = Tiny();
    panel.edit.variants.clear();
    EXPECT_FALSE(panel.StartTraining());
    EXPECT_NE(panel.edit_error.find("variant"), std::string::npos);
    EXPECT_FALSE(panel.job.Running());
    EXPECT_EQ(panel.result_name, kDefaultTrainRun);
}

// File → Open: a good run file is shown; a damaged one is a message and the run shown stays.
TEST_F(TrainPanelTest, OpenRunFileOrRefuseItChangingNothing) {
    auto& panel = Get<TrainPanel>("train");
    TempFolder folder;
    nlohmann::json bad = TrainRunJson(TrainedTiny());
    bad["variants"][0]["loss"][0] = "x";
    const std::string error = OpenFile(app, folder.Write("bad.json", bad.dump()));
    EXPECT_NE(error.find("training run"), std::string::npos) << error;
    EXPECT_NE(error.find("variant 0 (none): field \"loss\""), std::string::npos) << error;
    EXPECT_EQ(panel.result_name, kDefaultTrainRun);
    const std::string good = folder.Write("good.json", TrainRunJson(TrainedTiny()).dump(1));
    ASSERT_EQ(OpenFile(app, good), "");
    EXPECT_EQ(panel.result_name, "");
    EXPECT_EQ(panel.own_source, good);
    EXPECT_EQ(panel.edit.train_len, 4); // Start would train it again
    Frame();
    EXPECT_EQ(panel.Readouts(state)["source"], "run file " + good);
}

// The scene fields take only what the panel can show.
TEST_F(TrainPanelTest, SceneFieldsRefuseWhatThePanelCannotShow) {
    EXPECT_NE(app.scene.Apply(R"({"train_result": "nope"})").find("reverse, shift-causal"),
              std::string::npos);
    EXPECT_NE(app.scene.Apply(R"({"train_view": "loss"})"), "");
    EXPECT_NE(app.scene.Apply(R"({"train_layer": 4})"), "");
    EXPECT_EQ(app.scene.Apply(R"({"train_result": "majority", "train_view": "attention"})"), "");
    auto& panel = Get<TrainPanel>("train");
    EXPECT_EQ(panel.Readouts(state)["source"], "built-in run \"majority\"");
    EXPECT_EQ(panel.Readouts(state)["claims"]["tie"], 1);
}

// File → Export table as CSV: each variant's accuracy per test length and last loss, as the
// built-in file holds them.
TEST_F(TrainPanelTest, TableCsvIsTheRunShown) {
    auto& panel = Get<TrainPanel>("train");
    ASSERT_TRUE(panel.HasTable());
    const std::string csv = panel.TableCsv(state);
    const std::string header = csv.substr(0, csv.find('\n'));
    EXPECT_EQ(header, "variant,accuracy at 8,accuracy at 16,accuracy at 32,accuracy at 48,"
                      "accuracy at 64,last loss");
    // sinusoidal's row: 1 at the trained length (docs/train.md's table).
    const std::size_t row = csv.find("\nsinusoidal,");
    ASSERT_NE(row, std::string::npos);
    std::string line = csv.substr(row + 1, csv.find('\n', row + 1) - row - 1);
    std::vector<double> cells;
    for (std::size_t at = line.find(','); at != std::string::npos; at = line.find(',', at + 1))
        cells.push_back(std::stod(line.substr(at + 1)));
    ASSERT_EQ(cells.size(), 6u);
    EXPECT_EQ(cells[1], 1.0);
    EXPECT_NEAR(cells[0], 0.054, 5e-4);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7); // header and six variants
    ASSERT_EQ(app.scene.Apply(R"({"train_result": ""})"), "");
    EXPECT_FALSE(panel.HasTable()); // no run of its own yet
}
