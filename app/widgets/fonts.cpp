#include "widgets/fonts.h"

#include <filesystem>

namespace pelab {

namespace {
const char* const kFontCandidates[] = {
    "/usr/share/fonts/opentype/inter/Inter-Regular.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
};
} // namespace

void BuildFonts(FontSet& fonts, float pixel_size) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    fonts.glyph_ranges.clear();
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(io.Fonts->GetGlyphRangesDefault()); // Latin + Latin-1 (·, ×, ²)
    const ImWchar extra[] = {
        0x0370, 0x03FF, // Greek: ω π Δ θ
        0x2010, 0x206F, // punctuation: – — ‖ … ′
        0x1D00, 0x1DBF, // phonetic extensions: the ᵀ of QKᵀ
        0x2070, 0x209F, // super- and subscripts
        0x2190, 0x21FF, // arrows
        0x2200, 0x22FF, // math operators: √ ≤ ≈ ∞ ∑ ·
        0x25A0, 0x25FF, // geometric shapes: ▶ ■ ●
        0,
    };
    builder.AddRanges(extra);
    builder.BuildRanges(&fonts.glyph_ranges);

    ImFont* font = nullptr;
    for (const char* path : kFontCandidates) {
        std::error_code ignored;
        if (!std::filesystem::is_regular_file(path, ignored)) continue;
        ImFontConfig config;
        config.OversampleH = 2;
        config.OversampleV = 1;
        font = io.Fonts->AddFontFromFileTTF(path, pixel_size, &config, fonts.glyph_ranges.Data);
        if (font) {
            fonts.source = path;
            break;
        }
    }
    // DejaVu Sans fills the glyphs the main font lacks (Inter has no ᵀ or ≫): in ImGui's atlas a
    // merged font never replaces a glyph that is already there.
    const char* const fallback = kFontCandidates[1];
    std::error_code missing;
    if (font && fonts.source != fallback && std::filesystem::is_regular_file(fallback, missing)) {
        ImFontConfig merge;
        merge.MergeMode = true;
        merge.OversampleH = 2;
        io.Fonts->AddFontFromFileTTF(fallback, pixel_size, &merge, fonts.glyph_ranges.Data);
    }
    if (!font) {
        ImFontConfig config;
        config.SizePixels = pixel_size;
        io.Fonts->AddFontDefault(&config);
        fonts.source = "built-in (ImGui's ProggyClean; install fonts-inter for a better one)";
    }
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    fonts.pixel_size = pixel_size;
}

} // namespace pelab
