// RoPE's relatives (pelab/scaling/rope_family.h) against their definitions written out here in long
// double: the frequencies each plan gives its pairs, xPos's ζ_i and its decayed score, and the
// positions where xPos's per-position scales leave float32.
#include "pelab/base/error.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/encodings/precision.h"
#include "pelab/encodings/sinusoidal.h"
#include "pelab/scaling/rope_family.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace pelab;

namespace {

long double Theta(int i, int width, long double base) {
    return powl(base, -2.0L * i / width);
}

std::vector<double> Vector(int d, double start) {
    std::vector<double> v(static_cast<std::size_t>(d));
    for (int j = 0; j < d; ++j)
        v[static_cast<std::size_t>(j)] = std::sin(start + 1.7 * j);
    return v;
}

// Σ over pairs of ζ_i^(Δ/B) · (pair i of q turned by m·θ_i) · (pair i of k turned by n·θ_i).
long double Score(const std::vector<double>& q, const std::vector<double>& k, long double m,
                  long double n, const std::vector<long double>& theta,
                  const std::vector<long double>& zeta, long double scale_base) {
    long double sum = 0;
    for (std::size_t i = 0; i < theta.size(); ++i) {
        const long double qa = q[2 * i] * cosl(m * theta[i]) - q[2 * i + 1] * sinl(m * theta[i]);
        const long double qb = q[2 * i] * sinl(m * theta[i]) + q[2 * i + 1] * cosl(m * theta[i]);
        const long double ka = k[2 * i] * cosl(n * theta[i]) - k[2 * i + 1] * sinl(n * theta[i]);
        const long double kb = k[2 * i] * sinl(n * theta[i]) + k[2 * i + 1] * cosl(n * theta[i]);
        sum += powl(zeta[i], (m - n) / scale_base) * (qa * ka + qb * kb);
    }
    return sum;
}

} // namespace

TEST(RopeFamily, PlansTurnThePairsTheirDefinitionsSay) {
    const RopePairPlan rope = rope_plan(64, 10000);
    ASSERT_EQ(rope.pairs(), 32);
    for (int i = 0; i < 32; ++i)
        EXPECT_NEAR(rope.theta[i], static_cast<double>(Theta(i, 64, 10000)), 1e-15);
    EXPECT_EQ(rope.turned_pairs(), 32);
    // GPT-NeoX's rotary_pct 0.25 at head width 128: 32 rotary dimensions, 16 pairs turning at
    // base^(−2i/32); Phi's 0.4 at 80: 32 again.
    const RopePairPlan neox = partial_rotary_plan(128, 10000, 0.25);
    ASSERT_EQ(neox.pairs(), 64);
    EXPECT_EQ(neox.turned_pairs(), 16);
    for (int i = 0; i < 64; ++i)
        EXPECT_NEAR(neox.theta[i], i < 16 ? static_cast<double>(Theta(i, 32, 10000)) : 0.0, 1e-15)
            << i;
    EXPECT_EQ(partial_rotary_plan(80, 10000, 0.4).turned_pairs(), 16);
    EXPECT_EQ(partial_rotary_plan(8, 10000, 0.1).turned_pairs(), 0); // 0.8 dims: none turn
    // p-RoPE keeps RoPE's θ_i for the fastest ⌊p·d/2⌋ pairs.
    const RopePairPlan p_rope = p_rope_plan(64, 10000, 0.75);
    EXPECT_EQ(p_rope.turned_pairs(), 24);
    for (int i = 0; i < 32; ++i)
        EXPECT_NEAR(p_rope.theta[i], i < 24 ? static_cast<double>(Theta(i, 64, 10000)) : 0.0,
                    1e-15);
    EXPECT_EQ(p_rope_plan(64, 10000, 1).turned_pairs(), 32);
    EXPECT_EQ(p_rope_plan(64, 10000, 0).turned_pairs(), 0);
    EXPECT_THROW(p_rope_plan(64, 10000, 1.5), InvalidArgument);
    EXPECT_THROW(partial_rotary_plan(64, 10000, -0.1), InvalidArgument);
}

