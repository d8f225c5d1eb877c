// The order demo (the Order panel, docs/panels.md): tokens, embeddings, scores, verdict,
// equivariance.
#include "pelab/encodings/attention.h"
#include "pelab/encodings/embedding.h"
#include "pelab/base/error.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace pelab;

TEST(Tokenizer, SplitsOnWhitespaceAndLowerCases) {
    const std::vector<std::string> expected = {"dog", "bites", "man"};
    EXPECT_EQ(tokenize("  Dog \tBITES\nman  "), expected);
}

TEST(Tokenizer, KeepsMultiByteCharactersWhole) {
    const std::vector<std::string> expected = {"café", "ωπ", "naïve"};
    EXPECT_EQ(tokenize("Café ωπ naïve"), expected);
}

TEST(Tokenizer, RejectsInvalidUtf8WithClearMessage) {
    for (const char* bad :
         {"dog \xff", "\xc0\xaf", "abc\xe2\x82", "\xed\xa0\x80", "\xf5\x80\x80\x80"}) {
        try {
            tokenize(bad);
            ADD_FAILURE() << "accepted invalid UTF-8";
        } catch (const InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
        }
    }
}

TEST(Tokenizer, RejectsEmptyAndOverlongSentences) {
    EXPECT_THROW(tokenize(""), InvalidArgument);
    EXPECT_THROW(tokenize("   \t "), InvalidArgument);
    std::string many;
    for (int k = 0; k < 33; ++k)
        many += "w ";
    EXPECT_THROW(tokenize(many), InvalidArgument);
    EXPECT_THROW(tokenize(std::string(2000, 'a')), InvalidArgument);
    EXPECT_NO_THROW(tokenize(many.substr(0, 64))); // exactly 32 words is allowed
}

TEST(Embedding, VocabularyInOrderOfFirstAppearance) {
    const std::vector<std::string> expected = {"the", "dog", "saw", "a", "cat"};
    EXPECT_EQ(build_vocabulary(tokenize("the dog saw the"), tokenize("a cat saw dog")), expected);
}

TEST(Embedding, OneHotRowsHaveASingleOne) {
    const auto tokens = tokenize("dog bites man dog");
    const Matrix e = one_hot_embeddings(tokens, build_vocabulary(tokens, {}), 8);
    ASSERT_EQ(e.rows, 4);
    ASSERT_EQ(e.cols, 8);
    EXPECT_EQ(e.at(0, 0), 1.0);
    EXPECT_EQ(e.at(1, 1), 1.0);
    EXPECT_EQ(e.at(2, 2), 1.0);
    EXPECT_EQ(e.at(3, 0), 1.0);
    double total = 0;
    for (double v : e.values)
        total += v;
    EXPECT_EQ(total, 4.0);
}

TEST(Embedding, OneHotNeedsEnoughDimensions) {
    const auto tokens = tokenize("a b c d e");
    try {
        one_hot_embeddings(tokens, build_vocabulary(tokens, {}), 4);
        ADD_FAILURE() << "5 words fit in d_model 4?";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("d_model"), std::string::npos);
    }
}

// Published SplitMix64 outputs for seed 1234567 and the FNV-1a value of "a", reproduced by an
// independent Python implementation: the generator is the same on every platform.
TEST(Embedding, GeneratorsMatchPublishedValues) {
    SplitMix64 g(1234567);
    EXPECT_EQ(g.next(), 6457827717110365317ULL);
    EXPECT_EQ(g.next(), 3203168211198807973ULL);
    EXPECT_EQ(g.next(), 9817491932198370423ULL);
    EXPECT_EQ(fnv1a_64("a"), 0xaf63dc4c8601ec8cULL);
    EXPECT_EQ(fnv1a_64(""), 14695981039346656037ULL);
}

TEST(Embedding, NormalDrawsHaveUnitVariance) {
    SplitMix64 g(7);
    double sum = 0, sum2 = 0;
    const int n = 200000;
    for (int k = 0; k < n; ++k) {
        const double x = g.normal();
        sum += x;
        sum2 += x * x;
    }
    EXPECT_NEAR(sum / n, 0.0, 0.01);
    EXPECT_NEAR(sum2 / n, 1.0, 0.01);
}

