// The controls drawn from their NumberControl rows (panels/scene_controls.h), driven as a person
// drives them: a click on a slider's ends, Ctrl+click and a typed number, Enter. What they must
// keep: the row's bounds (the shift's slider spans ±100 while a typed shift reaches ±1000), a
// typed position outside [0, 10⁶] refused with a message that names the bounds, an odd d_model
// rounded up with a note, a table cell clamped.
#include "panels/scene_controls.h"
#include "widgets/theme.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

using namespace pelab;

namespace {

constexpr int kEnterKey = 257;     // an index of io.KeysDown for ImGuiKey_Enter (ImGui 1.86)
constexpr float kFrameWidth = 300; // every control's frame here, as wide as drawn below

class SceneControls : public ::testing::Test {
protected:
    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(800, 600);
        io.DeltaTime = 1.0f / 60.0f;
        io.KeyMap[ImGuiKey_Enter] = kEnterKey;
        io.Fonts->AddFontDefault();
        unsigned char* pixels = nullptr;
        int width = 0, height = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
        recorder.enabled = true;
    }
    void TearDown() override { ImGui::DestroyContext(); }

    /// One frame of a window holding what draw draws, on one FlowRow.
    void Frame(const std::function<void(FrameContext&, FlowRow&)>& draw) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
        ImGui::Begin("controls");
        FrameContext frame(state, requests, recorder, stats, GetTheme(ThemeId::Dark));
        FlowRow row;
        recorder.rects.clear();
        draw(frame, row);
        ImGui::End();
        ImGui::Render();
    }
    /// Frames with the mouse at x of the widget's frame (0 its left end, 1 its right end; the
    /// frame is kFrameWidth wide, the label after it): moved there, pressed, released; ctrl held
    /// for a Ctrl+click.
    void ClickAt(const std::function<void(FrameContext&, FlowRow&)>& draw, const char* widget,
                 float x, bool ctrl = false) {
        // Two frames: a window's first lays out before its size settles.
        Frame(draw);
        Frame(draw);
        const WidgetRect rect = recorder.rects.at(widget);
        ImGuiIO& io = ImGui::GetIO();
        const float frame_width = std::min(kFrameWidth, rect.x1 - rect.x0);
        io.MousePos = ImVec2(rect.x0 + frame_width * x, (rect.y0 + rect.y1) / 2);
        io.KeyCtrl = ctrl;
        Frame(draw);
        io.MouseDown[0] = true;
        Frame(draw);
        io.MouseDown[0] = false;
        io.KeyCtrl = false;
        Frame(draw);
    }
    /// Types text into the field being edited (its old text selected, as a click leaves it) and
    /// presses Enter.
    void TypeAndEnter(const std::function<void(FrameContext&, FlowRow&)>& draw,
                      const std::string& text) {
        ImGuiIO& io = ImGui::GetIO();
        for (const char c : text)
            io.AddInputCharacter(static_cast<unsigned>(c));
        Frame(draw);
        io.KeysDown[kEnterKey] = true;
        Frame(draw);
        io.KeysDown[kEnterKey] = false;
        Frame(draw);
        Frame(draw);
    }

    AppState state;
    FrameRequests requests;
    WidgetRecorder recorder;
    FrameStats stats;
};

constexpr NumberControl kShift = Drawn(kShiftK, "k", "test.shift_k");

} // namespace

TEST_F(SceneControls, ShiftSliderSpansHundredWhileTypedShiftsReachTheBounds) {
    int shift = 5;
    const auto draw = [&](FrameContext& frame, FlowRow& row) {
        SceneSlider(frame, row, kShift, &shift, kFrameWidth);
    };
    ClickAt(draw, "test.shift_k", 0.999f);
    EXPECT_EQ(shift, 100); // the slider's end, not the field's 1000
    ClickAt(draw, "test.shift_k", 0.001f);
    EXPECT_EQ(shift, -100);
    // A value past the slider's ends (typed, or from a scene) is kept while drawn ...
    shift = 700;
    Frame(draw);
    EXPECT_EQ(shift, 700);
    // ... and Ctrl+click types one; past the field's bounds it stops at them.
    ClickAt(draw, "test.shift_k", 0.5f, /*ctrl=*/true);
    TypeAndEnter(draw, "-2500");
    EXPECT_EQ(shift, -kUiMaxShift);
    ClickAt(draw, "test.shift_k", 0.5f, /*ctrl=*/true);
    TypeAndEnter(draw, "640");
    EXPECT_EQ(shift, 640);
}

