#include "gl/session.h"

#include "gl/bench_report.h"
#include "gl/frame_pacer.h"
#include "gl/gpu_heatmap.h"
#include "gl/platform.h"
#include "gl/runner.h"
#include "gl/termination_watch.h"
#include "io/handout_html.h"
#include "io/json_input.h"
#include "io/png_scene.h"
#include "io/settings_file.h"
#include "pelab/base/error.h"
#include "pelab/export/export.h"
#include "shell/app.h"
#include "shell/app_ui.h"
#include "shell/file_menu.h"
#include "shell/software_picture.h"
#include "shell/step_fit.h"
#include "widgets/fonts.h"
#include "widgets/plot.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace pelab {

namespace {

// Where ImGui keeps window positions and the view settings between runs:
// $XDG_CONFIG_HOME/pelab or ~/.config/pelab. "" when there is no usable folder, after saying
// once why (the app then starts with defaults and saves nothing).
std::string SettingsPath() {
    std::filesystem::path folder;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        folder = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        folder = std::filesystem::path(home) / ".config";
    if (folder.empty()) {
        std::fprintf(stderr, "pelab: neither XDG_CONFIG_HOME nor HOME is set: settings and "
                             "layout will not be saved\n");
        return {};
    }
    folder /= "pelab";
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error || ::access(folder.c_str(), W_OK | X_OK) != 0) {
        std::fprintf(stderr,
                     "pelab: cannot use the settings folder \"%s\" (%s): settings and layout "
                     "will not be saved\n",
                     PrintableLine(folder.string()).c_str(),
                     error ? error.message().c_str() : std::strerror(errno));
        return {};
    }
    return (folder / "imgui.ini").string();
}

// WritePngFile for the commands: says what it wrote or why not; the exit code.
int WritePng(const std::string& out, const std::vector<unsigned char>& rgba, int width, int height,
             const std::string& scene = {}, ExistingName existing = ExistingName::kFollow) {
    if (const std::string error = WritePngFile(out, rgba, width, height, scene, existing);
        !error.empty()) {
        std::fprintf(stderr, "pelab: %s\n", PrintableLine(error).c_str());
        return kExitRuntimeFailure;
    }
    std::printf("wrote %s (%dx%d)\n", out.c_str(), width, height);
    return kExitOk;
}

// Opens the runner's window; on failure prints why (no display, no OpenGL 3.3), false.
bool OpenWindow(Runner& runner, const PlatformOptions& options) {
    std::string error;
    if (runner.Open(options, &error)) return true;
    std::fprintf(stderr, "pelab: %s\n", PrintableLine(error).c_str());
    return false;
}

// Loads a scene into app; prints the message and returns false when it is bad.
bool LoadSceneOption(const std::string& path, App& app) {
    if (path.empty()) return true;
    const std::string error = app.LoadScene(path);
    if (error.empty()) return true;
    std::fprintf(stderr, "pelab: --scene: %s\n", PrintableLine(error).c_str());
    return false;
}

// Opens a checkpoint in the Your model panel (as File → Open does); wait: until it is read.
// Prints the message and returns false when the files are bad.
bool LoadModelOption(const std::string& path, App& app, bool wait) {
    if (path.empty()) return true;
    const std::string error = app.OpenModel(path, wait);
    if (error.empty()) return true;
    std::fprintf(stderr, "pelab: --model: %s\n", PrintableLine(error).c_str());
    return false;
}

// Opens each of paths as File → Open would (after --model); prints the message and returns false
// for one that is refused.
bool OpenFilesOption(const std::vector<std::string>& paths, App& app) {
    for (const std::string& path : paths)
        if (const std::string error = OpenFile(app, path); !error.empty()) {
            std::fprintf(stderr, "pelab: --open: %s\n", PrintableLine(error).c_str());
            return false;
        }
    return true;
}

