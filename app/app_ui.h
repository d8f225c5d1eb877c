// app_ui.h — the application frame: main menu, About window, status bar, keyboard shortcuts,
// the animation clock, and the panels. Knows ImGui and the core only, so the headless frame
// tests draw exactly what the window draws.
#pragma once

#include "app_state.h"
#include "input.h"
#include "panel_clocks.h"
#include "panel_compare.h"
#include "panel_order.h"
#include "panel_waves.h"

#include <string>
#include <vector>

namespace pelab {

/// Every panel's view state, owned by main() next to AppState.
struct Panels {
    WavesPanel waves;
    ComparePanel compare;
    ClocksPanel clocks;
    OrderPanel order;
    ImVec2 last_display_size{0, 0}; ///< to re-tile the panels when the window changes size
};

/// Names accepted by `--panel` and shown in the View menu.
constexpr const char* kPanelNames[] = {"waves", "compare", "clocks", "order"};
bool IsKnownPanel(const std::string& name);
/// Comma-separated list of panel names, for error messages.
std::string PanelNameList();

/// How the frame is laid out: normally as the user arranged it; for `pelab screenshot --panel`
/// one panel fills the window.
struct FrameOptions {
    std::string solo_panel; ///< empty: normal layout
};

/// Draws one whole frame between ImGui::NewFrame() and ImGui::Render(). delta_seconds drives
/// the animation clock (so speed does not depend on the frame rate).
void DrawFrame(AppState& state, Panels& panels, const FrameOptions& options, float delta_seconds);

/// Keyboard shortcuts: Ctrl+Q quit, Ctrl+= / Ctrl+- text size, F11 fullscreen; and when no
/// text field is being edited: Left/Right move pos A (Shift: by 10), Up/Down change the pair,
/// Space play/pause, Esc back from presenting one panel.
void HandleShortcuts(AppState& state, const std::vector<KeyPress>& presses);

extern const char* const kVersion;
extern const char* const kAboutText;

} // namespace pelab
