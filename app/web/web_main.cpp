// web_main.cpp — the browser edition's entry point (docs/web.md). The page's main loop calls
// the Runner's Frame(), the same frame the desktop window, the screenshots and the headless
// tests draw; this file only connects it to the page:
//  - the canvas follows the page's size;
//  - the settings (layout, theme, text size, recent files) live in the browser's local storage,
//    and so do the files behind Open Recent (a page's files vanish when it closes);
//  - the scene is in the address as "#scene=" (io/scene_link.h): a link restores it, editing
//    updates it, and pasting another link applies that one;
//  - File → Open uses the browser's file picker and the exports arrive as downloads (the file
//    dialog's "browser" chooser, shell/file_dialog.cpp; files written to /downloads/ go to the
//    browser, below);
//  - JavaScript reads the state through pelab_state_json (the readouts `pelab readouts` prints)
//    and pelab_scene_link, for the tests and for a page that embeds PE Lab.
#include "gl/runner.h"
#include "io/json_input.h"
#include "io/scene_link.h"
#include "io/settings_file.h"
#include "shell/app.h"
#include "shell/browser_files.h"
#include "shell/file_menu.h"
#include "web/web_page.h"

#include <emscripten.h>
#include <imgui.h>
#include <imgui_internal.h> // MarkIniSettingsDirty

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <system_error>
#include <vector>

