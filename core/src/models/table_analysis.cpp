#include "pelab/models/table_analysis.h"
#include "pelab/models/top_eigen.h"

#include "base/constants.h"
#include "pelab/base/error.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <complex>

namespace pelab {

using detail::kPi;

namespace {

// In-place radix-2 FFT (size a power of two): X(k) = Σ x(p)·e^{−2πikp/N}.
void Fft(std::vector<std::complex<double>>& x) {
    const std::size_t size = x.size();
    for (std::size_t i = 1, j = 0; i < size; ++i) {
        std::size_t bit = size >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) std::swap(x[i], x[j]);
    }
    // Each twiddle e^{−2πik/N} from its angle once (exact to rounding, no drift from repeated
    // multiplication); a stage of length L uses every (N/L)-th of them.
    std::vector<std::complex<double>> twiddle(size / 2);
    for (std::size_t k = 0; k < size / 2; ++k) {
        const double angle = -2 * kPi * static_cast<double>(k) / static_cast<double>(size);
        twiddle[k] = std::complex<double>(std::cos(angle), std::sin(angle));
    }
    for (std::size_t length = 2; length <= size; length <<= 1) {
        const std::size_t stride = size / length;
        for (std::size_t start = 0; start < size; start += length)
            for (std::size_t k = 0; k < length / 2; ++k) {
                const std::complex<double> even = x[start + k];
                const std::complex<double> odd = x[start + k + length / 2] * twiddle[k * stride];
                x[start + k] = even + odd;
                x[start + k + length / 2] = even - odd;
            }
    }
}

// The variance of the centred values v that the least-squares fit c + a·cos ωp + b·sin ωp
// explains: their projection on the centred cosine and sine columns, the sine made orthogonal to
// the cosine (Gram–Schmidt). A column left shorter than 10⁻⁹·n in squared length carries no wave
// of its own (the sine at ω = π is all zeros, up to rounding) and is dropped, where the normal
// equations would divide by it.
double WaveFit(const std::vector<double>& values, double mean, double omega) {
    const std::size_t n = values.size();
    std::vector<double> cosine(n), sine(n);
    double mean_c = 0, mean_s = 0;
    for (std::size_t p = 0; p < n; ++p) {
        cosine[p] = std::cos(omega * static_cast<double>(p));
        sine[p] = std::sin(omega * static_cast<double>(p));
        mean_c += cosine[p], mean_s += sine[p];
    }
    mean_c /= static_cast<double>(n), mean_s /= static_cast<double>(n);
    const auto dot = [n](const std::vector<double>& a, const std::vector<double>& b) {
        double sum = 0;
        for (std::size_t p = 0; p < n; ++p)
            sum += a[p] * b[p];
        return sum;
    };
    std::vector<double> centred(n);
    for (std::size_t p = 0; p < n; ++p)
        centred[p] = values[p] - mean, cosine[p] -= mean_c, sine[p] -= mean_s;
    const double floor = 1e-9 * static_cast<double>(n);
    double explained = 0;
    const double cc = dot(cosine, cosine);
    if (cc > floor) {
        const double along = dot(centred, cosine);
        explained += along * along / cc;
        const double ratio = dot(sine, cosine) / cc;
        for (std::size_t p = 0; p < n; ++p)
            sine[p] -= ratio * cosine[p];
    }
    if (const double ss = dot(sine, sine); ss > floor) {
        const double along = dot(centred, sine);
        explained += along * along / ss;
    }
    return explained;
}

} // namespace

double dominant_wavelength(const std::vector<double>& values) {
    return dominant_wave(values).wavelength;
}

