// A headless PE Lab for tests: an ImGui context with fonts and no window, the shared AppState
// and the panels, and one call that runs a whole frame as the window's loop does.
#pragma once

#include "app_state.h"
#include "app_ui.h"
#include "fonts.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <vector>

class HeadlessApp : public ::testing::Test {
protected:
    explicit HeadlessApp(ImVec2 display_size = ImVec2(1280, 800)) : display_size_(display_size) {}

    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = display_size_;
        io.DeltaTime = 1.0f / 60.0f;
        pelab::BuildFonts(fonts, pelab::kBaseFontPixels);
    }
    void TearDown() override { ImGui::DestroyContext(); }

    // One whole frame, then the invariants AppState promises.
    void Frame(const pelab::FrameOptions& options = {},
               const std::vector<pelab::KeyPress>& presses = {}) {
        ImGui::NewFrame();
        pelab::HandleShortcuts(state, presses);
        pelab::DrawFrame(state, panels, options, ImGui::GetIO().DeltaTime);
        ImGui::Render();
        ASSERT_NE(ImGui::GetDrawData(), nullptr);
        ASSERT_TRUE(ImGui::GetDrawData()->Valid);
        ASSERT_EQ(state.d_model % 2, 0);
        ASSERT_GE(state.d_model, 2);
        ASSERT_LE(state.d_model, pelab::kUiMaxDModel);
        ASSERT_GE(state.pair, 0);
        ASSERT_LT(state.pair, state.d_model / 2);
        ASSERT_EQ(state.order_d_model % 2, 0);
        ASSERT_TRUE(std::isfinite(state.pos_a));
        ASSERT_GE(state.pos_a, 0.0);
        ASSERT_GE(state.base, pelab::kUiMinBase);
    }

    pelab::FontSet fonts;
    pelab::AppState state;
    pelab::Panels panels;

private:
    ImVec2 display_size_;
};
