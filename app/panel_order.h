// panel_order.h — W4, the PE on/off order demo: "dog bites man" vs "man bites dog". Without a
// positional encoding, B's attention scores are A's scores re-ordered; with one, they differ.
#pragma once

#include "app_state.h"

#include <string>
#include <vector>

namespace pelab {

struct OrderDemoResult;

struct OrderPanel {
    // View state.
    int x_dims_shown = 8; ///< columns of the X rows shown (of order_d_model)
    std::vector<std::string> labels_a, labels_b, dim_labels;

    void Draw(const char* title, bool* p_open, AppState& state);

private:
    void DrawInputs(AppState& state);
    void DrawVerdict(const AppState& state, const OrderDemoResult& result);
    void DrawMatrices(const AppState& state, const OrderDemoResult& result);
};

/// The verdict sentence for a result (exposed for tests).
std::string OrderVerdictText(const OrderDemoResult& result, bool pe_enabled);

} // namespace pelab
