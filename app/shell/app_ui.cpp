#include "shell/app_ui.h"
#include "widgets/number_text.h"

#include "io/json_input.h"
#include "shell/file_menu.h"
#include "shell/glossary.h"
#include "shell/keyboard_help.h"
#include "widgets/fonts.h"
#include "widgets/layout.h"
#include "widgets/shortcuts.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

namespace pelab {

namespace {

// The floating windows' rectangles, as "window.<name>" (while open), for the tests that check
// that they open inside the screen.
void RecordFloatingWindows(App& app) {
    if (!app.recorder.enabled) return;
    const struct {
        const char* window;
        const char* name;
    } floating[] = {{"Glossary", "window.glossary"},
                    {"Keyboard help###keyboard_help", "window.keyboard_help"},
                    {"About PE Lab", "window.about"}};
    for (const auto& [window_name, name] : floating) {
        const ImGuiWindow* window = ImGui::FindWindowByName(window_name);
        if (window == nullptr || !window->Active) {
            app.recorder.rects.erase(name);
            app.recorder.layout.erase(name);
            continue;
        }
        const WidgetRect rect{window->Pos.x, window->Pos.y, window->Pos.x + window->Size.x,
                              window->Pos.y + window->Size.y};
        app.recorder.rects[name] = rect;
        app.recorder.layout[name] = {rect, rect.x1};
    }
}

// The lesson bar above the status bar, the highlights over the panels, and B's black screen.
void DrawLessonParts(App& app, float status_bar, float lesson_bar) {
    const bool covered = app.view.show_keys || app.view.confirm_reset || app.file_dialog.IsOpen();
    if (!app.lesson.Active()) {
        if (!covered) DrawWidgetOutlines(app, app.highlight_widgets);
        return;
    }
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    FitStepToRoom(app, viewport->Pos.y + viewport->Size.y - status_bar - lesson_bar);
    // A handout's picture has no bar (its caption is printed beside it).
    if (lesson_bar > 0)
        DrawLessonBar(
            app,
            ImVec2(viewport->Pos.x, viewport->Pos.y + viewport->Size.y - status_bar - lesson_bar),
            ImVec2(viewport->Size.x, lesson_bar));
    // The outlines are drawn over everything: not over the help or a question.
    // The notes first: the outlines (drawn over every window) stop at their bottom edge. Not
    // while the keys, a question or a file dialog is open: the notes would cover it, and Esc
    // closes what is on top.
    const float notes_bottom =
        lesson_bar > 0 && app.lesson.show_notes && !covered ? DrawLessonNotes(app) : -1e30f;
    if (!covered) DrawLessonHighlights(app, notes_bottom);
    if (app.lesson.blank) DrawBlankScreen();
}

// A panel presented without the menus (a short screen): one line in the bottom right corner
// says how to reach them, until Esc is first used or for kMenusHintSeconds, then fades out (it
// would cover the end of a verdict for good). Over the panel, not in its layout.
void DrawMenusHint(App& app) {
    if (app.view.show_keys || app.view.confirm_reset || app.file_dialog.IsOpen()) return;
    const double now = ImGui::GetTime();
    if (app.menus_hint_shown_at < 0) app.menus_hint_shown_at = now;
    const double age = now - app.menus_hint_shown_at;
    if (age >= kMenusHintSeconds + kMenusHintFadeSeconds) {
        app.menus_hint_done = true;
        return;
    }
    const float alpha = static_cast<float>(
        std::clamp(1.0 - (age - kMenusHintSeconds) / kMenusHintFadeSeconds, 0.0, 1.0));
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, alpha);
    const char* hint = "Esc: the menus and every panel";
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float font = ImGui::GetFontSize();
    const ImVec2 size = ImGui::CalcTextSize(hint);
    const ImVec2 max(viewport->Pos.x + viewport->Size.x - font * 0.6f,
                     viewport->Pos.y + viewport->Size.y - font * 0.4f);
    const ImVec2 min(max.x - size.x - font * 0.8f, max.y - size.y - font * 0.4f);
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    draw->AddRectFilled(min, max, ImGui::GetColorU32(ImGuiCol_PopupBg), font * 0.3f);
    draw->AddRect(min, max, ImGui::GetColorU32(ImGuiCol_Border), font * 0.3f);
    draw->AddText(ImVec2(min.x + font * 0.4f, min.y + font * 0.2f),
                  ImGui::GetColorU32(ImGuiCol_Text), hint);
    ImGui::PopStyleVar();
    if (app.recorder.enabled) app.recorder.rects["hint.menus"] = {min.x, min.y, max.x, max.y};
}

// The window boilerplate every panel shares, then the panel's own Draw.
// Gives the focus back to the panel that had it before a scene change opened others.
void RestoreFocus(App& app) {
    if (app.refocus_panel.empty()) return;
    if (const PanelEntry* entry = app.panels.Find(app.refocus_panel))
        if (ImGui::FindWindowByName(entry->window_name.c_str())) {
            ImGui::SetWindowFocus(entry->window_name.c_str());
            // Its keys go to it from the next frame's shortcuts on, before it is drawn again.
            app.focused_panel = app.refocus_panel;
        }
    app.refocus_panel.clear();
}

// The widgets outlined now: the lesson step's, or a quiz answer's.
const std::vector<std::string>& Outlined(const App& app) {
    if (app.lesson.Active()) return app.lesson.lesson.steps[app.lesson.step].highlight;
    return app.highlight_widgets;
}

void DrawPanelWindow(App& app, PanelEntry& entry, bool* p_open, ImGuiWindowFlags flags,
                     bool presented) {
    FrameContext frame{app.state,
                       app.pending,
                       app.recorder,
                       app.stats,
                       GetTheme(app.view.theme),
                       !app.view.hide_controls,
                       app.gpu,
                       presented};
    frame.compute_in_background = app.compute_in_background;
    frame.clipboard = app.clipboard;
    // A step whose highlights are not whole at full size is drawn smaller (FitStepToRoom): every
    // window of the panel (its strip, body and tables too) takes the scale when it begins.
    // (ImGui reads the global scale when a font is made current: hence the push.)
    ImGuiIO& io = ImGui::GetIO();
    const float global_scale = io.FontGlobalScale;
    if (app.Slides() && app.lesson.Active()) io.FontGlobalScale = app.lesson.fit_scale;
    ImGui::PushFont(ImGui::GetFont());
    if (ImGui::Begin(entry.window_name.c_str(), p_open, flags)) {
        if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows))
            app.focused_panel = entry.id;
        frame.pictures_first =
            ImGui::GetContentRegionAvail().y < ImGui::GetFontSize() * kShortWindowEms;
        const std::vector<std::string>& outlined = Outlined(app);
        frame.slides = app.Slides();
        frame.advanced = app.view.advanced;
        if (frame.slides) {
            // The step's controls: shown when it outlines one of this panel's (or one never
            // drawn yet, which may be one), or when H asked for them all.
            frame.slide_controls = app.lesson.all_controls;
            for (const std::string& name : outlined)
                if (WidgetBelongsTo(name, entry.id) && (app.recorder.control_names.count(name) ||
                                                        !app.recorder.seen_names.count(name)))
                    frame.slide_controls = true;
        }
        frame.outlined = &outlined;
        frame.panel_id = entry.id;
        entry.panel->Draw(frame);
        EndPanelBody(frame);
        if (app.recorder.focus_frames > 0 && app.recorder.enabled)
            KeepOutlinedInView(app.recorder, outlined, entry.id);
    }
    ImGui::End();
    io.FontGlobalScale = global_scale;
    ImGui::PopFont();
    app.state.Clamp();
}

