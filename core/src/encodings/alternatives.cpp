#include "pelab/encodings/alternatives.h"

#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/embedding.h"
#include "pelab/encodings/sinusoidal.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>

namespace pelab {

namespace {

void validate_vector_pair(const std::vector<double>& q, const std::vector<double>& k) {
    validate_d_model(static_cast<int>(q.size()));
    if (k.size() != q.size())
        throw InvalidArgument("q and k must have the same length (got " + std::to_string(q.size()) +
                              " and " + std::to_string(k.size()) + ")");
    for (std::size_t j = 0; j < q.size(); ++j)
        if (!std::isfinite(q[j]) || !std::isfinite(k[j]))
            throw InvalidArgument("q and k must hold finite numbers (dim " + std::to_string(j) +
                                  " is not)");
}

void validate_shift_sweep(int shift_count, double step) {
    if (shift_count < 1 || shift_count > 100000)
        throw InvalidArgument("shift_count must be in [1, 100000] (got " +
                              std::to_string(shift_count) + ")");
    if (!(step > 0) || !std::isfinite(step))
        throw InvalidArgument("step must be a finite number > 0");
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (std::size_t j = 0; j < a.size(); ++j)
        sum += a[j] * b[j];
    return sum;
}

} // namespace

// ---- Learned table ----------------------------------------------------------------------------

LearnedTable make_learned_table(int rows, int d, std::uint64_t seed) {
    if (rows < 1 || rows > kMaxLearnedRows)
        throw InvalidArgument("a learned table needs rows in [1, " +
                              std::to_string(kMaxLearnedRows) + "] (got " + std::to_string(rows) +
                              ")");
    validate_d_model(d);
    return LearnedTable{rows, d, seed};
}

std::optional<std::vector<double>> LearnedTable::lookup(double pos) const {
    validate_position(pos);
    if (pos >= rows || pos != std::floor(pos)) return std::nullopt;
    // One generator per row, seeded by (seed, row): any row is reproducible on its own.
    SplitMix64 generator(seed ^ (static_cast<std::uint64_t>(pos) + 1) * 0x9E3779B97F4A7C15ULL);
    std::vector<double> row(static_cast<std::size_t>(d));
    for (double& value : row)
        value = 2.0 * generator.uniform() - 1.0;
    return row;
}

// ---- RoPE -------------------------------------------------------------------------------------

std::vector<double> rope_frequencies(int d, double base) {
    return frequencies(d, base);
}

std::vector<double> rope_rotate(const std::vector<double>& x, double pos, double base,
                                RopePairing pairing) {
    validate_d_model(static_cast<int>(x.size()));
    validate_position(pos);
    const int d = static_cast<int>(x.size());
    std::vector<double> out = x;
    for (int i = 0; i < d / 2; ++i) {
        const double angle = pos * omega(i, d, base);
        rope_turn(out[static_cast<std::size_t>(rope_pair_dimension(pairing, i, 0, d))],
                  out[static_cast<std::size_t>(rope_pair_dimension(pairing, i, 1, d))],
                  std::cos(angle), std::sin(angle));
    }
    return out;
}

std::vector<double> rope_as_interleaved(const std::vector<double>& x, RopePairing from) {
    validate_d_model(static_cast<int>(x.size()));
    const int d = static_cast<int>(x.size());
    std::vector<double> out(x.size());
    for (int i = 0; i < d / 2; ++i)
        for (int member = 0; member < 2; ++member) {
            const int interleaved = 2 * i + member;
            out[static_cast<std::size_t>(interleaved)] =
                x[static_cast<std::size_t>(rope_pair_dimension(from, i, member, d))];
        }
    return out;
}

std::vector<double> rope_as_interleaved(const std::vector<double>& x, RopePairing from,
                                        int rotary_dims) {
    validate_d_model(static_cast<int>(x.size()));
    if (rotary_dims < 0 || rotary_dims % 2 != 0 || rotary_dims > static_cast<int>(x.size()))
        throw InvalidArgument("the rotary dimensions must be even and within the vector's " +
                              std::to_string(x.size()) + " (got " + std::to_string(rotary_dims) +
                              ")");
    std::vector<double> out = x;
    if (rotary_dims == 0) return out;
    const std::vector<double> turned =
        rope_as_interleaved(std::vector<double>(x.begin(), x.begin() + rotary_dims), from);
    std::copy(turned.begin(), turned.end(), out.begin());
    return out;
}

double rope_score(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                  double base, RopePairing pairing) {
    validate_vector_pair(q, k);
    return dot(rope_rotate(q, m, base, pairing), rope_rotate(k, n, base, pairing));
}

double rope_score_relative(const std::vector<double>& q, const std::vector<double>& k,
                           double distance, double base) {
    validate_vector_pair(q, k);
    validate_base(base);
    if (!std::isfinite(distance) || std::abs(distance) > kMaxPosition)
        throw InvalidArgument("distance must be finite and within ±1e9");
    const int d = static_cast<int>(q.size());
    double sum = 0;
    for (int i = 0; i < d / 2; ++i) {
        const double q_length = std::hypot(q[2 * i], q[2 * i + 1]);
        const double k_length = std::hypot(k[2 * i], k[2 * i + 1]);
        const double phase =
            std::atan2(q[2 * i + 1], q[2 * i]) - std::atan2(k[2 * i + 1], k[2 * i]);
        sum += q_length * k_length * std::cos(distance * omega(i, d, base) + phase);
    }
    return sum;
}

double rope_max_shift_change(const std::vector<double>& q, const std::vector<double>& k, double m,
                             double n, double base, int shift_count, double step) {
    validate_shift_sweep(shift_count, step);
    const double reference = rope_score(q, k, m, n, base); // validates q, k, m, n and base
    // rope_score at each shift, with each θ_i computed once instead of once per shift: the
    // same operations in the same order as rope_rotate and dot, so the same bits, a few times
    // faster (the powers were most of the cost).
    const int d = static_cast<int>(q.size());
    std::vector<double> theta(static_cast<std::size_t>(d / 2));
    for (int i = 0; i < d / 2; ++i)
        theta[i] = omega(i, d, base);
    const auto score = [&](double q_pos, double k_pos) {
        double sum = 0;
        for (int i = 0; i < d / 2; ++i) {
            const double q_angle = q_pos * theta[i], k_angle = k_pos * theta[i];
            double q0 = q[2 * i], q1 = q[2 * i + 1], k0 = k[2 * i], k1 = k[2 * i + 1];
            rope_turn(q0, q1, std::cos(q_angle), std::sin(q_angle));
            rope_turn(k0, k1, std::cos(k_angle), std::sin(k_angle));
            sum += q0 * k0;
            sum += q1 * k1;
        }
        return sum;
    };
    double largest = 0;
    for (int s = 1; s < shift_count; ++s) {
        const double shift = s * step;
        if (m + shift > kMaxPosition || n + shift > kMaxPosition) break;
        largest = std::max(largest, std::abs(score(m + shift, n + shift) - reference));
    }
    return largest;
}

double rope_expected_similarity(double distance, int d, double base) {
    validate_d_model(d);
    validate_base(base);
    if (!std::isfinite(distance)) throw InvalidArgument("distance must be finite");
    double sum = 0;
    for (int i = 0; i < d / 2; ++i)
        sum += std::cos(distance * omega(i, d, base));
    const int pairs = d / 2;
    return sum / pairs;
}

double rope_decay_bound(double distance, int d, double base) {
    validate_d_model(d);
    validate_base(base);
    if (!std::isfinite(distance)) throw InvalidArgument("distance must be finite");
    std::complex<double> partial = 0;
    double sum = 0;
    for (int j = 1; j <= d / 2; ++j) {
        partial += std::polar(1.0, distance * omega(j - 1, d, base)); // S_j = Σ_{i<j} e^{iΔθ_i}
        sum += std::abs(partial);
    }
    const int pairs = d / 2;
    return sum / pairs;
}

std::vector<double> seeded_vector(int d, std::uint64_t seed) {
    validate_d_model(d);
    SplitMix64 generator(seed);
    std::vector<double> values(static_cast<std::size_t>(d));
    for (double& value : values)
        value = generator.normal();
    return values;
}

// ---- ALiBi ------------------------------------------------------------------------------------

std::vector<double> alibi_slopes(int heads) {
    if (heads < 1 || heads > kMaxAlibiHeads)
        throw InvalidArgument("heads must be in [1, " + std::to_string(kMaxAlibiHeads) + "] (got " +
                              std::to_string(heads) + ")");
    // For a power of two n: start = 2^(−8/n), slopes start^1 … start^n.
    const auto power_of_two_slopes = [](int n) {
        std::vector<double> slopes(static_cast<std::size_t>(n));
        for (int h = 1; h <= n; ++h)
            slopes[h - 1] = std::pow(2.0, -8.0 * h / n);
        return slopes;
    };
    int lower = 1;
    while (lower * 2 <= heads)
        lower *= 2;
    std::vector<double> slopes = power_of_two_slopes(lower);
    if (lower == heads) return slopes;
    const std::vector<double> finer = power_of_two_slopes(2 * lower);
    for (std::size_t h = 0; static_cast<int>(slopes.size()) < heads; h += 2)
        slopes.push_back(finer[h]);
    return slopes;
}

double alibi_bias(double slope, int query, int key, bool causal) {
    if (!std::isfinite(slope) || slope < 0)
        throw InvalidArgument("an ALiBi slope must be a finite number ≥ 0");
    if (causal && key > query) return -std::numeric_limits<double>::infinity();
    return -slope * std::abs(static_cast<double>(query) - key);
}

Matrix alibi_bias_matrix(double slope, int n, bool causal) {
    if (n < 1 || n > kMaxSentenceTokens * 256)
        throw InvalidArgument("the bias matrix needs n in [1, 8192] (got " + std::to_string(n) +
                              ")");
    Matrix bias(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            bias.at(i, j) = alibi_bias(slope, i, j, causal);
    return bias;
}

// ---- T5 buckets -------------------------------------------------------------------------------

void validate_t5_options(const T5BucketOptions& options) {
    if (options.num_buckets < 2 || options.num_buckets > 1024)
        throw InvalidArgument("num_buckets must be in [2, 1024] (got " +
                              std::to_string(options.num_buckets) + ")");
    if (options.bidirectional && (options.num_buckets % 2 != 0 || options.num_buckets < 4))
        throw InvalidArgument("bidirectional buckets need an even num_buckets ≥ 4 (half per side, "
                              "and each side at least one exact bucket; got " +
                              std::to_string(options.num_buckets) + ")");
    const int side = options.bidirectional ? options.num_buckets / 2 : options.num_buckets;
    if (options.max_distance <= side / 2 || options.max_distance > 1000000000)
        throw InvalidArgument("max_distance must be in [" + std::to_string(side / 2 + 1) +
                              ", 1e9] (got " + std::to_string(options.max_distance) +
                              "): past the exact buckets");
}

int t5_bucket(long long relative_position, const T5BucketOptions& options) {
    validate_t5_options(options);
    int bucket = 0;
    int side = options.num_buckets;
    long long n = -relative_position; // a key before the query is a positive distance
    if (options.bidirectional) {
        side /= 2;
        if (n < 0) bucket += side; // keys after the query use the second half
        n = std::llabs(n);
    } else {
        n = std::max(n, 0LL); // a causal model never looks ahead: all of that is bucket 0
    }
    const int max_exact = side / 2;
    if (n < max_exact) return bucket + static_cast<int>(n);
    // Truncation towards zero as in the reference (an int cast of a non-negative float).
    const double log_ratio = std::log(static_cast<double>(n) / max_exact) /
                             std::log(static_cast<double>(options.max_distance) / max_exact);
    const long long large = max_exact + static_cast<long long>(log_ratio * (side - max_exact));
    return bucket + static_cast<int>(std::min<long long>(large, side - 1));
}

long long t5_last_bucket_start(const T5BucketOptions& options) {
    validate_t5_options(options);
    const int last = t5_bucket(-static_cast<long long>(options.max_distance), options);
    // Buckets never decrease with distance: search the first distance in the last bucket.
    long long low = 0, high = options.max_distance;
    while (low < high) {
        const long long middle = (low + high) / 2;
        if (t5_bucket(-middle, options) >= last)
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

std::vector<double> t5_bucket_biases(int num_buckets, std::uint64_t seed) {
    if (num_buckets < 2 || num_buckets > 1024)
        throw InvalidArgument("num_buckets must be in [2, 1024]");
    SplitMix64 generator(seed);
    std::vector<double> biases(static_cast<std::size_t>(num_buckets));
    for (double& bias : biases)
        bias = generator.normal();
    return biases;
}

// ---- Comparison checks ------------------------------------------------------------------------

double sinusoidal_max_shift_change(double m, double n, int d, double base, int shift_count) {
    validate_shift_sweep(shift_count, 1);
    const std::vector<double> a = pe_vector_double(m, d, base), b = pe_vector_double(n, d, base);
    const double reference = dot(a, b);
    // dot(pe_vector_double(m + s), pe_vector_double(n + s)) with each frequency computed once:
    // the same operations in the same order, so the same bits.
    std::vector<double> frequency(static_cast<std::size_t>(d / 2));
    for (int i = 0; i < d / 2; ++i)
        frequency[i] = std::pow(base, -2.0 * i / d);
    double largest = 0;
    for (int s = 1; s < shift_count; ++s) {
        if (m + s > kMaxPosition || n + s > kMaxPosition) break;
        double sum = 0;
        for (int i = 0; i < d / 2; ++i) {
            const double a_angle = (m + s) * frequency[i], b_angle = (n + s) * frequency[i];
            sum += std::sin(a_angle) * std::sin(b_angle);
            sum += std::cos(a_angle) * std::cos(b_angle);
        }
        largest = std::max(largest, std::abs(sum - reference));
    }
    return largest;
}

double learned_max_shift_change(const LearnedTable& table, int m, int n, int shift_count) {
    validate_shift_sweep(shift_count, 1);
    const auto a = table.lookup(m), b = table.lookup(n);
    if (!a || !b) throw InvalidArgument("m and n must be rows of the table");
    const double reference = dot(*a, *b);
    double largest = 0;
    for (int s = 1; s < shift_count; ++s) {
        const auto shifted_a = table.lookup(m + s), shifted_b = table.lookup(n + s);
        if (!shifted_a || !shifted_b) break;
        largest = std::max(largest, std::abs(dot(*shifted_a, *shifted_b) - reference));
    }
    return largest;
}

std::vector<double> cope_positions(const std::vector<double>& gates) {
    if (gates.empty()) throw InvalidArgument("CoPE needs at least one gate (the query's own)");
    std::vector<double> positions(gates.size());
    double count = 0;
    for (std::size_t t = gates.size(); t-- > 0;) {
        if (!(gates[t] >= 0 && gates[t] <= 1))
            throw InvalidArgument("a CoPE gate must be in [0, 1] (got " + std::to_string(gates[t]) +
                                  ")");
        count += gates[t];
        positions[t] = count;
    }
    return positions;
}

} // namespace pelab