namespace pelab {

/// Everything the page keeps between frames: made once in main and never destroyed (the page
/// ends with the tab).
struct WebSession {
    App app;
    Runner runner{app};
    PageClipboard clipboard;
    FrameOptions options;
    std::string settings_text;            ///< the last settings written to local storage
    std::vector<std::string> recent_kept; ///< the recent files whose bytes storage holds
    std::vector<std::string> recent_seen; ///< the recent files when they were last kept
    std::set<std::string> served;         ///< the files served with the page (ServedFiles)
    std::string link;                     ///< the fragment last written
    std::string link_problem;             ///< why the scene has no link (too large), shown once
    bool browser_fullscreen = false;      ///< the page's fullscreen at the last frame
    std::string pending_paste;            ///< a paste event's text, until Ctrl is up
    /// "?bench": every frame moves pos A and the pair as `pelab --bench-frames` does, and its
    /// CPU time is kept (the last 1 000), for docs/web.md's comparison with the desktop.
    bool bench = false;
    std::vector<double> frame_cpu_ms;
    int frame = 0;
};

namespace {

// Reads the saved layout and view settings, as the desktop reads imgui.ini; false on the first
// visit (nothing saved yet). Settings that are not settings text (damaged, or written by
// something else) are dropped with a message, as the desktop reports a settings file it
// cannot use, and the page starts on the defaults.
bool LoadSettings(WebSession& session) {
    char* saved = StorageGet(kSettingsKey);
    const bool visited = saved != nullptr;
    session.settings_text = TakeText(saved);
    if (!LooksLikeSettings(session.settings_text)) {
        StorageRemove(kSettingsKey);
        session.settings_text.clear();
        session.app.notice = "The settings this browser kept for PE Lab were damaged and have "
                             "been reset (theme, text size, layout and recent files).";
        ImGui::MarkIniSettingsDirty(); // good ones written soon, in their place
    }
    ImGui::LoadIniSettingsFromMemory(session.settings_text.data(), session.settings_text.size());
    return visited;
}

void SaveSettings(WebSession& session, bool force = false) {
    ImGuiIO& io = ImGui::GetIO();
    if (!io.WantSaveIniSettings && !force) return;
    io.WantSaveIniSettings = false;
    std::size_t size = 0;
    const char* text = ImGui::SaveIniSettingsToMemory(&size);
    std::string now(text, size);
    if (now == session.settings_text) return;
    if (StorageSet(kSettingsKey, now.c_str()))
        session.settings_text = std::move(now);
    else
        session.app.status_note =
            "the browser's storage for this site is full or blocked: settings are not kept";
}

// Every file the page carries (the lessons, scenes, quiz and runs served with it), before
// anything is written: these are always read from the server's copy.
std::set<std::string> ServedFiles() {
    namespace fs = std::filesystem;
    std::set<std::string> served;
    std::error_code error;
    for (fs::recursive_directory_iterator it("/pelab", error), end; !error && it != end;
         it.increment(error))
        if (it->is_regular_file(error)) served.insert(it->path().string());
    return served;
}

// A recent entry's path as the page's file system names it: absolute and without "." or ".."
// steps or doubled slashes (so "/pelab//lessons/./x.json" is the served "/pelab/lessons/x.json");
// "" for a relative path or a folder's.
std::string NormalPath(const std::string& path) {
    if (path.empty() || path.front() != '/' || path.back() == '/') return {};
    const std::string normal = std::filesystem::path(path).lexically_normal().string();
    std::error_code error;
    if (normal.empty() || normal.back() == '/' || std::filesystem::is_directory(normal, error))
        return {};
    return normal;
}

// The files behind Open Recent: a file served with the page is read from the page (a stored
// copy of it, left by an older page, is dropped: the teacher's fixed lesson must reach the
// students); a file the user brought comes back from its stored copy, unless the copy is
// damaged (not JSON text: dropped, with a message); an entry with neither, a relative path, a
// folder or a second entry of one file is forgotten, and so is every stored copy no entry
// names (they would fill the site's storage for nothing).
void RestoreRecentFiles(WebSession& session) {
    std::vector<std::string>& recent = session.app.view.recent_files;
    std::vector<std::string> kept_entries, damaged;
    for (const std::string& path : recent) {
        const std::string normal = NormalPath(path);
        if (normal.empty() ||
            std::find(kept_entries.begin(), kept_entries.end(), normal) != kept_entries.end())
            continue;
        if (session.served.count(normal)) {
            kept_entries.push_back(normal);
            continue;
        }
        const std::string bytes = TakeText(StorageGet((kRecentFileKey + path).c_str()));
        if (bytes.empty()) continue; // a PNG figure (kept only while the page was open)
        nlohmann::json ignored_doc;
        if (!ParseJsonInput(bytes, &ignored_doc).empty()) {
            damaged.push_back(normal);
            continue;
        }
        std::error_code ignored;
        std::filesystem::create_directories(std::filesystem::path(normal).parent_path(), ignored);
        std::ofstream(normal, std::ios::binary) << bytes;
        kept_entries.push_back(normal);
    }
    // Every stored copy but those of the entries kept, under their own spelling of the path.
    nlohmann::json keys;
    if (ParseJsonInput(TakeText(StorageKeys(kRecentFileKey)), &keys).empty() && keys.is_array())
        for (const nlohmann::json& key : keys) {
            if (!key.is_string()) continue;
            const std::string path = key.get<std::string>().substr(std::strlen(kRecentFileKey));
            const bool kept =
                path == NormalPath(path) && !session.served.count(path) &&
                std::find(kept_entries.begin(), kept_entries.end(), path) != kept_entries.end();
            if (!kept) StorageRemove(key.get<std::string>().c_str());
        }
    for (const std::string& path : kept_entries)
        if (!session.served.count(path)) session.recent_kept.push_back(path);
    if (kept_entries != recent) {
        recent = std::move(kept_entries);
        ImGui::MarkIniSettingsDirty();
    }
    if (!damaged.empty()) {
        std::string names;
        for (const std::string& path : damaged)
            names += (names.empty() ? "" : ", ") + std::filesystem::path(path).filename().string();
        session.app.notice = "The copy this browser kept of " + names +
                             " was damaged and has been dropped from Open recent; open the "
                             "file again from your computer.";
    }
}

// Keeps the bytes of each recent file the user brought (the page's own files are on the
// server) when the list changes (a file opened again moves to the top, and its bytes are stored
// again); forgets those no longer recent.
void KeepRecentFiles(WebSession& session) {
    const std::vector<std::string>& recent = session.app.view.recent_files;
    if (recent == session.recent_seen) return;
    session.recent_seen = recent;
    for (const std::string& kept : session.recent_kept)
        if (std::find(recent.begin(), recent.end(), kept) == recent.end())
            StorageRemove((kRecentFileKey + kept).c_str());
    std::vector<std::string> now, full;
    for (const std::string& path : recent) {
        if (session.served.count(path)) continue;
        std::string bytes;
        if (!ReadInputFile(path, kMaxKeptFileBytes, &bytes).empty()) continue;
        // Local storage holds text: a PNG figure is kept only while the page is open.
        if (bytes.find('\0') != std::string::npos) continue;
        if (StorageSet((kRecentFileKey + path).c_str(), bytes.c_str()))
            now.push_back(path);
        else
            full.push_back(std::filesystem::path(path).filename().string());
    }
    session.recent_kept = std::move(now);
    if (!full.empty()) {
        std::string names;
        for (const std::string& name : full)
            names += (names.empty() ? "" : ", ") + name;
        session.app.status_note = "the browser's storage for this site is full: " + names +
                                  " will not be in Open recent after the page closes";
    }
}

// A link pasted or opened: its scene, with the same checks as a file. A bad one changes
// nothing (at the start, the default scene stays), says why, and leaves the address bar (its
// link goes back to the scene on screen, so a reload does not bring the message back).
void ApplyNewFragment(WebSession& session, bool starting) {
    const std::string fragment = TakeText(TakeNewFragment());
    if (fragment.empty() || fragment == session.link) return;
    App& app = session.app;
    const char* outcome = starting ? "; the default scene is shown" : "; the scene on screen stays";
    const auto refuse = [&](const std::string& why) {
        app.notice = why + outcome;
        ReplaceFragment(session.link.c_str());
    };
    std::string text, why;
    if (!ReadSceneLink(fragment, &text, &why)) {
        if (!why.empty()) refuse(why);
        return;
    }
    // The link holds what differs from the defaults: the scene is the defaults with it on top,
    // applied at once (all or nothing, by the scene reader), so a link pasted mid-session shows
    // its scene, not a mix with what was on screen. The student's typed text is guarded as
    // when a file is opened; the viewer's own settings (theme, text size, mode) are not the
    // link's to change, even when a desktop scene file made it.
    nlohmann::json linked;
    if (const std::string problem = ParseJsonInput(text, &linked); !problem.empty()) {
        refuse(problem.find("end of input") != std::string::npos
                   ? "the link seems cut short: its scene stops before its end"
                   : "the link's scene is damaged: " + problem);
        return;
    }
    std::string error = linked.is_object() ? std::string() : app.scene.Check(linked);
    if (error.empty()) {
        RemoveViewerSettings(linked);
        nlohmann::json scene = app.defaults;
        for (const auto& [key, value] : linked.items())
            scene[key] = value;
        error = app.scene.ApplyDocument(app.GuardStudentWork(std::move(scene)));
    }
    if (!error.empty()) {
        refuse("the link's scene was not applied: " + error);
        return;
    }
    session.link = fragment;
}

// The address follows the scene: what differs from the defaults, as a link.
void UpdateFragment(WebSession& session) {
    const nlohmann::json difference =
        SceneDifference(session.app.scene.Document(), session.app.defaults);
    std::string why;
    std::string link = difference.empty() ? std::string() : SceneLink(difference, &why);
    if (!why.empty()) {
        if (why != session.link_problem) session.app.status_note = why;
        session.link_problem = why;
        return;
    }
    session.link_problem.clear();
    if (link == session.link) return;
    session.link = link;
    ReplaceFragment(link.c_str());
}

// What the app saved or exported (to the download folder) goes to the browser, then to the
// saved folder, where Open Recent finds it (its entry follows it).
void DeliverDownloads(WebSession& session) {
    namespace fs = std::filesystem;
    std::error_code error;
    std::vector<fs::path> written;
    for (const auto& entry : fs::directory_iterator(kDownloadFolder, error))
        if (entry.is_regular_file(error)) written.push_back(entry.path());
    for (const fs::path& path : written) {
        Download(path.c_str());
        fs::create_directories(kSavedFolder, error);
        const fs::path saved = fs::path(kSavedFolder) / path.filename();
        fs::rename(path, saved, error);
        if (error) fs::remove(path, error);
        for (std::string& recent : session.app.view.recent_files)
            if (recent == path.string()) {
                recent = saved.string();
                ImGui::GetIO().WantSaveIniSettings = true; // the recent files are settings
            }
    }
}

// A paste waits for Ctrl to be released: ImGui 1.86 drops typed characters while Ctrl is down
// (they would be shortcuts), and the paste event comes with Ctrl+V. It goes to the field that
// has the keyboard then; with none, it is dropped.
void TypePaste(WebSession& session) {
    ImGuiIO& io = ImGui::GetIO();
    if (session.pending_paste.empty() || io.KeyCtrl || io.KeySuper) return;
    if (io.WantTextInput) io.AddInputCharactersUTF8(session.pending_paste.c_str());
    session.pending_paste.clear();
}

void Frame(void* argument) {
    auto& session = *static_cast<WebSession*>(argument);
    Platform& platform = session.runner.platform();
    platform.SetWindowSize(PageWidth(), PageHeight());
    // The browser ends fullscreen itself (Esc, its own F11): the view follows it.
    if (const bool now = platform.IsFullscreen(); now != session.browser_fullscreen) {
        session.app.view.fullscreen = now;
        session.browser_fullscreen = now;
    }
    if (session.frame % 10 == 0) ApplyNewFragment(session, false);
    TypePaste(session);
    const Runner::Times times = session.runner.Frame(session.options);
    if (session.bench) {
        if (session.frame_cpu_ms.size() >= 1000) session.frame_cpu_ms.clear();
        session.frame_cpu_ms.push_back(times.cpu_ms);
        AppState& state = session.app.state;
        state.pair = session.frame % (state.d_model / 2);
        state.pos_a = 3.0 + 0.25 * session.frame;
    }
    DeliverDownloads(session);
    KeepRecentFiles(session);
    SaveSettings(session);
    // The link every few frames: a drag changes the scene sixty times a second, the address
    // need not.
    if (session.frame % 10 == 5) UpdateFragment(session);
    // When the first frame was drawn, for the page's load time (docs/web.md).
    if (session.frame == 0) MarkFirstFrame();
    ++session.frame;
}

} // namespace

namespace {

// Text for JavaScript, which frees it.
char* NewText(const std::string& text) {
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    std::copy(text.begin(), text.end(), out);
    out[text.size()] = '\0';
    return out;
}

} // namespace

/// The scene and the readouts `pelab readouts` prints for the same scene (App::Document(true)),
/// as JSON text.
extern "C" EMSCRIPTEN_KEEPALIVE char* pelab_state_json(void* session) {
    return NewText(static_cast<WebSession*>(session)->app.Document(true).dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace));
}

