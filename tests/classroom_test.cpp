// The classroom conventions, headless: F1 and ? open the keyboard help, which lists every key the
// shortcut handler answers to; Ctrl+R resets every field to a freshly built app's value (the
// theme and text size excepted), at once normally and only after Enter in a lesson or while a
// panel is presented, where Esc keeps everything.
#include "headless_fixture.h"
#include "io/lesson.h"
#include "io/png_scene.h"
#include "panels/quiz/panel_quiz.h"
#include "shell/keyboard_help.h"
#include "shell/lesson_player.h"
#include "temp_folder.h"
#include "test_paths.h"
#include "tiny_png.h"
#include "widgets/shortcuts.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace pelab;
using pelab::test::TinyPng;

namespace {

class Classroom : public HeadlessApp {
protected:
    Classroom() : HeadlessApp(ImVec2(1600, 1000), /*record=*/true) {}
    // Changes a shared number, a panel's own setting and the view, as a student would.
    void Disturb() {
        ASSERT_EQ(app.scene.Apply(R"({"pos_a": 77, "pair": 9, "d_model": 64, "base": 500,
                                      "pe_enabled": false, "theme": "light",
                                      "font_scale": 1.5, "open_panels": ["waves"]})"),
                  "");
    }
    // Every field as a freshly built app has it, except the user's theme and text size.
    void ExpectDefaults() {
        App fresh;
        nlohmann::json expected = fresh.scene.Document(), now = app.scene.Document();
        for (const char* kept : {"theme", "font_scale"}) {
            expected.erase(kept);
            now.erase(kept);
        }
        EXPECT_EQ(now, expected);
        EXPECT_EQ(state.pos_a, 3.0); // the published comparison's pos A, stated independently
        EXPECT_EQ(state.d_model, 512);
    }
};

} // namespace

TEST_F(Classroom, F1AndQuestionMarkOpenTheKeyboardHelp) {
    Frame();
    EXPECT_FALSE(app.view.show_keys);
    Press(keys::kF1);
    Frame();
    EXPECT_TRUE(app.view.show_keys);
    EXPECT_TRUE(app.recorder.rects.count("help.keys"));
    Press(keys::kEscape);
    EXPECT_FALSE(app.view.show_keys);
    Press(keys::kSlash, /*shift=*/true); // "?" on a US layout
    EXPECT_TRUE(app.view.show_keys);
    Press(keys::kF1);
    EXPECT_FALSE(app.view.show_keys);
    // A plain slash is not "?": it does nothing.
    Press(keys::kSlash);
    EXPECT_FALSE(app.view.show_keys);
}

