// The float product of gemm.h. Each path walks C in tiles of rows × columns held in registers
// and runs the k loop once per tile, so an element's multiply-adds happen in p order on every
// path: the vector paths differ from the portable one only in how many elements advance at
// once. The shapes the trainer multiplies are small (k ≤ 512, n ≤ 2 048), so B's rows are read
// where they lie, without packing.
#include "transformer/gemm.h"

#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(PELAB_NO_CLONES)
#define PELAB_GEMM_X86 1
#include <immintrin.h>
#endif
#if defined(__wasm_simd128__)
#define PELAB_GEMM_WASM 1
#include <wasm_simd128.h>
#endif

namespace pelab::trainer {

namespace {

// One step of an element's chain: s + a·b, rounded once (fused) where the hardware can;
// WebAssembly cannot (its fused multiply-add is relaxed SIMD's, fused or not as the engine
// likes), so the browser build rounds the product and the sum, on all its paths alike.
#ifdef __EMSCRIPTEN__
inline float MultiplyAdd(float a, float b, float s) {
    const float product = a * b;
    return s + product;
}
#else
inline float MultiplyAdd(float a, float b, float s) {
    return std::fma(a, b, s);
}
#endif

void GemmPortable(int m, int n, int k, StridedMatrix a, const float* b, int ldb, float* c, int ldc,
                  bool accumulate) {
    std::vector<float> sums(static_cast<std::size_t>(n));
    for (int i = 0; i < m; ++i) {
        sums.assign(sums.size(), 0.0F);
        for (int p = 0; p < k; ++p) {
            const float a_ip = a.At(i, p);
            const float* b_row = b + static_cast<std::ptrdiff_t>(p) * ldb;
            for (int j = 0; j < n; ++j)
                sums[static_cast<std::size_t>(j)] =
                    MultiplyAdd(a_ip, b_row[j], sums[static_cast<std::size_t>(j)]);
        }
        float* c_row = c + static_cast<std::ptrdiff_t>(i) * ldc;
        for (int j = 0; j < n; ++j)
            c_row[j] = accumulate ? c_row[j] + sums[static_cast<std::size_t>(j)]
                                  : sums[static_cast<std::size_t>(j)];
    }
}

#ifdef PELAB_GEMM_X86

/// One tile: rows 0 … R − 1 of a (from its first element) times columns 0 … columns − 1 of b.
using TileKernel = void (*)(int k, StridedMatrix a, const float* b, int ldb, float* c, int ldc,
                            bool accumulate, int columns);

/// C in tiles of kRows × kColumns, the last rows by the kernel for fewer rows (tiles[r]: r rows).
template <int kRows, int kColumns>
void WalkTiles(const TileKernel* tiles, int m, int n, int k, StridedMatrix a, const float* b,
               int ldb, float* c, int ldc, bool accumulate) {
    for (int j = 0; j < n; j += kColumns) {
        const int columns = n - j < kColumns ? n - j : kColumns;
        for (int i = 0; i < m; i += kRows) {
            const int rows = m - i < kRows ? m - i : kRows;
            const StridedMatrix a_tile{a.data + i * a.row_stride, a.row_stride, a.column_stride};
            tiles[rows](k, a_tile, b + j, ldb, c + static_cast<std::ptrdiff_t>(i) * ldc + j, ldc,
                        accumulate, columns);
        }
    }
}

// ---- AVX2 + FMA: a tile of R ≤ 6 rows × up to 16 columns (two 8-wide registers per row) ----

__attribute__((target("avx2,fma"))) inline __m256i Avx2Mask(int columns) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(columns), lanes);
}

