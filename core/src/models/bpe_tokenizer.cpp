// bpe_tokenizer.cpp — GPT-2's byte-level BPE (pelab/models/bpe_tokenizer.h): the pre-tokenising
// scanner over code points, the byte stand-ins, the merges.
#include "pelab/models/bpe_tokenizer.h"

#include "models/unicode_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace pelab {

namespace {

using detail::DecodeUtf8;
using detail::IsLetter;
using detail::IsNumber;
using detail::IsOther;
using detail::IsSpace;

// The stand-in character of each byte (GPT-2's bytes_to_unicode): the bytes that print as
// themselves in Latin-1 ('!'…'~', '¡'…'¬', '®'…'ÿ') keep their code point, the other 68 take
// U+0100, U+0101, … in byte order.
std::vector<std::string> ByteStandIns() {
    std::vector<std::string> out(256);
    int next = 256;
    for (int b = 0; b < 256; ++b) {
        const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
        const int code = printable ? b : next++;
        std::string utf8;
        if (code < 0x80) {
            utf8 = std::string(1, static_cast<char>(code));
        } else {
            utf8 += static_cast<char>(0xC0 | (code >> 6));
            utf8 += static_cast<char>(0x80 | (code & 0x3F));
        }
        out[b] = utf8;
    }
    return out;
}

// A symbol for a message: JSON-quoted, invalid UTF-8 replaced, cut at about 80 characters.
std::string ShownSymbol(const std::string& symbol) {
    constexpr std::size_t kKept = 80;
    std::string cut = symbol.substr(0, kKept);
    // Not in the middle of a character: back to a lead byte.
    while (cut.size() < symbol.size() && !cut.empty() &&
           (static_cast<unsigned char>(symbol[cut.size()]) & 0xC0) == 0x80)
        cut.pop_back();
    return nlohmann::json(cut).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
           (cut.size() < symbol.size() ? "…" : "");
}

// vocab.json read as SAX events: one object of symbol → id and nothing nested, so that a file of
// 100 000 nested brackets is refused at its second level (a tree of it would be built, printed
// and destroyed by recursion), and no value is ever echoed whole.
class VocabReader : public nlohmann::json_sax<nlohmann::json> {
public:
    std::string error;
    std::vector<std::pair<std::string, long long>> entries;

    bool null() override { return Value("null"); }
    bool boolean(bool value) override { return Value(value ? "true" : "false"); }
    bool number_integer(number_integer_t value) override {
        return depth_ == 1 && in_object_ ? Id(value) : Value("a number");
    }
    bool number_unsigned(number_unsigned_t value) override {
        if (depth_ != 1 || !in_object_) return Value("a number");
        return Id(value > static_cast<number_unsigned_t>(LLONG_MAX)
                      ? LLONG_MAX
                      : static_cast<long long>(value));
    }
    bool number_float(number_float_t /*value*/, const string_t& text) override {
        return Value(("the number " + text.substr(0, 40)).c_str());
    }
    bool string(string_t& /*value*/) override { return Value("a text"); }
    bool binary(binary_t& /*value*/) override { return Value("binary data"); }
    bool start_object(std::size_t /*count*/) override {
        if (++depth_ == 1) return in_object_ = true;
        return Value("an object");
    }
    bool end_object() override {
        --depth_;
        return true;
    }
    bool key(string_t& value) override {
        symbol_ = value;
        return true;
    }
    bool start_array(std::size_t /*count*/) override {
        ++depth_;
        return Value("a list");
    }
    bool end_array() override {
        --depth_;
        return true;
    }
    bool parse_error(std::size_t position, const std::string& /*token*/,
                     const nlohmann::detail::exception& /*exception*/) override {
        return Fail("vocab.json is not JSON (at byte " + std::to_string(position) + ")");
    }

private:
    bool Id(long long id) {
        if (id < 0 || id >= static_cast<long long>(kMaxVocabularyEntries) * 4)
            return Fail("vocab.json: the id of " + ShownSymbol(symbol_) +
                        " must be a whole number from 0 to " +
                        std::to_string(kMaxVocabularyEntries * 4 - 1) + " (got " +
                        std::to_string(id) + ")");
        if (entries.size() >= kMaxVocabularyEntries)
            return Fail("vocab.json holds more than " + std::to_string(kMaxVocabularyEntries) +
                        " entries; at most " + std::to_string(kMaxVocabularyEntries) + " are read");
        entries.emplace_back(symbol_, id);
        return true;
    }
    bool Value(const char* what) {
        if (!in_object_)
            return Fail(std::string("vocab.json must be an object of symbol → id (GPT-2's holds "
                                    "50 257; got ") +
                        what + ")");
        return Fail("vocab.json: the id of " + ShownSymbol(symbol_) +
                    " must be a whole number from 0 (got " + what + ")");
    }
    bool Fail(std::string message) {
        if (error.empty()) error = std::move(message);
        return false;
    }

