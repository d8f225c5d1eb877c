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

const char* const kVersion = PELAB_VERSION;

const char* const kAboutText =
    "PE Lab is a desktop laboratory for the positional encodings of transformers. A transformer "
    "reads every token at once, so on its own it cannot tell \"dog bites man\" from \"man bites "
    "dog\"; a positional encoding adds to each token a vector that depends on where it stands. "
    "Here you can move the knobs of the sinusoidal encoding of \"Attention Is All You Need\" "
    "(the pair index, d_model, the base) and watch every number follow, live and exact: every "
    "value is computed with double-precision angles, and every readout shows the formula that "
    "produced it.";

namespace {
// A panel's title up to its colon or comma ("Waves", "What came after", "Quiz"): for menus that
// must fit beside their parent at text ×2 on a 1024-pixel screen.
std::string ShortTitle(const std::string& title) {
    return title.substr(0, title.find_first_of(":,"));
}

constexpr float kTextStep = 1.15f; // one Ctrl+= makes text 15 % larger
} // namespace

bool EscapeClosesSomething(App& app) {
    ImGuiContext& context = *GImGui;
    if (context.OpenPopupStack.Size > 0) {
        ImGui::ClosePopupToLevel(context.OpenPopupStack.Size - 1, true);
        return true;
    }
    ViewSettings& view = app.view;
    for (bool* shown : {&view.show_keys, &view.show_glossary, &view.show_about}) {
        if (*shown) {
            *shown = false;
            return true;
        }
    }
    if (app.Slides()) {
        view.slide_mode = false;
        app.pending.arrange = true;
        return true;
    }
    if (!view.presented_panel.empty()) {
        view.presented_panel.clear();
        app.pending.arrange = true;
        return true;
    }
    return false;
}

void HandleShortcuts(App& app, const std::vector<KeyPress>& presses) {
    using C = Command;
    const ImGuiIO& io = ImGui::GetIO();
    const bool editing_text = io.WantTextInput || ImGui::IsAnyItemActive();
    AppState& state = app.state;
    LessonPlayer& lesson = app.lesson;
    // The chords are in one table (widgets/shortcuts.h); here is only the order in which the
    // parts of the app are offered a key, the first taker keeping it.
    for (const KeyPress& press : presses) {
        // Quit works whatever is open.
        if (Is(press, C::Quit)) {
            app.pending.quit = true;
            continue;
        }
        // A file dialog or a message takes the keys (ImGui gives them to its fields).
        if (app.file_dialog.IsOpen() || !app.notice.empty()) continue;
        if (Is(press, C::Open)) {
            BeginFileTask(app, FileTask::Open);
            continue;
        }
        if (Is(press, C::SaveScene)) {
            BeginFileTask(app, FileTask::SaveScene);
            continue;
        }
        // The reset question takes only its answer.
        if (app.view.confirm_reset) {
            if (Is(press, C::Confirm)) ResetAll(app);
            if (Is(press, C::Back)) app.view.confirm_reset = false;
            continue;
        }
        // While a field is being edited, a key that types a character is the field's.
        const bool typed = editing_text && TypesACharacter(press);
        if (Is(press, C::KeyboardHelp) && !typed) {
            app.view.show_keys = !app.view.show_keys;
            continue;
        }
        // Esc closes the topmost thing first: a menu or popup, then a help window, then the
        // slides, then the presented panel.
        if (Is(press, C::Back) && !editing_text && EscapeClosesSomething(app)) continue;
        if (Is(press, C::Slides) && app.lesson.Active()) {
            app.view.slide_mode = !app.view.slide_mode;
            app.pending.arrange = true;
            continue;
        }
        if (Is(press, C::Reset)) {
            RequestReset(app);
            continue;
        }
        if (lesson.Active()) {
            // A black screen comes back with any key, which does nothing else.
            if (lesson.blank) {
                lesson.blank = false;
                continue;
            }
            // What a presentation clicker sends works even while a text field has the focus.
            if (Is(press, C::ClickerNext)) {
                GoToStep(app, lesson.step + 1);
                continue;
            }
            if (Is(press, C::ClickerPrevious)) {
                GoToStep(app, lesson.step - 1);
                continue;
            }
            if (!editing_text) {
                bool used = true;
                if (Is(press, C::StepNext))
                    GoToStep(app, lesson.step + 1);
                else if (Is(press, C::StepPrevious))
                    GoToStep(app, lesson.step - 1);
                else if (Is(press, C::StepFirst))
                    GoToStep(app, 0);
                else if (Is(press, C::StepAgain))
                    GoToStep(app, lesson.step);
                else if (Is(press, C::Blank))
                    lesson.blank = true;
                else if (Is(press, C::Notes))
                    lesson.show_notes = !lesson.show_notes;
                else
                    used = false;
                if (used) continue;
            }
        }
        // The panel with the focus (or presented) first: the quiz's 1–9, Enter and Space.
        if (!editing_text) {
            const std::string& target =
                app.view.presented_panel.empty() ? app.focused_panel : app.view.presented_panel;
            PanelEntry* entry = app.panels.Find(target);
            if (entry && (entry->open || target == app.view.presented_panel) &&
                entry->panel->TakeKey(press, app.pending))
                continue;
        }
        if (Is(press, C::TextLarger)) app.view.ScaleText(kTextStep);
        if (Is(press, C::TextSmaller)) app.view.ScaleText(1.0f / kTextStep);
        if (Is(press, C::Fullscreen)) app.view.fullscreen = !app.view.fullscreen;
        if (editing_text) continue;
        if (Is(press, C::HideControls)) {
            // In slides the controls are the step's; H brings every control row back (and
            // hides them again).
            if (app.Slides())
                lesson.all_controls = !lesson.all_controls;
            else
                app.view.hide_controls = !app.view.hide_controls;
        }
        if (Is(press, C::PosBack) || Is(press, C::PosBackTen))
            state.pos_a = std::max(0.0, std::round(state.pos_a) - (press.shift ? 10.0 : 1.0));
        if (Is(press, C::PosOn) || Is(press, C::PosOnTen))
            state.pos_a =
                std::min(kUiMaxPosition, std::round(state.pos_a) + (press.shift ? 10.0 : 1.0));
        if (Is(press, C::PairNext)) state.pair += 1;
        if (Is(press, C::PairPrevious)) state.pair -= 1;
        if (Is(press, C::Play)) state.playing = !state.playing;
    }
    state.Clamp();
}

