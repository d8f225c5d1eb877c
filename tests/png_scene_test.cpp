// Figures reopen as scenes: the tEXt chunk writer and reader, checked against PNG's own
// constants (the CRC of "IEND" ends every PNG file: AE 42 60 82) and against damaged input.
#include "io/json_input.h"
#include "io/png_scene.h"
#include "shell/app.h"
#include "tiny_png.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace pelab;
using pelab::test::TinyPng;

TEST(PngScene, CrcMatchesThePngConstant) {
    const unsigned char iend[] = {'I', 'E', 'N', 'D'};
    EXPECT_EQ(Crc32(iend, 4), 0xAE426082ul);
}

TEST(PngScene, TextChunkRoundTripsAndCarriesAScene) {
    App original;
    original.state.d_model = 128;
    original.state.pos_b = 150;
    original.view.presented_panel = "compare";
    const std::string text = original.Document(false).dump(-1, ' ', true);
    const std::string figure = AddPngTextChunk(TinyPng(), kSceneChunkKeyword, text);
    EXPECT_TRUE(LooksLikePng(figure));
    EXPECT_EQ(figure.substr(figure.size() - 12), std::string("\0\0\0\0IEND\xae\x42\x60\x82", 12));
    std::string read;
    ASSERT_EQ(ReadPngTextChunk(figure, kSceneChunkKeyword, kMaxInputBytes, &read), "");
    EXPECT_EQ(read, text);
    App reopened;
    ASSERT_EQ(reopened.scene.Apply(read), "");
    EXPECT_EQ(reopened.Document(false), original.Document(false));
}

TEST(PngScene, DamagedOrForeignPngsSayWhy) {
    std::string text;
    EXPECT_NE(ReadPngTextChunk(TinyPng(), kSceneChunkKeyword, kMaxInputBytes, &text)
                  .find("no PE Lab scene"),
              std::string::npos);
    EXPECT_NE(
        ReadPngTextChunk("GIF89a", kSceneChunkKeyword, kMaxInputBytes, &text).find("not a PNG"),
        std::string::npos);
    std::string figure = AddPngTextChunk(TinyPng(), kSceneChunkKeyword, "{\"d_model\": 64}");
    std::string damaged = figure;
    damaged[33 + 8 + 14] ^= 0x20; // a byte of the text: the CRC no longer matches
    EXPECT_NE(ReadPngTextChunk(damaged, kSceneChunkKeyword, kMaxInputBytes, &text).find("CRC"),
              std::string::npos);
    // Truncated in the middle of the chunk, and a length that points past the end.
    EXPECT_NE(ReadPngTextChunk(figure.substr(0, 50), kSceneChunkKeyword, kMaxInputBytes, &text),
              "");
    std::string huge = figure;
    huge[33] = '\x7f';
    EXPECT_NE(
        ReadPngTextChunk(huge, kSceneChunkKeyword, kMaxInputBytes, &text).find("past the end"),
        std::string::npos);
    // Another keyword is not ours.
    const std::string other = AddPngTextChunk(TinyPng(), "Comment", "{}");
    EXPECT_NE(ReadPngTextChunk(other, kSceneChunkKeyword, kMaxInputBytes, &text), "");
}

// A figure whose scene chunk is larger than any scene is refused before its text is copied or
// parsed (a 60 MB chunk once took hours), by the reader and by every path that opens figures.
TEST(PngScene, OversizedSceneChunkIsRefusedBeforeParsing) {
    const std::string big_text = "{\"d_model\": 64" + std::string(kMaxInputBytes - 14, ' ') + "}";
    ASSERT_EQ(big_text.size(), kMaxInputBytes + 1);
    const std::string figure = AddPngTextChunk(TinyPng(), kSceneChunkKeyword, big_text);
    std::string text = "untouched";
    const std::string error = ReadPngTextChunk(figure, kSceneChunkKeyword, kMaxInputBytes, &text);
    // 1 MiB + 1 byte is said in bytes: in KiB it would read "1024 KiB … at most 1024 KiB".
    EXPECT_NE(error.find("holds 1048577 bytes of text; a scene is at most 1024 KiB"),
              std::string::npos)
        << error;
    EXPECT_EQ(text, "untouched");
    // Exactly at the limit is still a scene.
    const std::string fits = "{\"d_model\": 64" + std::string(kMaxInputBytes - 15, ' ') + "}";
    ASSERT_EQ(fits.size(), kMaxInputBytes);
    EXPECT_EQ(ReadPngTextChunk(AddPngTextChunk(TinyPng(), kSceneChunkKeyword, fits),
                               kSceneChunkKeyword, kMaxInputBytes, &text),
              "");

    const std::string path = ::testing::TempDir() + "/pelab_oversized_chunk.png";
    {
        std::FILE* file = std::fopen(path.c_str(), "wb");
        ASSERT_NE(file, nullptr);
        std::fwrite(figure.data(), 1, figure.size(), file);
        std::fclose(file);
    }
    App app;
    const nlohmann::json before = app.Document(false);
    const std::string load_error = app.scene.Load(path);
    EXPECT_NE(load_error.find("at most 1024 KiB"), std::string::npos) << load_error;
    EXPECT_EQ(app.Document(false), before);
    std::remove(path.c_str());
}
