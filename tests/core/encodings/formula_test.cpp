// Core pieces of the "inside the formula" panels: the calculator's steps, the rotation residual
// in double, the shift curves, and the float32 recipes' errors. Expected values come from the
// published articles, the measured numbers docs/panels.md states, or the long double reference.
#include "pelab/encodings/precision.h"
#include "pelab/encodings/rotation.h"
#include "pelab/encodings/sinusoidal.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace pelab;

// The published course's calculator at d 512: dim 0 of pos 1 is sin(1) = 0.841471, dim 1 cos(1) =
// 0.540302; every step of dim 2i at pos 10 agrees with the formula written out here.
TEST(Calculator, StepsFollowTheFormula) {
    const PeStep first = pe_step(1, 0, 512, 10000);
    EXPECT_NEAR(first.value, 0.841471, 1e-6);
    EXPECT_FALSE(first.is_cos);
    EXPECT_NEAR(pe_step(1, 1, 512, 10000).value, 0.540302, 1e-6);
    for (int dim : {0, 1, 2, 7, 100, 511}) {
        const PeStep s = pe_step(10, dim, 512, 10000);
        const int i = dim / 2;
        EXPECT_EQ(s.pair_index, i);
        EXPECT_DOUBLE_EQ(s.exponent, 2.0 * i / 512);
        EXPECT_NEAR(s.denominator, std::pow(10000.0, 2.0 * i / 512), 1e-9 * s.denominator);
        EXPECT_NEAR(s.angle, 10.0 / s.denominator, 1e-12);
        EXPECT_NEAR(s.angle_mod_2pi, std::fmod(10.0 / s.denominator, 2 * M_PI), 1e-12);
        EXPECT_GE(s.angle_mod_2pi, 0.0);
        EXPECT_LT(s.angle_mod_2pi, 2 * M_PI);
        EXPECT_EQ(s.is_cos, dim % 2 == 1);
        EXPECT_NEAR(s.value, static_cast<double>(reference::pe(10, dim, 512, 10000)), 1e-15);
    }
}

// PE(pos + k) = R_k·PE(pos) holds to double rounding (≈ 1e-16), for every pair.
TEST(Rotation, ResidualInDoubleIsRoundingOnly) {
    EXPECT_LT(rotation_residual_double(3, 5, 512, 10000), 1e-14);
    EXPECT_LT(rotation_residual_double(100, -37, 64, 10000), 1e-13);
    // float32 storage is ≈ 1e-7: the two residuals are different things.
    EXPECT_GT(rotation_residual(3, 5, 512, 10000), 1e-9);
}

// PE(p)·PE(p + k) by explicit dot products: the same function of k from every start p (within
// rounding), and equal to Σ_i cos(ω_i k) computed here in long double.
TEST(Rotation, ShiftCurvesCoincideForEveryStart) {
    const int d = 64;
    std::vector<std::vector<double>> curves;
    for (double p : {20.0, 137.0, 5000.0})
        curves.push_back(shift_dot_products(p, -20, 20, d, 10000));
    for (int index = 0; index <= 40; ++index) {
        const int k = index - 20;
        long double expected = 0;
        for (int i = 0; i < d / 2; ++i)
            expected += cosl(k * reference::omega(i, d, 10000));
        for (const auto& curve : curves)
            EXPECT_NEAR(curve[index], static_cast<double>(expected), 1e-11) << k;
    }
    EXPECT_THROW(shift_dot_products(5, -6, 3, d, 10000), std::exception); // position −1
    EXPECT_THROW(shift_dot_products(5, 3, 2, d, 10000), std::exception);
}

// The measured errors docs/panels.md states at d 512 (float32 code: ≈ 1.2e-4 at 2 048, ≈ 5e-3 at
// 10⁵, ≈ 0.06 at 10⁶; pelab ≈ 3e-8), each within a factor of 2.5.
TEST(Precision, Float32RecipeErrorsMatchTheKnownValues) {
    const struct { double pos, expected; } known[] = {{2048, 1.2e-4}, {1e5, 5e-3}, {1e6, 0.06}};
    for (const auto& k : known) {
        const double error = recipe_max_error(PeRecipe::Float32Code, k.pos, 512, 10000);
        EXPECT_GT(error, k.expected / 2.5) << k.pos;
        EXPECT_LT(error, k.expected * 2.5) << k.pos;
        // Double sin/cos of the float32 angle is no better: the angle itself is off.
        const double half = recipe_max_error(PeRecipe::Float32AngleDouble, k.pos, 512, 10000);
        EXPECT_GT(half, k.expected / 2.5) << k.pos;
        EXPECT_LT(recipe_max_error(PeRecipe::PelabCore, k.pos, 512, 10000), 6e-8) << k.pos;
    }
}

// The float32 code's angle error in positions. Estimated by hand: the slowest pair's exp
// argument 2i·ln(10000)/512 ≈ 9.17 is rounded to float32 (2⁻²⁴ ≈ 6e-8 relative, 5.5e-7
// absolute), so its div_term is off by ≈ 5.5e-7 relative and the angle at pos p by p·5.5e-7
// positions: ≈ 0.55 at 10⁶, ≈ 0.055 at 10⁵ (within a factor 2 either way, rounding luck), and
// larger in the slow pairs than in pair 0. Exact at d 2 (ω = 1, pos a float32 integer).
TEST(Precision, Float32PositionShift) {
    int pair = -1;
    const double at_1e6 = float32_position_shift(1e6, 512, 10000, &pair);
    EXPECT_GT(at_1e6, 0.55 / 2);
    EXPECT_LT(at_1e6, 0.55 * 2);
    EXPECT_GT(pair, 128) << "the slow half";
    const double at_1e5 = float32_position_shift(1e5, 512, 10000);
    EXPECT_GT(at_1e5, 0.055 / 2);
    EXPECT_LT(at_1e5, 0.055 * 2);
    EXPECT_EQ(float32_position_shift(123456, 2, 10000), 0.0);
}
