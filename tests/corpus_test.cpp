// Replays every saved fuzzer input (tests/corpus/<target>/): the regressions found by hand or by
// scripts/fuzz.sh run in every normal test run (and under ASan + UBSan in the sanitizer build),
// through the very same target bodies the fuzzers use.
#include "fuzz_targets.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

int ReplayAll(const char* target, int (*body)(const std::uint8_t*, std::size_t)) {
    const std::filesystem::path folder =
        std::filesystem::path(pelab_test::SourceDir()) / "tests" / "corpus" / target;
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        const std::string data = bytes.str();
        SCOPED_TRACE(entry.path().string());
        EXPECT_EQ(body(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()), 0);
        ++count;
    }
    return count;
}

} // namespace

TEST(Corpus, SceneInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_scene", pelab::fuzz::Scene), 8);
}
TEST(Corpus, PngSceneInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_png_scene", pelab::fuzz::PngScene), 1);
}
TEST(Corpus, LessonInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_lesson", pelab::fuzz::Lesson), 4);
}

TEST(Corpus, TrainRunInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_train_run", pelab::fuzz::TrainRunFile), 3);
}

TEST(Corpus, ModelFileInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_model_file", pelab::fuzz::ModelFile), 4);
}

TEST(Corpus, GgufHeaderInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_gguf", pelab::fuzz::GgufHeader), 3);
}

TEST(Corpus, ModelConfigInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_model_config", pelab::fuzz::ModelConfigFile), 4);
}

TEST(Corpus, QuizInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_quiz", pelab::fuzz::Quiz), 5);
}
TEST(Corpus, TokenizerInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_tokenize", pelab::fuzz::Tokenize), 3);
}
TEST(Corpus, CommandLineInputsReplay) {
    EXPECT_GE(ReplayAll("fuzz_cli", pelab::fuzz::CommandLine), 3);
}
