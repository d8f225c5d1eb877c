// The alternatives of pelab/alternatives.h (learned table, RoPE, ALiBi, T5 buckets) and RoPE's
// context scaling (pelab/context_scaling.h). Expected values come from the papers' reference
// numbers, hand arithmetic in the comments, or small loops written here in long double.
#include "pelab/alternatives.h"
#include "pelab/context_scaling.h"
#include "pelab/error.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace pelab;

namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();

double norm(const std::vector<double>& x) {
    long double sum = 0;
    for (double v : x)
        sum += static_cast<long double>(v) * v;
    return static_cast<double>(sqrtl(sum));
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
    int side = o.num_buckets, bucket = 0;
    long long n = rp < 0 ? -rp : 0;
    if (o.bidirectional) {
        side /= 2;
        bucket = rp > 0 ? side : 0;
        n = rp < 0 ? -rp : rp;
    }
    const int max_exact = side / 2;
    if (n <= max_exact) // ln(max_exact / max_exact) = 0 exactly
        return bucket + static_cast<int>(n);
    const long double scaled = logl(static_cast<long double>(n) / max_exact) /
                               logl(static_cast<long double>(o.max_distance) / max_exact) *
                               (side - max_exact);
    if (fabsl(scaled - roundl(scaled)) < 1e-9L) return -1;
    return bucket + std::min(max_exact + static_cast<int>(scaled), side - 1);
}

T5BucketOptions t5_options(int num_buckets, int max_distance, bool bidirectional) {
    T5BucketOptions o;
    o.num_buckets = num_buckets, o.max_distance = max_distance, o.bidirectional = bidirectional;
    return o;
}

ContextScalingOptions scaling(int d, double base, double factor) {
    ContextScalingOptions o;
    o.d = d, o.base = base, o.factor = factor;
    return o;
}

constexpr ContextScaling kAllScalings[] = {ContextScaling::None, ContextScaling::Linear,
                                           ContextScaling::NtkAware, ContextScaling::Yarn,
                                           ContextScaling::Llama3};

} // namespace

// ---- Learned table ---------------------------------------------------------------------------

TEST(LearnedTable, ParameterCountsOfBertAndGpt2) {
    EXPECT_EQ(make_learned_table(512, 768, 1).parameter_count(), 393216LL);  // 512 × 768
    EXPECT_EQ(make_learned_table(1024, 768, 1).parameter_count(), 786432LL); // 1024 × 768
    EXPECT_EQ(make_learned_table(kMaxLearnedRows, 16384, 1).parameter_count(),
              17179869184LL); // 2^20 × 2^14 = 2^34: no int overflow
}

TEST(LearnedTable, LookupHasNoEntryOutsideTheTable) {
    const LearnedTable table = make_learned_table(10, 8, 7);
    for (double pos : {10.0, 11.0, 1.5})
        EXPECT_FALSE(table.lookup(pos).has_value()) << pos;
    const auto last = table.lookup(9);
    ASSERT_TRUE(last.has_value());
    ASSERT_EQ(last->size(), 8u);
    for (double v : *last)
        EXPECT_TRUE(v >= -1.0 && v <= 1.0) << v;
    EXPECT_EQ(*table.lookup(9), *last);
    EXPECT_NE(*table.lookup(0), *table.lookup(1));
    EXPECT_NE(*make_learned_table(10, 8, 8).lookup(9), *last);
    const LearnedTable big = make_learned_table(kMaxLearnedRows, 4, 1); // no memory until asked
    EXPECT_TRUE(big.lookup(kMaxLearnedRows - 1).has_value());
    EXPECT_FALSE(big.lookup(kMaxLearnedRows).has_value());
    EXPECT_THROW(make_learned_table(0, 8, 1), InvalidArgument);
    EXPECT_THROW(make_learned_table(kMaxLearnedRows + 1, 8, 1), InvalidArgument);
    EXPECT_THROW(make_learned_table(10, 7, 1), InvalidArgument);
    EXPECT_THROW(make_learned_table(10, 0, 1), InvalidArgument);
    EXPECT_THROW(table.lookup(-1), InvalidArgument);
}

