// offset_table_worker.h — the similarity heatmap's table f(k) = PE(p)·PE(p + k), computed off
// the frame. At 65 536 positions × 4 096 dimensions it is 134 M rotations (~0.36 s): done on
// the UI thread it froze the window for that long each time d_model or the base changed. Here a
// background task computes it while the frames go on; the latest request wins (at most one
// task runs, and the one after it is for whatever was asked last). No GL: the GL side uploads
// what this returns, and tests run it headless.
#pragma once

#include "widgets/cached.h"

#include <vector>

namespace pelab {

class OffsetTableWorker {
public:
    struct Key {
        int max_len = 0;
        int d_model = 0;
        double base = 0;
        bool operator==(const Key& o) const {
            return max_len == o.max_len && d_model == o.d_model && base == o.base;
        }
    };

    /// The table dot_product_by_offset_range(max_len, d_model, base) for key when it is ready
    /// (it stays valid until the next call), else nullptr, having started its computation if
    /// none is running. Never blocks. A task that fails (invalid key) yields an empty table.
    const std::vector<double>* Get(const Key& key);
    /// The same, computed now on this thread when it is not ready (for the render command).
    const std::vector<double>& GetNow(const Key& key);
    /// A task is running: the frames should go on until it is collected.
    bool Busy() const { return tables_.Busy(); }

private:
    BackgroundCached<Key, std::vector<double>> tables_;
};

} // namespace pelab
