// The training lab's run files (io/train_run.h): read back whole or refused with a message naming
// the field, and the built-in runs hold what docs/train.md states.
#include "fuzz_targets.h"
#include "train_fixture.h"

#include <limits>

// What docs/train.md's tables state for the four built-in runs: each cell the mean over the
// three seeds and their range (3 decimals there).
TEST(TrainRunFile, BuiltInRunsHoldWhatTheDocsState) {
    ASSERT_EQ(BuiltInTrainRuns().size(), 5u);
    const auto expect = [](const TrainRun& run, PositionalKind kind, int length, double mean,
                           double lowest, double highest) {
        const SeedsAt got = SeedsOfAt(run, kind, length);
        EXPECT_NEAR(got.mean, mean, 5e-4 + 1e-9) << positional_kind_name(kind) << " at " << length;
        EXPECT_NEAR(got.lowest, lowest, 5e-4 + 1e-9)
            << positional_kind_name(kind) << " at " << length;
        EXPECT_NEAR(got.highest, highest, 5e-4 + 1e-9)
            << positional_kind_name(kind) << " at " << length;
    };
    const TrainRun reverse = BuiltIn("reverse");
    EXPECT_FALSE(reverse.settings.causal);
    expect(reverse, PositionalKind::Sinusoidal, 16, 1.000, 1.000, 1.000);
    expect(reverse, PositionalKind::None, 16, 0.190, 0.184, 0.195);
    expect(reverse, PositionalKind::Rope, 16, 0.429, 0.402, 0.446);
    expect(reverse, PositionalKind::Sinusoidal, 32, 0.069, 0.066, 0.075);
    const TrainRun shift = BuiltIn("shift-causal");
    EXPECT_TRUE(shift.settings.causal);
    expect(shift, PositionalKind::Rope, 64, 0.856, 0.811, 0.943);
    expect(shift, PositionalKind::T5, 64, 0.651, 0.647, 0.656);
    expect(shift, PositionalKind::None, 16, 0.284, 0.278, 0.291);
    expect(shift, PositionalKind::Alibi, 16, 0.295, 0.288, 0.300);
    expect(shift, PositionalKind::Learned, 16, 0.833, 0.716, 0.932);
    const TrainRun majority = BuiltIn("majority");
    for (const PositionalKind kind : default_positional_kinds()) {
        EXPECT_GE(SeedsOfAt(majority, kind, 16).mean, 0.837 - 5e-4) << positional_kind_name(kind);
        EXPECT_LE(SeedsOfAt(majority, kind, 16).mean, 0.897 + 5e-4) << positional_kind_name(kind);
    }
    expect(majority, PositionalKind::Sinusoidal, 64, 0.269, 0.231, 0.344);
    // The causal shift trained five times as long: ALiBi learns it and keeps the most at 64.
    const TrainRun longer = BuiltIn("shift-causal-1500");
    EXPECT_TRUE(longer.settings.causal);
    EXPECT_EQ(longer.settings.steps, 1500);
    EXPECT_EQ(longer.settings.task.task, TrainTask::Shift);
    expect(longer, PositionalKind::Alibi, 16, 0.988, 0.987, 0.990);
    expect(longer, PositionalKind::Alibi, 64, 0.955, 0.951, 0.960);
    expect(longer, PositionalKind::Rope, 64, 0.864, 0.822, 0.947);
    expect(longer, PositionalKind::None, 16, 0.793, 0.788, 0.797);
    // RoPE's pairings on the causal shift: both learn it; rope's weights measured with the
    // half-split pairs (rope_crossed) do not.
    const TrainRun pairings = BuiltIn("rope-pairings");
    EXPECT_TRUE(pairings.settings.causal);
    EXPECT_EQ(pairings.settings.task.task, TrainTask::Shift);
    expect(pairings, PositionalKind::Rope, 16, 1.000, 1.000, 1.000);
    expect(pairings, PositionalKind::RopeHalf, 16, 1.000, 1.000, 1.000);
    expect(pairings, PositionalKind::RopeHalf, 64, 0.823, 0.716, 0.902);
    expect(pairings, PositionalKind::RopeCrossed, 8, 0.207, 0.174, 0.225);
    expect(pairings, PositionalKind::RopeCrossed, 16, 0.136, 0.131, 0.144);
    expect(pairings, PositionalKind::RopeCrossed, 64, 0.090, 0.084, 0.093);
    EXPECT_EQ(pairings.variants[2].loss, pairings.variants[0].loss) << "rope's very training";
    for (const TrainRun* run : {&reverse, &shift, &majority, &longer, &pairings}) {
        EXPECT_TRUE(run->Complete());
        EXPECT_EQ(run->variants.size(), run == &pairings ? 3u : 6u);
        for (const VariantResult& v : run->variants)
            EXPECT_EQ(v.Seeds(), 3);
        const int every = LossEvery(run->settings.steps); // 1, or 2 at 1 500 steps
        EXPECT_EQ(run->variants[0].loss.size(),
                  static_cast<std::size_t>((run->settings.steps + every - 1) / every));
    }
}