// Every chord of the one key table (widgets/shortcuts.h) does what the keyboard help says: each
// is pressed in the part of the app its row names, and the change the help's words describe is
// checked (the effects are written here, from the help's sentences, not from the handler). A key
// added to the table without an effect here fails.
TEST_F(Classroom, EveryKeyOfTheTableDoesWhatTheHelpSays) {
    ::setenv("PELAB_FILE_CHOOSER", "builtin", 1);
    using C = Command;
    const auto press = [&](const KeyPress& key) { Frame({}, {key}); };
    const auto start_lesson = [&](int step) {
        Lesson lesson;
        ASSERT_EQ(LoadLesson((std::filesystem::path(pelab_test::SourceDir()) /
                              "assets/lessons/frequencies.json")
                                 .string(),
                             app.scene, app.panels, &lesson),
                  "");
        StartLesson(app, lesson);
        GoToStep(app, step);
        AdvanceGlide(app, kStepGlideSeconds);
        Frame();
    };
    const auto end_lesson = [&] {
        app.lesson = LessonPlayer{};
        app.view.slide_mode = false;
        Frame();
    };
    QuizPanel& quiz = Get<QuizPanel>("quiz");
    const auto focus_quiz = [&](QuizPanel::Mode mode) {
        ASSERT_EQ(app.scene.Apply(R"({"open_panels": ["quiz"], "presented_panel": ""})"), "");
        quiz.mode = mode;
        quiz.question = 0;
        quiz.answers.assign(quiz.quiz.questions.size(), QuizAnswer{});
        app.focused_panel = "quiz";
        Frame();
    };
    // For each command: press the chord and check the effect the help's words promise.
    const std::map<Command, std::function<void(const KeyPress&)>> effects = {
        {C::KeyboardHelp,
         [&](const KeyPress& key) {
             app.view.show_keys = false;
             press(key);
             EXPECT_TRUE(app.view.show_keys) << "the list of keys";
             app.view.show_keys = false;
         }},
        {C::Open,
         [&](const KeyPress& key) {
             press(key);
             EXPECT_TRUE(app.file_dialog.IsOpen()) << "open a scene…";
             app.file_dialog.Close();
             Frame();
         }},
        {C::SaveScene,
         [&](const KeyPress& key) {
             press(key);
             EXPECT_TRUE(app.file_dialog.IsOpen()) << "save the scene as…";
             app.file_dialog.Close();
             Frame();
         }},
        {C::Reset,
         [&](const KeyPress& key) {
             Disturb();
             press(key);
             EXPECT_EQ(state.pos_a, App().state.pos_a) << "every panel back to its defaults";
         }},
        {C::Confirm,
         [&](const KeyPress& key) {
             Disturb();
             app.view.confirm_reset = true;
             press(key);
             EXPECT_FALSE(app.view.confirm_reset);
             EXPECT_EQ(state.pos_a, App().state.pos_a) << "yes to Reset all?";
         }},
        {C::TextLarger,
         [&](const KeyPress& key) {
             const float before = app.view.font_scale;
             press(key);
             EXPECT_GT(app.view.font_scale, before) << "larger text";
         }},
        {C::TextSmaller,
         [&](const KeyPress& key) {
             const float before = app.view.font_scale;
             press(key);
             EXPECT_LT(app.view.font_scale, before) << "smaller text";
         }},
        {C::Fullscreen,
         [&](const KeyPress& key) {
             const bool before = app.view.fullscreen;
             press(key);
             EXPECT_NE(app.view.fullscreen, before) << "fullscreen";
         }},
        {C::NextTheme,
         [&](const KeyPress& key) {
             // Dark, light, high contrast, and round again.
             app.view.theme = ThemeId::Dark;
             press(key);
             EXPECT_EQ(app.view.theme, ThemeId::Light) << "the next theme";
             press(key);
             EXPECT_EQ(app.view.theme, ThemeId::HighContrast) << "the next theme";
             press(key);
             EXPECT_EQ(app.view.theme, ThemeId::Dark) << "round again";
         }},
        {C::Quit,
         [&](const KeyPress& key) {
             press(key);
             EXPECT_TRUE(app.pending.quit) << "quit";
             app.pending.quit = false;
         }},
        {C::PosBack,
         [&](const KeyPress& key) {
             state.pos_a = 20;
             press(key);
             EXPECT_EQ(state.pos_a, 19.0) << "one position back";
         }},
        {C::PosOn,
         [&](const KeyPress& key) {
             state.pos_a = 20;
             press(key);
             EXPECT_EQ(state.pos_a, 21.0) << "one position on";
         }},
        {C::PosBackTen,
         [&](const KeyPress& key) {
             state.pos_a = 20;
             press(key);
             EXPECT_EQ(state.pos_a, 10.0) << "ten positions back";
         }},
        {C::PosOnTen,
         [&](const KeyPress& key) {
             state.pos_a = 20;
             press(key);
             EXPECT_EQ(state.pos_a, 30.0) << "ten positions on";
         }},
        {C::PairNext,
         [&](const KeyPress& key) {
             state.pair = 3;
             press(key);
             EXPECT_EQ(state.pair, 4) << "the next pair";
         }},
        {C::PairPrevious,
         [&](const KeyPress& key) {
             state.pair = 3;
             press(key);
             EXPECT_EQ(state.pair, 2) << "the previous pair";
         }},
        {C::Play,
         [&](const KeyPress& key) {
             state.playing = false;
             press(key);
             EXPECT_TRUE(state.playing) << "play";
             state.playing = false;
         }},
        {C::HideControls,
         [&](const KeyPress& key) {
             const bool before = app.view.hide_controls;
             press(key);
             EXPECT_NE(app.view.hide_controls, before) << "hide / show the controls";
             app.view.hide_controls = false;
         }},
        {C::Back,
         [&](const KeyPress& key) {
             app.view.presented_panel = "waves";
             Frame();
             press(key);
             EXPECT_EQ(app.view.presented_panel, "") << "back to all panels";
         }},
        {C::ClickerNext,
         [&](const KeyPress& key) {
             start_lesson(2);
             press(key);
             EXPECT_EQ(app.lesson.step, 3) << "next step";
             end_lesson();
         }},
        {C::ClickerPrevious,
         [&](const KeyPress& key) {
             start_lesson(2);
             press(key);
             EXPECT_EQ(app.lesson.step, 1) << "previous step";
             end_lesson();
         }},
        {C::StepNext,
         [&](const KeyPress& key) {
             start_lesson(2);
             press(key);
             EXPECT_EQ(app.lesson.step, 3) << "next step";
             end_lesson();
         }},
        {C::StepPrevious,
         [&](const KeyPress& key) {
             start_lesson(2);
             press(key);
             EXPECT_EQ(app.lesson.step, 1) << "previous step";
             end_lesson();
         }},
        {C::StepFirst,
         [&](const KeyPress& key) {
             start_lesson(2);
             press(key);
             EXPECT_EQ(app.lesson.step, 0) << "the first step";
             end_lesson();
         }},
        {C::StepAgain,
         [&](const KeyPress& key) {
             start_lesson(2);
             const double shown = state.pos_a;
             state.pos_a = shown + 123;
             press(key);
             AdvanceGlide(app, kStepGlideSeconds);
             EXPECT_EQ(app.lesson.step, 2);
             EXPECT_EQ(state.pos_a, shown) << "undoes what was changed since";
             end_lesson();
         }},
        {C::Blank,
         [&](const KeyPress& key) {
             start_lesson(2);
             press(key);
             EXPECT_TRUE(app.lesson.blank) << "a black screen";
             press(KeyPress{keys::kRight, false, false});
             EXPECT_FALSE(app.lesson.blank) << "any key brings the picture back";
             end_lesson();
         }},
        {C::Notes,
         [&](const KeyPress& key) {
             start_lesson(2);
             const bool before = app.lesson.show_notes;
             press(key);
             EXPECT_NE(app.lesson.show_notes, before) << "show / hide the notes";
             end_lesson();
         }},
        {C::Slides,
         [&](const KeyPress& key) {
             start_lesson(2);
             const bool before = app.view.slide_mode;
             press(key);
             EXPECT_NE(app.view.slide_mode, before) << "slides / the whole app";
             end_lesson();
         }},
        {C::EndLesson,
         [&](const KeyPress& key) {
             start_lesson(2);
             ASSERT_TRUE(app.Slides());
             const nlohmann::json shown = app.scene.Document();
             press(key);
             EXPECT_FALSE(app.lesson.Active()) << "ends the lesson";
             EXPECT_FALSE(app.Slides());
             EXPECT_EQ(app.state.pos_a, shown["pos_a"].get<double>()) << "the step's scene kept";
             // Esc in a lesson: the notes first, then the slides.
             start_lesson(2);
             app.lesson.show_notes = true;
             press(KeyPress{keys::kEscape, false, false});
             EXPECT_FALSE(app.lesson.show_notes) << "Esc closes the notes first";
             EXPECT_TRUE(app.Slides()) << "and only the notes";
             press(KeyPress{keys::kEscape, false, false});
             EXPECT_FALSE(app.Slides()) << "then Esc leaves the slides";
             end_lesson();
         }},
        {C::QuizPredict,
         [&](const KeyPress& key) {
             focus_quiz(QuizPanel::Mode::Questions);
             int question = 0;
             while (quiz.quiz.questions[question].IsNumber())
                 ++question;
             quiz.question = question;
             const int digit =
                 key.key >= keys::kKeypad1 ? key.key - keys::kKeypad1 : key.key - keys::kDigit1;
             press(key);
             if (digit < static_cast<int>(quiz.quiz.questions[question].choices.size()))
                 EXPECT_EQ(quiz.answers[question].choice, digit) << "predict that choice";
             else
                 EXPECT_EQ(quiz.answers[question].choice, -1) << "no such choice";
         }},
        {C::QuizReveal,
         [&](const KeyPress& key) {
             focus_quiz(QuizPanel::Mode::Questions);
             quiz.answers[0].choice = 0;
             quiz.answers[0].typed = "1";
             press(key);
             EXPECT_TRUE(quiz.answers[0].revealed) << "reveal the answer";
         }},
        {C::QuizFlip,
         [&](const KeyPress& key) {
             focus_quiz(QuizPanel::Mode::Cards);
             quiz.card_back = false;
             press(key);
             EXPECT_TRUE(quiz.card_back) << "flip the flashcard";
         }},
    };
    int pressed = 0;
    for (const ShortcutRow& row : ShortcutTable()) {
        for (std::size_t c = 0; c < row.commands.size(); ++c) {
            const auto effect = effects.find(row.commands[c]);
            ASSERT_NE(effect, effects.end()) << KeysText(row) << ": a key with no test";
            for (const Chord& chord : row.chords[c]) {
                SCOPED_TRACE(KeysText(row) + ": " + ChordName(chord));
                KeyPress key{chord.key, chord.shift == Modifier::Down,
                             chord.ctrl == Modifier::Down};
                effect->second(key);
                ++pressed;
            }
        }
    }
    EXPECT_GE(pressed, 40);
    ::unsetenv("PELAB_FILE_CHOOSER");
}

