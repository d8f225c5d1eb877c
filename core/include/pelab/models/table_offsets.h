// table_offsets.h — how a position table's similarity depends on the offset between two rows.
// In the sinusoidal table cos(row p, row p + k) is the same for every start p (it is
// Σ_i cos(ω_i k) / (d/2)); a learned table need not keep that, and the spread over starts at each
// offset says how far it departs from it. The compare panel draws it for a checkpoint's table.
#pragma once

#include "pelab/base/cancel.h"

#include <vector>

namespace pelab {

struct OffsetCosines {
    int rows = 0, cols = 0;
    /// For offsets k = 0 … size − 1: cos(row p, row p + k) over the starts p measured (every p
    /// in [0, rows − k) when there are at most max_starts, else max_starts of them spread evenly,
    /// the first and the last included): mean, least, greatest, and how many starts.
    std::vector<double> mean, least, greatest;
    std::vector<int> starts;
    bool sampled = false; ///< some offset measured fewer starts than it has
};

/// table is row-major rows × cols (rows ≥ 2, cols ≥ 1; InvalidArgument otherwise). Offsets up to
/// min(rows − 1, max_offset); max_offset ≥ 0, max_starts ≥ 2. A row of zeros has cosine 0 with
/// every row. Cost: about max_offset · max_starts · cols multiply-adds.
/// Throws Cancelled when control's flag is set (checked between starts).
OffsetCosines offset_cosines(const std::vector<float>& table, int rows, int cols, int max_offset,
                             int max_starts, const AnalysisControl& control = {});

} // namespace pelab
