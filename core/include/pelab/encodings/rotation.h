// pelab/encodings/rotation.h — shifting a position by k is a rotation in every (sin, cos) pair.
//
//   [sin ω(p+k)]   [ cos ωk   sin ωk ] [sin ωp]
//   [cos ω(p+k)] = [−sin ωk   cos ωk ] [cos ωp]        (the same R_k for every p)
//
// Contracts: as in sinusoidal.h; the offset k may be negative as long as pos + k ≥ 0.
#pragma once

#include <vector>

namespace pelab {

/// Row-major 2×2 matrix acting on the column vector (sin, cos) of one pair.
struct Rotation2 {
    double m00, m01, m10, m11;
};

/// R_k for pair i.
Rotation2 rotation_matrix(int pair_index, double offset, int d_model, double base);

/// R·(sin, cos).
void apply_rotation(const Rotation2& rotation, double sin_value, double cos_value, double* out_sin,
                    double* out_cos);

/// max over all dims of |PE(pos+k) − R_k·PE(pos)|, with both PE vectors stored as float32
/// the way a model holds them: float rounding only, ≈ 1e-7. Shows the identity holds for
/// the numbers a model actually sees.
double rotation_residual(double pos, double offset, int d_model, double base);

/// The same maximum in double throughout (PE vectors and R_k in double): only the rounding of
/// sin, cos and the products, ≈ 1e-16 … 1e-13 (larger for large pos: the angle's own rounding).
double rotation_residual_double(double pos, double offset, int d_model, double base);

/// PE(pos)·PE(pos + k) for k = k_min … k_max (size k_max − k_min + 1), each an explicit dot
/// product of two PE vectors (not the offset formula), so curves from different starts can be
/// compared to show that they coincide. Needs k_min ≤ k_max, k_max − k_min ≤ 20 000, and
/// pos + k_min ≥ 0, pos + k_max ≤ kMaxPosition.
std::vector<double> shift_dot_products(double pos, int k_min, int k_max, int d_model, double base);

} // namespace pelab