// What floats over the panels, presented or tiled: the dialogs and help windows, the lesson's
// bar and notes, and the status bar with the presented panel's note (panel_note) and the app's.
void DrawShellWindows(App& app, float status_bar, float lesson_bar, const std::string& panel_note) {
    DrawAbout(app.view);
    DrawGlossary(&app.view.show_glossary);
    DrawKeyboardHelp(app);
    DrawResetConfirmation(app);
    DrawTeachBackQuestion(app);
    DrawFileWindows(app);
    HoldLockedFields(app);
    DrawLessonParts(app, status_bar, lesson_bar);
    RecordFloatingWindows(app);
    std::string note = panel_note;
    if (!app.status_note.empty()) note += (note.empty() ? "" : "   ·   ") + app.status_note;
    if (status_bar > 0) DrawStatusBar(app.state, note);
}

} // namespace

namespace {

// A new window size or text size: the tiles are laid out again (taller text makes taller menu
// and title bars: tiles laid out for the old size would put the title bars under the menu bar).
void NoteSizeChanges(App& app) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    if (app.last_display_size.x > 0 &&
        (display.x != app.last_display_size.x || display.y != app.last_display_size.y))
        app.pending.arrange = true;
    app.last_display_size = display;
    if (app.last_font_size > 0 && ImGui::GetFontSize() != app.last_font_size)
        app.pending.arrange = true;
    app.last_font_size = ImGui::GetFontSize();
}

// Play moves pos A by the time since the last frame.
void AdvancePlay(AppState& state, float delta_seconds) {
    if (!state.playing) return;
    // At most a quarter second per frame: the first frame after a rest (render on demand) comes
    // seconds after the one before, and Play must not jump by all of that.
    const double step = std::min(static_cast<double>(delta_seconds), kMaxAnimationStep);
    if (state.play_smooth) {
        state.pos_a += state.play_speed * step;
    } else {
        // Whole positions: the carry gathers the fractions until a whole step is due.
        state.play_carry += state.play_speed * step;
        const double whole = std::floor(state.play_carry);
        state.play_carry -= whole;
        state.pos_a = std::round(state.pos_a) + whole;
    }
    if (state.pos_a > kUiMaxPosition) state.pos_a = 0.0;
}

