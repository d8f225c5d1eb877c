// Facts behind the Compare and Rotation panels: the two-position comparison and the rotation
// property.
#include "pelab/base/error.h"
#include "pelab/encodings/rotation.h"
#include "pelab/encodings/similarity.h"
#include "pelab/encodings/sinusoidal.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace pelab;

// The published two-position comparison, pos 3 vs pos 50 at d_model = 128 (dot product 30.59).
TEST(Similarity, ThreeVersusFiftyMatchesDocument000) {
    const PositionComparison c = compare_positions(3, 50, 128, 10000);
    EXPECT_DOUBLE_EQ(c.distance, 47.0);
    EXPECT_NEAR(c.dot_product, 30.59, 0.005);
    EXPECT_STREQ(similarity_label(c.cosine_similarity), "low");
}

// The Δ column of the same table: |PE(3, dim) − PE(50, dim)| for dims 0, 2, …, 62.
TEST(Similarity, DeltaColumnMatchesDocument000) {
    const double expected[] = {0.40, 1.15, 0.98, 0.06, 0.84, 1.70, 0.17, 1.45, 0.92, 0.17, 1.30,
                               1.32, 0.00, 0.54, 0.01, 0.83, 1.25, 1.18, 0.79, 0.30, 0.16, 0.50,
                               0.73, 0.86, 0.91, 0.90, 0.86, 0.79, 0.72, 0.65, 0.58, 0.51};
    const std::vector<float> a = pe_vector(3, 128, 10000), b = pe_vector(50, 128, 10000);
    for (int k = 0; k < 32; ++k)
        EXPECT_NEAR(std::fabs(a[2 * k] - b[2 * k]), expected[k], 0.005 + 1e-6) << "dim " << 2 * k;
}

TEST(Similarity, NormsAreSqrtOfPairCount) {
    const PositionComparison c = compare_positions(7, 1234, 512, 10000);
    EXPECT_NEAR(c.norm_a, 16.0, 1e-12);
    EXPECT_NEAR(c.norm_b, 16.0, 1e-12);
    EXPECT_NEAR(c.cosine_similarity, c.dot_product / 256.0, 1e-12);
}

TEST(Similarity, IdenticalPositionsAreMaximallySimilar) {
    const PositionComparison c = compare_positions(42, 42, 64, 10000);
    EXPECT_NEAR(c.dot_product, 32.0, 1e-12);
    EXPECT_NEAR(c.cosine_similarity, 1.0, 1e-14);
    EXPECT_NEAR(c.euclidean_distance, 0.0, 1e-12);
    EXPECT_STREQ(similarity_label(c.cosine_similarity), "very high");
}

TEST(Similarity, EuclideanDistanceFollowsFromDotProduct) {
    // ‖a − b‖² = ‖a‖² + ‖b‖² − 2 a·b = d − 2 a·b for unit pairs.
    const PositionComparison c = compare_positions(3, 150, 128, 10000);
    EXPECT_NEAR(c.euclidean_distance * c.euclidean_distance, 128 - 2 * c.dot_product, 1e-9);
}

TEST(Similarity, PairContributionsSumToDotProduct) {
    const std::vector<double> parts = pair_contributions(3, 50, 128, 10000);
    ASSERT_EQ(parts.size(), 64u);
    double sum = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        sum += parts[i];
        EXPECT_NEAR(
            parts[i],
            static_cast<double>(cosl(reference::omega(static_cast<int>(i), 128, 10000) * 47.0L)),
            1e-12);
    }
    EXPECT_NEAR(sum, 30.59, 0.005);
}

TEST(Similarity, DotProductDependsOnlyOnOffset) {
    for (int k : {1, 5, 47, 300})
        for (double p : {0.0, 3.0, 100.0, 5000.0})
            EXPECT_NEAR(compare_positions(p, p + k, 256, 10000).dot_product,
                        compare_positions(0, k, 256, 10000).dot_product, 1e-9)
                << "p " << p << " k " << k;
}

TEST(Similarity, DotProductByOffsetCurvesCoincideForEveryStart) {
    const std::vector<double> from0 = dot_product_by_offset(0, 200, 128, 10000);
    const std::vector<double> from77 = dot_product_by_offset(77, 200, 128, 10000);
    for (int k = 0; k <= 200; ++k)
        EXPECT_NEAR(from0[k], from77[k], 1e-9);
    EXPECT_NEAR(from0[47], 30.59, 0.005);
}

