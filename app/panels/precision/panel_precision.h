// panel_precision.h — float32 precision: the largest error of PE(pos) against position
// (log axes, 1 … 10⁶) at the shared d_model and base, for the widely copied float32 code, for
// float32 angles with double sin/cos, and for pelab_core; what the error means for a model (how
// far, in positions, the float32 angles put each position), at 2048, 10⁵, 10⁶ and at a position
// the user picks by clicking the plot.
#pragma once

#include "panels/explanation.h"

#include "panels/panel.h"
#include "widgets/plot.h"

#include <string>
#include <vector>

namespace pelab {

struct PrecisionPanel : Panel {
    // Own settings (scene fields).
    double inspect_position = 30000; ///< the position the table's last row shows (click the plot)
    // View state.
    plot::PlotView view;
    std::string d_model_note;
    /// The curves, cached for (d_model, base).
    std::vector<double> positions;
    std::vector<double> errors[3]; ///< by PeRecipe
    int cached_d_model = 0;
    double cached_base = 0;
    /// The table's errors (rows 2048, 1e5, 1e6, the picked position; columns by PeRecipe),
    /// cached with the curves and the picked position.
    double table_errors[4][3] = {};
    double table_shift[4] = {};   ///< float32_position_shift of each row
    int table_shift_pair[4] = {}; ///< … and the pair where it is largest
    double cached_inspect = -1;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    std::vector<std::string> WidgetNames() const override;

    void UpdateCurves(const AppState& state);
    void UpdateTable(const AppState& state);

private:
    void DrawControls(FrameContext& frame);
    void DrawPlot(FrameContext& frame, float height);
    void DrawTable(FrameContext& frame);
};

/// What the float32 code's error means at this position (its largest value error, and its
/// angle error in positions: float32_position_shift), in sentences computed from the two
/// numbers (exposed for tests).
Explanation PrecisionMeaning(double position, double value_error, double shift, int pair);

struct MeasuredFloat32Errors;
/// The framework float32 errors measured at (d_model, base), or nullptr where none were.
const MeasuredFloat32Errors* MeasuredErrors(int d_model, double base);
/// The range of framework float32 code's error at 2 048, 10⁵ and 10⁶, both ends named.
std::string FrameworkRangeSentence(int d_model, double base);

} // namespace pelab
