#include "pelab/encodings/candidates.h"

#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/embedding.h"
#include "pelab/encodings/sinusoidal.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace pelab {

namespace {

struct CandidateInfo {
    const char* name;
    const char* id;
    const char* formula;
};

const CandidateInfo kInfo[kCandidateCount] = {
    {"raw index", "raw_index", "PE(p)_j = p"},
    {"index / length", "index_over_length", "PE(p)_j = p / L   (p < L)"},
    {"binary bits", "binary", "PE(p)_j = bit j of p"},
    {"decimal digits", "decimal", "PE(p)_j = digit j of p"},
    {"random + increment", "random_increment", "PE(p)_j = r_j + 0.02·p,   r_j uniform in [−1, 1]"},
    {"sin only", "sin_only", "PE(p)_j = sin(p · base^(−j/d))"},
    {"(sin + 1) / 2", "shifted_sin", "PE(p)_j = (sin(p · base^(−j/d)) + 1) / 2"},
    {"sin + cos pairs", "sin_cos", "PE(p)_2i = sin(p·ω_i),  PE(p)_2i+1 = cos(p·ω_i)"},
    {"learned table", "learned", "PE(p) = row p of a table of L rows   (p < L)"},
};

// The seeded uniform value in [−1, 1] of (row, dim): generated on demand so that a table of any
// length costs nothing, and the same (seed, row, dim) always gives the same value.
double seeded_unit(std::uint64_t seed, std::uint64_t row, std::uint64_t dim) {
    SplitMix64 generator(seed ^ (row * 0x9E3779B97F4A7C15ULL) ^ (dim * 0xC2B2AE3D27D4EB4FULL));
    generator.next();
    return 2.0 * generator.uniform() - 1.0;
}

std::vector<double> encode_or_empty(Candidate candidate, double pos,
                                    const CandidateSettings& settings, int dims) {
    std::vector<double> values(static_cast<std::size_t>(dims));
    if (!candidate_encode(candidate, pos, settings, dims, values.data())) values.clear();
    return values;
}

double squared_distance(const double* a, const double* b, int dims) {
    double sum = 0;
    for (int j = 0; j < dims; ++j)
        sum += (a[j] - b[j]) * (a[j] - b[j]);
    return sum;
}

// Collisions among the rows of `rows` (count × dims): pairs equal exactly, and pairs within
// kNearCollision in every dim. Rows are sorted by a fixed projection with weights summing to 1
// in absolute value, so two rows within t in every dim have projections within t: only
// neighbours in that order need comparing, in O(count log count) for distinct data.
void count_collisions(const std::vector<double>& rows, int count, int dims,
                      CandidateProperties& result) {
    std::vector<double> weights(static_cast<std::size_t>(dims));
    double weight_sum = 0;
    for (int j = 0; j < dims; ++j) {
        weights[j] = 1.0 + 0.6180339887 * j - std::floor(0.6180339887 * j); // in [1, 2)
        weight_sum += weights[j];
    }
    std::vector<double> projection(static_cast<std::size_t>(count));
    for (int p = 0; p < count; ++p) {
        double sum = 0;
        for (int j = 0; j < dims; ++j)
            sum += weights[j] / weight_sum * rows[static_cast<std::size_t>(p) * dims + j];
        projection[p] = sum;
    }
    std::vector<int> order(static_cast<std::size_t>(count));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return projection[a] < projection[b]; });
    // The projection's own rounding: a few ulps of the largest value.
    double largest = 0;
    for (const double value : rows)
        largest = std::max(largest, std::abs(value));
    const double rounding = 1e-12 * (1 + largest);
    const double slack = kNearCollision + rounding;
    // The closest pair too: two rows within d in every dim have projections within d, so the
    // scan only needs to reach the closest distance found so far.
    // When the projection does not separate the rows (bits and digits crowd into a narrow
    // range), that search would compare most pairs: past a budget of comparisons it stops, and
    // the closest pair is not reported (closest_p stays −1) rather than reported wrong.
    double closest = std::numeric_limits<double>::infinity();
    bool searching = true;
    long long extra_comparisons = 0;
    const long long budget = 32LL * count;
    for (int a = 0; a < count; ++a) {
        const int p = order[a];
        for (int b = a + 1; b < count; ++b) {
            const double gap = projection[order[b]] - projection[p];
            if (gap > (searching ? std::max(slack, closest + rounding) : slack)) break;
            if (gap > slack && ++extra_comparisons > budget) {
                searching = false;
                break;
            }
            const int q = order[b];
            const double* row_p = rows.data() + static_cast<std::size_t>(p) * dims;
            const double* row_q = rows.data() + static_cast<std::size_t>(q) * dims;
            double largest_gap = 0;
            for (int j = 0; j < dims; ++j)
                largest_gap = std::max(largest_gap, std::abs(row_p[j] - row_q[j]));
            if (largest_gap < closest ||
                (largest_gap == closest && std::max(p, q) < result.closest_q)) {
                closest = largest_gap;
                result.closest_distance = largest_gap;
                result.closest_p = std::min(p, q), result.closest_q = std::max(p, q);
            }
            if (largest_gap > kNearCollision) continue;
            ++result.collisions_near;
            if (largest_gap == 0) ++result.collisions_exact;
            const int low = std::min(p, q), high = std::max(p, q);
            if (result.first_collision_q < 0 || high < result.first_collision_q ||
                (high == result.first_collision_q && low < result.first_collision_p)) {
                result.first_collision_p = low;
                result.first_collision_q = high;
            }
        }
    }
    if (!searching) {
        result.closest_p = result.closest_q = -1;
        result.closest_distance = 0;
    }
}

