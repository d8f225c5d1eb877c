// panel_clocks.h — one clock face per (sin, cos) pair: the hand turns by ω_i per
// position, so pair 0 is a second hand and the last pair an hour hand.
#pragma once

#include "panels/panel.h"
#include "widgets/cached.h"

#include <vector>

namespace pelab {

struct ClocksPanel : Panel {
    // View state.
    float clock_scale = 1.0f; ///< size of the grid's faces relative to the default
    bool show_b = true;
    bool show_shift = true;

    /// Every hand the panel draws, computed once per change of d_model, base, the positions or
    /// k: the faces, their tooltips and Readouts all show this one result.
    struct Inputs {
        int d_model = 0, shift_k = 0;
        double base = 0, pos_a = 0, pos_b = 0;
        bool operator==(const Inputs& o) const {
            return d_model == o.d_model && shift_k == o.shift_k && base == o.base &&
                   pos_a == o.pos_a && pos_b == o.pos_b;
        }
    };
    struct Hand {
        double omega = 0, wavelength = 0;
        double angle_a = 0, angle_b = 0; ///< ω·pos A, ω·pos B (radians, not reduced)
        double shift_arc = 0;            ///< ω·k: the turn a shift by k adds
    };
    /// A face of the summary row: the fastest, middle and slowest pairs, each pair once (at
    /// d_model 4 the middle pair is the slowest, at d_model 2 the only pair is both).
    struct SummaryFace {
        const char* name;
        int pair;
    };
    struct Result {
        std::vector<Hand> hands; ///< hands[i]: pair i
        std::vector<SummaryFace> summary;
    };
    static Result Compute(const Inputs& inputs);
    const Result& ResultFor(const AppState& state) const;
    mutable Cached<Inputs, Result> result_cache;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();

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
