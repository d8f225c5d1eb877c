#include "gl/offset_table_worker.h"

#include "pelab/similarity.h"

#include <chrono>
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

OffsetTableWorker::~OffsetTableWorker() {
    if (running_.valid()) running_.wait();
}

void OffsetTableWorker::Collect() {
    if (!running_.valid() ||
        running_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    ready_ = running_.get();
    ready_key_ = running_key_;
    has_ready_ = true;
}

const std::vector<double>* OffsetTableWorker::Get(const Key& key) {
    Collect();
    if (has_ready_ && ready_key_ == key) return &ready_;
    if (!running_.valid()) {
        running_key_ = key;
        running_ = std::async(std::launch::async, Compute, key);
    }
    return nullptr;
}

const std::vector<double>& OffsetTableWorker::GetNow(const Key& key) {
    if (running_.valid()) running_.wait();
    Collect();
    if (!(has_ready_ && ready_key_ == key)) {
        ready_ = Compute(key);
        ready_key_ = key;
        has_ready_ = true;
    }
    return ready_;
}

} // namespace pelab
