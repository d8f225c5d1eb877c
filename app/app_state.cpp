#include "app_state.h"

#include <algorithm>
#include <cmath>

namespace pelab {

void AppState::Clamp() {
    if (d_model % 2 != 0) d_model += 1;
    d_model = std::clamp(d_model, 2, kUiMaxDModel);
    if (!std::isfinite(base)) base = 10000.0;
    base = std::clamp(base, kUiMinBase, kUiMaxBase);
    pair = std::clamp(pair, 0, d_model / 2 - 1);
    if (!std::isfinite(pos_a)) pos_a = 0;
    if (!std::isfinite(pos_b)) pos_b = 0;
    pos_a = std::clamp(pos_a, 0.0, kUiMaxPosition);
    pos_b = std::clamp(pos_b, 0.0, kUiMaxPosition);
    if (!std::isfinite(pe_scale)) pe_scale = 1.0;
    pe_scale = std::clamp(pe_scale, 0.0, 100.0);
    play_speed = std::clamp(play_speed, 0.1, 1000.0);
    font_scale = std::clamp(font_scale, 0.5f, 4.0f);
    shift_k = std::clamp(shift_k, -kUiMaxShift, kUiMaxShift);
    if (order_d_model % 2 != 0) order_d_model += 1;
    order_d_model = std::clamp(order_d_model, 2, kUiMaxOrderDModel);
    embedding_seed = std::max(embedding_seed, 0);
}

void AppState::ScaleText(float factor) {
    font_scale = std::clamp(font_scale * factor, 0.5f, 4.0f);
}

} // namespace pelab