// ---- RoPE ------------------------------------------------------------------------------------

// d 8, base 10⁴: θ_i = 10⁴^(−2i/8) = 10^(−i) → 1, 0.1, 0.01, 0.001.
TEST(Rope, FrequenciesArePowersOfTheBase) {
    const std::vector<double> expected = {1, 0.1, 0.01, 0.001};
    const auto theta = rope_frequencies(8, 10000);
    ASSERT_EQ(theta.size(), 4u);
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(theta[i], expected[i], 1e-15 * expected[i]) << i;
}

TEST(Rope, RotateKeepsPairLengthsAndTurnsPairZeroByPos) {
    const std::vector<double> x = seeded_vector(16, 3);
    for (double pos : {0.0, 1.0, 2.5, 1000.0}) {
        const auto y = rope_rotate(x, pos, 10000);
        ASSERT_EQ(y.size(), 16u);
        const auto expected = rotate_reference(x, pos, 10000);
        for (int j = 0; j < 16; j += 2) {
            EXPECT_NEAR(std::hypot(y[j], y[j + 1]), std::hypot(x[j], x[j + 1]), 1e-12) << pos;
            EXPECT_NEAR(y[j], static_cast<double>(expected[j]), 1e-12) << pos << " " << j;
            EXPECT_NEAR(y[j + 1], static_cast<double>(expected[j + 1]), 1e-12) << pos << " " << j;
        }
    }
    std::vector<double> unit(8, 0.0); // θ_0 = 1: (1, 0) in pair 0 lands on (cos pos, sin pos)
    unit[0] = 1;
    const auto turned = rope_rotate(unit, 2.5, 10000);
    EXPECT_NEAR(turned[0], std::cos(2.5), 1e-15);
    EXPECT_NEAR(turned[1], std::sin(2.5), 1e-15);
}

// score(m, n) = score_relative(m − n) for random m, n, and both equal q·k after rotating q and k
// here; at distance 0 the score is the plain dot product.
TEST(Rope, ScoreDependsOnlyOnTheDistance) {
    const auto q = seeded_vector(64, 1), k = seeded_vector(64, 2);
    const double scale = norm(q) * norm(k);
    std::mt19937_64 rng(2021);
    std::uniform_real_distribution<double> position(0.0, 5000.0);
    for (int trial = 0; trial < 200; ++trial) {
        const double m = position(rng), n = position(rng);
        const auto rq = rotate_reference(q, m, 10000), rk = rotate_reference(k, n, 10000);
        long double dot = 0;
        for (int j = 0; j < 64; ++j)
            dot += rq[j] * rk[j];
        const double score = rope_score(q, k, m, n, 10000);
        EXPECT_NEAR(score, static_cast<double>(dot), 1e-9 * scale) << m << " " << n;
        EXPECT_NEAR(rope_score_relative(q, k, m - n, 10000), score, 1e-9 * scale) << m << " " << n;
    }
    long double qk = 0;
    for (int j = 0; j < 64; ++j)
        qk += static_cast<long double>(q[j]) * k[j];
    EXPECT_NEAR(rope_score_relative(q, k, 0, 10000), static_cast<double>(qk), 1e-12 * scale);
}

TEST(Rope, ShiftChangesNothingButALearnedTableDoes) {
    const auto q = seeded_vector(64, 1), k = seeded_vector(64, 2);
    const double rope = rope_max_shift_change(q, k, 10, 3, 10000, 1000, 7.5);
    EXPECT_GE(rope, 0.0);
    EXPECT_LT(rope, 1e-9 * norm(q) * norm(k));
    EXPECT_LT(sinusoidal_max_shift_change(10, 3, 512, 10000, 1000), 1e-9);
    // Dot products of independent uniform [−1, 1] rows of 64 dims spread with σ = sqrt(64/9).
    EXPECT_GT(learned_max_shift_change(make_learned_table(512, 64, 5), 10, 3, 100), 0.1);
    // A 20-row table: only shifts s with 10 + s < 20 (s = 0 … 9) stay inside; written out here.
    const LearnedTable table = make_learned_table(20, 16, 5);
    const auto dot = [&](int a, int b) {
        const auto ra = *table.lookup(a), rb = *table.lookup(b);
        long double sum = 0;
        for (int j = 0; j < 16; ++j)
            sum += static_cast<long double>(ra[j]) * rb[j];
        return sum;
    };
    long double largest = 0;
    for (int s = 0; s < 10; ++s)
        largest = std::max(largest, fabsl(dot(10 + s, 3 + s) - dot(10, 3)));
    EXPECT_NEAR(learned_max_shift_change(table, 10, 3, 100), static_cast<double>(largest), 1e-12);
}