DominantWave dominant_wave(const std::vector<double>& values) {
    const int n = static_cast<int>(values.size());
    if (n < 3) return {};
    double mean = 0;
    for (double v : values)
        mean += v;
    mean /= n;
    double total = 0;
    for (double v : values)
        total += (v - mean) * (v - mean);
    const auto power = [&](double omega) {
        // Σ (v_p − mean)·e^{−iωp}, the rotation advanced by multiplying (exact enough in double
        // for tables of 10⁵ rows) and restarted every 256 steps.
        double re = 0, im = 0;
        const double step_c = std::cos(omega), step_s = std::sin(omega);
        double c = 1, s = 0;
        for (int p = 0; p < n; ++p) {
            if (p % 256 == 0) c = std::cos(omega * p), s = std::sin(omega * p);
            const double v = values[p] - mean;
            re += v * c;
            im -= v * s;
            const double next_c = c * step_c - s * step_s;
            s = s * step_c + c * step_s;
            c = next_c;
        }
        return re * re + im * im;
    };
    // The periodogram on a grid of spacing π/(2n) (the main lobe of a wave is 8 points wide on it):
    // an FFT of the values zero-padded to N ≥ 4n points (bin k is ω = 2πk/N), O(N log N) where a
    // direct scan of the grid would cost O(n²) (minutes for 10⁵ rows).
    std::size_t size = 1;
    while (size < 4 * static_cast<std::size_t>(n))
        size <<= 1;
    // The values are real: the N-point transform from one of N/2 points, even samples as the
    // real parts and odd ones as the imaginary parts (half the work), then
    // X_k = E_k + e^{−2πik/N}·O_k with E_k = (Z_k + conj Z_{N/2−k})/2, O_k = (Z_k − conj
    // Z_{N/2−k})/2i.
    const std::size_t half = size / 2;
    std::vector<std::complex<double>> packed(half);
    for (int p = 0; p < n; ++p) {
        const double v = values[static_cast<std::size_t>(p)] - mean;
        if (p % 2 == 0)
            packed[static_cast<std::size_t>(p / 2)].real(v);
        else
            packed[static_cast<std::size_t>(p / 2)].imag(v);
    }
    Fft(packed);
    const auto power_at = [&](std::size_t k) {
        const std::complex<double> z = packed[k % half], w = std::conj(packed[(half - k) % half]);
        const std::complex<double> even = (z + w) * 0.5,
                                   odd = (z - w) * std::complex<double>(0, -0.5);
        const double angle = -2 * kPi * static_cast<double>(k) / static_cast<double>(size);
        return std::norm(even + std::complex<double>(std::cos(angle), std::sin(angle)) * odd);
    };
    std::size_t best_bin = 1;
    double best_power = power_at(1);
    for (std::size_t k = 2; k <= half; ++k)
        if (const double power = power_at(k); power > best_power) best_bin = k, best_power = power;
    const double spacing = 2 * kPi / static_cast<double>(size);
    const int grid = static_cast<int>(size / 2);
    const int best = static_cast<int>(best_bin);
    // Golden-section search between the neighbours of the best grid point.
    double low = spacing * (best - 1), high = spacing * std::min(best + 1, grid);
    const double golden = (std::sqrt(5.0) - 1) / 2;
    double a = high - golden * (high - low), b = low + golden * (high - low);
    double pa = power(a), pb = power(b);
    for (int iteration = 0; iteration < 60; ++iteration) {
        if (pa > pb) {
            high = b, b = a, pb = pa;
            a = high - golden * (high - low);
            pa = power(a);
        } else {
            low = a, a = b, pa = pb;
            b = low + golden * (high - low);
            pb = power(b);
        }
    }
    const double omega = (low + high) / 2;
    // Less than one whole wave within the rows: no wavelength to name.
    if (omega * n < 2 * kPi) return {};
    DominantWave wave;
    wave.wavelength = 2 * kPi / omega;
    if (total > 0) wave.share = std::clamp(WaveFit(values, mean, omega) / total, 0.0, 1.0);
    return wave;
}

namespace {

// Rows of the table widened to double and centred at a time: 8 MiB of work space at most, so the
// analysis holds the table once (float) and never a double copy of it.
int RowsPerBlock(int cols) {
    return std::max(1, static_cast<int>((std::size_t{1} << 20) / static_cast<std::size_t>(cols)));
}

// Rows of the table in double, row-major as the table is (written in order).
using RowBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// block = rows [first, first + count) of the table, centred, in double.
void CentredRows(const std::vector<float>& table, int cols, const Eigen::RowVectorXd& mean,
                 int first, int count, RowBlock* block) {
    block->resize(count, cols);
    const float* in = table.data() + static_cast<std::size_t>(first) * cols;
    double* out = block->data();
    const double* centre = mean.data();
    for (int r = 0; r < count; ++r, in += cols, out += cols)
        for (int c = 0; c < cols; ++c)
            out[c] = static_cast<double>(in[c]) - centre[c];
}

} // namespace

