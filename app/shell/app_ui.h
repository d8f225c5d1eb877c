// app_ui.h — the application frame: the menu bar and status bar (main_menu.h), the keys
// (shortcut_dispatch.h), the animation clock, the tiled layout (tiling.h), and every open panel
// through the registry. Knows ImGui and
// the core only, so the headless frame tests draw exactly what the window draws.
#pragma once

#include "shell/app.h"
#include "shell/main_menu.h"
#include "shell/shortcut_dispatch.h"
#include "shell/tiling.h"
#include "widgets/input.h"

#include <string>
#include <vector>

namespace pelab {

/// How the frame is laid out: normally as the user arranged it; for `pelab screenshot --panel`
/// one panel fills the window with no menu.
struct FrameOptions {
    std::string solo_panel; ///< empty: normal layout
    /// A handout's picture of the lesson's step: the slide without its lesson bar (the caption
    /// and notes are printed beside it), the step's outlines kept.
    bool handout = false;
};

/// Longest time step the animation takes in one frame (see DrawFrame).
constexpr double kMaxAnimationStep = 0.25;

/// What reaches a frame from outside: the keys pressed and the files dropped since the last
/// frame, and the time since it (which drives the animation clock).
struct FrameInput {
    std::vector<KeyPress> keys;
    std::vector<std::string> dropped_paths;
    float delta_seconds = 0.0f;
};

/// The one frame every session draws — the window, the pictures, --bench-frames and the
/// headless tests: ImGui::NewFrame(), the keys, the dropped files, DrawFrame, ImGui::Render(),
/// then ActOnRequests. What is left in app.pending afterwards needs the platform (quit, the
/// PNG export) and is for the Runner to act on, in the same frame.
void RunFrame(App& app, const FrameOptions& options, const FrameInput& input);

/// Draws the windows of one frame between ImGui::NewFrame() and ImGui::Render().
/// delta_seconds drives the animation clock (so speed does not depend on the frame rate),
/// capped at kMaxAnimationStep so that a frame after a rest does not jump. Requests made while
/// drawing are left in app.pending; RunFrame acts on them when the frame is drawn.
void DrawFrame(App& app, const FrameOptions& options, float delta_seconds);

/// Acts on the requests the frame made that need no platform: a CSV export's file dialog,
/// scene fields to apply (a quiz answer's panel), the widgets to outline. The one place they
/// are consumed, at the end of the frame that made them.
void ActOnRequests(App& app);

} // namespace pelab
