// Regression tests for the plot helper's zoom and pan bounds (reliability issue: turning the
// wheel ~30 notches down over the ω spectrum drove its log axis to 0, log10 to −inf, and the
// tick loop to ~2³¹ iterations: a hang, then std::bad_alloc). Every view must stay finite and
// meaningful however many notches arrive, and tick generation must bound its own work.
#include "headless_fixture.h"
#include "panels/waves/panel_waves.h"
#include "shell/step_fit.h"
#include "widgets/plot.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

using namespace pelab;

namespace {

bool FiniteIncreasing(const plot::Range& r) {
    return std::isfinite(r.min) && std::isfinite(r.max) && r.max > r.min;
}

class PlotZoom : public HeadlessApp {
protected:
    PlotZoom() : HeadlessApp(ImVec2(1280, 800)) {}
    WavesPanel& Waves() { return Get<WavesPanel>("waves"); }

    // Centre of a recorded widget, after a frame or two of layout.
    ImVec2 CentreOf(const std::string& name) {
        app.recorder.enabled = true;
        Frame();
        Frame();
        EXPECT_TRUE(app.recorder.rects.count(name)) << name;
        const WidgetRect& r = app.recorder.rects[name];
        return ImVec2(0.5f * (r.x0 + r.x1), 0.5f * (r.y0 + r.y1));
    }

    // notches wheel notches (sign = direction) over the point, `per_frame` at a time, with Ctrl
    // held (the zoom's modifier).
    void Wheel(ImVec2 at, int notches, int per_frame) {
        ImGuiIO& io = ImGui::GetIO();
        const int frames = std::abs(notches) / per_frame;
        io.KeyCtrl = true;
        for (int k = 0; k < frames; ++k) {
            io.MousePos = at;
            io.MouseWheel = static_cast<float>(notches > 0 ? per_frame : -per_frame);
            Frame();
            if (HasFatalFailure()) return;
            ASSERT_TRUE(FiniteIncreasing(Waves().spectrum_view.x));
            ASSERT_TRUE(FiniteIncreasing(Waves().spectrum_view.y));
            ASSERT_GT(Waves().spectrum_view.y.min, 0.0); // a log axis stays positive
            ASSERT_TRUE(FiniteIncreasing(Waves().wave_view.x));
        }
        io.MouseWheel = 0;
        io.KeyCtrl = false;
    }
};

} // namespace

// The defect as reported: waves presented, wheel down over the spectrum, thousands of notches.
TEST_F(PlotZoom, SpectrumSurvivesThousandsOfNotchesBothWays) {
    app.view.presented_panel = "waves";
    const ImVec2 spectrum = CentreOf("waves.spectrum");
    const auto start = std::chrono::steady_clock::now();
    Wheel(spectrum, -3000, 5);
    // Zoomed out as far as it goes: the log axis spans at most kMaxZoomOut home spans.
    const plot::Range home = Waves().spectrum_view.home_y;
    const double decades =
        std::log10(Waves().spectrum_view.y.max) - std::log10(Waves().spectrum_view.y.min);
    const double home_decades = std::log10(home.max) - std::log10(home.min);
    EXPECT_GT(decades, home_decades * 1.5); // the wheel did reach the plot
    // …and stopped at the spectrum's limits.
    EXPECT_GE(Waves().spectrum_view.y.min, kSpectrumMinOmega * (1 - 1e-9));
    EXPECT_LE(Waves().spectrum_view.y.max, kSpectrumMaxOmega * (1 + 1e-9));
    Wheel(spectrum, 3000, 5);
    Wheel(spectrum, -2000, 1000); // a single huge wheel event
    Wheel(spectrum, 2000, 1000);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // 1 200 frames; a tick loop gone wild took minutes and gigabytes.
    EXPECT_LT(seconds, 60.0);
}

TEST_F(PlotZoom, WavePlotsSurviveThousandsOfNotchesBothWays) {
    app.view.presented_panel = "waves";
    Wheel(CentreOf("waves.wave_plot"), -3000, 5);
    // Zoomed out: the position axis stops at its limits [0, 1e6].
    EXPECT_GE(Waves().wave_view.x.min, 0.0);
    EXPECT_LE(Waves().wave_view.x.max, kUiMaxPosition);
    EXPECT_GT(Waves().wave_view.x.Size(), 1e5); // the wheel did reach the plot
    Wheel(CentreOf("waves.wave_plot"), 3000, 5);
    EXPECT_GT(Waves().wave_view.x.Size(), 0.0);
    Waves().many_waves = true;
    const ImVec2 lanes = CentreOf("waves.many_waves_plot");
    Wheel(lanes, -3000, 5);
    Wheel(lanes, 3000, 5);
}

