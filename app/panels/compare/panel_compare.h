// panel_compare.h — the two-position comparison: PE(A) and PE(B) side by side, dimension
// by dimension, with the dot product, the similarity, and why the two positions differ.
#pragma once

#include "panels/explanation.h"

#include "panels/panel.h"
#include "pelab/similarity.h"
#include "widgets/cached.h"
#include "widgets/plot.h"

#include <string>
#include <vector>

namespace pelab {

/// The offset plot's x span for |B − A| = offset: 64, or the first of 1, 2, 5 × 10ⁿ that is at
/// least twice the offset (so both markers sit in its first half or at its middle).
double OffsetPlotSpan(double offset);
/// The distance readout's words: "1 position" (exactly one), else "0 positions", "2.5 positions".
std::string DistanceText(double distance);

struct ComparePanel : Panel {
    enum class DimensionFilter { All, SinOnly, CosOnly, Range, EveryKth };
    // View state.
    DimensionFilter filter = DimensionFilter::All;
    /// Whether the filter shows dimension dim of d (range bounds clamped as drawn).
    bool Shows(int dim, int d) const;
    /// The shown rows: dim, function, ω, PE_A, PE_B, |Δ|, the pair's share of the dot product.
    std::string TableCsv(const AppState& state) const override;
    bool HasTable() const override { return true; }
    int range_first = 0, range_last = 63;
    int every_k = 8;
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
    /// The "show dimensions" filter row (hidden with the controls; the filter still applies).
    void DrawFilterControls(FrameContext& frame, int d);
    /// The table's height in a short window: its header and first three rows.
    static float ShortTableHeight();
    /// Whether the table's filter row is drawn above it this frame.
    bool FilterUnderTable(const FrameContext& frame) const;
};

/// The sentence under the table: which pairs tell pos_a and pos_b apart, which came round to
/// nearly the same angle (pelab/pair_turns.h), and why; with its claims (explanation.h).
Explanation ExplainDifference(double pos_a, double pos_b, int d_model, double base);

} // namespace pelab