// Starts the lesson at path ("" = none) at step (from 1), landed (no glide); prints the message
// and returns false when the lesson is bad or has fewer steps.
bool LoadLessonOption(const std::string& path, int step, App& app) {
    if (path.empty()) return true;
    Lesson lesson;
    // Every problem, as `pelab lesson check` lists them, not only the first.
    const std::vector<std::string> problems =
        LoadLessonProblems(path, app.scene, app.panels, &lesson, LessonStart(app));
    for (const std::string& problem : problems)
        std::fprintf(stderr, "pelab: --lesson: %s\n", PrintableLine(problem).c_str());
    if (!problems.empty()) return false;
    if (step > static_cast<int>(lesson.steps.size())) {
        std::fprintf(stderr, "pelab: --step: the lesson has %zu step%s (got %d)\n",
                     lesson.steps.size(), lesson.steps.size() == 1 ? "" : "s", step);
        return false;
    }
    StartLesson(app, std::move(lesson));
    GoToStep(app, step - 1);
    AdvanceGlide(app, kStepGlideSeconds); // the step's numbers, not half-way there
    return true;
}

// --state-out: the scene with every panel's readouts, to the file (atomically) or "-" (standard
// output); "" writes nothing. Says why and returns false when it cannot.
bool WriteStateOut(const std::string& path, const App& app) {
    if (path.empty()) return true;
    const std::string text =
        app.Document(true).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::string error;
    if (path == "-") {
        if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
            std::fflush(stdout) != 0)
            error = "writing to standard output failed";
    } else {
        error = SaveTextFile(path, text);
    }
    if (error.empty()) return true;
    std::fprintf(stderr, "pelab: --state-out: %s\n", PrintableLine(error).c_str());
    return false;
}

// Reads the saved layout and view settings now (not at the first frame, as ImGui would), so a
// scene and the command line can override them. A path that is not a settings file is left
// alone, with one message, and the session runs on defaults.
void LoadSettings(SettingsFile& settings) {
    std::string text;
    if (!settings.Load(&text) && !settings.Warning().empty())
        std::fprintf(stderr, "pelab: %s\n", PrintableLine(settings.Warning()).c_str());
    ImGui::LoadIniSettingsFromMemory(text.data(), text.size()); // also marks them as loaded
}

// Writes ImGui's settings (layout, and the view settings through their handler) when they
// changed, or now when `now`; says why once if they cannot be written.
void SaveSettings(SettingsFile& settings, bool now) {
    ImGuiIO& io = ImGui::GetIO();
    if (!now && !io.WantSaveIniSettings) return;
    io.WantSaveIniSettings = false;
    if (!settings.Usable()) return;
    std::size_t size = 0;
    const char* text = ImGui::SaveIniSettingsToMemory(&size);
    if (const std::string error = settings.Save(std::string(text, size)); !error.empty())
        std::fprintf(stderr, "pelab: %s\n", PrintableLine(error).c_str());
}

// A file the app will write later must be writable now: say so before opening a window.
bool CheckWritableLater(const char* option, const std::string& path) {
    if (path.empty() || path == "-") return true; // "-": standard output
    const std::string error = check_writable(path).message();
    if (error.empty()) return true;
    std::fprintf(stderr, "pelab: %s: %s\n", option, PrintableLine(error).c_str());
    return false;
}

// Writes the recorded widget rectangles as {"name": [x0, y0, x1, y1, visible], …} when they
// changed (visible: the fraction of the widget in view, 0 to 1, to three decimals):
// always valid JSON (names escaped, whatever text a widget's name holds; a coordinate that is
// not finite, as a collapsed window can give, is null) and written atomically, so a reader
// never sees half a file.
void WriteWidgetRects(const std::string& path, const WidgetRecorder& recorder,
                      std::map<std::string, WidgetRect>& written) {
    if (path.empty() || recorder.rects == written) return;
    written = recorder.rects;
    const nlohmann::json rects = WidgetRectsJson(written);
    const std::string text =
        rects.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (const std::string error = SaveTextFile(path, text); !error.empty())
        std::fprintf(stderr, "pelab: --widget-rects: %s\n", PrintableLine(error).c_str());
}

// CPU time (user + system) of this process so far, in seconds.
double ProcessCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

} // namespace

