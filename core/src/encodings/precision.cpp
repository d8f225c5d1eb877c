#include "pelab/encodings/precision.h"

#include "pelab/base/error.h"
#include "pelab/encodings/sinusoidal.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace pelab {

std::array<std::vector<double>, 3> recipe_error_curves(const std::vector<double>& positions,
                                                       int d_model, double base) {
    validate_d_model(d_model);
    validate_base(base);
    const int pairs = d_model / 2;
    // Per pair, once: the exact ω in long double and the recipe's float32 div_term.
    std::vector<long double> exact_omega(pairs);
    std::vector<float> div_term(pairs);
    const float scale = -std::log(static_cast<float>(base)) / static_cast<float>(d_model);
    for (int i = 0; i < pairs; ++i) {
        exact_omega[i] = powl(base, -2.0L * i / d_model);
        div_term[i] = std::exp(static_cast<float>(2 * i) * scale);
    }
    std::array<std::vector<double>, 3> curves;
    for (const double pos : positions) {
        const std::vector<float> core = pe_vector(pos, d_model, base); // validates pos
        const float position = static_cast<float>(pos);
        long double worst[3] = {0, 0, 0};
        for (int i = 0; i < pairs; ++i) {
            const long double angle = static_cast<long double>(pos) * exact_omega[i];
            const long double exact_sin = sinl(angle), exact_cos = cosl(angle);
            const float float_angle = position * div_term[i];
            const double values[3][2] = {
                {std::sin(float_angle), std::cos(float_angle)}, // float overloads: sinf, cosf
                {std::sin(static_cast<double>(float_angle)),
                 std::cos(static_cast<double>(float_angle))},
                {core[2 * i], core[2 * i + 1]}};
            for (int r = 0; r < 3; ++r)
                worst[r] = std::max(
                    {worst[r], fabsl(values[r][0] - exact_sin), fabsl(values[r][1] - exact_cos)});
        }
        for (int r = 0; r < 3; ++r)
            curves[r].push_back(static_cast<double>(worst[r]));
    }
    return curves;
}

double recipe_max_error(PeRecipe recipe, double pos, int d_model, double base) {
    return recipe_error_curves({pos}, d_model, base)[static_cast<int>(recipe)][0];
}

double float32_position_shift(double pos, int d_model, double base, int* worst_pair) {
    validate_d_model(d_model);
    validate_base(base);
    validate_position(pos);
    const float scale = -std::log(static_cast<float>(base)) / static_cast<float>(d_model);
    const float position = static_cast<float>(pos);
    long double worst = 0;
    for (int i = 0; i < d_model / 2; ++i) {
        const long double omega = powl(base, -2.0L * i / d_model);
        const float angle = position * std::exp(static_cast<float>(2 * i) * scale);
        const long double shift = fabsl(angle - static_cast<long double>(pos) * omega) / omega;
        if (shift > worst || i == 0) {
            worst = shift;
            if (worst_pair != nullptr) *worst_pair = i;
        }
    }
    return static_cast<double>(worst);
}

double round_to_format(double x, const FloatFormat& format) {
    if (x == 0 || !std::isfinite(x)) return x;
    int exponent = 0;
    std::frexp(x,
               &exponent); // x = f·2^exponent, |f| in [0.5, 1): its leading bit is 2^(exponent − 1)
    const int leading = std::max(exponent - 1, format.min_exponent); // subnormals: a fixed step
    const int shift = format.significand_bits - 1 - leading;
    const double rounded =
        std::ldexp(std::nearbyint(std::ldexp(x, shift)), -shift); // nearest, ties to even
    if (std::abs(rounded) > format.largest) return std::copysign(INFINITY, x);
    return rounded;
}

long long first_neighbour_collision(double theta, const FloatFormat& format, long long limit) {
    if (!(theta > 0 && theta <= 10))
        throw InvalidArgument("theta must be in (0, 10] (got " + std::to_string(theta) + ")");
    if (limit < 1 || limit > 1000000000LL)
        throw InvalidArgument("limit must be in [1, 1e9] (got " + std::to_string(limit) + ")");
    const long long bits = format.significand_bits;
    // Below 2^(bits − 1) − 1 neighbours differ (while the angles are normal numbers: from 0 if
    // θ is near the subnormal range).
    const bool normal = theta >= std::ldexp(1.0, format.min_exponent + 1);
    const long long start = normal ? std::max(0LL, (1LL << (bits - 1)) - 2) : 0;
    const long long end = std::min(limit, (1LL << (bits + 1)) + 2);
    double here = round_to_format(static_cast<double>(start) * theta, format);
    for (long long p = start; p < end; ++p) {
        const double next = round_to_format(static_cast<double>(p + 1) * theta, format);
        if (next == here) return p;
        here = next;
    }
    return -1;
}

CollisionRange neighbour_collision_range(int d_model, double base, const FloatFormat& format,
                                         long long limit) {
    CollisionRange range;
    const std::vector<double> theta = frequencies(d_model, base);
    range.pairs = static_cast<int>(theta.size());
    for (int i = 0; i < range.pairs; ++i) {
        const long long p =
            first_neighbour_collision(theta[static_cast<std::size_t>(i)], format, limit);
        if (p < 0) {
            ++range.pairs_without;
            continue;
        }
        if (range.least < 0 || p < range.least) range.least = p, range.least_pair = i;
        if (p > range.largest) range.largest = p, range.largest_pair = i;
    }
    return range;
}

AngleStorageError angle_storage_error(double pos, int d_model, double base,
                                      const FloatFormat& format) {
    AngleStorageError error;
    const std::vector<double> theta = frequencies(d_model, base);
    for (std::size_t i = 0; i < theta.size(); ++i) {
        const double angle = pos * theta[i];
        const double off = std::abs(round_to_format(angle, format) - angle);
        if (i == 0) error.fastest_radians = off;
        if (off > error.radians) error.radians = off, error.radians_pair = static_cast<int>(i);
        if (off / theta[i] > error.positions)
            error.positions = off / theta[i], error.positions_pair = static_cast<int>(i);
    }
    return error;
}

long long first_share_collision(const FloatFormat& format) {
    const long long bits = format.significand_bits;
    const long long start = std::max(0LL, (1LL << (bits - 1)) - 2);
    const long long end = (1LL << (bits + 1)) + 2;
    double here = round_to_format(1.0 / static_cast<double>(start + 1), format);
    for (long long p = start; p < end; ++p) {
        const double next = round_to_format(1.0 / static_cast<double>(p + 2), format);
        if (next == here) return p;
        here = next;
    }
    return -1; // not reached: two of any three neighbours past 2^(bits + 1) round alike
}

long long first_position_collision(const FloatFormat& format) {
    return 1LL << format.significand_bits;
}

} // namespace pelab
