// The PE heatmap panel without a GPU: a recording GpuRenderer stands in for the OpenGL one, so
// the test sees exactly what the panel asks the shader for (the visible window, the size in
// pixels, the layout), and drives hover and click as a person would. The shader's own numbers
// are checked pixel by pixel in tests/e2e/test_render.sh.
#include "headless_fixture.h"
#include "panels/heatmap/panel_heatmap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

using namespace pelab;

namespace {

struct RecordingGpu : GpuRenderer {
    std::vector<HeatmapRequest> requests;
    std::vector<int> slots;
    bool fail = false;
    ImTextureID RenderHeatmap(int slot, const HeatmapRequest& request,
                              std::string* error) override {
        requests.push_back(request);
        slots.push_back(slot);
        if (fail) {
            *error = "shader pe_heatmap.frag did not compile: test";
            return nullptr;
        }
        return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(7 + slot));
    }
};

class Heatmap : public HeadlessApp {
protected:
    void SetUp() override {
        HeadlessApp::SetUp();
        app.gpu = &gpu;
        app.recorder.enabled = true;
        app.view.presented_panel = "heatmap";
        state.d_model = 64;
    }
    HeatmapPanel& Panel() { return Get<HeatmapPanel>("heatmap"); }
    RecordingGpu gpu;
};

} // namespace

TEST_F(Heatmap, AsksTheShaderForTheWholeMatrixAtThePlotsPixelSize) {
    Panel().max_len = 65536;
    state.d_model = 4096;
    Frame();
    Frame();
    ASSERT_FALSE(gpu.requests.empty());
    const HeatmapRequest& r = gpu.requests.back();
    EXPECT_EQ(r.d_model, 4096);
    EXPECT_EQ(r.base, 10000.0);
    EXPECT_FALSE(r.concatenated);
    EXPECT_EQ(r.dim_min, 0.0);
    EXPECT_EQ(r.dim_max, 4096.0);
    EXPECT_EQ(r.pos_min, 0.0);
    EXPECT_EQ(r.pos_max, 65536.0);
    const WidgetRecorder::Placement& plot = app.recorder.layout.at("heatmap.plot");
    // The plot area is the frame minus its axis margins: a few hundred pixels each way here.
    EXPECT_GT(r.width, 600);
    EXPECT_LT(r.width, plot.item.x1 - plot.item.x0 + 1);
    EXPECT_GT(r.height, 400);
    EXPECT_LT(r.height, plot.item.y1 - plot.item.y0 + 1);
}

TEST_F(Heatmap, BothLayoutsAskForTwoPicturesOfOneWindow) {
    Panel().both_layouts = true;
    Frame();
    gpu.requests.clear();
    gpu.slots.clear();
    Frame();
    ASSERT_EQ(gpu.requests.size(), 2u);
    EXPECT_FALSE(gpu.requests[0].concatenated);
    EXPECT_TRUE(gpu.requests[1].concatenated);
    EXPECT_EQ(gpu.slots, (std::vector<int>{0, 1}));
    EXPECT_EQ(gpu.requests[0].pos_max, gpu.requests[1].pos_max);
}

// Hovering a cell and clicking it sets pos A to its row and the pair to its column's pair, in
// either layout (concatenated: column 40 of 64 is the cos of pair 8).
TEST_F(Heatmap, ClickingACellPicksPosAAndThePair) {
    for (const bool concatenated : {false, true}) {
        Panel().concatenated = concatenated;
        Frame();
        Frame();
        const WidgetRecorder::Placement& plot = app.recorder.layout.at("heatmap.plot");
        const HeatmapRequest r = gpu.requests.back();
        // The plot area's right and bottom edges are where the frame's margins begin: find the
        // pixel of (dimension 40.5, position 100.5) from the request's size, which is the area.
        const float area_right = plot.item.x1 - ImGui::GetFontSize() * 0.6f;
        const float area_left = area_right - static_cast<float>(r.width);
        const float area_bottom =
            plot.item.y1 - (ImGui::GetFontSize() * 1.5f + ImGui::GetFontSize() * 1.2f);
        const float area_top = area_bottom - static_cast<float>(r.height);
        const ImVec2 cell(area_left + (40.5f / 64.0f) * (area_right - area_left),
                          area_bottom - (100.5f / 128.0f) * (area_bottom - area_top));
        ClickAt(cell);
        EXPECT_EQ(state.pos_a, 100.0) << concatenated;
        EXPECT_EQ(state.pair, concatenated ? 8 : 20) << concatenated;
        ImGui::GetIO().MousePos = ImVec2(-100, -100);
        Frame();
    }
}

// A shader that does not compile (or no GPU at all) leaves a message in the picture's place;
// every other panel keeps drawing.
TEST_F(Heatmap, AFailedShaderIsSaidAndTheOtherPanelsGoOn) {
    gpu.fail = true;
    Frame();
    EXPECT_NE(Panel().gpu_error.find("did not compile"), std::string::npos);
    app.view.presented_panel.clear();
    for (PanelEntry& entry : app.panels.Entries())
        entry.open = true;
    Frame();
    Frame();
    EXPECT_EQ(app.recorder.layout.count("waves.wave_plot"), 1u);
    app.gpu = nullptr;
    Frame();
    EXPECT_NE(Panel().gpu_error.find("no GPU"), std::string::npos);
}

