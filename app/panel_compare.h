// panel_compare.h — W2, the two-position comparison: PE(A) and PE(B) side by side, dimension
// by dimension, with the dot product, the similarity, and why the two positions differ.
#pragma once

#include "app_state.h"
#include "pelab/similarity.h"

#include <string>
#include <vector>

namespace pelab {

struct ComparePanel {
    enum class DimensionFilter { All, SinOnly, CosOnly, Range, EveryKth };
    // View state.
    DimensionFilter filter = DimensionFilter::All;
    int range_first = 0, range_last = 63;
    int every_k = 8;
    std::string input_note; ///< why a typed position was changed
    // Per-frame data (kept to reuse the allocations).
    std::vector<double> pe_a, pe_b, contributions, omegas;
    std::vector<int> visible_dims;
    PositionComparison comparison;
    std::string explanation;

    void Draw(const char* title, bool* p_open, AppState& state);

private:
    void DrawPositionInputs(AppState& state);
    void DrawReadouts(const AppState& state);
    void DrawExplanation(const AppState& state);
    void DrawShift(AppState& state);
    void DrawTable(const AppState& state);
};

/// The sentence under the table: which pairs tell pos_a and pos_b apart, and why. Exposed for
/// the tests: it must change with the case (near / far / equal).
std::string ExplainDifference(double pos_a, double pos_b, int d_model, double base);

} // namespace pelab