// The plain wheel over a plot scrolls the page, never the plot: on the projector (1024×768,
// text ×2) the Train panel scrolls to its verdict with the mouse over the loss plot, and the
// plot keeps its range. The first plain wheel says how to zoom, for three seconds.
TEST_F(PlotZoom, ThePlainWheelScrollsThePageAndCtrlWheelZooms) {
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    app.view.presented_panel = "waves";
    const ImVec2 wave = CentreOf("waves.wave_plot");
    const plot::Range home = Waves().wave_view.x;
    // Ctrl + wheel zooms (the page stays where it is).
    Wheel(wave, 5, 1);
    EXPECT_LT(Waves().wave_view.x.Size(), home.Size());
    EXPECT_FALSE(Waves().wave_view.WheelHintShown());
    Waves().wave_view.Reset();
    ImGuiIO& io = ImGui::GetIO();
    ImGuiWindow* window = WindowOf("waves");
    ASSERT_NE(window, nullptr);
    const auto scroll = [&] {
        float total = 0;
        for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
            if (w->RootWindow == window) total += w->Scroll.y;
        return total;
    };
    const float before = scroll();
    // One notch of the wheel alone: the page scrolls, the plot keeps its range, and the hint
    // says how to zoom while the mouse stays over the plot.
    io.MousePos = wave;
    io.MouseWheel = -1.0f;
    Frame();
    io.MouseWheel = 0;
    EXPECT_EQ(Waves().wave_view.x.min, home.min);
    EXPECT_EQ(Waves().wave_view.x.max, home.max);
    EXPECT_TRUE(Waves().wave_view.WheelHintShown());
    for (int k = 0; k < 4; ++k) {
        io.MouseWheel = -1.0f;
        Frame();
    }
    io.MouseWheel = 0;
    Frame();
    EXPECT_EQ(Waves().wave_view.x.min, home.min);
    EXPECT_EQ(Waves().wave_view.x.max, home.max);
    EXPECT_GT(scroll(), before) << "the page did not scroll under the wheel";
    // Three seconds later the hint has gone, and the wheel does not bring it back.
    io.DeltaTime = 1.0f;
    for (int k = 0; k < 4; ++k)
        Frame();
    io.DeltaTime = 1.0f / 60.0f;
    EXPECT_FALSE(Waves().wave_view.WheelHintShown());
    io.MousePos = CentreOf("waves.wave_plot");
    io.MouseWheel = 1.0f;
    Frame();
    io.MouseWheel = 0;
    EXPECT_FALSE(Waves().wave_view.WheelHintShown());
}

TEST(PlotBounds, ClampViewRepairsDegenerateRanges) {
    const plot::Range home{1e-4, 2.0}, limits{-1e300, 1e300};
    plot::Range underflowed{0.0, 3.0}; // what ~30 notches did to the spectrum's lower bound
    plot::ClampView(underflowed, home, limits, true);
    EXPECT_DOUBLE_EQ(underflowed.min, home.min);
    EXPECT_DOUBLE_EQ(underflowed.max, home.max);
    plot::Range nan_range{std::nan(""), 1.0};
    plot::ClampView(nan_range, home, limits, false);
    EXPECT_TRUE(FiniteIncreasing(nan_range));
    plot::Range inverted{5.0, 1.0};
    plot::ClampView(inverted, home, limits, false);
    EXPECT_TRUE(FiniteIncreasing(inverted));
    // Zoomed in to nothing: widened to a span a pixel can still resolve.
    plot::Range point{7.0, 7.0 + 1e-13};
    plot::ClampView(point, plot::Range{0, 64}, limits, false);
    EXPECT_GE(point.Size(), 64 * plot::kMaxZoomIn * 0.999);
    EXPECT_NEAR(0.5 * (point.min + point.max), 7.0, 1e-6);
    // Panned past a limit: shifted back inside, span kept.
    plot::Range past{-10.0, 30.0};
    plot::ClampView(past, plot::Range{0, 64}, plot::Range{0, 100}, false);
    EXPECT_DOUBLE_EQ(past.min, 0.0);
    EXPECT_DOUBLE_EQ(past.max, 40.0);
}

