// gemm.h — the trainer's float matrix product, with one result whatever the CPU: every
// element is the same chain of fused multiply-adds in the same order on every kernel path, so
// a run gives the same bits on a laptop without AVX-512 as on the machine that recorded the
// built-in runs. Internal to core.
//
// The paths: portable (std::fma, element by element), AVX2 + FMA (6 rows × 16 columns in
// registers) and AVX-512 (8 rows × 32 columns), chosen at run time from what the CPU has.
// Builds with PELAB_NO_CLONES (the sanitizer and fuzz builds) use the portable path only.
#pragma once

#include <string>
#include <vector>

namespace pelab::trainer {

enum class GemmPath { Portable, Avx2, Avx512 };

/// "portable", "avx2", "avx512".
std::string GemmPathName(GemmPath path);

/// The paths this CPU (and this build) can run, portable first.
std::vector<GemmPath> AvailableGemmPaths();

/// The fastest available path, found once.
GemmPath ChosenGemmPath();

/// C = A·B (accumulate false) or C += A·B (accumulate true), every matrix row-major with the
/// given row strides: A is m × k, B is k × n, C is m × n. Exactly, for each element:
///   s = 0;  for p = 0 … k − 1: s = fma(A[i][p], B[p][j], s);  C[i][j] = s  or  C[i][j] + s.
/// Contract: m, n, k ≥ 0; C does not overlap A or B.
void Gemm(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc,
          bool accumulate, GemmPath path = ChosenGemmPath());

} // namespace pelab::trainer
