// panel_precision.h — float32 precision: the largest error of PE(pos) against position
// (log axes, 1 … 10⁶) at the shared d_model and base, for the widely copied float32 code, for
// float32 angles with double sin/cos, and for pelab_core; what the error means for a model (how
// far, in positions, the float32 angles put each position), at 2048, 10⁵, 10⁶ and at a position
// the user picks by clicking the plot.
#pragma once

#include "panels/explanation.h"

#include "panels/panel.h"
#include "pelab/encodings/precision.h"
#include "widgets/cached.h"
#include "widgets/plot.h"

#include <array>
#include <string>
#include <vector>

namespace pelab {

struct PrecisionPanel : Panel {
    // Own settings (scene fields).
    double inspect_position = 30000; ///< the position the table's last row shows (click the plot)
    // View state.
    plot::PlotView view;
    std::string d_model_note;
    std::string inspect_note; ///< why a typed position was refused
    /// What the panel shows, computed once per change of what it reads; the plot and the table
    /// draw these results and Readouts reports the same ones.
    struct CurvesInputs {
        int d_model = 0;
        double base = 0;
        bool operator==(const CurvesInputs& o) const {
            return d_model == o.d_model && base == o.base;
        }
    };
    struct Curves {
        std::vector<double> positions;
        std::array<std::vector<double>, 3> errors; ///< by PeRecipe (kRecipes order)
    };
    struct TableInputs {
        int d_model = 0;
        double base = 0, inspect = 0;
        bool operator==(const TableInputs& o) const {
            return d_model == o.d_model && base == o.base && inspect == o.inspect;
        }
    };
    /// One row of the table: rows 2048, 1e5, 1e6 and the picked position.
    struct TableRow {
        double position = 0;
        double errors[3] = {};      ///< by PeRecipe (kRecipes order)
        double shift = 0;           ///< float32_position_shift
        int shift_pair = 0;         ///< … and the pair where it is largest
        AngleStorageError bfloat16; ///< the exact angles stored in bfloat16
    };
    struct Table {
        TableRow rows[4];
        /// The sentences under the table, computed with it (each walks every pair).
        Explanation reduced, bfloat16_angles;
    };
    static Curves ComputeCurves(const CurvesInputs& inputs);
    static Table ComputeTable(const TableInputs& inputs);
    const Curves& CurvesFor(const AppState& state) const;
    const Table& TableFor(const AppState& state) const;
    mutable Cached<CurvesInputs, Curves> curves_cache;
    mutable Cached<TableInputs, Table> table_cache;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();

private:
    void DrawControls(FrameContext& frame);
    void DrawPlot(FrameContext& frame, float height, const Curves& curves);
    void DrawTable(FrameContext& frame, const Table& table);
};

/// What the float32 code's error means at this position (its largest value error, and its
/// angle error in positions: float32_position_shift), in sentences computed from the two
/// numbers (exposed for tests).
Explanation PrecisionMeaning(double position, double value_error, double shift, int pair);

/// Angles stored in bfloat16, float16 and float32: from which position neighbours get the same
/// angle in the fastest and the slowest pair at (d_model, base), where the pairs' first collisions
/// lie, and where any pair's must, with its claims (bfloat16_fastest, bfloat16_slowest,
/// float16_fastest, float16_slowest, float32_fastest, float32_slowest: −1 when none below 10⁶;
/// bfloat16_least, bfloat16_largest, float16_least, float16_largest over the pairs, −1 when
/// none; bfloat16_bound_low, bfloat16_bound_high, float16_bound_low, float16_bound_high).
Explanation ReducedPrecisionSentence(int d_model, double base);
/// The exact angles stored in bfloat16 at the picked position and at 10⁶ (rows 3 and 2 of the
/// table): the fastest pair's error in radians, the largest error as positions and its pair.
/// Claims: picked, picked_fastest_radians, picked_positions, picked_positions_pair,
/// far_positions, far_positions_pair (at 10⁶).
Explanation Bfloat16AngleSentence(const PrecisionPanel::TableRow& picked,
                                  const PrecisionPanel::TableRow& far);

struct MeasuredFloat32Errors;
/// The framework float32 errors measured at (d_model, base), or nullptr where none were.
const MeasuredFloat32Errors* MeasuredErrors(int d_model, double base);
/// The range of framework float32 code's error at 2 048, 10⁵ and 10⁶, both ends named.
std::string FrameworkRangeSentence(int d_model, double base);

} // namespace pelab
