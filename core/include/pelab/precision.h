// pelab/precision.h — how far float32 recipes for the sinusoidal PE drift from the exact values.
//
// The widely copied recipe (NumPy / PyTorch tutorials, "The Annotated Transformer") computes
//   div_term = exp(float(2i) · float(−ln(base) / d))     in float32
//   angle    = float(pos) · div_term                      in float32
//   PE       = sinf(angle), cosf(angle)                   in float32
// Its angle carries a relative error of a few float32 epsilons (≈ 6e-8), so the absolute error
// grows with the position: ≈ 1e-4 at pos 2 048, ≈ 5e-3 at 10⁵, ≈ 0.06 at 10⁶ (d 512).
// Taking sin and cos in double does not help: the angle is already wrong. pelab_core forms the
// angle in double and rounds only the result to float32 (error ≤ 6e-8).
//
// Contracts: as in sinusoidal.h (d_model even in range, base valid, pos in [0, kMaxPosition]).
#pragma once

#include <array>
#include <vector>

namespace pelab {

enum class PeRecipe {
    Float32Code,        ///< the widely copied float32 code above
    Float32AngleDouble, ///< float32 angle, then sin and cos in double
    PelabCore,          ///< pe_vector: double angle, result rounded to float32
};
const char* recipe_name(PeRecipe recipe);

/// max over all dims of |recipe − exact|, the exact value taken in long double.
double recipe_max_error(PeRecipe recipe, double pos, int d_model, double base);

/// recipe_max_error for every position and all three recipes at once (indexed by PeRecipe),
/// sharing the exact values and the per-pair constants: what a plot of the errors needs.
std::array<std::vector<double>, 3> recipe_error_curves(const std::vector<double>& positions,
                                                       int d_model, double base);

/// The distance between the values of neighbouring positions in pair i,
/// ‖(sin, cos)(ω_i(p+1)) − (sin, cos)(ω_i p)‖ = 2·sin(ω_i / 2): once a recipe's error reaches
/// it, pair i no longer tells position p from p + 1.
double neighbour_step(int pair_index, int d_model, double base);

/// How many pairs have a neighbour step smaller than error (the slowest ones: the step falls
/// with i), i.e. in how many pairs an error this large can hide a whole position.
int pairs_below_step(double error, int d_model, double base);

} // namespace pelab
