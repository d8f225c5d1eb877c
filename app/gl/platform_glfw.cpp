// The one file that knows GLFW and glad. Everything else talks to Platform. The browser edition
// builds it too, with Emscripten's GLFW and WebGL 2: the few calls that differ are marked
// __EMSCRIPTEN__ (the page has no monitor work area, no GPU timer and no GL loader).
#include "gl/platform.h"

#include "gl/gl_api.h"
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif
// The GL declarations first: GLFW would otherwise pull its own from the system.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstring>

namespace pelab {

struct Platform::Impl {
    GLFWwindow* window = nullptr;
    bool backends_started = false;
    bool fullscreen = false;
    std::vector<KeyPress> key_presses;
    std::vector<std::string> dropped_paths;
    bool activity = true; ///< an event arrived since TakeActivity() (the first frame is owed)
    int windowed_x = 100, windowed_y = 100, windowed_w = 1280, windowed_h = 800;
    bool shrunk_to_fit = false;
    GLuint gpu_timer = 0; ///< GL_TIME_ELAPSED query for --bench-frames
};

namespace {
// The most recent GLFW error as text (glfwGetError keeps it per thread: no callback needed).
std::string LastGlfwError() {
#ifdef __EMSCRIPTEN__
    return "the browser refused a WebGL 2 context";
#else
    const char* description = nullptr;
    const int code = glfwGetError(&description);
    if (code == GLFW_NO_ERROR) return "no details";
    return description ? description : "error " + std::to_string(code);
#endif
}
// The callbacks below are installed before the ImGui backend, which chains to those it also
// installs (keys, buttons, wheel, text, focus, enter). Each marks activity for render on demand.
Platform::Impl* ImplOf(GLFWwindow* window) {
    return static_cast<Platform::Impl*>(glfwGetWindowUserPointer(window));
}
void MarkActivity(GLFWwindow* window) {
    if (Platform::Impl* impl = ImplOf(window)) impl->activity = true;
}
// Records every press and repeat.
void OnKey(GLFWwindow* window, int key, int /*scancode*/, int action, int mods) {
    Platform::Impl* impl = ImplOf(window);
    if (!impl) return;
    impl->activity = true;
    if ((action == GLFW_PRESS || action == GLFW_REPEAT) && impl->key_presses.size() < 256)
        impl->key_presses.push_back(
            KeyPress{key, (mods & GLFW_MOD_SHIFT) != 0, (mods & GLFW_MOD_CONTROL) != 0});
}
// Files dropped on the window, kept for the session to open (at most 16 at a time).
void OnDrop(GLFWwindow* window, int count, const char** paths) {
    Platform::Impl* impl = ImplOf(window);
    if (!impl) return;
    impl->activity = true;
    for (int k = 0; k < count && impl->dropped_paths.size() < 16; ++k)
        if (paths[k] != nullptr) impl->dropped_paths.emplace_back(paths[k]);
}
void OnCursorPos(GLFWwindow* window, double, double) {
    MarkActivity(window);
}
void OnMouseButton(GLFWwindow* window, int, int, int) {
    MarkActivity(window);
}
void OnScroll(GLFWwindow* window, double, double) {
    MarkActivity(window);
}
void OnChar(GLFWwindow* window, unsigned int) {
    MarkActivity(window);
}
void OnFocus(GLFWwindow* window, int) {
    MarkActivity(window);
}
void OnEnter(GLFWwindow* window, int) {
    MarkActivity(window);
}
void OnSize(GLFWwindow* window, int, int) {
    MarkActivity(window);
}
void OnRefresh(GLFWwindow* window) {
    MarkActivity(window);
}
} // namespace

Platform::Platform() : impl_(std::make_unique<Impl>()) {}
Platform::~Platform() {
    Shutdown();
}

bool Platform::Init(const PlatformOptions& options, std::string* error) {
    if (!glfwInit()) {
        *error = "cannot open a window: no display available (GLFW: " + LastGlfwError() +
                 "). Run PE Lab in a desktop session, or under xvfb-run for automation.";
        return false;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    int area_x = 0, area_y = 0, area_w = 0, area_h = 0;
#ifdef __EMSCRIPTEN__
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0); // WebGL 2
#else
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    // The work area: the monitor less the desktop's panels (the whole screen without a window
    // manager, as under Xvfb).
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor(); monitor && options.fit_to_screen)
        glfwGetMonitorWorkarea(monitor, &area_x, &area_y, &area_w, &area_h);
#endif
    const bool shrink =
        area_w > 0 && area_h > 0 && (options.width > area_w || options.height > area_h);
    impl_->window = glfwCreateWindow(shrink ? std::min(options.width, area_w) : options.width,
                                     shrink ? std::min(options.height, area_h) : options.height,
                                     options.title, nullptr, nullptr);
    if (!impl_->window) {
        *error = "cannot create an OpenGL 3.3 core window (GLFW: " + LastGlfwError() +
                 "). PE Lab needs OpenGL 3.3; on Debian, Mesa (libgl1-mesa-dri) provides it.";
        glfwTerminate();
        return false;
    }
    if (shrink) {
        // The frame (title bar, borders) counts too: the client area is what is left, placed
        // at the work area's corner.
        int left = 0, top = 0, right = 0, bottom = 0;
        glfwGetWindowFrameSize(impl_->window, &left, &top, &right, &bottom);
        glfwSetWindowSize(impl_->window,
                          std::max(200, std::min(options.width, area_w - left - right)),
                          std::max(150, std::min(options.height, area_h - top - bottom)));
        glfwSetWindowPos(impl_->window, area_x + left, area_y + top);
        impl_->shrunk_to_fit = true;
    }
    glfwMakeContextCurrent(impl_->window);
#ifndef __EMSCRIPTEN__
    if (!gladLoadGL(glfwGetProcAddress)) {
        *error = "cannot load OpenGL 3.3 functions (glad failed): the driver lacks OpenGL 3.3.";
        glfwDestroyWindow(impl_->window);
        impl_->window = nullptr;
        glfwTerminate();
        return false;
    }
#endif
    glfwSwapInterval(options.visible ? 1 : 0);
    glfwSetWindowUserPointer(impl_->window, impl_.get());
    glfwSetKeyCallback(impl_->window, OnKey);
    glfwSetCursorPosCallback(impl_->window, OnCursorPos);
    glfwSetMouseButtonCallback(impl_->window, OnMouseButton);
    glfwSetScrollCallback(impl_->window, OnScroll);
    glfwSetCharCallback(impl_->window, OnChar);
    glfwSetDropCallback(impl_->window, OnDrop);
    glfwSetWindowFocusCallback(impl_->window, OnFocus);
    glfwSetCursorEnterCallback(impl_->window, OnEnter);
    glfwSetFramebufferSizeCallback(impl_->window, OnSize);
    glfwSetWindowRefreshCallback(impl_->window, OnRefresh);
    ImGui_ImplGlfw_InitForOpenGL(impl_->window, true);
    ImGui_ImplOpenGL3_Init(kGlslVersion);
    impl_->backends_started = true;
    if (options.fullscreen) SetFullscreen(true);
    return true;
}

