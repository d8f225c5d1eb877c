#include "app_ui.h"

#include "widgets.h"

#include <imgui.h>

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
constexpr float kTextStep = 1.15f; // one Ctrl+= makes text 15 % larger
} // namespace

bool IsKnownPanel(const std::string& name) {
    return std::any_of(std::begin(kPanelNames), std::end(kPanelNames),
                       [&](const char* known) { return name == known; });
}

std::string PanelNameList() {
    std::string list;
    for (const char* name : kPanelNames)
        list += (list.empty() ? "" : ", ") + std::string(name);
    return list;
}

void HandleShortcuts(AppState& state, const std::vector<KeyPress>& presses) {
    const ImGuiIO& io = ImGui::GetIO();
    const bool editing_text = io.WantTextInput || ImGui::IsAnyItemActive();
    for (const KeyPress& press : presses) {
        if (press.ctrl && press.key == keys::kQ) state.quit_requested = true;
        if (press.ctrl && (press.key == keys::kEqual || press.key == keys::kKeypadAdd))
            state.ScaleText(kTextStep);
        if (press.ctrl && (press.key == keys::kMinus || press.key == keys::kKeypadSubtract))
            state.ScaleText(1.0f / kTextStep);
        if (press.key == keys::kF11) state.fullscreen = !state.fullscreen;
        if (press.key == keys::kEscape && !editing_text && !state.presented_panel.empty()) {
            state.presented_panel.clear();
            state.arrange_panels = true;
        }
        if (editing_text || press.ctrl) continue;
        const double step = press.shift ? 10.0 : 1.0;
        switch (press.key) {
        case keys::kLeft:
            state.pos_a = std::max(0.0, std::round(state.pos_a) - step);
            break;
        case keys::kRight:
            state.pos_a = std::min(kUiMaxPosition, std::round(state.pos_a) + step);
            break;
        case keys::kUp:
            state.pair += 1;
            break;
        case keys::kDown:
            state.pair -= 1;
            break;
        case keys::kSpace:
            state.playing = !state.playing;
            break;
        default:
            break;
        }
    }
    state.Clamp();
}

namespace {

void DrawMainMenu(AppState& state) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) state.quit_requested = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        ImGui::MenuItem("Waves: frequency explorer", nullptr, &state.show_waves);
        ImGui::MenuItem("Compare two positions", nullptr, &state.show_compare);
        ImGui::MenuItem("Clocks: one hand per pair", nullptr, &state.show_clocks);
        ImGui::MenuItem("Order: PE on / off", nullptr, &state.show_order);
        ImGui::Separator();
        if (ImGui::MenuItem("Arrange panels")) {
            state.presented_panel.clear();
            state.arrange_panels = true;
        }
        if (ImGui::BeginMenu("Present one panel")) {
            for (const char* name : kPanelNames)
                if (ImGui::MenuItem(name, nullptr, state.presented_panel == name))
                    state.presented_panel = name;
            if (ImGui::MenuItem("Back to all panels", "Esc", false, !state.presented_panel.empty()))
                state.presented_panel.clear();
            ImGui::EndMenu();
        }
        ImGui::Separator();
        if (ImGui::MenuItem("Larger text", "Ctrl+=")) state.ScaleText(kTextStep);
        if (ImGui::MenuItem("Smaller text", "Ctrl+-")) state.ScaleText(1.0f / kTextStep);
        ImGui::MenuItem("Fullscreen", "F11", &state.fullscreen);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        ImGui::MenuItem("About PE Lab", nullptr, &state.show_about);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void DrawAbout(AppState& state) {
    if (!state.show_about) return;
    const ImVec2 centre = ImGui::GetMainViewport()->GetCenter();
    ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0), ImGuiCond_Appearing);
    if (!ImGui::Begin("About PE Lab", &state.show_about, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    ImGui::Text("PE Lab %s", kVersion);
    ImGui::Separator();
    ImGui::TextWrapped("%s", kAboutText);
    ImGui::Spacing();
    ImGui::TextDisabled("Dear ImGui %s", ImGui::GetVersion());
    ImGui::End();
}

void DrawStatusBar(const AppState& state) {
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
        ImGui::Text("d_model %d   base %.0f   pos A %.2f   pos B %.2f   pair %d%s", state.d_model,
                    state.base, state.pos_a, state.pos_b, state.pair,
                    state.playing ? "   ▶ playing" : "");
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

} // namespace

namespace {
constexpr const char* kWavesTitle = "Waves: frequency explorer";
constexpr const char* kCompareTitle = "Compare two positions";
constexpr const char* kClocksTitle = "Clocks: one hand per pair";
constexpr const char* kOrderTitle = "Order: does the model see word order?";

// Draws the panel called name (one of kPanelNames); p_open as in ImGui::Begin.
void DrawPanel(const std::string& name, AppState& state, Panels& panels, bool* p_open) {
    if (name == "waves") panels.waves.Draw(kWavesTitle, p_open, state);
    if (name == "compare") panels.compare.Draw(kCompareTitle, p_open, state);
    if (name == "clocks") panels.clocks.Draw(kClocksTitle, p_open, state);
    if (name == "order") panels.order.Draw(kOrderTitle, p_open, state);
}
} // namespace

void DrawFrame(AppState& state, Panels& panels, const FrameOptions& options, float delta_seconds) {
    state.core_seconds = 0.0;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const bool resized =
        panels.last_display_size.x > 0 &&
        (display.x != panels.last_display_size.x || display.y != panels.last_display_size.y);
    panels.last_display_size = display;
    if (resized) state.arrange_panels = true;
    if (state.playing) {
        state.pos_a += state.play_speed * static_cast<double>(delta_seconds);
        if (state.pos_a > kUiMaxPosition) state.pos_a = 0.0;
    }
    state.Clamp();
    // One panel filling the window: for a screenshot (no menu), or presented to a room (the menu
    // stays, to get back; so does the status bar).
    const bool screenshot = !options.solo_panel.empty();
    const std::string& solo = screenshot ? options.solo_panel : state.presented_panel;
    if (!solo.empty()) {
        if (!screenshot) DrawMainMenu(state);
        const ImGuiViewport* viewport = ImGui::GetMainViewport();
        const float bar = screenshot ? 0.0f : ImGui::GetFrameHeight();
        ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x, viewport->Pos.y + bar), ImGuiCond_Always);
        ImGui::SetNextWindowSize(ImVec2(viewport->Size.x, viewport->Size.y - 2 * bar),
                                 ImGuiCond_Always);
        DrawPanel(solo, state, panels, nullptr);
        if (!screenshot) {
            DrawAbout(state);
            DrawStatusBar(state);
        }
        return;
    }
    DrawMainMenu(state);
    if (state.show_waves) DrawPanel("waves", state, panels, &state.show_waves);
    if (state.show_compare) DrawPanel("compare", state, panels, &state.show_compare);
    if (state.show_clocks) DrawPanel("clocks", state, panels, &state.show_clocks);
    if (state.show_order) DrawPanel("order", state, panels, &state.show_order);
    state.arrange_panels = false;
    DrawAbout(state);
    DrawStatusBar(state);
}

} // namespace pelab
