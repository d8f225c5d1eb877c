// Facts behind the Waves, Calculator and Worked example panels, and the accuracy contract of
// pelab/encodings/sinusoidal.h.
#include "pelab/encodings/sinusoidal.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace pelab;

// The published course's pair table at d = 512, base 10000, to the digits it is printed with.
TEST(Sinusoidal, PairTableMatchesDocument001) {
    EXPECT_NEAR(denominator(0, 512, 10000), 1.0, 1e-12);
    EXPECT_NEAR(wavelength(0, 512, 10000), 6.28, 0.005);
    EXPECT_NEAR(denominator(1, 512, 10000), 1.037, 0.0005);
    EXPECT_NEAR(wavelength(1, 512, 10000), 6.51, 0.005);
    EXPECT_NEAR(denominator(50, 512, 10000), 6.04, 0.005);
    EXPECT_NEAR(wavelength(50, 512, 10000), 38.0, 0.05);
    EXPECT_NEAR(denominator(255, 512, 10000), 9646.6, 0.05);
    EXPECT_NEAR(wavelength(255, 512, 10000), 60611, 1.0);
}

TEST(Sinusoidal, ExponentSlidesFromZeroTowardsOne) {
    EXPECT_DOUBLE_EQ(exponent(0, 512), 0.0);
    EXPECT_DOUBLE_EQ(exponent(128, 512), 0.5);
    EXPECT_DOUBLE_EQ(exponent(255, 512), 510.0 / 512.0);
}

TEST(Sinusoidal, OmegaIsReciprocalOfDenominator) {
    for (int pair = 0; pair < 256; pair += 17)
        EXPECT_NEAR(omega(pair, 512, 10000) * denominator(pair, 512, 10000), 1.0, 1e-14);
}

// The published two-position comparison's "freq" column: dims 0, 2, 4, 6 at d = 128 are 1.000,
// 0.866, 0.750, 0.649.
TEST(Sinusoidal, FrequencyColumnMatchesDocument000) {
    const std::vector<double> w = frequencies(128, 10000);
    ASSERT_EQ(w.size(), 64u);
    EXPECT_NEAR(w[0], 1.000, 0.0005);
    EXPECT_NEAR(w[1], 0.866, 0.0005);
    EXPECT_NEAR(w[2], 0.750, 0.0005);
    EXPECT_NEAR(w[3], 0.649, 0.0005);
    EXPECT_NEAR(w[31], 0.012, 0.0005); // dim 62
}

TEST(Sinusoidal, FrequenciesDecreaseStrictly) {
    const std::vector<double> w = frequencies(512, 10000);
    for (std::size_t i = 1; i < w.size(); ++i)
        EXPECT_LT(w[i], w[i - 1]);
}

// The published worked example ("The cat sat") at d_model = 4.
TEST(Sinusoidal, WorkedExampleD4MatchesDocument002) {
    const std::vector<float> pe0 = pe_vector(0, 4, 10000);
    const std::vector<float> pe1 = pe_vector(1, 4, 10000);
    const std::vector<float> pe2 = pe_vector(2, 4, 10000);
    const std::vector<float> pe3 = pe_vector(3, 4, 10000);
    const float expected0[] = {0.000f, 1.000f, 0.000f, 1.000f};
    const float expected1[] = {0.841f, 0.540f, 0.010f, 1.000f};
    const float expected2[] = {0.909f, -0.416f, 0.020f, 1.000f};
    const float expected3[] = {0.141f, -0.990f, 0.030f, 1.000f};
    for (int dim = 0; dim < 4; ++dim) {
        EXPECT_NEAR(pe0[dim], expected0[dim], 0.0005) << "pos 0 dim " << dim;
        EXPECT_NEAR(pe1[dim], expected1[dim], 0.0005) << "pos 1 dim " << dim;
        EXPECT_NEAR(pe2[dim], expected2[dim], 0.0005) << "pos 2 dim " << dim;
        EXPECT_NEAR(pe3[dim], expected3[dim], 0.0005) << "pos 3 dim " << dim;
    }
}

