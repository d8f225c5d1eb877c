// pelab_bench — Google Benchmark timings of the core (docs/performance.md has the figures).
//
// BM_PeMatrix/<max_len>/<d_model>       into a reused buffer (what a frame does)
// BM_PeMatrixFresh/<max_len>/<d_model>  returning a fresh array (what a script does; pays the
//                                       page faults NumPy and PyTorch also pay on every call)
// BM_PeMatrixDirect/…                   one sin or cos per value in double: the plain way
// BM_WriteOnly/…                        the floor: storing as many non-zero floats (not memset,
//                                       which virtual machines may special-case)
// BM_WriteOnlyStreaming/…               the same with non-temporal 32-byte stores (no read of
//                                       each line before it is overwritten): the other floor.
//                                       Streaming from the PE kernel itself was tried (16- and
//                                       32-byte stores, 1 and 4 rows per pass) and measured no
//                                       faster with a reused buffer, slower with a fresh one.
// Each PE benchmark reports max_abs_error against a long double reference as a counter.
#include "pelab/similarity.h"
#include "pelab/sinusoidal.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

double MaxError(const float* m, int max_len, int d_model) {
    long double worst = 0;
    for (int pos = 0; pos < max_len; ++pos)
        for (int i = 0; i < d_model / 2; ++i) {
            const long double angle = pos * powl(10000.0L, -2.0L * i / d_model);
            worst = std::max(
                worst, fabsl(m[static_cast<std::size_t>(pos) * d_model + 2 * i] - sinl(angle)));
            worst = std::max(
                worst, fabsl(m[static_cast<std::size_t>(pos) * d_model + 2 * i + 1] - cosl(angle)));
        }
    return static_cast<double>(worst);
}

void SizeArgs(benchmark::internal::Benchmark* b) {
    b->Args({128, 128})->Args({2048, 512})->Args({8192, 1024})->Unit(benchmark::kMicrosecond);
}

void BM_PeMatrix(benchmark::State& state) {
    const int max_len = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
    std::vector<float> buffer(static_cast<std::size_t>(max_len) * d);
    for (auto _ : state) {
        pelab::pe_matrix_into(max_len, d, 10000.0, pelab::Layout::Interleaved, buffer.data());
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
    }
    state.counters["max_abs_error"] = MaxError(buffer.data(), max_len, d);
    state.SetBytesProcessed(state.iterations() *
                            static_cast<int64_t>(buffer.size() * sizeof(float)));
}
BENCHMARK(BM_PeMatrix)->Apply(SizeArgs);

void BM_PeMatrixFresh(benchmark::State& state) {
    const int max_len = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
    for (auto _ : state) {
        auto m = pelab::pe_matrix(max_len, d, 10000.0);
        benchmark::DoNotOptimize(m.data());
        benchmark::ClobberMemory();
    }
    state.counters["max_abs_error"] =
        MaxError(pelab::pe_matrix(max_len, d, 10000.0).data(), max_len, d);
    state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(max_len) * d * 4);
}
BENCHMARK(BM_PeMatrixFresh)->Apply(SizeArgs);

void BM_PeMatrixDirect(benchmark::State& state) {
    const int max_len = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
    std::vector<float> buffer(static_cast<std::size_t>(max_len) * d);
    const std::vector<double> w = pelab::frequencies(d, 10000.0);
    for (auto _ : state) {
        for (int pos = 0; pos < max_len; ++pos)
            for (int i = 0; i < d / 2; ++i) {
                buffer[static_cast<std::size_t>(pos) * d + 2 * i] =
                    static_cast<float>(std::sin(pos * w[i]));
                buffer[static_cast<std::size_t>(pos) * d + 2 * i + 1] =
                    static_cast<float>(std::cos(pos * w[i]));
            }
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
    }
    state.counters["max_abs_error"] = MaxError(buffer.data(), max_len, d);
}
BENCHMARK(BM_PeMatrixDirect)->Apply(SizeArgs);

void BM_WriteOnly(benchmark::State& state) {
    const int max_len = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
    std::vector<float> buffer(static_cast<std::size_t>(max_len) * d);
    float value = 0.5f;
    for (auto _ : state) {
        value += 1.0f; // a different non-zero value each time: nothing can be skipped
        for (float& v : buffer)
            v = value;
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_WriteOnly)->Apply(SizeArgs);

#if defined(__x86_64__) && defined(__GNUC__)
// The other kind of store: non-temporal (streaming) 32-byte stores, which skip reading each line
// into the cache before it is overwritten. Whichever of the two is faster is the floor.
__attribute__((target("avx"))) void StreamFill(float* data, std::size_t count, float value) {
    const __m256 v = _mm256_set1_ps(value);
    std::size_t k = 0;
    for (; k < count && (reinterpret_cast<std::uintptr_t>(data + k) & 31) != 0; ++k)
        data[k] = value;
    for (; k + 8 <= count; k += 8)
        _mm256_stream_ps(data + k, v);
    for (; k < count; ++k)
        data[k] = value;
    _mm_sfence();
}

void BM_WriteOnlyStreaming(benchmark::State& state) {
    if (!__builtin_cpu_supports("avx")) {
        state.SkipWithError("no AVX on this CPU");
        return;
    }
    const int max_len = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
    std::vector<float> buffer(static_cast<std::size_t>(max_len) * d);
    float value = 0.5f;
    for (auto _ : state) {
        value += 1.0f;
        StreamFill(buffer.data(), buffer.size(), value);
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_WriteOnlyStreaming)->Apply(SizeArgs);
#endif

void BM_PeVector(benchmark::State& state) {
    const int d = static_cast<int>(state.range(0));
    std::vector<float> v(static_cast<std::size_t>(d));
    double pos = 0;
    for (auto _ : state) {
        pelab::pe_vector_into(pos, d, 10000.0, v.data());
        pos += 1;
        benchmark::DoNotOptimize(v.data());
    }
}
BENCHMARK(BM_PeVector)->Arg(512)->Arg(4096);

void BM_ComparePositions(benchmark::State& state) {
    const int d = static_cast<int>(state.range(0));
    for (auto _ : state) {
        benchmark::DoNotOptimize(pelab::compare_positions(3, 50, d, 10000.0));
        benchmark::DoNotOptimize(pelab::pair_contributions(3, 50, d, 10000.0));
    }
}
BENCHMARK(BM_ComparePositions)->Arg(128)->Arg(512);

void BM_SimilarityMatrix(benchmark::State& state) {
    const int count = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
    for (auto _ : state)
        benchmark::DoNotOptimize(pelab::similarity_matrix(0, count, d, 10000.0));
}
BENCHMARK(BM_SimilarityMatrix)
    ->Args({128, 512})
    ->Args({512, 512})
    ->Args({4096, 512})
    ->Unit(benchmark::kMicrosecond);

// What the similarity heatmap uploads: f(k) for k < L, O(L·d); the GPU does the rest.
void BM_SimilarityOffsets(benchmark::State& state) {
    const int count = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
    for (auto _ : state)
        benchmark::DoNotOptimize(pelab::dot_product_by_offset_range(count, d, 10000.0));
}
BENCHMARK(BM_SimilarityOffsets)
    ->Args({4096, 512})
    ->Args({65536, 4096})
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