// Mean over pairs of cos(Δθ_i): 1 at Δ = 0; below 1 elsewhere.
TEST(Rope, ExpectedSimilarityIsTheMeanCosine) {
    EXPECT_NEAR(rope_expected_similarity(0, 64, 10000), 1.0, 1e-15);
    for (double distance : {5.0, 37.5, 1000.0}) {
        long double sum = 0;
        for (int i = 0; i < 32; ++i)
            sum += cosl(distance * reference::omega(i, 64, 10000));
        const double got = rope_expected_similarity(distance, 64, 10000);
        EXPECT_NEAR(got, static_cast<double>(sum / 32), 1e-12) << distance;
        EXPECT_LT(got, 1.0);
    }
}

// (1/(d/2)) Σ_{j=1}^{d/2} |Σ_{i<j} e^{iΔθ_i}| with i from 0: at Δ = 0 the inner sum has j terms
// of 1, so the bound is (1/(d/2))·(d/2)(d/2 + 1)/2 = (d/2 + 1)/2: 2.5 at d 8, 16.5 at d 64.
TEST(Rope, DecayBound) {
    EXPECT_NEAR(rope_decay_bound(0, 8, 10000), 2.5, 1e-12); // (1 + 2 + 3 + 4) / 4
    EXPECT_NEAR(rope_decay_bound(0, 64, 10000), 16.5, 1e-12);
    for (double distance : {10.0, 250.0}) {
        long double re = 0, im = 0, total = 0;
        for (int j = 1; j <= 32; ++j) {
            const long double angle = distance * reference::omega(j - 1, 64, 10000);
            re += cosl(angle);
            im += sinl(angle);
            total += sqrtl(re * re + im * im);
        }
        const double got = rope_decay_bound(distance, 64, 10000);
        EXPECT_NEAR(got, static_cast<double>(total / 32), 1e-10) << distance;
        EXPECT_LT(got, 16.5);
    }
}

// Standard normal: over 4096 values the mean's σ is 1/64, the variance's sqrt(2/4096) ≈ 0.022.
TEST(Rope, SeededVectorIsStandardNormalAndBadInputThrows) {
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
    const std::vector<double> odd(7, 1.0);
    EXPECT_THROW(rope_frequencies(7, 10000), InvalidArgument);
    EXPECT_THROW(rope_frequencies(8, 1), InvalidArgument);
    EXPECT_THROW(rope_rotate(odd, 1, 10000), InvalidArgument);
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

// ---- ALiBi -----------------------------------------------------------------------------------

// The reference get_slopes: a power of two H gives 2^(−8h/H), h = 1 … H (8 heads: 2^−1 … 2^−8;
// 16: 2^−0.5, 2^−1, … 2^−8; 1: 2^−8; 2: 2^−4, 2^−8). Otherwise get_slopes(c) + get_slopes(2c)
// [0::2][:H − c], c the power of two below H: 12 → 2^−1 … 2^−8, 2^−0.5, −1.5, −2.5, −3.5;
// 6 → 2^−2, −4, −6, −8, −1, −3; 3 → 2^−4, −8, −2.
TEST(Alibi, SlopesFollowTheReferenceRule) {
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
}

TEST(Alibi, BiasAndCausalMask) {
    for (int query : {5, 2}) // −0.5·|5 − 2|
        EXPECT_DOUBLE_EQ(alibi_bias(0.5, query, 7 - query, false), -1.5);
    EXPECT_DOUBLE_EQ(alibi_bias(0.5, 5, 2, true), -1.5);
    EXPECT_EQ(alibi_bias(0.5, 3, 3, true), 0.0);
    const double masked = alibi_bias(0.5, 2, 5, true);
    EXPECT_TRUE(std::isinf(masked) && masked < 0);
    for (bool causal : {false, true}) {
        const Matrix m = alibi_bias_matrix(0.25, 4, causal);
        ASSERT_EQ(m.rows, 4);
        ASSERT_EQ(m.cols, 4);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                if (causal && j > i)
                    EXPECT_TRUE(std::isinf(m.at(i, j)) && m.at(i, j) < 0) << i << " " << j;
                else
                    EXPECT_DOUBLE_EQ(m.at(i, j), -0.25 * std::abs(i - j)) << i << " " << j;
            }
    }
}

