#include "pelab/models/top_eigen.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>

namespace pelab {

namespace {

// Orthonormalises block against the orthonormal basis and itself: classical Gram–Schmidt
// against the basis twice (enough in double for a basis of a few hundred columns), then a
// Householder QR of what is left; columns that were (nearly) in the basis already are dropped.
Eigen::MatrixXd Orthogonalise(const Eigen::MatrixXd& basis, Eigen::MatrixXd block) {
    for (int pass = 0; pass < 2 && basis.cols() > 0; ++pass)
        block -= basis * (basis.transpose() * block);
    const Eigen::VectorXd before = block.colwise().norm();
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(block);
    Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(block.rows(), block.cols());
    // Keep the columns whose R diagonal is not lost to rounding.
    const Eigen::MatrixXd r = qr.matrixQR().topRows(block.cols()).triangularView<Eigen::Upper>();
    const double largest = before.size() > 0 ? before.maxCoeff() : 0.0;
    std::vector<Eigen::Index> kept;
    for (Eigen::Index j = 0; j < block.cols(); ++j)
        if (largest > 0 && std::fabs(r(j, j)) > 1e-10 * largest) kept.push_back(j);
    Eigen::MatrixXd out(block.rows(), static_cast<Eigen::Index>(kept.size()));
    for (std::size_t j = 0; j < kept.size(); ++j)
        out.col(static_cast<Eigen::Index>(j)) = q.col(kept[j]);
    // Once more against the basis: the QR mixes in rounding from it.
    if (basis.cols() > 0 && out.cols() > 0) {
        out -= basis * (basis.transpose() * out);
        for (Eigen::Index j = 0; j < out.cols(); ++j)
            out.col(j).normalize();
    }
    return out;
}

} // namespace

TopEigen top_eigenpairs(int size, int wanted,
                        const std::function<void(const Eigen::MatrixXd&, Eigen::MatrixXd*)>& apply,
                        double tolerance, const AnalysisControl& control) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    const Eigen::Index n = size;
    // The block: the wanted pairs and a guard of 8, whose residuals drive the next step.
    const Eigen::Index block = std::min<Eigen::Index>(n, wanted + 8);
    // The basis grows to 12 blocks (4096 × 288 doubles for a 4096-wide table, with their
    // products 19 MB) before a restart keeps the best 3 (measured best of the sizes tried on
    // 4096² tables: docs/performance.md).
    const Eigen::Index most = std::min<Eigen::Index>(n, std::max<Eigen::Index>(12 * block, 96));
    TopEigen result;

    Eigen::MatrixXd basis(n, 0), product(n, 0), projected(0, 0);
    // A seeded random start: the same table gives the same numbers every time.
    std::mt19937_64 generator(0x5eed);
    std::normal_distribution<double> normal;
    Eigen::MatrixXd next(n, block);
    for (Eigen::Index i = 0; i < next.size(); ++i)
        next.data()[i] = normal(generator);
    Eigen::VectorXd theta;
    Eigen::MatrixXd ritz; // basis coordinates of the Ritz vectors, largest first
    for (;;) {
        control.Check();
        next = Orthogonalise(basis, next);
        if (next.cols() > 0) {
            Eigen::MatrixXd applied;
            apply(next, &applied);
            result.products += static_cast<int>(next.cols());
            control.Check();
            // The projected matrix grows by the new block's rows and columns.
            const Eigen::Index old = basis.cols(), added = next.cols();
            Eigen::MatrixXd grown(old + added, old + added);
            grown.topLeftCorner(old, old) = projected;
            const Eigen::MatrixXd cross = basis.transpose() * applied;
            grown.topRightCorner(old, added) = cross;
            grown.bottomLeftCorner(added, old) = cross.transpose();
            Eigen::MatrixXd inner = next.transpose() * applied;
            grown.bottomRightCorner(added, added) = (inner + inner.transpose()) / 2;
            projected = std::move(grown);
            basis.conservativeResize(n, old + added);
            basis.rightCols(added) = next;
            product.conservativeResize(n, old + added);
            product.rightCols(added) = applied;
        }
        // Rayleigh–Ritz on the basis.
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> small(projected);
        const Eigen::Index k = projected.rows();
        const Eigen::Index shown = std::min<Eigen::Index>(wanted, k);
        const Eigen::Index guard = std::min<Eigen::Index>(block, k);
        theta = small.eigenvalues().reverse();
        ritz = small.eigenvectors().rowwise().reverse();
        const Eigen::MatrixXd coordinates = ritz.leftCols(guard);
        Eigen::MatrixXd residuals =
            product * coordinates - basis * coordinates * theta.head(guard).asDiagonal();
        const double top = std::max(theta(0), 0.0);
        bool all = shown == wanted;
        result.residual.assign(static_cast<std::size_t>(shown), 0.0);
        for (Eigen::Index i = 0; i < shown; ++i) {
            const double norm = residuals.col(i).norm();
            result.residual[static_cast<std::size_t>(i)] = norm;
            const double limit =
                std::max(tolerance * std::sqrt(top * std::max(theta(i), 0.0)), 1e-13 * top);
            all = all && norm <= limit;
        }
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        // Done: converged, out of time, or the basis is the whole space (exact then).
        if (all || seconds > control.time_cap_seconds || basis.cols() >= n ||
            (next.cols() == 0 && basis.cols() > 0)) {
            result.converged = all || basis.cols() >= n;
            if (basis.cols() >= n) std::fill(result.residual.begin(), result.residual.end(), 0.0);
            break;
        }
        // Thick restart: keep the best Ritz vectors (and their products, exactly) when full.
        if (basis.cols() + block > most) {
            const Eigen::Index keep = std::min<Eigen::Index>(k, 3 * block);
            const Eigen::MatrixXd kept = ritz.leftCols(keep);
            basis = (basis * kept).eval();
            product = (product * kept).eval();
            projected = theta.head(keep).asDiagonal();
            ritz = Eigen::MatrixXd::Identity(keep, keep);
        }
        next = std::move(residuals);
    }
    const Eigen::Index shown = std::min<Eigen::Index>(wanted, theta.size());
    result.values.assign(theta.data(), theta.data() + shown);
    result.vectors = basis * ritz.leftCols(shown);
    return result;
}

} // namespace pelab
