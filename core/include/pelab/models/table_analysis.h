// pelab/models/table_analysis.h — what a learned position table holds: its principal components,
// their wavelengths, the rows' norms and their neighbours' cosines, exact or with a stated bound.
#pragma once

#include "pelab/base/cancel.h"

#include <vector>

namespace pelab {

/// Principal components, wavelengths and norms of a rows × cols table (positions × dimensions).
struct TableReport {
    int rows = 0, cols = 0;
    std::vector<double> singular_values; ///< of the centred table, largest first (at most 16)
    std::vector<double> explained;       ///< each one's share of the variance
    /// The positions' coordinates along the first three components (rows each), each component's
    /// sign chosen so its largest entry is positive.
    std::vector<std::vector<double>> components;
    /// Each of the first six components' dominant wavelength in positions (the periodogram's
    /// peak); 0 when the component completes less than one wave within the rows.
    std::vector<double> wavelengths;
    /// Each of those components' variance share carried by its strongest wave (the least-squares
    /// fit a·cos ωp + b·sin ωp + c at the peak's ω), in [0, 1]; 0 where the wavelength is 0.
    std::vector<double> wave_shares;
    std::vector<double> norms;            ///< ‖row p‖ for every p
    std::vector<double> neighbour_cosine; ///< cos(row p, row p + 1), rows − 1 values
    double median_norm = 0;
    double edge_norm_ratio = 0; ///< mean norm of the last 16 rows ÷ median norm
    /// The singular values came from the iterative solver (min(rows, cols) > kExactGramSize);
    /// approximate: it stopped at the time cap before every residual met kTableTolerance, and
    /// singular_value_error bounds each value's error (empty when exact).
    bool iterative = false, approximate = false;
    std::vector<double> singular_value_error;
};
constexpr int kTableComponents = 3, kTableWavelengths = 6, kTableSingularValues = 16;
/// For an approximate report: the largest error bound of its shown shares of variance (a
/// fraction; |explained_k error| ≤ ‖r_k‖ / ‖C‖²); 0 for an exact or converged one.
double explained_error(const TableReport& report);
/// Gram matrices up to this size are decomposed whole (exact); larger ones iteratively.
constexpr int kExactGramSize = 1024;
/// The iterative solver's target: each shown singular value's residual ≤ 1e-7 · σ₁.
constexpr double kTableTolerance = 1e-7;
/// table is row-major rows × cols. rows ≥ 2, cols ≥ 1 (InvalidArgument otherwise). Holds the
/// table once: the centred rows are widened a block at a time (8 MiB). Throws Cancelled when
/// control's flag is set; the iterative solver stops at its time cap (approximate then).
TableReport analyse_table(const std::vector<float>& table, int rows, int cols,
                          const AnalysisControl& control = {});
/// The strongest wave of a sequence (its mean removed): wavelength 2π/ω at the largest
/// periodogram value over ω in (0, π], refined between grid points (0 when the peak is below one
/// wave in n), and share, the fraction of the sequence's variance the least-squares fit
/// a·cos ωp + b·sin ωp + c explains (0 with the wavelength, or when the values are constant).
struct DominantWave {
    double wavelength = 0;
    double share = 0;
};
DominantWave dominant_wave(const std::vector<double>& values);
/// dominant_wave(values).wavelength.
double dominant_wavelength(const std::vector<double>& values);
/// A component's wave is named as a period only when it carries at least this share of the
/// component's variance. White noise of n values puts about 2·ln(n)/n (under 0.04 at n ≥ 256) in
/// its largest periodogram peak; a sinusoidal table's components put nearly all of it in one wave.
constexpr double kWaveStandsOut = 0.5;
/// cos(row p, row q) for every p, q: rows × rows, row-major (0 where a row is all zeros).
std::vector<float> cosine_matrix(const std::vector<float>& table, int rows, int cols);

} // namespace pelab