    int depth_ = 0;
    bool in_object_ = false;
    std::string symbol_;
};

} // namespace

Status SplitGpt2Pieces(const std::string& text, std::vector<std::string>* pieces) {
    std::vector<char32_t> c;
    std::vector<std::size_t> at;
    if (Status error = DecodeUtf8(text, &c, &at); !error.ok()) return error;
    const std::size_t n = c.size();
    const auto run = [&](std::size_t from, bool (*in_class)(char32_t)) {
        std::size_t end = from;
        while (end < n && in_class(c[end]))
            ++end;
        return end;
    };
    std::size_t i = 0;
    while (i < n) {
        std::size_t end = i;
        // 's 't 're 've 'm 'll 'd (case-sensitive), tried first at every position.
        if (c[i] == U'\'' && i + 1 < n) {
            const char32_t a = c[i + 1], b = i + 2 < n ? c[i + 2] : 0;
            if (a == U's' || a == U't' || a == U'm' || a == U'd')
                end = i + 2;
            else if ((a == U'r' && b == U'e') || (a == U'v' && b == U'e') ||
                     (a == U'l' && b == U'l'))
                end = i + 3;
        }
        // " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+": an optional space, then a run.
        for (bool (*in_class)(char32_t) : {IsLetter, IsNumber, IsOther}) {
            if (end != i) break;
            if (in_class(c[i]))
                end = run(i, in_class);
            else if (c[i] == U' ' && i + 1 < n && in_class(c[i + 1]))
                end = run(i + 1, in_class);
        }
        // "\s+(?!\S)|\s+": a run of white space, less its last character when something other
        // than white space follows (that character then starts the next piece, as a space
        // before a word does), unless the run is one character long.
        if (end == i && IsSpace(c[i])) {
            const std::size_t last = run(i, IsSpace);
            end = last == n || last - i == 1 ? last : last - 1;
        }
        if (end == i) end = i + 1; // unreachable: every character is in one of the classes
        pieces->push_back(text.substr(at[i], at[end] - at[i]));
        i = end;
    }
    return {};
}

Status BpeTokenizer::Load(const std::string& vocab_json, const std::string& merges_text,
                          BpeTokenizer* out) {
    if (vocab_json.size() > kMaxVocabularyBytes || merges_text.size() > kMaxVocabularyBytes)
        return std::string(vocab_json.size() > kMaxVocabularyBytes ? "vocab.json" : "merges.txt") +
               " is larger than " + std::to_string(kMaxVocabularyBytes >> 20) + " MiB";
    BpeTokenizer tokenizer;
    VocabReader reader;
    if (!nlohmann::json::sax_parse(vocab_json, &reader) || !reader.error.empty())
        return reader.error.empty() ? "vocab.json is not JSON" : reader.error;
    if (reader.entries.empty())
        return "vocab.json must be an object of symbol → id (GPT-2's holds 50 257; it holds none)";
    int largest = -1;
    for (const auto& [symbol, id] : reader.entries) {
        if (!tokenizer.id_of_.emplace(symbol, static_cast<int>(id)).second)
            return "vocab.json: the symbol " + ShownSymbol(symbol) +
                   " appears twice (which id would it be?)";
        largest = std::max(largest, static_cast<int>(id));
    }
    tokenizer.symbol_of_.assign(static_cast<std::size_t>(largest) + 1, std::string());
    for (const auto& [symbol, id] : tokenizer.id_of_) {
        std::string& slot = tokenizer.symbol_of_[static_cast<std::size_t>(id)];
        if (!slot.empty())
            return "vocab.json: id " + std::to_string(id) + " is given to two symbols";
        slot = symbol;
    }
    std::size_t line_start = 0, line_number = 0;
    int rank = 0;
    while (line_start < merges_text.size()) {
        std::size_t line_end = merges_text.find('\n', line_start);
        if (line_end == std::string::npos) line_end = merges_text.size();
        std::string line = merges_text.substr(line_start, line_end - line_start);
        line_start = line_end + 1;
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || (line_number == 1 && line.rfind("#version", 0) == 0)) continue;
        const std::size_t space = line.find(' ');
        if (space == 0 || space == std::string::npos || space + 1 == line.size() ||
            line.find(' ', space + 1) != std::string::npos)
            return "merges.txt line " + std::to_string(line_number) +
                   ": must be two symbols separated by one space (got " +
                   nlohmann::json(line.substr(0, 60))
                       .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                   ")";
        if (static_cast<std::size_t>(rank) >= kMaxVocabularyEntries)
            return "merges.txt holds more than " + std::to_string(kMaxVocabularyEntries) +
                   " merges";
        tokenizer.rank_of_.emplace(line, rank++); // a repeated pair keeps its first rank
    }
    tokenizer.stand_in_ = ByteStandIns();
    for (int b = 0; b < 256; ++b)
        tokenizer.byte_of_[tokenizer.stand_in_[b]] = static_cast<unsigned char>(b);
    *out = std::move(tokenizer);
    return {};
}

