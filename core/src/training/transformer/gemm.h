// gemm.h — the trainer's float matrix product, with one result whatever the CPU: every
// element is the same chain of multiply-adds in the same order on every kernel path, so a run
// gives the same bits on a laptop without AVX-512 as on the machine that recorded the built-in
// runs. Internal to core.
//
// The paths: portable (element by element), AVX2 + FMA (6 rows × 16 columns in registers) and
// AVX-512 (8 rows × 32 columns), chosen at run time from what the CPU has; in the browser,
// portable and WebAssembly SIMD (4 rows × 8 columns). Builds with PELAB_NO_CLONES (the
// sanitizer and fuzz builds) use the portable path only. A step of the chain is fused (one
// rounding, std::fma) on the desktop and a multiply then an add in the browser, which has no
// fused multiply-add to rely on: the browser's runs are the same in every browser, and close
// to the desktop's, not equal to them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pelab::trainer {

enum class GemmPath { Portable, Avx2, Avx512, WasmSimd };

/// "portable", "avx2", "avx512", "wasm-simd".
std::string GemmPathName(GemmPath path);

/// The paths this CPU (and this build) can run, portable first.
std::vector<GemmPath> AvailableGemmPaths();

/// The fastest available path, found once.
GemmPath ChosenGemmPath();

/// A read in place: element (i, p) at data[i·row_stride + p·column_stride], so a transposed
/// operand needs no copy.
struct StridedMatrix {
    const float* data;
    std::ptrdiff_t row_stride, column_stride;
    float At(int i, int p) const { return data[i * row_stride + p * column_stride]; }
};
/// A row-major matrix with rows `stride` apart.
inline StridedMatrix RowMajor(const float* data, int stride) {
    return {data, stride, 1};
}
/// The transpose of a row-major matrix with rows `stride` apart.
inline StridedMatrix TransposeOf(const float* data, int stride) {
    return {data, 1, stride};
}

/// C = A·B (accumulate false) or C += A·B (accumulate true): A is m × k, B is k × n row-major
/// with rows ldb apart, C is m × n row-major with rows ldc apart. Exactly, for each element:
///   s = 0;  for p = 0 … k − 1: s = fma(A(i, p), B[p][j], s);  C[i][j] = s  or  C[i][j] + s
/// (in the browser build, s = s + A(i, p)·B[p][j] with the product rounded first).
/// Contract: m, n, k ≥ 0; C does not overlap A or B.
void Gemm(int m, int n, int k, StridedMatrix a, const float* b, int ldb, float* c, int ldc,
          bool accumulate, GemmPath path = ChosenGemmPath());

} // namespace pelab::trainer
