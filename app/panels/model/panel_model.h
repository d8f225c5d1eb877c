// panel_model.h — Your model: the positions of a checkpoint someone brings (File → Open or a
// drop: a folder with model.safetensors and config.json, a sharded model's index, a .npy table).
// What the family keeps (io/model_files.h) is read and analysed once, off the frame; the views:
//   learned tables  the rows' principal components in 2-D and 3-D beside the sinusoidal table of
//                   the same size, the cosine similarity of every two rows, the rows' norms and
//                   their neighbours' cosine up to the trained length's edge;
//   RoPE            each pair's wavelength against the trained context (and under rope_scaling),
//                   the family's pairing drawn on a head's vector, the weights' per-pair usage
//                   (layers × pairs);
//   T5              each head's bias against key − query with the bucket edges;
//   ALiBi           the slopes of the model's head count.
// Each view says what it shows in a sentence built from its numbers (model_sentences.h).
#pragma once

#include "io/model_files.h"
#include "panels/explanation.h"
#include "panels/panel.h"
#include "widgets/plot.h"
#include "widgets/scene_tabs.h"

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace pelab {

struct ModelPanel : Panel {
    ModelPanel();
    ~ModelPanel() override;

    // Own settings (scene fields).
    /// components, similarity or norms (a table); wavelengths, pairing or usage (RoPE); buckets;
    /// slopes. A view the open model has not falls back to its first.
    std::string view = "components";
    bool three_d = false; ///< the components in 3-D (a turning view) instead of 2-D
    float yaw_degrees = 35.0f;
    int bucket_stack = 0; ///< which stack's buckets (T5: encoder, decoder)
    int norms_shown = 0;  ///< a short window's Norms view: 0 the norms, 1 the neighbours' cosine
    int usage_head = -1;  ///< the Usage view's query head (−1: the mean over heads)

    // The model shown, and the one being opened off the frame. With none open, the panel shows
    // the views of the sinusoidal table (kPreviewRows × kPreviewWidth) that a checkpoint's table
    // is set beside: preview.
    /// Mutable: the preview is computed when first drawn or read (EnsurePreview), not when the
    /// panel is built (every App builds every panel; the fuzz targets build thousands).
    mutable std::shared_ptr<const ModelReport> report;
    bool preview = true;
    static constexpr int kPreviewRows = 256, kPreviewWidth = 64;
    std::string open_error;   ///< why the last open failed (the model shown stays)
    std::string opening;      ///< the path being read ("" when none)
    std::string table_filter; ///< the table menu's filter text
    /// The cosine of every two rows (and of the sinusoidal twin's), averaged over blocks of rows:
    /// fine (at most kCosineCells a side, one row per cell up to GPT-2's 1 024; a GPU texture)
    /// and coarse (at most kCoarseCells, drawn as rectangles where there is no GPU).
    struct Cosines {
        std::vector<float> fine, twin_fine;
        int fine_size = 0, fine_block = 1;
        std::vector<float> coarse, twin_coarse;
        int coarse_size = 0, coarse_block = 1;
    };
    static constexpr int kCosineCells = 1024, kCoarseCells = 128;
    struct Opened {
        std::string error;
        bool cancelled = false; ///< stopped for a newer file or the panel's end: nothing to show
        ModelReport report;
        Cosines cosines;
    };
    std::future<Opened> pending;
    /// Set to stop the read in flight (a newer file opened, the panel going): its analysis ends
    /// within about 0.1 s instead of finishing a table nobody will see.
    std::shared_ptr<std::atomic<bool>> cancel_pending;
    ModelRequest pending_request, shown_request; ///< what is being read, and what is shown
    bool said_reading = false; ///< a frame has shown "Reading …" (a deferred read may start)
    /// The sentences of the model shown, built once when it arrives.
    Explanation table_sentence, rope_sentence, alibi_sentence;
    /// The Usage view's picture and sentence, for usage_head (computed when the head changes).
    mutable Explanation usage_sentence;
    mutable std::vector<double> usage_grid;
    mutable int usage_grid_head = -2; ///< the head usage_grid is for (−2: none yet)
    const std::vector<double>& UsageFor() const;
    std::vector<Explanation> bucket_sentences;
    mutable Cosines cosines;
    unsigned long long cosine_version = 0; ///< bumped with each model shown (the textures')

    SceneTabs tabs;
    plot::PlotView components_view, twin_view, norms_view, neighbour_view, wavelength_view,
        bucket_view, slope_view, cosine_view, twin_cosine_view;

    /// Starts reading request off the frame after a quick check of the files (their headers and
    /// config.json): "" or why not, in which case nothing changes.
    std::string Open(const ModelRequest& request);
    /// Waits for a pending open and shows its model (tests, the command line).
    void FinishOpening();
    /// Shows a computed report (the end of an open), with its cosines (computed here if absent).
    void Show(ModelReport computed);
    void Show(ModelReport computed, Cosines computed_cosines);
    /// The block-averaged cosines of a report's table and twin.
    static Cosines ComputeCosines(const ModelReport& report);

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    std::string StatusNote() const override;
    bool OpensPath(const std::string& path) const override;
    std::string OpenPath(const std::string& path) override;
    void FinishReading() override { FinishOpening(); }
    bool CollectReading() override;
    std::shared_ptr<const ModelTable> OpenedTable() const override { return opened_table; }
    /// The learned table of the model shown, for other panels (null: none, or not a table).
    std::shared_ptr<const ModelTable> opened_table;

    static std::vector<WidgetName> WidgetNames();

private:
    void TakePending();
    /// With no model shown, computes the sinusoidal table's views once.
    void EnsurePreview() const;
    void DrawNothingOpen(FrameContext& frame);
    /// The menu reading any 2-D tensor of the file as the position table.
    void DrawTablePicker(FrameContext& frame);
    /// A tab of a view: its label, scene id, recorded name and what draws it.
    struct ViewTab {
        const char* label;
        const char* id;
        const char* record;
        void (ModelPanel::*draw)(FrameContext&);
    };
    /// The tab bar of count views; the scene's view is the open tab (else the first).
    void DrawTabs(FrameContext& frame, const char* bar, const ViewTab* tabs_shown, int count);
    void DrawTable(FrameContext& frame);
    void DrawComponents(FrameContext& frame);
    void DrawSimilarity(FrameContext& frame);
    void DrawNorms(FrameContext& frame);
    void DrawRope(FrameContext& frame);
    void DrawWavelengths(FrameContext& frame);
    void DrawPairing(FrameContext& frame);
    void DrawUsage(FrameContext& frame);
    void DrawBuckets(FrameContext& frame);
    void DrawSlopes(FrameContext& frame);
};

} // namespace pelab
