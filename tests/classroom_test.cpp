// The classroom conventions, headless: F1 and ? open the keyboard help, which lists every key the
// shortcut handler answers to; Ctrl+R resets every field to a freshly built app's value (the
// theme and text size excepted), at once normally and only after Enter in a lesson or while a
// panel is presented, where Esc keeps everything.
#include "headless_fixture.h"
#include "keyboard_help.h"
#include "lesson.h"
#include "lesson_player.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

using namespace pelab;

namespace {

class Classroom : public HeadlessApp {
protected:
    Classroom() : HeadlessApp(ImVec2(1600, 1000)) {}
    void SetUp() override {
        HeadlessApp::SetUp();
        app.recorder.enabled = true;
    }
    void Press(int key, bool shift = false, bool ctrl = false) {
        Frame({}, {KeyPress{key, shift, ctrl}});
    }
    // A left click in the middle of a recorded widget, over three frames.
    void Click(const std::string& name) {
        const WidgetRect rect = app.recorder.rects.at(name);
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = ImVec2((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2);
        Frame();
        io.MouseDown[0] = true;
        Frame();
        io.MouseDown[0] = false;
        Frame();
    }
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
        EXPECT_EQ(state.pos_a, 3.0); // the documents' pos A (SPEC §4 defaults), independently
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

// Each key the help lists does something: pressing it changes the state it says it changes.
TEST_F(Classroom, TheHelpListsTheKeysThatWork) {
    std::size_t count = 0;
    const ShortcutGroup* groups = ShortcutGroups(&count);
    std::string all;
    for (std::size_t g = 0; g < count; ++g)
        for (std::size_t r = 0; r < groups[g].count; ++r)
            all += std::string(groups[g].rows[r].keys) + "\n";
    for (const char* key : {"F1 or ?", "Ctrl+R", "F11", "Ctrl+Q", "Space", "H", "Esc", "N / P",
                            "Home", "R", "B", "PageDown / PageUp"}) {
        EXPECT_NE(all.find(key), std::string::npos) << key;
    }
    Press(keys::kRight, true);
    EXPECT_EQ(state.pos_a, 13.0); // "with Shift: ten"
    Press(keys::kH);
    EXPECT_TRUE(app.view.hide_controls);
    Press(keys::kSpace);
    EXPECT_TRUE(state.playing);
    Press(keys::kF11);
    EXPECT_TRUE(app.view.fullscreen);
    Press(keys::kQ, false, true);
    EXPECT_TRUE(app.pending.quit);
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
    ASSERT_EQ(
        LoadLesson(
            (std::filesystem::path(PELAB_SOURCE_DIR) / "assets/lessons/frequencies.json").string(),
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