// The menus write the table's keys, and the help words a chord as people do.
TEST_F(Classroom, KeyNamesComeFromTheTable) {
    EXPECT_EQ(KeysFor(Command::Open), "Ctrl+O");
    EXPECT_EQ(KeysFor(Command::Fullscreen), "F11");
    EXPECT_EQ(KeysFor(Command::KeyboardHelp), "F1");
    std::string all;
    for (const ShortcutRow& row : ShortcutTable())
        all += KeysText(row) + "\n";
    for (const char* keys : {"F1 or ?", "Ctrl+= / Ctrl+-", "← / →", "Shift+← / Shift+→",
                             "PageDown / PageUp", "N / P", "1 … 9", "Enter"})
        EXPECT_NE(all.find(keys), std::string::npos) << keys << " in\n" << all;
    // A plain slash is not "?", and Ctrl+H is not H.
    EXPECT_FALSE(Is(KeyPress{keys::kSlash, false, false}, Command::KeyboardHelp));
    EXPECT_FALSE(Is(KeyPress{keys::kH, false, true}, Command::HideControls));
}

TEST_F(Classroom, CtrlRResetsAllButTheThemeAndTextSize) {
    Disturb();
    Frame();
    Press(keys::kR, false, true);
    EXPECT_FALSE(app.view.confirm_reset); // nothing presented, no lesson: at once
    ExpectDefaults();
    EXPECT_EQ(app.scene.Document()["theme"], "light");
    EXPECT_EQ(app.scene.Document()["font_scale"], 1.5);
    // A plain R outside a lesson is not a reset.
    Disturb();
    Press(keys::kR);
    EXPECT_EQ(state.pos_a, 77.0);
}