namespace {

// What the window starts from: the saved settings, then the scene, the model and the lesson of
// the command line, each overriding the one before. kExitOk, or the exit status of a refusal
// (said on stderr).
int LoadGuiInputs(const GuiOptions& options, App& app, SettingsFile& settings) {
    const bool benchmark = options.bench_frames > 0;
    // The very first run (no settings file yet) opens on the "Start here" map.
    std::error_code no_file;
    const bool first_run = !benchmark && !std::filesystem::exists(settings.Path(), no_file) &&
                           !no_file && !settings.Path().empty();
    if (first_run && options.scene.empty() && options.lesson.empty())
        app.view.presented_panel = "start";
    if (!benchmark) LoadSettings(settings);
    if (!LoadSceneOption(options.scene, app)) return kExitBadUsage;
    if (!LoadModelOption(options.model, app, !options.open.empty())) return kExitBadUsage;
    if (!OpenFilesOption(options.open, app)) return kExitBadUsage;
    if (options.font_scale_given) app.view.font_scale = options.font_scale;
    if (!options.theme.empty()) ThemeFromName(options.theme, &app.view.theme); // checked: cli.cpp
    app.view.fullscreen = options.fullscreen;
    app.recorder.enabled = !options.widget_rects.empty();
    // Heavy results are computed off the frame while the window stays responsive.
    app.compute_in_background = true;
    if (!LoadLessonOption(options.lesson, 1, app)) return kExitBadUsage;
    if (!CheckWritableLater("--state-out", options.state_out) ||
        !CheckWritableLater("--widget-rects", options.widget_rects))
        return kExitRuntimeFailure;
    return kExitOk;
}

} // namespace