TEST(Sinusoidal, ValuesAreBoundedByOne) {
    const auto m = pe_matrix(4096, 64, 10000);
    for (float v : m) {
        EXPECT_LE(v, 1.0f);
        EXPECT_GE(v, -1.0f);
    }
}

TEST(Sinusoidal, EveryPairLiesOnTheUnitCircle) {
    for (double pos : {0.0, 1.0, 17.5, 1234.0, 99999.0}) {
        const std::vector<double> v = pe_vector_double(pos, 256, 10000);
        for (int i = 0; i < 128; ++i)
            EXPECT_NEAR(v[2 * i] * v[2 * i] + v[2 * i + 1] * v[2 * i + 1], 1.0, 1e-14);
    }
}

TEST(Sinusoidal, PeValueAgreesWithLongDoubleReference) {
    for (int dim : {0, 1, 2, 101, 510, 511})
        for (double pos : {0.0, 3.0, 50.0, 2047.0, 123456.0})
            EXPECT_NEAR(pe_value(pos, dim, 512, 10000),
                        static_cast<double>(reference::pe(pos, dim, 512, 10000)), 1e-9);
}

// The fast recurrence must keep every value within 1e-6 of the exact value, and in fact within
// one float32 step (1.2e-7, the bound pelab/encodings/sinusoidal.h states), at every position of a
// 2048 x 512 and an 8192 x 64 matrix.
TEST(Sinusoidal, MatrixWithinOneMillionthOfLongDoubleEverywhere) {
    for (auto [rows, d] : {std::pair{2048, 512}, std::pair{8192, 64}}) {
        const auto m = pe_matrix(rows, d, 10000);
        long double worst = 0;
        for (int pos = 0; pos < rows; ++pos)
            for (int dim = 0; dim < d; ++dim)
                worst = std::max(worst, fabsl(m[static_cast<std::size_t>(pos) * d + dim] -
                                              reference::pe(pos, dim, d, 10000)));
        EXPECT_LT(worst, 1e-6L) << rows << " x " << d;
        EXPECT_LT(worst, 1.2e-7L) << "float rounding only is expected";
    }
}

// Matrices larger than the cache, in both layouts, widths that are and are not multiples of 4:
// exact to float rounding at anchors, between them and at the last rows.
TEST(Sinusoidal, LargeMatricesAreExactInBothLayouts) {
    for (auto [rows, d] : {std::pair{4100, 1024}, std::pair{3001, 1022}})
        for (const Layout layout : {Layout::Interleaved, Layout::Concatenated}) {
            const auto m = pe_matrix(rows, d, 10000, layout);
            long double worst = 0;
            for (int pos : {0, 1, 7, 8, 255, 256, 2049, rows - 2, rows - 1})
                for (int dim = 0; dim < d; ++dim) {
                    const int pair = layout == Layout::Interleaved ? dim / 2 : dim % (d / 2);
                    const bool is_cos = layout == Layout::Interleaved ? dim % 2 : dim >= d / 2;
                    worst = std::max(worst, fabsl(m[static_cast<std::size_t>(pos) * d + dim] -
                                                  reference::pe(pos, 2 * pair + is_cos, d, 10000)));
                }
            EXPECT_LT(worst, 1.2e-7L) << rows << " x " << d;
        }
}

