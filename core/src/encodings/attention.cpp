#include "pelab/encodings/attention.h"

#include "base/format.h"
#include "pelab/base/error.h"
#include "pelab/encodings/embedding.h"
#include "pelab/encodings/sinusoidal.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace pelab {

using detail::concat;

namespace {

void validate_permutation(const std::vector<int>& permutation, int rows) {
    if (permutation.size() != static_cast<std::size_t>(rows))
        throw InvalidArgument(
            concat("permutation has ", permutation.size(), " entries; expected ", rows));
    std::vector<bool> seen(static_cast<std::size_t>(rows), false);
    for (int index : permutation) {
        if (index < 0 || index >= rows || seen[index])
            throw InvalidArgument("permutation must list every row index exactly once");
        seen[index] = true;
    }
}

Matrix permute_rows(const Matrix& m, const std::vector<int>& permutation) {
    Matrix result(m.rows, m.cols);
    for (int r = 0; r < m.rows; ++r)
        std::copy(m.row(permutation[r]), m.row(permutation[r]) + m.cols, result.row(r));
    return result;
}

} // namespace

void validate_positional_options(const PositionalOptions& options) {
    validate_base(options.base);
    if (!std::isfinite(options.pe_scale) || options.pe_scale < 0 || options.pe_scale > 1000)
        throw InvalidArgument(
            concat("pe_scale must be a number in [0, 1000] (got ", options.pe_scale, ")"));
}

Matrix add_positional_encoding(const Matrix& embeddings, const PositionalOptions& options) {
    validate_d_model(embeddings.cols);
    validate_positional_options(options);
    const double embedding_scale = options.scale_embeddings ? std::sqrt(embeddings.cols) : 1.0;
    Matrix x(embeddings.rows, embeddings.cols);
    for (int pos = 0; pos < embeddings.rows; ++pos) {
        const std::vector<double> pe =
            options.pe_enabled
                ? pe_vector_double(pos, embeddings.cols, options.base)
                : std::vector<double>(static_cast<std::size_t>(embeddings.cols), 0.0);
        for (int dim = 0; dim < embeddings.cols; ++dim)
            x.at(pos, dim) = embeddings.at(pos, dim) * embedding_scale + options.pe_scale * pe[dim];
    }
    return x;
}

Matrix attention_scores(const Matrix& x, const Matrix* w_query, const Matrix* w_key) {
    const auto project = [&](const Matrix* w) {
        if (w == nullptr) return x;
        if (w->rows != x.cols || w->cols != x.cols)
            throw InvalidArgument(concat("projection matrix must be ", x.cols, " x ", x.cols,
                                         " (got ", w->rows, " x ", w->cols, ")"));
        Matrix result(x.rows, x.cols);
        for (int r = 0; r < x.rows; ++r)
            for (int k = 0; k < x.cols; ++k)
                for (int c = 0; c < x.cols; ++c)
                    result.at(r, c) += x.at(r, k) * w->at(k, c);
        return result;
    };
    const Matrix queries = project(w_query);
    const Matrix keys = project(w_key);
    Matrix scores(x.rows, x.rows);
    for (int i = 0; i < x.rows; ++i)
        for (int j = 0; j < x.rows; ++j) {
            double sum = 0;
            for (int k = 0; k < x.cols; ++k)
                sum += queries.at(i, k) * keys.at(j, k);
            scores.at(i, j) = sum;
        }
    return scores;
}

Matrix softmax_rows(const Matrix& scores, double scale) {
    if (!std::isfinite(scale))
        throw InvalidArgument(concat("softmax scale must be finite (got ", scale, ")"));
    Matrix weights(scores.rows, scores.cols);
    for (int r = 0; r < scores.rows; ++r) {
        double row_max = -INFINITY;
        for (int c = 0; c < scores.cols; ++c)
            row_max = std::max(row_max, scores.at(r, c) * scale);
        double total = 0;
        for (int c = 0; c < scores.cols; ++c) {
            weights.at(r, c) = std::exp(scores.at(r, c) * scale - row_max);
            total += weights.at(r, c);
        }
        for (int c = 0; c < scores.cols; ++c)
            weights.at(r, c) /= total;
    }
    return weights;
}