TEST_F(Classroom, ResetAsksFirstInALessonAndWhilePresenting) {
    Lesson lesson;
    ASSERT_EQ(LoadLesson((std::filesystem::path(pelab_test::SourceDir()) /
                          "assets/lessons/frequencies.json")
                             .string(),
                         app.scene, app.panels, &lesson),
              "");
    StartLesson(app, lesson);
    Frame();
    Press(keys::kR, false, true);
    EXPECT_TRUE(app.view.confirm_reset);
    Frame();
    EXPECT_TRUE(app.recorder.rects.count("reset.confirm"));
    // While asking, a clicker's PageDown does not move the lesson behind the question.
    Press(keys::kPageDown);
    EXPECT_EQ(app.lesson.step, 0);
    Press(keys::kEscape);
    EXPECT_FALSE(app.view.confirm_reset);
    EXPECT_TRUE(app.lesson.Active());
    EXPECT_FALSE(app.view.presented_panel.empty()) << "Esc answered the question only";
    Frame();
    // Asked again and confirmed with Enter: defaults, and the lesson ends.
    Press(keys::kR, false, true);
    Press(keys::kEnter);
    EXPECT_FALSE(app.view.confirm_reset);
    EXPECT_FALSE(app.lesson.Active());
    ExpectDefaults();
    // Presenting one panel asks too; the button answers as Enter does.
    app.view.presented_panel = "compare";
    state.pos_a = 40;
    Frame();
    app.view.presented_panel = "compare";
    Press(keys::kR, false, true);
    EXPECT_TRUE(app.view.confirm_reset);
    EXPECT_EQ(state.pos_a, 40.0);
    Frame();
    ASSERT_TRUE(app.recorder.rects.count("reset.cancel"));
    Click("reset.cancel");
    EXPECT_FALSE(app.view.confirm_reset);
    EXPECT_EQ(state.pos_a, 40.0);
    Frame();
    Press(keys::kR, false, true);
    Frame();
    ASSERT_TRUE(app.recorder.rects.count("reset.confirm"));
    Click("reset.confirm");
    EXPECT_FALSE(app.view.confirm_reset);
    ExpectDefaults();
}

// ---- Files: File → Open / Save / Export, the recent list, the choosers --------------------

namespace {

namespace fs = std::filesystem;

std::string ReadText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// CSV lines split at commas (the exports quote nothing in these tables).
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::stringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> cells;
        std::stringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');)
            cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

} // namespace

