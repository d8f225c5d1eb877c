#include "pelab/encodings/sinusoidal.h"

#include "base/format.h"
#include "pelab/base/error.h"
#include "pelab/base/limits.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <system_error>
#include <thread>

namespace pelab {

using detail::concat;

const char* layout_name(Layout layout) {
    return layout == Layout::Interleaved ? "interleaved" : "concatenated";
}

void validate_d_model(int d_model) {
    if (d_model < kMinDModel || d_model > kMaxDModel || d_model % 2 != 0)
        throw InvalidArgument(concat("d_model must be an even number in [", kMinDModel, ", ",
                                     kMaxDModel, "] (got ", d_model,
                                     "): sinusoidal pairs need two dimensions each"));
}

void validate_base(double base) {
    // The reason depends on the side the base is on: only a base of 1 or less makes the pairs
    // stop slowing down; a base past kMaxBase is simply outside the range PE Lab supports.
    if (!std::isfinite(base))
        throw InvalidArgument(
            concat("base must be a finite number > 1 and <= ", kMaxBase, " (got ", base, ")"));
    if (base <= 0)
        throw InvalidArgument(concat("base must be > 1 (got ", base,
                                     "): base^(-2i/d_model) is not a real number for a base <= 0"));
    if (base <= kMinBaseExclusive)
        throw InvalidArgument(concat("base must be > 1 (got ", base,
                                     "): at base 1 every pair turns at the same speed, and below "
                                     "1 the later pairs turn faster instead of slower"));
    if (base > kMaxBase)
        throw InvalidArgument(
            concat("base must be at most ", kMaxBase, " (got ", base,
                   "): that is the largest base PE Lab accepts (the paper uses 10000)"));
}

void validate_position(double pos) {
    if (!std::isfinite(pos) || pos < 0 || pos > kMaxPosition)
        throw InvalidArgument(
            concat("position must be a number in [0, ", kMaxPosition, "] (got ", pos, ")"));
}

void validate_pair(int pair_index, int d_model) {
    validate_d_model(d_model);
    if (pair_index < 0 || pair_index >= d_model / 2)
        throw InvalidArgument(concat("pair index must be in [0, ", d_model / 2 - 1,
                                     "] for d_model ", d_model, " (got ", pair_index, ")"));
}

double exponent(int pair_index, int d_model) {
    validate_pair(pair_index, d_model);
    return 2.0 * pair_index / d_model;
}

double denominator(int pair_index, int d_model, double base) {
    validate_base(base);
    return std::pow(base, exponent(pair_index, d_model));
}

double omega(int pair_index, int d_model, double base) {
    validate_base(base);
    return std::pow(base, -exponent(pair_index, d_model));
}

double wavelength(int pair_index, int d_model, double base) {
    return 2.0 * M_PI * denominator(pair_index, d_model, base);
}

std::vector<double> frequencies(int d_model, double base) {
    validate_d_model(d_model);
    validate_base(base);
    std::vector<double> result(static_cast<std::size_t>(d_model / 2));
    for (int i = 0; i < d_model / 2; ++i)
        result[i] = std::pow(base, -2.0 * i / d_model);
    return result;
}

double pe_value(double pos, int dim, int d_model, double base) {
    validate_d_model(d_model);
    validate_base(base);
    validate_position(pos);
    if (dim < 0 || dim >= d_model)
        throw InvalidArgument(
            concat("dimension must be in [0, ", d_model - 1, "] (got ", dim, ")"));
    const int pair = dim / 2;
    const double angle = pos * std::pow(base, -2.0 * pair / d_model);
    return dim % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

PeStep pe_step(double pos, int dim, int d_model, double base) {
    PeStep step;
    step.value = pe_value(pos, dim, d_model, base); // validates every argument
    step.dim = dim;
    step.pair_index = dim / 2;
    step.exponent = exponent(step.pair_index, d_model);
    step.denominator = denominator(step.pair_index, d_model, base);
    // The same product pe_value forms (pos·ω, not pos / denominator), so sin or cos of this
    // angle is exactly the value shown next to it.
    step.angle = pos * std::pow(base, -2.0 * step.pair_index / d_model);
    step.angle_mod_2pi = std::fmod(step.angle, 2 * M_PI);
    step.is_cos = dim % 2 == 1;
    return step;
}

namespace {

// Column of the sin (first) and cos (second) of pair i inside one row.
inline int sin_column(int pair_index, int /*pairs*/, Layout layout) {
    return layout == Layout::Interleaved ? 2 * pair_index : pair_index;
}
inline int cos_column(int pair_index, int pairs, Layout layout) {
    return layout == Layout::Interleaved ? 2 * pair_index + 1 : pairs + pair_index;
}

} // namespace

void pe_vector_into(double pos, int d_model, double base, float* out, Layout layout) {
    validate_d_model(d_model);
    validate_base(base);
    validate_position(pos);
    const int pairs = d_model / 2;
    for (int i = 0; i < pairs; ++i) {
        const double angle = pos * std::pow(base, -2.0 * i / d_model);
        out[sin_column(i, pairs, layout)] = static_cast<float>(std::sin(angle));
        out[cos_column(i, pairs, layout)] = static_cast<float>(std::cos(angle));
    }
}

std::vector<float> pe_vector(double pos, int d_model, double base, Layout layout) {
    validate_d_model(d_model);
    std::vector<float> result(static_cast<std::size_t>(d_model));
    pe_vector_into(pos, d_model, base, result.data(), layout);
    return result;
}

std::vector<double> pe_vector_double(double pos, int d_model, double base) {
    validate_d_model(d_model);
    validate_base(base);
    validate_position(pos);
    std::vector<double> result(static_cast<std::size_t>(d_model));
    for (int i = 0; i < d_model / 2; ++i) {
        const double angle = pos * std::pow(base, -2.0 * i / d_model);
        result[2 * i] = std::sin(angle);
        result[2 * i + 1] = std::cos(angle);
    }
    return result;
}

void sample_pair(int pair_index, int d_model, double base, double x_min, double x_max, int count,
                 double* out_x, double* out_sin, double* out_cos) {
    validate_pair(pair_index, d_model);
    validate_base(base);
    validate_position(x_min);
    validate_position(x_max);
    if (!(x_min < x_max))
        throw InvalidArgument(
            concat("sample range must have x_min < x_max (got ", x_min, ", ", x_max, ")"));
    if (count < 2 || count > (1 << 20))
        throw InvalidArgument(concat("sample count must be in [2, 1048576] (got ", count, ")"));
    const double w = std::pow(base, -2.0 * pair_index / d_model);
    for (int k = 0; k < count; ++k) {
        const double x = x_min + (x_max - x_min) * k / (count - 1);
        out_x[k] = x;
        out_sin[k] = std::sin(w * x);
        out_cos[k] = std::cos(w * x);
    }
}

void validate_matrix_request(int max_len, int d_model, double base) {
    validate_d_model(d_model);
    validate_base(base);
    if (max_len < 1 || max_len > kMaxSequenceLength)
        throw InvalidArgument(
            concat("max_len must be in [1, ", kMaxSequenceLength, "] (got ", max_len, ")"));
    const std::int64_t elements = static_cast<std::int64_t>(max_len) * d_model;
    if (elements > kMaxMatrixElements)
        throw InvalidArgument(concat("max_len x d_model must be at most ", kMaxMatrixElements,
                                     " values (2^28, 1 GiB of float32); got ", max_len, " x ",
                                     d_model, " = ", elements));
}

// ---------------------------------------------------------------------------------------------
// The matrix kernel. One call writes `rows` consecutive rows starting from the exact (sin, cos)
// state in sin_state / cos_state, advancing the state by one rotation per row. The loops have
// no dependence across pairs, so the compiler vectorises them over pairs; on x86-64 GCC also
// emits an AVX2+FMA clone and picks it at load time (ifunc) when the CPU supports it.
// ---------------------------------------------------------------------------------------------
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(PELAB_NO_CLONES)
#define PELAB_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define PELAB_KERNEL_CLONES
#endif

namespace {

// Rows produced per pass over the pairs. Each pass loads a pair's (sin, cos) state once,
// writes kRowBlock rows from it, and stores it back once: a quarter of the state traffic of
// one row per pass, while every row is still written front to back (walking down the rows
// instead, with the state in registers, was measured slower: strided stores).
constexpr int kRowBlock = 4;

template <Layout kLayout>
inline void store_pair(float* __restrict row, int pair_index, int pairs, double s, double c) {
    row[sin_column(pair_index, pairs, kLayout)] = static_cast<float>(s);
    row[cos_column(pair_index, pairs, kLayout)] = static_cast<float>(c);
}

template <Layout kLayout>
inline void rotate_rows(double* __restrict sin_state, double* __restrict cos_state,
                        const double* __restrict cos_step, const double* __restrict sin_step,
                        int pairs, int rows, float* __restrict out, std::size_t row_stride) {
    int r = 0;
    for (; r + kRowBlock <= rows; r += kRowBlock) {
        float* __restrict row0 = out + static_cast<std::size_t>(r) * row_stride;
        float* __restrict row1 = row0 + row_stride;
        float* __restrict row2 = row1 + row_stride;
        float* __restrict row3 = row2 + row_stride;
        for (int i = 0; i < pairs; ++i) {
            const double cs = cos_step[i], sn = sin_step[i];
            double s = sin_state[i], c = cos_state[i], next;
            store_pair<kLayout>(row0, i, pairs, s, c);
            next = s * cs + c * sn, c = c * cs - s * sn, s = next;
            store_pair<kLayout>(row1, i, pairs, s, c);
            next = s * cs + c * sn, c = c * cs - s * sn, s = next;
            store_pair<kLayout>(row2, i, pairs, s, c);
            next = s * cs + c * sn, c = c * cs - s * sn, s = next;
            store_pair<kLayout>(row3, i, pairs, s, c);
            sin_state[i] = s * cs + c * sn;
            cos_state[i] = c * cs - s * sn;
        }
    }
    for (; r < rows; ++r) {
        float* __restrict row = out + static_cast<std::size_t>(r) * row_stride;
        for (int i = 0; i < pairs; ++i) {
            const double s = sin_state[i], c = cos_state[i];
            store_pair<kLayout>(row, i, pairs, s, c);
            sin_state[i] = s * cos_step[i] + c * sin_step[i];
            cos_state[i] = c * cos_step[i] - s * sin_step[i];
        }
    }
}

PELAB_KERNEL_CLONES
void rotate_rows_interleaved(double* __restrict sin_state, double* __restrict cos_state,
                             const double* __restrict cos_step, const double* __restrict sin_step,
                             int pairs, int rows, float* __restrict out, std::size_t row_stride) {
    rotate_rows<Layout::Interleaved>(sin_state, cos_state, cos_step, sin_step, pairs, rows, out,
                                     row_stride);
}

PELAB_KERNEL_CLONES
void rotate_rows_concatenated(double* __restrict sin_state, double* __restrict cos_state,
                              const double* __restrict cos_step, const double* __restrict sin_step,
                              int pairs, int rows, float* __restrict out, std::size_t row_stride) {
    rotate_rows<Layout::Concatenated>(sin_state, cos_state, cos_step, sin_step, pairs, rows, out,
                                      row_stride);
}

} // namespace

namespace {

// Outputs at least this large are split between threads (smaller ones are done before a thread
// would have started, and a frame's matrices are small).
constexpr std::size_t kThreadedMinBytes = std::size_t{8} << 20;

// Rows [first, last) of the matrix, in blocks of kAnchorInterval rows that each start from
// exact values: blocks are independent, so threads can take any of them.
void pe_matrix_rows(int first_block, int last_block, int max_len, int d_model,
                    const std::vector<double>& omegas, const std::vector<double>& cos_step,
                    const std::vector<double>& sin_step, Layout layout, float* out) {
    const int pairs = d_model / 2;
    std::vector<double> sin_state(pairs), cos_state(pairs);
    for (int b = first_block; b < last_block; ++b) {
        const int first_row = b * kAnchorInterval;
        // Re-anchor: the exact double values at this position end any accumulated drift.
        for (int i = 0; i < pairs; ++i) {
            const double angle = static_cast<double>(first_row) * omegas[i];
            sin_state[i] = std::sin(angle);
            cos_state[i] = std::cos(angle);
        }
        const int rows = std::min(kAnchorInterval, max_len - first_row);
        float* block = out + static_cast<std::size_t>(first_row) * d_model;
        const double* cos_steps = cos_step.data(); // read-only, shared by the threads
        const double* sin_steps = sin_step.data();
        if (layout == Layout::Interleaved)
            rotate_rows_interleaved(sin_state.data(), cos_state.data(), cos_steps, sin_steps, pairs,
                                    rows, block, d_model);
        else
            rotate_rows_concatenated(sin_state.data(), cos_state.data(), cos_steps, sin_steps,
                                     pairs, rows, block, d_model);
    }
}

} // namespace

void pe_matrix_into(int max_len, int d_model, double base, Layout layout, float* out) {
    validate_matrix_request(max_len, d_model, base);
    const int pairs = d_model / 2;
    const std::vector<double> omegas = frequencies(d_model, base);
    std::vector<double> cos_step(pairs), sin_step(pairs);
    for (int i = 0; i < pairs; ++i) {
        cos_step[i] = std::cos(omegas[i]);
        sin_step[i] = std::sin(omegas[i]);
    }
    const int blocks = (max_len + kAnchorInterval - 1) / kAnchorInterval;
    const std::size_t bytes = static_cast<std::size_t>(max_len) * d_model * sizeof(float);
    // A large matrix is computed by up to 4 threads, one contiguous share of blocks each (the
    // rotation, not the memory, limits one core: 3.1 ms for 32 MiB against 2.2 ms to merely
    // store it). The values do not depend on how the blocks are shared.
    const int threads = bytes < kThreadedMinBytes
                            ? 1
                            : std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1,
                                         std::min(4, blocks));
    if (threads == 1) {
        pe_matrix_rows(0, blocks, max_len, d_model, omegas, cos_step, sin_step, layout, out);
        return;
    }
    std::vector<std::thread> workers;
    workers.reserve(static_cast<std::size_t>(threads - 1));
    const auto share = [&](int t) {
        return static_cast<int>(static_cast<long long>(blocks) * t / threads);
    };
    try {
        for (int t = 1; t < threads; ++t)
            workers.emplace_back(pe_matrix_rows, share(t), share(t + 1), max_len, d_model,
                                 std::cref(omegas), std::cref(cos_step), std::cref(sin_step),
                                 layout, out);
    } catch (const std::system_error&) {
        // No thread to be had: the blocks not handed out are done here.
        const int handed = static_cast<int>(workers.size()) + 1;
        pe_matrix_rows(share(handed), blocks, max_len, d_model, omegas, cos_step, sin_step, layout,
                       out);
    }
    pe_matrix_rows(0, share(1), max_len, d_model, omegas, cos_step, sin_step, layout, out);
    for (std::thread& worker : workers)
        worker.join();
}

FloatArray pe_matrix(int max_len, int d_model, double base, Layout layout) {
    validate_matrix_request(max_len, d_model, base);
    FloatArray result(static_cast<std::size_t>(max_len) * d_model);
    pe_matrix_into(max_len, d_model, base, layout, result.data());
    return result;
}

} // namespace pelab
