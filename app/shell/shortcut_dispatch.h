// shortcut_dispatch.h — which part of the app a key press goes to: the one table of chords is
// widgets/shortcuts.h; here is the order in which the file dialog, the reset question, the
// lesson, the focused panel and the app are offered a key, the first taker keeping it.
#pragma once

#include "shell/app.h"
#include "widgets/input.h"

#include <vector>

namespace pelab {

/// One Ctrl+= makes text 15 % larger (Ctrl+- undoes it); the View menu's items take the same
/// step.
constexpr float kTextStep = 1.15f;

/// Keyboard shortcuts: Ctrl+Q quit, Ctrl+= / Ctrl+- text size, F11 fullscreen; and when no
/// text field is being edited: Left/Right move pos A (Shift: by 10), Up/Down change the pair,
/// Space play/pause, Esc back from presenting one panel.
void HandleShortcuts(App& app, const std::vector<KeyPress>& presses);

/// Esc: closes the topmost of an open menu or popup, the keyboard help, the glossary, About,
/// then leaves the slides, then the presented panel. False when there was nothing to close.
bool EscapeClosesSomething(App& app);

} // namespace pelab