namespace {

// Σ a_c·b_c in double, two sums at a time.
double RowDot(const float* a, const float* b, int cols) {
    double s0 = 0, s1 = 0;
    int c = 0;
    for (; c + 2 <= cols; c += 2) {
        s0 += static_cast<double>(a[c]) * b[c];
        s1 += static_cast<double>(a[c + 1]) * b[c + 1];
    }
    if (c < cols) s0 += static_cast<double>(a[c]) * b[c];
    return s0 + s1;
}

// The rows' norms, their neighbours' cosines, the median norm and the edge's ratio to it; the
// column means.
Eigen::RowVectorXd MeasureRows(const std::vector<float>& table, int rows, int cols,
                               TableReport* report) {
    const auto row = [&](int r) { return table.data() + static_cast<std::size_t>(r) * cols; };
    report->norms.resize(rows);
    Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(cols);
    for (int r = 0; r < rows; ++r) {
        const float* values = row(r);
        report->norms[r] = std::sqrt(RowDot(values, values, cols));
        for (int c = 0; c < cols; ++c)
            mean(c) += values[c];
    }
    mean /= rows;
    report->neighbour_cosine.reserve(static_cast<std::size_t>(rows) - 1);
    for (int r = 0; r + 1 < rows; ++r) {
        const double denominator = report->norms[r] * report->norms[r + 1];
        report->neighbour_cosine.push_back(
            denominator > 0 ? RowDot(row(r), row(r + 1), cols) / denominator : 0.0);
    }
    std::vector<double> sorted = report->norms;
    std::nth_element(sorted.begin(), sorted.begin() + rows / 2, sorted.end());
    report->median_norm = sorted[rows / 2];
    if (rows % 2 == 0) {
        const double lower = *std::max_element(sorted.begin(), sorted.begin() + rows / 2);
        report->median_norm = (report->median_norm + lower) / 2;
    }
    const int edge = std::min(16, rows);
    double edge_sum = 0;
    for (int r = rows - edge; r < rows; ++r)
        edge_sum += report->norms[r];
    report->edge_norm_ratio = report->median_norm > 0 ? edge_sum / edge / report->median_norm : 0;
    return mean;
}

// The centred table C, read a block of rows at a time; its Gram matrix G is CᵀC (cols × cols)
// for a tall table, CCᵀ (rows × rows) for a wide one: the smaller of the two.
struct CentredTable {
    const std::vector<float>& table;
    int rows, cols;
    const Eigen::RowVectorXd& mean;
    const AnalysisControl& control;
    int step = RowsPerBlock(cols);
    bool by_columns = cols <= rows;
    int size() const { return by_columns ? cols : rows; }

    template <typename Visit> void ForEachBlock(Visit visit) const {
        RowBlock block;
        for (int first = 0; first < rows; first += step) {
            control.Check();
            const int count = std::min(step, rows - first);
            CentredRows(table, cols, mean, first, count, &block);
            visit(first, count, block);
        }
    }
    double SquaredNorm() const {
        double total = 0;
        ForEachBlock([&](int, int, const RowBlock& block) { total += block.squaredNorm(); });
        return total;
    }
    // y = G·x.
    void Apply(const Eigen::MatrixXd& x, Eigen::MatrixXd* y) const {
        *y = Eigen::MatrixXd::Zero(size(), x.cols());
        if (by_columns) {
            ForEachBlock([&](int, int, const RowBlock& block) {
                const Eigen::MatrixXd part = block * x;
                y->noalias() += block.transpose() * part;
            });
            return;
        }
        // CCᵀX = C(CᵀX): first Z = CᵀX over the row blocks, then C·Z block by block.
        Eigen::MatrixXd z = Eigen::MatrixXd::Zero(cols, x.cols());
        ForEachBlock([&](int first, int count, const RowBlock& block) {
            z.noalias() += block.transpose() * x.middleRows(first, count);
        });
        ForEachBlock([&](int first, int count, const RowBlock& block) {
            y->middleRows(first, count).noalias() = block * z;
        });
    }
    // G whole (size ≤ kExactGramSize).
    Eigen::MatrixXd Gram() const {
        Eigen::MatrixXd gram;
        if (by_columns) {
            gram = Eigen::MatrixXd::Zero(cols, cols);
            ForEachBlock([&](int, int, const RowBlock& block) {
                gram.selfadjointView<Eigen::Lower>().rankUpdate(block.transpose());
            });
            return gram.selfadjointView<Eigen::Lower>();
        }
        Apply(Eigen::MatrixXd::Identity(rows, rows), &gram);
        return (gram + gram.transpose()) / 2;
    }
    // The positions' coordinates along unit eigenvector `vector` of G (eigenvalue lambda).
    Eigen::VectorXd Scores(const Eigen::VectorXd& vector, double lambda) const {
        if (!by_columns) return vector * std::sqrt(std::max(lambda, 0.0));
        Eigen::VectorXd scores(rows);
        ForEachBlock([&](int first, int count, const RowBlock& block) {
            scores.segment(first, count) = block * vector;
        });
        return scores;
    }
};

// The top `wanted` eigenpairs of G, largest first: whole and exact up to kExactGramSize, above
// it by block Krylov (pelab/models/top_eigen.h), with each singular value's error bound.
void TopPairs(const CentredTable& centred, int wanted, std::vector<double>* values,
              Eigen::MatrixXd* vectors, TableReport* report) {
    const int size = centred.size();
    if (size <= kExactGramSize) {
        const Eigen::MatrixXd gram = centred.Gram();
        centred.control.Check();
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram);
        const Eigen::VectorXd& ascending = solver.eigenvalues();
        for (int k = 0; k < wanted; ++k)
            values->push_back(ascending(size - 1 - k));
        *vectors = solver.eigenvectors().rightCols(wanted).rowwise().reverse();
        return;
    }
    report->iterative = true;
    const auto apply = [&](const Eigen::MatrixXd& x, Eigen::MatrixXd* y) { centred.Apply(x, y); };
    const TopEigen top = top_eigenpairs(size, wanted, apply, kTableTolerance, centred.control);
    *values = top.values;
    *vectors = top.vectors;
    report->approximate = !top.converged;
    for (std::size_t k = 0; k < values->size(); ++k) {
        // |σ̃ − σ| ≤ ‖r‖ / σ̃ bounds the singular value's error (‖r‖ bounds λ's, Bauer–Fike).
        const double sigma = std::sqrt(std::max((*values)[k], 0.0));
        report->singular_value_error.push_back(sigma > 0 ? top.residual[k] / sigma : 0.0);
    }
}

} // namespace

