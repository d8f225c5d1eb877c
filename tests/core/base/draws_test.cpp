// The core's draws (pelab/base/draws.h) against tests/reference/draws.py, which writes the
// generators and the draws again from their definitions: the same seed gives the same tokens
// and the same initial weights in every build (the browser's libc++ included).
#include "pelab/base/draws.h"
#include "pelab/encodings/embedding.h"
#include "pelab/training/train.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace pelab;

namespace {

// Each request line of draws.py answered with one line of numbers.
std::vector<std::vector<double>> Python(const std::vector<std::string>& requests) {
    // One file per test process: ctest runs the tests of this file side by side.
    const std::string input =
        ::testing::TempDir() + "pelab_draws_" + std::to_string(::getpid()) + ".txt";
    std::FILE* file = std::fopen(input.c_str(), "w");
    for (const std::string& request : requests)
        std::fprintf(file, "%s\n", request.c_str());
    std::fclose(file);
    // Debian's python3 (another python3 may come first on PATH).
    const std::string command = "/usr/bin/python3 " + std::string(pelab_test::SourceDir()) +
                                "/tests/reference/draws.py < " + input;
    std::FILE* pipe = ::popen(command.c_str(), "r");
    std::vector<std::vector<double>> lines;
    if (pipe == nullptr) return lines;
    std::string text;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe))
        text += buffer;
    EXPECT_EQ(::pclose(pipe), 0);
    std::istringstream stream(text);
    std::string line;
    while (std::getline(stream, line)) {
        std::istringstream numbers(line);
        std::vector<double> values;
        for (double value = 0; numbers >> value;)
            values.push_back(value);
        lines.push_back(values);
    }
    std::remove(input.c_str());
    return lines;
}

// An engine that returns the outputs it was given, to see which ones a draw consumes.
struct Scripted {
    std::vector<std::uint64_t> outputs;
    std::size_t used = 0;
    std::uint64_t operator()() { return outputs.at(used++); }
};

} // namespace

TEST(Draws, TokensAndNormalsAreTheDefinitionsWrittenAgainInPython) {
    const std::vector<std::uint64_t> seeds = {1, 2026};
    const std::vector<int> vocabularies = {2, 3, 16, 256, 1000003};
    std::vector<std::string> requests;
    for (const std::uint64_t seed : seeds)
        for (const int vocab : vocabularies)
            requests.push_back("tokens " + std::to_string(seed) + " " + std::to_string(vocab) +
                               " 64");
    for (const std::uint64_t seed : seeds)
        requests.push_back("normal " + std::to_string(seed) + " 32");
    requests.push_back("splitmix 7 32");
    const auto python = Python(requests);
    ASSERT_EQ(python.size(), requests.size()) << "python3 is needed (scripts/deps.sh test)";
    std::size_t line = 0;
    for (const std::uint64_t seed : seeds)
        for (const int vocab : vocabularies) {
            std::mt19937_64 engine(seed);
            std::vector<double> ours;
            for (int k = 0; k < 64; ++k)
                ours.push_back(draw_between(engine, 0, vocab - 1));
            EXPECT_EQ(ours, python[line++]) << "seed " << seed << ", vocabulary " << vocab;
        }
    // log and cos of two C libraries may differ in the last bit; Python's are glibc's here.
    for (const std::uint64_t seed : seeds) {
        std::mt19937_64 engine(seed);
        const std::vector<double>& expected = python[line++];
        ASSERT_EQ(expected.size(), 32U);
        for (const double value : expected)
            EXPECT_NEAR(draw_normal(engine), value, 1e-15 * (1 + std::abs(value)));
    }
    SplitMix64 splitmix(7);
    for (const double value : python[line++])
        EXPECT_NEAR(splitmix.normal(), value, 1e-15 * (1 + std::abs(value)));
}

// The tokens of a training batch are the generator's draws in order: the page and the desktop
// train on the same sequences.
TEST(Draws, ATaskBatchHoldsTheDrawsInOrder) {
    const auto python = Python({"tokens 1 16 24"});
    ASSERT_EQ(python.size(), 1U) << "python3 is needed (scripts/deps.sh test)";
    std::mt19937_64 random(1);
    const TokenBatch batch = make_task_batch(TaskOptions{}, 3, 8, random);
    EXPECT_EQ(std::vector<double>(batch.tokens.begin(), batch.tokens.end()), python[0]);
}

// The outputs below 2^64 mod count are the ones a plain `% count` would favour; they are drawn
// again, and the others map by the remainder.
TEST(Draws, RejectionRedrawsOnlyTheBiasedOutputs) {
    // 2^64 mod 3 = 1 (2^64 = 4^32 ≡ 1): output 0 is redrawn, 1 is kept.
    Scripted small{{0, 0, 1}};
    EXPECT_EQ(draw_below(small, 3), 1U);
    EXPECT_EQ(small.used, 3U);
    // count = 2^63 + 1: 2^64 mod count = 2^63 − 1, so 2^63 − 2 is redrawn, 2^63 − 1 kept as is.
    const std::uint64_t half = std::uint64_t{1} << 63;
    Scripted large{{half - 2, half - 1}};
    EXPECT_EQ(draw_below(large, half + 1), half - 1);
    EXPECT_EQ(large.used, 2U);
    // A power of two redraws nothing: the low bits.
    Scripted power{{0, 0xFFFFFFFFFFFFFFFFULL}};
    EXPECT_EQ(draw_below(power, 16), 0U);
    EXPECT_EQ(draw_below(power, 16), 15U);
    // The whole int range, and a one-value range, stay inside.
    Scripted edges{{0, 0xFFFFFFFFFFFFFFFFULL, 12345}};
    EXPECT_EQ(draw_between(edges, -2147483647 - 1, 2147483647), -2147483647 - 1);
    EXPECT_EQ(draw_between(edges, -2147483647 - 1, 2147483647), 2147483647);
    EXPECT_EQ(draw_between(edges, 5, 5), 5);
}

TEST(Draws, UnitDrawsAreNeverZero) {
    Scripted extremes{{0, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFF7FFULL}};
    EXPECT_EQ(draw_unit(extremes), 0.5 / 9007199254740992.0);
    // The largest 53 bits plus half a step is 2^53 − 0.5, which rounds (to even) to 2^53: the
    // largest gives exactly 1; the next, 2^53 − 1.5, rounds to even too, to 2^53 − 2.
    EXPECT_EQ(draw_unit(extremes), 1.0);
    EXPECT_EQ(draw_unit(extremes), 1.0 - 2.0 / 9007199254740992.0);
    // A normal from the smallest unit draw is finite: sqrt(−2 ln(2^−54)) ≈ 8.65.
    Scripted tail{{0, 0}};
    EXPECT_NEAR(draw_normal(tail), std::sqrt(2 * 54 * std::log(2.0)), 1e-12);
}
