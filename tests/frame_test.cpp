// Headless frame tests: an ImGui context with no window and no GL draws every panel for
// hundreds of frames while AppState sweeps its ranges and synthetic input moves the mouse,
// scrolls and presses keys. Debian's libimgui.a keeps its IM_ASSERTs compiled in only if it
// was built without NDEBUG, so the tests also check their own invariants after every frame.
#include "headless_fixture.h"
#include "pelab/encodings/sinusoidal.h"
#include "shell/step_fit.h"
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
    // A path wider than a line breaks after its slashes, each piece as long as fits.
    EXPECT_EQ(WrapAtSpaces("at /home/me/.lmstudio/models/x.gguf", 12, 12, width),
              (std::vector<std::string>{"at", "/home/me/", ".lmstudio/", "models/", "x.gguf"}));
    EXPECT_EQ(WrapAtSpaces("/a/b/c", 4, 4, width), (std::vector<std::string>{"/a/", "b/c"}));
    EXPECT_EQ(WrapAtSpaces("1.819e-14/2", 4, 4, width), (std::vector<std::string>{"1.819e-14/2"}));
}

TEST(Wrap, ElideMiddleKeepsBothEnds) {
    const auto width = [](const std::string& s) { return static_cast<float>(s.size()); };
    EXPECT_EQ(ElideMiddle("short.gguf", 20, width), "short.gguf");
    const std::string name = "Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf";
    const std::string shown = ElideMiddle(name, 20, width);
    EXPECT_LE(width(shown), 20.0f);
    EXPECT_EQ(shown.substr(0, 4), "Qwen");
    EXPECT_EQ(shown.substr(shown.size() - 5), ".gguf");
    EXPECT_NE(shown.find("…"), std::string::npos);
    // Whole UTF-8 characters only: "é" (2 bytes) is never cut in half.
    const std::string accents = "ééééééééééééé";
    const std::string cut = ElideMiddle(accents, 12, width);
    EXPECT_LE(width(cut), 12.0f);
    for (std::size_t k = 0; k + 1 < cut.size(); ++k)
        if (static_cast<unsigned char>(cut[k]) == 0xC3) {
            EXPECT_EQ(static_cast<unsigned char>(cut[k + 1]), 0xA9);
        }
    EXPECT_EQ(ElideMiddle("abcdef", 0, width), "…");
}

// The numbers a caption quotes, and how near a number on screen must be to be the one quoted.
// Expected values written out by hand from the captions.
TEST(QuotedNumbers, StandAloneNumbersWithTheirWrittenPrecision) {
    const std::vector<pelab::QuotedNumber> numbers = pelab::QuotedNumbers(
        "Pair 10 turns 10000^(−20/512) ≈ 0.70: one wave every 9 positions, about 60 600 in all; "
        "2π, ω_i, a 10-word text, 4× the length and −0.5 or -3.");
    std::vector<std::string> texts;
    for (const auto& number : numbers)
        texts.push_back(number.text);
    EXPECT_EQ(texts, (std::vector<std::string>{"10", "0.70", "9", "60 600", "−0.5", "-3"}));
    ASSERT_EQ(numbers.size(), 6u);
    EXPECT_DOUBLE_EQ(numbers[1].value, 0.70);
    EXPECT_DOUBLE_EQ(numbers[1].tolerance, 0.005);
    EXPECT_DOUBLE_EQ(numbers[2].tolerance, 0.5);
    EXPECT_DOUBLE_EQ(numbers[3].value, 60600);
    EXPECT_DOUBLE_EQ(numbers[3].tolerance, 50);
    EXPECT_DOUBLE_EQ(numbers[4].value, -0.5);
    EXPECT_DOUBLE_EQ(numbers[5].value, -3);
    EXPECT_TRUE(pelab::QuotedNumbers("").empty());
    EXPECT_TRUE(pelab::QuotedNumbers("no numbers here.").empty());
}

