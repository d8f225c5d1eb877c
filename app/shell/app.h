// app.h — everything one running PE Lab holds, owned by main() (through the session) and passed
// by reference: the shared parameters, the view settings, the panel registry, and the scene
// table built over all of them. Not copyable: the scene table points into it.
#pragma once

#include "io/model_service.h"
#include "io/scene.h"
#include "panels/panel_registry.h"
#include "shell/file_dialog.h"
#include "shell/file_menu.h"
#include "shell/lesson_player.h"
#include "widgets/app_state.h"
#include "widgets/frame.h"
#include "widgets/theme.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace pelab {

/// How the window looks; persisted between runs (theme, text size) and in scenes.
struct ViewSettings {
    ThemeId theme = ThemeId::Dark;
    /// The user's text zoom on top of the monitor's content scale; the session re-rasterises
    /// the font atlas whenever the pixel size this implies changes.
    float font_scale = 1.0f;
    bool fullscreen = false;
    /// A panel id shown alone, filling the window, for a room; "" = the tiled panels.
    std::string presented_panel;
    /// Panels show only their picture and key numbers (a clean slide): View → Hide controls, H.
    bool hide_controls = false;
    /// Advanced (today's whole app) or beginner: the advanced controls (the base, the heatmap's
    /// layout, the order panel's scale and √d, the candidates' settings, Play's smooth glide)
    /// hidden unless a lesson step outlines one. View → Beginner / Advanced; saved.
    bool advanced = true;
    /// Slides: a lesson shown without the menu bar and status bar, its step's panels above a
    /// compact lesson bar. On when a lesson starts; F5 toggles, Esc leaves.
    bool slide_mode = false;
    bool show_about = false;
    bool show_glossary = false;
    bool show_keys = false;     ///< the keyboard help (F1, ?)
    bool confirm_reset = false; ///< Reset all waits for Enter / Esc or a button
    /// Files opened or saved, newest first (File → Open recent; kept with the settings).
    std::vector<std::string> recent_files;

    /// Multiplies the text size by factor (Ctrl+= / Ctrl+-, the View menu), within [0.5, 4].
    void ScaleText(float factor);

    /// What the settings file (or the browser's storage) keeps of the view.
    struct Kept {
        ThemeId theme;
        float font_scale;
        bool advanced;
        std::vector<std::string> recent_files;
        bool operator==(const Kept& other) const {
            return theme == other.theme && font_scale == other.font_scale &&
                   advanced == other.advanced && recent_files == other.recent_files;
        }
        bool operator!=(const Kept& other) const { return !(*this == other); }
    };
    Kept KeptPart() const { return {theme, font_scale, advanced, recent_files}; }
};

constexpr float kMinFontScale = 0.5f, kMaxFontScale = 4.0f;
/// The hint "Esc: the menus and every panel" stays this long, then fades over the second time.
constexpr double kMenusHintSeconds = 6.0, kMenusHintFadeSeconds = 1.0;