TEST(Embedding, RandomRowDependsOnlyOnWordAndSeed) {
    const Matrix a = random_embeddings(tokenize("dog bites man"), 16, 42, 1.0);
    const Matrix b = random_embeddings(tokenize("man bites dog"), 16, 42, 1.0);
    const Matrix c = random_embeddings(tokenize("dog"), 16, 43, 1.0);
    for (int dim = 0; dim < 16; ++dim) {
        EXPECT_EQ(a.at(0, dim), b.at(2, dim));
        EXPECT_EQ(a.at(1, dim), b.at(1, dim));
    }
    EXPECT_NE(a.at(0, 0), c.at(0, 0));
}

TEST(Embedding, TableLookupAndItsErrors) {
    const std::map<std::string, std::vector<double>> table = {{"the", {0.2, 0.5, -0.1, 0.8}},
                                                              {"cat", {0.7, -0.3, 0.6, 0.1}}};
    const Matrix e = table_embeddings(tokenize("The cat"), table, 4);
    EXPECT_EQ(e.at(1, 2), 0.6);
    EXPECT_THROW(table_embeddings(tokenize("dog"), table, 4), InvalidArgument);
    EXPECT_THROW(table_embeddings(tokenize("cat"), table, 6), InvalidArgument);
}

// The published worked example: X_final = token embedding + PE for "The cat sat" at d_model 4.
TEST(Attention, WorkedExampleXFinalMatchesDocument002) {
    const std::map<std::string, std::vector<double>> table = {{"the", {0.2, 0.5, -0.1, 0.8}},
                                                              {"cat", {0.7, -0.3, 0.6, 0.1}},
                                                              {"sat", {-0.4, 0.9, 0.2, -0.5}}};
    PositionalOptions options;
    const Matrix x =
        add_positional_encoding(table_embeddings(tokenize("The cat sat"), table, 4), options);
    // Correctly rounded (the published example truncates 1.0999… to 1.099 and 0.4999… to 0.499).
    const double expected[3][4] = {
        {0.200, 1.500, -0.100, 1.800}, {1.541, 0.240, 0.610, 1.100}, {0.509, 0.484, 0.220, 0.500}};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            EXPECT_NEAR(x.at(r, c), expected[r][c], 0.0005) << r << "," << c;
}

TEST(Attention, WithoutPeScoresAreIdentityForDistinctOneHotWords) {
    OrderDemoOptions options;
    options.positional.pe_enabled = false;
    const OrderDemoResult r = run_order_demo("dog bites man", "man bites dog", options);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            EXPECT_EQ(r.scores_a.at(i, j), i == j ? 1.0 : 0.0); // the published QKᵀ matrices
            EXPECT_EQ(r.scores_b.at(i, j), i == j ? 1.0 : 0.0);
        }
    EXPECT_TRUE(r.verdict.same_multiset);
    EXPECT_TRUE(r.verdict.same_up_to_reordering);
    EXPECT_EQ(r.verdict.max_difference, 0.0);
    EXPECT_LT(r.equivariance, 1e-12);
}

TEST(Attention, WithPeScoresMatchIndependentComputationAndDiffer) {
    OrderDemoOptions options; // one-hot, d = 16, PE on, scale 1
    const OrderDemoResult r = run_order_demo("dog bites man", "man bites dog", options);
    // S[i][j] = (e_i + PE(i))·(e_j + PE(j)) with one-hot e: word w sits in dim index(w).
    const auto expected = [](int i, int wi, int j, int wj) {
        long double s =
            (wi == wj) + reference::pe(i, wj, 16, 10000) + reference::pe(j, wi, 16, 10000);
        for (int dim = 0; dim < 16; ++dim)
            s += reference::pe(i, dim, 16, 10000) * reference::pe(j, dim, 16, 10000);
        return static_cast<double>(s);
    };
    // vocabulary: dog = 0, bites = 1, man = 2. A = dog bites man; B = man bites dog.
    const int words_a[] = {0, 1, 2}, words_b[] = {2, 1, 0};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            EXPECT_NEAR(r.scores_a.at(i, j), expected(i, words_a[i], j, words_a[j]), 1e-12);
            EXPECT_NEAR(r.scores_b.at(i, j), expected(i, words_b[i], j, words_b[j]), 1e-12);
        }
    // "bites" → first word differs between the sentences (the published Q&A's point).
    EXPECT_GT(std::fabs(r.scores_a.at(1, 0) - r.scores_b.at(1, 0)), 0.1);
    EXPECT_TRUE(r.verdict.same_multiset);
    EXPECT_FALSE(r.verdict.same_up_to_reordering);
    EXPECT_GT(r.verdict.max_difference, 0.1);
    EXPECT_GT(r.equivariance, 1e-3);
}

