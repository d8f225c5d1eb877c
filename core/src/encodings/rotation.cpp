#include "pelab/encodings/rotation.h"

#include "base/format.h"
#include "pelab/base/error.h"
#include "pelab/encodings/sinusoidal.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pelab {

namespace {
void validate_shift(double pos, double offset) {
    validate_position(pos);
    if (!std::isfinite(offset))
        throw InvalidArgument(
            detail::concat("offset k must be a finite number (got ", offset, ")"));
    validate_position(pos + offset);
}
} // namespace

Rotation2 rotation_matrix(int pair_index, double offset, int d_model, double base) {
    if (!std::isfinite(offset))
        throw InvalidArgument(
            detail::concat("offset k must be a finite number (got ", offset, ")"));
    const double angle = omega(pair_index, d_model, base) * offset;
    const double c = std::cos(angle), s = std::sin(angle);
    return Rotation2{c, s, -s, c};
}

void apply_rotation(const Rotation2& rotation, double sin_value, double cos_value, double* out_sin,
                    double* out_cos) {
    *out_sin = rotation.m00 * sin_value + rotation.m01 * cos_value;
    *out_cos = rotation.m10 * sin_value + rotation.m11 * cos_value;
}

namespace {
// max over pairs of |PE(pos + k) − R_k·PE(pos)| with both vectors as the caller's type holds them.
template <typename Vector>
double residual(const Vector& here, const Vector& there, double offset, int d_model, double base) {
    double worst = 0;
    for (int i = 0; i < d_model / 2; ++i) {
        double rotated_sin = 0, rotated_cos = 0;
        apply_rotation(rotation_matrix(i, offset, d_model, base), here[2 * i], here[2 * i + 1],
                       &rotated_sin, &rotated_cos);
        worst = std::max(worst, std::fabs(there[2 * i] - rotated_sin));
        worst = std::max(worst, std::fabs(there[2 * i + 1] - rotated_cos));
    }
    return worst;
}
} // namespace

double rotation_residual(double pos, double offset, int d_model, double base) {
    validate_shift(pos, offset);
    return residual(pe_vector(pos, d_model, base), pe_vector(pos + offset, d_model, base), offset,
                    d_model, base);
}

double rotation_residual_double(double pos, double offset, int d_model, double base) {
    validate_shift(pos, offset);
    return residual(pe_vector_double(pos, d_model, base),
                    pe_vector_double(pos + offset, d_model, base), offset, d_model, base);
}

std::vector<double> shift_dot_products(double pos, int k_min, int k_max, int d_model, double base) {
    if (k_min > k_max || k_max - k_min > 20000)
        throw InvalidArgument(
            detail::concat("offsets must satisfy k_min <= k_max <= k_min + 20000 (got ", k_min,
                           " to ", k_max, ")"));
    validate_shift(pos, k_min);
    validate_shift(pos, k_max);
    // The PE values themselves, sin and cos of ω_i·(pos + k) for every pair, multiplied out:
    // no use of the identity being demonstrated. ω_i is computed once, as pe_value does.
    const std::vector<double> omegas = frequencies(d_model, base);
    const int pairs = d_model / 2;
    std::vector<double> start_sin(pairs), start_cos(pairs);
    for (int i = 0; i < pairs; ++i) {
        start_sin[i] = std::sin(pos * omegas[i]);
        start_cos[i] = std::cos(pos * omegas[i]);
    }
    std::vector<double> dots;
    dots.reserve(static_cast<std::size_t>(k_max - k_min) + 1);
    for (int k = k_min; k <= k_max; ++k) {
        const double shifted = pos + k;
        double dot = 0;
        for (int i = 0; i < pairs; ++i) {
            const double angle = shifted * omegas[i];
            dot += start_sin[i] * std::sin(angle) + start_cos[i] * std::cos(angle);
        }
        dots.push_back(dot);
    }
    return dots;
}

} // namespace pelab