TEST(RopeFamily, XposZetaAndItsDecayedScore) {
    // ζ_i = (2i/d + γ)/(1 + γ): at d 8, γ 0.4: 0.4/1.4, 0.65/1.4, 0.9/1.4, 1.15/1.4.
    const std::vector<double> zeta = xpos_zeta(8, 0.4);
    const double expected[] = {0.4 / 1.4, 0.65 / 1.4, 0.9 / 1.4, 1.15 / 1.4};
    ASSERT_EQ(zeta.size(), 4u);
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(zeta[i], expected[i], 1e-15);
    const RopePairPlan plan = xpos_plan(16, 10000, XposOptions{});
    std::vector<long double> theta, zeta16;
    for (int i = 0; i < 8; ++i) {
        theta.push_back(Theta(i, 16, 10000));
        zeta16.push_back((2.0L * i / 16 + 0.4L) / 1.4L);
    }
    const std::vector<double> q = Vector(16, 0.3), k = Vector(16, 2.1);
    for (const auto& [m, n] : {std::pair{40.0, 12.0}, std::pair{3000.0, 1000.0},
                               std::pair{12.0, 12.0}, std::pair{5.0, 700.0}}) {
        const long double expected_score = Score(q, k, m, n, theta, zeta16, 512);
        EXPECT_NEAR(plan_score(q, k, m, n, plan), static_cast<double>(expected_score), 1e-12);
        EXPECT_NEAR(plan_score_relative(q, k, m - n, plan), static_cast<double>(expected_score),
                    1e-12)
            << m << ", " << n;
    }
    // Without decay the plan is RoPE: the score depends on m − n alone, and keeps its size.
    const RopePairPlan rope = rope_plan(16, 10000);
    EXPECT_NEAR(plan_score_relative(q, k, 2000, rope), plan_score(q, k, 2040, 40, rope), 1e-11);
    EXPECT_LT(std::abs(plan_score_relative(q, k, 2000, plan)),
              std::abs(plan_score_relative(q, k, 2000, rope)));
}

// Where q's scale ζ_0^(p/B) leaves float32's normal range and k's ζ_0^(−p/B) its largest value,
// found here by walking p one by one in long double.
TEST(RopeFamily, XposFloat32LimitsAreWhereTheScalesLeaveFloat) {
    // γ 1 puts ζ₀ at exactly 1/2: k's scale 2^(p/B) passes FLT_MAX = (2 − 2^−23)·2^127 at
    // p = 128·B, where a float log of FLT_MAX (rounded up) said one position later.
    for (const double gamma : {0.4, 0.1, 2.0, 1.0})
        for (const double scale_base : {512.0, 64.0}) {
            const XposFloat32Limits limits =
                xpos_float32_limits(64, XposOptions{gamma, scale_base});
            const long double zeta0 = gamma / (1.0L + gamma);
            long double p = 0;
            while (powl(zeta0, p / scale_base) >= FLT_MIN)
                ++p;
            EXPECT_EQ(limits.q_subnormal_from, static_cast<double>(p))
                << gamma << " " << scale_base;
            p = 0;
            while (powl(zeta0, -p / scale_base) <= FLT_MAX)
                ++p;
            EXPECT_EQ(limits.k_overflow_from, static_cast<double>(p)) << gamma << " " << scale_base;
        }
    // The paper's settings: q's scale is subnormal from position 35 695, k's infinite from
    // 36 261 (B·ln(FLT_MIN)/ln(2/7) and B·ln(FLT_MAX)/ln(7/2)).
    const XposFloat32Limits paper = xpos_float32_limits(128, XposOptions{});
    EXPECT_NEAR(paper.q_subnormal_from, 512 * std::log(FLT_MIN) / std::log(2.0 / 7.0), 1.0);
    EXPECT_NEAR(paper.k_overflow_from, 512 * std::log(FLT_MAX) / std::log(7.0 / 2.0), 1.0);
}

// Angles stored in bfloat16, float16 and float32 (pelab/encodings/precision.h), against rounding
// done another way, on a float's bit pattern: bfloat16 its top 16 bits, float16 its top 10 fraction
// bits (nearest, ties to even, subnormals and infinity as IEEE 754 says), float32 by a cast. The
// first position whose neighbour gets the same stored angle is found here by walking p from 0.
namespace {

double Bfloat16(double x) {
    const float f = static_cast<float>(x);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    bits += 0x7FFF + ((bits >> 16) & 1); // to nearest, ties to even
    bits &= 0xFFFF0000u;
    float out = 0;
    std::memcpy(&out, &bits, sizeof out);
    return out;
}

// float16 from a float's bit pattern: 10 fraction bits kept (nearest, ties to even), past
// 65 504 infinite; below 2⁻¹⁴ the step is 2⁻²⁴, rounded by float addition at that step.
double Float16(double x) {
    const float f = static_cast<float>(x);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    const std::uint32_t sign = bits & 0x80000000u;
    std::uint32_t magnitude = bits ^ sign;
    float out = 0;
    if (magnitude < 0x38800000u) { // below 2^-14
        float small = 0;
        std::memcpy(&small, &magnitude, sizeof small);
        volatile float shifted = small + 0.5f; // the float step at 0.5 is 2^-24
        out = shifted - 0.5f;
    } else {
        magnitude += 0x0FFFu + ((magnitude >> 13) & 1u);
        magnitude &= ~0x1FFFu;
        if (magnitude > 0x477FE000u) // past 65 504
            out = INFINITY;
        else
            std::memcpy(&out, &magnitude, sizeof out);
    }
    return sign ? -static_cast<double>(out) : static_cast<double>(out);
}

template <typename Round> long long FirstCollision(double theta, Round round, long long limit) {
    for (long long p = 0; p < limit; ++p)
        if (round(static_cast<double>(p) * theta) == round(static_cast<double>(p + 1) * theta))
            return p;
    return -1;
}

} // namespace

