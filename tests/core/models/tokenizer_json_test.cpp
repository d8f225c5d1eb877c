// tokenizer.json (BpeTokenizer::LoadTokenizerJson) and Llama 3's / Qwen's pre-tokenizer pattern,
// each expected split worked out by hand from the pattern's alternatives in order:
// (?i:'s|'t|'re|'ve|'m|'ll|'d) | [^\r\n\p{L}\p{N}]?\p{L}+ | \p{N}{1,3} | ?[^\s\p{L}\p{N}]+[\r\n]* |
// \s*[\r\n]+ | \s+(?!\S) | \s+. tests/models/check_tokenizers.py checks real files against
// @huggingface/tokenizers.
#include "models/unicode_text.h"
#include "pelab/models/bpe_tokenizer.h"
#include "status_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pelab {
namespace {

std::vector<std::string> Pieces(const std::string& text, int digits) {
    std::vector<std::string> pieces;
    EXPECT_EQ(SplitLlama3Pieces(text, digits, &pieces), "") << text;
    return pieces;
}

using Split = std::vector<std::string>;

TEST(Llama3Pieces, FollowThePatternsAlternativesInOrder) {
    EXPECT_EQ(Pieces("Hello world, it's 12345 dogs!", 3),
              (Split{"Hello", " world", ",", " it", "'s", " ", "123", "45", " dogs", "!"}));
    // Qwen's pattern: one digit per piece.
    EXPECT_EQ(Pieces("x 2024", 1), (Split{"x", " ", "2", "0", "2", "4"}));
    // Contractions in any case; any one character but a line break or a digit before letters.
    // (" ," is punctuation's ` ?[^\s\p{L}\p{N}]+`: the letters' one-character prefix is ','
    // only when no space comes before it.)
    EXPECT_EQ(Pieces("WE'RE ,dogs\tcats x,y", 3),
              (Split{"WE", "'RE", " ,", "dogs", "\tcats", " x", ",y"}));
    // Punctuation keeps the line breaks after it; white space up to its last line break; a run
    // before a word leaves its last character to the word.
    EXPECT_EQ(Pieces("?!\n\nx  \n  y", 3), (Split{"?!\n\n", "x", "  \n", " ", " y"}));
    EXPECT_EQ(Pieces("\t dog", 3), (Split{"\t", " dog"}));
    // Numbers of any script (\p{N}): Arabic-Indic digits in threes.
    EXPECT_EQ(Pieces("\u0661\u0662\u0663\u0664", 3), (Split{"\u0661\u0662\u0663", "\u0664"}));
    std::vector<std::string> pieces;
    EXPECT_NE(SplitLlama3Pieces("\xff", 3, &pieces), "");
}

std::string Tokenizer(const std::string& pre_tokenizer, const std::string& extra = "") {
    return R"({"version": "1.0", "normalizer": null, "pre_tokenizer": )" + pre_tokenizer +
           R"(, "added_tokens": [{"id": 9, "content": "<|bos|>", "special": true}],
    "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<|bos|>"}},
        {"Sequence": {"id": "A"}}], "special_tokens": {"<|bos|>": {"id": "<|bos|>", "ids": [9]}}},
    "model": {"type": "BPE", "ignore_merges": true, "vocab": {"a": 0, "b": 1, "ab": 2, "Ġ": 3,
        "Ġa": 4, "ba": 5}, "merges": [["a", "b"], "Ġ a"]})" +
           extra + "}";
}

constexpr const char* kLlama3 =
    R"({"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex": "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"}, "behavior": "Isolated", "invert": false}, {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}]})";

TEST(TokenizerJson, ReadsMergesInBothFormsAddedTokensAndTheTemplate) {
    BpeTokenizer tokenizer;
    ASSERT_EQ(BpeTokenizer::LoadTokenizerJson(Tokenizer(kLlama3), &tokenizer), "");
    std::vector<int> ids;
    // BOS from the template; "ab" merged ([a, b] pair form); " a" merged ("Ġ a" string form);
    // "ba" is a vocabulary entry taken whole (ignore_merges); the added token matched in text.
    ASSERT_EQ(tokenizer.Encode("ab a<|bos|>ba", &ids), "");
    EXPECT_EQ(ids, (std::vector<int>{9, 2, 4, 9, 5}));
    EXPECT_EQ(tokenizer.TokenText(9), "<|bos|>");
}

