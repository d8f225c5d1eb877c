// Regression tests for hostile scene input (reliability issue): a scene nested 10 000 deep
// overflowed the stack (the error message echoed the whole value recursively), 1e999 was an
// "unexpected error" with exit 1, a NUL byte ended the document early and let the rest pass,
// 2^64 − 1 was reported as −1, and /dev/zero was read without bound.
#include "io/json_input.h"
#include "io/suggest.h"
#include "shell/app.h"

#include <gtest/gtest.h>

#include <string>

using namespace pelab;

namespace {

std::string Nested(int depth, const std::string& inner = "") {
    return std::string(static_cast<std::size_t>(depth), '[') + inner +
           std::string(static_cast<std::size_t>(depth), ']');
}

bool Mentions(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST(SceneInput, DeeplyNestedSceneIsRefusedNamingDepthAndField) {
    for (const std::string field : {"d_model", "open_panels", "sentence_a"}) {
        App app;
        const std::string text = "{\"" + field + "\": " + Nested(10000) + "}";
        ASSERT_EQ(text.size(), 20000 + field.size() + 6); // 20 kB, far below the 1 MiB limit
        const std::string error = app.scene.Apply(text);
        EXPECT_TRUE(Mentions(error, "nested deeper than 32 levels")) << error;
        EXPECT_TRUE(Mentions(error, "\"" + field + "\"")) << error;
        EXPECT_LT(error.size(), 200u); // the value is not echoed back
        EXPECT_EQ(app.state.d_model, 512);
    }
    // A bare nested array (no field): refused too.
    App app;
    EXPECT_TRUE(Mentions(app.scene.Apply(Nested(100000)), "nested deeper"));
    // 32 levels are fine for the parser (the field check then says what is wrong).
    nlohmann::json doc;
    EXPECT_EQ(ParseJsonInput("{\"a\": " + Nested(31, "1") + "}", &doc), "");
    EXPECT_NE(ParseJsonInput("{\"a\": " + Nested(32, "1") + "}", &doc), "");
}

TEST(SceneInput, NumbersThatDoNotFitNameTheField) {
    for (const char* number : {"1e999", "-1e999", "1e400"}) {
        App app;
        const std::string error =
            app.scene.Apply(std::string("{\"pos_a\": 1, \"base\": ") + number + "}");
        EXPECT_TRUE(Mentions(error, "does not fit")) << error;
        EXPECT_TRUE(Mentions(error, "\"base\"")) << error;
    }
    App app;
    // 2^64 − 1 and 1e29-sized integers are reported as themselves, not wrapped.
    std::string error = app.scene.Apply("{\"embedding_seed\": 18446744073709551615}");
    EXPECT_TRUE(Mentions(error, "18446744073709551615")) << error;
    EXPECT_FALSE(Mentions(error, "-1")) << error;
    error = app.scene.Apply("{\"d_model\": 100000000000000000000000000000}");
    EXPECT_TRUE(Mentions(error, "\"d_model\"")) << error;
    error = app.scene.Apply("{\"shift_k\": -9223372036854775808}");
    EXPECT_TRUE(Mentions(error, "\"shift_k\"")) << error;
    EXPECT_EQ(app.state.shift_k, 5);
}

TEST(SceneInput, TrailingBytesAndNulAreRefused) {
    App app;
    const std::string with_nul("{\"d_model\": 64}\0garbage", 23);
    EXPECT_TRUE(Mentions(app.scene.Apply(with_nul), "NUL byte at offset 15"));
    EXPECT_TRUE(Mentions(app.scene.Apply("{\"d_model\": 64} x"), "not valid JSON"));
    EXPECT_EQ(app.state.d_model, 512);
    EXPECT_EQ(app.scene.Apply("{\"d_model\": 64}\n  \n"), ""); // whitespace is fine
    EXPECT_EQ(app.state.d_model, 64);
}

TEST(SceneInput, MessagesAreShortAndEscaped) {
    App app;
    const std::string huge_key(900 * 1024, 'k');
    std::string error = app.scene.Apply("{\"" + huge_key + "\": 1}");
    EXPECT_TRUE(Mentions(error, "unknown field")) << error.substr(0, 100);
    EXPECT_LT(error.size(), 300u);
    error = app.scene.Apply("{\"bad\\u001b[31m\\nkey\": 1}");
    EXPECT_EQ(error.find('\x1b'), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_TRUE(Mentions(error, "\\u001b")) << error;
    error = app.scene.Apply("{\"sentence_a\": 1, \"pos_a\": \"" + std::string(5000, 'x') + "\"}");
    EXPECT_LT(error.size(), 300u);
    // A broken key 5 000 bytes long ending in an invalid UTF-8 byte (found by fuzz_scene): the
    // parser's own message quoted all of it, raw byte included.
    error = app.scene.Apply("{\n  \"" + std::string(5000, '[') + "\xff\": 1}");
    EXPECT_TRUE(Mentions(error, "not valid JSON")) << error.substr(0, 200);
    EXPECT_TRUE(Mentions(error, "line 2, column 5004")) << error.substr(0, 200);
    EXPECT_TRUE(Mentions(error, "[[[\\xFF'; expected string literal")) << error.substr(0, 200);
    EXPECT_EQ(error.find("json.exception"), std::string::npos) << error;
    EXPECT_LT(error.size(), 300u);
    for (const char c : error)
        EXPECT_TRUE(c != '\xff' && c != '\n') << error;
}

TEST(SceneInput, OnlyBoundedRegularFilesAreRead) {
    std::string text;
    EXPECT_TRUE(Mentions(ReadInputFile("/dev/zero", kMaxInputBytes, &text), "not a regular file"));
    EXPECT_TRUE(Mentions(ReadInputFile("/", kMaxInputBytes, &text), "folder"));
    EXPECT_TRUE(
        Mentions(ReadInputFile("/nonexistent/scene.json", kMaxInputBytes, &text), "No such file"));
    App app;
    EXPECT_TRUE(Mentions(app.LoadScene("/dev/zero"), "not a regular file"));
}

TEST(SceneInput, RepeatedKeysVersionsAndWholeFloats) {
    App app;
    EXPECT_TRUE(Mentions(app.scene.Apply("{\"d_model\": 7, \"d_model\": 64}"), "appears twice"));
    EXPECT_TRUE(Mentions(app.scene.Apply("{\"version\": 2}"), "\"version\""));
    EXPECT_EQ(app.state.d_model, 512);
    // 128.0 and 1.28e2 are whole numbers: accepted; 128.5 is not; 1e9 is out of range.
    ASSERT_EQ(app.scene.Apply("{\"d_model\": 128.0, \"pair\": 1.5e1}"), "");
    EXPECT_EQ(app.state.d_model, 128);
    EXPECT_EQ(app.state.pair, 15);
    EXPECT_TRUE(Mentions(app.scene.Apply("{\"d_model\": 128.5}"), "whole number"));
    EXPECT_TRUE(Mentions(app.scene.Apply("{\"d_model\": 1e9}"), "must be in [2, 4096]"));
}

// A misspelt field is answered with the closest names and where the whole list is; a long key
// (not a typo) gets no suggestion, and the message stays short either way.
TEST(SceneInput, UnknownFieldSuggestsTheClosestNames) {
    App app;
    std::string error = app.scene.Apply(R"({"pos_aa": 3})");
    EXPECT_TRUE(Mentions(error, "unknown field \"pos_aa\" (did you mean \"pos_a\"")) << error;
    EXPECT_TRUE(Mentions(error, "docs/file-formats.md")) << error;
    EXPECT_LT(error.size(), 300u) << error;
    error = app.scene.Apply(R"({"heatmap_colors": "fitted"})");
    EXPECT_TRUE(Mentions(error, "did you mean \"heatmap_colours\"")) << error;
    error = app.scene.Apply("{\"" + std::string(200, 'p') + "\": 1}");
    EXPECT_FALSE(Mentions(error, "did you mean")) << error;
    EXPECT_LT(error.size(), 300u);
}

// The textbook distances: kitten → sitting is 3 edits, flaw → lawn 2; a name is 0 from itself.
TEST(SceneInput, EditDistanceAndClosestNames) {
    EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
    EXPECT_EQ(EditDistance("flaw", "lawn"), 2u);
    EXPECT_EQ(EditDistance("", "abc"), 3u);
    EXPECT_EQ(EditDistance("pos_a", "pos_a"), 0u);
    EXPECT_EQ(ClosestNames("bsae", {"base", "pair", "pos_a"}), "\"base\"");
    EXPECT_EQ(ClosestNames("zzzzzzzz", {"base", "pair"}), "");
    EXPECT_EQ(ClosestNames(std::string(65, 'b'), {std::string(65, 'b')}), "");
}

// A number out of range is refused with the range its doc line gives, written the same way
// ("[0, 1e6]": the stream's "1e+06" read like a typo).
TEST(SceneRanges, MessagesWriteTheRangeAsTheFieldListDoes) {
    App app;
    const std::string error = app.scene.Apply(R"({"pos_a": -5})");
    EXPECT_NE(error.find("must be in [0, 1e6] (got -5)"), std::string::npos) << error;
    EXPECT_EQ(error.find("e+"), std::string::npos) << error;
}
