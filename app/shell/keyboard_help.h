// keyboard_help.h — F1 or ?: every key PE Lab answers to, in one window (as PhET's keyboard help
// dialog does), and the confirmation Reset all asks for in front of a room.
#pragma once

#include <vector>

namespace pelab {

struct App;

/// The keyboard help lists ShortcutTable() (widgets/shortcuts.h) by section, then these: what
/// the mouse does in a plot or over a number.
struct MouseRow {
    const char* gesture;
    const char* action;
};
const std::vector<MouseRow>& MouseRows();

/// The keyboard help window, while *open; Esc, F1 or ? close it (see HandleShortcuts).
void DrawKeyboardHelp(App& app);

/// Back to the default scene (every panel's settings, the shared numbers, the layout) and the end
/// of any lesson. Theme and text size are the user's, and stay.
void ResetAll(App& app);
/// Ctrl+R, View → Reset all: at once normally; in a lesson or while a panel is presented the
/// confirmation window asks first (a slip of the hand must not undo a lecture).
void RequestReset(App& app);
/// The confirmation window, while it is asked for.
void DrawResetConfirmation(App& app);
/// Asks whether teach-back text brought by a scene replaces the student's (App::
/// GuardStudentWork); Esc or "Keep mine" keeps it.
void DrawTeachBackQuestion(App& app);

} // namespace pelab