// The bars' heights this frame: the menu bar on top (0 for a screenshot or slides), the status
// bar as high, and the lesson bar above it.
struct Bars {
    float top = 0, status = 0, lesson = 0;
    bool screenshot = false;
};

// One panel filling the window: for a screenshot (no menu), or presented to a room (the menu
// stays, to get back, and so does the status bar, unless the screen is short).
void DrawSoloPanel(App& app, PanelEntry& entry, const Bars& bars) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    // Nothing to tile (Esc asks again when the tiles come back).
    app.pending.arrange = false;
    if (bars.top > 0) DrawMainMenu(app);
    ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x, viewport->Pos.y + bars.top), ImGuiCond_Always);
    ImGui::SetNextWindowSize(
        ImVec2(viewport->Size.x, viewport->Size.y - bars.top - bars.status - bars.lesson),
        ImGuiCond_Always);
    // Neither moved, resized nor collapsed: a double-click on the title must not blank the
    // screen in front of a room.
    DrawPanelWindow(app, entry, nullptr,
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove |
                        ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings,
                    true);
    RestoreFocus(app);
    if (bars.screenshot) return;
    DrawShellWindows(app, bars.status, bars.lesson, entry.panel->StatusNote(app.state));
    if (bars.top == 0 && !app.lesson.Active() && !app.menus_hint_done) DrawMenusHint(app);
}

// The first tiled frame closes the panels that do not fit (panels opened later are the user's
// choice to crowd) and says so; returns how many stay open.
int FitHomeTiles(App& app, int open, ImVec2 area_size) {
    if (!app.home_fit.done) {
        app.home_fit = App::HomeFit{true, 0, ""};
        const int fit = TilesThatFit(open, area_size, ImGui::GetFontSize());
        if (fit < open) {
            int kept = 0;
            for (PanelEntry& entry : app.panels.Entries())
                if (entry.open && ++kept > fit) entry.open = false;
            app.home_fit.note = "showing " + std::to_string(fit) + " of " + std::to_string(open) +
                                " panels to fit the window (View → Panels opens more)";
            app.home_fit.kept = fit;
            app.status_note = app.home_fit.note;
            return fit;
        }
    } else if (app.home_fit.kept > 0 && open != app.home_fit.kept) {
        // A panel opened or closed since: the note no longer counts what is on screen.
        if (app.status_note == app.home_fit.note) app.status_note.clear();
        app.home_fit.kept = 0;
    }
    return open;
}

// The open panels as tiles under the menu bar.
void DrawTiles(App& app, const Bars& bars) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    if (bars.top > 0) DrawMainMenu(app);
    const bool arrange = app.pending.arrange;
    app.pending.arrange = false;
    // Viewport::WorkPos would give the same area, but ImGui 1.86 updates it one frame late,
    // after FirstUseEver has applied; the bars are one frame high each.
    const ImVec2 area_pos(viewport->Pos.x, viewport->Pos.y + bars.top);
    const ImVec2 area_size(viewport->Size.x,
                           viewport->Size.y - bars.top - bars.status - bars.lesson);
    const int open = FitHomeTiles(
        app,
        static_cast<int>(std::count_if(app.panels.Entries().begin(), app.panels.Entries().end(),
                                       [](const PanelEntry& entry) { return entry.open; })),
        area_size);
    int index = 0;
    for (PanelEntry& entry : app.panels.Entries()) {
        if (!entry.open) continue;
        const Tile tile = TileFor(index++, open, area_pos, area_size, ImGui::GetFontSize() * 0.3f);
        const ImGuiCond condition = arrange ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
        ImGui::SetNextWindowPos(tile.pos, condition);
        ImGui::SetNextWindowSize(tile.size, condition);
        DrawPanelWindow(app, entry, &entry.open, 0, false);
        // A title bar out of reach (a layout saved in a larger or fullscreen window, restored in
        // a smaller one): tile again next frame rather than leave a panel nobody can move.
        if (const ImGuiWindow* window = ImGui::FindWindowByName(entry.window_name.c_str()))
            if (!TitleBarReachable(window->Pos, window->Size.x, display, ImGui::GetFrameHeight()))
                app.pending.arrange = true;
    }
    RestoreFocus(app);
    DrawShellWindows(app, bars.status, bars.lesson, "");
}

} // namespace