// Open… reads a file by what it holds: a scene, a figure (PNG with its scene), or a lesson. A
// bad file is refused with a message and changes nothing; good ones go to the recent list.
TEST_F(Classroom, OpenReadsScenesFiguresAndLessonsByContent) {
    TempFolder folder;
    const std::string scene = folder.Write("s.json", R"({"pos_a": 12, "d_model": 64})");
    const std::string figure = folder.Write(
        "f.png", AddPngTextChunk(TinyPng(), kSceneChunkKeyword, R"({"pos_b": 99, "pair": 5})"));
    const std::string lesson = folder.Write(
        "l.json", R"({"title": "t", "steps": [{"caption": "a", "scene": {"pos_a": 7}}]})");
    const std::string corrupt = folder.Write("c.json", R"({"pos_a": )");
    const std::string plain_png = folder.Write("p.png", TinyPng());
    const std::string bad_lesson = folder.Write(
        "b.json", R"({"title": "t", "steps": [{"caption": "a", "scene": {"pos_a": -1}}]})");

    EXPECT_EQ(OpenFile(app, scene), "");
    EXPECT_EQ(state.pos_a, 12.0);
    EXPECT_EQ(state.d_model, 64);
    EXPECT_EQ(OpenFile(app, figure), "");
    EXPECT_EQ(state.pos_b, 99.0);
    EXPECT_EQ(state.pair, 5);
    EXPECT_FALSE(app.lesson.Active());
    EXPECT_EQ(OpenFile(app, lesson), "");
    EXPECT_TRUE(app.lesson.Active());
    EXPECT_EQ(state.pos_a, 7.0);
    // A scene opened during a lesson ends it.
    EXPECT_EQ(OpenFile(app, scene), "");
    EXPECT_FALSE(app.lesson.Active());

    const nlohmann::json before = app.scene.Document();
    for (const std::string& bad : {corrupt, plain_png, bad_lesson,
                                   (folder.path / "missing.json").string(), folder.path.string()}) {
        const std::string error = OpenFile(app, bad);
        EXPECT_FALSE(error.empty()) << bad;
        EXPECT_EQ(app.scene.Document(), before) << bad;
    }
    EXPECT_NE(OpenFile(app, bad_lesson).find("step 1: field \"pos_a\""), std::string::npos);
    // Newest first, each once.
    ASSERT_EQ(app.view.recent_files.size(), 3u);
    EXPECT_EQ(app.view.recent_files[0], fs::path(scene).lexically_normal().string());
    EXPECT_EQ(app.view.recent_files[1], fs::path(lesson).lexically_normal().string());
    EXPECT_EQ(app.view.recent_files[2], fs::path(figure).lexically_normal().string());
}

// Save scene as… writes every field; opening the file in a fresh app gives the same scene.
TEST_F(Classroom, SavedScenesOpenAsTheyWere) {
    TempFolder folder;
    ASSERT_EQ(app.scene.Apply(R"({"pos_a": 123.5, "base": 500, "d_model": 96, "pair": 40,
                                  "theme": "high-contrast", "pe_enabled": false})"),
              "");
    const std::string path = (folder.path / "saved.json").string();
    ASSERT_EQ(SaveSceneFile(app, path), "");
    App reopened;
    ASSERT_EQ(OpenFile(reopened, path), "");
    EXPECT_EQ(reopened.scene.Document(), app.scene.Document());
    // Ctrl+S opens PE Lab's own dialog here; Ctrl+Q still quits while it is open.
    setenv("PELAB_FILE_CHOOSER", "builtin", 1);
    Press(keys::kS, false, true);
    EXPECT_TRUE(app.file_dialog.IsOpen());
    Frame();
    EXPECT_TRUE(app.recorder.rects.count("file.path"));
    // The keyboard is in the field a frame after it appears; tests type once it is.
    Frame();
    EXPECT_TRUE(app.recorder.rects.count("file.path_typing"));
    Press(keys::kQ, false, true);
    EXPECT_TRUE(app.pending.quit);
    unsetenv("PELAB_FILE_CHOOSER");
    // Unwritable: a message, no crash.
    EXPECT_FALSE(SaveSceneFile(app, (folder.path / "no/such/folder/x.json").string()).empty());
}

// The compare table's CSV parses back to the numbers: each PE value against a long double
// computation here, the pair shares adding up to the dot product the panel shows, and the rows
// the dimension filter shows.
TEST_F(Classroom, CompareCsvParsesBackToTheNumbers) {
    TempFolder folder;
    ASSERT_EQ(app.scene.Apply(R"({"pos_a": 3, "pos_b": 50, "d_model": 128})"), "");
    Frame();
    const std::string path = (folder.path / "compare.csv").string();
    ASSERT_EQ(ExportTableCsv(app, "compare", path), "");
    const auto rows = ParseCsv(ReadText(path));
    ASSERT_EQ(rows.size(), 129u);
    EXPECT_EQ(rows[0][0], "dim");
    double dot = 0;
    for (int dim = 0; dim < 128; ++dim) {
        const auto& row = rows[dim + 1];
        ASSERT_EQ(row.size(), 7u);
        EXPECT_EQ(std::stoi(row[0]), dim);
        const int pair = dim / 2;
        const long double omega = std::pow(10000.0L, -2.0L * pair / 128.0L);
        const long double a = dim % 2 == 0 ? std::sin(3.0L * omega) : std::cos(3.0L * omega);
        const long double b = dim % 2 == 0 ? std::sin(50.0L * omega) : std::cos(50.0L * omega);
        EXPECT_NEAR(std::stod(row[2]), static_cast<double>(omega), 1e-15);
        EXPECT_NEAR(std::stod(row[3]), static_cast<double>(a), 1e-13) << dim;
        EXPECT_NEAR(std::stod(row[4]), static_cast<double>(b), 1e-13) << dim;
        if (dim % 2 == 0) dot += std::stod(row[6]);
    }
    // The published value 30.59: PE(3)·PE(50) at d_model 128, the two-position comparison (README).
    EXPECT_NEAR(dot, 30.59, 0.005);
    const nlohmann::json readouts = app.Document(true)["readouts"]["compare"];
    EXPECT_NEAR(dot, readouts["dot_product"].get<double>(), 1e-9);
    // The sin-only filter exports the sin rows only.
    ASSERT_EQ(app.scene.Apply(R"({"compare_dims": "sin"})"), "");
    ASSERT_EQ(ExportTableCsv(app, "compare", path), "");
    const auto sin_rows = ParseCsv(ReadText(path));
    ASSERT_EQ(sin_rows.size(), 65u);
    for (std::size_t k = 1; k < sin_rows.size(); ++k) {
        EXPECT_EQ(sin_rows[k][1], "sin");
    }
    EXPECT_FALSE(ExportTableCsv(app, "waves", path).empty()) << "waves has no table";
}