double linear_shift_residual(const std::vector<double>& rows, const std::vector<bool>& defined,
                             int count, int dims, int shift_k, int& pairs) {
    std::vector<int> starts;
    for (int p = 0; p + shift_k < count; ++p)
        if (defined[p] && defined[p + shift_k]) starts.push_back(p);
    pairs = static_cast<int>(starts.size());
    if (pairs <= dims) return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> x(static_cast<std::size_t>(pairs) * dims), y(x.size());
    for (int r = 0; r < pairs; ++r)
        for (int j = 0; j < dims; ++j) {
            x[static_cast<std::size_t>(r) * dims + j] =
                rows[static_cast<std::size_t>(starts[r]) * dims + j];
            y[static_cast<std::size_t>(r) * dims + j] =
                rows[static_cast<std::size_t>(starts[r] + shift_k) * dims + j];
        }
    return relative_least_squares_residual(x, y, pairs, dims, dims);
}

} // namespace

double relative_least_squares_residual(const std::vector<double>& x, const std::vector<double>& y,
                                       int rows, int x_cols, int y_cols) {
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Eigen::Map<const RowMajor> a(x.data(), rows, x_cols), b(y.data(), rows, y_cols);
    const double b_norm = b.norm();
    if (b_norm == 0) return 0;
    // Every exact least-squares solution leaves the same residual; which one a solver finds
    // depends on where it draws the rank. NumPy's rule: singular values below
    // eps·max(m, n)·σ_max are zero (a looser pivoting-QR threshold kept near-dependent columns
    // and missed the minimum: 0.06876 against 0.06658).
    Eigen::BDCSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeThinU | Eigen::ComputeThinV);
    svd.setThreshold(std::numeric_limits<double>::epsilon() * std::max(rows, x_cols));
    const Eigen::MatrixXd map = svd.solve(b);
    return (a * map - b).norm() / b_norm;
}

const char* candidate_name(Candidate candidate) {
    return kInfo[static_cast<int>(candidate)].name;
}
const char* candidate_id(Candidate candidate) {
    return kInfo[static_cast<int>(candidate)].id;
}
const char* candidate_formula(Candidate candidate) {
    return kInfo[static_cast<int>(candidate)].formula;
}

