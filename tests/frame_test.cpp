// Headless frame tests: an ImGui context with no window and no GL draws every panel for
// hundreds of frames while AppState sweeps its ranges and synthetic input moves the mouse,
// scrolls and presses keys. Debian's libimgui.a keeps its IM_ASSERTs compiled in only if it
// was built without NDEBUG, so the tests also check their own invariants after every frame.
#include "headless_fixture.h"
#include "pelab/sinusoidal.h"
#include "widgets/widgets.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>

using namespace pelab;

namespace {

class Headless : public HeadlessApp {
protected:
    void PressKey(int key, bool shift = false, bool ctrl = false) {
        Frame({}, {KeyPress{key, shift, ctrl}});
        Frame();
    }
};

} // namespace

TEST_F(Headless, FontAtlasHasGreekAndMathGlyphs) {
    ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
    for (ImWchar c : {0x03C9 /*ω*/, 0x03C0 /*π*/, 0x0394 /*Δ*/, 0x221A /*√*/, 0x2264 /*≤*/,
                      0x2248 /*≈*/, 0x2016 /*‖*/, 0x00B7 /*·*/, 0x00D7 /*×*/, 0x1D40 /*ᵀ*/,
                      0x226B /*≫*/, 0x03BB /*λ*/, 0x2192 /*→*/})
        EXPECT_NE(font->FindGlyphNoFallback(c), nullptr) << "missing glyph U+" << std::hex << c;
}

TEST_F(Headless, EveryPanelSurvivesSweepOfSharedState) {
    const int d_models[] = {2, 4, 6, 16, 128, 512, 1000, 4096};
    const double bases[] = {10, 100, 10000, 123456.7, 1e6};
    for (int frame = 0; frame < 360; ++frame) {
        state.d_model = d_models[frame % 8];
        state.base = bases[(frame / 8) % 5];
        state.pair = (frame * 37) % (state.d_model / 2);
        state.pos_a = (frame % 3 == 0) ? 0.0 : frame * 2777.7;
        state.pos_b = 1e6 - frame;
        app.view.show_about = frame % 50 < 5;
        ImGui::GetIO().MousePos =
            ImVec2(static_cast<float>((frame * 53) % 1280), static_cast<float>((frame * 29) % 800));
        ImGui::GetIO().MouseWheel = (frame % 7 == 0) ? 1.0f : (frame % 11 == 0 ? -2.0f : 0.0f);
        ImGui::GetIO().MouseDown[0] = frame % 13 < 4;
        Frame();
        if (HasFatalFailure()) return;
    }
}

TEST_F(Headless, ArrowKeysMovePositionAndPair) {
    Frame();
    PressKey(262); // Right
    EXPECT_EQ(state.pos_a, 4.0);
    PressKey(262, true); // Shift+Right: +10
    EXPECT_EQ(state.pos_a, 14.0);
    PressKey(263); // Left
    EXPECT_EQ(state.pos_a, 13.0);
    PressKey(265); // Up
    EXPECT_EQ(state.pair, 1);
    PressKey(264); // Down
    PressKey(264); // Down again: clamps at 0
    EXPECT_EQ(state.pair, 0);
}

TEST_F(Headless, SpaceTogglesPlayAndAnimationFollowsTimeNotFrames) {
    Frame();
    PressKey(32);
    ASSERT_TRUE(state.playing);
    state.pos_a = 0;
    state.play_speed = 2.0;
    ImGui::GetIO().DeltaTime = 0.1f;
    for (int k = 0; k < 10; ++k)
        Frame(); // 1 second at 10 fps
    EXPECT_NEAR(state.pos_a, 2.0, 1e-5);
    state.pos_a = 0;
    ImGui::GetIO().DeltaTime = 0.01f;
    for (int k = 0; k < 100; ++k)
        Frame(); // 1 second at 100 fps: same distance
    EXPECT_NEAR(state.pos_a, 2.0, 1e-4);
}

TEST_F(Headless, CtrlQRequestsQuit) {
    Frame();
    PressKey(keys::kQ, false, true);
    EXPECT_TRUE(app.pending.quit);
}

// ImGui 1.86 loses a press and release that fall inside one frame; the queue must not.
TEST_F(Headless, EveryQueuedPressCountsEvenWithinOneFrame) {
    Frame();
    Frame({}, std::vector<KeyPress>(20, KeyPress{keys::kUp, false, false}));
    EXPECT_EQ(state.pair, 20);
    Frame({}, {KeyPress{keys::kRight}, KeyPress{keys::kRight}, KeyPress{keys::kLeft, true}});
    EXPECT_EQ(state.pos_a, 0.0); // 3 + 1 + 1 - 10, clamped at 0
}

TEST_F(Headless, F11AndFontSizeShortcutsChangeState) {
    Frame();
    PressKey(keys::kF11);
    EXPECT_TRUE(app.view.fullscreen);
    PressKey(keys::kEqual, false, true);
    EXPECT_GT(app.view.font_scale, 1.0f);
}

TEST_F(Headless, ClampRepairsOutOfRangeState) {
    state.d_model = 7;
    state.pair = 99;
    state.pos_a = -5;
    state.base = std::nan("");
    state.Clamp();
    EXPECT_EQ(state.d_model, 8);
    EXPECT_EQ(state.pair, 3);
    EXPECT_EQ(state.pos_a, 0.0);
    EXPECT_EQ(state.base, 10000.0);
}

// Render on demand: the first frame after a rest comes seconds after the previous one; Play
// started by that frame's key press must not jump by the whole rest.
TEST_F(Headless, PlayDoesNotJumpAfterARest) {
    Frame();
    state.pos_a = 3;
    ImGui::GetIO().DeltaTime = 7.0f; // seven seconds at rest
    Frame({}, {KeyPress{keys::kSpace}});
    ASSERT_TRUE(state.playing);
    EXPECT_LE(state.pos_a, 3 + state.play_speed * kMaxAnimationStep + 1e-9);
}

// Wrapping breaks at spaces only: numbers like 1.819 or 5.7e-14 are never split across lines
// (ImGui 1.86's own wrap breaks after '.'), and every line fits unless one word alone is wider.
TEST(Wrap, BreaksAtSpacesOnlyAndFits) {
    const std::string text = "the largest difference is 1.819, for \"dog\" attending to \"dog\": "
                             "9.000 in A vs 10.819 in B (difference 5.7e-14)";
    const auto width = [](const std::string& s) { return static_cast<float>(s.size()); };
    for (float limit : {8.0f, 12.0f, 20.0f, 33.0f, 200.0f}) {
        const std::vector<std::string> lines = WrapAtSpaces(text, limit / 2, limit, width);
        std::string joined;
        for (const std::string& line : lines)
            joined += (joined.empty() ? "" : " ") + line;
        EXPECT_EQ(joined, text) << limit; // only spaces were turned into breaks
        for (std::size_t k = 0; k < lines.size(); ++k) {
            const float allowed = k == 0 ? limit / 2 : limit;
            if (lines[k].find(' ') != std::string::npos) {
                EXPECT_LE(width(lines[k]), allowed);
            }
            EXPECT_NE(lines[k].back(), '.') << "a line ends inside a number: " << lines[k];
        }
    }
    EXPECT_EQ(WrapAtSpaces("a\nb c", 100, 100, width), (std::vector<std::string>{"a", "b c"}));
    EXPECT_EQ(WrapAtSpaces("", 10, 10, width), (std::vector<std::string>{""}));
}
