// A headless PE Lab for tests: an ImGui context with fonts and no window, the App (shared state,
// view settings, every registered panel, the scene table), and one call that runs a whole frame
// as the window's loop does.
#pragma once

#include "model_fixtures.h"
#include "shell/app.h"
#include "shell/app_ui.h"
#include "widgets/fonts.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

class HeadlessApp : public ::testing::Test {
protected:
    /// display_size: the window's; record: the widget recorder on from the start (tests that
    /// look at where widgets are, or click them).
    explicit HeadlessApp(ImVec2 display_size = ImVec2(1280, 800), bool record = false)
        : display_size_(display_size), record_(record) {}

    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = display_size_;
        io.DeltaTime = 1.0f / 60.0f;
        // As the OpenGL 3 renderer does: draw lists past 65 536 vertices (4K windows full of
        // clock faces) are split with VtxOffset instead of overflowing 16-bit indices.
        io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
        pelab::BuildFonts(fonts, pelab::kBaseFontPixels);
        app.recorder.enabled = record_;
        // The tests lay out the panels they open themselves: the window's first-frame fitting
        // of the home view (closing tiles too small for their pictures) is tested on its own
        // (room_test.cpp).
        app.home_fit.done = true;
    }
    void TearDown() override {
        if (!model_fixture_.empty()) std::filesystem::remove_all(model_fixture_);
        if (!llama_fixture_.empty()) std::filesystem::remove_all(llama_fixture_);
        ImGui::DestroyContext();
    }

    /// Opens the whole GPT-2 fixture (model_fixtures.h) in the Your model panel, as a lesson with
    /// needs_model asks for: written to a folder of this test's, removed in TearDown.
    void OpenGpt2Fixture() {
        if (model_fixture_.empty()) {
            model_fixture_ = std::filesystem::temp_directory_path() /
                             ("pelab-gpt2-fixture-" + std::to_string(::getpid()));
            pelab_test::WriteGpt2RunFixture(model_fixture_);
        }
        ASSERT_EQ(app.OpenModel(model_fixture_.string(), true), "");
    }
    /// The fixture a lesson's needs_model asks for: GPT-2's when it names gpt2, else the whole
    /// Llama (a rotary family the pass runs).
    void OpenLessonFixture(const std::vector<std::string>& families) {
        if (std::find(families.begin(), families.end(), "gpt2") != families.end()) {
            OpenGpt2Fixture();
            return;
        }
        if (llama_fixture_.empty()) {
            llama_fixture_ = std::filesystem::temp_directory_path() /
                             ("pelab-llama-fixture-" + std::to_string(::getpid()));
            pelab_test::WriteLlamaRunFixture(llama_fixture_);
        }
        ASSERT_EQ(app.OpenModel(llama_fixture_.string(), true), "");
    }

    // One whole frame, the window's own (RunFrame), then the invariants AppState promises.
    void Frame(const pelab::FrameOptions& options = {},
               const std::vector<pelab::KeyPress>& presses = {}) {
        pelab::FrameInput input;
        input.keys = presses;
        input.delta_seconds = ImGui::GetIO().DeltaTime;
        pelab::RunFrame(app, options, input);
        ASSERT_NE(ImGui::GetDrawData(), nullptr);
        ASSERT_TRUE(ImGui::GetDrawData()->Valid);
        ASSERT_EQ(state.d_model % 2, 0);
        ASSERT_GE(state.d_model, 2);
        ASSERT_LE(state.d_model, pelab::kUiMaxDModel);
        ASSERT_GE(state.pair, 0);
        ASSERT_LT(state.pair, state.d_model / 2);
        ASSERT_TRUE(std::isfinite(state.pos_a));
        ASSERT_GE(state.pos_a, 0.0);
        ASSERT_GE(state.base, pelab::kUiMinBase);
    }

    // The registered panel with this id, as its own type.
    template <typename PanelType> PanelType& Get(const std::string& id) {
        pelab::PanelEntry* entry = app.panels.Find(id);
        EXPECT_NE(entry, nullptr) << id;
        return dynamic_cast<PanelType&>(*entry->panel);
    }

    // Presents one panel (filling the window) with the widget recorder on, over `frames` frames
    // (sizes and scrollbars settle); each frame records the widgets' places afresh.
    void Present(const std::string& id, int frames = 3) {
        app.view.presented_panel = id;
        app.recorder.enabled = true;
        for (int frame = 0; frame < frames; ++frame) {
            app.recorder.layout.clear();
            Frame();
        }
    }

    // A key pressed (with Shift, Ctrl) in one frame, as the platform hands it over.
    void Press(int key, bool shift = false, bool ctrl = false) {
        Frame({}, {pelab::KeyPress{key, shift, ctrl}});
    }

    // A left click at a point, over three frames (move, press, release), as a person clicks.
    void ClickAt(ImVec2 at) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        Frame();
        io.MouseDown[0] = true;
        Frame();
        io.MouseDown[0] = false;
        Frame();
    }
    // The same in the middle of a widget the recorder saw (it must be on screen).
    void Click(const std::string& name) {
        const pelab::WidgetRect rect = app.recorder.rects.at(name);
        ClickAt(ImVec2((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2));
    }

    // The ImGui window of a registered panel.
    ImGuiWindow* WindowOf(const std::string& id) {
        return ImGui::FindWindowByName(app.panels.Find(id)->window_name.c_str());
    }

    pelab::FontSet fonts;
    pelab::App app;
    pelab::AppState& state = app.state;

private:
    std::filesystem::path model_fixture_, llama_fixture_; // the GPT-2 and the Llama fixture
    ImVec2 display_size_;
    bool record_;
};
