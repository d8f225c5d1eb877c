// pelab/encodings/alternatives.h (learned table, RoPE, ALiBi, T5) and
// pelab/scaling/context_scaling.h. Expected values: the papers' numbers, hand arithmetic in the
// comments, or long double loops written here.
#include "pelab/base/error.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/scaling/context_scaling.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace pelab;

namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();

long double dot(const std::vector<double>& a, const std::vector<double>& b) {
    return std::inner_product(a.begin(), a.end(), b.begin(), 0.0L);
}

// RoPE written out: pair i turned by pos·θ_i, θ_i = base^(−2i/d), in long double.
std::vector<long double> rotate_reference(const std::vector<double>& x, double pos, double base) {
    const int d = static_cast<int>(x.size());
    std::vector<long double> out(x.size());
    for (int i = 0; i < d / 2; ++i) {
        const long double angle = pos * reference::omega(i, d, base);
        const long double a = x[2 * i], b = x[2 * i + 1];
        out[2 * i] = a * cosl(angle) - b * sinl(angle);
        out[2 * i + 1] = a * sinl(angle) + b * cosl(angle);
    }
    return out;
}

// Hugging Face's `_relative_position_bucket` in long double; −1 where the log ratio lands
// within 1e-9 of a whole number (there the rounding of any implementation decides).
int t5_reference(long long rp, const T5BucketOptions& o) {
    const int side = o.bidirectional ? o.num_buckets / 2 : o.num_buckets;
    const int bucket = o.bidirectional && rp > 0 ? side : 0;
    const long long n = o.bidirectional ? (rp < 0 ? -rp : rp) : std::max(-rp, 0LL);
    const int max_exact = side / 2;
    if (n <= max_exact) // ln(max_exact / max_exact) = 0 exactly
        return bucket + static_cast<int>(n);
    const long double scaled = logl(static_cast<long double>(n) / max_exact) /
                               logl(static_cast<long double>(o.max_distance) / max_exact) *
                               (side - max_exact);
    if (fabsl(scaled - roundl(scaled)) < 1e-9L) return -1;
    return bucket + std::min(max_exact + static_cast<int>(scaled), side - 1);
}

constexpr ContextScaling kAllScalings[] = {ContextScaling::None,     ContextScaling::Linear,
                                           ContextScaling::NtkAware, ContextScaling::Yarn,
                                           ContextScaling::Llama3,   ContextScaling::DynamicNtk};

} // namespace

TEST(LearnedTable, ParameterCountsAndLookup) {
    EXPECT_EQ(make_learned_table(512, 768, 1).parameter_count(), 393216LL);
    EXPECT_EQ(make_learned_table(1024, 768, 1).parameter_count(), 786432LL);
    EXPECT_EQ(make_learned_table(kMaxLearnedRows, 16384, 1).parameter_count(),
              17179869184LL); // 2^20 × 2^14 = 2^34: no int overflow
    const LearnedTable table = make_learned_table(10, 8, 7);
    for (double pos : {10.0, 11.0, 1.5})
        EXPECT_FALSE(table.lookup(pos).has_value()) << pos;
    const auto last = table.lookup(9);
    ASSERT_TRUE(last.has_value() && last->size() == 8u);
    for (double v : *last)
        EXPECT_TRUE(v >= -1.0 && v <= 1.0) << v;
    EXPECT_EQ(*table.lookup(9), *last);
    EXPECT_NE(*table.lookup(0), *table.lookup(1));
    EXPECT_NE(*make_learned_table(10, 8, 8).lookup(9), *last);
    const LearnedTable big = make_learned_table(kMaxLearnedRows, 4, 1); // no memory until asked
    EXPECT_TRUE(big.lookup(kMaxLearnedRows - 1).has_value());
    EXPECT_FALSE(big.lookup(kMaxLearnedRows).has_value());
    for (int rows : {0, kMaxLearnedRows + 1})
        EXPECT_THROW(make_learned_table(rows, 8, 1), InvalidArgument) << rows;
    for (int d : {0, 7})
        EXPECT_THROW(make_learned_table(10, d, 1), InvalidArgument) << d;
    EXPECT_THROW(table.lookup(-1), InvalidArgument);
}