TEST(PlotBounds, TickGeneratorsBoundTheirWork) {
    EXPECT_LE(plot::LogTicks(plot::Range{1e-300, 1e300}, 8).size(), 9u);
    EXPECT_TRUE(plot::LogTicks(plot::Range{0.0, 1.0}, 8).empty()); // log10(0) = −inf
    EXPECT_TRUE(plot::LogTicks(plot::Range{-1.0, 1.0}, 8).empty());
    EXPECT_EQ(plot::LogTicks(plot::Range{0.5, 2000.0}, 10),
              (std::vector<double>{1, 10, 100, 1000}));
    EXPECT_LE(plot::NiceTicks(plot::Range{-1e300, 1e300}, 10).size(), 64u);
    // A step too small to advance the value (1e16 + 1 == 1e16): no endless repeats.
    EXPECT_LE(plot::NiceTicks(plot::Range{1e16, 1e16 + 2}, 10).size(), 64u);
    EXPECT_TRUE(plot::NiceTicks(plot::Range{0.0, INFINITY}, 10).empty());
}

// Image items land exactly on their data bounds; bars reach from 0 to their value.
TEST_F(PlotZoom, ImageAndBarsSitOnTheirDataBounds) {
    ImGui::NewFrame();
    ImGui::SetNextWindowSize(ImVec2(700, 500));
    ImGui::Begin("items");
    plot::PlotView view;
    view.SetHome(plot::Range{0, 10}, plot::Range{-1, 1});
    plot::Plot p;
    ASSERT_TRUE(p.Begin("##items", view, ImVec2(600, 400), plot::PlotConfig{}));
    ImDrawList* draw = p.DrawList();
    const ImTextureID texture = reinterpret_cast<ImTextureID>(static_cast<intptr_t>(42));
    p.Image(texture, plot::Range{2, 4}, plot::Range{-0.5, 0.5});
    ASSERT_GE(draw->VtxBuffer.Size, 4);
    const ImDrawVert* quad = &draw->VtxBuffer[draw->VtxBuffer.Size - 4];
    const ImVec2 top_left = p.ToPixels(2, 0.5), bottom_right = p.ToPixels(4, -0.5);
    EXPECT_FLOAT_EQ(quad[0].pos.x, top_left.x);
    EXPECT_FLOAT_EQ(quad[0].pos.y, top_left.y);
    EXPECT_FLOAT_EQ(quad[2].pos.x, bottom_right.x);
    EXPECT_FLOAT_EQ(quad[2].pos.y, bottom_right.y);
    bool uses_texture = false;
    for (const ImDrawCmd& command : draw->CmdBuffer)
        uses_texture = uses_texture || command.TextureId == texture;
    EXPECT_TRUE(uses_texture);
    const double xs[] = {5}, ys[] = {-0.75};
    p.Bars("share", xs, ys, 1, 1.0, IM_COL32_WHITE);
    const ImDrawVert* bar = &draw->VtxBuffer[draw->VtxBuffer.Size - 4];
    EXPECT_FLOAT_EQ(bar[0].pos.y, p.ToPixels(5, 0).y);     // from 0 …
    EXPECT_FLOAT_EQ(bar[2].pos.y, p.ToPixels(5, -0.75).y); // … down to the value
    EXPECT_FLOAT_EQ(bar[2].pos.x - bar[0].pos.x, p.ToPixels(5.5, 0).x - p.ToPixels(4.5, 0).x);
    p.End();
    ImGui::End();
    ImGui::Render();
}