/// The scene's link as the address shows it ("" for the default scene).
extern "C" EMSCRIPTEN_KEEPALIVE char* pelab_scene_link(void* session) {
    WebSession& web = *static_cast<WebSession*>(session);
    UpdateFragment(web);
    return NewText(web.link);
}

/// The text of a paste event, typed into the text field that has the keyboard at the first frame
/// with Ctrl up (TypePaste).
extern "C" EMSCRIPTEN_KEEPALIVE void pelab_paste(void* session, const char* text) {
    static_cast<WebSession*>(session)->pending_paste += text;
}

/// Saves the settings now (the page is going away: ImGui waits a second before it asks).
extern "C" EMSCRIPTEN_KEEPALIVE void pelab_save_settings(void* session) {
    SaveSettings(*static_cast<WebSession*>(session), true);
}

/// What the page shows beside the scene, as JSON: the message window's text, the status note,
/// whether the keyboard help is up, the presented panel, fullscreen, the recent files; with
/// "?bench" the frames' CPU times, with "?rects" every recorded widget's rectangle (as
/// `pelab --widget-rects` writes them).
extern "C" EMSCRIPTEN_KEEPALIVE char* pelab_page_json(void* session) {
    const WebSession& web = *static_cast<WebSession*>(session);
    const App& app = web.app;
    nlohmann::json page = {{"notice", app.notice},
                           {"status_note", app.status_note},
                           {"keyboard_help", app.view.show_keys},
                           {"presented_panel", app.view.presented_panel},
                           {"fullscreen", app.view.fullscreen},
                           {"recent_files", app.view.recent_files}};
    if (web.bench) page["frame_cpu_ms"] = web.frame_cpu_ms;
    if (app.recorder.enabled) {
        page["widget_rects"] = WidgetRectsJson(app.recorder.rects);
    }
    return NewText(page.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace pelab

int main() {
    using pelab::WebSession;
    // The page's whole life: main returns to the browser, which then calls Frame.
    auto* session = new WebSession();
    pelab::App& app = session->app;
    std::error_code ignored;
    std::filesystem::create_directories(pelab::kDownloadFolder, ignored);
    // The Open dialog starts among the lessons and scenes the page carries.
    std::filesystem::current_path("/pelab", ignored);
    pelab::RegisterViewSettingsHandler(app.view);
    // A page can close at any moment: the settings are written a second after they change
    // (ImGui's default is five), and as the page goes away (shell.html). Set before the
    // settings are read: damaged ones are replaced within that second.
    ImGui::GetIO().IniSavingRate = 1.0f;
    ImGui::GetIO().ConfigInputTextCursorBlink = false;
    session->served = pelab::ServedFiles();
    const bool first_visit = !pelab::LoadSettings(*session);
    pelab::RestoreRecentFiles(*session);
    pelab::ApplyNewFragment(*session, true);
    if (first_visit && session->link.empty()) app.view.presented_panel = "start";
    const std::string query = pelab::TakeText(PageQuery());
    session->bench = query.find("bench") != std::string::npos;
    app.recorder.enabled = query.find("rects") != std::string::npos;
    // Heavy results (the rotation curves, the alternatives' checks, the heatmap's table) are
    // computed between frames, the page's stand-in for the desktop's thread (widgets/cached.h);
    // "?onframe" computes them on the frame instead, for docs/web.md's comparison.
    app.compute_in_background = query.find("onframe") == std::string::npos;
    pelab::PlatformOptions platform;
    platform.width = PageWidth();
    platform.height = PageHeight();
    std::string error;
    if (!session->runner.Open(platform, &error)) {
        EM_ASM(
            {
                if (Module.onPelabFailure) Module.onPelabFailure(UTF8ToString($0));
            },
            error.c_str());
        return 1;
    }
    session->clipboard.Install();
    app.clipboard = &session->clipboard;
    PublishSession(session);
    emscripten_set_main_loop_arg(pelab::Frame, session, 0, 1);
    return 0;
}