TEST_F(SceneControls, OddDModelTypedIsRoundedUpAndTheNoteSaysSo) {
    std::string note;
    const NumberControl control = Drawn(kDModel, "d_model", "test.d_model");
    const auto draw = [&](FrameContext& frame, FlowRow& row) {
        DModelSlider(frame, row, control, kFrameWidth, &note);
    };
    ClickAt(draw, "test.d_model", 0.5f, /*ctrl=*/true);
    TypeAndEnter(draw, "7");
    EXPECT_EQ(state.d_model, 8);
    EXPECT_NE(note.find("7 was rounded to 8"), std::string::npos) << note;
    ClickAt(draw, "test.d_model", 0.5f, /*ctrl=*/true);
    TypeAndEnter(draw, "64");
    EXPECT_EQ(state.d_model, 64);
    EXPECT_EQ(note, "");
    // The largest odd value typed past the top stops at the top, which is even.
    ClickAt(draw, "test.d_model", 0.5f, /*ctrl=*/true);
    TypeAndEnter(draw, "99999");
    EXPECT_EQ(state.d_model, kUiMaxDModel);
}

TEST_F(SceneControls, TypedPositionOutsideTheBoundsIsRefusedNamingThem) {
    double position = 3;
    std::string note;
    const NumberControl control = Drawn(kPosA, "pos A##entry", "test.pos_a");
    const auto draw = [&](FrameContext& frame, FlowRow& row) {
        SceneEntry(frame, row, control, &position, kFrameWidth, "pos A", &note);
    };
    ClickAt(draw, "test.pos_a", 0.5f);
    TypeAndEnter(draw, "2000000");
    EXPECT_EQ(position, 3);
    EXPECT_EQ(note, "pos A must be a number in [0, 1000000] (got 2000000); kept 3.");
    ClickAt(draw, "test.pos_a", 0.5f);
    TypeAndEnter(draw, "12.5");
    EXPECT_EQ(position, 12.5);
    EXPECT_EQ(note, "");
}

TEST_F(SceneControls, PositionSliderSetsWholePositionsUpToItsMost) {
    double position = 3.5;
    const NumberControl control = Drawn(kPosA, "##slider", "test.pos_slider");
    const auto draw = [&](FrameContext& frame, FlowRow& row) {
        ScenePositionSlider(frame, row, control, &position, kFrameWidth, 1000);
    };
    Frame(draw);
    EXPECT_EQ(position, 3.5); // drawn, not moved: unchanged
    ClickAt(draw, "test.pos_slider", 0.999f);
    EXPECT_EQ(position, 1000);
    // A position past the slider's end is kept until the slider is moved.
    position = 250000;
    Frame(draw);
    EXPECT_EQ(position, 250000);
}

TEST_F(SceneControls, CellsAndBoxesKeepTheRowsBounds) {
    constexpr NumberControl cell{"cell",   "a cell", -100,  100,     0,
                                 "##cell", "%.3f",   false, nullptr, "test.cell"};
    double value = 1;
    const auto draw_cell = [&](FrameContext& frame, FlowRow&) {
        SceneCell(cell, &value);
        frame.Record("test.cell");
    };
    ClickAt(draw_cell, "test.cell", 0.5f);
    TypeAndEnter(draw_cell, "250");
    EXPECT_EQ(value, 100);
    // A whole-number box within the row and the frame's most (a dimension of d_model 64).
    constexpr NumberControl box{"box",   "a dimension", 0,     4095,    0,
                                "##box", "%d",          false, nullptr, "test.box"};
    int dim = 4000;
    Frame([&](FrameContext& frame, FlowRow& row) { SceneInput(frame, row, box, &dim, 100, 63); });
    EXPECT_EQ(dim, 63);
    // A range keeps first ≤ last inside the most.
    int first = 70, last = 3000;
    Frame([&](FrameContext& frame, FlowRow& row) {
        SceneRange(frame, row, box, box, &first, &last, 200, 63);
    });
    EXPECT_EQ(first, 63);
    EXPECT_EQ(last, 63);
    // A float slider given NaN (a hand-edited scene cannot, but a bug could) keeps a number.
    constexpr NumberControl size{"size", "a size", 0.6,   2.5,     1,
                                 "size", "%.1f",   false, nullptr, "test.size"};
    float scale = 7.0f;
    Frame([&](FrameContext& frame, FlowRow& row) { SceneSlider(frame, row, size, &scale, 100); });
    EXPECT_FLOAT_EQ(scale, 2.5f);
}

TEST(ControlWidgetNames, TheLabelShownNamesTheWidgetAndIdsAreLeftOut) {
    EXPECT_EQ(ControlWidget(kShift).what, "the k slider: the shift k of both positions");
    EXPECT_EQ(ControlWidget(Drawn(kPosA, "##slider", "w")).what, "the slider: position A");
    EXPECT_EQ(ControlWidget(Drawn(kPosB, "pos B##input", "w"), "box").what,
              "the pos B box: position B");
    // Drawn keeps the field and bounds and replaces the hover text only when given one.
    constexpr NumberControl tipped = Drawn(kShiftK, "k", "w", "the shift");
    EXPECT_STREQ(tipped.field, "shift_k");
    EXPECT_EQ(tipped.max, kUiMaxShift);
    EXPECT_STREQ(tipped.tooltip, "the shift");
    EXPECT_EQ(Drawn(tipped, "k", "w2").tooltip, tipped.tooltip);
}
