// table_offsets.cpp — cos(row p, row p + k) over starts p, for each offset k (table_offsets.h).
#include "pelab/table_offsets.h"

#include "pelab/error.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace pelab {

OffsetCosines offset_cosines(const std::vector<float>& table, int rows, int cols, int max_offset,
                             int max_starts) {
    if (rows < 2 || cols < 1 || table.size() != static_cast<std::size_t>(rows) * cols)
        throw InvalidArgument("offset_cosines needs a table of at least 2 rows and 1 column");
    if (max_offset < 0 || max_starts < 2)
        throw InvalidArgument("offset_cosines needs max_offset ≥ 0 and max_starts ≥ 2");
    // Unit rows once (double: a cosine of two near rows keeps its digits).
    std::vector<double> unit(table.size());
    for (int r = 0; r < rows; ++r) {
        const float* row = table.data() + static_cast<std::size_t>(r) * cols;
        double sum = 0;
        for (int c = 0; c < cols; ++c)
            sum += static_cast<double>(row[c]) * row[c];
        const double inverse = sum > 0 ? 1 / std::sqrt(sum) : 0;
        double* out = unit.data() + static_cast<std::size_t>(r) * cols;
        for (int c = 0; c < cols; ++c)
            out[c] = row[c] * inverse;
    }
    OffsetCosines result;
    result.rows = rows;
    result.cols = cols;
    const int offsets = std::min(rows - 1, max_offset) + 1;
    result.mean.resize(offsets);
    result.least.resize(offsets);
    result.greatest.resize(offsets);
    result.starts.resize(offsets);
    for (int k = 0; k < offsets; ++k) {
        const int available = rows - k;
        const int count = std::min(available, max_starts);
        result.sampled = result.sampled || count < available;
        double sum = 0, least = 2, greatest = -2;
        for (int j = 0; j < count; ++j) {
            // Evenly spread, the first and the last start included.
            const int p =
                count == available
                    ? j
                    : static_cast<int>(static_cast<long long>(j) * (available - 1) / (count - 1));
            const double* a = unit.data() + static_cast<std::size_t>(p) * cols;
            const double* b = unit.data() + static_cast<std::size_t>(p + k) * cols;
            double dot = 0;
            for (int c = 0; c < cols; ++c)
                dot += a[c] * b[c];
            sum += dot;
            least = std::min(least, dot);
            greatest = std::max(greatest, dot);
        }
        result.mean[k] = sum / count;
        result.least[k] = least;
        result.greatest[k] = greatest;
        result.starts[k] = count;
    }
    return result;
}

} // namespace pelab
