#include "pelab/encodings/embedding.h"

#include "base/format.h"
#include "pelab/base/draws.h"
#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/sinusoidal.h"

#include <algorithm>
#include <cmath>

namespace pelab {

using detail::concat;

namespace {

bool is_ascii_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Length of the UTF-8 sequence starting at text[index], or 0 when it is not well formed
// (overlong forms, surrogates and code points above U+10FFFF are rejected too).
std::size_t utf8_sequence_length(std::string_view text, std::size_t index) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[index + k]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80) return 1;
    std::size_t length = 0;
    unsigned min_second = 0x80, max_second = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead == 0xE0)
        length = 3, min_second = 0xA0;
    else if (lead >= 0xE1 && lead <= 0xEC)
        length = 3; // NOLINT(bugprone-branch-clone): one row per row of the Unicode table
    else if (lead == 0xED)
        length = 3, max_second = 0x9F;
    else if (lead >= 0xEE && lead <= 0xEF)
        length = 3;
    else if (lead == 0xF0)
        length = 4, min_second = 0x90;
    else if (lead >= 0xF1 && lead <= 0xF3)
        length = 4;
    else if (lead == 0xF4)
        length = 4, max_second = 0x8F;
    else
        return 0;
    if (index + length > text.size()) return 0;
    if (byte(1) < min_second || byte(1) > max_second) return 0;
    for (std::size_t k = 2; k < length; ++k)
        if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
    return length;
}

} // namespace

std::vector<std::string> tokenize(std::string_view text) {
    if (text.size() > static_cast<std::size_t>(kMaxSentenceBytes))
        throw InvalidArgument(concat("sentence is too long: at most ", kMaxSentenceBytes,
                                     " bytes (got ", text.size(), ")"));
    std::vector<std::string> tokens;
    std::string current;
    for (std::size_t index = 0; index < text.size();) {
        const std::size_t length = utf8_sequence_length(text, index);
        if (length == 0)
            throw InvalidArgument(concat("sentence is not valid UTF-8 (bad byte at offset ", index,
                                         "): type or paste plain text"));
        const unsigned char c = static_cast<unsigned char>(text[index]);
        if (length == 1 && is_ascii_space(c)) {
            if (!current.empty()) tokens.push_back(std::move(current));
            current.clear();
        } else if (length == 1) {
            current.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
        } else {
            current.append(text.substr(index, length)); // multi-byte characters stay whole
        }
        index += length;
    }
    if (!current.empty()) tokens.push_back(std::move(current));
    if (tokens.empty()) throw InvalidArgument("sentence is empty: type at least one word");
    if (tokens.size() > static_cast<std::size_t>(kMaxSentenceTokens))
        throw InvalidArgument(concat("sentence has ", tokens.size(),
                                     " words; the demo allows at most ", kMaxSentenceTokens));
    return tokens;
}

std::vector<std::string> build_vocabulary(const std::vector<std::string>& first,
                                          const std::vector<std::string>& second) {
    std::vector<std::string> vocabulary;
    for (const auto* tokens : {&first, &second})
        for (const std::string& token : *tokens)
            if (std::find(vocabulary.begin(), vocabulary.end(), token) == vocabulary.end())
                vocabulary.push_back(token);
    return vocabulary;
}

Matrix one_hot_embeddings(const std::vector<std::string>& tokens,
                          const std::vector<std::string>& vocabulary, int d_model) {
    validate_d_model(d_model);
    if (vocabulary.size() > static_cast<std::size_t>(d_model))
        throw InvalidArgument(concat("one-hot embeddings need d_model >= the number of distinct "
                                     "words: ",
                                     vocabulary.size(), " words but d_model is ", d_model,
                                     "; raise d_model or use random embeddings"));
    Matrix result(static_cast<int>(tokens.size()), d_model);
    for (std::size_t row = 0; row < tokens.size(); ++row) {
        const auto found = std::find(vocabulary.begin(), vocabulary.end(), tokens[row]);
        if (found == vocabulary.end())
            throw InvalidArgument(concat("word \"", tokens[row], "\" is not in the vocabulary"));
        result.at(static_cast<int>(row), static_cast<int>(found - vocabulary.begin())) = 1.0;
    }
    return result;
}

std::uint64_t fnv1a_64(std::string_view text) {
    std::uint64_t hash = 14695981039346656037ULL;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    return hash;
}

std::uint64_t SplitMix64::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double SplitMix64::uniform() {
    return draw_unit(*this);
}

double SplitMix64::normal() {
    return draw_normal(*this);
}

Matrix random_embeddings(const std::vector<std::string>& tokens, int d_model, std::uint64_t seed,
                         double stddev) {
    validate_d_model(d_model);
    if (!std::isfinite(stddev) || stddev <= 0 || stddev > 100)
        throw InvalidArgument(concat("embedding stddev must be in (0, 100] (got ", stddev, ")"));
    Matrix result(static_cast<int>(tokens.size()), d_model);
    for (std::size_t row = 0; row < tokens.size(); ++row) {
        SplitMix64 generator(fnv1a_64(tokens[row]) ^ (seed * 0x9E3779B97F4A7C15ULL));
        for (int dim = 0; dim < d_model; ++dim)
            result.at(static_cast<int>(row), dim) = stddev * generator.normal();
    }
    return result;
}

Matrix table_embeddings(const std::vector<std::string>& tokens,
                        const std::map<std::string, std::vector<double>>& table, int d_model) {
    validate_d_model(d_model);
    Matrix result(static_cast<int>(tokens.size()), d_model);
    for (std::size_t row = 0; row < tokens.size(); ++row) {
        const auto found = table.find(tokens[row]);
        if (found == table.end())
            throw InvalidArgument(
                concat("word \"", tokens[row], "\" has no row in the embedding table"));
        if (found->second.size() != static_cast<std::size_t>(d_model))
            throw InvalidArgument(concat("embedding of \"", tokens[row], "\" has ",
                                         found->second.size(), " values; d_model is ", d_model));
        for (int dim = 0; dim < d_model; ++dim) {
            if (!std::isfinite(found->second[dim]))
                throw InvalidArgument(concat("embedding of \"", tokens[row], "\" dim ", dim,
                                             " is not a finite number"));
            result.at(static_cast<int>(row), dim) = found->second[dim];
        }
    }
    return result;
}

} // namespace pelab
