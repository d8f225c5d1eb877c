// pelab/encodings/precision.h — how far float32 recipes for the sinusoidal PE drift from the exact
// values.
//
// The widely copied recipe (NumPy / PyTorch tutorials, "The Annotated Transformer") computes
//   div_term = exp(float(2i) · (−ln(float(base)) / d))   in float32 (base, ln, ÷ d, ×, exp)
//   angle    = float(pos) · div_term                      in float32
//   PE       = sinf(angle), cosf(angle)                   in float32
// Its angle carries a relative error of a few float32 epsilons, so the absolute error grows with
// the position. PeRecipe::Float32Code is that recipe with every step correctly rounded to
// float32: 6.1e-5 at pos 2 048, 5.3e-3 at 10⁵, 0.038 at 10⁶ (d 512, base 10 000). The code
// frameworks run lands elsewhere, by how much depends on the library's float32 exp and sin:
// 6.5e-5 / 5.3e-3 / 0.045 with PyTorch 1.13 up to 1.3e-4 /
// 6.3e-3 / 0.068 with NumPy 1.24 (measured by tests/reference/float32_frameworks.py, shipped in
// app/panels/precision/precision_measured.h). Taking sin and cos in double does not help: the angle
// is already wrong. pelab_core forms the angle in double and rounds only the result to float32:
// within kPelabCoreErrorBound of the exact value (measured 3.0e-8, float32 rounding alone).
//
// Contracts: as in sinusoidal.h (d_model even in range, base valid, pos in [0, kMaxPosition]).
#pragma once

#include <array>
#include <vector>

namespace pelab {

/// pelab_core's float32 values are within this of the exact value at every position up to
/// kMaxPosition: one float32 step (2⁻²³), since the matrix path may land one step from the
/// nearest float (tests/core/encodings/sinusoidal_test.cpp).
constexpr double kPelabCoreErrorBound = 1.2e-7;

enum class PeRecipe {
    Float32Code,        ///< the widely copied float32 code above
    Float32AngleDouble, ///< float32 angle, then sin and cos in double
    PelabCore,          ///< pe_vector: double angle, result rounded to float32
};

/// max over all dims of |recipe − exact|, the exact value taken in long double.
double recipe_max_error(PeRecipe recipe, double pos, int d_model, double base);

/// recipe_max_error for every position and all three recipes at once (indexed by PeRecipe),
/// sharing the exact values and the per-pair constants: what a plot of the errors needs.
std::array<std::vector<double>, 3> recipe_error_curves(const std::vector<double>& positions,
                                                       int d_model, double base);

/// How far, in positions, the float32 code's encoding of pos is from pos: max over pairs of
/// |float32 angle − exact angle| / ω_i (the angle error measured in the pair's own turn per
/// position). The float32 div_term = exp(2i·(−ln base / d)) carries the rounding of its
/// argument, |2i·ln base / d|·2⁻²⁴ relative (up to ≈ 5.5e-7 for the slowest pair at base
/// 10 000), so the shift is largest in the slow pairs and grows with pos: ≈ 0.06 at 10⁵,
/// ≈ 0.6 at 10⁶ (d 512). Past 0.5, pos is nearer to pos ± 1 in that pair than to itself.
/// worst_pair (optional) receives the pair where it is largest.
double float32_position_shift(double pos, int d_model, double base, int* worst_pair = nullptr);

/// A format angles may be stored in: its significand bits (the leading one counted), its
/// smallest normal exponent (below it, subnormal), its largest finite value.
struct FloatFormat {
    const char* name;
    int significand_bits;
    int min_exponent;
    double largest;
};
constexpr FloatFormat kBfloat16{"bfloat16", 8, -126, 3.3895313892515355e38};
constexpr FloatFormat kFloat16{"float16", 11, -14, 65504.0};
constexpr FloatFormat kFloat32{"float32", 24, -126, 3.4028234663852886e38};

/// x rounded to the nearest value of the format (ties to even), ±infinity past its largest.
double round_to_format(double x, const FloatFormat& format);

/// The first position p ≥ 0 at which a pair turning θ per position gets the same stored angle
/// at p and p + 1 (angles p·θ formed exactly, then stored in format): from there that pair cannot
/// tell neighbours apart. −1 when none is below limit. Neighbours never collide while
/// p + 1 < 2^(bits − 1) (their angles differ by θ = angle/p, more than a step of the format), and
/// always by 2^(bits + 1) (θ is then under half a step): the search stays between.
/// θ in (0, 10], limit in [1, 1e9].
long long first_neighbour_collision(double theta, const FloatFormat& format, long long limit);

/// first_neighbour_collision over every pair of the sinusoidal encoding (θ_i = base^(−2i/d)):
/// the least and the largest first collision among the pairs that have one below limit (−1 when
/// none has), and how many pairs have none. Where the bound above says where any pair's first
/// collision must lie, this says where these pairs' do. d_model even in [2, 8192].
struct CollisionRange {
    long long least = -1, largest = -1;
    int least_pair = -1, largest_pair = -1;
    int pairs = 0, pairs_without = 0;
};
CollisionRange neighbour_collision_range(int d_model, double base, const FloatFormat& format,
                                         long long limit);

/// Storing each pair's exact angle pos·θ_i in the format: the largest error in radians (and its
/// pair), the fastest pair's (pair 0), and the largest as positions, |error| / θ_i (and its pair):
/// how far along its own wave a pair's stored angle has moved. 0 where the angles are exact.
struct AngleStorageError {
    double radians = 0, fastest_radians = 0, positions = 0;
    int radians_pair = 0, positions_pair = 0;
};
AngleStorageError angle_storage_error(double pos, int d_model, double base,
                                      const FloatFormat& format);

/// The first position p whose neighbour p + 1, both stored in the format as numbers (position
/// ids built in bfloat16, say), is the same number: 2^bits (bfloat16 256, float16 2 048,
/// float32 16 777 216).
long long first_position_collision(const FloatFormat& format);

/// The first position p at which the first token's share under even causal attention, 1/(p + 1),
/// stored in the format, equals position p + 1's, 1/(p + 2): from there a model without
/// positions cannot tell neighbours apart by that count (the alternatives panel's NoPE tab).
/// Neighbours differ while p + 2 ≤ 2^(bits − 1) (their gap 1/((p + 1)(p + 2)) is then at least a
/// step of the format) and some collide by 2^(bits + 1) (the gap is under half a step, so of three
/// neighbours two round alike): the search stays between, ~2^bits steps (float32: ~4·10⁶).
long long first_share_collision(const FloatFormat& format);

} // namespace pelab
