// Figures reopen as scenes: the tEXt chunk writer and reader, checked against PNG's own
// constants (the CRC of "IEND" ends every PNG file: AE 42 60 82) and against damaged input.
#include "app.h"
#include "png_scene.h"
#include "tiny_png.h"

#include <gtest/gtest.h>

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
    ASSERT_EQ(ReadPngTextChunk(figure, kSceneChunkKeyword, &read), "");
    EXPECT_EQ(read, text);
    App reopened;
    ASSERT_EQ(reopened.scene.Apply(read), "");
    EXPECT_EQ(reopened.Document(false), original.Document(false));
}

TEST(PngScene, DamagedOrForeignPngsSayWhy) {
    std::string text;
    EXPECT_NE(ReadPngTextChunk(TinyPng(), kSceneChunkKeyword, &text).find("no PE Lab scene"),
              std::string::npos);
    EXPECT_NE(ReadPngTextChunk("GIF89a", kSceneChunkKeyword, &text).find("not a PNG"),
              std::string::npos);
    std::string figure = AddPngTextChunk(TinyPng(), kSceneChunkKeyword, "{\"d_model\": 64}");
    std::string damaged = figure;
    damaged[33 + 8 + 14] ^= 0x20; // a byte of the text: the CRC no longer matches
    EXPECT_NE(ReadPngTextChunk(damaged, kSceneChunkKeyword, &text).find("CRC"), std::string::npos);
    // Truncated in the middle of the chunk, and a length that points past the end.
    EXPECT_NE(ReadPngTextChunk(figure.substr(0, 50), kSceneChunkKeyword, &text), "");
    std::string huge = figure;
    huge[33] = '\x7f';
    EXPECT_NE(ReadPngTextChunk(huge, kSceneChunkKeyword, &text).find("past the end"),
              std::string::npos);
    // Another keyword is not ours.
    const std::string other = AddPngTextChunk(TinyPng(), "Comment", "{}");
    EXPECT_NE(ReadPngTextChunk(other, kSceneChunkKeyword, &text), "");
}