// d 8, base 10⁴: θ_i = 10⁴^(−2i/8) = 10^(−i) → 1, 0.1, 0.01, 0.001. Rotation keeps each pair's
// length, and θ_0 = 1 turns (1, 0) in pair 0 to (cos pos, sin pos).
TEST(Rope, FrequenciesAndRotation) {
    const auto theta = rope_frequencies(8, 10000);
    ASSERT_EQ(theta.size(), 4u);
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(theta[i], std::pow(10.0, -i), 1e-15 * std::pow(10.0, -i)) << i;
    const std::vector<double> x = seeded_vector(16, 3);
    for (double pos : {0.0, 1.0, 2.5, 1000.0}) {
        const auto y = rope_rotate(x, pos, 10000);
        ASSERT_EQ(y.size(), 16u);
        const auto expected_y = rotate_reference(x, pos, 10000);
        for (int j = 0; j < 16; j += 2) {
            EXPECT_NEAR(std::hypot(y[j], y[j + 1]), std::hypot(x[j], x[j + 1]), 1e-12) << pos;
            EXPECT_NEAR(y[j], static_cast<double>(expected_y[j]), 1e-12) << pos << " " << j;
            EXPECT_NEAR(y[j + 1], static_cast<double>(expected_y[j + 1]), 1e-12) << pos << j;
        }
    }
    EXPECT_NEAR(rope_rotate({1, 0, 0, 0}, 2.5, 10000)[0], std::cos(2.5), 1e-15);
    EXPECT_NEAR(rope_rotate({1, 0, 0, 0}, 2.5, 10000)[1], std::sin(2.5), 1e-15);
}

