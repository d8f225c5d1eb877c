// pelab/encodings/candidates.h — the obvious ways to encode a position, and their properties
// measured.
//
// The published articles walk through encodings that fail before arriving at sin + cos pairs.
// Each candidate here maps a position to `dims` values (dim j = 0 … dims−1):
//
//   RawIndex         PE(p)_j = p                                      (every dim the same)
//   IndexOverLength  PE(p)_j = p / L          for p < L, the sequence's own length L
//   Binary           PE(p)_j = bit j of p     (dim 0 the least significant; wraps at 2^dims)
//   Decimal          PE(p)_j = digit j of p   (dim 0 the ones; wraps at 10^dims)
//   RandomIncrement  PE(p)_j = r_j + 0.02·p   (r_j seeded uniform in [−1, 1]; a published Q&A)
//   SinOnly          PE(p)_j = sin(p·base^(−j/dims_total))
//   ShiftedSin       PE(p)_j = (sin(p·base^(−j/dims_total)) + 1) / 2   (a published derivation)
//   SinCos           the paper: dim 2i = sin(p·ω_i), dim 2i+1 = cos(p·ω_i), ω_i = base^(−2i/d)
//   Learned          row p of a seeded table of L rows, uniform in [−1, 1]; no row for p ≥ L
//                    (a stand-in for a trained table: its values are not learned, only its
//                    shape matters here)
//
// `dims_total` is the model's d_model: the property table may look at the first few dims of a
// wide vector, and those dims must be the wide vector's, not those of a narrower encoding.
//
// Contracts (InvalidArgument otherwise): d_model even in [2, kMaxDModel]; base valid
// (sinusoidal.h); length L in [kMinCandidateLength, kMaxCandidateLength]; positions finite and
// in [0, kMaxPosition]; dims in [1, d_model].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pelab {

enum class Candidate {
    RawIndex,
    IndexOverLength,
    Binary,
    Decimal,
    RandomIncrement,
    SinOnly,
    ShiftedSin,
    SinCos,
    Learned,
};
constexpr int kCandidateCount = 9;

constexpr int kMinCandidateLength = 2;
constexpr int kMaxCandidateLength = 100000;
constexpr double kRandomIncrementStep = 0.02; ///< a published Q&A's "slight increment" per position

const char* candidate_name(Candidate candidate);    ///< "raw index", "index / length", …
const char* candidate_id(Candidate candidate);      ///< "raw_index", "index_over_length", …
const char* candidate_formula(Candidate candidate); ///< the one-line formula above

struct CandidateSettings {
    int d_model = 512;
    double base = 10000.0;
    int length = 10;         ///< L: the sequence length (index / length) and the table's rows
    std::uint64_t seed = 42; ///< for the random and learned candidates
};

void validate_candidate_settings(const CandidateSettings& settings);

/// Writes PE(pos)_j for j < dims into out and returns true; returns false (out untouched)
/// when the candidate has no value at pos (IndexOverLength and Learned for pos ≥ L). Values
/// are exact in double except the sinusoids (correctly rounded sin of a double angle).
bool candidate_encode(Candidate candidate, double pos, const CandidateSettings& settings, int dims,
                      double* out);

/// The usual design constraints (docs/panels.md), measured over positions 0 … positions−1
/// (those the candidate defines) and dims 0 … dims−1.
struct CandidateProperties {
    int positions_checked = 0; ///< defined positions among the first `positions`
    int dims_checked = 0;
    /// Bounded: max |value|.
    double max_abs = 0;
    /// Unique: position pairs p < q with PE(p) == PE(q) exactly, and with
    /// max_j |PE(p)_j − PE(q)_j| ≤ kNearCollision.
    long long collisions_exact = 0;
    long long collisions_near = 0;
    int first_collision_p = -1, first_collision_q = -1; ///< the first near pair (smallest q)
    /// The two positions closest to each other: min over p < q of max_j |PE(p)_j − PE(q)_j|
    /// (0 when some pair is equal; -1 positions when fewer than two are defined, or when the
    /// rows crowd together so that an exact search would compare most pairs: not reported).
    double closest_distance = 0;
    int closest_p = -1, closest_q = -1;
    /// Same across lengths: max_j |PE(5)_j at L = 10 − PE(5)_j at L = 100|.
    double length_change = 0;
    /// Smooth: max_p ‖PE(p+1) − PE(p)‖ / the RMS distance between two positions (both
    /// Euclidean over the checked dims). Small: neighbours are much closer than positions in
    /// general. Near 1 or above: a step to the neighbour is as big as a jump anywhere.
    double largest_step = 0;
    double rms_distance = 0;
    double smoothness = 0; ///< largest_step / rms_distance (0 when rms_distance is 0)
    /// Shift is linear: min over d×d matrices M of ‖PE(p)·M − PE(p+k)‖_F / ‖PE(p+k)‖_F over
    /// the n defined pairs (p, p+k), by relative_least_squares_residual.
    /// NaN when n ≤ dims: with no more pairs than dims any data fits, so the test says nothing.
    double shift_residual = 0;
    int shift_pairs = 0; ///< n
    int shift_k = 0;
    /// Defined beyond L: the candidate has a value at position L.
    bool defined_beyond_length = true;
};

constexpr double kNearCollision = 1e-6;

/// Limits that keep one call under ~50 ms: positions in [2, kMaxCheckedPositions], dims in
/// [1, min(d_model, kMaxCheckedDims)], shift_k in [1, positions − 1].
constexpr int kMaxCheckedPositions = 4096;
constexpr int kMaxCheckedDims = 64;

CandidateProperties candidate_properties(Candidate candidate, const CandidateSettings& settings,
                                         int positions, int dims, int shift_k);

/// Pass / fail thresholds of the property table (stated in the app's tooltips).
constexpr double kBoundedLimit = 1.0; ///< max |value| ≤ 1, the scale of embeddings
constexpr double kSameAcrossLengthsLimit = 1e-12;
constexpr double kSmoothLimit = 0.75;      ///< largest step ≤ 3/4 of the RMS distance
constexpr double kLinearShiftLimit = 1e-6; ///< relative least-squares residual

/// min over matrices M of ‖X·M − Y‖_F / ‖Y‖_F, for X (rows × x_cols) and Y (rows × y_cols)
/// row-major; 0 when Y is all zero. Solved by SVD with NumPy's rank rule (numpy.linalg.lstsq,
/// rcond = eps·max(rows, x_cols) relative to the largest singular value), so a rank-deficient X
/// gives the true minimum, as lstsq does.
double relative_least_squares_residual(const std::vector<double>& x, const std::vector<double>& y,
                                       int rows, int x_cols, int y_cols);

/// ‖PE(pos)‖ over all d_model dims, or −1 when the candidate has no value at pos.
double candidate_norm(Candidate candidate, double pos, const CandidateSettings& settings);

} // namespace pelab
