// Themes: what a viewer must be able to tell apart is apart, in every theme (WCAG 2 contrast
// ratios computed here from the colours, not taken from the theme code).
#include "headless_fixture.h"
#include "panels/model/model_views.h"
#include "panels/order/order_real.h"
#include "widgets/theme.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace pelab {
namespace {

double Luminance(ImVec4 c) {
    const auto linear = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(c.x) + 0.7152 * linear(c.y) + 0.0722 * linear(c.z);
}

double ContrastRatio(ImVec4 a, ImVec4 b) {
    const double la = Luminance(a), lb = Luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

ImVec4 Over(ImVec4 top, ImVec4 bottom) {
    return ImVec4(top.x * top.w + bottom.x * (1 - top.w), top.y * top.w + bottom.y * (1 - top.w),
                  top.z * top.w + bottom.z * (1 - top.w), 1);
}

class Themes : public HeadlessApp {};

// CIE L*a*b* of an sRGB colour (D65), for colour differences as a viewer sees them.
std::array<double, 3> Lab(ImVec4 c) {
    const auto linear = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const double r = linear(c.x), g = linear(c.y), b = linear(c.z);
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
                 y = 0.2126 * r + 0.7152 * g + 0.0722 * b,
                 z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    const auto f = [](double t) {
        return t > 216.0 / 24389 ? std::cbrt(t) : (24389.0 / 27 * t + 16) / 116;
    };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

// The order demo's six switches in its distance plot: every two apart by ΔE*ab ≥ 20 in every
// theme (the mean row and the sinusoidal line were one blue: ΔE 14 in the dark theme, 6 in the
// light).
TEST_F(Themes, TheOrderDemosSwitchesHaveSixColoursApart) {
    for (const ThemeId id : kThemes) {
        for (std::size_t i = 0; i < 6; ++i)
            for (std::size_t j = i + 1; j < 6; ++j) {
                const auto a = Lab(GetTheme(id).ColorVec(RealSwitchRole(i))),
                           b = Lab(GetTheme(id).ColorVec(RealSwitchRole(j)));
                const double delta = std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
                EXPECT_GE(delta, 20.0) << GetTheme(id).name << ": switches " << i << " and " << j;
            }
    }
}

// A heatmap cell near 0 takes the diverging map's middle colour: it must stand out from the
// panel behind it (high contrast once drew it black on black, and such cells vanished).
TEST_F(Themes, DivergingMiddleStandsOutFromThePanel) {
    for (const ThemeId id : kThemes) {
        ApplyThemeStyle(id, 1.0f);
        const ImVec4 panel = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        const ImVec4 opaque_panel(panel.x, panel.y, panel.z, 1);
        const ImVec4 middle = GetTheme(id).ColorVec(Role::MapMiddle);
        EXPECT_GE(ContrastRatio(middle, opaque_panel), 1.3) << GetTheme(id).name;
    }
}

// A slider's value is drawn over its grab: the text must read against the grab as it is drawn
// over the frame, at WCAG's 4.5:1 for text (the solid grab hid the last digit).
TEST_F(Themes, SliderTextReadsOverItsGrab) {
    for (const ThemeId id : kThemes) {
        ApplyThemeStyle(id, 1.0f);
        const ImGuiStyle& style = ImGui::GetStyle();
        const ImVec4 panel = style.Colors[ImGuiCol_WindowBg];
        const ImVec4 frame =
            Over(style.Colors[ImGuiCol_FrameBg], ImVec4(panel.x, panel.y, panel.z, 1));
        for (const ImGuiCol grab : {ImGuiCol_SliderGrab, ImGuiCol_SliderGrabActive}) {
            const ImVec4 under_text = Over(style.Colors[grab], frame);
            EXPECT_GE(ContrastRatio(style.Colors[ImGuiCol_Text], under_text), 4.5)
                << GetTheme(id).name << " grab " << grab;
        }
        EXPECT_LE(style.GrabMinSize, 6.0f); // at text scale 1: about a third of a digit's width
    }
}

// The accent colour is also text (a caption's *emphasis*, the quiz's ◆ and headings): it reads
// on the panel at WCAG's 4.5:1 in every theme (the light theme's sky blue gave 3.6:1).
TEST_F(Themes, AccentTextReadsOnThePanel) {
    for (const ThemeId id : kThemes) {
        ApplyThemeStyle(id, 1.0f);
        const ImVec4 panel = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        EXPECT_GE(ContrastRatio(GetTheme(id).ColorVec(Role::Accent), panel), 4.5)
            << GetTheme(id).name;
    }
}

// Item: the Pairing view's fastest arc nearly vanished on dark and high contrast, its slowest on
// light. Every arc, fastest to slowest, stands out from the theme's background.
TEST_F(Themes, EveryPairingArcReadsOnEveryTheme) {
    for (ThemeId id : kThemes) {
        ApplyThemeStyle(id, 1.0f);
        const ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        for (int k = 0; k <= 10; ++k) {
            const ImVec4 arc =
                ImGui::ColorConvertU32ToFloat4(PairArcColour(GetTheme(id), k / 10.0));
            EXPECT_GE(ContrastRatio(arc, background), 2.0) << GetTheme(id).name << " arc " << k;
        }
    }
}

} // namespace
} // namespace pelab

namespace pelab {
namespace {

// The Train panel's progress bar: its text is read over the fill (the header colour over the
// frame) and over the empty part (the frame), in every theme, at WCAG's 4.5:1 for text.
TEST_F(Themes, TheProgressBarsTextReadsOnItsFill) {
    for (const ThemeId id : kThemes) {
        ApplyThemeStyle(id, 1.0f);
        const ImGuiStyle& style = ImGui::GetStyle();
        const ImVec4 window = Over(style.Colors[ImGuiCol_WindowBg], ImVec4(0, 0, 0, 1));
        const ImVec4 frame = Over(style.Colors[ImGuiCol_FrameBg], window);
        const ImVec4 fill = Over(style.Colors[ImGuiCol_Header], frame);
        const ImVec4 text = style.Colors[ImGuiCol_Text];
        EXPECT_GE(ContrastRatio(text, fill), 4.5) << GetTheme(id).name << " on the fill";
        EXPECT_GE(ContrastRatio(text, frame), 4.5) << GetTheme(id).name << " on the empty part";
        // …and the fill stands apart from the empty part.
        EXPECT_GE(ContrastRatio(fill, frame), 1.25) << GetTheme(id).name << " fill against empty";
    }
}

} // namespace
} // namespace pelab