// The calculator's CSV and the property table's: the calculator's rows are the dims it shows,
// each value against std::sin/cos; the property table has the published articles' verdicts.
TEST_F(Classroom, CalculatorAndPropertyTableCsv) {
    TempFolder folder;
    ASSERT_EQ(app.scene.Apply(R"({"pos_a": 1, "d_model": 4, "calculator_dim_from": 0,
                                  "calculator_dim_to": 3})"),
              "");
    const std::string path = (folder.path / "calc.csv").string();
    ASSERT_EQ(ExportTableCsv(app, "calculator", path), "");
    const auto rows = ParseCsv(ReadText(path));
    ASSERT_EQ(rows.size(), 5u);
    // PE(1) at d_model 4 as the published course prints it: [0.841, 0.540, 0.010, 1.000].
    const double expected[] = {0.841, 0.540, 0.010, 1.000};
    for (int dim = 0; dim < 4; ++dim) {
        EXPECT_NEAR(std::stod(rows[dim + 1][7]), expected[dim], 5e-4) << dim;
    }
    ASSERT_EQ(ExportTableCsv(app, "candidates", path), "");
    const auto table = ParseCsv(ReadText(path));
    ASSERT_EQ(table.size(), 10u); // header + nine encodings
    EXPECT_EQ(table[0][0], "encoding");
    const auto verdict = [&](const std::string& name_start, int property) {
        for (const auto& row : table)
            if (row[0].rfind(name_start, 0) == 0) return row[2 + 2 * property];
        return std::string("(no row)");
    };
    EXPECT_EQ(verdict("raw index", 0), "fails"); // unbounded, as published
    EXPECT_EQ(verdict("binary", 3), "fails");    // not smooth, as published
    EXPECT_EQ(verdict("sin + cos", 0), "ok");
    EXPECT_EQ(verdict("sin + cos", 1), "ok");
}

// Recent files are kept with the settings: written in the [PELab][View] section and read back;
// a line that is not a path is ignored.
TEST_F(Classroom, RecentFilesPersistWithTheSettings) {
    RegisterViewSettingsHandler(app.view);
    app.view.recent_files = {"/a/one.json", "/b/two words.png"};
    std::size_t size = 0;
    const std::string ini = ImGui::SaveIniSettingsToMemory(&size);
    EXPECT_NE(ini.find("Recent=/b/two words.png"), std::string::npos);
    app.view.recent_files.clear();
    ImGui::LoadIniSettingsFromMemory(ini.c_str(), ini.size());
    EXPECT_EQ(app.view.recent_files, (std::vector<std::string>{"/a/one.json", "/b/two words.png"}));
    app.view.recent_files.clear();
    const std::string odd = "[PELab][View]\nRecent=\nTheme=nonsense\nRecent=/c.json\n";
    ImGui::LoadIniSettingsFromMemory(odd.c_str(), odd.size());
    EXPECT_EQ(app.view.recent_files, std::vector<std::string>{"/c.json"});
}

