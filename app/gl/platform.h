// platform.h — the window, the OpenGL context and the ImGui backends behind one small
// interface. platform_glfw.cpp is the only file that includes GLFW or glad; panels know only
// ImGui and the core.
#pragma once

#include "widgets/input.h"

#include <memory>
#include <string>
#include <vector>

namespace pelab {

struct PlatformOptions {
    int width = 1280;
    int height = 800;
    bool visible = true; ///< false: a hidden window for `pelab screenshot`
    bool fullscreen = false;
    /// The interactive window: shrunk to the monitor's work area when width × height does not
    /// fit it (a 1024×768 projector), frame included. Off for pictures of an exact size.
    bool fit_to_screen = false;
    const char* title = "PE Lab";
};

class Platform {
public:
    Platform();
    ~Platform();
    Platform(const Platform&) = delete;
    Platform& operator=(const Platform&) = delete;

    /// Opens the window with a GL 3.3 core context and starts the ImGui GLFW + OpenGL3
    /// backends (the ImGui context must exist). On failure returns false and a message that
    /// says what is missing (no display, no OpenGL 3.3).
    bool Init(const PlatformOptions& options, std::string* error);
    /// Whether Init made the window smaller than asked, to fit the screen.
    bool ShrunkToFit() const;
    void Shutdown();

    bool ShouldClose() const;
    /// Handles the pending events without blocking.
    void PollEvents();
    /// Blocks until an event arrives or timeout_seconds pass (render on demand).
    void WaitEvents(double timeout_seconds);
    /// Ends a WaitEvents early; may be called from any thread while the window is open.
    void Wake();
    /// Whether any input or window event (key, mouse, wheel, text, resize, focus, expose)
    /// arrived since the last call.
    bool TakeActivity();
    /// Starts the backends' frame; call ImGui::NewFrame() after.
    void BeginFrame();
    /// Renders ImGui's draw data to the window and swaps.
    void EndFrame();
    /// GPU time of the commands between the two calls (GL_TIME_ELAPSED), in ms; the end waits
    /// for the GPU to finish them. For --bench-frames.
    void BeginGpuTimer();
    double EndGpuTimerMs();
    /// Renders ImGui's current draw data (after ImGui::Render) into an offscreen framebuffer of
    /// the window's size (or of *width × *height when `sized`) and reads it back as RGBA rows,
    /// top row first.
    bool Capture(std::vector<unsigned char>* rgba, int* width, int* height, std::string* error,
                 bool sized = false);
    /// For a second ImGui context drawn offscreen in the window's GL context (an export at
    /// another size): starts and ends the OpenGL renderer backend in the current context, and
    /// begins its frame (call ImGui::NewFrame after).
    void StartRendererInCurrentContext();
    void StopRendererInCurrentContext();
    void BeginRendererFrame();

    void SetFullscreen(bool fullscreen);
    bool IsFullscreen() const;
    /// Key presses since the last call, in order (see KeyPress in app_ui.h).
    std::vector<KeyPress> TakeKeyPresses();
    /// Paths of the files dropped on the window since the last call, in order.
    std::vector<std::string> TakeDroppedPaths();
    /// The monitor's content scale (1 on an ordinary screen, 2 on a HiDPI one).
    float ContentScale() const;
    /// Resizes the window (the browser edition's canvas follows the page this way).
    void SetWindowSize(int width, int height);
    /// Re-uploads the font atlas after it was rebuilt (e.g. at a new font scale).
    void ReloadFontTexture();
    std::string GlRenderer() const;

    struct Impl; ///< opaque: defined in platform_glfw.cpp (public so its callbacks can reach it)

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace pelab