Matrix self_attention(const Matrix& x) {
    const Matrix weights = softmax_rows(attention_scores(x), 1.0 / std::sqrt(x.cols));
    Matrix output(x.rows, x.cols);
    for (int i = 0; i < x.rows; ++i)
        for (int j = 0; j < x.rows; ++j)
            for (int c = 0; c < x.cols; ++c)
                output.at(i, c) += weights.at(i, j) * x.at(j, c);
    return output;
}

namespace {

// The largest |S_B[j][k] − S_A[π(j)][π(k)]| under the matching π, and where it is.
ReorderVerdict score_matching(const Matrix& scores_a, const Matrix& scores_b,
                              const std::vector<int>& mapping, double* largest_score) {
    ReorderVerdict verdict;
    verdict.mapping = mapping;
    const int n = static_cast<int>(mapping.size());
    for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k) {
            const int ja = mapping[j], ka = mapping[k];
            const double diff = std::fabs(scores_b.at(j, k) - scores_a.at(ja, ka));
            if (largest_score != nullptr)
                *largest_score = std::max(
                    {*largest_score, std::fabs(scores_b.at(j, k)), std::fabs(scores_a.at(ja, ka))});
            if (diff > verdict.max_difference || verdict.row_b < 0) {
                verdict.max_difference = diff;
                verdict.row_b = j, verdict.col_b = k, verdict.row_a = ja, verdict.col_a = ka;
            }
        }
    return verdict;
}

// One word's occurrences: where it stands in B, and the A positions they are matched with.
struct WordGroup {
    std::vector<int> in_b, in_a;
};

void apply_groups(const std::vector<WordGroup>& groups, std::vector<int>* mapping) {
    for (const WordGroup& group : groups)
        for (std::size_t t = 0; t < group.in_b.size(); ++t)
            (*mapping)[group.in_b[t]] = group.in_a[t];
}

} // namespace

ReorderVerdict compare_orderings(const std::vector<std::string>& tokens_a,
                                 const std::vector<std::string>& tokens_b, const Matrix& scores_a,
                                 const Matrix& scores_b) {
    const int n_a = static_cast<int>(tokens_a.size()), n_b = static_cast<int>(tokens_b.size());
    if (scores_a.rows != n_a || scores_a.cols != n_a || scores_b.rows != n_b ||
        scores_b.cols != n_b)
        throw InvalidArgument("score matrices must be tokens x tokens for their sentences");
    if (n_a != n_b) return ReorderVerdict{};
    // Group each word's occurrences in both sentences; the multisets must agree.
    std::map<std::string, WordGroup> by_word;
    for (int i = 0; i < n_a; ++i)
        by_word[tokens_a[i]].in_a.push_back(i);
    for (int j = 0; j < n_b; ++j)
        by_word[tokens_b[j]].in_b.push_back(j);
    std::vector<WordGroup> groups;
    double matchings = 1;
    for (auto& [word, group] : by_word) {
        if (group.in_a.size() != group.in_b.size()) return ReorderVerdict{};
        for (std::size_t t = 2; t <= group.in_a.size(); ++t)
            matchings *= static_cast<double>(t);
        if (group.in_a.size() > 1) groups.push_back(group);
    }
    std::vector<int> mapping(static_cast<std::size_t>(n_b));
    for (const auto& [word, group] : by_word) // in order: the k-th "a" of B ↔ the k-th of A
        for (std::size_t t = 0; t < group.in_b.size(); ++t)
            mapping[group.in_b[t]] = group.in_a[t];
    // A repeated word can be matched with any of its occurrences: with PE, the k-th "a" of B
    // need not correspond to the k-th "a" of A. The verdict uses the matching with the smallest
    // largest difference: every matching when there are few (exact), else a descent by swaps
    // from the in-order matching (a local optimum, said so in matching_exact).
    ReorderVerdict best = score_matching(scores_a, scores_b, mapping, nullptr);
    bool exact = true;
    if (matchings <= kMaxExactMatchings) {
        // Odometer over the permutations of each group's A positions (each starts sorted).
        for (;;) {
            std::size_t g = 0;
            while (g < groups.size() &&
                   !std::next_permutation(groups[g].in_a.begin(), groups[g].in_a.end()))
                ++g;
            if (g == groups.size()) break;
            apply_groups(groups, &mapping);
            ReorderVerdict candidate = score_matching(scores_a, scores_b, mapping, nullptr);
            if (candidate.max_difference < best.max_difference) best = std::move(candidate);
        }
    } else {
        exact = false;
        for (bool improved = true; improved;) {
            improved = false;
            for (WordGroup& group : groups)
                for (std::size_t s = 0; s < group.in_a.size(); ++s)
                    for (std::size_t t = s + 1; t < group.in_a.size(); ++t) {
                        std::vector<int> swapped = best.mapping;
                        std::swap(swapped[group.in_b[s]], swapped[group.in_b[t]]);
                        ReorderVerdict candidate =
                            score_matching(scores_a, scores_b, swapped, nullptr);
                        if (candidate.max_difference < best.max_difference) {
                            best = std::move(candidate);
                            improved = true;
                        }
                    }
        }
    }
    double largest_score = 0;
    ReorderVerdict verdict = score_matching(scores_a, scores_b, best.mapping, &largest_score);
    verdict.same_multiset = true;
    verdict.matching_exact = exact;
    verdict.matchings = matchings;
    verdict.same_up_to_reordering = verdict.max_difference <= 1e-12 * std::max(1.0, largest_score);
    return verdict;
}