// ---- T5 buckets ------------------------------------------------------------------------------

// 32 buckets, 128, bidirectional: 16 a side, exact below 8, then 8 + ⌊ln(n/8)/ln 16 · 8⌋ up to
// 15; keys after the query add 16. n = 12: 1.17 → 9; 15: ln 1.875/ln 16 · 8 = 1.81 → 9; 20:
// 2.64 → 10; 50: 5.29 → 13; 90: 6.98 → 14; 91: 7.02 → 15; 100: 7.29 → 15. On a boundary
// (the log ratio exactly 2, 4, 6): n = 16, 32, 64 → 10, 12, 14.
// Causal: future keys share bucket 0; n = −rp, exact below 16, then 16 + ⌊ln(n/16)/ln 8 · 16⌋
// up to 31: n = 20: 1.72 → 17; 50: 8.77 → 24; 100: 14.10 → 30; 112: 14.97 → 30; 113: 15.04 → 31.
TEST(T5Buckets, MatchTheReference) {
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
    for (const auto& k : known) {
        EXPECT_EQ(t5_bucket(k.rp, t5_options(32, 128, true)), k.bidirectional) << k.rp;
        EXPECT_EQ(t5_bucket(k.rp, t5_options(32, 128, false)), k.causal) << k.rp;
    }
}

TEST(T5Buckets, SweepsAgreeWithTheReferenceAndGrowWithDistance) {
    const T5BucketOptions all[] = {t5_options(32, 128, true), t5_options(32, 128, false),
                                   t5_options(64, 256, true), t5_options(16, 64, false)};
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
}

// The last bucket starts at ⌈8·16^(7/8)⌉ = ⌈90.51⌉ = 91 (32, 128, bidirectional), ⌈16·8^(15/16)⌉
// = ⌈112.40⌉ = 113 (causal), ⌈16·16^(15/16)⌉ = ⌈215.27⌉ = 216 (64, 256), ⌈8·8^(7/8)⌉ = ⌈49.35⌉
// = 50 (16, 64, causal).
TEST(T5Buckets, LastBucketStart) {
    EXPECT_EQ(t5_last_bucket_start(t5_options(32, 128, true)), 91);
    EXPECT_EQ(t5_last_bucket_start(t5_options(32, 128, false)), 113);
    EXPECT_EQ(t5_last_bucket_start(t5_options(64, 256, true)), 216);
    EXPECT_EQ(t5_last_bucket_start(t5_options(16, 64, false)), 50);
}

