// fonts.h — the font atlas: Inter (or DejaVu Sans) from the system at the wanted pixel size,
// with Greek and the math operators added to the glyph ranges (ω, π, Δ, √, ≤, ≈, ‖, ·, ×);
// ImGui's built-in font when neither file is there. Rebuilt at the new size whenever the
// scale changes, so text stays crisp on a projector instead of a stretched bitmap.
#pragma once

#include <imgui.h>

#include <string>

namespace pelab {

struct FontSet {
    ImVector<ImWchar> glyph_ranges; ///< must outlive the atlas build
    std::string source;             ///< which file was loaded (or "built-in")
    float pixel_size = 0.0f;
};

/// Base text height in pixels before content scale and the user's font scale.
constexpr float kBaseFontPixels = 17.0f;

/// Clears io.Fonts and adds the UI font at pixel_size; builds the atlas's RGBA data so that a
/// backend (or a headless test) can use it. The style (colours, sizes) is the theme's business:
/// see ApplyThemeStyle.
void BuildFonts(FontSet& fonts, float pixel_size);

} // namespace pelab