void DrawFrame(App& app, const FrameOptions& options, float delta_seconds) {
    AppState& state = app.state;
    // The outlined widgets are scrolled into view for a few frames after they change.
    struct FocusCountdown {
        int& frames;
        ~FocusCountdown() { frames = std::max(0, frames - 1); }
    } countdown{app.recorder.focus_frames};
    // The style follows the theme and the atlas's text size; rebuilding it costs next to
    // nothing, so it is simply done every frame, before any window.
    const ImFont* font =
        ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0];
    ApplyThemeStyle(app.view.theme, font ? font->FontSize / kBaseFontPixels : 1.0f);
    app.stats.core_seconds = 0.0;
    // A checkpoint read off the frame keeps the frames coming until it is in, drawn or not.
    app.stats.computing = app.ShareModel();
    app.stats.settling = false;
    app.recorder.rects.erase("hint.menus"); // drawn again below while it is due
    NoteSizeChanges(app);
    AdvancePlay(state, delta_seconds);
    AdvanceGlide(app, std::min(static_cast<double>(delta_seconds), kMaxAnimationStep));
    state.Clamp();
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    Bars bars;
    // A lesson's bar sits above the status bar; the panels get what is left.
    bars.lesson = options.solo_panel.empty() && !options.handout ? LessonBarHeight(app) : 0.0f;
    // Outlines only where a widget is now.
    if (bars.lesson > 0 || !app.highlight_widgets.empty()) {
        app.recorder.rects.clear();
        app.recorder.layout.clear();
    }
    if (app.pending.arrange) {
        app.recorder.focus_frames = kFocusFrames;
        // A new window size (or step, or text size): the step is fitted again from full size.
        if (app.lesson.Active()) RefitStep(app.lesson);
    }
    bars.screenshot = !options.solo_panel.empty();
    // Slides: no menu bar and no status bar, the lesson bar at the very bottom. So for a panel
    // presented on a short screen (a projector at text ×2), which needs every line; Esc (or F1's
    // sheet) brings back the tiles and the menus.
    const bool short_screen = viewport->Size.y < ImGui::GetFontSize() * kShortWindowEms;
    // In a lesson, F5 decides (slides off: the menus come back whatever the screen).
    const bool slides =
        !bars.screenshot && (app.Slides() || (!app.lesson.Active() &&
                                              !app.view.presented_panel.empty() && short_screen));
    bars.top = bars.screenshot || slides ? 0.0f : ImGui::GetFrameHeight();
    bars.status = bars.top;
    const std::string& solo = bars.screenshot ? options.solo_panel : app.view.presented_panel;
    if (PanelEntry* entry = solo.empty() ? nullptr : app.panels.Find(solo))
        DrawSoloPanel(app, *entry, bars);
    else
        DrawTiles(app, bars);
}

void ActOnRequests(App& app) {
    if (!app.pending.export_csv.empty()) {
        BeginFileTask(app, FileTask::ExportCsv, app.pending.export_csv);
        app.pending.export_csv.clear();
    }
    // Scene fields a panel asked for (a quiz answer's panel): the next frame draws them.
    if (!app.pending.apply_scene.is_null()) {
        if (std::string error =
                app.scene.ApplyDocument(app.GuardStudentWork(app.pending.apply_scene));
            !error.empty())
            app.notice = "could not show the answer's panel: " + error;
        app.pending.apply_scene = nullptr;
        app.pending.arrange = true;
        // A panel that opens now would take the focus (ImGui focuses appearing windows); the
        // panel that asked keeps it, so its keys (the quiz's Enter) go on working.
        app.refocus_panel = app.focused_panel;
    }
    if (app.pending.set_highlight) {
        app.highlight_widgets = std::move(app.pending.highlight);
        app.pending.highlight.clear();
        app.pending.set_highlight = false;
        if (!app.highlight_widgets.empty()) app.recorder.enabled = true;
        app.recorder.scroll_to =
            app.highlight_widgets.empty() ? std::string() : app.highlight_widgets.front();
        app.recorder.focus_frames = kFocusFrames;
    }
}

void RunFrame(App& app, const FrameOptions& options, const FrameInput& input) {
    ImGui::NewFrame();
    HandleShortcuts(app, input.keys);
    // A file dropped on the window opens as File → Open… would (the last one wins).
    for (const std::string& dropped : input.dropped_paths)
        if (const std::string error = OpenFile(app, dropped); !error.empty())
            app.notice = PrintableText(error); // a lesson's problems keep a line each
    DrawFrame(app, options, input.delta_seconds);
    ImGui::Render();
    ActOnRequests(app);
    // A theme, text size, mode or recent file changed this frame: write the settings soon.
    ViewSettings::Kept kept = app.view.KeptPart();
    if (app.last_kept_view && *app.last_kept_view != kept) ImGui::MarkIniSettingsDirty();
    app.last_kept_view = std::move(kept);
}

} // namespace pelab
