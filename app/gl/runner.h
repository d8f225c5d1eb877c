// runner.h — the one owner of a session's frame: the ImGui context, the window (shown, or hidden
// for pictures) with its OpenGL context, the GPU heatmaps and the fonts. The interactive
// window, `pelab screenshot`, the lesson handout, the PNG export and --bench-frames all draw
// through Runner::Frame(), which draws through RunFrame (app_ui.h), the same frame the headless
// tests draw. A browser build drives the same Frame() from its main loop.
#pragma once

#include "gl/gpu_heatmap.h"
#include "gl/platform.h"
#include "shell/app.h"
#include "shell/app_ui.h"
#include "widgets/fonts.h"

#include <string>
#include <vector>

namespace pelab {

/// One ImGui context for the lifetime of a session (RAII, so every exit path destroys it).
/// ImGui never touches a settings file itself (io.IniFilename stays null): the window's session
/// reads and writes it through SettingsFile, which leaves anything that is not a settings file
/// alone and writes atomically.
class ImGuiContextOwner {
public:
    ImGuiContextOwner();
    ~ImGuiContextOwner();
    ImGuiContextOwner(const ImGuiContextOwner&) = delete;
    ImGuiContextOwner& operator=(const ImGuiContextOwner&) = delete;
};

class Runner {
public:
    /// Creates the ImGui context (before the window: the saved settings are read into it first).
    explicit Runner(App& app);
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    /// Opens the window (hidden when !options.visible: pictures of an exact size) and builds the
    /// fonts at the app's text size (times the monitor's content scale for a shown window).
    /// False and the message when there is no display or no OpenGL 3.3.
    bool Open(const PlatformOptions& options, std::string* error);

    /// What one frame cost, in milliseconds: on the CPU until ImGui's draw data is ready, on
    /// the wall clock with rendering (and the export, the fonts), and on the GPU when asked.
    struct Times {
        double cpu_ms = 0, total_ms = 0, gpu_ms = 0;
    };
    /// One whole frame: the platform's frame, RunFrame with the keys and the files dropped since
    /// the last one, then what needs the platform: fullscreen on or off, a PNG export whose
    /// dialog is gone, the font atlas at a new text size. present=false leaves the picture
    /// unswapped, for Capture. delta_seconds < 0: the time ImGui measured since the last frame.
    Times Frame(const FrameOptions& options, float delta_seconds = -1.0f, bool present = true,
                bool time_gpu = false);

    /// Draws frames with no input until the picture has settled — a few frames (windows size
    /// themselves on the first ones), then more while a picture waits for data computed off the
    /// frame (the similarity table; at most a minute) — and reads it back, top row first.
    bool CaptureSettled(const FrameOptions& options, std::vector<unsigned char>* rgba, int* width,
                        int* height, std::string* error);

    /// Whether a picture computed off the frame is still to be drawn (keeps frames coming).
    bool TakeFramePending() { return heatmaps_.TakeFramePending(); }
    Platform& platform() { return platform_; }
    /// Releases the GL objects and closes the window (also done by the destructor).
    void Close();

private:
    void ExportPanelPng();
    float WantedFontPixels() const;

    App& app_;
    ImGuiContextOwner context_;
    Platform platform_;
    GlHeatmaps heatmaps_;
    FontSet fonts_;
    bool open_ = false;
    bool visible_ = false;
    float content_scale_ = 1.0f;
};

} // namespace pelab
