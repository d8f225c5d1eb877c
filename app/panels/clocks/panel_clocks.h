// panel_clocks.h — one clock face per (sin, cos) pair: the hand turns by ω_i per
// position, so pair 0 is a second hand and the last pair an hour hand.
#pragma once

#include "panels/panel.h"

namespace pelab {

struct ClocksPanel : Panel {
    // View state.
    float clock_scale = 1.0f; ///< size of the grid's faces relative to the default
    bool show_b = true;
    bool show_shift = true;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    std::vector<std::string> WidgetNames() const override;

private:
    void DrawTransport(FrameContext& frame);
    void DrawSummary(FrameContext& frame);
    void
    DrawGrid(FrameContext& frame,
             const char* description); ///< description: a "(?)" beside its heading (nullptr: none)
    /// One clickable face for pair i with its label; returns true when clicked.
    bool DrawClock(FrameContext& frame, int pair_index, float radius, const char* caption);
};

/// The screen direction of a hand at angle θ = ω_i·pos: (x, y) = (sin θ, cos θ), i.e. straight
/// up at θ = 0 and turning clockwise (screen y grows downwards, hence the minus sign).
struct HandTip {
    float dx, dy;
};
HandTip HandDirection(double angle);

} // namespace pelab
