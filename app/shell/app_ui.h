// app_ui.h — the application frame: main menu, About window, status bar, keyboard shortcuts,
// the animation clock, the layout, and every open panel through the registry. Knows ImGui and
// the core only, so the headless frame tests draw exactly what the window draws.
#pragma once

#include "shell/app.h"
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

/// Keyboard shortcuts: Ctrl+Q quit, Ctrl+= / Ctrl+- text size, F11 fullscreen; and when no
/// text field is being edited: Left/Right move pos A (Shift: by 10), Up/Down change the pair,
/// Space play/pause, Esc back from presenting one panel.
void HandleShortcuts(App& app, const std::vector<KeyPress>& presses);

/// Esc: closes the topmost of an open menu or popup, the keyboard help, the glossary, About,
/// then leaves the slides, then the presented panel. False when there was nothing to close.
bool EscapeClosesSomething(App& app);

/// Where the k-th of n tiled panels goes, between the menu bar and the status bar: a grid of
/// ⌈√n⌉ columns; a last row with fewer panels stretches them to the full width.
struct Tile {
    ImVec2 pos, size;
};
Tile TileFor(int index, int count, ImVec2 area_pos, ImVec2 area_size, float gap);

/// Whether a window at pos, width wide, keeps a grip of its title bar on a display of that size
/// (below the menu bar, above the status bar).
bool TitleBarReachable(ImVec2 pos, float width, ImVec2 display, float bar);

extern const char* const kVersion;
extern const char* const kAboutText;

} // namespace pelab
