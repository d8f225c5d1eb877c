// The trainer's float matrix product (core/src/training/transformer/gemm.h, internal): every kernel path
// this CPU can run gives the portable path's bits exactly, on shapes that exercise every tile
// remainder, and the portable path is the fused multiply-add chain its contract states, close to
// the product computed in double. Everything else in a float pass is compiled once, so equal
// products mean a training run ends with the same bits on every path.
#include "transformer/gemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace pelab::trainer;

namespace {

std::vector<float> Random(std::mt19937& rng, std::size_t count) {
    std::normal_distribution<float> normal(0.0F, 1.0F);
    std::vector<float> values(count);
    for (float& v : values)
        v = normal(rng);
    return values;
}

struct Shape {
    int m, n, k;
};

// Rows and columns around every tile size (6 × 16 and 8 × 32), k from 1 to a minibatch's rows.
const Shape kShapes[] = {{1, 1, 1},      {5, 7, 3},      {6, 16, 64},    {7, 17, 9},
                         {8, 32, 64},    {9, 33, 65},    {13, 47, 31},   {48, 192, 64},
                         {64, 64, 1024}, {1024, 16, 64}, {37, 100, 256}, {16, 16, 16}};

} // namespace

TEST(Gemm, EveryPathGivesThePortableBits) {
    std::mt19937 rng(11);
    const std::vector<GemmPath> paths = AvailableGemmPaths();
    ASSERT_EQ(paths.front(), GemmPath::Portable);
    for (const Shape& s : kShapes)
        for (const bool accumulate : {false, true})
            for (const bool transposed : {false, true}) {
                // Row strides past the widths: the kernels must read and write only their
                // columns. A transposed A is stored k × m.
                const int lda = (transposed ? s.m : s.k) + 3, ldb = s.n + 5, ldc = s.n + 2;
                const std::vector<float> a_store =
                    Random(rng, static_cast<std::size_t>(transposed ? s.k : s.m) * lda);
                const StridedMatrix a =
                    transposed ? TransposeOf(a_store.data(), lda) : RowMajor(a_store.data(), lda);
                const std::vector<float> b = Random(rng, static_cast<std::size_t>(s.k) * ldb);
                const std::vector<float> c0 = Random(rng, static_cast<std::size_t>(s.m) * ldc);
                std::vector<float> expected = c0;
                Gemm(s.m, s.n, s.k, a, b.data(), ldb, expected.data(), ldc, accumulate,
                     GemmPath::Portable);
                for (const GemmPath path : paths) {
                    std::vector<float> c = c0;
                    Gemm(s.m, s.n, s.k, a, b.data(), ldb, c.data(), ldc, accumulate, path);
                    EXPECT_EQ(std::memcmp(c.data(), expected.data(), c.size() * sizeof(float)), 0)
                        << GemmPathName(path) << " " << s.m << "×" << s.n << "×" << s.k
                        << (accumulate ? " +=" : " =") << (transposed ? " Aᵀ" : "");
                }
            }
}

TEST(Gemm, PortableIsTheStatedChainAndCloseToDouble) {
    std::mt19937 rng(12);
    const int m = 9, n = 21, k = 70;
    const std::vector<float> a = Random(rng, static_cast<std::size_t>(m) * k);
    const std::vector<float> b = Random(rng, static_cast<std::size_t>(k) * n);
    std::vector<float> c(static_cast<std::size_t>(m) * n, 100.0F);
    Gemm(m, n, k, RowMajor(a.data(), k), b.data(), n, c.data(), n, true, GemmPath::Portable);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float chain = 0.0F;
            double exact = 0.0;
            for (int p = 0; p < k; ++p) {
                chain = std::fma(a[i * k + p], b[p * n + j], chain);
                exact += static_cast<double>(a[i * k + p]) * b[p * n + j];
            }
            EXPECT_EQ(c[i * n + j], 100.0F + chain);
            EXPECT_NEAR(c[i * n + j], 100.0 + exact, 1e-4);
        }
}

TEST(Gemm, EmptyProductsWriteNothingAndZeroDepthWritesZero) {
    std::vector<float> c = {7.0F, 8.0F};
    Gemm(0, 2, 3, RowMajor(nullptr, 3), nullptr, 2, c.data(), 2, false);
    EXPECT_EQ(c[0], 7.0F);
    Gemm(1, 2, 0, RowMajor(nullptr, 0), nullptr, 2, c.data(), 2, false);
    EXPECT_EQ(c[0], 0.0F);
    EXPECT_EQ(c[1], 0.0F);
}
