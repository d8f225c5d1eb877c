#include "widgets/shortcuts.h"

#include <algorithm>

namespace pelab {

namespace {

using M = Modifier;

Chord Ctrl(int key) {
    return Chord{key, M::Down, M::Any};
}
Chord Key(int key) {
    return Chord{key, M::Up, M::Any};
}
Chord Plain(int key) {
    return Chord{key, M::Up, M::Up};
}
Chord Shifted(int key) {
    return Chord{key, M::Up, M::Down};
}
// Function keys answer with or without modifiers.
Chord Function(int key) {
    return Chord{key, M::Any, M::Any};
}

std::vector<Chord> Digits() {
    std::vector<Chord> chords;
    for (int key = keys::kDigit1; key <= keys::kDigit9; ++key)
        chords.push_back(Key(key));
    for (int key = keys::kKeypad1; key <= keys::kKeypad9; ++key)
        chords.push_back(Key(key));
    return chords;
}

bool Matches(const Chord& chord, const KeyPress& press) {
    const auto fits = [](Modifier modifier, bool down) {
        return modifier == M::Any || (modifier == M::Down) == down;
    };
    return chord.key == press.key && fits(chord.ctrl, press.ctrl) && fits(chord.shift, press.shift);
}

std::string KeyName(int key) {
    switch (key) {
    case keys::kSpace:
        return "Space";
    case keys::kMinus:
        return "-";
    case keys::kSlash:
        return "/";
    case keys::kEqual:
        return "=";
    case keys::kPageUp:
        return "PageUp";
    case keys::kPageDown:
        return "PageDown";
    case keys::kHome:
        return "Home";
    case keys::kEscape:
        return "Esc";
    case keys::kEnter:
    case keys::kKeypadEnter:
        return "Enter";
    case keys::kRight:
        return "→";
    case keys::kLeft:
        return "←";
    case keys::kDown:
        return "↓";
    case keys::kUp:
        return "↑";
    case keys::kKeypadAdd:
        return "+";
    case keys::kKeypadSubtract:
        return "-";
    default:
        break;
    }
    if (key >= keys::kF1 && key <= keys::kF1 + 24) return "F" + std::to_string(key - keys::kF1 + 1);
    if (key >= keys::kDigit1 && key <= keys::kDigit9) return std::string(1, static_cast<char>(key));
    if (key >= keys::kKeypad1 && key <= keys::kKeypad9)
        return std::string(1, static_cast<char>('1' + key - keys::kKeypad1));
    if (key >= 'A' && key <= 'Z') return std::string(1, static_cast<char>(key));
    return "key " + std::to_string(key);
}

} // namespace

const std::vector<ShortcutRow>& ShortcutTable() {
    using C = Command;
    using S = ShortcutSection;
    static const std::vector<ShortcutRow> table = {
        {S::Everywhere,
         {C::KeyboardHelp},
         {{Function(keys::kF1), Shifted(keys::kSlash)}},
         "this list of keys (Esc, F1 or ? closes it)"},
        {S::Everywhere,
         {C::Open},
         {{Ctrl(keys::kO)}},
         "open a scene, a PNG figure or a lesson (or drop the file on the window)"},
        {S::Everywhere, {C::SaveScene}, {{Ctrl(keys::kS)}}, "save the scene as…"},
        {S::Everywhere,
         {C::Reset},
         {{Ctrl(keys::kR)}},
         "reset all: every panel back to its defaults (asks first in a lesson or while a panel "
         "is presented)"},
        {S::Everywhere,
         {C::TextLarger, C::TextSmaller},
         {{Ctrl(keys::kEqual), Ctrl(keys::kKeypadAdd)},
          {Ctrl(keys::kMinus), Ctrl(keys::kKeypadSubtract)}},
         "larger / smaller text"},
        {S::Everywhere, {C::Fullscreen}, {{Function(keys::kF11)}}, "fullscreen"},
        {S::Everywhere,
         {C::NextTheme},
         {{Ctrl(keys::kT)}},
         "the next theme: dark, light, high contrast (also during slides, which have no menus)"},
        {S::Everywhere, {C::Quit}, {{Ctrl(keys::kQ)}}, "quit"},
        {S::Everywhere,
         {C::Confirm},
         {{Function(keys::kEnter), Function(keys::kKeypadEnter)}},
         "yes to the question on screen (Reset all?); Esc: no"},
        {S::NotTyping,
         {C::PosBack, C::PosOn},
         {{Plain(keys::kLeft)}, {Plain(keys::kRight)}},
         "pos A one position back / on"},
        {S::NotTyping,
         {C::PosBackTen, C::PosOnTen},
         {{Shifted(keys::kLeft)}, {Shifted(keys::kRight)}},
         "pos A ten positions back / on"},
        {S::NotTyping,
         {C::PairNext, C::PairPrevious},
         {{Key(keys::kUp)}, {Key(keys::kDown)}},
         "the next / previous (sin, cos) pair"},
        {S::NotTyping, {C::Play}, {{Key(keys::kSpace)}}, "play / pause pos A"},
        {S::NotTyping,
         {C::HideControls},
         {{Key(keys::kH)}},
         "hide / show the controls, for a clean slide"},
        {S::NotTyping,
         {C::Back},
         {{Function(keys::kEscape)}},
         "back from a presented panel to all panels"},
        {S::Lesson,
         {C::ClickerNext, C::ClickerPrevious},
         {{Function(keys::kPageDown)}, {Function(keys::kPageUp)}},
         "next / previous step: what a presentation clicker sends; works even while a text "
         "field is being edited"},
        {S::Lesson,
         {C::StepNext, C::StepPrevious},
         {{Key(keys::kN)}, {Key(keys::kP)}},
         "next / previous step"},
        {S::Lesson, {C::StepFirst}, {{Key(keys::kHome)}}, "the first step"},
        {S::Lesson,
         {C::StepAgain},
         {{Key(keys::kR)}},
         "back to this step: undoes what was changed since"},
        {S::Lesson,
         {C::Blank},
         {{Key(keys::kB)}},
         "a black screen; any key brings the picture back"},
        {S::Lesson,
         {C::Notes},
         {{Key(keys::kS)}},
         "show / hide the step's speaker notes (over the top of the picture)"},
        {S::Lesson,
         {C::Slides},
         {{Function(keys::kF5)}},
         "slides (the lesson without menus and status bar) / the whole app"},
        {S::Lesson,
         {C::EndLesson},
         {{Ctrl(keys::kE)}},
         "end the lesson (also View → End lesson): the app as it was, the step's scene kept"},
        {S::Lesson,
         {C::HideControls},
         {{Key(keys::kH)}},
         "in slides: every control row / only those the step needs"},
        {S::Lesson,
         {C::Back},
         {{Function(keys::kEscape)}},
         "closes the topmost thing first (a window, then the speaker notes), then leaves the "
         "slides"},
        {S::Quiz,
         {C::QuizPredict},
         {Digits()},
         "predict that choice (the quiz has the focus: click in it)"},
        {S::Quiz,
         {C::QuizReveal},
         {{Key(keys::kEnter), Key(keys::kKeypadEnter)}},
         "reveal the answer; again: the next question (or card)"},
        {S::Quiz, {C::QuizFlip}, {{Key(keys::kSpace)}}, "flip the flashcard"},
    };
    return table;
}

const char* SectionHeading(ShortcutSection section) {
    switch (section) {
    case ShortcutSection::Everywhere:
        return "Everywhere";
    case ShortcutSection::NotTyping:
        return "When no text field is being edited";
    case ShortcutSection::Lesson:
        return "During a lesson";
    case ShortcutSection::Quiz:
        return "In the quiz";
    }
    return "";
}

bool Is(const KeyPress& press, Command command) {
    for (const ShortcutRow& row : ShortcutTable())
        for (std::size_t c = 0; c < row.commands.size(); ++c)
            if (row.commands[c] == command)
                for (const Chord& chord : row.chords[c])
                    if (Matches(chord, press)) return true;
    return false;
}

std::string ChordName(const Chord& chord) {
    if (chord.key == keys::kSlash && chord.shift == Modifier::Down) return "?"; // a US layout
    std::string name;
    if (chord.ctrl == Modifier::Down) name += "Ctrl+";
    if (chord.shift == Modifier::Down) name += "Shift+";
    return name + KeyName(chord.key);
}

std::string KeysFor(Command command) {
    for (const ShortcutRow& row : ShortcutTable())
        for (std::size_t c = 0; c < row.commands.size(); ++c)
            if (row.commands[c] == command && !row.chords[c].empty())
                return ChordName(row.chords[c].front());
    return {};
}

std::string KeysText(const ShortcutRow& row) {
    std::string text;
    for (std::size_t c = 0; c < row.commands.size(); ++c) {
        if (c > 0) text += " / ";
        if (row.commands[c] == Command::QuizPredict) {
            text += "1 … 9";
            continue;
        }
        std::vector<std::string> names;
        for (const Chord& chord : row.chords[c])
            if (const std::string name = ChordName(chord);
                std::find(names.begin(), names.end(), name) == names.end())
                names.push_back(name);
        // Ctrl+= also answers on the keypad's +; the sheet names the main keys only.
        if (names.size() == 2 && row.chords[c].back().key >= keys::kKeypad1) names.pop_back();
        for (std::size_t n = 0; n < names.size(); ++n)
            text += (n > 0 ? " or " : "") + names[n];
    }
    return text;
}

bool TypesACharacter(const KeyPress& press) {
    return !press.ctrl && press.key >= keys::kSpace && press.key < 127;
}

int PredictedChoice(const KeyPress& press) {
    if (!Is(press, Command::QuizPredict)) return -1;
    if (press.key >= keys::kDigit1 && press.key <= keys::kDigit9) return press.key - keys::kDigit1;
    return press.key - keys::kKeypad1;
}

} // namespace pelab