std::vector<std::string> BpeTokenizer::BytePairs(const std::string& piece) const {
    std::vector<std::string> word;
    for (unsigned char byte : piece)
        word.push_back(stand_in_[byte]);
    while (word.size() > 1) {
        // The lowest-ranked pair present; then every occurrence of it merged, left to right.
        int best = INT_MAX;
        std::size_t best_at = 0;
        for (std::size_t k = 0; k + 1 < word.size(); ++k) {
            const auto found = rank_of_.find(word[k] + " " + word[k + 1]);
            if (found != rank_of_.end() && found->second < best) best = found->second, best_at = k;
        }
        if (best == INT_MAX) break;
        const std::string left = word[best_at], right = word[best_at + 1];
        std::vector<std::string> merged;
        for (std::size_t k = 0; k < word.size(); ++k) {
            if (k + 1 < word.size() && word[k] == left && word[k + 1] == right) {
                merged.push_back(left + right);
                ++k;
            } else {
                merged.push_back(word[k]);
            }
        }
        word = std::move(merged);
    }
    return word;
}

Status BpeTokenizer::Encode(const std::string& text, std::vector<int>* ids) const {
    // The added tokens first, matched as they are written (longest first at each position);
    // the text between them through the pattern and the merges.
    std::vector<int> out = prefix_ids_;
    std::size_t from = 0, at = 0;
    while (at <= text.size()) {
        const auto added = std::find_if(added_.begin(), added_.end(), [&](const auto& token) {
            return at < text.size() && text.compare(at, token.first.size(), token.first) == 0;
        });
        if (added == added_.end() && at < text.size()) {
            ++at;
            continue;
        }
        if (Status error = EncodePieces(text.substr(from, at - from), &out); !error.ok())
            return error;
        if (added == added_.end()) break;
        out.push_back(added->second);
        at += added->first.size();
        from = at;
    }
    out.insert(out.end(), suffix_ids_.begin(), suffix_ids_.end());
    *ids = std::move(out);
    return {};
}

Status BpeTokenizer::EncodePieces(const std::string& raw, std::vector<int>* out) const {
    std::string normalized;
    if (nfc_)
        if (Status error = detail::ToNfc(raw, &normalized); !error.ok())
            return "the text is not UTF-8: " + error.message();
    const std::string& text = nfc_ ? normalized : raw;
    std::vector<std::string> pieces;
    const Status split =
        pattern_ == PiecePattern::Gpt2
            ? SplitGpt2Pieces(text, &pieces)
            : SplitLlama3Pieces(text, pattern_ == PiecePattern::Llama3 ? 3 : 1, &pieces);
    if (!split.ok()) return "the text is not UTF-8: " + split.message();
    for (const std::string& piece : pieces) {
        if (piece.size() > kMaxPieceBytes)
            return "a run of " + std::to_string(piece.size()) +
                   " bytes without a space or a change of kind (letters, digits, marks); PE Lab "
                   "merges runs of up to " +
                   std::to_string(kMaxPieceBytes) + " bytes";
        if (ignore_merges_) {
            std::string whole;
            for (unsigned char byte : piece)
                whole += stand_in_[byte];
            if (const auto found = id_of_.find(whole); found != id_of_.end()) {
                out->push_back(found->second);
                continue;
            }
        }
        for (const std::string& symbol : BytePairs(piece)) {
            const auto found = id_of_.find(symbol);
            if (found == id_of_.end())
                return "the vocabulary has no symbol " +
                       nlohmann::json(symbol).dump(-1, ' ', false,
                                                   nlohmann::json::error_handler_t::replace) +
                       " (a vocabulary and merges of different models?)";
            out->push_back(found->second);
        }
    }
    return {};
}

std::string BpeTokenizer::TokenText(int id) const {
    if (id < 0 || static_cast<std::size_t>(id) >= symbol_of_.size()) return {};
    const std::string& symbol = symbol_of_[static_cast<std::size_t>(id)];
    std::string bytes;
    // The symbol's characters (each one or two UTF-8 bytes) back to the bytes they stand for.
    for (std::size_t k = 0; k < symbol.size();) {
        const auto lead = static_cast<unsigned char>(symbol[k]);
        const std::size_t length = lead < 0x80             ? 1
                                   : (lead & 0xE0) == 0xC0 ? 2
                                   : (lead & 0xF0) == 0xE0 ? 3
                                                           : 4;
        const auto found = byte_of_.find(symbol.substr(k, length));
        if (found != byte_of_.end()) bytes += static_cast<char>(found->second);
        k += length;
    }
    return bytes;
}

std::string BpeTokenizer::Decode(const std::vector<int>& ids) const {
    std::string text;
    for (int id : ids)
        text += TokenText(id);
    return text;
}

} // namespace pelab
