// table_offsets.cpp — cos(row p, row p + k) over starts p, for each offset k (table_offsets.h).
#include "pelab/models/table_offsets.h"

#include "pelab/base/error.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace pelab {

OffsetCosines offset_cosines(const std::vector<float>& table, int rows, int cols, int max_offset,
                             int max_starts, const AnalysisControl& control) {
    if (rows < 2 || cols < 1 || table.size() != static_cast<std::size_t>(rows) * cols)
        throw InvalidArgument("offset_cosines needs a table of at least 2 rows and 1 column");
    if (max_offset < 0 || max_starts < 2)
        throw InvalidArgument("offset_cosines needs max_offset ≥ 0 and max_starts ≥ 2");
    // Each row's inverse norm once; the table itself is not copied (a 64 MB table would be
    // 128 MB more as unit rows in double).
    std::vector<double> inverse(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r) {
        const float* row = table.data() + static_cast<std::size_t>(r) * cols;
        double sum = 0;
        for (int c = 0; c < cols; ++c)
            sum += static_cast<double>(row[c]) * row[c];
        inverse[static_cast<std::size_t>(r)] = sum > 0 ? 1 / std::sqrt(sum) : 0;
    }
    // Σ a_c·b_c in double over four independent sums (the loop's adds need not wait on each
    // other: about 3× faster than one running sum, and no less exact).
    const auto dot = [cols](const float* a, const float* b) {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int c = 0;
        for (; c + 4 <= cols; c += 4) {
            s0 += static_cast<double>(a[c]) * b[c];
            s1 += static_cast<double>(a[c + 1]) * b[c + 1];
            s2 += static_cast<double>(a[c + 2]) * b[c + 2];
            s3 += static_cast<double>(a[c + 3]) * b[c + 3];
        }
        for (; c < cols; ++c)
            s0 += static_cast<double>(a[c]) * b[c];
        return (s0 + s1) + (s2 + s3);
    };
    OffsetCosines result;
    result.rows = rows;
    result.cols = cols;
    const int offsets = std::min(rows - 1, max_offset) + 1;
    result.mean.resize(offsets);
    result.least.resize(offsets);
    result.greatest.resize(offsets);
    result.starts.resize(offsets);
    // Start by start, every offset of it (the rows p + k that follow p are read in order, and
    // start j of neighbouring offsets lies near its own: cache-friendly where offset by offset
    // jumped across a 64 MB table); each offset's sums still add its starts in order.
    std::vector<double> sum(static_cast<std::size_t>(offsets), 0.0),
        least(static_cast<std::size_t>(offsets), 2.0),
        greatest(static_cast<std::size_t>(offsets), -2.0);
    const auto count_of = [&](int k) { return std::min(rows - k, max_starts); };
    for (int k = 0; k < offsets; ++k)
        result.sampled = result.sampled || count_of(k) < rows - k;
    const int most_starts = count_of(0);
    for (int j = 0; j < most_starts; ++j) {
        control.Check();
        for (int k = 0; k < offsets; ++k) {
            const int available = rows - k, count = count_of(k);
            if (j >= count) break; // counts only shrink as k grows
            // Evenly spread, the first and the last start included.
            const int p =
                count == available
                    ? j
                    : static_cast<int>(static_cast<long long>(j) * (available - 1) / (count - 1));
            const double cosine = dot(table.data() + static_cast<std::size_t>(p) * cols,
                                      table.data() + static_cast<std::size_t>(p + k) * cols) *
                                  inverse[static_cast<std::size_t>(p)] *
                                  inverse[static_cast<std::size_t>(p + k)];
            const auto at = static_cast<std::size_t>(k);
            sum[at] += cosine;
            least[at] = std::min(least[at], cosine);
            greatest[at] = std::max(greatest[at], cosine);
        }
    }
    for (int k = 0; k < offsets; ++k) {
        const auto at = static_cast<std::size_t>(k);
        result.mean[at] = sum[at] / count_of(k);
        result.least[at] = least[at];
        result.greatest[at] = greatest[at];
        result.starts[at] = count_of(k);
    }
    return result;
}

} // namespace pelab
