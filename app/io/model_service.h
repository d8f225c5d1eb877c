// model_service.h — the checkpoint open in this PE Lab, as one object every panel reads: its
// request (files), report (family, tables, RoPE, buckets, slopes), the block-averaged cosines
// of its table, the learned table handed to the panels that show real rows, and the read in
// flight with its progress. The shell owns it (App::models) and AppState points to it; the
// Your model panel, the order panel's Real model view, the compare panel and the lessons read
// it. Opening is a quick check of the files in the frame, then the read and its analysis off
// the frame (a thread; in the browser, the frame after the one that says "Reading …").
#pragma once

#include "io/model_files.h"
#include "pelab/models/table_offsets.h"

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace pelab {

/// A checkpoint's learned position table, shown read-only by the panels that look at real rows
/// (compare, the order panel's Real model view). Rows from the family's first position on.
struct ModelTable {
    std::string family, name; ///< "GPT-2", "wpe.weight"
    std::string family_id;    ///< "gpt2", "numpy_table", … (pelab/models/families.h)
    /// Where it was read from (the weights and config.json): the order panel's Real model view
    /// runs the whole checkpoint from there when the family is GPT-2.
    std::string checkpoint_path, config_path;
    int rows = 0, cols = 0;
    std::vector<float> values; ///< rows × cols, row-major
    OffsetCosines offsets;     ///< cos(row p, row p + k) over starts p (table_offsets.h)
    std::uint64_t version = 0; ///< changes with each table opened (caches key on it)
};

/// The cosine of every two rows of a table (and of its sinusoidal twin), averaged over blocks of
/// rows: fine (at most kCosineCells a side, one row per cell up to GPT-2's 1 024; a GPU texture)
/// and coarse (at most kCoarseCells, drawn as rectangles where there is no GPU).
struct TableCosines {
    std::vector<float> fine, twin_fine;
    int fine_size = 0, fine_block = 1;
    std::vector<float> coarse, twin_coarse;
    int coarse_size = 0, coarse_block = 1;
    static constexpr int kCosineCells = 1024, kCoarseCells = 128;
    /// The block-averaged cosines of a report's table and twin (empty without a table). The mean
    /// of the cosines of two blocks is the dot product of the blocks' mean unit rows, so no
    /// rows × rows matrix is ever built (a 65 536-row table would need 16 GiB).
    static TableCosines Of(const ModelReport& report);
};

/// A model shown: what was asked, what was read, and a number that changes with each one.
struct OpenedModel {
    ModelRequest request;
    ModelReport report;
    TableCosines cosines;
    std::uint64_t version = 0;
};

class ModelService {
public:
    ModelService() = default;
    /// A read in flight is stopped and waited for (it owns nothing of the service's).
    ~ModelService();
    ModelService(const ModelService&) = delete;
    ModelService& operator=(const ModelService&) = delete;

    /// Starts reading request off the frame after a quick check of the files (their headers and
    /// config.json): "" or why not, in which case nothing changes. A read in flight is stopped
    /// first: the newer one wins.
    [[nodiscard]] std::string Open(const ModelRequest& request);
    /// Once a frame: takes a finished read. True while a read is in flight.
    bool Poll();
    /// Waits for the read in flight and takes it (tests, the command line).
    void Finish();
    /// Shows a computed report (a test's, or the end of a read), with its cosines (computed here
    /// when absent).
    void Show(ModelReport report, const ModelRequest& request = {}, TableCosines cosines = {});

    /// Nothing open again (a read in flight stopped): the panels show what they show without a
    /// model.
    void Close();
    /// Says why an open was refused, as a failed read does (the model shown stays).
    void NoteError(std::string error) {
        open_error_ = std::move(error);
        ++version_;
    }

    /// The model shown (null: none yet).
    const std::shared_ptr<const OpenedModel>& Current() const { return current_; }
    /// Its learned table (null: none, or not a table).
    const std::shared_ptr<const ModelTable>& Table() const { return table_; }
    /// The path being read ("" when none), and why the last open failed ("" when it did not;
    /// the model shown stays).
    const std::string& Opening() const { return opening_; }
    const std::string& OpenError() const { return open_error_; }
    /// Changes whenever Current() or OpenError() does (a panel's caches key on it).
    std::uint64_t Version() const { return version_; }

private:
    struct Read {
        std::string error;
        bool cancelled = false; ///< stopped for a newer file or the service's end
        ModelReport report;
        TableCosines cosines;
    };
    void Take();

    std::shared_ptr<const OpenedModel> current_;
    std::shared_ptr<const ModelTable> table_;
    std::future<Read> pending_;
    /// Set to stop the read in flight: its analysis ends within about 0.1 s instead of
    /// finishing a table nobody will see.
    std::shared_ptr<std::atomic<bool>> cancel_;
    ModelRequest pending_request_;
    std::string opening_, open_error_;
    bool said_reading_ = false; ///< a frame has shown "Reading …" (a deferred read may start)
    std::uint64_t version_ = 0;
};

} // namespace pelab
