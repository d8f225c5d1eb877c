// pelab/base/matrix.h — a small dense row-major matrix of doubles for the attention demo.
// The core hands out plain contiguous arrays; this adds only the shape.
#pragma once

#include <cstddef>
#include <vector>

namespace pelab {

struct Matrix {
    int rows = 0;
    int cols = 0;
    std::vector<double> values; ///< rows·cols entries, row-major

    Matrix() = default;
    Matrix(int row_count, int col_count)
        : rows(row_count), cols(col_count),
          values(static_cast<std::size_t>(row_count) * static_cast<std::size_t>(col_count), 0.0) {}

    double& at(int row, int col) { return values[static_cast<std::size_t>(row) * cols + col]; }
    double at(int row, int col) const { return values[static_cast<std::size_t>(row) * cols + col]; }
    const double* row(int r) const { return values.data() + static_cast<std::size_t>(r) * cols; }
    double* row(int r) { return values.data() + static_cast<std::size_t>(r) * cols; }
};

} // namespace pelab
