// keyboard_help.h — F1 or ?: every key PE Lab answers to, in one window (as PhET's keyboard help
// dialog does), and the confirmation Reset all asks for in front of a room.
#pragma once

#include <cstddef>

namespace pelab {

struct App;

/// One row of the keyboard help: the keys and what they do.
struct ShortcutRow {
    const char* keys;
    const char* action;
};
/// A group of rows with a heading saying when they apply.
struct ShortcutGroup {
    const char* heading;
    const ShortcutRow* rows;
    std::size_t count;
};
/// Every group the help lists, in order (the README's key table says the same).
const ShortcutGroup* ShortcutGroups(std::size_t* count);

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
