#include "widgets/app_state.h"

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
    if (!std::isfinite(play_speed)) play_speed = 2.0;
    play_speed = std::clamp(play_speed, kUiMinPlaySpeed, kUiMaxPlaySpeed);
    shift_k = std::clamp(shift_k, -kUiMaxShift, kUiMaxShift);
}

} // namespace pelab