// The similarity picture asks for PE(p)·PE(q) over max_len × max_len, and a click picks pos A
// (the row p) and pos B (the column q).
TEST_F(Heatmap, SimilarityAsksForPositionsByPositionsAndPicksAAndB) {
    Panel().similarity = true;
    Panel().max_len = 1000;
    Frame();
    Frame();
    ASSERT_FALSE(gpu.requests.empty());
    const HeatmapRequest r = gpu.requests.back();
    EXPECT_EQ(r.picture, HeatmapRequest::Picture::Similarity);
    EXPECT_EQ(r.max_len, 1000);
    EXPECT_EQ(r.dim_max, 1000.0);
    EXPECT_EQ(r.pos_max, 1000.0);
    const WidgetRecorder::Placement& plot = app.recorder.layout.at("heatmap.similarity_plot");
    const float area_right = plot.item.x1 - ImGui::GetFontSize() * 0.6f;
    const float area_left = area_right - static_cast<float>(r.width);
    const float area_bottom =
        plot.item.y1 - (ImGui::GetFontSize() * 1.5f + ImGui::GetFontSize() * 1.2f);
    const float area_top = area_bottom - static_cast<float>(r.height);
    ClickAt(ImVec2(area_left + 0.25f * (area_right - area_left),     // q ≈ 250
                   area_bottom - 0.75f * (area_bottom - area_top))); // p ≈ 750
    EXPECT_NEAR(state.pos_a, 750.0, 2.0);
    EXPECT_NEAR(state.pos_b, 250.0, 2.0);
}

// The heatmaps' diverging map in every theme stays readable for colour-blind viewers: with
// protanopia, deuteranopia and tritanopia simulated (Machado, Oliveira & Fernandes 2009,
// severity 1, applied in linear RGB), −1, 0 and +1 stay far apart (sRGB distance > 100 of 441).
TEST(HeatmapColours, DivergingMapSurvivesColourBlindness) {
    const double simulations[3][3][3] = {{{0.152286, 1.052583, -0.204868},
                                          {0.114503, 0.786281, 0.099216},
                                          {-0.003882, -0.048116, 1.051998}},
                                         {{0.367322, 0.860646, -0.227968},
                                          {0.280085, 0.672501, 0.047413},
                                          {-0.011820, 0.042940, 0.968881}},
                                         {{1.255528, -0.076749, -0.178779},
                                          {-0.078411, 0.930809, 0.147602},
                                          {0.004733, 0.691367, 0.303900}}};
    const auto linear = [](double c) {
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const auto encode = [](double c) {
        c = std::clamp(c, 0.0, 1.0);
        return 255.0 * (c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055);
    };
    for (const ThemeId id : kThemes) {
        const Theme& theme = GetTheme(id);
        for (const auto& m : simulations) {
            std::vector<std::array<double, 3>> seen;
            for (const Role role : {Role::MapNegative, Role::MapMiddle, Role::MapPositive}) {
                const ImVec4 c = theme.ColorVec(role);
                const double rgb[3] = {linear(c.x), linear(c.y), linear(c.z)};
                std::array<double, 3> out{};
                for (int i = 0; i < 3; ++i)
                    out[i] = encode(m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2]);
                seen.push_back(out);
            }
            const auto distance = [](const std::array<double, 3>& a,
                                     const std::array<double, 3>& b) {
                return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                                 (a[2] - b[2]) * (a[2] - b[2]));
            };
            EXPECT_GT(distance(seen[0], seen[2]), 100) << theme.name;
            EXPECT_GT(distance(seen[0], seen[1]), 100) << theme.name;
            EXPECT_GT(distance(seen[1], seen[2]), 100) << theme.name;
        }
    }
}

// One compute path: pos A's cell is computed once per change, the marked columns and the
// readouts show it. At d_model 8, pair 1, pos A 3.7: row 3, ω_1 = 10000^(−1/4) = 0.1, so the
// values are sin(0.3) and cos(0.3); interleaved columns 2 and 3, concatenated 1 and 5.
TEST_F(Heatmap, ComputesPosACellOnceAndReportsIt) {
    state.d_model = 8;
    state.pair = 1;
    state.pos_a = 3.7;
    for (int k = 0; k < 3; ++k)
        Frame();
    const long computed = Panel().result_cache.Computations();
    Frame();
    nlohmann::json r = Panel().Readouts(state);
    EXPECT_EQ(Panel().result_cache.Computations(), computed);
    EXPECT_EQ(r["pos_a_row"], 3);
    EXPECT_EQ(r["sin_column"], 2);
    EXPECT_EQ(r["cos_column"], 3);
    EXPECT_NEAR(r["sin_value"].get<double>(), 0.29552020666133955, 1e-15);
    EXPECT_NEAR(r["cos_value"].get<double>(), 0.955336489125606, 1e-15);
    Panel().concatenated = true;
    r = Panel().Readouts(state);
    EXPECT_EQ(r["sin_column"], 1);
    EXPECT_EQ(r["cos_column"], 5);
    EXPECT_EQ(Panel().result_cache.Computations(), computed) << "a layout is not a new cell";
}