// A jagged curve (up and down within a few pixels, as q·k over 2 048 distances) is drawn whole:
// ImGui's polyline folded each steep segment between two sharp turns to zero width, and the
// curve showed in fragments (issue 59, item 9). The midpoint of every segment, and points beside
// it across the segment, must lie inside triangles of the line's opaque colour.
TEST_F(PlotZoom, AJaggedCurveIsDrawnWhole) {
    ImGui::NewFrame();
    ImGui::SetNextWindowSize(ImVec2(700, 500));
    ImGui::Begin("jagged");
    plot::PlotView view;
    view.SetHome(plot::Range{0, 400}, plot::Range{-1.2, 1.2});
    view.Reset();
    plot::Plot p;
    ASSERT_TRUE(p.Begin("##jagged", view, ImVec2(600, 400), plot::PlotConfig{}));
    std::vector<double> xs, ys;
    for (int k = 0; k <= 400; ++k) {
        xs.push_back(k);
        ys.push_back(k % 2 == 0 ? 1.0 : -1.0); // 1.5 px apart, 330 px up or down
    }
    ImDrawList* draw = p.DrawList();
    const int first_index = draw->IdxBuffer.Size;
    const ImU32 colour = IM_COL32(200, 40, 40, 255);
    p.Line("jagged", xs.data(), ys.data(), static_cast<int>(xs.size()), colour, 1.5f);
    // The triangles of the opaque core (all three vertices at the line's colour).
    const auto inside = [](ImVec2 a, ImVec2 b, ImVec2 c, ImVec2 q) {
        const auto edge = [](ImVec2 u, ImVec2 v, ImVec2 w) {
            return (v.x - u.x) * (w.y - u.y) - (v.y - u.y) * (w.x - u.x);
        };
        const float e0 = edge(a, b, q), e1 = edge(b, c, q), e2 = edge(c, a, q);
        return (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
    };
    int covered = 0;
    for (std::size_t k = 0; k + 1 < xs.size(); ++k) {
        const ImVec2 a = p.ToPixels(xs[k], ys[k]), b = p.ToPixels(xs[k + 1], ys[k + 1]);
        const ImVec2 mid((a.x + b.x) / 2, (a.y + b.y) / 2);
        // Points 0.2 px to each side across it too (ImGui's opaque core of a 1.5 px line is
        // 0.5 px wide, with a fading pixel on each side).
        const float length = std::hypot(b.x - a.x, b.y - a.y);
        const ImVec2 normal(-(b.y - a.y) / length * 0.2f, (b.x - a.x) / length * 0.2f);
        bool whole = true;
        for (const float side : {-1.0f, 0.0f, 1.0f}) {
            const ImVec2 q(mid.x + side * normal.x, mid.y + side * normal.y);
            bool hit = false;
            for (int i = first_index; i + 2 < draw->IdxBuffer.Size && !hit; i += 3) {
                const ImDrawVert& u = draw->VtxBuffer[draw->IdxBuffer[i]];
                const ImDrawVert& v = draw->VtxBuffer[draw->IdxBuffer[i + 1]];
                const ImDrawVert& w = draw->VtxBuffer[draw->IdxBuffer[i + 2]];
                if (u.col != colour || v.col != colour || w.col != colour) continue;
                hit = inside(u.pos, v.pos, w.pos, q);
            }
            whole = whole && hit;
        }
        covered += whole ? 1 : 0;
    }
    EXPECT_EQ(covered, 400);
    p.End();
    ImGui::End();
    ImGui::Render();
}

// Two horizontal lines a few pixels apart ("trained context 32" and "stretched to 128" on a log
// axis) each keep their label whole: no label covers another, all inside the plot.
TEST_F(PlotZoom, NearbyHorizontalLinesKeepTheirLabelsApart) {
    ImGui::NewFrame();
    ImGui::SetNextWindowSize(ImVec2(700, 500));
    ImGui::Begin("lines");
    plot::PlotView view;
    view.SetHome(plot::Range{0, 7}, plot::Range{3, 4.5e6});
    plot::PlotConfig config;
    config.y_flags = plot::AxisFlags_Log;
    plot::Plot p;
    ASSERT_TRUE(p.Begin("##lines", view, ImVec2(600, 240), config));
    p.HLine(32, IM_COL32(255, 160, 0, 255), "trained context 32");
    p.HLine(128, IM_COL32_WHITE, "stretched to 128");
    p.HLine(40, IM_COL32_WHITE, "a third, between them");
    const ImVec2 low = p.PlotMin(), high = p.PlotMax();
    p.End();
    const std::vector<ImVec4>& rects = p.HLineLabelRects();
    ASSERT_EQ(rects.size(), 3u);
    for (std::size_t a = 0; a < rects.size(); ++a) {
        EXPECT_GE(rects[a].y, low.y);
        EXPECT_LE(rects[a].w, high.y);
        for (std::size_t b = a + 1; b < rects.size(); ++b) {
            const bool apart = rects[a].z <= rects[b].x || rects[b].z <= rects[a].x ||
                               rects[a].w <= rects[b].y || rects[b].w <= rects[a].y;
            EXPECT_TRUE(apart) << "label " << a << " covers label " << b;
        }
    }
    ImGui::End();
    ImGui::Render();
}

// A log axis over six decades says more than two of them, and one within a decade still has
// ticks (1, 2, 5 of it, or evenly spaced values).
TEST(PlotBounds, LogTicksSayEnoughOfTheSpan) {
    EXPECT_GE(plot::LogTicks(plot::Range{3, 4.5e6}, 5).size(), 3u);
    EXPECT_EQ(plot::LogTicks(plot::Range{0.8, 60}, 9), (std::vector<double>{1, 2, 5, 10, 20, 50}));
    EXPECT_GE(plot::LogTicks(plot::Range{30, 80}, 5).size(), 2u);
    EXPECT_GE(plot::LogTicks(plot::Range{31, 33}, 5).size(), 2u);
    for (double tick : plot::LogTicks(plot::Range{31, 33}, 5)) {
        EXPECT_GE(tick, 31);
        EXPECT_LE(tick, 33);
    }
}

// A legend that wraps onto a second row is known only when the plot ends: its rows are reserved
// from the next frame on. That is why a picture is taken two calm frames after a step settles
// (FrameSettler): in the first, the gpt2-order lesson's step 4 drew its title over the legend.
TEST_F(PlotZoom, AWrappedLegendHasItsRowsFromTheNextFrameOn) {
    plot::PlotView view;
    view.SetHome(plot::Range{0, 2}, plot::Range{0, 1});
    plot::PlotConfig config;
    config.y_label = "last tokens' states";
    const double xs[] = {0, 1, 2}, ys[] = {0, 0.5, 1};
    const char* names[] = {"as trained",        "zeroed",        "mean row",
                           "shuffled (seed 1)", "shifted by 58", "sinusoidal"};
    std::vector<float> legend_tops;
    float title_bottom = 0;
    for (int frame = 0; frame < 2; ++frame) {
        ImGui::NewFrame();
        ImGui::SetNextWindowSize(ImVec2(500, 400));
        ImGui::Begin("legend");
        plot::Plot p;
        ASSERT_TRUE(p.Begin("##legend", view, ImVec2(480, 300), config));
        title_bottom = ImGui::GetItemRectMin().y + ImGui::GetFontSize();
        for (const char* name : names)
            p.Line(name, xs, ys, 3, IM_COL32_WHITE);
        p.End();
        legend_tops.push_back(p.LegendRect().y);
        ImGui::End();
        ImGui::Render();
    }
    EXPECT_GE(view.legend_rows, 2);
    EXPECT_LT(legend_tops[0], title_bottom) << "the first frame: over the title";
    EXPECT_GE(legend_tops[1], title_bottom) << "the next: below it";
    FrameSettler settler(4);
    const bool pending[] = {true, true, false, false, false, false};
    std::vector<bool> settled;
    for (bool each : pending)
        settled.push_back(settler.Settled(each));
    EXPECT_EQ(settled, (std::vector<bool>{false, false, false, true, true, true}));
    FrameSettler late(4);
    EXPECT_FALSE(late.Settled(false));
    EXPECT_FALSE(late.Settled(false));
    EXPECT_FALSE(late.Settled(false));
    EXPECT_TRUE(late.Settled(false)); // at least 4 frames
}

// A narrow axis from −4.9 to 4.9 with room for two ticks showed one ("0"): at least two.
TEST(PlotBounds, NiceTicksGiveAtLeastTwo) {
    EXPECT_GE(plot::NiceTicks(plot::Range{-4.9, 4.9}, 2).size(), 2u);
    EXPECT_GE(plot::NiceTicks(plot::Range{-4.9, 4.9}, 1).size(), 2u);
    EXPECT_GE(plot::NiceTicks(plot::Range{0.31, 0.49}, 2).size(), 2u);
    for (double tick : plot::NiceTicks(plot::Range{-4.9, 4.9}, 2)) {
        EXPECT_GE(tick, -4.9);
        EXPECT_LE(tick, 4.9);
    }
}

// Equal aspect at home: the scale at which both home ranges fit (a tall picture in a wide plot
// was cut at top and bottom), one unit as many pixels on x as on y, frame after frame.
TEST_F(PlotZoom, EqualAspectFitsBothHomeRanges) {
    plot::PlotView view;
    view.SetHome(plot::Range{-1, 1}, plot::Range{-3, 3});
    plot::PlotConfig config;
    config.flags = plot::PlotFlags_EqualAspect | plot::PlotFlags_NoLegend;
    for (int frame = 0; frame < 3; ++frame) {
        ImGui::NewFrame();
        ImGui::SetNextWindowSize(ImVec2(700, 500));
        ImGui::Begin("aspect");
        plot::Plot p;
        ASSERT_TRUE(p.Begin("##aspect", view, ImVec2(600, 240), config));
        const ImVec2 low = p.PlotMin(), high = p.PlotMax();
        p.End();
        ImGui::End();
        ImGui::Render();
        EXPECT_LE(view.y.min, -3);
        EXPECT_GE(view.y.max, 3);
        EXPECT_LE(view.x.min, -1);
        EXPECT_GE(view.x.max, 1);
        EXPECT_NEAR(view.x.Size() / (high.x - low.x), view.y.Size() / (high.y - low.y), 1e-9);
    }
}
