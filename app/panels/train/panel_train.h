// panel_train.h — Train: what a positional encoding does to a real model. The same tiny
// transformer (core/include/pelab/transformer.h) trained once per encoding on a task
// (pelab/training/train.h), live on a worker thread or opened from a run: the loss and accuracy
// curves per variant, accuracy against test length with the trained range shaded (length
// generalisation), each variant's attention on one example, and a verdict built from the
// measured numbers (train_verdict.h). The runs in assets/train/ are built in and open
// instantly; a run file (`pelab train --out`) opens with File → Open.
#pragma once

#include "io/scene.h"
#include "io/train_run.h"
#include "panels/explanation.h"
#include "panels/panel.h"
#include "panels/train/train_job.h"
#include "widgets/cached.h"
#include "widgets/plot.h"
#include "widgets/scene_tabs.h"

#include <functional>
#include <string>
#include <vector>

namespace pelab {

class FlowRow;

/// The progress bar's text in room pixels (width measures a text): the share done and the time
/// left ("43%, 12 s left"), else the time left alone (what a room waiting wants most), else the
/// share done; "timing a step" before any step was measured (seconds_left < 0).
std::string ProgressText(double progress, double seconds_left, float room,
                         const std::function<float(const std::string&)>& width);
/// The run the panel shows when no scene says otherwise.
constexpr const char* kDefaultTrainRun = "reverse";

/// The layer and head whose attention the Attention tab shows (scene fields train_layer and
/// train_head): at most the run's layers − 1 and heads − 1 (SceneSlider's most).
inline constexpr NumberControl kTrainLayer{"train_layer",
                                           "which layer's attention the maps show",
                                           0,
                                           kTrainMaxLayers - 1,
                                           1,
                                           "layer",
                                           "%d",
                                           false,
                                           nullptr,
                                           "train.layer"};
inline constexpr NumberControl kTrainHead{"train_head",
                                          "which attention head the maps show",
                                          0,
                                          kTrainMaxHeads - 1,
                                          0,
                                          "head",
                                          "%d",
                                          false,
                                          nullptr,
                                          "train.head"};

// A run's lengths and steps, within what pelab train accepts (pelab/training/train.h).
inline constexpr NumberControl kTrainLenControl{nullptr,
                                                "the length of the training sequences",
                                                1,
                                                kTrainMaxTrainLen,
                                                16,
                                                "train len",
                                                "%d",
                                                false,
                                                "The length of the training sequences.",
                                                "train.train_len"};
inline constexpr NumberControl kTestLenControl{
    nullptr,
    "the longest length accuracy is measured at",
    1,
    kTrainMaxTestLen,
    64,
    "test len",
    "%d",
    false,
    "Accuracy is measured up to this length (4 × train len shows length generalisation).",
    "train.test_len"};
inline constexpr NumberControl kStepsControl{nullptr,
                                             "how many training steps each variant gets",
                                             1,
                                             kTrainMaxSteps,
                                             300,
                                             "steps",
                                             "%d",
                                             false,
                                             "Training steps per variant.",
                                             "train.steps"};

struct TrainPanel : Panel {
    TrainPanel();

    // Own settings (scene fields).
    /// A built-in run (assets/train/<name>.json) or "": the panel's own (live or opened) run.
    std::string result_name = kDefaultTrainRun;
    std::string view = "length"; ///< curves, length or attention
    /// The attention shown. A scene may ask for a layer or head the run's model does not have
    /// (train_layer: 3 on a 2-layer run): the one rule is to show the model's last, set these to
    /// what is shown, and say so (attention_note, in the panel and its readouts) until the
    /// teacher picks another.
    int layer = static_cast<int>(kTrainLayer.initial), head = static_cast<int>(kTrainHead.initial);
    std::string attention_note;

    // The settings Start trains with (a built-in run's when one is picked).
    TrainSettings edit;
    std::string edit_error;
    std::string settings_from; ///< the built-in run whose settings edit last took
    TrainJob job;
    /// The panel's own run: live (snapshots of job) or opened from a file.
    TrainRun own_run;
    std::string own_source; ///< "" (none yet), "live" or the file's path
    long own_version = 0, job_version = 0;

    // View state.
    plot::PlotView loss_view, accuracy_view, length_view;
    int curve_shown = 0; ///< one curve plot at a time when short: 0 loss, 1 accuracy
    SceneTabs tabs;      ///< view's tabs

    /// What the panel shows, computed once per change of the run shown.
    struct ShownInputs {
        std::string result_name;
        long own_version = 0;
        bool operator==(const ShownInputs& o) const {
            return result_name == o.result_name && own_version == o.own_version;
        }
    };
    struct Shown {
        const TrainRun* run = nullptr; ///< null: nothing to show (error says why, or no run yet)
        TrainRun built_in;             ///< the parsed built-in run, when one is shown
        std::string source;            ///< "built-in reverse", "live", the file
        std::string error;
        Explanation verdict, notes;
    };
    const Shown& ShownFor() const;
    mutable Cached<ShownInputs, Shown> shown_cache;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    std::string StatusNote(const AppState& state) const override;
    /// The run shown as a table: one row per variant, its accuracy at each test length, its
    /// last loss (full precision).
    std::string TableCsv(const AppState& state) const override;
    bool HasTable() const override;
    std::string DocumentKind() const override { return "train"; }
    std::string OpenDocument(const nlohmann::json& doc, const std::string& path,
                             const SceneTable& table, const PanelCatalog& panels) override;
    /// Starts a live run of edit (or says why not in edit_error); true when it started.
    bool StartTraining();
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();

private:
    void DrawControls(FrameContext& frame);
    /// The run shown: a built-in one, or the panel's own.
    void DrawRunChoice(FrameContext& frame, FlowRow& row);
    /// Start and Quick demo, or Cancel and the progress bar while a run goes.
    void DrawStartSlot(FrameContext& frame, FlowRow& row);
    /// The task, the mask, the lengths, the steps, iRoPE's pattern and the seed.
    void DrawSettings(FrameContext& frame, FlowRow& row);
    /// A checkbox per variant (ticked: edit trains it), in row.
    void DrawVariantChoices(FrameContext& frame, FlowRow& row);
    /// Each draws its tab's picture in height pixels.
    void DrawCurves(FrameContext& frame, const TrainRun& run, float height);
    void DrawLength(FrameContext& frame, const TrainRun& run, float height);
    void DrawAttention(FrameContext& frame, const TrainRun& run, float height);
    /// The layer and head shown (brought into the model's range, said so), and the example.
    void DrawAttentionControls(FrameContext& frame, const TrainRun& run);
};

} // namespace pelab
