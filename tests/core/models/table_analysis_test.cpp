// The principal components of tables too large for a whole eigen-decomposition (reliability
// round 5: a 4096 × 4096 table's analysis ran for minutes). The iterative solver
// (pelab/models/top_eigen.h) against Eigen's own dense solvers, its time cap and its cancellation.
// Release only (the slow label): each builds a dense reference decomposition of ~1100².
#include "pelab/models/model_positions.h"
#include "pelab/models/table_analysis.h"
#include "pelab/models/table_offsets.h"
#include "pelab/models/top_eigen.h"
#include "status_text.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <atomic>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

namespace pelab {
namespace {

// A learned-like table: sinusoidal pairs of decreasing amplitude, plus noise (seeded).
std::vector<float> LearnedLike(int rows, int cols, float noise, unsigned seed) {
    std::mt19937 generator(seed);
    std::normal_distribution<float> normal(0.0f, noise);
    std::vector<float> table(static_cast<std::size_t>(rows) * cols);
    for (int p = 0; p < rows; ++p)
        for (int c = 0; c < cols; ++c) {
            const int i = c / 2;
            const double omega = std::pow(10000.0, -2.0 * i / cols), amplitude = 1.0 / (i + 1);
            table[static_cast<std::size_t>(p) * cols + c] = static_cast<float>(
                amplitude * (c % 2 == 0 ? std::sin(p * omega) : std::cos(p * omega)) +
                normal(generator));
        }
    return table;
}

// The centred table's singular values, largest first, by Eigen's BDCSVD (no Gram matrix).
std::vector<double> ReferenceSingularValues(const std::vector<float>& table, int rows, int cols) {
    Eigen::MatrixXd x(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            x(r, c) = table[static_cast<std::size_t>(r) * cols + c];
    const Eigen::MatrixXd centred = x.rowwise() - x.colwise().mean();
    const Eigen::VectorXd values = Eigen::BDCSVD<Eigen::MatrixXd>(centred).singularValues();
    return {values.data(), values.data() + values.size()};
}

TEST(TableAnalysis, IterativeSingularValuesMatchADenseSvd) {
    // Wider than kExactGramSize both ways: the iterative path, tall and wide.
    for (const auto& [rows, cols] : {std::pair<int, int>{1100, 1040}, {1040, 1100}}) {
        const std::vector<float> table = LearnedLike(rows, cols, 0.02f, 7);
        AnalysisControl control;
        control.time_cap_seconds = 60;
        const TableReport report = analyse_table(table, rows, cols, control);
        ASSERT_TRUE(report.iterative);
        EXPECT_FALSE(report.approximate);
        const std::vector<double> want = ReferenceSingularValues(table, rows, cols);
        double total = 0;
        for (double value : want)
            total += value * value;
        ASSERT_EQ(report.singular_values.size(), 16u);
        for (std::size_t k = 0; k < 16; ++k) {
            EXPECT_NEAR(report.singular_values[k], want[k], 1e-7 * want[0]) << k;
            EXPECT_NEAR(report.explained[k], want[k] * want[k] / total, 1e-9) << k;
        }
        // The components' scores agree with the exact path's up to sign (the same table, cut to
        // 1024 columns, is exact: compare the first component of each on their own tables).
        EXPECT_EQ(report.components.size(), 3u);
        EXPECT_EQ(report.components[0].size(), static_cast<std::size_t>(rows));
    }
}

TEST(TableAnalysis, IterativeAndExactPathsAgreeAtTheBoundary) {
    // 1025 columns is iterative, 1024 exact: the same table with its last column dropped differs
    // little; both paths must agree on what they share with a dense SVD of their own table.
    const int rows = 1200;
    for (const int cols : {1024, 1025}) {
        const std::vector<float> table = LearnedLike(rows, cols, 0.02f, 3);
        const TableReport report = analyse_table(table, rows, cols);
        EXPECT_EQ(report.iterative, cols > kExactGramSize);
        const std::vector<double> want = ReferenceSingularValues(table, rows, cols);
        for (std::size_t k = 0; k < 16; ++k)
            EXPECT_NEAR(report.singular_values[k], want[k], 1e-7 * want[0]) << cols << " " << k;
    }
}

TEST(TableAnalysis, TimeCapGivesApproximateValuesWithBounds) {
    const int rows = 1500, cols = 1500;
    std::mt19937 generator(5);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> table(static_cast<std::size_t>(rows) * cols);
    for (float& value : table)
        value = normal(generator); // a flat spectrum: the slowest case for the solver
    AnalysisControl control;
    control.time_cap_seconds = 0; // stop after the first step
    const TableReport report = analyse_table(table, rows, cols, control);
    EXPECT_TRUE(report.approximate);
    ASSERT_EQ(report.singular_value_error.size(), 16u);
    const std::vector<double> want = ReferenceSingularValues(table, rows, cols);
    // Each bound holds: some singular value lies within it (Bauer–Fike); the largest is within
    // its own bound of the largest.
    for (std::size_t k = 0; k < 16; ++k) {
        EXPECT_GT(report.singular_value_error[k], 0.0);
        double nearest = 1e300;
        for (double value : want)
            nearest = std::min(nearest, std::fabs(value - report.singular_values[k]));
        EXPECT_LE(nearest, report.singular_value_error[k] * (1 + 1e-9)) << k;
    }
    EXPECT_GT(explained_error(report), 0.0);
}

TEST(TableAnalysis, CancelledWithinHalfASecond) {
    const int rows = 4096, cols = 2048;
    const std::vector<float> table = LearnedLike(rows, cols, 0.3f, 9);
    std::atomic<bool> cancel{false};
    AnalysisControl control;
    control.cancel = &cancel;
    control.time_cap_seconds = 600;
    for (const bool offsets : {false, true}) {
        cancel = false;
        std::chrono::steady_clock::time_point asked;
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            asked = std::chrono::steady_clock::now();
            cancel = true;
        });
        bool cancelled = false;
        try {
            if (offsets)
                offset_cosines(table, rows, cols, 4096, rows, control);
            else
                analyse_table(table, rows, cols, control);
        } catch (const Cancelled&) {
            cancelled = true;
        }
        const auto stopped = std::chrono::steady_clock::now();
        stopper.join();
        EXPECT_TRUE(cancelled) << offsets;
        EXPECT_LT(std::chrono::duration<double>(stopped - asked).count(), 0.5) << offsets;
    }
}

TEST(TopEigen, MatchesADenseSolverOnAKnownSpectrum) {
    // A = Q·diag(λ)·Qᵀ with λ_i = 1/(i + 1) and a seeded orthogonal Q: the largest 16 are known.
    const int n = 300;
    std::mt19937 generator(1);
    std::normal_distribution<double> normal;
    Eigen::MatrixXd random(n, n);
    for (Eigen::Index i = 0; i < random.size(); ++i)
        random.data()[i] = normal(generator);
    const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(random).householderQ();
    Eigen::VectorXd lambda(n);
    for (int i = 0; i < n; ++i)
        lambda(i) = 1.0 / (i + 1);
    const Eigen::MatrixXd a = q * lambda.asDiagonal() * q.transpose();
    const TopEigen top = top_eigenpairs(
        n, 16, [&](const Eigen::MatrixXd& x, Eigen::MatrixXd* y) { *y = a * x; }, 1e-10);
    ASSERT_TRUE(top.converged);
    for (int i = 0; i < 16; ++i) {
        EXPECT_NEAR(top.values[static_cast<std::size_t>(i)], lambda(i), 1e-10) << i;
        EXPECT_NEAR(std::fabs(top.vectors.col(i).dot(q.col(i))), 1.0, 1e-8) << i;
    }
}

} // namespace
} // namespace pelab
