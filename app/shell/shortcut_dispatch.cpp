#include "shell/shortcut_dispatch.h"

#include "shell/file_menu.h"
#include "shell/keyboard_help.h"
#include "shell/lesson_player.h"
#include "widgets/shortcuts.h"
#include "widgets/theme.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace pelab {

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
    // The speaker notes cover the top of the picture: they go before the slides do.
    if (app.lesson.Active() && app.lesson.show_notes && !app.lesson.blank) {
        app.lesson.show_notes = false;
        return true;
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

namespace {

// The lesson's keys, while one is taught: true when the lesson took the key.
bool LessonTakes(App& app, const KeyPress& press, bool editing_text) {
    using C = Command;
    LessonPlayer& lesson = app.lesson;
    // A black screen comes back with any key, which does nothing else.
    if (lesson.blank) {
        lesson.blank = false;
        return true;
    }
    // What a presentation clicker sends works even while a text field has the focus.
    if (Is(press, C::ClickerNext)) {
        GoToStep(app, lesson.step + 1);
        return true;
    }
    if (Is(press, C::ClickerPrevious)) {
        GoToStep(app, lesson.step - 1);
        return true;
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
        return used;
    }
    return false;
}

// The view's and the shared state's own keys (text size, full screen, theme, controls, pos A,
// the pair, Play), after every part of the app had its turn.
void ApplyViewKeys(App& app, const KeyPress& press, bool editing_text) {
    using C = Command;
    AppState& state = app.state;
    LessonPlayer& lesson = app.lesson;
    if (Is(press, C::TextLarger)) app.view.ScaleText(kTextStep);
    if (Is(press, C::TextSmaller)) app.view.ScaleText(1.0f / kTextStep);
    if (Is(press, C::Fullscreen)) app.view.fullscreen = !app.view.fullscreen;
    if (Is(press, C::NextTheme)) {
        const std::size_t count = std::size(kThemes);
        std::size_t at = 0;
        while (at < count && kThemes[at] != app.view.theme)
            ++at;
        app.view.theme = kThemes[(at + 1) % count];
    }
    if (editing_text) return;
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

} // namespace

void HandleShortcuts(App& app, const std::vector<KeyPress>& presses) {
    using C = Command;
    const ImGuiIO& io = ImGui::GetIO();
    const bool editing_text = io.WantTextInput || ImGui::IsAnyItemActive();
    AppState& state = app.state;
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
        if (Is(press, C::Back) && !editing_text && EscapeClosesSomething(app)) {
            app.menus_hint_done = true;
            continue;
        }
        if (Is(press, C::Slides) && app.lesson.Active()) {
            app.view.slide_mode = !app.view.slide_mode;
            app.pending.arrange = true;
            continue;
        }
        if (Is(press, C::Reset)) {
            RequestReset(app);
            continue;
        }
        if (Is(press, C::EndLesson) && app.lesson.Active()) {
            EndLesson(app);
            continue;
        }
        if (app.lesson.Active() && LessonTakes(app, press, editing_text)) continue;
        // The panel with the focus (or presented) first: the quiz's 1–9, Enter and Space.
        if (!editing_text) {
            const std::string& target =
                app.view.presented_panel.empty() ? app.focused_panel : app.view.presented_panel;
            PanelEntry* entry = app.panels.Find(target);
            if (entry && (entry->open || target == app.view.presented_panel) &&
                entry->panel->TakeKey(press, app.pending))
                continue;
        }
        ApplyViewKeys(app, press, editing_text);
    }
    state.Clamp();
}

} // namespace pelab
