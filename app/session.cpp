#include "session.h"

#include "app_state.h"
#include "app_ui.h"
#include "fonts.h"
#include "pelab/error.h"
#include "pelab/export.h"
#include "platform.h"

#include <imgui.h>
#include <stb_image_write.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace pelab {

namespace {

// Where ImGui keeps window positions between runs: $XDG_CONFIG_HOME/pelab or ~/.config/pelab.
std::string SettingsPath() {
    std::filesystem::path folder;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        folder = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        folder = std::filesystem::path(home) / ".config";
    else
        return {};
    folder /= "pelab";
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) return {};
    return (folder / "imgui.ini").string();
}

// One ImGui context for the lifetime of a session (RAII so every exit path destroys it).
struct ImGuiContextOwner {
    ImGuiContextOwner() {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
    }
    ~ImGuiContextOwner() { ImGui::DestroyContext(); }
};

void PngToBuffer(void* context, void* data, int size) {
    auto* bytes = static_cast<std::vector<unsigned char>*>(context);
    bytes->insert(bytes->end(), static_cast<unsigned char*>(data),
                  static_cast<unsigned char*>(data) + size);
}

// Opens the window; on failure prints why (no display, no OpenGL 3.3) and returns false.
bool OpenWindow(Platform& platform, const PlatformOptions& options) {
    std::string error;
    if (platform.Init(options, &error)) return true;
    std::fprintf(stderr, "pelab: %s\n", error.c_str());
    return false;
}

double Percentile(std::vector<double> values, double fraction) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t index =
        std::min(values.size() - 1, static_cast<std::size_t>(fraction * values.size()));
    return values[index];
}

} // namespace

int RunGui(const GuiOptions& options) {
    ImGuiContextOwner context;
    ImGuiIO& io = ImGui::GetIO();
    const std::string settings = options.bench_frames > 0 ? std::string() : SettingsPath();
    io.IniFilename = settings.empty() ? nullptr : settings.c_str();
    // No keyboard navigation flag: the arrow keys belong to pos A and the pair (SPEC §5).

    Platform platform;
    PlatformOptions platform_options;
    platform_options.visible = options.bench_frames == 0;
    platform_options.fullscreen = options.fullscreen;
    if (!OpenWindow(platform, platform_options)) return kExitRuntimeFailure;
    AppState state;
    state.font_scale = options.font_scale;
    state.fullscreen = options.fullscreen;
    Panels panels;
    FontSet fonts;
    const float content_scale = platform.ContentScale();
    BuildFonts(fonts, kBaseFontPixels * content_scale * state.font_scale);
    const FrameOptions frame_options;

    std::vector<double> frame_ms;
    frame_ms.reserve(static_cast<std::size_t>(std::max(options.bench_frames, 0)));
    int frame = 0;
    while (!platform.ShouldClose() && !state.quit_requested) {
        const auto start = std::chrono::steady_clock::now();
        platform.BeginFrame();
        ImGui::NewFrame();
        HandleShortcuts(state, platform.TakeKeyPresses());
        if (state.fullscreen != platform.IsFullscreen()) platform.SetFullscreen(state.fullscreen);
        DrawFrame(state, panels, frame_options, io.DeltaTime);
        ImGui::Render();
        const auto cpu_done = std::chrono::steady_clock::now();
        platform.EndFrame();
        if (state.fonts_need_rebuild) {
            BuildFonts(fonts, kBaseFontPixels * content_scale * state.font_scale);
            platform.ReloadFontTexture();
            state.fonts_need_rebuild = false;
        }
        if (options.bench_frames > 0) {
            frame_ms.push_back(std::chrono::duration<double, std::milli>(cpu_done - start).count());
            // Sweep the shared state so the frames do real work, as a user dragging would.
            state.pair = frame % (state.d_model / 2);
            state.pos_a = 3.0 + 0.25 * frame;
            if (++frame >= options.bench_frames) break;
        }
    }
    if (options.bench_frames > 0) {
        std::printf("frames: %zu  CPU time per frame (ms): median %.3f  p99 %.3f  (%s)\n",
                    frame_ms.size(), Percentile(frame_ms, 0.5), Percentile(frame_ms, 0.99),
                    platform.GlRenderer().c_str());
    }
    platform.Shutdown();
    return kExitOk;
}

int RunScreenshot(const ScreenshotOptions& options) {
    ImGuiContextOwner context;
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // screenshots are reproducible: no saved layout
    Platform platform;
    PlatformOptions platform_options;
    platform_options.visible = false;
    platform_options.width = options.width;
    platform_options.height = options.height;
    if (!OpenWindow(platform, platform_options)) return kExitRuntimeFailure;
    AppState state;
    state.font_scale = options.font_scale;
    Panels panels;
    FontSet fonts;
    BuildFonts(fonts, kBaseFontPixels * state.font_scale);
    FrameOptions frame_options;
    frame_options.solo_panel = options.panel;
    // A few frames: windows size themselves to their content on the first ones.
    for (int frame = 0; frame < 4; ++frame) {
        platform.BeginFrame();
        io.DeltaTime = 1.0f / 60.0f;
        ImGui::NewFrame();
        DrawFrame(state, panels, frame_options, io.DeltaTime);
        ImGui::Render();
        if (frame < 3) platform.EndFrame();
    }
    std::vector<unsigned char> rgba;
    int width = 0, height = 0;
    std::string error;
    if (!platform.Capture(&rgba, &width, &height, &error)) {
        std::fprintf(stderr, "pelab: screenshot failed: %s\n", error.c_str());
        return kExitRuntimeFailure;
    }
    platform.Shutdown();
    std::vector<unsigned char> png;
    if (!stbi_write_png_to_func(PngToBuffer, &png, width, height, 4, rgba.data(), width * 4)) {
        std::fprintf(stderr, "pelab: PNG encoding failed\n");
        return kExitRuntimeFailure;
    }
    try {
        write_file_atomically(options.out, [&](std::ostream& out) {
            out.write(reinterpret_cast<const char*>(png.data()),
                      static_cast<std::streamsize>(png.size()));
        });
    } catch (const IoError& e) {
        std::fprintf(stderr, "pelab: %s\n", e.what());
        return kExitRuntimeFailure;
    }
    std::printf("wrote %s (%dx%d)\n", options.out.c_str(), width, height);
    return kExitOk;
}

} // namespace pelab
