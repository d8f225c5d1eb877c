// panel_candidates.h — why the obvious ideas fail, as the published articles and course walk
// through them. Nine candidate encodings (pelab/encodings/candidates.h): the selected one's values
// over positions, and a table of the usual design constraints (docs/panels.md) measured by the core
// for every candidate at the current settings, each cell marked ok or fails against a stated
// threshold. Beside them the "drowning" meter (‖embedding‖ against ‖PE(pos A)‖) and sin's aliasing
// on the unit circle.
#pragma once

#include "panels/explanation.h"

#include "io/scene.h"
#include "panels/panel.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/candidates.h"
#include "widgets/cached.h"
#include "widgets/plot.h"

#include <array>
#include <string>
#include <vector>

namespace pelab {

constexpr int kCandidateShownDims = 4;

/// One property cell of the table: its value as text, whether it passes, and the tooltip that
/// says how it was measured (exposed for tests).
struct PropertyCell {
    std::string text;
    bool ok = false;
    bool known = true; ///< false where the test cannot say (too few positions)
    std::string how;
};
constexpr int kPropertyCount = 6;
const char* PropertyName(int property);
PropertyCell DescribeProperty(int property, const CandidateProperties& measured, int length);

/// The shift k of the "shift is linear" column (scene field candidates_shift_k).
/// L (the sequence length and the learned table's rows) and one embedding value's size.
inline constexpr NumberControl kCandidatesLength{
    "candidates_length",
    "L, the sequence length and table rows",
    kMinCandidateLength,
    4096,
    10,
    "L",
    "%d",
    true,
    "L: the sequence length index / length divides by, and the learned table's rows (it has no "
    "entry for position L or later).",
    "candidates.length"};
inline constexpr NumberControl kCandidatesEmbedding{
    "candidates_embedding",
    "one embedding value's size",
    0.01,
    1.0,
    0.1,
    "embedding",
    "%.2f",
    false,
    "The size of one embedding value (the published examples use about 0.05 to 0.2): "
    "‖embedding‖ = value·√d_model.",
    "candidates.embedding"};
inline constexpr NumberControl kCandidatesDModel = Drawn(kDModel, "d_model", "candidates.d_model");
inline constexpr NumberControl kCandidatesShiftK{
    "candidates_shift_k",
    "the shift the shift linear column tests",
    1,
    64,
    1,
    "k",
    "%d",
    false,
    "k: the shift of the \"shift linear\" column, PE(p) → PE(p + k).",
    "candidates.shift_k"};

struct CandidatesPanel : Panel {
    // Own settings (scene fields).
    std::string candidate = "binary";                          ///< candidate_id of the one plotted
    int length = static_cast<int>(kCandidatesLength.initial);  ///< L: index / length, table rows
    int positions = 256;                                       ///< N: positions the table measures
    int shift_k = static_cast<int>(kCandidatesShiftK.initial); ///< k of the "shift is linear" test
    double embedding_value = kCandidatesEmbedding.initial;     ///< typical |value| of one dim
    bool scale_embedding = false; ///< multiply the embedding by √d_model (as the paper does)
    bool grid = false;            ///< the values as a positions × dims grid, not lines
    // View state.
    plot::PlotView values_view, circle_view;
    std::string d_model_note;
    /// What the table measures, from the settings alone (the panel's N and k kept in range:
    /// 16 ≤ N ≤ kMaxCheckedPositions, 1 ≤ k < N), and what it gives: computed once per change,
    /// drawn, exported as CSV and reported by the readouts from the same result.
    struct TableInputs {
        CandidateSettings settings;
        int positions = 0, dims = 0, shift_k = 0;
        bool operator==(const TableInputs& o) const {
            return settings.d_model == o.settings.d_model && settings.base == o.settings.base &&
                   settings.length == o.settings.length && settings.seed == o.settings.seed &&
                   positions == o.positions && dims == o.dims && shift_k == o.shift_k;
        }
    };
    struct Table {
        TableInputs inputs; ///< what was measured (the legend says it)
        CandidateProperties properties[kCandidateCount];
        /// Each candidate's properties as the table shows them (DescribeProperty at the
        /// measured L), described once per table rather than twice a cell every frame.
        std::array<std::array<PropertyCell, kPropertyCount>, kCandidateCount> cells;
    };
    static Table ComputeTable(const TableInputs& inputs);
    TableInputs TableInputsFor(const AppState& state) const;
    const Table& TableFor(const AppState& state) const;
    mutable BackgroundCached<TableInputs, Table> table_cache;
    /// Whether the table drawn is for this frame's settings (drawn through GetForFrame: off the
    /// frame in the window, the last one meanwhile, the legend saying it is updating).
    bool table_current = true;
    /// The plotted candidate's first dims over positions (NaN where it has no value).
    struct PlotInputs {
        Candidate candidate = Candidate::RawIndex;
        CandidateSettings settings;
        int positions = 0, dims = 0;
        bool operator==(const PlotInputs& o) const {
            return candidate == o.candidate && settings.d_model == o.settings.d_model &&
                   settings.base == o.settings.base && settings.length == o.settings.length &&
                   settings.seed == o.settings.seed && positions == o.positions && dims == o.dims;
        }
    };
    struct PlotData {
        std::vector<double> x;
        std::array<std::vector<double>, kCandidateShownDims> y;
        double low = 0, high = 1; ///< the values' range over the positions shown at first
    };
    static PlotData ComputePlot(const PlotInputs& inputs);
    Cached<PlotInputs, PlotData> plot_cache;
    long plot_fitted = -1; ///< the plot computation the view was last fitted to

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();
    std::string StatusNote(const AppState& state) const override;
    /// The property table: each encoding's cells as shown, with their verdicts (ok, fails,
    /// cannot say), measured afresh for the current settings.
    std::string TableCsv(const AppState& state) const override;
    bool HasTable() const override { return true; }

    Candidate Selected() const;
    CandidateSettings Settings(const AppState& state) const;
    /// The dims the table looks at: the first min(d_model, kMaxCheckedDims).
    static int CheckedDims(const AppState& state);

private:
    void DrawControls(FrameContext& frame);
    void DrawValues(FrameContext& frame, ImVec2 size);
    void DrawGrid(FrameContext& frame, ImVec2 size);
    void DrawTable(FrameContext& frame, const Table& table);
    void DrawDrowning(FrameContext& frame, float width);
    void DrawAliasing(FrameContext& frame, float size);
};

/// The drowning meter's sentence: how ‖PE(pos)‖ compares with ‖embedding‖.
Explanation DrowningSentence(const char* candidate, double pos, int length, double embedding_norm,
                             double pe_norm);

} // namespace pelab
