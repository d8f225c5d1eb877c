#include "widgets/theme.h"

namespace pelab {

namespace {

constexpr ImU32 Rgb(unsigned rgb, unsigned alpha = 0xFF) {
    return IM_COL32((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF, alpha);
}

// clang-format off
// Hues of Okabe & Ito's colour-blind-safe palette, lightened on dark backgrounds and darkened
// on white so that each keeps its contrast (the order is Role's).
constexpr Theme kThemeTable[] = {
    {ThemeId::Dark, "dark", "Dark", {
        Rgb(0x3D9BE0), Rgb(0xE69F00), Rgb(0xE8662A), Rgb(0x00B386), Rgb(0xCC79A7),
        Rgb(0x56B4E9), Rgb(0x009E73, 0xA0), Rgb(0xD55E00, 0xA0), Rgb(0x56B4E9, 0x90),
        Rgb(0xF0E442), Rgb(0xFF7060), Rgb(0x00B386), Rgb(0xF29A00), Rgb(0xB0B0B0),
        Rgb(0x0072B2), Rgb(0xDBDBDB), Rgb(0xD55E00), Rgb(0xB8F000)}, 1.0f},
    {ThemeId::Light, "light", "Light (projector)", {
        Rgb(0x0063A0), Rgb(0xC47F00), Rgb(0xC8500A), Rgb(0x007A5A), Rgb(0xA8508A),
        Rgb(0x1B6FA8), Rgb(0x009E73, 0xB0), Rgb(0xD55E00, 0xB0), Rgb(0x2C8FC9, 0x90),
        Rgb(0x111111), Rgb(0xB00020), Rgb(0x007A5A), Rgb(0xA35F00), Rgb(0x606060),
        Rgb(0x0072B2), Rgb(0xE0E0E0), Rgb(0xD55E00), Rgb(0x6A1BD0)}, 1.5f},
    {ThemeId::HighContrast, "high-contrast", "High contrast", {
        Rgb(0x6CC4FF), Rgb(0xFFB000), Rgb(0xFF6A1A), Rgb(0x00E0A8), Rgb(0xFF8AD0),
        Rgb(0x9AD8FF), Rgb(0x00E0A8, 0xC0), Rgb(0xFF6A1A, 0xC0), Rgb(0x6CC4FF, 0xB0),
        Rgb(0xFFE600), Rgb(0xFF5050), Rgb(0x00E0A8), Rgb(0xFFB000), Rgb(0xC8C8C8),
        Rgb(0x0072B2), Rgb(0xF0F0F0), Rgb(0xD55E00), Rgb(0xB060FF)}, 1.4f},
};
// clang-format on

static_assert(sizeof(kThemeTable) / sizeof(kThemeTable[0]) == sizeof(kThemes) / sizeof(kThemes[0]),
              "one table row per theme");

void HighContrastColors(ImGuiStyle& style) {
    ImGui::StyleColorsDark(&style);
    ImVec4* c = style.Colors;
    const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1), yellow(1.0f, 0.9f, 0.0f, 1);
    c[ImGuiCol_Text] = white;
    c[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1);
    c[ImGuiCol_WindowBg] = c[ImGuiCol_ChildBg] = c[ImGuiCol_PopupBg] = black;
    c[ImGuiCol_Border] = white;
    c[ImGuiCol_FrameBg] = ImVec4(0.08f, 0.08f, 0.08f, 1);
    c[ImGuiCol_FrameBgHovered] = ImVec4(0.25f, 0.25f, 0.25f, 1);
    c[ImGuiCol_FrameBgActive] = ImVec4(0.35f, 0.35f, 0.35f, 1);
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgCollapsed] = ImVec4(0.1f, 0.1f, 0.1f, 1);
    c[ImGuiCol_TitleBgActive] = ImVec4(0.0f, 0.25f, 0.5f, 1);
    c[ImGuiCol_MenuBarBg] = ImVec4(0.1f, 0.1f, 0.1f, 1);
    c[ImGuiCol_Button] = ImVec4(0.0f, 0.3f, 0.6f, 1);
    c[ImGuiCol_ButtonHovered] = ImVec4(0.0f, 0.45f, 0.85f, 1);
    c[ImGuiCol_ButtonActive] = ImVec4(0.0f, 0.55f, 1.0f, 1);
    c[ImGuiCol_CheckMark] = yellow;
    // Slider values are printed over the grab: a yellow grab hid white digits ("1000" for
    // 10000), so the grab is a saturated blue that white text stays readable on.
    c[ImGuiCol_SliderGrab] = ImVec4(0.0f, 0.45f, 0.9f, 1);
    c[ImGuiCol_SliderGrabActive] = ImVec4(0.2f, 0.6f, 1.0f, 1);
    c[ImGuiCol_Header] = ImVec4(0.0f, 0.3f, 0.6f, 1);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.0f, 0.45f, 0.85f, 1);
    c[ImGuiCol_TableRowBgAlt] = ImVec4(1, 1, 1, 0.08f);
    c[ImGuiCol_TableBorderStrong] = c[ImGuiCol_TableBorderLight] = ImVec4(0.7f, 0.7f, 0.7f, 1);
}

} // namespace

const Theme& GetTheme(ThemeId id) {
    for (const Theme& theme : kThemeTable)
        if (theme.id == id) return theme;
    return kThemeTable[0];
}

bool ThemeFromName(const std::string& name, ThemeId* id) {
    for (const Theme& theme : kThemeTable)
        if (name == theme.name) {
            *id = theme.id;
            return true;
        }
    return false;
}

std::string ThemeNameList() {
    std::string list;
    for (const Theme& theme : kThemeTable)
        list += (list.empty() ? "" : ", ") + std::string(theme.name);
    return list;
}

void ApplyThemeStyle(ThemeId id, float size_scale) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    switch (id) {
    case ThemeId::Dark:
        ImGui::StyleColorsDark(&style);
        break;
    case ThemeId::Light:
        ImGui::StyleColorsLight(&style);
        // Projector: pure white panels and darker borders and text, so nothing washes out.
        style.Colors[ImGuiCol_WindowBg] = ImVec4(1, 1, 1, 1);
        style.Colors[ImGuiCol_Text] = ImVec4(0.05f, 0.05f, 0.05f, 1);
        style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.35f, 0.35f, 0.35f, 1);
        style.Colors[ImGuiCol_Border] = ImVec4(0.25f, 0.25f, 0.25f, 0.6f);
        style.Colors[ImGuiCol_FrameBg] = ImVec4(0.93f, 0.93f, 0.93f, 1);
        style.FrameBorderSize = 1.0f;
        break;
    case ThemeId::HighContrast:
        HighContrastColors(style);
        style.FrameBorderSize = 1.0f;
        break;
    }
    // Opaque windows, popups and menus: a panel opened over another, a menu or the file dialog
    // must not let the text beneath show through (unreadable on a projector).
    for (ImGuiCol part : {ImGuiCol_WindowBg, ImGuiCol_PopupBg, ImGuiCol_MenuBarBg})
        style.Colors[part].w = 1.0f;
    style.WindowRounding = 4.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    // A slider's value is drawn over its grab: a narrow, half-transparent grab keeps the digit
    // under it readable (a solid 10 px grab hid the last digit of "10000").
    style.GrabMinSize = 6.0f;
    for (const ImGuiCol grab : {ImGuiCol_SliderGrab, ImGuiCol_SliderGrabActive})
        style.Colors[grab].w = 0.55f;
    style.ScaleAllSizes(size_scale);
}

} // namespace pelab