TEST(T5Buckets, BiasesAndBadOptions) {
    const auto biases = t5_bucket_biases(32, 9);
    ASSERT_EQ(biases.size(), 32u);
    EXPECT_EQ(t5_bucket_biases(32, 9), biases);
    EXPECT_NE(t5_bucket_biases(32, 10), biases);
    EXPECT_EQ(std::set<double>(biases.begin(), biases.end()).size(), 32u);
    // Bidirectional 32: side 16, max_exact 8 → max_distance ≥ 9; causal 32: ≥ 17; 33 is odd.
    for (const auto& bad :
         {t5_options(1, 128, false), t5_options(1025, 128, false), t5_options(33, 128, true),
          t5_options(32, 8, true), t5_options(32, 16, false), t5_options(32, 1000000001, true)})
        EXPECT_THROW(validate_t5_options(bad), InvalidArgument) << bad.num_buckets;
    for (const auto& good :
         {t5_options(33, 128, false), t5_options(32, 9, true), t5_options(32, 17, false)})
        EXPECT_NO_THROW(validate_t5_options(good)) << good.num_buckets;
    EXPECT_THROW(t5_bucket(-5, t5_options(33, 128, true)), InvalidArgument);
    EXPECT_THROW(t5_last_bucket_start(t5_options(32, 8, true)), InvalidArgument);
}

// ---- Context scaling -------------------------------------------------------------------------

TEST(ContextScaling, NamesNoneAndLinear) {
    EXPECT_STREQ(context_scaling_name(ContextScaling::None), "none");
    EXPECT_STREQ(context_scaling_name(ContextScaling::Linear), "linear (PI)");
    EXPECT_STREQ(context_scaling_id(ContextScaling::Linear), "linear");
    EXPECT_STREQ(context_scaling_id(ContextScaling::NtkAware), "ntk");
    std::set<std::string> ids;
    for (ContextScaling m : kAllScalings) {
        ids.insert(context_scaling_id(m));
        const auto theta = scaled_frequencies(m, scaling(128, 10000, 8));
        const auto factors = frequency_scale_factors(m, scaling(128, 10000, 8));
        ASSERT_EQ(theta.size(), 64u);
        ASSERT_EQ(factors.size(), 64u);
        for (int i = 0; i < 64; ++i) {
            const double expected = factors[i] * static_cast<double>(reference::omega(i, 128, 1e4));
            EXPECT_NEAR(theta[i], expected, 1e-12 * expected) << context_scaling_id(m) << i;
        }
    }
    EXPECT_EQ(ids.size(), static_cast<std::size_t>(kContextScalingCount));
    // None keeps every θ_i; linear divides every θ_i by s: 1/8 exactly, 1/3 to rounding.
    for (double f : frequency_scale_factors(ContextScaling::None, scaling(128, 10000, 8)))
        EXPECT_EQ(f, 1.0);
    for (double f : frequency_scale_factors(ContextScaling::Linear, scaling(128, 10000, 8)))
        EXPECT_EQ(f, 0.125);
    for (double f : frequency_scale_factors(ContextScaling::Linear, scaling(128, 10000, 3)))
        EXPECT_DOUBLE_EQ(f, 1.0 / 3);
}