template <int R>
__attribute__((target("avx2,fma"))) void TileAvx2(int k, StridedMatrix a, const float* b, int ldb,
                                                  float* c, int ldc, bool accumulate, int columns) {
    const __m256i mask0 = Avx2Mask(columns), mask1 = Avx2Mask(columns - 8);
    __m256 sum0[R], sum1[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
        sum0[r] = sum1[r] = _mm256_setzero_ps();
    for (int p = 0; p < k; ++p) {
        const float* b_row = b + static_cast<std::ptrdiff_t>(p) * ldb;
        const __m256 b0 = columns == 16 ? _mm256_loadu_ps(b_row) : _mm256_maskload_ps(b_row, mask0);
        const __m256 b1 =
            columns == 16 ? _mm256_loadu_ps(b_row + 8) : _mm256_maskload_ps(b_row + 8, mask1);
        const float* a_column = a.data + p * a.column_stride;
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const __m256 av = _mm256_broadcast_ss(a_column + r * a.row_stride);
            sum0[r] = _mm256_fmadd_ps(av, b0, sum0[r]);
            sum1[r] = _mm256_fmadd_ps(av, b1, sum1[r]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
        float* c_row = c + static_cast<std::ptrdiff_t>(r) * ldc;
        if (accumulate) {
            sum0[r] = _mm256_add_ps(_mm256_maskload_ps(c_row, mask0), sum0[r]);
            sum1[r] = _mm256_add_ps(_mm256_maskload_ps(c_row + 8, mask1), sum1[r]);
        }
        _mm256_maskstore_ps(c_row, mask0, sum0[r]);
        _mm256_maskstore_ps(c_row + 8, mask1, sum1[r]);
    }
}

constexpr TileKernel kAvx2Tiles[] = {nullptr,     TileAvx2<1>, TileAvx2<2>, TileAvx2<3>,
                                     TileAvx2<4>, TileAvx2<5>, TileAvx2<6>};

// ---- AVX-512: a tile of R ≤ 8 rows × up to 32 columns (two 16-wide registers per row) ----

template <int R>
__attribute__((target("avx512f"))) void TileAvx512(int k, StridedMatrix a, const float* b, int ldb,
                                                   float* c, int ldc, bool accumulate,
                                                   int columns) {
    const auto mask_of = [](int count) -> __mmask16 {
        return count >= 16 ? __mmask16(0xFFFF)
                           : (count <= 0 ? __mmask16(0) : __mmask16((1U << count) - 1U));
    };
    const __mmask16 mask0 = mask_of(columns), mask1 = mask_of(columns - 16);
    __m512 sum0[R], sum1[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
        sum0[r] = sum1[r] = _mm512_setzero_ps();
    for (int p = 0; p < k; ++p) {
        const float* b_row = b + static_cast<std::ptrdiff_t>(p) * ldb;
        const __m512 b0 = _mm512_maskz_loadu_ps(mask0, b_row);
        const __m512 b1 = _mm512_maskz_loadu_ps(mask1, b_row + 16);
        const float* a_column = a.data + p * a.column_stride;
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const __m512 av = _mm512_set1_ps(a_column[r * a.row_stride]);
            sum0[r] = _mm512_fmadd_ps(av, b0, sum0[r]);
            sum1[r] = _mm512_fmadd_ps(av, b1, sum1[r]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
        float* c_row = c + static_cast<std::ptrdiff_t>(r) * ldc;
        if (accumulate) {
            sum0[r] = _mm512_add_ps(_mm512_maskz_loadu_ps(mask0, c_row), sum0[r]);
            sum1[r] = _mm512_add_ps(_mm512_maskz_loadu_ps(mask1, c_row + 16), sum1[r]);
        }
        _mm512_mask_storeu_ps(c_row, mask0, sum0[r]);
        _mm512_mask_storeu_ps(c_row + 16, mask1, sum1[r]);
    }
}

constexpr TileKernel kAvx512Tiles[] = {nullptr,       TileAvx512<1>, TileAvx512<2>,
                                       TileAvx512<3>, TileAvx512<4>, TileAvx512<5>,
                                       TileAvx512<6>, TileAvx512<7>, TileAvx512<8>};

#endif // PELAB_GEMM_X86

#ifdef PELAB_GEMM_WASM

// ---- WebAssembly SIMD: a tile of R ≤ 4 rows × 8 columns (two 4-wide registers per row); the
// last columns (fewer than 8) element by element, in the same order ----

template <int R>
void TileWasm(int k, StridedMatrix a, const float* b, int ldb, float* c, int ldc, bool accumulate) {
    v128_t sum0[R], sum1[R];
    for (int r = 0; r < R; ++r)
        sum0[r] = sum1[r] = wasm_f32x4_splat(0.0F);
    for (int p = 0; p < k; ++p) {
        const float* b_row = b + static_cast<std::ptrdiff_t>(p) * ldb;
        const v128_t b0 = wasm_v128_load(b_row), b1 = wasm_v128_load(b_row + 4);
        const float* a_column = a.data + p * a.column_stride;
        for (int r = 0; r < R; ++r) {
            const v128_t av = wasm_f32x4_splat(a_column[r * a.row_stride]);
            sum0[r] = wasm_f32x4_add(sum0[r], wasm_f32x4_mul(av, b0));
            sum1[r] = wasm_f32x4_add(sum1[r], wasm_f32x4_mul(av, b1));
        }
    }
    for (int r = 0; r < R; ++r) {
        float* c_row = c + static_cast<std::ptrdiff_t>(r) * ldc;
        if (accumulate) {
            sum0[r] = wasm_f32x4_add(wasm_v128_load(c_row), sum0[r]);
            sum1[r] = wasm_f32x4_add(wasm_v128_load(c_row + 4), sum1[r]);
        }
        wasm_v128_store(c_row, sum0[r]);
        wasm_v128_store(c_row + 4, sum1[r]);
    }
}

void GemmWasm(int m, int n, int k, StridedMatrix a, const float* b, int ldb, float* c, int ldc,
              bool accumulate) {
    constexpr int kRows = 4, kColumns = 8;
    const int vector_columns = n / kColumns * kColumns;
    for (int j = 0; j < vector_columns; j += kColumns)
        for (int i = 0; i < m; i += kRows) {
            const StridedMatrix a_tile{a.data + i * a.row_stride, a.row_stride, a.column_stride};
            float* c_tile = c + static_cast<std::ptrdiff_t>(i) * ldc + j;
            switch (m - i < kRows ? m - i : kRows) {
            case 1:
                TileWasm<1>(k, a_tile, b + j, ldb, c_tile, ldc, accumulate);
                break;
            case 2:
                TileWasm<2>(k, a_tile, b + j, ldb, c_tile, ldc, accumulate);
                break;
            case 3:
                TileWasm<3>(k, a_tile, b + j, ldb, c_tile, ldc, accumulate);
                break;
            default:
                TileWasm<4>(k, a_tile, b + j, ldb, c_tile, ldc, accumulate);
                break;
            }
        }
    if (vector_columns < n)
        GemmPortable(m, n - vector_columns, k, a, b + vector_columns, ldb, c + vector_columns, ldc,
                     accumulate);
}

#endif // PELAB_GEMM_WASM

} // namespace

std::string GemmPathName(GemmPath path) {
    switch (path) {
    case GemmPath::Avx2:
        return "avx2";
    case GemmPath::Avx512:
        return "avx512";
    case GemmPath::WasmSimd:
        return "wasm-simd";
    case GemmPath::Portable:
        break;
    }
    return "portable";
}

std::vector<GemmPath> AvailableGemmPaths() {
    std::vector<GemmPath> paths = {GemmPath::Portable};
#ifdef PELAB_GEMM_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        paths.push_back(GemmPath::Avx2);
    if (__builtin_cpu_supports("avx512f")) paths.push_back(GemmPath::Avx512);
#endif
#ifdef PELAB_GEMM_WASM
    paths.push_back(GemmPath::WasmSimd);
#endif
    return paths;
}

GemmPath ChosenGemmPath() {
    static const GemmPath chosen = AvailableGemmPaths().back();
    return chosen;
}

void Gemm(int m, int n, int k, StridedMatrix a, const float* b, int ldb, float* c, int ldc,
          bool accumulate, GemmPath path) {
    if (m <= 0 || n <= 0) return;
    switch (path) {
#ifdef PELAB_GEMM_X86
    case GemmPath::Avx512:
        WalkTiles<8, 32>(kAvx512Tiles, m, n, k, a, b, ldb, c, ldc, accumulate);
        return;
    case GemmPath::Avx2:
        WalkTiles<6, 16>(kAvx2Tiles, m, n, k, a, b, ldb, c, ldc, accumulate);
        return;
#endif
    default:
        GemmPortable(m, n, k, a, b, ldb, c, ldc, accumulate);
        return;
    }
}

} // namespace pelab::trainer
