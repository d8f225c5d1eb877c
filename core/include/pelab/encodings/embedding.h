// pelab/encodings/embedding.h — tokens and their embedding rows for the order demo.
//
// Tokeniser: split on ASCII whitespace, lower-case ASCII letters, keep every other byte as it
// is. Input must be valid UTF-8 (multi-byte characters are kept whole, never split), at most
// kMaxSentenceBytes bytes and kMaxSentenceTokens tokens, and contain at least one token.
#pragma once

#include "pelab/base/matrix.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pelab {

/// Throws InvalidArgument for invalid UTF-8, empty text, or text over the limits above.
std::vector<std::string> tokenize(std::string_view text);

/// Distinct tokens in order of first appearance: all of `first`, then the new ones of `second`.
std::vector<std::string> build_vocabulary(const std::vector<std::string>& first,
                                          const std::vector<std::string>& second);

/// One row per token: 1 in the column of its vocabulary index, 0 elsewhere (tokens × d_model).
/// Requires vocabulary.size() ≤ d_model and every token in the vocabulary.
Matrix one_hot_embeddings(const std::vector<std::string>& tokens,
                          const std::vector<std::string>& vocabulary, int d_model);

/// One row per token drawn from N(0, stddev²). A word's row depends only on (word, seed,
/// d_model), never on the sentence, the vocabulary order or the platform: the generator is
/// SplitMix64 seeded by FNV-1a of the word, and the normal transform is our own Box–Muller
/// (std::normal_distribution differs between standard libraries). stddev in (0, 100].
Matrix random_embeddings(const std::vector<std::string>& tokens, int d_model, std::uint64_t seed,
                         double stddev);

/// One row per token looked up in an explicit table (word → d_model values). Throws when a
/// token is missing or a row has the wrong length.
Matrix table_embeddings(const std::vector<std::string>& tokens,
                        const std::map<std::string, std::vector<double>>& table, int d_model);

/// Deterministic uniform and normal draws, exposed for tests and the learned-PE table.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    std::uint64_t operator()() { return next(); } ///< an Engine of pelab/base/draws.h
    double uniform(); ///< draw_unit: in (0, 1], never 0, so log() is safe
    double normal();  ///< draw_normal: Box–Muller, one value per call, no caching

private:
    std::uint64_t state_;
};

std::uint64_t fnv1a_64(std::string_view text);

} // namespace pelab
