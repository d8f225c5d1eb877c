#include "shell/main_menu.h"

#include "shell/lesson_player.h"

#include "shell/file_menu.h"
#include "shell/keyboard_help.h"
#include "shell/shortcut_dispatch.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/shortcuts.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <cstdio>

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
} // namespace

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
        if (ImGui::MenuItem("End lesson", KeysFor(Command::EndLesson).c_str(), false,
                            app.lesson.Active()))
            EndLesson(app);
        app.recorder.RecordLastItem("view.end_lesson");
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

std::string StatusBarText(const std::vector<std::string>& number_fields, const std::string& note,
                          float width, const std::function<float(const std::string&)>& text_width) {
    const std::string field_gap = "   ";
    const std::string note_gap = "   ·   ";
    std::string numbers;
    for (const std::string& field : number_fields)
        numbers += (numbers.empty() ? "" : field_gap) + field;
    if (note.empty() && text_width(numbers) <= width) return numbers;
    if (!note.empty() && text_width(numbers + note_gap + note) <= width)
        return numbers + note_gap + note;
    std::string text = note;
    if (text_width(text) > width) {
        // Whole UTF-8 characters come off the end until the note and "…" fit.
        const auto continuation = [](char c) {
            return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
        };
        while (!text.empty() && text_width(text + "…") > width) {
            while (!text.empty() && continuation(text.back()))
                text.pop_back();
            if (!text.empty()) text.pop_back();
        }
        return text + "…";
    }
    // The note goes first and the numbers, which the panels show too, follow while whole
    // fields fit.
    std::string gap = text.empty() ? "" : note_gap;
    for (const std::string& field : number_fields) {
        const std::string longer = text + gap + field;
        if (text_width(longer) > width) break;
        text = longer;
        gap = field_gap;
    }
    return text;
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
        char base[64];
        std::snprintf(base, sizeof base, "base %.0f", state.base);
        std::vector<std::string> fields = {
            "d_model " + std::to_string(state.d_model), base, "pos A " + PositionText(state.pos_a),
            "pos B " + PositionText(state.pos_b), "pair " + std::to_string(state.pair)};
        if (state.playing) fields.emplace_back("▶ playing");
        const auto text_width = [](const std::string& s) {
            return ImGui::CalcTextSize(s.c_str()).x;
        };
        ImGui::TextUnformatted(
            StatusBarText(fields, note, ImGui::GetContentRegionAvail().x, text_width).c_str());
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

} // namespace pelab