TEST(FileDialogListing, FoldersFirstMatchingFilesNoDotFiles) {
    TempFolder folder;
    fs::create_directories(folder.path / "zeta");
    fs::create_directories(folder.path / "alpha");
    fs::create_directories(folder.path / ".hidden");
    folder.Write("b.json", "{}");
    folder.Write("a.PNG", "");
    folder.Write("c.txt", "");
    folder.Write(".dot.json", "{}");
    std::vector<FolderEntry> entries;
    ASSERT_EQ(ListFolder(folder.path.string(), {".json", ".png"}, 100, &entries), "");
    std::vector<std::string> names;
    for (const FolderEntry& entry : entries)
        names.push_back(entry.name + (entry.is_folder ? "/" : ""));
    EXPECT_EQ(names, (std::vector<std::string>{"alpha/", "zeta/", "a.PNG", "b.json"}));
    EXPECT_NE(ListFolder((folder.path / "nope").string(), {}, 100, &entries), "");
    EXPECT_TRUE(entries.empty());
}

// The desktop's chooser as a child process: a stand-in "zenity" on PATH prints a path and the
// dialog hands it over; one that fails, or none at all, opens the builtin dialog with a message.
// The frames never wait for the child.
TEST_F(Classroom, DesktopChooserAnswersAndFailuresFallBack) {
    TempFolder folder;
    const std::string chosen = (folder.path / "picked.json").string();
    const auto fake = [&](const std::string& body) {
        const std::string path = folder.Write("zenity", "#!/bin/sh\n" + body + "\n");
        fs::permissions(path, fs::perms::owner_all);
    };
    const char* old_path = std::getenv("PATH");
    const std::string saved_path = old_path ? old_path : "";
    setenv("PATH", (folder.path.string() + ":/usr/bin:/bin").c_str(), 1);
    setenv("PELAB_FILE_CHOOSER", "zenity", 1);
    FrameContext frame{state, app.pending, app.recorder, app.stats, GetTheme(ThemeId::Dark),
                       true,  nullptr,     false};
    const auto run = [&](std::string* path) {
        // Frames until the child answers or the dialog falls back (at most 10 s).
        for (int k = 0; k < 1000; ++k) {
            ImGui::NewFrame();
            const bool got = app.file_dialog.Draw(frame, path);
            ImGui::Render();
            if (got) return true;
            if (!app.file_dialog.Waiting()) return false;
            ::usleep(10000);
        }
        return false;
    };
    FileDialogRequest request;
    request.title = "Open";
    fake("sleep 0.2; echo '" + chosen + "'");
    app.file_dialog.Open(request);
    EXPECT_TRUE(app.file_dialog.Waiting());
    std::string path;
    EXPECT_TRUE(run(&path));
    EXPECT_EQ(path, chosen);
    app.file_dialog.Close();
    EXPECT_FALSE(app.file_dialog.IsOpen());
    // Cancelled (exit 1): nothing, no dialog.
    fake("exit 1");
    app.file_dialog.Open(request);
    EXPECT_FALSE(run(&path));
    EXPECT_FALSE(app.file_dialog.IsOpen());
    // Broken (exit 5): the builtin dialog takes over.
    fake("exit 5");
    app.file_dialog.Open(request);
    EXPECT_FALSE(run(&path));
    EXPECT_TRUE(app.file_dialog.IsOpen());
    EXPECT_FALSE(app.file_dialog.Waiting());
    app.file_dialog.Close();
    // Not installed at all.
    fs::remove(folder.path / "zenity");
    setenv("PATH", folder.path.string().c_str(), 1);
    app.file_dialog.Open(request);
    EXPECT_FALSE(run(&path));
    EXPECT_TRUE(app.file_dialog.IsOpen());
    app.file_dialog.Close();
    setenv("PATH", saved_path.c_str(), 1);
    unsetenv("PELAB_FILE_CHOOSER");
    Frame();
}

// A folder of 20 000 files: listed whole and sorted by name (once 5 000 came in directory order,
// unsorted, with no word about the rest); a smaller limit keeps the first names and counts the
// others; the filter narrows as the user types, whatever the case.
TEST(FileDialogListing, LargeFoldersAreSortedCountedAndFiltered) {
    TempFolder folder;
    for (int k = 19999; k >= 0; --k) {
        char name[32];
        std::snprintf(name, sizeof name, "scene_%05d.json", k);
        std::ofstream(folder.path / name) << "{}";
    }
    fs::create_directories(folder.path / "zz_folder");
    std::vector<FolderEntry> entries;
    std::size_t left_out = 99;
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(ListFolder(folder.path.string(), {".json"}, 200000, &entries, &left_out), "");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 2.0); // listed once per folder, not per frame
    ASSERT_EQ(entries.size(), 20001u);
    EXPECT_EQ(left_out, 0u);
    EXPECT_TRUE(entries[0].is_folder); // folders first
    EXPECT_EQ(entries[1].name, "scene_00000.json");
    EXPECT_EQ(entries.back().name, "scene_19999.json");
    for (std::size_t k = 2; k < entries.size(); ++k)
        ASSERT_LT(entries[k - 1].name, entries[k].name);
    ASSERT_EQ(ListFolder(folder.path.string(), {".json"}, 5000, &entries, &left_out), "");
    EXPECT_EQ(entries.size(), 5000u);
    EXPECT_EQ(left_out, 15001u);
    EXPECT_EQ(entries.back().name, "scene_04998.json"); // the first 5 000 by name
    // The filter, through the dialog.
    FileDialog dialog;
    FileDialogRequest request;
    request.title = "Open";
    request.folder = folder.path.string();
    request.extensions = {".json"};
    dialog.OpenBuiltin(request);
    EXPECT_EQ(dialog.ShownNames().size(), 20001u);
    dialog.SetFilter("SCENE_1234");
    const std::vector<std::string> shown = dialog.ShownNames();
    ASSERT_EQ(shown.size(), 10u); // scene_12340 … scene_12349, whatever the case typed
    EXPECT_EQ(shown[0], "scene_12340.json");
    EXPECT_EQ(shown[9], "scene_12349.json");
    dialog.SetFilter("1234");
    EXPECT_EQ(dialog.ShownNames().size(), 12u); // 01234, 11234 and 12340 … 12349
    dialog.SetFilter("no such name");
    EXPECT_TRUE(dialog.ShownNames().empty());
}

