// A scene as a link (io/scene_link.h): base64url against RFC 4648's own test vectors, the
// decoder's refusals, the difference from the defaults, the 8 KB limit, and a link made from
// every shipped scene read back into the same scene.
#include "io/scene_link.h"
#include "shell/app.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace pelab {
namespace {

TEST(SceneLinkBase64, MatchesTheRfcVectorsWithoutPadding) {
    // RFC 4648 §10, with the padding removed.
    const std::pair<const char*, const char*> vectors[] = {
        {"", ""},           {"f", "Zg"},          {"fo", "Zm8"},         {"foo", "Zm9v"},
        {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"}};
    for (const auto& [bytes, text] : vectors) {
        EXPECT_EQ(Base64UrlEncode(bytes), text);
        std::string back;
        ASSERT_TRUE(Base64UrlDecode(text, &back)) << text;
        EXPECT_EQ(back, bytes);
    }
}

TEST(SceneLinkBase64, UsesTheUrlAlphabet) {
    // 0xFB 0xFF 0xBF: "+/+/" in the standard alphabet.
    EXPECT_EQ(Base64UrlEncode("\xFB\xFF\xBF"), "-_-_");
}

TEST(SceneLinkBase64, RefusesWhatNoEncoderWrites) {
    std::string bytes;
    EXPECT_FALSE(Base64UrlDecode("Zg==", &bytes));  // padding
    EXPECT_FALSE(Base64UrlDecode("Zm9v+", &bytes)); // the standard alphabet's +
    EXPECT_FALSE(Base64UrlDecode("Zm9vY", &bytes)); // one character over a whole group
    EXPECT_FALSE(Base64UrlDecode("Zh", &bytes));    // "Zg" with a stray low bit
    EXPECT_FALSE(Base64UrlDecode("Zm 9v", &bytes));
}

TEST(SceneLinkBase64, RoundTripsRandomBytes) {
    std::mt19937 random(7);
    for (int trial = 0; trial < 500; ++trial) {
        std::string bytes(random() % 40, '\0');
        for (char& c : bytes)
            c = static_cast<char>(random() & 0xFF);
        std::string back;
        ASSERT_TRUE(Base64UrlDecode(Base64UrlEncode(bytes), &back));
        EXPECT_EQ(back, bytes);
    }
}

TEST(SceneLinkDifference, HoldsOnlyWhatDiffersAndNeverTheViewersOwnSettings) {
    const nlohmann::json defaults = {{"d_model", 512}, {"pos_a", 3.0}, {"base", 10000}};
    const nlohmann::json scene = {{"d_model", 64},     {"pos_a", 3.0},
                                  {"base", 10000},     {"theme", "light"},
                                  {"font_scale", 2.0}, {"format", "pelab-scene"}};
    EXPECT_EQ(SceneDifference(scene, defaults),
              (nlohmann::json{{"d_model", 64}, {"format", "pelab-scene"}}));
}

TEST(SceneLinkLimit, RefusesALinkOver8KB) {
    std::string why;
    const std::string link = SceneLink({{"teach_back_text", std::string(7000, 'x')}}, &why);
    EXPECT_TRUE(link.empty());
    EXPECT_NE(why.find("8 KB"), std::string::npos) << why;
    why.clear();
    EXPECT_EQ(SceneLink({{"d_model", 64}}, &why), "#scene=" + Base64UrlEncode(R"({"d_model":64})"));
    EXPECT_TRUE(why.empty());
}

TEST(SceneLinkRead, TellsALinkFromOtherFragmentsAndSaysWhyABadOneFails) {
    std::string text, why;
    EXPECT_FALSE(ReadSceneLink("", &text, &why));
    EXPECT_TRUE(why.empty());
    EXPECT_FALSE(ReadSceneLink("#about", &text, &why));
    EXPECT_TRUE(why.empty());
    EXPECT_FALSE(ReadSceneLink("#scene=%%%", &text, &why));
    EXPECT_NE(why.find("damaged"), std::string::npos) << why;
    EXPECT_FALSE(ReadSceneLink("#scene=" + std::string(8193, 'A'), &text, &why));
    EXPECT_NE(why.find("8 KB"), std::string::npos) << why;
    ASSERT_TRUE(ReadSceneLink("#scene=eyJkX21vZGVsIjo2NH0", &text, &why)); // Python's encoding
    EXPECT_EQ(text, R"({"d_model":64})");
}

// Every shipped scene, changed from the defaults by its file, makes a link that reads back into
// a scene equal to it: what a teacher's shared link must do.
TEST(SceneLinkRead, EveryShippedSceneRoundTripsThroughItsLink) {
    const std::filesystem::path folder =
        std::filesystem::path(pelab_test::SourceDir()) / "assets/scenes";
    int scenes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        App from;
        ASSERT_EQ(from.LoadScene(entry.path().string()), "") << entry.path();
        std::string why, text;
        const std::string link =
            SceneLink(SceneDifference(from.scene.Document(), from.defaults), &why);
        ASSERT_FALSE(link.empty()) << why;
        ASSERT_TRUE(ReadSceneLink(link, &text, &why)) << why;
        App to;
        ASSERT_EQ(to.scene.Apply(text), "") << text;
        EXPECT_EQ(to.scene.Document(), from.scene.Document()) << entry.path();
        ++scenes;
    }
    EXPECT_GE(scenes, 6);
}

} // namespace
} // namespace pelab