// Partial rotary's reordering: GPT-NeoX pairs i with i + r/2 among the first r dimensions, and
// the dimensions past r (which carry no position) stay where they are; r odd, negative or past
// the vector is refused with the numbers.
TEST(Rope, PartialHalfSplitReordersOnlyTheTurnedDimensions) {
    const std::vector<double> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    EXPECT_EQ(rope_as_interleaved(x, RopePairing::HalfSplit, 4),
              (std::vector<double>{0, 2, 1, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(rope_as_interleaved(x, RopePairing::HalfSplit, 6),
              (std::vector<double>{0, 3, 1, 4, 2, 5, 6, 7, 8, 9}));
    EXPECT_EQ(rope_as_interleaved(x, RopePairing::Interleaved, 6), x);
    EXPECT_EQ(rope_as_interleaved(x, RopePairing::HalfSplit, 0), x);
    EXPECT_EQ(rope_as_interleaved(x, RopePairing::HalfSplit, 10),
              rope_as_interleaved(x, RopePairing::HalfSplit));
    for (const int bad : {-2, 3, 12}) {
        try {
            (void)rope_as_interleaved(x, RopePairing::HalfSplit, bad);
            ADD_FAILURE() << bad << " accepted";
        } catch (const InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("got " + std::to_string(bad)), std::string::npos)
                << e.what();
        }
    }
}

// The half-split pairing as GPT-NeoX's rotate_half computes it, written out here: x·cos + the
// half-rotated x·sin, with cos and sin of pair i at dimensions i and i + d/2. PE Lab's turn of
// pair (i, i + d/2) gives the same vector, and reordering to interleaved pairs, turning, and
// reordering back gives it too.
TEST(Rope, HalfSplitPairingIsRotateHalf) {
    const int d = 16;
    const std::vector<double> x = seeded_vector(d, 5);
    for (const double pos : {0.0, 1.0, 7.5, 1000.0}) {
        const std::vector<double> ours = rope_rotate(x, pos, 10000, RopePairing::HalfSplit);
        const std::vector<double> as_interleaved = rope_rotate(
            rope_as_interleaved(x, RopePairing::HalfSplit), pos, 10000, RopePairing::Interleaved);
        for (int j = 0; j < d; ++j) {
            const int i = j % (d / 2);
            const double angle = pos * std::pow(10000.0, -2.0 * i / d);
            const double rotated_half = j < d / 2 ? -x[j + d / 2] : x[j - d / 2];
            const double expected = x[j] * std::cos(angle) + rotated_half * std::sin(angle);
            EXPECT_NEAR(ours[j], expected, 1e-12) << pos << " " << j;
            // Dimension j is member j / (d/2) of pair j mod d/2: interleaved place 2i + member.
            EXPECT_NEAR(as_interleaved[2 * i + j / (d / 2)], expected, 1e-12) << pos << " " << j;
        }
    }
    // The pair each dimension turns with: d/2 apart, against neighbours.
    EXPECT_EQ(rope_pair_of(RopePairing::HalfSplit, 9, d), 1);
    EXPECT_EQ(rope_pair_of(RopePairing::Interleaved, 9, d), 4);
}

// score(m, n) = score_relative(m − n) for random m, n, and both equal q·k after rotating q and k
// here; at distance 0 the score is the plain dot product.
TEST(Rope, ScoreDependsOnlyOnTheDistanceButALearnedTableDoesNot) {
    const auto q = seeded_vector(64, 1), k = seeded_vector(64, 2);
    const double scale = static_cast<double>(sqrtl(dot(q, q) * dot(k, k)));
    std::mt19937_64 rng(2021);
    std::uniform_real_distribution<double> position(0.0, 5000.0);
    for (int trial = 0; trial < 200; ++trial) {
        const double m = position(rng), n = position(rng);
        const auto rq = rotate_reference(q, m, 10000), rk = rotate_reference(k, n, 10000);
        long double rotated = 0;
        for (int j = 0; j < 64; ++j)
            rotated += rq[j] * rk[j];
        const double score = rope_score(q, k, m, n, 10000);
        EXPECT_NEAR(score, static_cast<double>(rotated), 1e-9 * scale) << m << " " << n;
        EXPECT_NEAR(rope_score_relative(q, k, m - n, 10000), score, 1e-9 * scale) << m << " " << n;
    }
    EXPECT_NEAR(rope_score_relative(q, k, 0, 10000), static_cast<double>(dot(q, k)), 1e-12 * scale);
    // Moving m and n together changes only rounding; a learned table's dot products do change.
    EXPECT_LT(std::fabs(rope_max_shift_change(q, k, 10, 3, 10000, 1000, 7.5)), 1e-9 * scale);
    EXPECT_LT(sinusoidal_max_shift_change(10, 3, 512, 10000, 1000), 1e-9);
    // Dot products of independent uniform [−1, 1] rows of 64 dims spread with σ = sqrt(64/9).
    EXPECT_GT(learned_max_shift_change(make_learned_table(512, 64, 5), 10, 3, 100), 0.1);
    // A 20-row table: only shifts s with 10 + s < 20 (s = 0 … 9) stay inside; written out here.
    const LearnedTable table = make_learned_table(20, 16, 5);
    const auto row_dot = [&](int a, int b) { return dot(*table.lookup(a), *table.lookup(b)); };
    long double largest = 0;
    for (int s = 0; s < 10; ++s)
        largest = std::max(largest, fabsl(row_dot(10 + s, 3 + s) - row_dot(10, 3)));
    EXPECT_NEAR(learned_max_shift_change(table, 10, 3, 100), static_cast<double>(largest), 1e-12);
}

// Expected similarity: the mean over pairs of cos(Δθ_i), 1 at Δ = 0. Decay bound: (1/(d/2))
// Σ_{j=1}^{d/2} |Σ_{i<j} e^{iΔθ_i}| with i from 0, so at Δ = 0 the inner sum is j terms of 1 and
// the bound is (1/(d/2))·(d/2)(d/2 + 1)/2 = (d/2 + 1)/2: (1+2+3+4)/4 = 2.5 at d 8, 16.5 at 64.
TEST(Rope, ExpectedSimilarityDecayBoundSeededVectorAndBadInput) {
    EXPECT_NEAR(rope_expected_similarity(0, 64, 10000), 1.0, 1e-15);
    EXPECT_NEAR(rope_decay_bound(0, 8, 10000), 2.5, 1e-12);
    EXPECT_NEAR(rope_decay_bound(0, 64, 10000), 16.5, 1e-12);
    for (double distance : {5.0, 37.5, 250.0, 1000.0}) {
        long double cosines = 0, re = 0, im = 0, bound = 0;
        for (int j = 1; j <= 32; ++j) {
            const long double angle = distance * reference::omega(j - 1, 64, 10000);
            cosines += cosl(angle);
            re += cosl(angle);
            im += sinl(angle);
            bound += sqrtl(re * re + im * im);
        }
        const double similarity = rope_expected_similarity(distance, 64, 10000);
        EXPECT_NEAR(similarity, static_cast<double>(cosines / 32), 1e-12) << distance;
        EXPECT_LT(similarity, 1.0);
        const double decay = rope_decay_bound(distance, 64, 10000);
        EXPECT_NEAR(decay, static_cast<double>(bound / 32), 1e-10) << distance;
        EXPECT_LT(decay, 16.5);
    }
    // Standard normal: over 4096 values the mean's σ is 1/64, the variance's sqrt(2/4096).
    const auto v = seeded_vector(4096, 11);
    ASSERT_EQ(v.size(), 4096u);
    EXPECT_EQ(seeded_vector(4096, 11), v);
    EXPECT_NE(seeded_vector(4096, 12), v);
    long double sum = 0, sum2 = 0;
    for (double x : v)
        sum += x, sum2 += static_cast<long double>(x) * x;
    const long double mean = sum / 4096, variance = sum2 / 4096 - mean * mean;
    EXPECT_LT(fabsl(mean), 0.1L);
    EXPECT_TRUE(variance > 0.85L && variance < 1.15L) << static_cast<double>(variance);
    const auto q = seeded_vector(8, 1);
    EXPECT_THROW(rope_frequencies(7, 10000), InvalidArgument);
    EXPECT_THROW(rope_frequencies(8, 1), InvalidArgument);
    EXPECT_THROW(rope_rotate(std::vector<double>(7, 1.0), 1, 10000), InvalidArgument);
    for (double pos : {kNan, -1.0, 2e9})
        EXPECT_THROW(rope_rotate(q, pos, 10000), InvalidArgument) << pos;
    EXPECT_THROW(rope_score(q, seeded_vector(6, 2), 1, 2, 10000), InvalidArgument);
    EXPECT_THROW(rope_score(q, q, kNan, 2, 10000), InvalidArgument);
    for (int count : {0, 100001})
        EXPECT_THROW(rope_max_shift_change(q, q, 1, 2, 10000, count, 1), InvalidArgument);
    EXPECT_THROW(rope_max_shift_change(q, q, 1, 2, 10000, 10, 0), InvalidArgument);
    EXPECT_THROW(rope_expected_similarity(1, 7, 10000), InvalidArgument);
    EXPECT_THROW(rope_decay_bound(1, 7, 10000), InvalidArgument);
    EXPECT_THROW(sinusoidal_max_shift_change(1, 2, 7, 10000, 10), InvalidArgument);
}

// The reference get_slopes: a power of two H gives 2^(−8h/H), h = 1 … H (8 heads: 2^−1 … 2^−8;
// 16: 2^−0.5, 2^−1, … 2^−8; 1: 2^−8; 2: 2^−4, 2^−8). Otherwise get_slopes(c) + get_slopes(2c)
// [0::2][:H − c], c the power of two below H: 12 → 2^−1 … 2^−8, 2^−0.5, −1.5, −2.5, −3.5;
// 6 → 2^−2, −4, −6, −8, −1, −3; 3 → 2^−4, −8, −2.
TEST(Alibi, SlopesFollowTheReferenceRuleAndBiasesMask) {
    const std::vector<std::vector<double>> log2_slopes = {
        {-8},
        {-4, -8},
        {-4, -8, -2},
        {-2, -4, -6, -8, -1, -3},
        {-1, -2, -3, -4, -5, -6, -7, -8},
        {-1, -2, -3, -4, -5, -6, -7, -8, -0.5, -1.5, -2.5, -3.5},
        {-0.5, -1, -1.5, -2, -2.5, -3, -3.5, -4, -4.5, -5, -5.5, -6, -6.5, -7, -7.5, -8}};
    for (const auto& expected : log2_slopes) {
        const auto slopes = alibi_slopes(static_cast<int>(expected.size()));
        ASSERT_EQ(slopes.size(), expected.size());
        for (std::size_t h = 0; h < slopes.size(); ++h) {
            const double slope = std::pow(2.0, expected[h]);
            EXPECT_NEAR(slopes[h], slope, 1e-14 * slope) << slopes.size() << " " << h;
        }
    }
    EXPECT_EQ(alibi_slopes(kMaxAlibiHeads).size(), static_cast<std::size_t>(kMaxAlibiHeads));
    EXPECT_THROW(alibi_slopes(0), InvalidArgument);
    EXPECT_THROW(alibi_slopes(kMaxAlibiHeads + 1), InvalidArgument);
    // −slope·|i − j|: −0.5·|5 − 2| = −1.5 either way round; causal masks keys after the query.
    EXPECT_DOUBLE_EQ(alibi_bias(0.5, 5, 2, false), -1.5);
    EXPECT_DOUBLE_EQ(alibi_bias(0.5, 2, 5, false), -1.5);
    EXPECT_DOUBLE_EQ(alibi_bias(0.5, 5, 2, true), -1.5);
    EXPECT_EQ(alibi_bias(0.5, 3, 3, true), 0.0);
    EXPECT_EQ(alibi_bias(0.5, 2, 5, true), -std::numeric_limits<double>::infinity());
    for (bool causal : {false, true}) {
        const Matrix m = alibi_bias_matrix(0.25, 4, causal);
        ASSERT_TRUE(m.rows == 4 && m.cols == 4);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                EXPECT_EQ(m.at(i, j), causal && j > i ? -std::numeric_limits<double>::infinity()
                                                      : -0.25 * std::abs(i - j))
                    << causal << " " << i << " " << j;
    }
}

// 32, 128, bidirectional: exact below 8, then 8 + ⌊ln(n/8)/ln 16 · 8⌋ up to 15, +16 for keys
// after the query: n = 12: 1.17 → 9; 15: 1.81 → 9; 20: 2.64 → 10; 50: 5.29 → 13; 90: 6.98 → 14;
// 91: 7.02 → 15; on a boundary (exactly 2, 4, 6) n = 16, 32, 64 → 10, 12, 14. Causal: future
// keys → 0, exact below 16, then 16 + ⌊ln(n/16)/ln 8 · 16⌋ up to 31: 20: 1.72 → 17; 32: 5.33 →
// 21; 50: 8.77 → 24; 64: 10.67 → 26; 90: 13.29 → 29; 112: 14.97 → 30; 113: 15.04 → 31. The last
// bucket starts at ⌈8·16^(7/8)⌉ = ⌈90.51⌉ = 91, causal ⌈16·8^(15/16)⌉ = ⌈112.40⌉ = 113; 64, 256:
// ⌈16·16^(15/16)⌉ = ⌈215.27⌉ = 216; 16, 64 causal: ⌈8·8^(7/8)⌉ = ⌈49.35⌉ = 50.
TEST(T5Buckets, MatchTheReferenceAndGrowWithDistance) {
    const struct {
        long long rp;
        int bidirectional, causal;
    } known[] = {
        {0, 0, 0},       {-1, 1, 1},     {1, 17, 0},     {-7, 7, 7},     {7, 23, 0},
        {-8, 8, 8},      {8, 24, 0},     {-12, 9, 12},   {-15, 9, 15},   {15, 25, 0},
        {-16, 10, 16},   {16, 26, 0},    {-20, 10, 17},  {-32, 12, 21},  {-50, 13, 24},
        {-64, 14, 26},   {-90, 14, 29},  {90, 30, 0},    {-91, 15, 29},  {91, 31, 0},
        {-100, 15, 30},  {-112, 15, 30}, {-113, 15, 31}, {-127, 15, 31}, {-128, 15, 31},
        {-1000, 15, 31}, {1000, 31, 0},
    };
    const T5BucketOptions all[] = {
        {32, 128, true}, {32, 128, false}, {64, 256, true}, {16, 64, false}};
    for (const auto& k : known) {
        EXPECT_EQ(t5_bucket(k.rp, all[0]), k.bidirectional) << k.rp;
        EXPECT_EQ(t5_bucket(k.rp, all[1]), k.causal) << k.rp;
    }
    const long long starts[] = {91, 113, 216, 50};
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(t5_last_bucket_start(all[i]), starts[i]) << i;
    // Sweeps against the long double reference, and buckets never shrink as |distance| grows.
    for (const auto& o : all) {
        for (long long rp = -400; rp <= 400; ++rp) {
            const int expected = t5_reference(rp, o);
            if (expected >= 0) {
                EXPECT_EQ(t5_bucket(rp, o), expected) << o.num_buckets << " " << rp;
            }
        }
        for (int sign : {-1, 1}) {
            int previous = t5_bucket(0, o);
            for (long long n = 1; n <= 3000; ++n) {
                const int b = t5_bucket(sign * n, o);
                EXPECT_GE(b, previous) << o.num_buckets << " " << sign * n;
                EXPECT_TRUE(b >= 0 && b < o.num_buckets) << b;
                previous = b;
            }
        }
    }
    const auto biases = t5_bucket_biases(32, 9);
    ASSERT_EQ(biases.size(), 32u);
    EXPECT_EQ(t5_bucket_biases(32, 9), biases);
    EXPECT_NE(t5_bucket_biases(32, 10), biases);
    EXPECT_EQ(std::set<double>(biases.begin(), biases.end()).size(), 32u);
    // Bidirectional 32: side 16, max_exact 8 → max_distance ≥ 9; causal 32: ≥ 17; 33 is odd.
    const T5BucketOptions bad[] = {{1, 128, false}, {1025, 128, false}, {33, 128, true},
                                   {32, 8, true},   {32, 16, false},    {32, 1000000001, true},
                                   {2, 8, true}}; // one bucket per side: no exact bucket, log(n/0)
    for (const auto& o : bad)
        EXPECT_THROW(validate_t5_options(o), InvalidArgument) << o.num_buckets << o.max_distance;
    const T5BucketOptions good[] = {{33, 128, false}, {32, 9, true}, {32, 17, false}};
    for (const auto& o : good)
        EXPECT_NO_THROW(validate_t5_options(o)) << o.num_buckets << " " << o.max_distance;
    EXPECT_THROW(t5_bucket(-5, T5BucketOptions{33, 128, true}), InvalidArgument);
    EXPECT_THROW(t5_last_bucket_start(T5BucketOptions{32, 8, true}), InvalidArgument);
}

// Every θ'_i is its factor times θ_i; none keeps θ_i; linear divides by s (1/8 exactly, 1/3 to
// rounding); a factor of 1 changes nothing in any method; NTK as derived below.
TEST(ContextScaling, NamesNoneLinearNtkAndFactorOne) {
    EXPECT_STREQ(context_scaling_name(ContextScaling::None), "none");
    EXPECT_STREQ(context_scaling_name(ContextScaling::Linear), "linear (PI)");
    EXPECT_STREQ(context_scaling_id(ContextScaling::Linear), "linear");
    EXPECT_STREQ(context_scaling_id(ContextScaling::NtkAware), "ntk");
    const ContextScalingOptions o{128, 10000, 8};
    std::set<std::string> ids;
    for (ContextScaling m : kAllScalings) {
        ids.insert(context_scaling_id(m));
        const auto theta = scaled_frequencies(m, o);
        const auto factors = frequency_scale_factors(m, o);
        ASSERT_TRUE(theta.size() == 64u && factors.size() == 64u);
        for (int i = 0; i < 64; ++i) {
            const double expected = factors[i] * static_cast<double>(reference::omega(i, 128, 1e4));
            EXPECT_NEAR(theta[i], expected, 1e-12 * expected) << context_scaling_id(m) << i;
        }
        for (double f : frequency_scale_factors(m, {64, 10000, 1}))
            EXPECT_NEAR(f, 1.0, 1e-15) << context_scaling_id(m);
    }
    EXPECT_EQ(ids.size(), static_cast<std::size_t>(kContextScalingCount));
    for (double f : frequency_scale_factors(ContextScaling::None, o))
        EXPECT_EQ(f, 1.0);
    for (double f : frequency_scale_factors(ContextScaling::Linear, o))
        EXPECT_EQ(f, 0.125);
    for (double f : frequency_scale_factors(ContextScaling::Linear, {128, 10000, 3}))
        EXPECT_DOUBLE_EQ(f, 1.0 / 3);
    // NTK: base' = base·s^(d/(d−2)), so pair i's factor is s^(−(d/(d−2))·2i/d) = s^(−2i/(d−2)):
    // 1 for pair 0, s^(−1) = 1/8 for the last (i = d/2 − 1), 8^(−64/126) ≈ 0.347766 for pair 32.
    const auto f = frequency_scale_factors(ContextScaling::NtkAware, {128, 10000, 8});
    const auto theta = scaled_frequencies(ContextScaling::NtkAware, {128, 10000, 8});
    ASSERT_EQ(f.size(), 64u);
    EXPECT_NEAR(f[0], 1.0, 1e-15);
    EXPECT_NEAR(f[63], 0.125, 1e-12);
    EXPECT_NEAR(f[32], 0.34776640481145743, 1e-12); // 8 ** (-64 / 126)
    const long double base_prime = 10000.0L * powl(8.0L, 128.0L / 126.0L);
    for (int i = 0; i < 64; ++i) {
        EXPECT_NEAR(f[i], static_cast<double>(powl(8.0L, -2.0L * i / 126)), 1e-12) << i;
        const double expected = static_cast<double>(powl(base_prime, -2.0L * i / 128));
        EXPECT_NEAR(theta[i], expected, 1e-12 * expected) << i;
    }
}

// d 128, base 10⁴, L 8192, α 1, β 32: r_i = L·θ_i/(2π). r_0 = 1303.8 → 1; r_25 = 35.7 → 1;
// r_26 = 30.92 → γ = 0.9651; r_40 = 4.1230 → γ = 0.10074, factor 1/8 + (7/8)·γ ≈ 0.213148;
// r_49 = 1.129 → γ = 0.00416; r_50 = 0.978 → 1/8; r_63 = 0.1506 → 1/8. Temperature 0.1·ln 8 + 1.
TEST(ContextScaling, YarnRampsBetweenAlphaAndBeta) {
    const auto f = frequency_scale_factors(ContextScaling::Yarn, {128, 10000, 8});
    ASSERT_EQ(f.size(), 64u);
    EXPECT_NEAR(f[40], 0.21314832011773, 1e-12);
    for (int i = 0; i < 64; ++i) {
        if (i <= 25 || i >= 50) { // the flat ends of the ramp
            EXPECT_NEAR(f[i], i <= 25 ? 1.0 : 0.125, 1e-15) << i;
        }
        const long double r = 8192 * reference::omega(i, 128, 10000) / (2 * acosl(-1.0L));
        const long double gamma = r < 1 ? 0 : r > 32 ? 1 : (r - 1) / 31;
        EXPECT_NEAR(f[i], static_cast<double>((1 - gamma) / 8 + gamma), 1e-12) << i;
    }
    EXPECT_NEAR(attention_temperature_factor(ContextScaling::Yarn, 8), 1.2079441541679836, 1e-15);
    EXPECT_NEAR(attention_temperature_factor(ContextScaling::Yarn, 1), 1.0, 1e-15);
    // The logits scale by its square, (0.1·ln 8 + 1)² = 1.45912908 (computed by hand in Python).
    EXPECT_NEAR(attention_logit_scale(ContextScaling::Yarn, 8), 1.45912908, 1e-8);
    for (ContextScaling m : {ContextScaling::None, ContextScaling::Linear, ContextScaling::NtkAware,
                             ContextScaling::Llama3})
        EXPECT_EQ(attention_temperature_factor(m, 8), 1.0);
}

// Meta's apply_scaling, d 128, base 5·10⁵, factor 8, L 8192, low 1, high 4: λ_i = 2π/θ_i.
// λ_0 = 2π and λ_28 = 1956.5 < 2048 → kept; λ_35 = 8218.7 and λ_63 = 2.56e6 > 8192 → 1/8;
// λ_30 = 2948.3: smooth = (8192/2948.3 − 1)/3 = 0.5927, factor ≈ 0.643743.
TEST(ContextScaling, Llama3KeepsHighAndInterpolatesLowFrequencies) {
    const auto f = frequency_scale_factors(ContextScaling::Llama3, {128, 500000, 8});
    ASSERT_EQ(f.size(), 64u);
    EXPECT_NEAR(f[30], 0.6437431331275951, 1e-12);
    for (int i = 0; i < 64; ++i) {
        const long double lambda = 2 * acosl(-1.0L) / reference::omega(i, 128, 500000);
        const long double smooth = (8192 / lambda - 1) / (4 - 1);
        const long double expected = lambda < 8192.0L / 4   ? 1
                                     : lambda > 8192.0L / 1 ? 0.125L
                                                            : (1 - smooth) / 8 + smooth;
        EXPECT_NEAR(f[i], static_cast<double>(expected), 1e-12) << i;
    }
}

// The file's contract covers every option, whichever method reads it.
TEST(ContextScaling, BadOptionsThrow) {
    // α = β = 32 in 7; low 5 above high 4 in 10 (equal factors are Llama 4 Scout's 1 and 1).
    std::vector<ContextScalingOptions> bad(12);
    bad[0].factor = 0.5, bad[1].factor = 1001, bad[2].factor = kNan, bad[3].d = 2, bad[4].d = 7;
    bad[5].base = 1, bad[6].original_context = 0, bad[7].yarn_alpha = 32, bad[8].yarn_alpha = 0;
    bad[9].yarn_beta = kNan, bad[10].llama_low_freq_factor = 5, bad[11].llama_low_freq_factor = 0;
    for (std::size_t c = 0; c < bad.size(); ++c) {
        EXPECT_THROW(validate_context_scaling(bad[c]), InvalidArgument) << c;
        for (ContextScaling m : kAllScalings) {
            EXPECT_THROW(scaled_frequencies(m, bad[c]), InvalidArgument) << c;
            EXPECT_THROW(frequency_scale_factors(m, bad[c]), InvalidArgument) << c;
        }
    }
    EXPECT_NO_THROW(validate_context_scaling(ContextScalingOptions{}));
    EXPECT_NO_THROW(validate_context_scaling(ContextScalingOptions{4, 10000, 1000}));
    EXPECT_THROW(attention_temperature_factor(ContextScaling::Yarn, 0.5), InvalidArgument);
    EXPECT_THROW(attention_temperature_factor(ContextScaling::Yarn, kNan), InvalidArgument);
}

// Dynamic NTK (Hugging Face's "dynamic"): nothing up to the original length, then the base
// grown by (s·n/L − (s − 1))^(d/(d−2)); at n = s·L the slowest pair keeps exactly 1/(s² − s + 1)
// of its frequency, and YaRN's two ramps agree at their ends and differ between.
TEST(ContextScaling, DynamicNtkGrowsTheBaseWithTheLengthAndTheRampsAgreeAtTheEnds) {
    ContextScalingOptions o{128, 10000, 8};
    o.original_context = 8192;
    for (double n : {1.0, 4096.0, 8192.0}) {
        o.sequence_length = n;
        EXPECT_EQ(dynamic_ntk_base(o), 10000.0) << n;
        for (double f : frequency_scale_factors(ContextScaling::DynamicNtk, o))
            EXPECT_EQ(f, 1.0) << n;
    }
    o.sequence_length = 0; // s·L
    EXPECT_NEAR(dynamic_ntk_base(o), 10000.0 * std::pow(57.0, 128.0 / 126.0), 1e-6);
    EXPECT_NEAR(frequency_scale_factors(ContextScaling::DynamicNtk, o).back(), 1.0 / 57, 1e-14);
    o.sequence_length = 2 * 8192.0; // twice the context: (8·2 − 7) = 9
    EXPECT_NEAR(frequency_scale_factors(ContextScaling::DynamicNtk, o).back(), 1.0 / 9, 1e-14);
    o.sequence_length = -1;
    EXPECT_THROW(dynamic_ntk_base(o), InvalidArgument);
    o.sequence_length = 0;
    const std::vector<double> paper = frequency_scale_factors(ContextScaling::Yarn, o);
    o.yarn_ramp = YarnRamp::PairIndex;
    const std::vector<double> hf = frequency_scale_factors(ContextScaling::Yarn, o);
    EXPECT_EQ(paper.front(), 1.0);
    EXPECT_EQ(hf.front(), 1.0);
    EXPECT_DOUBLE_EQ(paper.back(), 1.0 / 8);
    EXPECT_DOUBLE_EQ(hf.back(), 1.0 / 8);
    // Pair 35 of d 128 at s 8, L 8 192: the paper's ramp against Hugging Face's, worked out here:
    // turns r = 8192·10000^(−70/128)/2π, γ = (r − 1)/31; i(n) = 128·ln(8192/(2πn))/(2 ln 10⁴):
    // i(32) ≈ 25.8 → 25, i(1) ≈ 49.8 → 50, ramp (35 − 25)/(50 − 25) = 0.4.
    const double turns = 8192 * std::pow(10000.0, -70.0 / 128) / (2 * M_PI);
    const double gamma = (turns - 1) / 31, ramp = 0.4;
    EXPECT_NEAR(paper[35], gamma + (1 - gamma) / 8, 1e-12);
    EXPECT_NEAR(hf[35], (1 - ramp) + ramp / 8, 1e-12);
    EXPECT_NEAR(std::abs(paper[35] - hf[35]), 0.314, 0.001);
}
