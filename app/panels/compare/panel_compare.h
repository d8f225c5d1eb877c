// panel_compare.h — the two-position comparison: PE(A) and PE(B) side by side, dimension
// by dimension, with the dot product, the similarity, and why the two positions differ.
#pragma once

#include "panels/explanation.h"

#include "panels/panel.h"
#include "pelab/similarity.h"
#include "widgets/plot.h"

#include <string>
#include <vector>

namespace pelab {

/// The offset plot's x span for |B − A| = offset: 64, or the first of 1, 2, 5 × 10ⁿ that is at
/// least twice the offset (so both markers sit in its first half or at its middle).
double OffsetPlotSpan(double offset);

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
    // Per-frame data (kept to reuse the allocations).
    std::vector<double> pe_a, pe_b, contributions, omegas;
    std::vector<int> visible_dims;
    PositionComparison comparison;
    // The dot product against the offset k (cached: recomputed when its inputs change).
    plot::PlotView offset_view;
    std::vector<double> curve_k, curve_dot;
    plot::Range curve_y{-0.6, 1.1}; ///< the offset plot's y range: the curve's, with a margin
    double curve_span = -1, curve_base = 0;
    int curve_d_model = 0;
    std::string explanation;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    std::vector<std::string> WidgetNames() const override;

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