Tile TileFor(int index, int count, ImVec2 area_pos, ImVec2 area_size, float gap) {
    count = std::max(count, 1);
    const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count))));
    const int rows = (count + columns - 1) / columns;
    const int row = index / columns, column = index % columns;
    const int in_row = std::min(columns, count - row * columns);
    const float width = area_size.x / static_cast<float>(in_row);
    const float height = area_size.y / static_cast<float>(rows);
    return {ImVec2(area_pos.x + column * width + gap, area_pos.y + row * height + gap),
            ImVec2(width - 2 * gap, height - 2 * gap)};
}

bool TitleBarReachable(ImVec2 pos, float width, ImVec2 display, float bar) {
    const float grip = bar; // at least this much of the title bar must be on screen
    return pos.x + width >= grip && pos.x <= display.x - grip && pos.y >= 0 &&
           pos.y <= display.y - 2 * bar;
}

namespace {

void DrawMainMenu(App& app) {
    if (!ImGui::BeginMainMenuBar()) return;
    ViewSettings& view = app.view;
    const bool file_menu = ImGui::BeginMenu("File");
    app.recorder.RecordLastItem("menu.file");
    if (file_menu) {
        DrawFileMenuItems(app);
        ImGui::EndMenu();
    }
    const bool view_menu = ImGui::BeginMenu("View");
    app.recorder.RecordLastItem("menu.view");
    if (view_menu) {
        // The panels in a submenu of short names ("Waves", "What came after"): at text ×2 on a
        // 1024-pixel screen the whole titles made the View menu as wide as the screen, and
        // every submenu then opened over it.
        const bool panels_menu = ImGui::BeginMenu("Panels");
        app.recorder.RecordLastItem("menu.panels");
        if (panels_menu) {
            for (PanelEntry& entry : app.panels.Entries()) {
                const std::string name = ShortTitle(entry.title);
                ImGui::MenuItem(name.c_str(), nullptr, &entry.open);
                app.recorder.RecordLastItem(("view." + entry.id).c_str());
                FormulaTooltip((entry.title + ": " + entry.description).c_str());
            }
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Arrange panels")) {
            view.presented_panel.clear();
            app.pending.arrange = true;
        }
        if (ImGui::BeginMenu("Present one panel")) {
            // Short names ("Waves", "What came after"): at text ×2 on a 1024-pixel screen the
            // whole titles made this submenu too wide to open beside its parent, and it covered
            // it.
            for (const PanelEntry& entry : app.panels.Entries()) {
                const std::string name = ShortTitle(entry.title);
                if (ImGui::MenuItem(name.c_str(), nullptr, view.presented_panel == entry.id))
                    view.presented_panel = entry.id;
                FormulaTooltip(entry.title.c_str());
            }
            ImGui::Separator();
            if (ImGui::MenuItem("Back to all panels", KeysFor(Command::Back).c_str(), false,
                                !view.presented_panel.empty())) {
                view.presented_panel.clear();
                app.pending.arrange = true;
            }
            ImGui::EndMenu();
        }
        ImGui::Separator();
        const bool theme_menu = ImGui::BeginMenu("Theme");
        app.recorder.RecordLastItem("menu.theme");
        if (theme_menu) {
            for (ThemeId id : kThemes) {
                if (ImGui::MenuItem(GetTheme(id).title, nullptr, view.theme == id)) view.theme = id;
                app.recorder.RecordLastItem((std::string("theme.") + GetTheme(id).name).c_str());
            }
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Larger text", KeysFor(Command::TextLarger).c_str()))
            view.ScaleText(kTextStep);
        if (ImGui::MenuItem("Smaller text", KeysFor(Command::TextSmaller).c_str()))
            view.ScaleText(1.0f / kTextStep);
        ImGui::MenuItem("Fullscreen", KeysFor(Command::Fullscreen).c_str(), &view.fullscreen);
        if (ImGui::MenuItem("Beginner", nullptr, !view.advanced)) view.advanced = false;
        app.recorder.RecordLastItem("view.beginner");
        FormulaTooltip("The pictures and the first controls: the base, layouts, scales and "
                       "other advanced settings are hidden (a lesson still shows the ones it "
                       "points at).");
        if (ImGui::MenuItem("Advanced", nullptr, view.advanced)) view.advanced = true;
        app.recorder.RecordLastItem("view.advanced");
        FormulaTooltip("Every control of every panel.");
        ImGui::Separator();
        ImGui::MenuItem("Hide controls", KeysFor(Command::HideControls).c_str(),
                        &view.hide_controls);
        app.recorder.RecordLastItem("view.hide_controls");
        FormulaTooltip("Only the pictures and their key numbers, for a clean slide. H again, or "
                       "this item, brings the controls back.");
        ImGui::Separator();
        if (ImGui::MenuItem("Reset all", KeysFor(Command::Reset).c_str())) RequestReset(app);
        app.recorder.RecordLastItem("view.reset");
        FormulaTooltip("Every panel and number back to its defaults; the theme and text size "
                       "stay.");
        ImGui::EndMenu();
    }
    const bool help_menu = ImGui::BeginMenu("Help");
    app.recorder.RecordLastItem("menu.help");
    if (help_menu) {
        ImGui::MenuItem("Keyboard help", KeysFor(Command::KeyboardHelp).c_str(), &view.show_keys);
        app.recorder.RecordLastItem("help.keyboard");
        ImGui::MenuItem("Glossary", nullptr, &view.show_glossary);
        app.recorder.RecordLastItem("help.glossary");
        FormulaTooltip("What ω_i, λ, QKᵀ, √d and the other symbols mean, in plain words.");
        ImGui::MenuItem("About PE Lab", nullptr, &view.show_about);
        app.recorder.RecordLastItem("help.about");
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void DrawAbout(ViewSettings& view) {
    if (!view.show_about) return;
    PlaceFloatingWindow(ImVec2(ImGui::GetFontSize() * 30, 0));
    if (!ImGui::Begin("About PE Lab", &view.show_about, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    KeepWindowInViewport();
    ImGui::Text("PE Lab %s", kVersion);
    ImGui::Separator();
    WrappedText(kAboutText);
    ImGui::Spacing();
    ImGui::TextDisabled("Dear ImGui %s", ImGui::GetVersion());
    ImGui::End();
}

void DrawStatusBar(const AppState& state, const std::string& note) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float height = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(
        ImVec2(viewport->WorkPos.x, viewport->WorkPos.y + viewport->WorkSize.y - height));
    ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x, height));
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoFocusOnAppearing;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetFontSize() * 0.5f, 2));
    if (ImGui::Begin("##status", nullptr, flags)) {
        ImGui::Text("d_model %d   base %.0f   pos A %s   pos B %s   pair %d%s%s%s", state.d_model,
                    state.base, PositionText(state.pos_a).c_str(),
                    PositionText(state.pos_b).c_str(), state.pair,
                    state.playing ? "   ▶ playing" : "", note.empty() ? "" : "   ·   ",
                    note.c_str());
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

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
    app.stats.computing = false;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    if (app.last_display_size.x > 0 &&
        (display.x != app.last_display_size.x || display.y != app.last_display_size.y))
        app.pending.arrange = true;
    app.last_display_size = display;
    if (state.playing) {
        // At most a quarter second per frame: the first frame after a rest (render on demand)
        // comes seconds after the one before, and Play must not jump by all of that.
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
    AdvanceGlide(app, std::min(static_cast<double>(delta_seconds), kMaxAnimationStep));
    state.Clamp();
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float bar = ImGui::GetFrameHeight();
    // A lesson's bar sits above the status bar; the panels get what is left.
    const float lesson_bar =
        options.solo_panel.empty() && !options.handout ? LessonBarHeight(app) : 0.0f;
    // Outlines only where a widget is now.
    if (lesson_bar > 0 || !app.highlight_widgets.empty()) {
        app.recorder.rects.clear();
        app.recorder.layout.clear();
    }
    if (app.pending.arrange) app.recorder.focus_frames = kFocusFrames;
    // One panel filling the window: for a screenshot (no menu), or presented to a room (the menu
    // stays, to get back, and so does the status bar, unless the screen is short).
    const bool screenshot = !options.solo_panel.empty();
    // Slides: no menu bar and no status bar, the lesson bar at the very bottom. So for a panel
    // presented on a short screen (a projector at text ×2), which needs every line; Esc (or F1's
    // sheet) brings back the tiles and the menus.
    const bool short_screen = viewport->Size.y < ImGui::GetFontSize() * kShortWindowEms;
    // In a lesson, F5 decides (slides off: the menus come back whatever the screen).
    const bool slides =
        !screenshot && (app.Slides() || (!app.lesson.Active() &&
                                         !app.view.presented_panel.empty() && short_screen));
    const float top = screenshot || slides ? 0.0f : bar;
    const float status_bar = top;
    const std::string& solo = screenshot ? options.solo_panel : app.view.presented_panel;
    if (PanelEntry* entry = solo.empty() ? nullptr : app.panels.Find(solo)) {
        // One panel fills the window: nothing to tile (Esc asks again when the tiles come back).
        app.pending.arrange = false;
        if (top > 0) DrawMainMenu(app);
        ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x, viewport->Pos.y + top), ImGuiCond_Always);
        ImGui::SetNextWindowSize(
            ImVec2(viewport->Size.x, viewport->Size.y - top - status_bar - lesson_bar),
            ImGuiCond_Always);
        // Neither moved, resized nor collapsed: a double-click on the title must not blank the
        // screen in front of a room.
        DrawPanelWindow(app, *entry, nullptr,
                        ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove |
                            ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings,
                        true);
        RestoreFocus(app);
        if (!screenshot) DrawShellWindows(app, status_bar, lesson_bar, entry->panel->StatusNote());
        return;
    }
    if (top > 0) DrawMainMenu(app);
    const bool arrange = app.pending.arrange;
    app.pending.arrange = false;
    // Viewport::WorkPos would give the same area, but ImGui 1.86 updates it one frame late,
    // after FirstUseEver has applied; the bars are one frame high each.
    const ImVec2 area_pos(viewport->Pos.x, viewport->Pos.y + top);
    const ImVec2 area_size(viewport->Size.x, viewport->Size.y - top - status_bar - lesson_bar);
    const int open =
        static_cast<int>(std::count_if(app.panels.Entries().begin(), app.panels.Entries().end(),
                                       [](const PanelEntry& entry) { return entry.open; }));
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
            if (!TitleBarReachable(window->Pos, window->Size.x, display, bar))
                app.pending.arrange = true;
    }
    RestoreFocus(app);
    DrawShellWindows(app, status_bar, lesson_bar, "");
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
            app.notice = PrintableLine(error);
    DrawFrame(app, options, input.delta_seconds);
    ImGui::Render();
    ActOnRequests(app);
}

} // namespace pelab
