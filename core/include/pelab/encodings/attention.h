// pelab/encodings/attention.h — single-head self-attention scores, with and without positional
// encoding.
//
//   X      = E · (√d if scale_embeddings) + pe_scale · PE(pos)     (PE rows only if pe_enabled)
//   scores = (X W_Q)(X W_K)ᵀ                                        (W_Q = W_K = I by default)
//   weights= row-wise softmax(scores / √d)
//   Attn(X)= weights · X                                            (W_V = I)
//
// Without PE the scores of a re-ordered sentence are the scores of the original, re-ordered:
// S_B = P S_A Pᵀ exactly, and Attn(PX) = P Attn(X). With PE that symmetry breaks, which is
// how a transformer can tell "dog bites man" from "man bites dog".
#pragma once

#include "pelab/base/matrix.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pelab {

struct PositionalOptions {
    bool pe_enabled = true;
    double pe_scale = 1.0;         ///< finite, in [0, 1000]
    bool scale_embeddings = false; ///< multiply E by √d_model first (as the paper does)
    double base = 10000.0;
};

/// Throws InvalidArgument unless base is valid and pe_scale is finite and in [0, 1000].
void validate_positional_options(const PositionalOptions& options);

/// X = E·(√d?) + pe_scale·PE(row index). E.cols must be an even d_model.
Matrix add_positional_encoding(const Matrix& embeddings, const PositionalOptions& options);

/// (X W_Q)(X W_K)ᵀ. Pass nullptr for an identity projection; a given W must be d × d.
Matrix attention_scores(const Matrix& x, const Matrix* w_query = nullptr,
                        const Matrix* w_key = nullptr);

/// Row-wise softmax of scores·scale, stabilised by subtracting each row's maximum.
Matrix softmax_rows(const Matrix& scores, double scale);

/// softmax(X Xᵀ / √d) · X.
Matrix self_attention(const Matrix& x);

/// How sentence B's score matrix relates to sentence A's.
struct ReorderVerdict {
    /// Both sentences hold the same words the same number of times.
    bool same_multiset = false;
    /// same_multiset and S_B = P S_A Pᵀ to within 1e-12 relative: the model cannot tell the
    /// two orders apart.
    bool same_up_to_reordering = false;
    /// min over matchings π of max |S_B[j][k] − S_A[π(j)][π(k)]| (0 when not a re-ordering:
    /// there is no π). A matching pairs each word of B with an occurrence of the same word in
    /// A; with repeated words there are several, and only the best one says whether the model
    /// can tell the orders apart.
    double max_difference = 0;
    int row_b = -1, col_b = -1; ///< where in B the largest difference is
    int row_a = -1, col_a = -1; ///< the matching cell of A
    /// π: B's token j is A's token mapping[j], the matching that gives max_difference.
    std::vector<int> mapping;
    /// True when every matching was tried (at most kMaxExactMatchings of them); false when
    /// max_difference is a local minimum, reached by swapping equal words from the in-order
    /// matching until no swap lowers it.
    bool matching_exact = true;
    double matchings = 1; ///< how many matchings exist: the product of (count of each word)!
};

/// Up to this many matchings (7! = 5040: seven copies of one word), compare_orderings tries
/// them all: each costs one pass over the n × n scores.
constexpr double kMaxExactMatchings = 5040;

ReorderVerdict compare_orderings(const std::vector<std::string>& tokens_a,
                                 const std::vector<std::string>& tokens_b, const Matrix& scores_a,
                                 const Matrix& scores_b);

/// B's scores put back into A's word order, minus A's: D[π(j)][π(k)] = S_B[j][k] − S_A[π(j)][π(k)]
/// (rows and columns in A's order; π = verdict.mapping). All zero, up to rounding, exactly when
/// the model cannot tell the two orders apart. Throws InvalidArgument unless mapping is a
/// permutation of the rows of two square matrices of the same size.
Matrix reordered_difference(const Matrix& scores_a, const Matrix& scores_b,
                            const std::vector<int>& mapping);

/// ‖Attn(P·E + PE) − P·Attn(E + PE)‖_F for the permutation `permutation` (row j of the
/// permuted input is row permutation[j] of E). 0 up to rounding without PE; > 0 with it.
double equivariance_residual(const Matrix& embeddings, const std::vector<int>& permutation,
                             const PositionalOptions& options);

enum class EmbeddingKind { OneHot, Random };

struct OrderDemoOptions {
    int d_model = 16;
    EmbeddingKind embedding = EmbeddingKind::OneHot;
    std::uint64_t seed = 42;
    double random_stddev = 1.0;
    PositionalOptions positional;
};

/// Everything the order demo and `pelab export attention` show, computed in one call.
struct OrderDemoResult {
    std::vector<std::string> tokens_a, tokens_b, vocabulary;
    Matrix x_a, x_b;
    Matrix scores_a, scores_b;   ///< raw QKᵀ
    Matrix weights_a, weights_b; ///< softmax(QKᵀ / √d)
    ReorderVerdict verdict;
    /// Equivariance residual for sentence A under the permutation π that makes B (or the
    /// reversal of A when B is not a re-ordering of A).
    double equivariance = 0;
    std::vector<int> equivariance_permutation;
};

/// Throws InvalidArgument for bad sentences (see tokenize), a vocabulary larger than d_model
/// with one-hot embeddings, or options out of range.
OrderDemoResult run_order_demo(const std::string& sentence_a, const std::string& sentence_b,
                               const OrderDemoOptions& options);

} // namespace pelab
