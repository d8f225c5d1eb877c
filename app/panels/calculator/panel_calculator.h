// panel_calculator.h — the position-vector calculator (as in the published course): PE(pos) worked
// out step by step, one row per dimension (dim, i, 2i/d, base^(2i/d), angle, angle mod 2π, sin or
// cos, value), for pos = pos A and a second position pos A + offset side by side with |Δ|. Any
// range of dimensions, virtualised so d_model 4096 scrolls smoothly; copy or save the rows as CSV.
#pragma once

#include "panels/explanation.h"

#include "panels/panel.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/cached.h"
#include "widgets/plot.h"
#include "widgets/widgets.h"

#include <string>
#include <vector>

namespace pelab {

class FlowRow;

struct CalculatorPanel : Panel {
    // Own settings (scene fields).
    double second_offset = 1.0; ///< the second column is PE(pos A + second_offset)
    int dim_from = 0;           ///< first dimension shown
    int dim_to = 7;             ///< last dimension shown (clamped to d_model − 1 when drawn)
    // View state.
    /// The last Copy as CSV: its rows and the clipboard's number for it (0: none yet); the
    /// note says "copied" only once the clipboard says the copy happened.
    int copied_rows = 0;
    long copy_ticket = 0;
    std::string input_note; ///< why a typed position was refused
    bool show_chart = false;
    plot::PlotView chart_view;
    /// What the panel shows, computed once per change of what it reads; the table, the CSV and
    /// the readouts all come from this result. first ≤ last: the shown dims.
    struct Inputs {
        double pos = 0, other = 0, base = 0;
        int d_model = 0, first = 0, last = 0;
        bool operator==(const Inputs& o) const {
            return pos == o.pos && other == o.other && base == o.base && d_model == o.d_model &&
                   first == o.first && last == o.last;
        }
    };
    struct Result {
        int first = 0;                          ///< the first shown dim
        std::vector<PeStep> steps, steps_other; ///< one per shown dim, first … last
        std::string summary;
    };
    static Result Compute(const Inputs& inputs);
    Inputs InputsFor(const AppState& state) const;
    const Result& ResultFor(const AppState& state) const;
    mutable Cached<Inputs, Result> result_cache;
    /// The chart of |Δ| over the whole vector (every dim, not only the shown ones).
    struct Chart {
        std::vector<double> dims, delta;
        double top = 1; ///< the y axis' home top: the largest |Δ| and a margin
    };
    static Chart ComputeChart(const Inputs& inputs);
    Cached<Inputs, Chart> chart_cache; ///< keyed with first = last = 0 (it reads neither)
    long chart_fitted = -1;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();

    /// The second position, kept inside [0, kUiMaxPosition].
    double SecondPosition(const AppState& state) const;
    /// The shown dimensions [first, last] for the current d_model.
    void Range(const AppState& state, int* first, int* last) const;
    /// The shown rows as CSV (header + one line per dimension, 17 significant digits).
    std::string Csv(const AppState& state) const;
    std::string TableCsv(const AppState& state) const override { return Csv(state); }
    bool HasTable() const override { return true; }
    /// What became of the last Copy as CSV, in a few words ("" before the first).
    std::string CopyNote(const FrameContext& frame) const;

private:
    void DrawControls(FrameContext& frame);
    /// pos A: a slider over the first positions and a typed entry.
    void DrawPositionControls(FrameContext& frame, FlowRow& row);
    /// The second column's offset from pos A.
    void DrawOffsetControl(FrameContext& frame, FlowRow& row);
    /// The dimensions shown: from, to, and the first 8 / last 8 / all buttons.
    void DrawDimensionRange(FrameContext& frame, FlowRow& row);
    /// Copy as CSV and Save CSV…, with what was copied.
    void DrawCopyButtons(FrameContext& frame, FlowRow& row);
    void DrawSummary(FrameContext& frame, const Result& result);
    void DrawTable(FrameContext& frame, const Result& result);
    void DrawChart(FrameContext& frame);
};

/// The summary of the shown rows: where neighbours (or any two positions) differ most and
/// least, and which pairs came round (aliasing), worded from the numbers, with its claims.
Explanation CalculatorSummary(double pos, double other, int first, int last, int d_model,
                              double base);

} // namespace pelab
