// Beginner and advanced modes, Play by whole positions, and the one way a position is written.
// The expectations are the modes' definition (docs/panels.md): beginner hides the base, the
// heatmap's layout, the order panel's scale and √d and the candidates' settings unless a lesson
// points at one; Play steps whole positions unless "smooth"; theme, text size and mode are the
// room's and stay through a lesson's steps.
#include "headless_fixture.h"
#include "io/lesson.h"
#include "shell/lesson_player.h"
#include "widgets/number_text.h"

#include <gtest/gtest.h>

using namespace pelab;

namespace {

class Modes : public HeadlessApp {
protected:
    bool Drawn(const std::string& name) { return app.recorder.layout.count(name) == 1; }
};

} // namespace

TEST_F(Modes, BeginnerHidesTheAdvancedControlsAndAdvancedShowsThem) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> advanced = {
        {"waves", {"waves.base", "waves.smooth"}},
        {"heatmap", {"heatmap.layout"}},
        {"order", {"order.pe_scale", "order.scale_embeddings"}},
        {"candidates",
         {"candidates.d_model", "candidates.length", "candidates.positions", "candidates.shift_k",
          "candidates.embedding", "candidates.scale_embedding"}},
        {"clocks", {"clocks.smooth"}}};
    const std::vector<std::string> always = {"waves.pair_slider", "order.pe_enabled",
                                             "candidates.choice", "heatmap.max_len"};
    for (const bool is_advanced : {true, false}) {
        app.view.advanced = is_advanced;
        for (const auto& [panel, names] : advanced) {
            Present(panel);
            for (const std::string& name : names)
                EXPECT_EQ(Drawn(name), is_advanced)
                    << name << (is_advanced ? " missing in advanced" : " shown in beginner");
            for (const std::string& name : always)
                if (name.rfind(panel + ".", 0) == 0) {
                    EXPECT_TRUE(Drawn(name)) << name;
                }
        }
    }
}

TEST_F(Modes, AnOutlinedAdvancedControlShowsInBeginnerMode) {
    app.view.advanced = false;
    Lesson lesson;
    ASSERT_EQ(ParseLesson(R"({"title": "t", "steps": [{"caption": "The base.", "present": "waves",
                             "highlight": ["waves.base"]}, {"caption": "Next.",
                             "present": "waves"}]})",
                          app.scene, app.panels, &lesson, LessonStart(app)),
              "");
    StartLesson(app, lesson);
    Present("waves");
    EXPECT_TRUE(Drawn("waves.base"));
    GoToStep(app, 1);
    Present("waves");
    EXPECT_FALSE(Drawn("waves.base"));
    // The mode is the room's: a step never changes it, nor do the theme and the text size.
    EXPECT_FALSE(app.view.advanced);
}

TEST_F(Modes, ModeIsASceneFieldAndAViewSetting) {
    EXPECT_EQ(app.scene.Apply(R"({"mode": "beginner"})"), "");
    EXPECT_FALSE(app.view.advanced);
    EXPECT_EQ(app.scene.Document()["mode"], "beginner");
    EXPECT_NE(app.scene.Apply(R"({"mode": "expert"})").find("\"beginner\" or \"advanced\""),
              std::string::npos);
    EXPECT_FALSE(app.view.advanced);
}

TEST_F(Modes, PlayStepsWholePositionsUnlessSmooth) {
    state.pos_a = 3.4;
    state.play_speed = 2.0; // positions per second
    state.playing = true;
    ImGui::GetIO().DeltaTime = 0.2f; // 0.4 positions a frame
    std::vector<double> seen;
    for (int frame = 0; frame < 10; ++frame) {
        Frame();
        seen.push_back(state.pos_a);
        EXPECT_EQ(state.pos_a, std::round(state.pos_a)) << "frame " << frame;
    }
    // 10 frames × 0.4 = 4 positions, from 3 (3.4 rounded): at 7 after the last step.
    EXPECT_EQ(seen.back(), 7.0);
    // Smooth: the fractions in between, 0.4 a frame.
    state.play_smooth = true;
    state.pos_a = 3.0;
    Frame();
    EXPECT_NEAR(state.pos_a, 3.4, 1e-6); // DeltaTime is a float
}

TEST(PositionText, WholePositionsWithoutDecimalsOthersWithTwo) {
    EXPECT_EQ(PositionText(3.0), "3");
    EXPECT_EQ(PositionText(1000000.0), "1000000");
    EXPECT_EQ(PositionText(3.37), "3.37");
    EXPECT_EQ(PositionText(3.375), "3.38");
    EXPECT_EQ(PositionText(0.5), "0.50");
    EXPECT_STREQ(PositionFormat(12.0), "%.0f");
    EXPECT_STREQ(PositionFormat(12.25), "%.2f");
}

// In slides the order panel refuses a sentence of more than 8 words with a message instead of
// matrices too small to read; outside slides it draws them.
TEST_F(Modes, OrderPanelOnASlideTakesEightWords) {
    Lesson lesson;
    ASSERT_EQ(ParseLesson(R"({"title": "t", "steps": [{"caption": "Order.", "present": "order"}]})",
                          app.scene, app.panels, &lesson, LessonStart(app)),
              "");
    StartLesson(app, lesson);
    ASSERT_EQ(app.scene.Apply(R"({"sentence_a": "the dog that the man saw bites the cat"})"), "");
    Present("order");
    EXPECT_FALSE(Drawn("order.scores_a")) << "nine words on a slide";
    ASSERT_EQ(app.scene.Apply(R"({"sentence_a": "the dog that the man saw bites"})"), "");
    Present("order");
    EXPECT_TRUE(Drawn("order.scores_a")) << "seven words";
}

// Beginner mode puts the short reading in place of the paragraphs: the order panel's verdict
// without the word-by-word numbers and the re-ordering check; the clocks' description as a
// "(?)" beside the grid.
TEST_F(Modes, BeginnerShowsTheShortReading) {
    for (const bool is_advanced : {true, false}) {
        app.view.advanced = is_advanced;
        Present("order");
        EXPECT_TRUE(Drawn("order.explanation"));
        EXPECT_EQ(Drawn("order.reordering_check"), is_advanced);
    }
}
