// `pelab train`'s runs read back (the Release pass only: each run trains and measures a model,
// 62 s under the sanitizers, where the run reader is fuzzed instead: fuzz_train_run).
#include "cli_fixture.h"
#include "model_fixtures.h"

#include <sys/resource.h>

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

// Reliability round 5 (MEDIUM): a 64 MB table took 549–563 MB to analyse (four copies of it, a
// double Gram product). A 64 MB table (4096 × 4096 float32, the iterative path) and a tall 64 MB
// one (131072 × 128) are analysed by `model inspect` in a whole process whose peak memory stays
// within 3.5 × the table + 20 MB (the table, its sinusoidal twin, both solvers' work space side
// by side, the binary and its libraries: 180–220 MB measured, docs/performance.md). Release
// only: the sanitizers' shadow memory would be measured too.
TEST_F(Cli, ALargeTableIsAnalysedInAboutThreeTimesItsSize) {
    for (const auto& [rows, cols] : {std::pair<int, int>{4096, 4096}, {131072, 128}}) {
        const fs::path model = dir / ("t" + std::to_string(rows));
        fs::create_directories(model);
        pelab_test::WriteSafetensors(
            model / "model.safetensors",
            {{"wpe.weight",
              {rows, cols},
              pelab_test::Normal(static_cast<std::size_t>(rows) * cols, 3, 0.02f)}});
        const pid_t pid = fork();
        if (pid == 0) {
            std::FILE* out = std::freopen((dir / "out.txt").c_str(), "w", stdout);
            if (!out) _exit(127);
            ExecPelab({"model", "inspect", model.string()});
        }
        int status = 0;
        struct rusage usage {};
        ASSERT_EQ(::wait4(pid, &status, 0, &usage), pid);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
        const double table_mb = rows * static_cast<double>(cols) * 4 / (1 << 20);
        const double peak_mb = usage.ru_maxrss / 1024.0; // kilobytes on Linux
        EXPECT_LE(peak_mb, 3.5 * table_mb + 20)
            << rows << " × " << cols << ": " << peak_mb << " MB";
    }
}