int RunGui(const GuiOptions& options) {
    // First, before any thread starts: SIGTERM, SIGINT and SIGHUP end the session as Ctrl+Q.
    TerminationWatch termination;
    const bool benchmark = options.bench_frames > 0;
    App app;
    // Saved settings, then the scene, then the command line: each overrides the one before.
    Runner runner(app); // the ImGui context first: the saved settings are read into it
    SettingsFile settings(benchmark ? std::string() : SettingsPath());
    RegisterViewSettingsHandler(app.view);
    if (const int refused = LoadGuiInputs(options, app, settings); refused != kExitOk)
        return refused;
    ImGuiIO& io = ImGui::GetIO();
    // No keyboard navigation flag: the arrow keys belong to pos A and the pair (docs/panels.md).
    // A steady text cursor: a blinking one would need a redraw every half second at rest.
    io.ConfigInputTextCursorBlink = false;

    PlatformOptions platform_options;
    platform_options.visible = !benchmark;
    platform_options.fullscreen = options.fullscreen;
    platform_options.fit_to_screen = !benchmark;
    if (!OpenWindow(runner, platform_options)) return kExitRuntimeFailure;
    Platform& platform = runner.platform();
    // A layout saved in another window size (fullscreen now, or shrunk to a small screen) is
    // tiled afresh on the first frame rather than left half outside.
    if (options.fullscreen || platform.ShrunkToFit()) app.pending.arrange = true;
    termination.SetWake([&platform] { platform.Wake(); });
    const FrameOptions frame_options;

    BenchTimes bench(options.bench_frames);
    std::map<std::string, WidgetRect> written_rects;
    // One whole frame, then what the window's session keeps on disk; returns the frame's times.
    const auto draw_frame = [&](bool time_gpu) {
        const auto start = std::chrono::steady_clock::now();
        Runner::Times times = runner.Frame(frame_options, -1.0f, true, time_gpu);
        WriteWidgetRects(options.widget_rects, app.recorder, written_rects);
        SaveSettings(settings, false);
        times.total_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        return times;
    };
    // Render on demand: wait for events at rest, draw while something moves (see FramePacer).
    FramePacer pacer(kMaxFps);
    int state_step = -1; // the lesson step last written to --state-out
    const auto pace_one = [&](double max_wait_seconds) {
        if (pacer.ShouldWait())
            platform.WaitEvents(std::min(pacer.WaitSeconds(), max_wait_seconds));
        else
            platform.PollEvents();
        if (!pacer.ShouldDraw(platform.TakeActivity())) return false;
        const double cpu_before = ProcessCpuSeconds();
        const double total = draw_frame(false).total_ms;
        // In a lesson the state file is also written at each step, once it has landed, so that
        // a test (or a teacher's script) can follow the lecture step by step.
        if (app.lesson.Active() && options.state_out != "-" &&
            app.lesson.glide_elapsed >= kStepGlideSeconds && app.lesson.step != state_step) {
            state_step = app.lesson.step;
            WriteStateOut(options.state_out, app);
        }
        // A table computed off the frame (the similarity heatmap) keeps the frames coming until
        // it is drawn.
        const bool animating =
            app.state.playing || app.pending.arrange || runner.TakeFramePending() ||
            app.stats.computing || app.stats.settling || app.file_dialog.NeedsFrames() ||
            !app.pending.export_png.empty() || app.MenusHintAnimating() ||
            (app.lesson.Active() && app.lesson.glide_elapsed < kStepGlideSeconds);
        const double rest =
            pacer.FrameDone(animating, total / 1e3, ProcessCpuSeconds() - cpu_before);
        // The rest is at most one frame interval (FramePacer::kMaxRestSeconds), so input waits
        // no longer than that. (Waiting for events here instead lost an arrow key now and then:
        // events handled between frames reached ImGui's polled state out of step.)
        if (rest > 0) std::this_thread::sleep_for(std::chrono::duration<double>(rest));
        return true;
    };
    int frame = 0;
    while (!platform.ShouldClose() && !app.pending.quit && termination.Signal() == 0) {
        if (!benchmark) {
            pace_one(FramePacer::kIdleWaitSeconds);
            continue;
        }
        // --bench-frames measures continuous frames, as a user dragging would cause.
        platform.PollEvents();
        const Runner::Times times = draw_frame(true);
        bench.frame_ms.push_back(times.cpu_ms);
        bench.gpu_ms.push_back(times.gpu_ms);
        bench.wall_ms.push_back(times.total_ms);
        bench.core_ms.push_back(app.stats.core_seconds * 1e3);
        app.state.pair = frame % (app.state.d_model / 2);
        app.state.pos_a = 3.0 + 0.25 * frame;
        if (++frame >= options.bench_frames) break;
    }
    if (benchmark) {
        // Then rest: the frames owed to the last input first, then a few seconds with no
        // input, paced as the interactive loop is.
        for (int owed = 0; owed < 100 && !pacer.ShouldWait(); ++owed)
            pace_one(0.0);
        bench.idle_seconds = 3.0;
        const double cpu_before = ProcessCpuSeconds();
        const auto idle_start = std::chrono::steady_clock::now();
        for (;;) {
            const double elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - idle_start)
                    .count();
            if (elapsed >= bench.idle_seconds) break;
            bench.idle_frames += pace_one(bench.idle_seconds - elapsed) ? 1 : 0;
        }
        bench.idle_cpu = ProcessCpuSeconds() - cpu_before;
        PrintBench(bench, app, platform.GlRenderer());
    }
    termination.SetWake({});
    runner.Close();
    SaveSettings(settings, true);
    if (!WriteStateOut(options.state_out, app)) return kExitRuntimeFailure;
    // Ended by a signal: the status a shell expects of it, after the work was saved.
    if (const int signal_number = termination.Signal(); signal_number != 0)
        return 128 + signal_number;
    return kExitOk;
}

namespace {

// A hidden window of width × height for pictures; false (and a message) when there is no
// display or no OpenGL 3.3.
bool OpenOffscreen(Runner& runner, int width, int height) {
    PlatformOptions platform_options;
    platform_options.visible = false;
    platform_options.width = width;
    platform_options.height = height;
    return OpenWindow(runner, platform_options);
}

} // namespace

