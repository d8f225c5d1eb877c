// tensor.h — the trainer's matrices: Eigen row-major, as the flat parameter vector lays its
// tensors out (a Linear's weight is out × in, row after row), and maps over that vector.
// Internal to core (Eigen never appears in a public header).
#pragma once

#include <Eigen/Dense>

namespace pelab::trainer {

template <typename S> using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename S> using RowVec = Eigen::Matrix<S, 1, Eigen::Dynamic>;
template <typename S> using ColVec = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <typename S> using MapMat = Eigen::Map<Mat<S>>;
template <typename S> using ConstMapMat = Eigen::Map<const Mat<S>>;
template <typename S> using MapRow = Eigen::Map<RowVec<S>>;
template <typename S> using ConstMapRow = Eigen::Map<const RowVec<S>>;

} // namespace pelab::trainer
