// shortcuts.h — the one table of PE Lab's keys: which chord means which command, in which part
// of the app, and how the keyboard help (F1) words it. HandleShortcuts asks Is(press, command),
// the quiz panel the same for its keys, the menus write KeysFor(command) beside their items, the
// F1 sheet and docs/teaching.md list ShortcutTable(), and a test presses every chord of the
// table and checks its effect. A key is changed here and nowhere else.
#pragma once

#include "widgets/input.h"

#include <string>
#include <vector>

namespace pelab {

enum class Command {
    KeyboardHelp,
    Open,
    SaveScene,
    Reset,
    TextLarger,
    TextSmaller,
    Fullscreen,
    NextTheme,
    Quit,
    Confirm,
    PosBack,
    PosOn,
    PosBackTen,
    PosOnTen,
    PairNext,
    PairPrevious,
    Play,
    HideControls,
    Back,
    ClickerNext,
    ClickerPrevious,
    StepNext,
    StepPrevious,
    StepFirst,
    StepAgain,
    Blank,
    Notes,
    Slides,
    EndLesson,
    QuizPredict,
    QuizReveal,
    QuizFlip,
};

/// Whether a modifier must be down, must be up, or does not matter.
enum class Modifier { Any, Down, Up };

/// One key with its modifiers.
struct Chord {
    int key = 0;
    Modifier ctrl = Modifier::Up;
    Modifier shift = Modifier::Any;
};

/// When a row applies: the heading the keyboard help gives it.
enum class ShortcutSection { Everywhere, NotTyping, Lesson, Quiz };

/// One row of the keyboard help: one or more commands (a pair such as back / on) with their
/// chords, and what they do. The keys column is written from the chords (KeysText).
struct ShortcutRow {
    ShortcutSection section;
    std::vector<Command> commands;
    std::vector<std::vector<Chord>> chords; ///< chords[c]: the chords of commands[c]
    const char* action;
};

/// Every row, in the order the keyboard help lists them.
const std::vector<ShortcutRow>& ShortcutTable();
/// The heading of a section ("When no text field is being edited").
const char* SectionHeading(ShortcutSection section);

/// Whether the press is one of the command's chords.
bool Is(const KeyPress& press, Command command);
/// A chord as people write it: "Ctrl+O", "F11", "Shift+→", "?" (Shift+/).
std::string ChordName(const Chord& chord);
/// The first chord of the command, for a menu item ("Ctrl+O"); "" when it has none.
std::string KeysFor(Command command);
/// A row's keys column: each command's chords joined by " or ", the commands by " / ", a run
/// of digits as "1 … 9".
std::string KeysText(const ShortcutRow& row);
/// Whether the press types a character into a text field (a printable key without Ctrl): such a
/// chord ("?", H, Space) is the text's while a field is being edited.
bool TypesACharacter(const KeyPress& press);
/// The digit 0 … 8 a QuizPredict press stands for (1 … 9 on the main keys or the keypad), or −1.
int PredictedChoice(const KeyPress& press);

} // namespace pelab
