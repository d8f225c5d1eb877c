// model_service.cpp — the checkpoint open in this PE Lab: its read off the frame and the table
// the panels share (io/model_service.h).
#include "io/model_service.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace pelab {

namespace {

// cos(row p, row q) averaged over blocks of block × block rows, at most cells a side.
std::vector<float> BlockCosines(const std::vector<float>& table, int rows, int cols, int cells,
                                int* size, int* block) {
    *block = (rows + cells - 1) / cells;
    *size = (rows + *block - 1) / *block;
    std::vector<double> means(static_cast<std::size_t>(*size) * cols, 0.0);
    std::vector<int> counts(static_cast<std::size_t>(*size), 0);
    for (int p = 0; p < rows; ++p) {
        const float* row = table.data() + static_cast<std::size_t>(p) * cols;
        double norm = 0;
        for (int c = 0; c < cols; ++c)
            norm += static_cast<double>(row[c]) * row[c];
        const double inverse = norm > 0 ? 1 / std::sqrt(norm) : 0;
        double* mean = means.data() + static_cast<std::size_t>(p / *block) * cols;
        for (int c = 0; c < cols; ++c)
            mean[c] += row[c] * inverse;
        ++counts[static_cast<std::size_t>(p / *block)];
    }
    for (int a = 0; a < *size; ++a)
        for (int c = 0; c < cols; ++c)
            means[static_cast<std::size_t>(a) * cols + c] /= std::max(counts[a], 1);
    std::vector<float> out(static_cast<std::size_t>(*size) * *size);
    for (int a = 0; a < *size; ++a)
        for (int b = a; b < *size; ++b) {
            double dot = 0;
            const double* x = means.data() + static_cast<std::size_t>(a) * cols;
            const double* y = means.data() + static_cast<std::size_t>(b) * cols;
            for (int c = 0; c < cols; ++c)
                dot += x[c] * y[c];
            out[static_cast<std::size_t>(a) * *size + b] = static_cast<float>(dot);
            out[static_cast<std::size_t>(b) * *size + a] = static_cast<float>(dot);
        }
    return out;
}

} // namespace

TableCosines TableCosines::Of(const ModelReport& r) {
    TableCosines out;
    if (!r.has_table) return out;
    out.fine = BlockCosines(r.table, r.table_report.rows, r.table_report.cols, kCosineCells,
                            &out.fine_size, &out.fine_block);
    out.twin_fine = BlockCosines(r.sinusoid, r.sinusoid_report.rows, r.sinusoid_report.cols,
                                 kCosineCells, &out.fine_size, &out.fine_block);
    out.coarse = BlockCosines(r.table, r.table_report.rows, r.table_report.cols, kCoarseCells,
                              &out.coarse_size, &out.coarse_block);
    out.twin_coarse = BlockCosines(r.sinusoid, r.sinusoid_report.rows, r.sinusoid_report.cols,
                                   kCoarseCells, &out.coarse_size, &out.coarse_block);
    return out;
}

ModelService::~ModelService() {
    // Closing the window during a large table's analysis takes a moment, not minutes.
    if (cancel_) cancel_->store(true);
    if (pending_.valid()) pending_.wait();
}

std::string ModelService::Open(const ModelRequest& request) {
    if (std::string error = CheckModel(request); !error.empty()) return error;
    if (cancel_) cancel_->store(true);
    if (pending_.valid()) pending_.wait();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    opening_ = request.path;
    pending_request_ = request;
    if (!open_error_.empty()) open_error_.clear(), ++version_;
#ifdef __EMSCRIPTEN__
    // No threads in the page: read in the frame after the one that says so.
    constexpr std::launch kLaunch = std::launch::deferred;
#else
    constexpr std::launch kLaunch = std::launch::async;
#endif
    said_reading_ = false;
    pending_ = std::async(kLaunch, [request, cancel = cancel_] {
        Read read;
        try {
            read.error = OpenModel(request, &read.report, cancel.get());
            if (read.error.empty()) read.cosines = TableCosines::Of(read.report);
        } catch (const Cancelled&) {
            read.cancelled = true;
        }
        return read;
    });
    return {};
}

void ModelService::Take() {
    if (!pending_.valid()) return;
    const std::future_status status = pending_.wait_for(std::chrono::seconds(0));
    // A deferred read (the browser) runs once a frame has said it is reading.
    if (status == std::future_status::timeout ||
        (status == std::future_status::deferred && !said_reading_))
        return;
    Read read = pending_.get();
    opening_.clear();
    if (read.cancelled) return;
    if (!read.error.empty()) {
        open_error_ = read.error;
        ++version_;
        return;
    }
    Show(std::move(read.report), pending_request_, std::move(read.cosines));
}

bool ModelService::Poll() {
    // A read deferred to a frame after the one that says "Reading …" (the browser): that frame
    // is this one, whichever panels are drawn in it.
    if (pending_.valid() && !said_reading_ &&
        pending_.wait_for(std::chrono::seconds(0)) == std::future_status::deferred) {
        said_reading_ = true;
        return true;
    }
    Take();
    return !opening_.empty();
}

void ModelService::Finish() {
    if (pending_.valid()) pending_.wait();
    said_reading_ = true;
    Take();
}

void ModelService::Close() {
    if (cancel_) cancel_->store(true);
    if (pending_.valid()) pending_.wait();
    pending_ = {};
    current_.reset();
    table_.reset();
    opening_.clear();
    open_error_.clear();
    ++version_;
}

void ModelService::Show(ModelReport report, const ModelRequest& request, TableCosines cosines) {
    auto shown = std::make_shared<OpenedModel>();
    shown->request = request;
    shown->cosines =
        report.has_table && cosines.fine.empty() ? TableCosines::Of(report) : std::move(cosines);
    shown->report = std::move(report);
    shown->version = ++version_;
    const ModelReport& r = shown->report;
    table_.reset();
    if (r.has_table) {
        auto table = std::make_shared<ModelTable>();
        table->family = r.found.family;
        table->family_id = r.found.family_id;
        table->name = r.found.table;
        table->checkpoint_path = r.path;
        table->config_path = r.config_path;
        table->rows = r.table_report.rows;
        table->cols = r.table_report.cols;
        table->values = r.table;
        // A report made without its offsets (a test's) gets them here.
        table->offsets =
            r.offsets.mean.empty() ? TableOffsets(r.table, table->rows, table->cols) : r.offsets;
        table->version = shown->version;
        table_ = std::move(table);
    }
    current_ = std::move(shown);
}

} // namespace pelab
