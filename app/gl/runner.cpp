#include "gl/runner.h"

#include "io/png_scene.h"
#include "pelab/export/export.h"
#include "shell/file_menu.h"
#include "shell/step_fit.h"

#include <imgui.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace pelab {

ImGuiContextOwner::ImGuiContextOwner() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
}

ImGuiContextOwner::~ImGuiContextOwner() {
    ImGui::DestroyContext();
}

namespace {

// A picture's frames stand still in time: each is one sixtieth of a second after the one before.
constexpr float kPictureFrameSeconds = 1.0f / 60.0f;

} // namespace

Runner::Runner(App& app) : app_(app) {}

Runner::~Runner() {
    Close();
}

bool Runner::Open(const PlatformOptions& options, std::string* error) {
    if (!platform_.Init(options, error)) return false;
    open_ = true;
    visible_ = options.visible;
    // Pictures have an exact size in pixels: the monitor's scale applies to the window only.
    content_scale_ = visible_ ? platform_.ContentScale() : 1.0f;
    app_.gpu = &heatmaps_;
    BuildFonts(fonts_, WantedFontPixels());
    return true;
}

void Runner::Close() {
    if (!open_) return;
    heatmaps_.Release();
    app_.gpu = nullptr;
    platform_.Shutdown();
    open_ = false;
}

float Runner::WantedFontPixels() const {
    return kBaseFontPixels * content_scale_ * app_.view.font_scale;
}

Runner::Times Runner::Frame(const FrameOptions& options, float delta_seconds, bool present,
                            bool time_gpu) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    if (time_gpu) platform_.BeginGpuTimer();
    platform_.BeginFrame();
    ImGuiIO& io = ImGui::GetIO();
    if (delta_seconds > 0) io.DeltaTime = delta_seconds;
    FrameInput input;
    input.keys = platform_.TakeKeyPresses();
    input.dropped_paths = platform_.TakeDroppedPaths();
    input.delta_seconds = io.DeltaTime;
    RunFrame(app_, options, input);
    // What the frame asked of the platform, in the same frame.
    if (!app_.pending.export_png.empty() && --app_.pending.export_png_frames <= 0) ExportPanelPng();
    const auto cpu_done = Clock::now();
    Times times;
    if (present) platform_.EndFrame();
    if (time_gpu) times.gpu_ms = platform_.EndGpuTimerMs();
    if (visible_ && app_.view.fullscreen != platform_.IsFullscreen())
        platform_.SetFullscreen(app_.view.fullscreen);
    // Text size changed (keys, menu, a window moved to a screen of another scale, the browser's
    // zoom): re-rasterise the atlas at the new size, crisp.
    if (visible_) content_scale_ = platform_.ContentScale();
    if (const float wanted = WantedFontPixels(); wanted != fonts_.pixel_size) {
        BuildFonts(fonts_, wanted);
        platform_.ReloadFontTexture();
    }
    times.cpu_ms = std::chrono::duration<double, std::milli>(cpu_done - start).count();
    times.total_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return times;
}

bool Runner::CaptureSettled(const FrameOptions& options, std::vector<unsigned char>* rgba,
                            int* width, int* height, std::string* error) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    FrameSettler settler(4);
    for (;;) {
        platform_.PollEvents();
        Frame(options, kPictureFrameSeconds, false);
        const bool pending =
            heatmaps_.TakeFramePending() || app_.stats.computing || app_.stats.settling;
        if (settler.Settled(pending) || std::chrono::steady_clock::now() > give_up) break;
        platform_.EndFrame();
        if (pending) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return platform_.Capture(rgba, width, height, error);
}

// File → Export as PNG: the panel drawn alone, offscreen, at the size chosen in the export
// dialog (a second ImGui context with the display at that size, in the window's GL context):
// not a grab of its window with the scrollbars; the scene goes in a text chunk, the student's
// teach-back text only when asked. The result goes to the status bar or a notice.
void Runner::ExportPanelPng() {
    App& app = app_;
    const std::string path = app.pending.export_png;
    const std::string panel = app.pending.export_png_panel;
    const int width = app.pending.export_png_width, height = app.pending.export_png_height;
    app.pending.export_png.clear();
    if (app.panels.Find(panel) == nullptr || width < 1 || height < 1) {
        app.notice = "nothing exported: no panel to draw";
        return;
    }
    // The teach-back text stays out unless asked for: blanked while the picture is drawn.
    const nlohmann::json before = app.scene.Document();
    const bool hide_text = !app.pending.export_png_teach_back;
    if (hide_text)
        app.scene.ApplyDocument(
            {{"teach_back_text", ""}, {"teach_back_ticked", nlohmann::json::array()}});
    nlohmann::json scene = app.Document(false);
    // What the main window's frames keep between frames, untouched by the picture's frames.
    const ImVec2 display_size = app.last_display_size;
    const bool recording = app.recorder.enabled;
    const float font_size = ImGui::GetFontSize();
    ImGuiContext* window_context = ImGui::GetCurrentContext();
    ImGuiContext* picture_context = ImGui::CreateContext();
    ImGui::SetCurrentContext(picture_context);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DeltaTime = kPictureFrameSeconds;
    FontSet fonts;
    BuildFonts(fonts, font_size);
    platform_.StartRendererInCurrentContext();
    app.recorder.enabled = false;
    FrameOptions options;
    options.solo_panel = panel;
    std::vector<unsigned char> rgba;
    int out_width = width, out_height = height;
    std::string error;
    bool captured = false;
    const FrameInput no_input; // and no animation step: the picture is of this moment
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    FrameSettler settler(4);
    for (;;) {
        platform_.BeginRendererFrame();
        RunFrame(app, options, no_input);
        const bool pending = heatmaps_.TakeFramePending();
        if (settler.Settled(pending) || std::chrono::steady_clock::now() > give_up) {
            captured = platform_.Capture(&rgba, &out_width, &out_height, &error, true);
            break;
        }
        if (pending) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    platform_.StopRendererInCurrentContext();
    ImGui::DestroyContext(picture_context);
    ImGui::SetCurrentContext(window_context);
    app.recorder.enabled = recording;
    app.last_display_size = display_size;
    if (hide_text) app.scene.ApplyDocument(before);
    if (!captured) {
        app.notice = "export failed: " + error;
        return;
    }
    error = WritePngFile(path, rgba, out_width, out_height,
                         scene.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
    if (!error.empty()) {
        app.notice = "export failed: " + error;
        return;
    }
    AddRecentFile(app.view, path);
    app.status_note = "exported " + std::filesystem::path(path).filename().string() + " (" +
                      std::to_string(out_width) + "×" + std::to_string(out_height) + ")";
}

} // namespace pelab