// NFC (UAX #15) on cases whose answers the standard's charts give: a mark composed, two marks
// reordered by class (dot below 220 before circumflex 230) then composed, a singleton (Ångström
// sign → Å), Hangul jamo → syllable, a composition exclusion left decomposed (U+0958).
TEST(TokenizerJson, NfcComposesAsTheStandardSays) {
    const struct {
        const char* in;
        const char* nfc;
    } cases[] = {
        {"e\u0301", "\u00e9"}, {"a\u0302\u0323", "\u1ead"},      {"a\u0323\u0302", "\u1ead"},
        {"\u212b", "\u00c5"},  {"\u1100\u1161\u11a8", "\uac01"}, {"\u0958", "\u0915\u093c"},
        {"plain", "plain"}};
    for (const auto& each : cases) {
        std::string out;
        ASSERT_EQ(detail::ToNfc(each.in, &out), "") << each.in;
        EXPECT_EQ(out, each.nfc) << each.in;
    }
    std::string out;
    EXPECT_NE(detail::ToNfc("\xc3", &out), "");
}

TEST(TokenizerJson, RefusesWhatItDoesNotComputeByName) {
    BpeTokenizer tokenizer;
    const std::string other =
        std::string(kLlama3).replace(std::string(kLlama3).find("{1,3}"), 5, "{1,4}");
    EXPECT_NE(BpeTokenizer::LoadTokenizerJson(Tokenizer(other), &tokenizer)
                  .message()
                  .find("is not Llama 3's or Qwen's"),
              std::string::npos);
    std::string nfkc = Tokenizer(kLlama3);
    nfkc.replace(nfkc.find(R"("normalizer": null)"), 18, R"("normalizer": {"type": "NFKC"})");
    EXPECT_NE(BpeTokenizer::LoadTokenizerJson(nfkc, &tokenizer).message().find("normalizer NFKC"),
              std::string::npos);
    EXPECT_NE(BpeTokenizer::LoadTokenizerJson(R"({"model": {"type": "Unigram"}})", &tokenizer)
                  .message()
                  .find("model Unigram"),
              std::string::npos);
    EXPECT_NE(BpeTokenizer::LoadTokenizerJson("[1, 2", &tokenizer).message().find("not JSON (at"),
              std::string::npos);
    // What would change the ids and is not computed: each refused by its name.
    const struct {
        const char* from;
        const char* to;
        const char* says;
    } edits[] = {
        {R"("special": true})", R"("special": true, "lstrip": true})", "lstrip"},
        {R"([{"id": 9, "content": "<|bos|>", "special": true}])",
         R"([{"id": 9, "content": "<|bos|>"}, {"id": 8, "content": "<|bos|>"}])", "two added"},
        {R"({"Sequence": {"id": "A"}})", R"({"Sequence": {"id": "B"}})", "($A) once"},
        {R"("ids": [9])", R"("ids": [77])", "id 77, which is no token"},
        {R"("ignore_merges": true)", R"("ignore_merges": "yes")", "true or false"},
        {R"("use_regex": false)", R"("use_regex": true)", "use_regex"},
    };
    for (const auto& edit : edits) {
        std::string text = Tokenizer(kLlama3);
        ASSERT_NE(text.find(edit.from), std::string::npos) << edit.from;
        text.replace(text.find(edit.from), std::string(edit.from).size(), edit.to);
        const std::string message = BpeTokenizer::LoadTokenizerJson(text, &tokenizer).message();
        EXPECT_NE(message.find(edit.says), std::string::npos) << edit.says << ": " << message;
    }
}

} // namespace
} // namespace pelab
