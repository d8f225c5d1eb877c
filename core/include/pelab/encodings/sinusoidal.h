// pelab/encodings/sinusoidal.h — the sinusoidal positional encoding of "Attention Is All You Need".
//
//   ω_i            = base^(−2i/d)              (pair_index i ∈ [0, d/2))
//   PE(pos, 2i)    = sin(ω_i · pos)
//   PE(pos, 2i+1)  = cos(ω_i · pos)
//
// Contracts shared by every function here (InvalidArgument otherwise):
//   d_model   even, in [kMinDModel, kMaxDModel]
//   base      finite, > 1 and ≤ kMaxBase
//   pos       finite, in [0, kMaxPosition]   (fractional positions are allowed: the formula
//             is continuous, and the wave plot samples between integers)
//   pair      in [0, d_model/2);  dim in [0, d_model)
//
// Precision: every angle ω_i·pos is formed and reduced in double precision. pe_vector rounds
// the double result to the nearest float32. The matrix path (pe_matrix_into) steps each pair
// by a rotation between exact anchors, so a value can be one float32 step from that nearest
// float: every value is within kPelabCoreErrorBound = 1.2e-7 of the exact value at every
// position up to kMaxPosition (tested; measured 3.0e-8). Float32-angle code loses far more and
// more with the position (pelab/encodings/precision.h has the measured figures).
#pragma once

#include "pelab/base/array.h"

#include <cstddef>
#include <vector>

namespace pelab {

/// Where the sin and cos of pair i go inside one PE row.
enum class Layout {
    Interleaved,  ///< the paper's: dim 2i = sin, dim 2i+1 = cos
    Concatenated, ///< sin half then cos half: dim i = sin, dim d/2 + i = cos
};

const char* layout_name(Layout layout); ///< "interleaved" / "concatenated"

void validate_d_model(int d_model);
void validate_base(double base);
void validate_position(double pos);
void validate_pair(int pair_index, int d_model);

/// 2i/d — slides from 0 (pair 0) towards 1 (last pair).
double exponent(int pair_index, int d_model);
/// base^(2i/d): the number pos is divided by inside sin/cos.
double denominator(int pair_index, int d_model, double base);
/// ω_i = 1 / denominator, radians per position.
double omega(int pair_index, int d_model, double base);
/// 2π · denominator: positions per full turn of pair i.
double wavelength(int pair_index, int d_model, double base);
/// ω_i for every pair, fastest first (size d/2).
std::vector<double> frequencies(int d_model, double base);

/// PE(pos, dim) in double, interleaved layout (dim even → sin, odd → cos).
double pe_value(double pos, int dim, int d_model, double base);

/// Every intermediate of PE(pos, dim), for a step-by-step table (the calculator panel).
struct PeStep {
    int dim = 0;
    int pair_index = 0;       ///< i = ⌊dim / 2⌋
    double exponent = 0;      ///< 2i/d
    double denominator = 0;   ///< base^(2i/d)
    double angle = 0;         ///< pos / denominator, radians
    double angle_mod_2pi = 0; ///< the same angle reduced to [0, 2π)
    bool is_cos = false;      ///< odd dims take cos, even dims sin
    double value = 0;         ///< sin or cos of the angle
};
PeStep pe_step(double pos, int dim, int d_model, double base);

/// PE(pos) as float32, d_model values, written to out.
void pe_vector_into(double pos, int d_model, double base, float* out,
                    Layout layout = Layout::Interleaved);
std::vector<float> pe_vector(double pos, int d_model, double base,
                             Layout layout = Layout::Interleaved);
/// PE(pos) in double (used where a readout must not carry float32 rounding).
std::vector<double> pe_vector_double(double pos, int d_model, double base);

/// Samples pair i's two waves at `count` evenly spaced positions from x_min to x_max (both
/// included; count ≥ 2, 0 ≤ x_min < x_max ≤ kMaxPosition): out_x, out_sin, out_cos receive count
/// values each. Fractional positions are fine: the plot draws the continuous curves.
void sample_pair(int pair_index, int d_model, double base, double x_min, double x_max, int count,
                 double* out_x, double* out_sin, double* out_cos);

/// Validates a (max_len × d_model) request: max_len in [1, kMaxSequenceLength] and the element
/// count ≤ kMaxMatrixElements, plus the d_model / base contracts.
void validate_matrix_request(int max_len, int d_model, double base);

/// The (max_len × d_model) PE matrix for positions 0 … max_len−1, row-major (row = pos), into
/// a caller-owned buffer of max_len·d_model floats (what a frame does: no allocation).
///
/// How it is fast and exact: PE(pos+1) is PE(pos) rotated by ω_i in every pair, so each row
/// is the previous one times a fixed 2×2 rotation — two multiply-adds per value instead of a
/// sin or cos. The running (sin, cos) state is kept in double and re-anchored to exactly
/// computed values every kAnchorInterval rows, so rounding cannot accumulate beyond
/// ~kAnchorInterval·1e-16; the float32 output is then within float rounding (≤ 6e-8) of the
/// double reference. The inner loop is vectorised; on x86-64 an AVX2/FMA clone is chosen at
/// run time when the CPU has it, with a portable baseline otherwise.
void pe_matrix_into(int max_len, int d_model, double base, Layout layout, float* out);
/// Same, returning a fresh array (what a script does). See pelab/base/array.h for why FloatArray.
FloatArray pe_matrix(int max_len, int d_model, double base, Layout layout = Layout::Interleaved);

/// Rows between exact re-anchorings in pe_matrix_into.
constexpr int kAnchorInterval = 256;

} // namespace pelab