// A student's teach-back text is their work: a scene applied on top of the screen (a quiz show,
// a lesson step, File → Open) never empties it, and one that brings other text asks first. Once
// a show with "teach_back_text": "" erased what a student had typed, without a word.
TEST_F(Classroom, TeachBackTextIsNeverLostToAScene) {
    const auto text = [&] { return app.scene.Find("teach_back_text")->write(); };
    ASSERT_EQ(app.scene.Apply(R"({"teach_back_text": "my own words"})"), "");
    // A quiz show (what a reveal applies) with empty text: kept, nothing asked.
    app.pending.apply_scene = {{"teach_back_text", ""}, {"pos_a", 9}};
    Frame();
    EXPECT_EQ(text(), "my own words");
    EXPECT_EQ(state.pos_a, 9.0);
    EXPECT_FALSE(app.incoming_teach_back.has_value());
    // Other text: the question, and the student's text until they answer.
    // (Applied when that frame ends; the next asks, and the question is placed in the third.)
    app.pending.apply_scene = {{"teach_back_text", "the show's text"}};
    Frame();
    Frame();
    Frame();
    EXPECT_EQ(text(), "my own words");
    ASSERT_TRUE(app.incoming_teach_back.has_value());
    EXPECT_TRUE(app.recorder.rects.count("teach_back.keep"));
    EXPECT_TRUE(app.recorder.rects.count("teach_back.replace"));
    app.AnswerTeachBackQuestion(false);
    EXPECT_EQ(text(), "my own words");
    app.pending.apply_scene = {{"teach_back_text", "the show's text"}};
    Frame();
    app.AnswerTeachBackQuestion(true);
    EXPECT_EQ(text(), "the show's text");
    // File → Open of a scene with empty text, and a lesson's steps: the text stays.
    TempFolder folder;
    ASSERT_EQ(OpenFile(app, folder.Write("s.json", R"({"teach_back_text": "", "pos_b": 77})")), "");
    EXPECT_EQ(text(), "the show's text");
    EXPECT_EQ(state.pos_b, 77.0);
    ASSERT_EQ(OpenFile(app, folder.Write("l.json", R"({"title": "t", "steps": [
        {"caption": "a"}, {"caption": "b", "scene": {"teach_back_text": ""}}]})")),
              "");
    ASSERT_EQ(app.scene.Apply(R"({"teach_back_text": "typed during the lesson"})"), "");
    Press(keys::kPageDown);
    Press(keys::kPageUp);
    EXPECT_EQ(text(), "typed during the lesson");
    // With no text of the student's, a scene's text simply applies.
    ASSERT_EQ(app.scene.Apply(R"({"teach_back_text": ""})"), "");
    app.pending.apply_scene = {{"teach_back_text", "a model answer"}};
    Frame();
    EXPECT_EQ(text(), "a model answer");
    EXPECT_FALSE(app.incoming_teach_back.has_value());
}

// The first run opens on the Start map, presented: Ctrl+R there asks first, as for any presented
// panel (a reviewer saw it reset at once).
TEST_F(Classroom, ResetAsksFirstOnThePresentedStartMap) {
    app.view.presented_panel = "start";
    Frame();
    Press(keys::kRight);
    Press(keys::kRight);
    Press(keys::kR, false, true);
    EXPECT_TRUE(app.view.confirm_reset);
    EXPECT_EQ(app.view.presented_panel, "start");
    Frame();
    Frame();
    EXPECT_TRUE(app.recorder.rects.count("reset.confirm"));
}
