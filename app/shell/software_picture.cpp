#include "shell/software_picture.h"

#include "shell/app.h"
#include "shell/app_ui.h"
#include "shell/headless_context.h"
#include "shell/step_fit.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace pelab {

namespace {

struct Texture {
    const unsigned char* pixels = nullptr; ///< RGBA
    int width = 0, height = 0;
};

struct Canvas {
    std::vector<float> rgb; ///< linear blending in 0…1, as the GL renderer blends (no sRGB)
    int width = 0, height = 0;
};

struct Colour {
    float r, g, b, a;
};

Colour Unpack(ImU32 c) {
    return {static_cast<float>((c >> IM_COL32_R_SHIFT) & 0xFF) / 255.0f,
            static_cast<float>((c >> IM_COL32_G_SHIFT) & 0xFF) / 255.0f,
            static_cast<float>((c >> IM_COL32_B_SHIFT) & 0xFF) / 255.0f,
            static_cast<float>((c >> IM_COL32_A_SHIFT) & 0xFF) / 255.0f};
}

float Edge(const ImVec2& a, const ImVec2& b, float x, float y) {
    return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
}

// One triangle, clipped to clip (x0, y0, x1, y1), its colour the vertices' colours times the
// texture (when there is one), blended over what is there (source alpha, one minus source
// alpha: ImGui's blend). Pixel centres inside or on an edge are filled.
void FillTriangle(Canvas& canvas, const ImDrawVert& a, const ImDrawVert& b, const ImDrawVert& c,
                  const ImVec4& clip, const Texture* texture) {
    const float area = Edge(a.pos, b.pos, c.pos.x, c.pos.y);
    if (std::abs(area) < 1e-8f) return;
    const int x0 = std::max(
        static_cast<int>(std::floor(std::max(clip.x, std::min({a.pos.x, b.pos.x, c.pos.x})))), 0);
    const int y0 = std::max(
        static_cast<int>(std::floor(std::max(clip.y, std::min({a.pos.y, b.pos.y, c.pos.y})))), 0);
    const int x1 = std::min(
        static_cast<int>(std::ceil(std::min(clip.z, std::max({a.pos.x, b.pos.x, c.pos.x})))),
        canvas.width);
    const int y1 = std::min(
        static_cast<int>(std::ceil(std::min(clip.w, std::max({a.pos.y, b.pos.y, c.pos.y})))),
        canvas.height);
    const Colour ca = Unpack(a.col), cb = Unpack(b.col), cc = Unpack(c.col);
    for (int y = y0; y < y1; ++y) {
        const float py = static_cast<float>(y) + 0.5f;
        if (py < clip.y || py > clip.w) continue;
        for (int x = x0; x < x1; ++x) {
            const float px = static_cast<float>(x) + 0.5f;
            if (px < clip.x || px > clip.z) continue;
            const float wa = Edge(b.pos, c.pos, px, py) / area;
            const float wb = Edge(c.pos, a.pos, px, py) / area;
            const float wc = 1.0f - wa - wb;
            if (wa < 0 || wb < 0 || wc < 0) continue;
            Colour s{wa * ca.r + wb * cb.r + wc * cc.r, wa * ca.g + wb * cb.g + wc * cc.g,
                     wa * ca.b + wb * cb.b + wc * cc.b, wa * ca.a + wb * cb.a + wc * cc.a};
            if (texture != nullptr) {
                const float u = wa * a.uv.x + wb * b.uv.x + wc * c.uv.x;
                const float v = wa * a.uv.y + wb * b.uv.y + wc * c.uv.y;
                const int tx = std::clamp(static_cast<int>(u * static_cast<float>(texture->width)),
                                          0, texture->width - 1);
                const int ty = std::clamp(static_cast<int>(v * static_cast<float>(texture->height)),
                                          0, texture->height - 1);
                const unsigned char* t =
                    texture->pixels + (static_cast<std::size_t>(ty) * texture->width + tx) * 4;
                s.r *= t[0] / 255.0f;
                s.g *= t[1] / 255.0f;
                s.b *= t[2] / 255.0f;
                s.a *= t[3] / 255.0f;
            }
            float* d = &canvas.rgb[(static_cast<std::size_t>(y) * canvas.width + x) * 3];
            d[0] = s.r * s.a + d[0] * (1 - s.a);
            d[1] = s.g * s.a + d[1] * (1 - s.a);
            d[2] = s.b * s.a + d[2] * (1 - s.a);
        }
    }
}

} // namespace

std::vector<unsigned char> SoftwarePicture(App& app, const std::string& panel, int width,
                                           int height, float font_pixels) {
    FrameOptions options;
    options.solo_panel = panel;
    return SoftwarePicture(app, options, width, height, font_pixels);
}

std::vector<unsigned char> SoftwarePicture(App& app, const FrameOptions& options, int width,
                                           int height, float font_pixels) {
    const HeadlessContext context(static_cast<float>(width), static_cast<float>(height),
                                  font_pixels);
    ImGuiIO& io = ImGui::GetIO();
    Texture atlas;
    unsigned char* atlas_pixels = nullptr;
    io.Fonts->GetTexDataAsRGBA32(&atlas_pixels, &atlas.width, &atlas.height);
    atlas.pixels = atlas_pixels;
    const ImTextureID atlas_id = io.Fonts->TexID;
    const FrameInput no_input;
    // A lesson's step settles as the window shows it (drawn smaller until its highlights are
    // whole): a few more frames, as many as that takes.
    FrameSettler settler(4);
    for (int frame = 0; frame < kMaxSettleFrames; ++frame) {
        RunFrame(app, options, no_input);
        if (settler.Settled(app.stats.settling)) break;
    }
    Canvas canvas;
    canvas.width = width;
    canvas.height = height;
    canvas.rgb.assign(static_cast<std::size_t>(width) * height * 3, 0.0f);
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; data != nullptr && l < data->CmdListsCount; ++l) {
        const ImDrawList& list = *data->CmdLists[l];
        for (const ImDrawCmd& command : list.CmdBuffer) {
            if (command.UserCallback != nullptr) continue;
            const ImVec4 clip(
                command.ClipRect.x - data->DisplayPos.x, command.ClipRect.y - data->DisplayPos.y,
                command.ClipRect.z - data->DisplayPos.x, command.ClipRect.w - data->DisplayPos.y);
            // Only the font atlas is at hand; another texture (a GPU picture) is left white.
            const Texture* texture = command.TextureId == atlas_id ? &atlas : nullptr;
            for (unsigned k = 0; k + 2 < command.ElemCount; k += 3) {
                const ImDrawIdx* idx = list.IdxBuffer.Data + command.IdxOffset + k;
                const ImDrawVert* v = list.VtxBuffer.Data + command.VtxOffset;
                FillTriangle(canvas, v[idx[0]], v[idx[1]], v[idx[2]], clip, texture);
            }
        }
    }
    std::vector<unsigned char> rgba(static_cast<std::size_t>(width) * height * 4);
    for (std::size_t p = 0; p < static_cast<std::size_t>(width) * height; ++p) {
        for (int k = 0; k < 3; ++k)
            rgba[p * 4 + k] = static_cast<unsigned char>(
                std::lround(std::clamp(canvas.rgb[p * 3 + k], 0.0f, 1.0f) * 255.0f));
        rgba[p * 4 + 3] = 255;
    }
    return rgba;
}

} // namespace pelab