// "B re-ordered into A's order, minus A", computed here from the reference PE: with PE, "dog"
// at position 2 of B against "dog" at position 0 of A differs by 2·PE(2)[dog] + |PE(2)|² −
// 2·PE(0)[dog] − |PE(0)|² (10.82 vs 9.00); without PE the whole matrix is 0.
TEST(Attention, ReorderedDifferenceIsZeroWithoutPeAndMatchesReferenceWithIt) {
    OrderDemoOptions options; // one-hot, d = 16, PE on
    OrderDemoResult r = run_order_demo("dog bites man", "man bites dog", options);
    Matrix d = reordered_difference(r.scores_a, r.scores_b, r.verdict.mapping);
    ASSERT_EQ(d.rows, 3);
    const auto self_score = [](int pos, int word) {
        long double s = 1 + 2 * reference::pe(pos, word, 16, 10000);
        for (int dim = 0; dim < 16; ++dim)
            s += reference::pe(pos, dim, 16, 10000) * reference::pe(pos, dim, 16, 10000);
        return static_cast<double>(s);
    };
    // dog: word 0, at position 0 in A and 2 in B.
    EXPECT_NEAR(d.at(0, 0), self_score(2, 0) - self_score(0, 0), 1e-12);
    EXPECT_NEAR(self_score(0, 0), 9.00, 0.005);
    EXPECT_NEAR(self_score(2, 0), 10.82, 0.005);
    // bites sits at position 1 in both: its own cell does not change.
    EXPECT_NEAR(d.at(1, 1), 0.0, 1e-12);
    double largest = 0;
    for (double v : d.values)
        largest = std::max(largest, std::fabs(v));
    EXPECT_NEAR(largest, r.verdict.max_difference, 1e-12);

    options.positional.pe_enabled = false;
    r = run_order_demo("dog bites man", "man bites dog", options);
    d = reordered_difference(r.scores_a, r.scores_b, r.verdict.mapping);
    for (double v : d.values)
        EXPECT_EQ(v, 0.0);
    EXPECT_THROW(reordered_difference(r.scores_a, r.scores_b, {0, 0, 1}), InvalidArgument);
    EXPECT_THROW(reordered_difference(r.scores_a, Matrix(2, 2), {0, 1, 2}), InvalidArgument);
}

TEST(Attention, SoftmaxRowsSumToOneAndSurviveHugeScores) {
    Matrix s(2, 3);
    s.values = {1000, 1001, 999, -5, 0, 5};
    const Matrix w = softmax_rows(s, 1.0);
    for (int r = 0; r < 2; ++r) {
        double total = 0;
        for (int c = 0; c < 3; ++c) {
            EXPECT_TRUE(std::isfinite(w.at(r, c)));
            total += w.at(r, c);
        }
        EXPECT_NEAR(total, 1.0, 1e-15);
    }
    // Independent values: softmax(0, 1, −1) after shifting by 1000.
    const double z = 1 + std::exp(1.0) + std::exp(-1.0);
    EXPECT_NEAR(w.at(0, 1), std::exp(1.0) / z, 1e-15);
}

TEST(Attention, PermutationEquivarianceIsExactWithoutPeAndBrokenWithPe) {
    const Matrix e = random_embeddings(tokenize("the quick brown fox jumps"), 32, 9, 1.0);
    PositionalOptions off;
    off.pe_enabled = false;
    PositionalOptions on;
    for (const std::vector<int>& p :
         {std::vector<int>{4, 3, 2, 1, 0}, std::vector<int>{1, 2, 0, 4, 3}}) {
        EXPECT_LT(equivariance_residual(e, p, off), 1e-12);
        EXPECT_GT(equivariance_residual(e, p, on), 1e-3);
    }
    EXPECT_LT(equivariance_residual(e, {0, 1, 2, 3, 4}, on), 1e-15); // identity permutation
}

