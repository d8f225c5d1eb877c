// panel_compare.h — the two-position comparison: PE(A) and PE(B) side by side, dimension
// by dimension, with the dot product, the similarity, and why the two positions differ.
#pragma once

#include "io/model_service.h"
#include "panels/explanation.h"

#include "io/scene.h"
#include "panels/panel.h"
#include "pelab/encodings/similarity.h"
#include "widgets/cached.h"
#include "widgets/plot.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pelab {

/// The offset plot's x span for |B − A| = offset: 64, or the first of 1, 2, 5 × 10ⁿ that is at
/// least twice the offset (so both markers sit in its first half or at its middle).
double OffsetPlotSpan(double offset);
/// The distance readout's words: "1 position" (exactly one), else "0 positions", "2.5 positions".
std::string DistanceText(double distance);

/// The filter's range of dimensions and its step (drawn in compare_table.cpp).
inline constexpr NumberControl kCompareRangeFirst{"compare_range_first",
                                                  "first dimension of \"range\"",
                                                  0,
                                                  kUiMaxDModel - 1,
                                                  0,
                                                  "dims",
                                                  "%d",
                                                  false,
                                                  nullptr,
                                                  "compare.range"};
inline constexpr NumberControl kCompareRangeLast{"compare_range_last",
                                                 "last dimension of \"range\"",
                                                 0,
                                                 kUiMaxDModel - 1,
                                                 63,
                                                 "dims",
                                                 "%d",
                                                 false,
                                                 nullptr,
                                                 "compare.range"};
inline constexpr NumberControl kCompareEveryK{
    "compare_every_k", "step of \"every-kth\"", 2, 64, 8, "k-th", "%d", false,
    nullptr,           "compare.every_k"};

struct ComparePanel : Panel {
    enum class DimensionFilter { All, SinOnly, CosOnly, Range, EveryKth };
    // View state.
    DimensionFilter filter = DimensionFilter::All;
    /// Whether the filter shows dimension dim of d (range bounds clamped as drawn).
    bool Shows(int dim, int d) const;
    /// The shown rows: dim, function, ω, PE_A, PE_B, |Δ|, the pair's share of the dot product.
    std::string TableCsv(const AppState& state) const override;
    bool HasTable() const override { return true; }
    int range_first = static_cast<int>(kCompareRangeFirst.initial);
    int range_last = static_cast<int>(kCompareRangeLast.initial);
    int every_k = static_cast<int>(kCompareEveryK.initial);
    std::string input_note;       ///< why a typed position was changed
    bool filter_in_strip = false; ///< this frame's filter row went into the controls strip
    bool in_band = false; ///< this frame: the plot beside the numbers, over the table's first rows
    std::vector<int> visible_dims;
    /// What the panel shows, computed once per change of the positions, d_model or base; the
    /// frame draws it and Readouts and TableCsv report the same result.
    struct Inputs {
        double pos_a = 0, pos_b = 0, base = 0;
        int d_model = 0;
        bool operator==(const Inputs& o) const {
            return pos_a == o.pos_a && pos_b == o.pos_b && base == o.base && d_model == o.d_model;
        }
    };
    struct Result {
        std::vector<double> pe_a, pe_b, contributions, omegas;
        PositionComparison comparison;
        std::string explanation;
    };
    static Result Compute(const Inputs& inputs);
    const Result& ResultFor(const AppState& state) const;
    mutable Cached<Inputs, Result> result_cache;
    const Result* shown = nullptr; ///< this frame's result, for the parts the frame draws
    // The dot product against the offset k, over a round span (recomputed when the span steps).
    struct CurveInputs {
        double span = 0, base = 0;
        int d_model = 0;
        bool operator==(const CurveInputs& o) const {
            return span == o.span && base == o.base && d_model == o.d_model;
        }
    };
    struct Curve {
        double span = 0; ///< the offsets it covers: 0 … span
        std::vector<double> k, dot;
        plot::Range y{-0.6, 1.1}; ///< the y range: the curve's, with a margin
    };
    static Curve ComputeCurve(const CurveInputs& inputs);
    /// Off the frame in the window (at d_model 4 096 a new span costs ~8 ms): the last curve
    /// stays drawn, over its own span, until the new one is in.
    BackgroundCached<CurveInputs, Curve> curve_cache;
    bool curve_current = true; ///< the curve drawn is for this frame's span, d_model and base
    long curve_fitted = -1;    ///< the curve computation the view was last fitted to
    plot::PlotView offset_view;