int RunScreenshot(const ScreenshotOptions& options) {
    App app;
    if (!LoadSceneOption(options.scene, app)) return kExitBadUsage;
    if (!LoadModelOption(options.model, app, true)) return kExitBadUsage;
    if (!OpenFilesOption(options.open, app)) return kExitBadUsage;
    if (options.font_scale_given) app.view.font_scale = options.font_scale;
    if (!options.theme.empty()) ThemeFromName(options.theme, &app.view.theme); // checked: cli.cpp
    if (!LoadLessonOption(options.lesson, options.step, app)) return kExitBadUsage;
    app.lesson.show_notes = options.notes;
    if (const std::string error = check_writable(options.out).message(); !error.empty()) {
        std::fprintf(stderr, "pelab: %s\n", PrintableLine(error).c_str());
        return kExitRuntimeFailure;
    }
    Runner runner(app); // screenshots are reproducible: no saved layout
    if (!OpenOffscreen(runner, options.width, options.height)) return kExitRuntimeFailure;
    FrameOptions frame_options;
    frame_options.solo_panel = options.panel;
    // The figure's scene presents the panel it shows, so it reopens as the same picture.
    if (!options.panel.empty()) app.view.presented_panel = options.panel;
    std::vector<unsigned char> rgba;
    int width = 0, height = 0;
    std::string error;
    if (!runner.CaptureSettled(frame_options, &rgba, &width, &height, &error)) {
        std::fprintf(stderr, "pelab: screenshot failed: %s\n", PrintableLine(error).c_str());
        return kExitRuntimeFailure;
    }
    runner.Close();
    // The figure carries its scene, so `pelab --scene FIGURE.png` reopens it.
    return WritePng(
        options.out, rgba, width, height,
        app.Document(false).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
}

int RunLessonHandout(const LessonOptions& options) {
    App app;
    ThemeFromName(options.theme, &app.view.theme); // checked: cli_lesson.cpp
    app.view.font_scale = options.font_scale;
    if (!LoadModelOption(options.model, app, true)) return kExitBadUsage;
    Lesson lesson;
    if (const std::string error =
            LoadLesson(options.file, app.scene, app.panels, &lesson, LessonStart(app));
        !error.empty()) {
        std::fprintf(stderr, "pelab: %s (pelab lesson check lists every problem)\n",
                     PrintableLine(error).c_str());
        return kExitBadUsage;
    }
    // A lesson that runs on a checkpoint is drawn with it, as it is checked.
    if (const std::vector<std::string> missing = LessonModelProblems(app, lesson);
        !missing.empty()) {
        std::fprintf(stderr, "pelab: %s (pelab lesson check lists every problem)\n",
                     PrintableLine(missing.front()).c_str());
        return kExitBadUsage;
    }
    // A hidden window for the GPU's pictures when there is a display; without one the pictures
    // are drawn in software (as `pelab train --plot` draws), where a heatmap shows the message a
    // window without OpenGL shows.
    Runner runner(app); // reproducible: no saved layout
    std::string no_gpu;
    {
        PlatformOptions hidden;
        hidden.visible = false;
        hidden.width = options.width;
        hidden.height = options.height;
        if (!runner.Open(hidden, &no_gpu))
            std::fprintf(stderr,
                         "pelab: no window for the GPU (%s): drawing the pictures in software "
                         "(a heatmap shows a message instead)\n",
                         PrintableLine(no_gpu).c_str());
        else
            no_gpu.clear();
    }
    namespace fs = std::filesystem;
    std::error_code fs_error;
    fs::create_directories(options.out, fs_error);
    if (fs_error || !fs::is_directory(options.out)) {
        std::fprintf(stderr, "pelab: --out: cannot make the folder %s (%s)\n",
                     PrintableLine(options.out).c_str(),
                     fs_error ? fs_error.message().c_str() : "a file has that name");
        return kExitRuntimeFailure;
    }
    const fs::path folder(options.out);
    // The pictures the handout already there shows: those this one does not make again are
    // removed once its page is written (never a file its page does not name).
    std::vector<std::string> earlier_pictures;
    if (struct stat index_info{}; ::lstat((folder / "index.html").c_str(), &index_info) == 0 &&
                                  S_ISREG(index_info.st_mode) &&
                                  index_info.st_size <= 16 * 1024 * 1024) {
        std::ifstream in(folder / "index.html", std::ios::binary);
        const std::string html((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        earlier_pictures = HandoutPicturesNamedBy(html);
    }
    FrameOptions frame_options;
    frame_options.handout = true;
    StartLesson(app, lesson);
    std::vector<std::string> pictures; // the steps' file names, in order
    int status = kExitOk;
    for (int k = 0; k < app.lesson.StepCount(); ++k) {
        GoToStep(app, k);
        AdvanceGlide(app, kStepGlideSeconds); // the step's numbers, not half-way there
        std::vector<unsigned char> rgba;
        int width = options.width, height = options.height;
        std::string error;
        if (!no_gpu.empty()) {
            rgba = SoftwarePicture(app, frame_options, width, height,
                                   kBaseFontPixels * app.view.font_scale);
        } else if (!runner.CaptureSettled(frame_options, &rgba, &width, &height, &error)) {
            std::fprintf(stderr, "pelab: step %d: the picture failed: %s\n", k + 1,
                         PrintableLine(error).c_str());
            status = kExitRuntimeFailure;
            break;
        }
        const std::string name = HandoutPictureName(k);
        const std::string path = (folder / name).string();
        // Each picture carries its scene, so `pelab --scene step-03.png` reopens the step. The
        // names are PE Lab's own: a link or FIFO found there is replaced or refused, never
        // written through (pelab/export/export.h, ExistingName::kReplace).
        if (WritePng(
                path, rgba, width, height,
                app.Document(false).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace),
                ExistingName::kReplace) != kExitOk) {
            status = kExitRuntimeFailure;
            break;
        }
        pictures.push_back(name);
    }
    if (no_gpu.empty()) runner.Close();
    if (status != kExitOk) return status;
    // The page last: an interrupted handout leaves the earlier page with its pictures.
    const std::string html = HandoutHtml(lesson, pictures, options.notes);
    const std::string index = (folder / "index.html").string();
    try {
        write_file_atomically(
            index, [&](std::ostream& out) { out << html; }, ExistingName::kReplace);
    } catch (const IoError& e) {
        std::fprintf(stderr, "pelab: %s\n", PrintableLine(e.what()).c_str());
        return kExitRuntimeFailure;
    }
    for (const std::string& name : earlier_pictures) {
        if (std::find(pictures.begin(), pictures.end(), name) != pictures.end()) continue;
        struct stat info {};
        const fs::path stale = folder / name;
        // A link is removed, not its target (unlink never follows one).
        if (::lstat(stale.c_str(), &info) == 0 && (S_ISREG(info.st_mode) || S_ISLNK(info.st_mode)))
            ::unlink(stale.c_str());
    }
    std::printf("wrote %s and %d pictures\n", index.c_str(), app.lesson.StepCount());
    return kExitOk;
}

int RunRender(const RenderOptions& options) {
    if (const std::string error = check_writable(options.out).message(); !error.empty()) {
        std::fprintf(stderr, "pelab: %s\n", PrintableLine(error).c_str());
        return kExitRuntimeFailure;
    }
    ImGuiContextOwner context; // the platform's backends need one; nothing is drawn with it
    Platform platform;
    PlatformOptions platform_options;
    platform_options.visible = false;
    platform_options.width = 64;
    platform_options.height = 64;
    std::string open_error;
    if (!platform.Init(platform_options, &open_error)) {
        std::fprintf(stderr, "pelab: %s\n", PrintableLine(open_error).c_str());
        return kExitRuntimeFailure;
    }
    GlHeatmaps heatmaps;
    HeatmapRequest request;
    request.picture = options.what == "similarity" ? HeatmapRequest::Picture::Similarity
                                                   : HeatmapRequest::Picture::PeMatrix;
    request.max_len = options.max_len;
    request.d_model = options.d_model;
    request.base = options.base;
    request.concatenated = options.layout != "interleaved";
    request.width = options.width;
    request.height = options.height;
    request.grey = options.colormap == "grey";
    const plot::DivergingMap map; // the colour-blind-safe default: blue, light grey, vermillion
    request.negative = map.negative;
    request.middle = map.middle;
    request.positive = map.positive;
    std::vector<unsigned char> rgba;
    std::string error;
    const bool rendered = heatmaps.RenderGrid(request, options.max_len, &rgba, &error);
    heatmaps.Release();
    platform.Shutdown();
    if (!rendered) {
        std::fprintf(stderr, "pelab: render failed: %s\n", PrintableLine(error).c_str());
        return kExitRuntimeFailure;
    }
    return WritePng(options.out, rgba, options.width, options.height);
}

} // namespace pelab
