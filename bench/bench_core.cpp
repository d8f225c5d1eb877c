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
//
// The training lab's arithmetic, each with a GFLOP/s counter:
// BM_FmaPeak/<bits>                     independent fused multiply-adds, 256- or 512-bit: what
//                                       one core can do at most (the peak the others are a
//                                       fraction of)
// BM_Gemm/<path>/<m>/<n>/<k>            the trainer's matrix product on each kernel path this
//                                       CPU has (0 portable, 1 AVX2, 2 AVX-512), on the shapes
//                                       of a default training step
// BM_TrainStep/<d_model>                one training step of the default model (64 sequences of
//                                       16 tokens, forward, backward and AdamW), FLOPs counted
//                                       from the model's shape
#include "pelab/encodings/similarity.h"
#include "pelab/encodings/sinusoidal.h"
#include "pelab/training/train.h"
#include "pelab/training/transformer.h"
#include "transformer/gemm.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
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

// ---- The training lab ----------------------------------------------------------------------

#if defined(__x86_64__) && defined(__GNUC__)
// 12 independent chains of FMAs: more than the latency × the ports (4 × 2), so the ports stay
// full, and with the two operands few enough for the 16 registers of AVX2.
__attribute__((target("avx2,fma"))) float FmaLoop256(long rounds) {
    __m256 sums[12];
    const __m256 a = _mm256_set1_ps(0.999F), b = _mm256_set1_ps(1e-3F);
    for (__m256& each : sums)
        each = _mm256_set1_ps(1.0F);
    for (long r = 0; r < rounds; ++r)
#pragma GCC unroll 12
        for (__m256& each : sums)
            each = _mm256_fmadd_ps(each, a, b);
    __m256 total = sums[0];
    for (int i = 1; i < 12; ++i)
        total = _mm256_add_ps(total, sums[i]);
    return _mm256_cvtss_f32(total);
}
__attribute__((target("avx512f"))) float FmaLoop512(long rounds) {
    __m512 sums[12];
    const __m512 a = _mm512_set1_ps(0.999F), b = _mm512_set1_ps(1e-3F);
    for (__m512& each : sums)
        each = _mm512_set1_ps(1.0F);
    for (long r = 0; r < rounds; ++r)
#pragma GCC unroll 12
        for (__m512& each : sums)
            each = _mm512_fmadd_ps(each, a, b);
    __m512 total = sums[0];
    for (int i = 1; i < 12; ++i)
        total = _mm512_add_ps(total, sums[i]);
    float lanes[16];
    _mm512_storeu_ps(lanes, total);
    return lanes[0] + lanes[15];
}

void BM_FmaPeak(benchmark::State& state) {
    const int bits = static_cast<int>(state.range(0));
    if (bits == 256 ? !__builtin_cpu_supports("fma") : !__builtin_cpu_supports("avx512f")) {
        state.SkipWithError("this CPU has no such FMA");
        return;
    }
    constexpr long kRounds = 1 << 20;
    for (auto _ : state) {
        long rounds = kRounds;
        benchmark::DoNotOptimize(rounds); // else the call, a pure function, leaves the loop
        benchmark::DoNotOptimize(bits == 256 ? FmaLoop256(rounds) : FmaLoop512(rounds));
    }
    // 12 registers × bits/32 lanes × 2 FLOPs per round.
    const int lanes = bits / 32;
    state.counters["GFLOP/s"] =
        benchmark::Counter(static_cast<double>(kRounds) * 12 * lanes * 2 *
                               static_cast<double>(state.iterations()) / 1e9,
                           benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FmaPeak)->Arg(256)->Arg(512);
#endif

void BM_Gemm(benchmark::State& state) {
    using namespace pelab::trainer;
    const auto path = static_cast<GemmPath>(state.range(0));
    const std::vector<GemmPath> paths = AvailableGemmPaths();
    if (std::find(paths.begin(), paths.end(), path) == paths.end()) {
        state.SkipWithError("this CPU or build has no such path");
        return;
    }
    const int m = static_cast<int>(state.range(1)), n = static_cast<int>(state.range(2)),
              k = static_cast<int>(state.range(3));
    std::vector<float> a(static_cast<std::size_t>(m) * k, 0.5F),
        b(static_cast<std::size_t>(k) * n, 0.25F), c(static_cast<std::size_t>(m) * n);
    for (auto _ : state) {
        Gemm(m, n, k, RowMajor(a.data(), k), b.data(), n, c.data(), n, false, path);
        benchmark::DoNotOptimize(c.data());
    }
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * m * n * k * state.iterations() / 1e9, benchmark::Counter::kIsRate);
    state.SetLabel(GemmPathName(path));
}
// A default step's products: 1 024 rows (64 × 16 tokens) through qkv (64 → 192), the MLP
// (64 → 256, 256 → 64), and a weight gradient summed over the 1 024 rows.
void GemmShapes(benchmark::internal::Benchmark* b) {
    for (int path = 0; path <= 2; ++path) {
        b->Args({path, 1024, 192, 64});
        b->Args({path, 1024, 64, 256});
        b->Args({path, 256, 64, 1024});
    }
}
BENCHMARK(BM_Gemm)->Apply(GemmShapes)->Unit(benchmark::kMicrosecond);

void BM_TrainStep(benchmark::State& state) {
    pelab::TransformerConfig config;
    config.d_model = static_cast<int>(state.range(0));
    config.positional = pelab::PositionalKind::Sinusoidal;
    pelab::TinyTransformer<float> model(config, 1);
    pelab::AdamW<float> adam(model.parameters().size(), pelab::AdamWOptions{});
    std::mt19937_64 random(2);
    const int batch = 64, length = 16;
    const pelab::TokenBatch tokens =
        pelab::make_task_batch(pelab::TaskOptions{}, batch, length, random);
    std::vector<float> gradient;
    for (auto _ : state) {
        model.loss(tokens, &gradient);
        adam.step(model.parameters(), gradient);
    }
    // Multiply-adds per token, forward: each layer's four linear maps (d → 3d, d → d, d → 4d,
    // 4d → d: 12 d² at mlp_ratio 4) and attention over n keys (q·k and the weighted v: 2 n d),
    // then the head (d × vocab); the backward is twice the forward. Two FLOPs per
    // multiply-add: 620 544 FLOPs per token for the default model.
    const double d = config.d_model, n = length;
    const double forward =
        config.layers * ((4 + 2 * config.mlp_ratio) * d * d + 2 * n * d) + d * config.vocab;
    state.counters["GFLOP/s"] = benchmark::Counter(
        3 * 2 * forward * batch * length * state.iterations() / 1e9, benchmark::Counter::kIsRate);
    state.counters["tokens/s"] = benchmark::Counter(
        static_cast<double>(batch) * length * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TrainStep)->Arg(64)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
