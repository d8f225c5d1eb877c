#include "shell/keyboard_help.h"
#include "widgets/layout.h"

#include "shell/app.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <iterator>

namespace pelab {

namespace {

constexpr ShortcutRow kEverywhere[] = {
    {"F1 or ?", "this list of keys (Esc, F1 or ? closes it)"},
    {"Ctrl+O", "open a scene, a PNG figure or a lesson (or drop the file on the window)"},
    {"Ctrl+S", "save the scene as…"},
    {"Ctrl+R", "reset all: every panel back to its defaults (asks first in a lesson or while a "
               "panel is presented)"},
    {"Ctrl+= / Ctrl+-", "larger / smaller text"},
    {"F11", "fullscreen"},
    {"Ctrl+Q", "quit"},
};
constexpr ShortcutRow kNotTyping[] = {
    {"← / →", "pos A one position back / on (with Shift: ten)"},
    {"↑ / ↓", "the next / previous (sin, cos) pair"},
    {"Space", "play / pause pos A"},
    {"H", "hide / show the controls, for a clean slide"},
    {"Esc", "back from a presented panel to all panels"},
};
constexpr ShortcutRow kLesson[] = {
    {"PageDown / PageUp", "next / previous step: what a presentation clicker sends; works even "
                          "while a text field is being edited"},
    {"N / P", "next / previous step"},
    {"Home", "the first step"},
    {"R", "back to this step: undoes what was changed since"},
    {"B", "a black screen; any key brings the picture back"},
    {"S", "show / hide the step's speaker notes (over the top of the picture)"},
    {"F5", "slides (the lesson without menus and status bar) / the whole app"},
    {"H", "in slides: every control row / only those the step needs"},
    {"Esc", "closes the topmost window first, then leaves the slides"},
};
constexpr ShortcutRow kQuiz[] = {
    {"1 … 9", "predict that choice (the quiz has the focus: click in it)"},
    {"Enter", "reveal the answer; again: the next question (or card)"},
    {"Space", "flip the flashcard"},
};
constexpr ShortcutRow kMouse[] = {
    {"hover", "a number's tooltip shows the formula that produced it"},
    {"wheel over a plot", "zoom around the pointer"},
    {"drag in a plot", "pan"},
    {"double-click a plot", "back to the whole range"},
};
constexpr ShortcutGroup kGroups[] = {
    {"Everywhere", kEverywhere, std::size(kEverywhere)},
    {"When no text field is being edited", kNotTyping, std::size(kNotTyping)},
    {"During a lesson", kLesson, std::size(kLesson)},
    {"In the quiz", kQuiz, std::size(kQuiz)},
    {"Mouse", kMouse, std::size(kMouse)},
};

constexpr const char* kResetPopup = "Reset all?";

} // namespace

const ShortcutGroup* ShortcutGroups(std::size_t* count) {
    *count = std::size(kGroups);
    return kGroups;
}

void DrawKeyboardHelp(App& app) {
    if (!app.view.show_keys) return;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowPos(viewport->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    // As wide as the text needs up to 44 em, never wider than the window.
    ImGui::SetNextWindowSizeConstraints(
        ImVec2(0, 0), ImVec2(std::min(em * 44, viewport->Size.x), viewport->Size.y * 0.9f));
    ImGui::SetNextWindowSize(ImVec2(std::min(em * 44, viewport->Size.x), 0), ImGuiCond_Appearing);
    ImGui::SetNextWindowFocus();
    ImGui::SetNextWindowBgAlpha(1.0f); // read over busy plots
    if (!ImGui::Begin("Keyboard help###keyboard_help", &app.view.show_keys,
                      ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    KeepWindowInViewport();
    for (const ShortcutGroup& group : kGroups) {
        ImGui::TextColored(GetTheme(app.view.theme).ColorVec(Role::Accent), "%s", group.heading);
        if (&group == kGroups) app.recorder.RecordLastItem("help.keys");
        if (ImGui::BeginTable(group.heading, 2, ImGuiTableFlags_SizingFixedFit)) {
            ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, em * 10);
            ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
            for (std::size_t k = 0; k < group.count; ++k) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(group.rows[k].keys);
                ImGui::TableNextColumn();
                WrappedText(group.rows[k].action);
            }
            ImGui::EndTable();
        }
        ImGui::Spacing();
    }
    ImGui::End();
}

void ResetAll(App& app) {
    app.lesson = LessonPlayer{};
    // The defaults were valid when the app was built, so they apply.
    app.scene.ApplyDocument(app.defaults);
    app.pending.arrange = true;
    app.view.confirm_reset = false;
}

void RequestReset(App& app) {
    // A student's teach-back text is work that Reset all would throw away: ask first.
    const SceneField* teach_back = app.scene.Find("teach_back_text");
    const bool student_work = teach_back && teach_back->write() != nlohmann::json("");
    if (app.lesson.Active() || !app.view.presented_panel.empty() || student_work)
        app.view.confirm_reset = true;
    else
        ResetAll(app);
}

void DrawResetConfirmation(App& app) {
    if (app.view.confirm_reset && !ImGui::IsPopupOpen(kResetPopup)) ImGui::OpenPopup(kResetPopup);
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal(kResetPopup, nullptr,
                                ImGuiWindowFlags_AlwaysAutoResize |
                                    ImGuiWindowFlags_NoSavedSettings))
        return;
    // Answered by a key (Enter, Esc: see HandleShortcuts) since the last frame.
    if (!app.view.confirm_reset) {
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    const SceneField* teach_back = app.scene.Find("teach_back_text");
    const bool student_work = teach_back && teach_back->write() != nlohmann::json("");
    ImGui::TextUnformatted(app.lesson.Active()
                               ? "Every panel goes back to its defaults, and the lesson ends."
                               : "Every panel goes back to its defaults.");
    if (student_work)
        ImGui::TextUnformatted("The teach-back text is cleared too (File → Save scene as… keeps "
                               "it).");
    ImGui::TextDisabled("Enter: reset all    Esc: cancel");
    ImGui::Spacing();
    if (ImGui::Button("Reset all")) {
        ResetAll(app);
        ImGui::CloseCurrentPopup();
    }
    app.recorder.RecordLastItem("reset.confirm");
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) {
        app.view.confirm_reset = false;
        ImGui::CloseCurrentPopup();
    }
    app.recorder.RecordLastItem("reset.cancel");
    ImGui::EndPopup();
}

void DrawTeachBackQuestion(App& app) {
    constexpr const char* kPopup = "Replace your teach-back text?###teach_back_question";
    if (app.incoming_teach_back && !ImGui::IsPopupOpen(kPopup)) ImGui::OpenPopup(kPopup);
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal(
            kPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings))
        return;
    if (!app.incoming_teach_back) {
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    ImGui::TextUnformatted("What was just opened brings its own teach-back text.");
    ImGui::TextUnformatted("Keep what you typed, or replace it?");
    ImGui::Spacing();
    if (ImGui::Button("Keep mine") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        app.AnswerTeachBackQuestion(false);
        ImGui::CloseCurrentPopup();
    }
    app.recorder.RecordLastItem("teach_back.keep");
    ImGui::SameLine();
    if (ImGui::Button("Replace")) {
        app.AnswerTeachBackQuestion(true);
        ImGui::CloseCurrentPopup();
    }
    app.recorder.RecordLastItem("teach_back.replace");
    ImGui::EndPopup();
}

} // namespace pelab