#ifdef __EMSCRIPTEN__
// WebGL 2 has no GL_TIME_ELAPSED query: the browser reports GPU time 0.
void Platform::BeginGpuTimer() {}
double Platform::EndGpuTimerMs() {
    return 0;
}
#else
void Platform::BeginGpuTimer() {
    if (impl_->gpu_timer == 0) glGenQueries(1, &impl_->gpu_timer);
    glBeginQuery(GL_TIME_ELAPSED, impl_->gpu_timer);
}

double Platform::EndGpuTimerMs() {
    glEndQuery(GL_TIME_ELAPSED);
    GLuint64 nanoseconds = 0;
    glGetQueryObjectui64v(impl_->gpu_timer, GL_QUERY_RESULT, &nanoseconds); // waits for the GPU
    return static_cast<double>(nanoseconds) / 1e6;
}
#endif

void Platform::Shutdown() {
    if (impl_->gpu_timer != 0 && impl_->window != nullptr) {
        glDeleteQueries(1, &impl_->gpu_timer);
        impl_->gpu_timer = 0;
    }
    if (impl_->backends_started) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        impl_->backends_started = false;
    }
    if (impl_->window) {
        glfwDestroyWindow(impl_->window);
        impl_->window = nullptr;
        glfwTerminate();
    }
}

bool Platform::ShouldClose() const {
    return glfwWindowShouldClose(impl_->window) != 0;
}

void Platform::PollEvents() {
    glfwPollEvents();
}

void Platform::WaitEvents(double timeout_seconds) {
    glfwWaitEventsTimeout(timeout_seconds);
}

void Platform::Wake() {
    glfwPostEmptyEvent();
}

bool Platform::TakeActivity() {
    const bool activity = impl_->activity;
    impl_->activity = false;
    return activity;
}

void Platform::BeginFrame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
}