Matrix reordered_difference(const Matrix& scores_a, const Matrix& scores_b,
                            const std::vector<int>& mapping) {
    const int n = scores_a.rows;
    if (scores_a.cols != n || scores_b.rows != n || scores_b.cols != n)
        throw InvalidArgument("reordered_difference needs two square score matrices of one size");
    validate_permutation(mapping, n);
    Matrix difference(n, n);
    for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
            difference.at(mapping[j], mapping[k]) =
                scores_b.at(j, k) - scores_a.at(mapping[j], mapping[k]);
    return difference;
}

double equivariance_residual(const Matrix& embeddings, const std::vector<int>& permutation,
                             const PositionalOptions& options) {
    validate_permutation(permutation, embeddings.rows);
    const Matrix original = self_attention(add_positional_encoding(embeddings, options));
    const Matrix permuted =
        self_attention(add_positional_encoding(permute_rows(embeddings, permutation), options));
    const Matrix expected = permute_rows(original, permutation);
    double sum = 0;
    for (std::size_t k = 0; k < permuted.values.size(); ++k) {
        const double diff = permuted.values[k] - expected.values[k];
        sum += diff * diff;
    }
    return std::sqrt(sum);
}

OrderDemoResult run_order_demo(const std::string& sentence_a, const std::string& sentence_b,
                               const OrderDemoOptions& options) {
    validate_d_model(options.d_model);
    validate_positional_options(options.positional);
    OrderDemoResult result;
    result.tokens_a = tokenize(sentence_a);
    result.tokens_b = tokenize(sentence_b);
    result.vocabulary = build_vocabulary(result.tokens_a, result.tokens_b);
    const auto embed = [&](const std::vector<std::string>& tokens) {
        return options.embedding == EmbeddingKind::OneHot
                   ? one_hot_embeddings(tokens, result.vocabulary, options.d_model)
                   : random_embeddings(tokens, options.d_model, options.seed,
                                       options.random_stddev);
    };
    const Matrix embeddings_a = embed(result.tokens_a);
    const Matrix embeddings_b = embed(result.tokens_b);
    result.x_a = add_positional_encoding(embeddings_a, options.positional);
    result.x_b = add_positional_encoding(embeddings_b, options.positional);
    result.scores_a = attention_scores(result.x_a);
    result.scores_b = attention_scores(result.x_b);
    const double scale = 1.0 / std::sqrt(static_cast<double>(options.d_model));
    result.weights_a = softmax_rows(result.scores_a, scale);
    result.weights_b = softmax_rows(result.scores_b, scale);
    result.verdict =
        compare_orderings(result.tokens_a, result.tokens_b, result.scores_a, result.scores_b);
    if (result.verdict.same_multiset) {
        result.equivariance_permutation = result.verdict.mapping;
    } else {
        const int n = static_cast<int>(result.tokens_a.size());
        for (int j = 0; j < n; ++j)
            result.equivariance_permutation.push_back(n - 1 - j);
    }
    result.equivariance =
        equivariance_residual(embeddings_a, result.equivariance_permutation, options.positional);
    return result;
}

} // namespace pelab
