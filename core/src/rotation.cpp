#include "pelab/rotation.h"

#include "format.h"
#include "pelab/error.h"
#include "pelab/sinusoidal.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pelab {

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

double rotation_residual(double pos, double offset, int d_model, double base) {
    validate_position(pos);
    if (!std::isfinite(offset))
        throw InvalidArgument(
            detail::concat("offset k must be a finite number (got ", offset, ")"));
    validate_position(pos + offset);
    const std::vector<float> here = pe_vector(pos, d_model, base);
    const std::vector<float> there = pe_vector(pos + offset, d_model, base);
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

} // namespace pelab