TableReport analyse_table(const std::vector<float>& table, int rows, int cols,
                          const AnalysisControl& control) {
    if (rows < 2 || cols < 1 || table.size() != static_cast<std::size_t>(rows) * cols)
        throw InvalidArgument("a table needs at least 2 rows and 1 column, and rows × cols values");
    TableReport report;
    report.rows = rows, report.cols = cols;
    const Eigen::RowVectorXd mean = MeasureRows(table, rows, cols, &report);
    control.Check();

    // Principal components of the centred table, through the smaller of its Gram matrices.
    const CentredTable centred{table, rows, cols, mean, control};
    const double total = centred.SquaredNorm(); // the variance: the sum of every eigenvalue
    const int wanted = std::min(kTableSingularValues, centred.size());
    std::vector<double> values;
    Eigen::MatrixXd vectors; // size × wanted, largest first
    TopPairs(centred, wanted, &values, &vectors, &report);
    control.Check();
    for (int k = 0; k < wanted; ++k) {
        const double lambda = std::max(values[static_cast<std::size_t>(k)], 0.0);
        report.singular_values.push_back(std::sqrt(lambda));
        report.explained.push_back(total > 0 ? lambda / total : 0.0);
    }
    for (int k = 0; k < std::min(kTableWavelengths, wanted); ++k) {
        Eigen::VectorXd scores =
            centred.Scores(vectors.col(k), values[static_cast<std::size_t>(k)]);
        Eigen::Index largest = 0;
        scores.cwiseAbs().maxCoeff(&largest);
        if (scores(largest) < 0) scores = -scores;
        std::vector<double> component(scores.data(), scores.data() + scores.size());
        control.Check();
        const DominantWave wave = dominant_wave(component);
        report.wavelengths.push_back(wave.wavelength);
        report.wave_shares.push_back(wave.share);
        if (k < kTableComponents) report.components.push_back(std::move(component));
    }
    return report;
}

double explained_error(const TableReport& report) {
    if (!report.approximate || report.explained.empty() || report.explained[0] <= 0) return 0;
    const double total =
        report.singular_values[0] * report.singular_values[0] / report.explained[0];
    double largest = 0;
    for (std::size_t k = 0; k < report.singular_value_error.size(); ++k)
        largest =
            std::max(largest, report.singular_value_error[k] * report.singular_values[k] / total);
    return largest;
}

std::vector<float> cosine_matrix(const std::vector<float>& table, int rows, int cols) {
    if (rows < 1 || cols < 1 || table.size() != static_cast<std::size_t>(rows) * cols)
        throw InvalidArgument("cosine_matrix needs rows × cols values");
    std::vector<double> inverse_norm(rows);
    for (int r = 0; r < rows; ++r) {
        double sum = 0;
        for (int c = 0; c < cols; ++c)
            sum += static_cast<double>(table[static_cast<std::size_t>(r) * cols + c]) *
                   table[static_cast<std::size_t>(r) * cols + c];
        inverse_norm[r] = sum > 0 ? 1 / std::sqrt(sum) : 0;
    }
    std::vector<float> out(static_cast<std::size_t>(rows) * rows);
    for (int p = 0; p < rows; ++p) {
        const float* a = table.data() + static_cast<std::size_t>(p) * cols;
        for (int q = p; q < rows; ++q) {
            const float* b = table.data() + static_cast<std::size_t>(q) * cols;
            double dot = 0;
            for (int c = 0; c < cols; ++c)
                dot += static_cast<double>(a[c]) * b[c];
            const auto value = static_cast<float>(dot * inverse_norm[p] * inverse_norm[q]);
            out[static_cast<std::size_t>(p) * rows + q] = value;
            out[static_cast<std::size_t>(q) * rows + p] = value;
        }
    }
    return out;
}

} // namespace pelab
