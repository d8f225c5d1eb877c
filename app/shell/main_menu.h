// main_menu.h — the window's menu bar (File, View, Help), the About window and the status bar.
#pragma once

#include "shell/app.h"

#include <string>

namespace pelab {

/// The main menu bar: File (shell/file_menu.h), View (panels, arrangement, theme, text size,
/// beginner or advanced, reset) and Help (keyboard help, glossary, About).
void DrawMainMenu(App& app);

/// The About window, while view.show_about.
void DrawAbout(ViewSettings& view);

/// The status bar at the bottom: the shared numbers, and a note (the lesson's, a message's).
void DrawStatusBar(const AppState& state, const std::string& note);

extern const char* const kVersion;
extern const char* const kAboutText;

} // namespace pelab