TEST(Attention, DuplicateWordsStillMatchUpToReordering) {
    OrderDemoOptions options;
    options.positional.pe_enabled = false;
    options.embedding = EmbeddingKind::Random;
    const OrderDemoResult r = run_order_demo("the dog saw the cat", "the cat saw the dog", options);
    EXPECT_TRUE(r.verdict.same_up_to_reordering);
    EXPECT_EQ(r.verdict.max_difference, 0.0);
}

TEST(Attention, DifferentWordsAreNotReorderings) {
    OrderDemoOptions options;
    options.positional.pe_enabled = false;
    const OrderDemoResult r = run_order_demo("dog bites man", "cat bites man", options);
    EXPECT_FALSE(r.verdict.same_multiset);
    EXPECT_FALSE(r.verdict.same_up_to_reordering);
    EXPECT_EQ(r.vocabulary.size(), 4u);
    EXPECT_EQ(r.equivariance_permutation, (std::vector<int>{2, 1, 0}));
}

TEST(Attention, SqrtDEmbeddingScaleMultipliesEmbeddingsOnly) {
    const Matrix e = one_hot_embeddings(tokenize("a b"), {"a", "b"}, 16);
    PositionalOptions options;
    options.scale_embeddings = true;
    options.pe_scale = 0.5;
    const Matrix x = add_positional_encoding(e, options);
    EXPECT_NEAR(x.at(1, 1), 4.0 + 0.5 * static_cast<double>(reference::pe(1, 1, 16, 10000)), 1e-12);
    EXPECT_NEAR(x.at(1, 5), 0.5 * static_cast<double>(reference::pe(1, 5, 16, 10000)), 1e-12);
}

// Repeated words: "a a b" vs "b a a" with PE scale 5. Matching the k-th "a" of B with the k-th
// of A gives 37.25; the other matching gives 14.16 (numbers recomputed here from the
// reference PE over both matchings), and only the better one says how far apart the orders are.
TEST(Attention, RepeatedWordsUseTheBestMatching) {
    OrderDemoOptions options; // one-hot, d = 16
    options.positional.pe_scale = 5.0;
    const OrderDemoResult r = run_order_demo("a a b", "b a a", options);
    const int words_a[] = {0, 0, 1}, words_b[] = {1, 0, 0}; // vocabulary: a = 0, b = 1
    const auto score = [](int i, int wi, int j, int wj) {
        long double s =
            (wi == wj) + 5 * reference::pe(i, wj, 16, 10000) + 5 * reference::pe(j, wi, 16, 10000);
        for (int dim = 0; dim < 16; ++dim)
            s += 25 * reference::pe(i, dim, 16, 10000) * reference::pe(j, dim, 16, 10000);
        return static_cast<double>(s);
    };
    double best = 1e300, in_order = 0;
    for (const std::vector<int>& pi : {std::vector<int>{2, 0, 1}, std::vector<int>{2, 1, 0}}) {
        double largest = 0;
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k)
                largest = std::max(largest,
                                   std::fabs(score(j, words_b[j], k, words_b[k]) -
                                             score(pi[j], words_a[pi[j]], pi[k], words_a[pi[k]])));
        best = std::min(best, largest);
        if (pi[1] == 0) in_order = largest;
    }
    EXPECT_NEAR(in_order, 37.25, 0.01);
    EXPECT_NEAR(best, 14.16, 0.01);
    EXPECT_NEAR(r.verdict.max_difference, best, 1e-9);
    EXPECT_TRUE(r.verdict.matching_exact);
    EXPECT_EQ(r.verdict.matchings, 2.0);
}

// Eight copies of one word: 8! = 40 320 matchings, more than are tried one by one; the descent by
// swaps still never reports more than the in-order matching, and says it is not exhaustive.
TEST(Attention, ManyRepeatsFallBackToALocalMinimumAndSaySo) {
    OrderDemoOptions options;
    options.d_model = 16;
    const OrderDemoResult r = run_order_demo("x x x x x x x x y", "y x x x x x x x x", options);
    EXPECT_FALSE(r.verdict.matching_exact);
    EXPECT_EQ(r.verdict.matchings, 40320.0);
    EXPECT_TRUE(r.verdict.same_multiset);
    EXPECT_GT(r.verdict.max_difference, 0.0);
}