TEST(QuotedNumbers, AReadoutHoldsTheNumberWithinHalfItsLastDigit) {
    const auto quoted = [](const char* text) { return pelab::QuotedNumbers(text).at(0); };
    // ω_10 at d 512: 10000^(−20/512) = 0.697831 (Python: 10000 ** (-20 / 512)).
    const nlohmann::json readouts = {{"waves", {{"omega", 0.697831}, {"wavelength", 9.00397}}},
                                     {"verdict", "sinusoidal (0.917) learned it"}};
    EXPECT_TRUE(pelab::HoldsNumber(readouts, quoted("≈ 0.70")));
    EXPECT_TRUE(pelab::HoldsNumber(readouts, quoted("0.698")));
    EXPECT_TRUE(pelab::HoldsNumber(readouts, quoted("0.6978")));
    EXPECT_FALSE(pelab::HoldsNumber(readouts, quoted("0.6979"))); // 0.697831 rounds to 0.6978
    EXPECT_TRUE(pelab::HoldsNumber(readouts, quoted("every 9 positions")));
    EXPECT_FALSE(pelab::HoldsNumber(readouts, quoted("every 9.1 positions")));
    EXPECT_TRUE(pelab::HoldsNumber(readouts, quoted("reaches 0.92"))); // in a sentence
    EXPECT_FALSE(pelab::HoldsNumber(readouts, quoted("reaches 0.93")));
    EXPECT_FALSE(pelab::HoldsNumber(nlohmann::json::object(), quoted("1")));
}

// --widget-rects: [x0, y0, x1, y1, visible], the visible share of the whole widget.
TEST(WidgetRects, TheFifthNumberIsTheShareInView) {
    EXPECT_FLOAT_EQ(pelab::VisibleFraction({0, 0, 100, 40}, {0, 0, 100, 40}), 1.0f);
    EXPECT_FLOAT_EQ(pelab::VisibleFraction({0, 0, 100, 40}, {0, 10, 100, 40}), 0.75f);
    EXPECT_FLOAT_EQ(pelab::VisibleFraction({0, 0, 100, 40}, {50, 30, 40, 20}), 0.0f);
    EXPECT_FLOAT_EQ(pelab::VisibleFraction({5, 5, 5, 5}, {5, 5, 5, 5}), 1.0f); // nothing hidden
    pelab::WidgetRect half{10.04f, 20.0f, 110.0f, 40.0f};
    half.visible = 0.5f;
    const nlohmann::json rects = pelab::WidgetRectsJson({{"a\"b", half}});
    EXPECT_EQ(rects.dump(), R"({"a\"b":[10.0,20.0,110.0,40.0,0.5]})");
}

class RecorderFrame : public HeadlessApp {};

// A widget taller than the window it is drawn in reports the share of it in view: the window's
// inside (its clip rectangle) over the widget's whole height.
TEST_F(RecorderFrame, APartlyHiddenWidgetReportsItsShareInView) {
    pelab::WidgetRecorder recorder;
    recorder.enabled = true;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(300, 200));
    ImGui::Begin("share", nullptr, ImGuiWindowFlags_NoDecoration);
    ImGui::Button("small", ImVec2(100, 40));
    recorder.RecordLastItem("small");
    ImGui::Button("tall", ImVec2(100, 400));
    recorder.RecordLastItem("tall");
    const ImRect clip = ImGui::GetCurrentWindow()->ClipRect;
    const ImVec2 tall_min = ImGui::GetItemRectMin();
    ImGui::End();
    ImGui::Render();
    ASSERT_EQ(recorder.rects.count("small"), 1u);
    EXPECT_FLOAT_EQ(recorder.rects["small"].visible, 1.0f);
    ASSERT_EQ(recorder.rects.count("tall"), 1u);
    const pelab::WidgetRect& tall = recorder.rects["tall"];
    EXPECT_FLOAT_EQ(tall.y1, clip.Max.y);
    EXPECT_NEAR(tall.visible, (clip.Max.y - tall_min.y) / 400.0f, 1e-5f);
    EXPECT_LT(tall.visible, 0.5f);
}