void validate_candidate_settings(const CandidateSettings& settings) {
    validate_d_model(settings.d_model);
    validate_base(settings.base);
    if (settings.length < kMinCandidateLength || settings.length > kMaxCandidateLength)
        throw InvalidArgument("length L must be in [" + std::to_string(kMinCandidateLength) + ", " +
                              std::to_string(kMaxCandidateLength) + "] (got " +
                              std::to_string(settings.length) + ")");
}

bool candidate_encode(Candidate candidate, double pos, const CandidateSettings& settings, int dims,
                      double* out) {
    validate_candidate_settings(settings);
    validate_position(pos);
    if (dims < 1 || dims > settings.d_model)
        throw InvalidArgument("dims must be in [1, d_model = " + std::to_string(settings.d_model) +
                              "] (got " + std::to_string(dims) + ")");
    const double d = settings.d_model;
    // Digits and bits of a fractional position are those of its whole part.
    const auto whole = static_cast<std::uint64_t>(std::floor(pos));
    switch (candidate) {
    case Candidate::RawIndex:
        std::fill(out, out + dims, pos);
        return true;
    case Candidate::IndexOverLength:
        if (pos >= settings.length) return false;
        std::fill(out, out + dims, pos / settings.length);
        return true;
    case Candidate::Binary:
        for (int j = 0; j < dims; ++j)
            out[j] = j < 64 ? static_cast<double>((whole >> j) & 1U) : 0.0;
        return true;
    case Candidate::Decimal: {
        std::uint64_t rest = whole;
        for (int j = 0; j < dims; ++j, rest /= 10)
            out[j] = static_cast<double>(rest % 10);
        return true;
    }
    case Candidate::RandomIncrement:
        for (int j = 0; j < dims; ++j)
            out[j] = seeded_unit(settings.seed, 0, static_cast<std::uint64_t>(j)) +
                     kRandomIncrementStep * pos;
        return true;
    case Candidate::SinOnly:
    case Candidate::ShiftedSin:
        for (int j = 0; j < dims; ++j) {
            const double wave = std::sin(pos * std::pow(settings.base, -j / d));
            out[j] = candidate == Candidate::SinOnly ? wave : (wave + 1) / 2;
        }
        return true;
    case Candidate::SinCos:
        for (int j = 0; j < dims; ++j)
            out[j] = pe_value(pos, j, settings.d_model, settings.base);
        return true;
    case Candidate::Learned:
        if (pos >= settings.length || pos != std::floor(pos)) return false;
        for (int j = 0; j < dims; ++j)
            out[j] = seeded_unit(settings.seed + 1, whole + 1, static_cast<std::uint64_t>(j));
        return true;
    }
    throw InvalidArgument("unknown candidate encoding");
}

