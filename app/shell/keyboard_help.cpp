#include "shell/keyboard_help.h"
#include "widgets/layout.h"

#include "shell/app.h"
#include "widgets/shortcuts.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

namespace pelab {

namespace {

constexpr const char* kResetPopup = "Reset all?";

} // namespace

const std::vector<MouseRow>& MouseRows() {
    static const std::vector<MouseRow> rows = {
        {"hover", "a number's tooltip shows the formula that produced it"},
        {"Ctrl + wheel over a plot", "zoom around the pointer (the wheel alone scrolls the page)"},
        {"drag in a plot", "pan"},
        {"double-click a plot", "back to the whole range"},
    };
    return rows;
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
    // One table per section, in the order of ShortcutTable, then the mouse.
    const auto table = [&](const char* heading,
                           const std::vector<std::pair<std::string, std::string>>& rows) {
        ImGui::TextColored(GetTheme(app.view.theme).ColorVec(Role::Accent), "%s", heading);
        if (ImGui::BeginTable(heading, 2, ImGuiTableFlags_SizingFixedFit)) {
            ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, em * 10);
            ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
            for (const auto& [keys, action] : rows) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(keys.c_str());
                ImGui::TableNextColumn();
                WrappedText(action.c_str());
            }
            ImGui::EndTable();
        }
        ImGui::Spacing();
    };
    for (const ShortcutSection section : {ShortcutSection::Everywhere, ShortcutSection::NotTyping,
                                          ShortcutSection::Lesson, ShortcutSection::Quiz}) {
        std::vector<std::pair<std::string, std::string>> rows;
        for (const ShortcutRow& row : ShortcutTable())
            if (row.section == section) rows.emplace_back(KeysText(row), row.action);
        table(SectionHeading(section), rows);
        if (section == ShortcutSection::Everywhere) app.recorder.RecordLastItem("help.keys");
    }
    std::vector<std::pair<std::string, std::string>> mouse;
    for (const MouseRow& row : MouseRows())
        mouse.emplace_back(row.gesture, row.action);
    table("Mouse", mouse);
    ImGui::End();
}

void ResetAll(App& app) {
    app.lesson = LessonPlayer{};
    // The defaults were valid when the app was built, so they apply.
    app.scene.ApplyDocument(app.defaults);
    app.pending.arrange = true;
    app.home_fit.done = false; // the default panels fitted to the window again
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
