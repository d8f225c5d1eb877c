// pelab/models/top_eigen.h — the largest eigenvalues and eigenvectors of a symmetric positive
// semi-definite operator given only by its product with a block of vectors: the principal
// components of a position table too large for a full eigen-decomposition (a 4096 × 4096 table's
// Gram matrix costs minutes whole, its top 16 pairs a second or two).
//
// The method: block Krylov with Rayleigh–Ritz and thick restart (a block Lanczos process with full
// reorthogonalisation, written as a block Davidson step without preconditioner). Each step
// orthogonalises the residuals r_i = A·x_i − θ_i·x_i of the wanted Ritz pairs against the basis
// (classical Gram–Schmidt, twice), multiplies them by A, and solves the small projected problem
// again; when the basis is full it is restarted from the best Ritz vectors. Pair i is converged
// when ‖r_i‖ ≤ max(tolerance·√(θ_1·θ_i), 1e-13·θ_1): for a Gram matrix A = CᵀC that is the
// singular values' residual ‖r_i‖/σ_i ≤ tolerance·σ_1, with a floor at rounding for pairs of
// eigenvalue 0. Bauer–Fike bounds |θ_i − λ_i| by ‖r_i‖ for a symmetric A.
//
// Contract: size ≥ 1, 1 ≤ wanted ≤ size; apply(X, &Y) sets Y = A·X for X of size × k (k ≤ the
// block) and must be symmetric positive semi-definite. Double precision throughout. Cancellation
// (AnalysisControl::cancel set) throws Cancelled between two products.
#pragma once

#include "pelab/base/cancel.h"

#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace pelab {

struct TopEigen {
    std::vector<double> values;   ///< largest first, `wanted` many
    Eigen::MatrixXd vectors;      ///< size × wanted, unit columns
    std::vector<double> residual; ///< ‖A·x_i − θ_i·x_i‖ of each
    bool converged = false;       ///< every residual ≤ the tolerance
    int products = 0;             ///< columns multiplied by A
};

/// The `wanted` largest eigenpairs of A (see the header for the tolerance); the iteration ends when
/// every wanted pair meets it, or at control's time cap (converged false, the residuals say how far
/// each is), or when the basis spans the whole space.
TopEigen top_eigenpairs(int size, int wanted,
                        const std::function<void(const Eigen::MatrixXd&, Eigen::MatrixXd*)>& apply,
                        double tolerance, const AnalysisControl& control = {});

} // namespace pelab