CandidateProperties candidate_properties(Candidate candidate, const CandidateSettings& settings,
                                         int positions, int dims, int shift_k) {
    validate_candidate_settings(settings);
    if (positions < 2 || positions > kMaxCheckedPositions)
        throw InvalidArgument("positions must be in [2, " + std::to_string(kMaxCheckedPositions) +
                              "] (got " + std::to_string(positions) + ")");
    const int max_dims = std::min(settings.d_model, kMaxCheckedDims);
    if (dims < 1 || dims > max_dims)
        throw InvalidArgument("dims must be in [1, " + std::to_string(max_dims) + "] (got " +
                              std::to_string(dims) + ")");
    if (shift_k < 1 || shift_k >= positions)
        throw InvalidArgument(
            "shift k must be in [1, positions − 1 = " + std::to_string(positions - 1) + "] (got " +
            std::to_string(shift_k) + ")");
    CandidateProperties result;
    result.dims_checked = dims;
    result.shift_k = shift_k;
    std::vector<double> rows(static_cast<std::size_t>(positions) * dims);
    std::vector<bool> defined(static_cast<std::size_t>(positions));
    // The sinusoids' frequencies once, not once per position (this loop is most of the cost).
    const bool sinusoid = candidate == Candidate::SinOnly || candidate == Candidate::ShiftedSin ||
                          candidate == Candidate::SinCos;
    std::vector<double> frequency(static_cast<std::size_t>(dims));
    for (int j = 0; sinusoid && j < dims; ++j)
        frequency[j] = candidate == Candidate::SinCos
                           ? omega(j / 2, settings.d_model, settings.base)
                           : std::pow(settings.base, -j / static_cast<double>(settings.d_model));
    for (int p = 0; p < positions; ++p) {
        double* row = rows.data() + static_cast<std::size_t>(p) * dims;
        if (!sinusoid) {
            defined[p] = candidate_encode(candidate, p, settings, dims, row);
            continue;
        }
        defined[p] = true;
        for (int j = 0; j < dims; ++j) {
            const double angle = p * frequency[j];
            row[j] =
                candidate == Candidate::SinCos && j % 2 == 1 ? std::cos(angle) : std::sin(angle);
            if (candidate == Candidate::ShiftedSin) row[j] = (row[j] + 1) / 2;
        }
    }
    // The defined rows, packed (every candidate defines a prefix 0 … n−1).
    const int count = static_cast<int>(std::count(defined.begin(), defined.end(), true));
    result.positions_checked = count;
    for (std::size_t index = 0; index < static_cast<std::size_t>(count) * dims; ++index)
        result.max_abs = std::max(result.max_abs, std::abs(rows[index]));
    count_collisions(rows, count, dims, result);

    // Smoothness: the largest neighbour step against the RMS distance between two positions,
    // from mean ‖x‖² and ‖mean x‖² (mean over pairs p ≠ q of ‖x_p − x_q‖² =
    // 2n/(n−1)·(mean ‖x‖² − ‖mean x‖²)), so no n² loop is needed.
    for (int p = 0; p + 1 < count; ++p)
        result.largest_step = std::max(
            result.largest_step, std::sqrt(squared_distance(
                                     rows.data() + static_cast<std::size_t>(p) * dims,
                                     rows.data() + static_cast<std::size_t>(p + 1) * dims, dims)));
    if (count >= 2) {
        double mean_square = 0;
        std::vector<double> mean(static_cast<std::size_t>(dims), 0.0);
        for (int p = 0; p < count; ++p)
            for (int j = 0; j < dims; ++j) {
                const double value = rows[static_cast<std::size_t>(p) * dims + j];
                mean_square += value * value / count;
                mean[j] += value / count;
            }
        double mean_norm_square = 0;
        for (const double value : mean)
            mean_norm_square += value * value;
        result.rms_distance = std::sqrt(
            std::max(0.0, 2.0 * count / (count - 1.0) * (mean_square - mean_norm_square)));
    }
    result.smoothness = result.rms_distance > 0 ? result.largest_step / result.rms_distance : 0;

    result.shift_residual =
        linear_shift_residual(rows, defined, positions, dims, shift_k, result.shift_pairs);

    // Same across lengths: position 5 in a sequence (table) of length 10 and of length 100.
    CandidateSettings short_length = settings, long_length = settings;
    short_length.length = 10;
    long_length.length = 100;
    const std::vector<double> at_short = encode_or_empty(candidate, 5, short_length, dims);
    const std::vector<double> at_long = encode_or_empty(candidate, 5, long_length, dims);
    for (int j = 0; j < dims; ++j)
        result.length_change = std::max(result.length_change, std::abs(at_short[j] - at_long[j]));

    std::vector<double> scratch(static_cast<std::size_t>(dims));
    result.defined_beyond_length =
        candidate_encode(candidate, settings.length, settings, dims, scratch.data());
    return result;
}

double candidate_norm(Candidate candidate, double pos, const CandidateSettings& settings) {
    const std::vector<double> values = encode_or_empty(candidate, pos, settings, settings.d_model);
    if (values.empty()) return -1;
    double sum = 0;
    for (const double value : values)
        sum += value * value;
    return std::sqrt(sum);
}

} // namespace pelab
