// GPT-2's tokenizer (pelab/models/bpe_tokenizer.h): the pieces the pattern cuts, read off the
// pattern by hand, and every malformed file one message. The ids of the real vocabulary are checked
// against two other encoders in tests/tokenizer/check_gpt2_bpe.py.
#include "pelab/models/bpe_tokenizer.h"
#include "status_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pelab {
namespace {

std::vector<std::string> Pieces(const std::string& text) {
    std::vector<std::string> pieces;
    EXPECT_EQ(SplitGpt2Pieces(text, &pieces), "") << text;
    return pieces;
}

using Cut = std::vector<std::string>;

TEST(Gpt2Pieces, FollowThePatternsAlternativesInOrder) {
    EXPECT_EQ(Pieces("Hello world"), (Cut{"Hello", " world"}));
    // A run of spaces gives its last space to the next word; at the end it stays whole.
    EXPECT_EQ(Pieces("Hello   world  "), (Cut{"Hello", "  ", " world", "  "}));
    // One space before punctuation joins it; a lone space before a line break is its own run.
    EXPECT_EQ(Pieces("a !? b"), (Cut{"a", " !?", " b"}));
    EXPECT_EQ(Pieces("a \nb"), (Cut{"a", " ", "\n", "b"}));
    // Contractions, lower case only, before letters; "n't" is not one.
    EXPECT_EQ(Pieces("don't I'LL we'll"), (Cut{"don", "'t", " I", "'", "LL", " we", "'ll"}));
    EXPECT_EQ(Pieces("'sup"), (Cut{"'s", "up"}));
    // Letters, numbers and the rest in separate runs; a space joins only the run after it.
    EXPECT_EQ(Pieces("abc123def 45"), (Cut{"abc", "123", "def", " 45"}));
    EXPECT_EQ(Pieces("x²½Ⅻ"), (Cut{"x", "²½Ⅻ"}));
    EXPECT_EQ(Pieces("café naïve"), (Cut{"café", " naïve"}));
    // "<|endoftext|>" is plain text; U+0085 is white space, U+FEFF is not.
    EXPECT_EQ(Pieces("<|endoftext|>"), (Cut{"<|", "endoftext", "|>"}));
    EXPECT_EQ(Pieces("a\u0085b"), (Cut{"a", "\u0085", "b"}));
    EXPECT_EQ(Pieces("x \ufeff!"), (Cut{"x", " \ufeff!"}));
    EXPECT_EQ(Pieces(""), Cut{});
    // Not UTF-8: one message with the byte.
    std::vector<std::string> pieces;
    for (const char* bad : {"\xff", "a\xc3", "\xc3\x28", "\xe0\x80\x80", "\xed\xa0\x80"})
        EXPECT_NE(SplitGpt2Pieces(bad, &pieces), "") << bad;
}

TEST(BpeTokenizerFiles, EncodeWithATinyVocabularyAndRefuseMalformedFiles) {
    // Bytes 'a' and 'b' merge to "ab", then "ab" + 'c'; " " stands in as "Ġ" (U+0120).
    const std::string vocab = R"({"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4, "Ġ": 5, "Ġa": 6})";
    const std::string merges = "#version: 0.2\na b\nab c\nĠ a\n";
    BpeTokenizer tokenizer;
    ASSERT_EQ(BpeTokenizer::Load(vocab, merges, &tokenizer), "");
    std::vector<int> ids;
    ASSERT_EQ(tokenizer.Encode("abc ab ca", &ids), "");
    EXPECT_EQ(ids, (std::vector<int>{4, 5, 3, 5, 2, 0})); // "abc", " ab" → Ġ + ab, " ca" → Ġ c a
    EXPECT_EQ(tokenizer.Decode(ids), "abc ab ca");
    EXPECT_EQ(tokenizer.TokenText(6), " a");
    EXPECT_EQ(tokenizer.TokenText(99), "");
    EXPECT_NE(tokenizer.Encode("abd", &ids).message().find("no symbol"), std::string::npos);
    // A run longer than kMaxPieceBytes is refused (merging it would take time growing with its
    // square); one at the limit is merged.
    EXPECT_EQ(tokenizer.Encode(std::string(kMaxPieceBytes, 'a'), &ids), "");
    EXPECT_NE(tokenizer.Encode(std::string(kMaxPieceBytes + 1, 'a'), &ids)
                  .message()
                  .find("runs of up to"),
              std::string::npos);
    const struct {
        std::string vocab, merges, says;
    } bad[] = {{"[1, 2]", "", "vocab.json must be an object"},
               {"{", "", "vocab.json is not JSON"},
               {R"({"a": -1})", "", "must be a whole number"},
               {R"({"a": 1, "b": 1})", "", "given to two symbols"},
               {R"({"a": 0})", "a b c\n", "merges.txt line 1"},
               {R"({"a": 0})", "#version: 0.2\nab\n", "merges.txt line 2"},
               {R"({"a": 0})", "a  b\n", "merges.txt line 1"},
               {R"({"a": 1.5})", "", "must be a whole number"},
               {R"({"a": "1"})", "", "got a text"},
               {"{}", "", "it holds none"},
               {"7", "", "vocab.json must be an object"},
               {R"({"a": 0, "b": 1, "a": 2})", "", "appears twice"}};
    for (const auto& each : bad) {
        const std::string error = BpeTokenizer::Load(each.vocab, each.merges, &tokenizer).message();
        EXPECT_NE(error.find(each.says), std::string::npos) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
}

// Reliability round 5: a vocab.json of 100 000 nested brackets (140 KB) crashed the process
// (the tree's recursion); it is refused at its second level, and no message quotes more than
// about 80 characters of what the file holds.
TEST(BpeTokenizer, DeepOrHugeVocabularyValuesAreRefusedShortly) {
    BpeTokenizer tokenizer;
    const std::string deep_list =
        "{\"a\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    const std::string deep_object = [] {
        std::string text;
        for (int i = 0; i < 100000; ++i)
            text += "{\"x\":";
        return text + "1" + std::string(100000, '}');
    }();
    const std::string long_symbol = "{\"" + std::string(100000, 'q') + "\": {}}";
    for (const std::string& vocab : {deep_list, deep_object, long_symbol}) {
        const std::string error = BpeTokenizer::Load(vocab, "", &tokenizer).message();
        EXPECT_NE(error.find("vocab.json"), std::string::npos) << error.substr(0, 200);
        EXPECT_LT(error.size(), 300u) << error.substr(0, 200);
        EXPECT_EQ(error.find('\n'), std::string::npos);
    }
}

} // namespace
} // namespace pelab
