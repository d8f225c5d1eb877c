#include "gl/offset_table_worker.h"

#include "pelab/encodings/similarity.h"

#include <exception>

namespace pelab {

namespace {
std::vector<double> Compute(OffsetTableWorker::Key key) {
    try {
        return dot_product_by_offset_range(key.max_len, key.d_model, key.base);
    } catch (const std::exception&) {
        return {}; // an invalid key: nothing to draw (the panels clamp before asking)
    }
}
} // namespace

const std::vector<double>* OffsetTableWorker::Get(const Key& key) {
    bool current = false;
    const std::vector<double>* table = tables_.Get(key, Compute, &current);
    return current ? table : nullptr;
}

const std::vector<double>& OffsetTableWorker::GetNow(const Key& key) {
    return tables_.GetNow(key, Compute);
}

} // namespace pelab