TEST(ReducedPrecision, NeighboursShareAnAngleWhereTheRoundingSays) {
    for (const double x : {0.1, 1.0 / 3, 255.5, 257.0, 1e-5, 3.14159, 65504.0, 70000.0}) {
        EXPECT_EQ(round_to_format(x, kFloat16), Float16(x)) << x;
        EXPECT_EQ(round_to_format(x, kBfloat16), Bfloat16(x)) << x;
        EXPECT_EQ(round_to_format(x, kFloat32), static_cast<double>(static_cast<float>(x))) << x;
    }
    for (const double base : {10000.0, 500000.0})
        for (const int d : {2, 64, 512})
            for (const double theta : {frequencies(d, base).front(), frequencies(d, base).back()}) {
                EXPECT_EQ(first_neighbour_collision(theta, kBfloat16, 1000000),
                          FirstCollision(theta, Bfloat16, 1000000))
                    << d << " " << base << " " << theta;
                EXPECT_EQ(first_neighbour_collision(theta, kFloat16, 1000000),
                          FirstCollision(theta, Float16, 1000000))
                    << d << " " << base << " " << theta;
            }
    // float32: no pair's neighbours collide below 10⁶ (checked by walking the fastest and the
    // slowest pair of d 64 at base 10 000).
    for (const double theta : {frequencies(64, 10000).front(), frequencies(64, 10000).back()}) {
        EXPECT_EQ(first_neighbour_collision(theta, kFloat32, 1000000), -1);
        EXPECT_EQ(FirstCollision(
                      theta, [](double x) { return static_cast<double>(static_cast<float>(x)); },
                      1000000),
                  -1);
    }
    // Positions themselves: 257 is not a bfloat16 number (it rounds to 256), 2 049 not a
    // float16 one.
    EXPECT_EQ(first_position_collision(kBfloat16), 256);
    EXPECT_EQ(Bfloat16(257), 256.0);
    EXPECT_EQ(Bfloat16(255), 255.0);
    EXPECT_EQ(first_position_collision(kFloat16), 2048);
    EXPECT_EQ(Float16(2049), 2048.0);
}

// The first token's share under even causal attention, 1/(p + 1), stored in each format: the
// first position whose neighbour gets the same stored share, found here by walking p from 0
// with the bit-level roundings above (float32: a cast, p from 0 to 2^25).
TEST(ReducedPrecision, EvenSharesOfNeighboursCollideWhereTheRoundingSays) {
    const auto walk = [](auto round) {
        for (long long p = 0;; ++p)
            if (round(1.0 / static_cast<double>(p + 1)) == round(1.0 / static_cast<double>(p + 2)))
                return p;
    };
    EXPECT_EQ(first_share_collision(kBfloat16), walk(Bfloat16));
    EXPECT_EQ(first_share_collision(kFloat16), walk(Float16));
    EXPECT_EQ(first_share_collision(kFloat32),
              walk([](double x) { return static_cast<double>(static_cast<float>(x)); }));
    // Within the bounds the header gives: no collision while p + 2 ≤ 2^(bits − 1).
    for (const FloatFormat& format : {kBfloat16, kFloat16, kFloat32}) {
        const long long p = first_share_collision(format);
        EXPECT_GT(p + 2, 1LL << (format.significand_bits - 1)) << format.name;
        EXPECT_LE(p, 1LL << (format.significand_bits + 1)) << format.name;
    }
}

// CoPE's positions: the gates summed from each key to the query (the last), written out here.
TEST(CopePositions, AreTheGatesSummedBackFromTheQuery) {
    const std::vector<double> positions = cope_positions({0.5, 1.0, 0.0, 0.25});
    ASSERT_EQ(positions.size(), 4u);
    EXPECT_EQ(positions[3], 0.25);
    EXPECT_EQ(positions[2], 0.25);
    EXPECT_EQ(positions[1], 1.25);
    EXPECT_EQ(positions[0], 1.75);
    EXPECT_THROW(cope_positions({}), InvalidArgument);
    EXPECT_THROW(cope_positions({0.5, 1.5}), InvalidArgument);
    EXPECT_THROW(cope_positions({NAN}), InvalidArgument);
}