// base' = base·s^(d/(d−2)): pair i's factor is s^(−(d/(d−2))·2i/d) = s^(−2i/(d−2)); pair 0 is
// 1, the last (i = d/2 − 1) is s^(−1) = 1/8; pair 32 at d 128 is 8^(−64/126) ≈ 0.347766.
TEST(ContextScaling, NtkAwareKeepsPairZeroAndInterpolatesTheLast) {
    const auto f = frequency_scale_factors(ContextScaling::NtkAware, scaling(128, 10000, 8));
    const auto theta = scaled_frequencies(ContextScaling::NtkAware, scaling(128, 10000, 8));
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
// r_49 = 1.129 → γ = 0.00416; r_50 = 0.978 → 1/8; r_63 = 0.1506 → 1/8.
TEST(ContextScaling, YarnRampsBetweenAlphaAndBeta) {
    const auto f = frequency_scale_factors(ContextScaling::Yarn, scaling(128, 10000, 8));
    ASSERT_EQ(f.size(), 64u);
    for (int i = 0; i < 64; ++i) {
        if (i <= 25 || i >= 50) {
            EXPECT_NEAR(f[i], i <= 25 ? 1.0 : 0.125, 1e-15) << i;
        }
    }
    EXPECT_NEAR(f[40], 0.21314832011773, 1e-12);
    for (int i = 0; i < 64; ++i) {
        const long double r = 8192 * reference::omega(i, 128, 10000) / (2 * acosl(-1.0L));
        const long double gamma = r < 1 ? 0 : r > 32 ? 1 : (r - 1) / 31;
        EXPECT_NEAR(f[i], static_cast<double>((1 - gamma) / 8 + gamma), 1e-12) << i;
    }
    EXPECT_NEAR(attention_temperature_factor(ContextScaling::Yarn, 8), 1.2079441541679836,
                1e-15); // 0.1·ln 8 + 1
    EXPECT_NEAR(attention_temperature_factor(ContextScaling::Yarn, 1), 1.0, 1e-15);
    for (ContextScaling m : {ContextScaling::None, ContextScaling::Linear, ContextScaling::NtkAware,
                             ContextScaling::Llama3})
        EXPECT_EQ(attention_temperature_factor(m, 8), 1.0);
}

// Meta's apply_scaling, d 128, base 5·10⁵, factor 8, L 8192, low 1, high 4: λ_i = 2π/θ_i.
// λ_0 = 2π and λ_28 = 1956.5 < 2048 → kept; λ_35 = 8218.7 and λ_63 = 2.56e6 > 8192 → 1/8;
// λ_30 = 2948.3: smooth = (8192/2948.3 − 1)/3 = 0.5927, factor ≈ 0.643743.
TEST(ContextScaling, Llama3KeepsHighAndInterpolatesLowFrequencies) {
    const auto f = frequency_scale_factors(ContextScaling::Llama3, scaling(128, 500000, 8));
    ASSERT_EQ(f.size(), 64u);
    for (int i : {0, 28})
        EXPECT_NEAR(f[i], 1.0, 1e-15) << i;
    for (int i : {35, 63})
        EXPECT_NEAR(f[i], 0.125, 1e-15) << i;
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

TEST(ContextScaling, FactorOneChangesNothing) {
    for (ContextScaling m : kAllScalings)
        for (double f : frequency_scale_factors(m, scaling(64, 10000, 1)))
            EXPECT_NEAR(f, 1.0, 1e-15) << context_scaling_id(m);
}

// The file's contract covers every option, whichever method reads it.
TEST(ContextScaling, BadOptionsThrow) {
    using Change = void (*)(ContextScalingOptions&);
    const Change changes[] = {
        [](ContextScalingOptions& o) { o.factor = 0.5; },
        [](ContextScalingOptions& o) { o.factor = 1001; },
        [](ContextScalingOptions& o) { o.factor = kNan; },
        [](ContextScalingOptions& o) { o.d = 2; },
        [](ContextScalingOptions& o) { o.d = 7; },
        [](ContextScalingOptions& o) { o.base = 1; },
        [](ContextScalingOptions& o) { o.original_context = 0; },
        [](ContextScalingOptions& o) { o.yarn_alpha = 32; }, // α = β
        [](ContextScalingOptions& o) { o.yarn_alpha = 0; },
        [](ContextScalingOptions& o) { o.yarn_beta = kNan; },
        [](ContextScalingOptions& o) { o.llama_low_freq_factor = 4; }, // low = high
        [](ContextScalingOptions& o) { o.llama_low_freq_factor = 0; },
    };
    for (std::size_t c = 0; c < std::size(changes); ++c) {
        ContextScalingOptions o;
        changes[c](o);
        EXPECT_THROW(validate_context_scaling(o), InvalidArgument) << c;
        for (ContextScaling m : kAllScalings) {
            EXPECT_THROW(scaled_frequencies(m, o), InvalidArgument) << c;
            EXPECT_THROW(frequency_scale_factors(m, o), InvalidArgument) << c;
        }
    }
    EXPECT_NO_THROW(validate_context_scaling(ContextScalingOptions{}));
    EXPECT_NO_THROW(validate_context_scaling(scaling(4, 10000, 1000)));
    EXPECT_THROW(attention_temperature_factor(ContextScaling::Yarn, 0.5), InvalidArgument);
    EXPECT_THROW(attention_temperature_factor(ContextScaling::Yarn, kNan), InvalidArgument);
}
