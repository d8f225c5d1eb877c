// theme.h — colours by role, looked up from the active theme, and the ImGui style each theme
// gives. Panels never write a colour literal: they ask for a role (pos A, sin, …), so that one
// switch (View → Theme, scene field "theme") recolours everything, and every role stays
// colour-blind safe (Okabe–Ito hues) in every theme.
#pragma once

#include <imgui.h>

#include <string>

namespace pelab {

enum class ThemeId { Dark, Light, HighContrast };
constexpr ThemeId kThemes[] = {ThemeId::Dark, ThemeId::Light, ThemeId::HighContrast};

/// What a colour means. Where two roles meet in one picture they also differ by something
/// other than hue: sin markers are circles and cos markers squares, the pos A hand is longer
/// and thicker than the pos B hand, and every line has a label.
enum class Role {
    Sin,         ///< sin dimensions (2i): blue
    Cos,         ///< cos dimensions (2i+1): orange
    PosA,        ///< the pos A cursor and hand: vermillion
    PosB,        ///< pos B: bluish green
    ShiftArc,    ///< the turn by ω_i·k of a shift by k: reddish purple
    Accent,      ///< a neutral data line (the ω spectrum): sky blue
    Positive,    ///< a positive share of a sum (in-cell bars)
    Negative,    ///< a negative share
    Magnitude,   ///< an unsigned size (Δ bars)
    Highlight,   ///< the selected item's outline
    Error,       ///< text of a refused input
    Good,        ///< a verdict that is the point of the demo (positions tell orders apart)
    Warning,     ///< a verdict that shows the failure (orders look the same)
    Muted,       ///< a verdict that does not apply
    MapNegative, ///< diverging colour map at −1
    MapMiddle,   ///< … at 0
    MapPositive, ///< … at +1
    /// A lesson step's or a quiz answer's outline around a widget: a colour no data mark uses in
    /// any theme (lime in the dark theme, violet in the light and high-contrast ones), so it never
    /// reads as data.
    Outline,
    Count
};

struct Theme {
    ThemeId id;
    const char* name;  ///< scene / settings value: "dark", "light", "high-contrast"
    const char* title; ///< menu text
    ImU32 colors[static_cast<int>(Role::Count)];
    /// Multiplies every line width and marker size (the projector theme draws thicker).
    float line_scale;

    ImU32 Color(Role role) const { return colors[static_cast<int>(role)]; }
    /// Light drawing on a dark background (dark, high contrast).
    bool IsDark() const { return id != ThemeId::Light; }
    ImVec4 ColorVec(Role role) const { return ImGui::ColorConvertU32ToFloat4(Color(role)); }
};

const Theme& GetTheme(ThemeId id);
/// "dark" → Dark, …; false when the name is not a theme.
bool ThemeFromName(const std::string& name, ThemeId* id);
/// "dark, light, high-contrast", for messages.
std::string ThemeNameList();

/// Rebuilds ImGui's style for the theme at a size scale (1 at the base font size). Kept apart
/// from the font atlas, so a new text size never resets the colours and vice versa.
void ApplyThemeStyle(ThemeId id, float size_scale);

} // namespace pelab
