// main_menu.h — the window's menu bar (File, View, Help), the About window and the status bar.
#pragma once

#include "shell/app.h"

#include <functional>
#include <string>
#include <vector>

namespace pelab {

/// The main menu bar: File (shell/file_menu.h), View (panels, arrangement, theme, text size,
/// beginner or advanced, reset) and Help (keyboard help, glossary, About).
void DrawMainMenu(App& app);

/// The About window, while view.show_about.
void DrawAbout(ViewSettings& view);

/// The status bar at the bottom: the shared numbers, and a note (the lesson's, a message's).
void DrawStatusBar(const AppState& state, const std::string& note);

/// What the status bar says in `width` pixels, `text_width` measuring a string: the note first
/// (it is news) when note and numbers do not fit together, then as many whole fields of the
/// numbers as fit; a note too long for the bar ends in "…" at a character boundary. Never a
/// field cut through its middle ("d_r").
std::string StatusBarText(const std::vector<std::string>& number_fields, const std::string& note,
                          float width, const std::function<float(const std::string&)>& text_width);

extern const char* const kVersion;
extern const char* const kAboutText;

} // namespace pelab