// Σ cos(ω_i k) at the offset of the published pair 3 and 50 (47 at d = 128 gives the published
// 30.59), d/2 at 0, and the direct dot product of two reference PE vectors k apart from any start.
TEST(Similarity, DotProductAtOffsetsMatchesDocumentAndDirectSums) {
    const std::vector<double> at = dot_product_at_offsets({0.0, 47.0, -47.0, 2.5}, 128, 10000);
    EXPECT_DOUBLE_EQ(at[0], 64.0);
    EXPECT_NEAR(at[1], 30.59, 0.005);
    EXPECT_DOUBLE_EQ(at[1], at[2]);
    for (const double start : {0.0, 3.0, 1000.5}) {
        long double direct = 0;
        for (int dim = 0; dim < 128; ++dim)
            direct +=
                reference::pe(start, dim, 128, 10000) * reference::pe(start + 2.5, dim, 128, 10000);
        EXPECT_NEAR(at[3], static_cast<double>(direct), 1e-9) << start;
    }
    EXPECT_THROW(dot_product_at_offsets({NAN}, 128, 10000), InvalidArgument);
    EXPECT_THROW(dot_product_at_offsets({2e6}, 128, 10000), InvalidArgument);
    EXPECT_THROW(dot_product_at_offsets({1.0}, 7, 10000), InvalidArgument);
}

TEST(Similarity, MatrixMatchesDirectDotProducts) {
    const int first = 10, count = 40, d = 64;
    const std::vector<float> m = similarity_matrix(first, count, d, 10000);
    for (int p = 0; p < count; ++p)
        for (int q = 0; q < count; ++q) {
            long double direct = 0;
            for (int dim = 0; dim < d; ++dim)
                direct += reference::pe(first + p, dim, d, 10000) *
                          reference::pe(first + q, dim, d, 10000);
            EXPECT_NEAR(m[p * count + q], static_cast<double>(direct), 1e-5);
        }
}

TEST(Similarity, LabelsFollowStatedThresholds) {
    EXPECT_STREQ(similarity_label(0.95), "very high");
    EXPECT_STREQ(similarity_label(0.8), "high");
    EXPECT_STREQ(similarity_label(0.6), "moderate");
    EXPECT_STREQ(similarity_label(0.1), "low");
    EXPECT_STREQ(similarity_label(-0.5), "low");
}

TEST(Rotation, MatrixIsARotation) {
    const Rotation2 r = rotation_matrix(3, 7, 64, 10000);
    EXPECT_NEAR(r.m00 * r.m11 - r.m01 * r.m10, 1.0, 1e-15);
    EXPECT_DOUBLE_EQ(r.m00, r.m11);
    EXPECT_DOUBLE_EQ(r.m01, -r.m10);
    EXPECT_NEAR(r.m00, static_cast<double>(cosl(7 * reference::omega(3, 64, 10000))), 1e-15);
    EXPECT_NEAR(r.m01, static_cast<double>(sinl(7 * reference::omega(3, 64, 10000))), 1e-15);
}

TEST(Rotation, ShiftIsRotationForEveryStart) {
    for (double pos : {0.0, 3.0, 300.0, 123456.0})
        for (double k : {1.0, 5.0, 47.0, -2.0})
            if (pos + k >= 0) {
                const double residual = rotation_residual(pos, k, 512, 10000);
                EXPECT_LT(residual, 3e-7) << "pos " << pos << " k " << k;
            }
}

TEST(Rotation, ApplyMovesPointAlongCircle) {
    const int d = 16, pair = 2;
    const double pos = 11, k = 4;
    double s = 0, c = 0;
    apply_rotation(rotation_matrix(pair, k, d, 10000), pe_value(pos, 2 * pair, d, 10000),
                   pe_value(pos, 2 * pair + 1, d, 10000), &s, &c);
    EXPECT_NEAR(s, static_cast<double>(reference::pe(pos + k, 2 * pair, d, 10000)), 1e-14);
    EXPECT_NEAR(c, static_cast<double>(reference::pe(pos + k, 2 * pair + 1, d, 10000)), 1e-14);
}

// The similarity heatmap's 1-D function against direct sums of cosines, everywhere up to
// 65 536 and across an anchoring boundary; f(0) = d/2 and f(47) = the published 30.59.
TEST(Similarity, OffsetRangeMatchesDirectSums) {
    const std::vector<double> f = dot_product_by_offset_range(65536, 128, 10000);
    EXPECT_DOUBLE_EQ(f[0], 64.0);
    EXPECT_NEAR(f[47], 30.59, 0.005);
    for (const int k : {1, 47, 255, 256, 257, 1000, 4095, 32768, 65535}) {
        long double direct = 0;
        for (int i = 0; i < 64; ++i)
            direct +=
                std::cos(static_cast<long double>(k) * std::pow(10000.0L, -2.0L * i / 128.0L));
        EXPECT_NEAR(f[k], static_cast<double>(direct), 1e-10) << k;
    }
    EXPECT_THROW(dot_product_by_offset_range(0, 128, 10000), InvalidArgument);
    EXPECT_THROW(dot_product_by_offset_range(8, 7, 10000), InvalidArgument);
}