    // Two rows of a checkpoint's learned table (AppState::model_table) instead of the formula's
    // vectors: pos A and pos B pick the rows (rounded, at most the last row).
    bool model_rows = false; ///< scene field compare_source: "sinusoidal" or "model"
    /// Whether the panel shows the model's rows (chosen, and a table is open).
    bool ShowsRows(const AppState& state) const { return model_rows && state.model_table; }
    static int RowOf(double position, const ModelTable& table);
    struct RowsInputs {
        int row_a = 0, row_b = 0;
        std::uint64_t version = 0;
        const ModelTable* table = nullptr; ///< read while computing; compared by version
        bool operator==(const RowsInputs& o) const {
            return row_a == o.row_a && row_b == o.row_b && version == o.version;
        }
    };
    struct RowsResult {
        int row_a = 0, row_b = 0;
        std::vector<double> a, b, products; ///< the two rows, and A·B per dimension
        PositionComparison comparison;
        double twin_cosine = 0; ///< the sinusoidal table's cosine at the same two positions
        Explanation explanation;
        /// cos(row F, row F + k) for every k the table holds, F the earlier of the two rows.
        std::vector<double> k_from_a, from_a;
    };
    static RowsResult ComputeRows(const RowsInputs& inputs);
    /// The sinusoidal table's cosine at each offset of the table's spread (once per table).
    struct TwinInputs {
        std::uint64_t version = 0;
        const ModelTable* table = nullptr; ///< read while computing; compared by version
        bool operator==(const TwinInputs& o) const { return version == o.version; }
    };
    static std::vector<double> TwinCurve(const TwinInputs& inputs);
    mutable Cached<TwinInputs, std::vector<double>> twin_cache;
    const RowsResult& RowsFor(const AppState& state) const;
    mutable Cached<RowsInputs, RowsResult> rows_cache;
    const RowsResult* shown_rows = nullptr; ///< this frame's rows (null: the formula's vectors)
    std::uint64_t rows_fitted = 0;          ///< the table the offset plot was last fitted to
    /// Which typed positions were shown as another row ("" when both are rows of the table).
    static std::string RowsNote(const AppState& state);

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();

private:
    void DrawPositionInputs(FrameContext& frame);
    void DrawReadouts(FrameContext& frame);
    void DrawExplanation(FrameContext& frame);
    void DrawShift(FrameContext& frame);
    void DrawOffsetPlot(FrameContext& frame, float height);
    void DrawTable(FrameContext& frame);
    /// The filter row (when under the table), the dimensions shown, and BeginTable of the
    /// scrolling dimension table (false: nothing to draw this frame).
    bool BeginDimensionTable(FrameContext& frame, const char* id, int columns, int d);
    /// The offset plot of what is shown: the formula's dot product or the rows' cosines.
    void PlotOffsets(FrameContext& frame, float height);
    /// The choice between the formula's vectors and the rows of a checkpoint's table.
    void DrawSourceChoice(FrameContext& frame);
    void DrawRowsOffsetPlot(FrameContext& frame, float height);
    void DrawRowsTable(FrameContext& frame);
    std::string RowsCsv(const AppState& state) const;
    nlohmann::json RowsReadouts(const AppState& state) const;
    /// The "show dimensions" filter row (hidden with the controls; the filter still applies).
    void DrawFilterControls(FrameContext& frame, int d);
    /// The table's height in a short window: its header and first three rows.
    static float ShortTableHeight();
    /// Whether the table's filter row is drawn above it this frame.
    bool FilterUnderTable(const FrameContext& frame) const;
};

/// The sentence under the table: which pairs tell pos_a and pos_b apart, which came round to
/// nearly the same angle (pelab/encodings/pair_turns.h), and why; with its claims (explanation.h).
Explanation ExplainDifference(double pos_a, double pos_b, int d_model, double base);

/// "GPT-2's wpe.weight", "the NumPy table "x"", "the tensor "name"".
std::string TableTitle(const ModelTable& table);
/// What the panel says when rows of a table were asked for and none is open.
constexpr const char* kNoTableNote =
    "No learned position table is open (Your model panel: File → Open a checkpoint that has one, "
    "such as GPT-2 or BERT): the formula's vectors are shown.";

/// row a · row b of a table (rows in range).
double RowsDot(const ModelTable& table, int row_a, int row_b);

/// The sentence for two rows of a checkpoint's table: their cosine against the sinusoidal table's
/// at the same positions, and whether the table's cosine at their offset depends on the start.
/// Claims: cosine, twin_cosine, offset; with the offset measured: spread_least, spread_greatest,
/// starts, depends_on_start (1 when greatest − least ≥ 0.01).
Explanation RowsSentence(const ModelTable& table, int row_a, int row_b,
                         const PositionComparison& rows, double twin_cosine);

} // namespace pelab
