// The training lab's run files (io/train_run.h): read back whole or refused with a message naming
// the field, and the built-in runs hold what docs/train.md states.
#include "fuzz_targets.h"
#include "train_fixture.h"

#include <limits>

// What docs/train.md's tables state for the four built-in runs (3 decimals there).
TEST(TrainRunFile, BuiltInRunsHoldWhatTheDocsState) {
    ASSERT_EQ(BuiltInTrainRuns().size(), 4u);
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
    // The causal shift trained five times as long: ALiBi learns it and keeps the most at 64.
    const TrainRun longer = BuiltIn("shift-causal-1500");
    EXPECT_TRUE(longer.Complete());
    EXPECT_TRUE(longer.settings.causal);
    EXPECT_EQ(longer.settings.steps, 1500);
    EXPECT_EQ(longer.settings.task.task, TrainTask::Shift);
    EXPECT_NEAR(At(longer, PositionalKind::Alibi, 16), 0.993, 5e-4);
    EXPECT_NEAR(At(longer, PositionalKind::Alibi, 64), 0.963, 5e-4);
    EXPECT_NEAR(At(longer, PositionalKind::Rope, 64), 0.912, 5e-4);
    EXPECT_NEAR(At(longer, PositionalKind::None, 16), 0.806, 5e-4);
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
    const std::vector<nlohmann::json::json_pointer> pointers =
        fuzz::ValuePointers(good, std::numeric_limits<std::size_t>::max());
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