// A run of several seeds: each seed's accuracy per length read back, and the mean, lowest and
// highest the verdict and the length plot read, against the numbers written out here.
TEST(TrainRunFile, SeveralSeedsAreReadBackWithTheirMeanAndRange) {
    nlohmann::json doc = TrainRunJson(TrainedTiny());
    const std::size_t lengths = doc["test_lengths"].size();
    for (std::size_t v = 0; v < 2; ++v) {
        std::vector<double> first(lengths, 0.25), second(lengths, 0.5), third(lengths, 0.9);
        doc["variants"][v]["accuracy_by_length"] = first;
        doc["variants"][v]["more_seeds"] = nlohmann::json::array({second, third});
    }
    TrainRun run;
    ASSERT_EQ(ReadTrainRun(doc, &run), "");
    for (const VariantResult& v : run.variants) {
        EXPECT_EQ(v.Seeds(), 3);
        EXPECT_DOUBLE_EQ(v.MeanAt(0), (0.25 + 0.5 + 0.9) / 3);
        EXPECT_EQ(v.LowestAt(lengths - 1), 0.25);
        EXPECT_EQ(v.HighestAt(lengths - 1), 0.9);
    }
    TrainRun again;
    ASSERT_EQ(ReadTrainRun(TrainRunJson(run), &again), "");
    EXPECT_EQ(again.variants[1].more_seeds, run.variants[1].more_seeds);
    // The verdict reads the means and says how many seeds they are over.
    const Explanation verdict = TrainVerdict(run);
    EXPECT_EQ(verdict.Value("seeds"), 3);
    EXPECT_EQ(verdict.Value("best_trained"), (0.25 + 0.5 + 0.9) / 3);
    EXPECT_NE(verdict.text.find("mean over 3 seeds"), std::string::npos) << verdict.text;
}

// irope's pattern is written by the runs that train irope (and only by them, so the other runs
// keep their bytes), read back, and refused where the model has no such layer.
TEST(TrainRunFile, IropesPatternIsWrittenAndReadBack) {
    TrainRun run = TrainedTiny();
    EXPECT_FALSE(TrainRunJson(run)["settings"].contains("nope_every"));
    run.settings.variants[1] = PositionalKind::Irope;
    run.variants[1].variant = PositionalKind::Irope;
    nlohmann::json doc = TrainRunJson(run);
    ASSERT_EQ(doc["settings"]["nope_every"], 2);
    doc["settings"]["layers"] = 4;
    doc["settings"]["nope_every"] = 4;
    for (nlohmann::json& variant : doc["variants"])
        while (variant["attention"].size() < 4) // Tiny() has one layer
            variant["attention"].push_back(variant["attention"][0]);
    TrainRun again;
    ASSERT_EQ(ReadTrainRun(doc, &again), "");
    EXPECT_EQ(again.settings.method_options.nope_every, 4);
    doc["settings"]["layers"] = 2;
    for (nlohmann::json& variant : doc["variants"])
        variant["attention"].erase(3), variant["attention"].erase(2);
    EXPECT_NE(ReadTrainRun(doc, &again).find("has none of them"), std::string::npos)
        << ReadTrainRun(doc, &again);
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
        {[](nlohmann::json& d) { d["settings"]["nope_every"] = 5; }, "field \"nope_every\""},
        {[](nlohmann::json& d) { d["settings"]["nope_every"] = "2"; }, "field \"nope_every\""},
        {[](nlohmann::json& d) { d["settings"]["nope_every"] = 2; }, "the run trains no irope"},
        // Further seeds: lists of one accuracy per test length, as many for every variant.
        {[](nlohmann::json& d) { d["variants"][0]["more_seeds"] = nlohmann::json::array(); },
         "field \"more_seeds\": must be a list of 1 to 4"},
        {[](nlohmann::json& d) {
             // json::array: a brace list of one array is that array to some compilers.
             d["variants"][0]["more_seeds"] =
                 nlohmann::json::array({d["variants"][0]["accuracy_by_length"]});
             d["variants"][0]["more_seeds"][0][0] = 2;
         },
         "seed 0"},
        {[](nlohmann::json& d) {
             // json::array: a brace list of one array is that array to some compilers.
             d["variants"][0]["more_seeds"] =
                 nlohmann::json::array({d["variants"][0]["accuracy_by_length"]});
         },
         "variant 1 (rope): field \"more_seeds\": must hold as many seeds as variant 0's (1)"},
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
