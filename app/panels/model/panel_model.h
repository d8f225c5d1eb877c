// panel_model.h — Your model: the positions of a checkpoint someone brings (File → Open or a
// drop: a folder with model.safetensors and config.json, a sharded model's index, a .npy table).
// What the family keeps (io/model_files.h) is read and analysed once, off the frame, by the
// shell's model service (io/model_service.h); the views:
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

#include "io/model_service.h"
#include "io/scene.h"
#include "panels/explanation.h"
#include "panels/model/model_check.h"
#include "panels/panel.h"
#include "widgets/plot.h"
#include "widgets/scene_tabs.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pelab {

/// The 3-D components view's turn about its vertical axis (not a scene field: a view's angle).
inline constexpr NumberControl kModelTurn{
    nullptr, "the 3-D components view's turn, in degrees",  -180,        180, 35, "turn", "%.0f°",
    false,   "Turns the 3-D view about its vertical axis.", "model.turn"};

struct ModelPanel : Panel {
    ModelPanel();

    // Own settings (scene fields).
    /// components, similarity or norms (a table); wavelengths, pairing or usage (RoPE); buckets;
    /// slopes. A view the open model has not falls back to its first.
    std::string view = "components";
    bool three_d = false; ///< the components in 3-D (a turning view) instead of 2-D
    float yaw_degrees = static_cast<float>(kModelTurn.initial);
    int bucket_stack = 0; ///< which stack's buckets (T5: encoder, decoder)
    int norms_shown = 0;  ///< a short window's Norms view: 0 the norms, 1 the neighbours' cosine
    int usage_head = -1;  ///< the Usage view's query head (−1: the mean over heads)
    /// The layer whose kind the RoPE views show (picked on the schedule strip; −1: the layer the
    /// schedule shows first, its first global rotary one).
    int layer = -1;

    // The model shown is the shell's (AppState::models, io/model_service.h); the panel keeps
    // what it draws of it, rebuilt when the service's version changes (Sync). With none open,
    // the panel shows the views of the sinusoidal table (kPreviewRows × kPreviewWidth) that a
    // checkpoint's table is set beside: preview.
    /// Mutable: the preview is computed when first drawn or read (Sync), not when the panel is
    /// built (every App builds every panel; the fuzz targets build thousands).
    mutable std::shared_ptr<const ModelReport> report;
    mutable bool preview = true;
    static constexpr int kPreviewRows = 256, kPreviewWidth = 64;
    std::string table_filter; ///< the table menu's filter text
    /// The sentences of the model shown, built once when it arrives.
    mutable Explanation table_sentence, rope_sentence, alibi_sentence;
    /// The Usage view's picture and sentence, for usage_head (computed when the head changes).
    mutable Explanation usage_sentence;
    mutable std::vector<double> usage_grid;
    mutable int usage_grid_head = -2; ///< the head usage_grid is for (−2: none yet)
    const std::vector<double>& UsageFor() const;
    mutable std::vector<Explanation> bucket_sentences;
    mutable TableCosines cosines;
    mutable unsigned long long cosine_version = 0; ///< bumped with each model shown (textures)
    /// The service's version the above were built for (none yet: the preview is built).
    mutable std::uint64_t synced_version = ~std::uint64_t{0};
    mutable bool homes_stale = false; ///< a new model: the plots find their home view again
    /// The service's report as it came (report is it, or a copy for the layer kind chosen), and
    /// the layer report was built for (−2: none yet).
    mutable std::shared_ptr<const ModelReport> service_report;
    mutable int layer_built = -2;
    /// The layer the views show: layer when the schedule has it, else the schedule's own; −1
    /// without a schedule.
    int LayerShown() const;
    /// Rebuilds report for LayerShown() when it changed (the RoPE numbers of that layer's kind).
    void SyncLayer() const;

    /// The Check view: another engine's RoPE tables (dropped .npy files), checked in the
    /// background against the layer shown; the pair whose curves are drawn (−1: where they part).
    RopeDumpFiles check_files;
    int check_pair = -1;
    int check_first = 0; ///< the position of the dumps' first row (a scene field)
    mutable BackgroundCached<RopeCheckInputs, RopeCheckOutcome> check_cache;
    plot::PlotView check_view;
    RopeCheckInputs CheckInputs(const AppState& state) const;
    /// The check of the files given, computed now when it is not ready (null: no file).
    const RopeCheckOutcome* CheckOutcomeNow(const AppState& state) const;
    bool TakesDataFile(const std::string& path, const AppState& state) const override;
    std::string OpenDataFile(const std::string& path, const AppState& state) override;

    SceneTabs tabs;
    plot::PlotView components_view, twin_view, norms_view, neighbour_view, wavelength_view,
        bucket_view, slope_view, cosine_view, twin_cosine_view;

    /// Brings what the panel draws up to the service's model (null: none, the preview).
    void Sync(const ModelService* models) const;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    std::string StatusNote(const AppState& state) const override;

    static std::vector<WidgetName> WidgetNames();

private:
    /// Builds the sentences, cosines and plot homes of a model shown.
    void Rebuild(std::shared_ptr<const ModelReport> shown, const TableCosines& shown_cosines) const;
    void DrawNothingOpen(FrameContext& frame);
    /// The menu reading any 2-D tensor of the file as the position table.
    /// The menu of the file's 2-D tensors to read as the table; compact (a projector, pictures
    /// first): a short "table" menu on the summary's line, so it is on the first screen.
    void DrawTablePicker(FrameContext& frame, bool compact = false);
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
    void DrawCheck(FrameContext& frame);
    void DrawCheckFiles(FrameContext& frame);
    void DrawCheckPicture(FrameContext& frame, const RopeCheckOutcome& outcome);
    void DrawBuckets(FrameContext& frame);
    void DrawSlopes(FrameContext& frame);
    /// The strip of the model's layers, one cell each coloured by kind, and the kind chosen.
    void DrawSchedule(FrameContext& frame);
};

} // namespace pelab
