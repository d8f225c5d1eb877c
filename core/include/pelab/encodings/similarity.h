// pelab/encodings/similarity.h — how alike the encodings of two positions are.
//
// Because each (sin, cos) pair is a unit vector, PE(a)·PE(b) = Σ_i cos(ω_i (a − b)): the dot
// product depends on the offset a − b only, never on where the pair of positions sits. The
// per-pair terms are returned too, so a table can show which pairs make the sum.
//
// Contracts: as in sinusoidal.h (d_model even in range, base > 1, positions in
// [0, kMaxPosition]). All arithmetic is double.
#pragma once

#include <vector>

namespace pelab {

struct PositionComparison {
    double distance = 0;           ///< |a − b|
    double dot_product = 0;        ///< PE(a)·PE(b), summed over all d dimensions
    double cosine_similarity = 0;  ///< dot / (‖PE(a)‖ ‖PE(b)‖), in [−1, 1]
    double euclidean_distance = 0; ///< ‖PE(a) − PE(b)‖
    double norm_a = 0, norm_b = 0; ///< both equal √(d/2)
};

PositionComparison compare_positions(double pos_a, double pos_b, int d_model, double base);

/// cos(ω_i (a − b)) for every pair i: pair i's share of the dot product (size d/2).
std::vector<double> pair_contributions(double pos_a, double pos_b, int d_model, double base);

/// The (count × count) matrix of PE(p)·PE(q) for p, q ∈ [first, first + count), row-major.
/// count in [1, 4096]. Computed from the offset function Σ_i cos(ω_i k) (one column of
/// cosines per offset, O(count·d)) rather than count² dot products; the tests check it
/// against direct dot products.
std::vector<float> similarity_matrix(int first, int count, int d_model, double base);

/// PE(p)·PE(p + k) for k = 0 … max_offset (size max_offset + 1), for one start p.
std::vector<double> dot_product_by_offset(double pos, int max_offset, int d_model, double base);

/// Σ_i cos(ω_i·k) for each offset k: the dot product PE(p)·PE(p + k) of any two positions k
/// apart, whatever p (the sum of the pairs' cos(ω_i (p − q)) terms). Offsets are finite with
/// |k| ≤ 1e6; at most 65 536 of them.
std::vector<double> dot_product_at_offsets(const std::vector<double>& offsets, int d_model,
                                           double base);

/// f(k) = Σ_i cos(ω_i·k) for k = 0 … count − 1: the whole similarity matrix PE(p)·PE(q) of
/// `count` positions is f(|p − q|), so this O(count·d) function replaces count² dot products.
/// Each pair's (cos, sin) turns by a fixed rotation per step, in double, re-anchored to exactly
/// computed values every kAnchorInterval steps (error ≤ ~1e-12 of d/2). count in [1, 1 << 20].
std::vector<double> dot_product_by_offset_range(int count, int d_model, double base);

/// Qualitative label for a cosine similarity, with the thresholds the UI states:
///   ≥ 0.9 "very high", ≥ 0.75 "high", ≥ 0.5 "moderate", otherwise "low".
const char* similarity_label(double cosine_similarity);
constexpr double kSimilarityVeryHigh = 0.9;
constexpr double kSimilarityHigh = 0.75;
constexpr double kSimilarityModerate = 0.5;

} // namespace pelab