struct App {
    /// The checkpoint open (File → Open, --model, a drop): first, so that it outlives every
    /// panel that reads it; state.models points here.
    ModelService models;
    AppState state;
    ViewSettings view;
    PanelRegistry panels;
    SceneTable scene;
    FrameRequests pending; ///< requests made by the last frame or the keys, not yet acted on
    FrameStats stats;
    WidgetRecorder recorder;
    LessonPlayer lesson; ///< the guided lesson on screen, if any
    /// The GPU pictures (heatmaps), provided by the window's session; null in headless tests.
    GpuRenderer* gpu = nullptr;
    /// The clipboard panels copy to: ImGui's (the window system's) unless the session gives
    /// another (the browser page's, whose copies take time and may be refused).
    ImmediateClipboard imgui_clipboard;
    Clipboard* clipboard = &imgui_clipboard;
    ImVec2 last_display_size{0, 0}; ///< to re-tile the panels when the window changes size
    float last_font_size = 0;       ///< … or the text size (the bars grow with it)
    /// The view's kept settings at the last frame: a change is saved within ImGui's saving
    /// interval (not only when the window closes, which a crash or a discarded tab skips).
    std::optional<ViewSettings::Kept> last_kept_view;
    /// The scene as the app starts, before settings or files, less the theme and text size
    /// (the user's, kept by Reset all).
    nlohmann::json defaults;
    /// The file dialog, what it is for, and the panel an export acts on.
    FileDialog file_dialog;
    /// File → Models on this computer: the GGUF files found when the menu opened (listed again
    /// each time it opens, not each frame).
    std::vector<LocalModel> local_models;
    bool local_models_listed = false;
    FileTask file_task = FileTask::None;
    std::string file_task_panel;
    /// File → Export as PNG's choices, asked before the file name: the size (0: the panel's
    /// window, 1: 1024×768, 2: 1920×1080, 3: custom), and whether the teach-back text goes in.
    struct ExportChoice {
        bool asking = false; ///< the options window is open
        int size = 0;
        int width = 1280, height = 800; ///< custom
        bool teach_back = false;
    } export_choice;
    std::string focused_panel; ///< the panel last clicked or typed in (for the exports)
    std::string refocus_panel; ///< gets the focus back after the panels it opened appear
    /// Panels may compute heavy results off the frame (FrameContext::compute_in_background):
    /// the window's session turns it on; pictures, readouts and the tests leave it off.
    bool compute_in_background = false;
    /// A file that could not be opened (a drop, a recent file): shown in a window until OK.
    std::string notice;
    /// The last file action's result ("saved scene.json"), on the status bar.
    std::string status_note;
    /// Widgets outlined outside a lesson (a revealed quiz answer's), by recorder name.
    std::vector<std::string> highlight_widgets;
    /// A scene applied on top of the screen brought teach-back text different from what the
    /// student typed: held here while the app asks whether to replace it.
    std::optional<std::string> incoming_teach_back;

    /// Whether the frame is drawn as slides (a lesson is on and slide mode is not left).
    /// A panel presented without the menus (a short screen, as the first run's Start map on a
    /// projector) says once, in a corner, that Esc brings the menus; true once Esc was used.
    bool menus_hint_done = false;
    /// ImGui's time when the hint was first drawn (< 0: not yet). It stays kMenusHintSeconds, then
    /// fades over kMenusHintFadeSeconds and is done: it must not cover a verdict for good.
    double menus_hint_shown_at = -1;
    /// The hint is on screen and fading or about to: the frames must keep coming until it is done.
    bool MenusHintAnimating() const { return menus_hint_shown_at >= 0 && !menus_hint_done; }
    /// The first tiled frame (of the session, after Reset all, after a lesson ends) closes the
    /// open panels beyond those whose tiles keep the least size of tiling.h (a projector at
    /// text ×2 keeps one) and says so on the status bar until another panel opens or closes.
    struct HomeFit {
        bool done = false; ///< decided for this home view
        int kept = 0;      ///< how many panels it left open (0: it closed none)
        std::string note;  ///< what it said
    } home_fit;

    bool Slides() const { return view.slide_mode && lesson.Active(); }

    App(); ///< builds the scene table over the state, the view and every panel
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    /// The scene of every field; with_readouts adds "readouts": {panel id: its numbers}.
    nlohmann::json Document(bool with_readouts) const;
    /// Takes a read that finished off the frame and hands its learned table to every panel
    /// through state.model_table: each frame (whether Your model is drawn or not), and after a
    /// checkpoint is read for readouts. True while a read is still running (frames go on).
    bool ShareModel();
    /// Opens a checkpoint (--model, File → Open) and opens the Your model panel: "" or why not.
    /// wait: read it now (readouts, screenshots, lesson check) and share its table, a file refused
    /// while read counting as an error; else it is read off the frame.
    std::string OpenModel(const std::string& path, bool wait);
    /// Applies the scene file at path (all or nothing); "" or a message naming the field.
    std::string LoadScene(const std::string& path) { return scene.Load(path); }
    /// Fields a student types (the teach-back text) in a scene about to be applied on top of
    /// the screen (a quiz show, a lesson step, File → Open, a drop): an empty one is removed
    /// (it never erases the student's text); a different non-empty one is removed too and kept
    /// in incoming_teach_back, for the question "Replace your teach-back text?", when the
    /// student has typed something. Returns doc ready to apply.
    nlohmann::json GuardStudentWork(nlohmann::json doc);
    /// The student's answer to that question.
    void AnswerTeachBackQuestion(bool replace);
};

/// Registers the "[PELab][View]" section of imgui.ini (theme, text size) so that it is read and
/// written with the window layout. Call once after creating the ImGui context.
void RegisterViewSettingsHandler(ViewSettings& view);

} // namespace pelab