void Platform::EndFrame() {
    int width = 0, height = 0;
    glfwGetFramebufferSize(impl_->window, &width, &height);
    glViewport(0, 0, width, height);
    const ImVec4 clear = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(clear.x * 0.8f, clear.y * 0.8f, clear.z * 0.8f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(impl_->window);
}

void Platform::StartRendererInCurrentContext() {
    ImGui_ImplOpenGL3_Init(kGlslVersion);
}

void Platform::StopRendererInCurrentContext() {
    ImGui_ImplOpenGL3_Shutdown();
}

void Platform::BeginRendererFrame() {
    ImGui_ImplOpenGL3_NewFrame();
}

bool Platform::Capture(std::vector<unsigned char>* rgba, int* width, int* height,
                       std::string* error, bool sized) {
    if (!sized) glfwGetFramebufferSize(impl_->window, width, height);
    if (*width <= 0 || *height <= 0) {
        *error = "the window has no framebuffer to capture";
        return false;
    }
    GLuint framebuffer = 0, color = 0;
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glGenRenderbuffers(1, &color);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, *width, *height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (complete) {
        glViewport(0, 0, *width, *height);
        const ImVec4 clear = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        glClearColor(clear.x * 0.8f, clear.y * 0.8f, clear.z * 0.8f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        std::vector<unsigned char> bottom_up(static_cast<std::size_t>(*width) * *height * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, *width, *height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
        // GL's first row is the bottom one; PNG's is the top one.
        rgba->resize(bottom_up.size());
        const std::size_t stride = static_cast<std::size_t>(*width) * 4;
        for (int y = 0; y < *height; ++y)
            std::memcpy(rgba->data() + y * stride, bottom_up.data() + (*height - 1 - y) * stride,
                        stride);
        for (std::size_t k = 3; k < rgba->size(); k += 4)
            (*rgba)[k] = 255; // opaque, whatever the blending left in alpha
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteRenderbuffers(1, &color);
    glDeleteFramebuffers(1, &framebuffer);
    if (!complete) *error = "the offscreen framebuffer is incomplete on this driver";
    return complete;
}

#ifdef __EMSCRIPTEN__
// The page's fullscreen is the browser's (which Esc also ends): asked of it, and read from it.
// (The JavaScript is kept as written: clang-format would split its arrows.)
// clang-format off
void Platform::SetFullscreen(bool fullscreen) {
    if (fullscreen)
        EM_ASM({ document.documentElement.requestFullscreen().catch(() => {}); });
    else
        EM_ASM({ if (document.fullscreenElement) document.exitFullscreen().catch(() => {}); });
    impl_->fullscreen = fullscreen;
}
// clang-format on

bool Platform::IsFullscreen() const {
    return EM_ASM_INT({ return document.fullscreenElement ? 1 : 0; }) != 0;
}
#else
void Platform::SetFullscreen(bool fullscreen) {
    if (fullscreen == impl_->fullscreen) return;
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (fullscreen && mode) {
        glfwGetWindowPos(impl_->window, &impl_->windowed_x, &impl_->windowed_y);
        glfwGetWindowSize(impl_->window, &impl_->windowed_w, &impl_->windowed_h);
        glfwSetWindowMonitor(impl_->window, monitor, 0, 0, mode->width, mode->height,
                             mode->refreshRate);
        impl_->fullscreen = true;
    } else if (!fullscreen) {
        glfwSetWindowMonitor(impl_->window, nullptr, impl_->windowed_x, impl_->windowed_y,
                             impl_->windowed_w, impl_->windowed_h, 0);
        impl_->fullscreen = false;
    }
}

bool Platform::IsFullscreen() const {
    return impl_->fullscreen;
}
#endif

bool Platform::ShrunkToFit() const {
    return impl_->shrunk_to_fit;
}

std::vector<KeyPress> Platform::TakeKeyPresses() {
    std::vector<KeyPress> presses;
    presses.swap(impl_->key_presses);
    return presses;
}

std::vector<std::string> Platform::TakeDroppedPaths() {
    std::vector<std::string> paths;
    paths.swap(impl_->dropped_paths);
    return paths;
}

#ifdef __EMSCRIPTEN__
// The screen's pixels per CSS pixel: the page's canvas has that many per CSS pixel
// (app/web/web_main.cpp), so the text is drawn that much larger, at the screen's resolution.
EM_JS(float, DevicePixelRatio, (), { return window.devicePixelRatio || 1; });
#endif

float Platform::ContentScale() const {
#ifdef __EMSCRIPTEN__
    const float ratio = DevicePixelRatio();
    return ratio >= 0.25f && ratio <= 8.0f ? ratio : 1.0f;
#else
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(impl_->window, &x, &y);
    return x > 0.0f ? x : 1.0f;
#endif
}

void Platform::SetWindowSize(int width, int height) {
    int now_w = 0, now_h = 0;
    glfwGetWindowSize(impl_->window, &now_w, &now_h);
    if (width > 0 && height > 0 && (width != now_w || height != now_h)) {
        glfwSetWindowSize(impl_->window, width, height);
        impl_->activity = true;
    }
}

void Platform::ReloadFontTexture() {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
}

std::string Platform::GlRenderer() const {
    const GLubyte* renderer = glGetString(GL_RENDERER);
    const GLubyte* version = glGetString(GL_VERSION);
    return std::string(renderer ? reinterpret_cast<const char*>(renderer) : "?") + " / OpenGL " +
           (version ? reinterpret_cast<const char*>(version) : "?");
}

} // namespace pelab