// Large matrices are shared between threads in blocks of rows: every row of every block must
// be written, by whichever thread (pair 0 and the slowest pair checked on every row against
// sin/cos in long double; an unwritten block would hold zeros or stale values).
TEST(Sinusoidal, EveryRowOfALargeMatrixIsWritten) {
    const int rows = 4100, d = 1024; // 16.8 MB: the threaded path
    for (const Layout layout : {Layout::Interleaved, Layout::Concatenated}) {
        FloatArray m(static_cast<std::size_t>(rows) * d);
        for (std::size_t k = 0; k < m.size(); ++k)
            m[k] = 7.0f; // not a value any PE takes
        pe_matrix_into(rows, d, 10000, layout, m.data());
        const int last = d / 2 - 1;
        const long double slow = powl(10000.0L, -2.0L * last / d);
        for (int pos = 0; pos < rows; ++pos) {
            const float* row = m.data() + static_cast<std::size_t>(pos) * d;
            const float sin0 = row[0], cos0 = layout == Layout::Interleaved ? row[1] : row[d / 2];
            const float sin_last = layout == Layout::Interleaved ? row[2 * last] : row[last];
            ASSERT_NEAR(sin0, sinl(pos), 1.2e-7L) << pos;
            ASSERT_NEAR(cos0, cosl(pos), 1.2e-7L) << pos;
            ASSERT_NEAR(sin_last, sinl(pos * slow), 1.2e-7L) << pos;
        }
    }
}

TEST(Sinusoidal, MatrixRowsEqualVectors) {
    const auto m = pe_matrix(700, 96, 500);
    for (int pos : {0, 1, 255, 256, 257, 511, 512, 699}) {
        const std::vector<float> v = pe_vector(pos, 96, 500);
        for (int dim = 0; dim < 96; ++dim)
            EXPECT_NEAR(m[static_cast<std::size_t>(pos) * 96 + dim], v[dim], 2e-7f);
    }
}

TEST(Sinusoidal, ConcatenatedLayoutPutsSinHalfThenCosHalf) {
    const auto interleaved = pe_matrix(300, 10, 10000, Layout::Interleaved);
    const auto concatenated = pe_matrix(300, 10, 10000, Layout::Concatenated);
    for (int pos = 0; pos < 300; ++pos)
        for (int i = 0; i < 5; ++i) {
            EXPECT_EQ(concatenated[pos * 10 + i], interleaved[pos * 10 + 2 * i]);
            EXPECT_EQ(concatenated[pos * 10 + 5 + i], interleaved[pos * 10 + 2 * i + 1]);
        }
}

// At large positions the angle must be formed in double: float32 angle code (NumPy's and
// PyTorch's usual recipe) is off by ~1e-4 at 2048 and by far more at 10^6 (docs/performance.md).
TEST(Sinusoidal, AccurateAtLargePositionsWhereFloatAnglesFail) {
    float worst_float_angle_at_2048 = 0;
    for (double pos : {2047.0, 100000.0, 1000000.0, 999999999.0}) {
        const std::vector<float> v = pe_vector(pos, 512, 10000);
        for (int dim = 0; dim < 512; ++dim) {
            const long double exact = reference::pe(pos, dim, 512, 10000);
            EXPECT_LT(fabsl(v[dim] - exact), 1e-6L) << "pos " << pos << " dim " << dim;
            if (pos == 2047.0) {
                const float w =
                    std::exp(static_cast<float>(dim - dim % 2) * -(std::log(10000.0f) / 512.0f));
                const float angle = static_cast<float>(pos) * w;
                const float naive = dim % 2 == 0 ? std::sin(angle) : std::cos(angle);
                worst_float_angle_at_2048 =
                    std::max(worst_float_angle_at_2048, static_cast<float>(fabsl(naive - exact)));
            }
        }
    }
    EXPECT_GT(worst_float_angle_at_2048, 1e-5f) << "the float32-angle recipe should be visibly off";
}

TEST(Sinusoidal, OtherBasesFollowTheFormula) {
    for (double base : {1.5, 100.0, 500000.0}) {
        EXPECT_NEAR(omega(7, 64, base), static_cast<double>(reference::omega(7, 64, base)), 1e-15);
        EXPECT_NEAR(pe_value(42, 15, 64, base),
                    static_cast<double>(reference::pe(42, 15, 64, base)), 1e-12);
    }
}
