// panel_clocks.h — W3, one clock face per (sin, cos) pair: the hand turns by ω_i per
// position, so pair 0 is a second hand and the last pair an hour hand.
#pragma once

#include "app_state.h"

namespace pelab {

struct ClocksPanel {
    // View state.
    float clock_scale = 1.0f; ///< size of the grid's faces relative to the default
    bool show_b = true;
    bool show_shift = true;

    void Draw(const char* title, bool* p_open, AppState& state);

private:
    void DrawTransport(AppState& state);
    void DrawSummary(AppState& state);
    void DrawGrid(AppState& state);
    /// One clickable face for pair i with its label; returns true when clicked.
    bool DrawClock(AppState& state, int pair_index, float radius, const char* caption);
};

/// The screen direction of a hand at angle θ = ω_i·pos: (x, y) = (sin θ, cos θ), i.e. straight
/// up at θ = 0 and turning clockwise (screen y grows downwards, hence the minus sign).
struct HandTip {
    float dx, dy;
};
HandTip HandDirection(double angle);

} // namespace pelab
