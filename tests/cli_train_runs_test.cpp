// `pelab train`'s runs read back (the Release pass only: each run trains and measures a model,
// 62 s under the sanitizers, where the run reader is fuzzed instead: fuzz_train_run).
#include "cli_fixture.h"

// Whatever `pelab train` accepts, it writes a file PE Lab opens, and `readouts --run` reads it
// back: the two runs the issue found unreadable (attention over 56 and 65 tokens: too many
// values for the 1 MiB reader, rows whose rounding missed the sum-to-1 tolerance) and a default
// one. The Train panel's readouts name the run and hold its settings.
TEST_F(Cli, EveryRunTrainWritesReadsBackThroughReadoutsRun) {
    const std::vector<std::vector<std::string>> shapes = {
        {"--task", "shift", "--k", "55", "--train-len", "56", "--causal", "--layers", "1",
         "--heads", "1", "--vocab", "2"},
        {"--task", "token_at", "--k", "64", "--train-len", "65", "--test-len", "130", "--layers",
         "4"},
        {}};
    int index = 0;
    for (const std::vector<std::string>& shape : shapes) {
        const std::string run = (dir / ("run" + std::to_string(index++) + ".json")).string();
        std::vector<std::string> args = {"train", "--steps", "1", "--batch", "1", "--out", run};
        args.insert(args.end(), shape.begin(), shape.end());
        const Result trained = Run(args);
        ASSERT_EQ(trained.exit_code, 0) << trained.err;
        const Result read = Run({"readouts", "--run", run});
        ASSERT_EQ(read.exit_code, 0) << run << ": " << read.err;
        const nlohmann::json readouts = nlohmann::json::parse(read.out);
        EXPECT_NE(readouts.value("source", std::string()).find(run), std::string::npos)
            << readouts.dump().substr(0, 300);
        const nlohmann::json written = nlohmann::json::parse(ReadAll(run));
        EXPECT_EQ(readouts["settings"], written["settings"]);
        EXPECT_EQ(readouts["test_lengths"], written["test_lengths"]);
    }
    // A damaged run: exit 2 with the reader's message naming the field.
    nlohmann::json damaged = nlohmann::json::parse(ReadAll(dir / "run2.json"));
    damaged["variants"][0]["attention"][0][0][0] = 7;
    std::ofstream(dir / "damaged.json") << damaged.dump();
    const Result bad = Run({"readouts", "--run", (dir / "damaged.json").string()});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("attention"), std::string::npos) << bad.err;
    // A scene is not a run, and a run is not a scene or a lesson: each says what the file is.
    std::ofstream(dir / "scene.json") << R"({"format": "pelab-scene", "version": 1})";
    const Result not_run = Run({"readouts", "--run", (dir / "scene.json").string()});
    EXPECT_EQ(not_run.exit_code, 2);
    EXPECT_NE(not_run.err.find("not a training run"), std::string::npos) << not_run.err;
    for (const std::string option : {"--scene", "--lesson"}) {
        const Result as_scene = option == "--scene"
                                    ? Run({"readouts", "--scene", (dir / "run2.json").string()})
                                    : Run({"screenshot", "--lesson", (dir / "run2.json").string(),
                                           "--out", (dir / "x.png").string()});
        EXPECT_EQ(as_scene.exit_code, 2) << option;
        EXPECT_NE(as_scene.err.find("is a training run"), std::string::npos) << as_scene.err;
        EXPECT_NE(as_scene.err.find("readouts --run"), std::string::npos) << as_scene.err;
    }
}
