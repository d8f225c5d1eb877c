#include "widgets.h"

#include "app_state.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace pelab {

void HelpMarker(const char* text) {
    ImGui::TextDisabled("(?)");
    FormulaTooltip(text);
}

void FormulaTooltip(const char* text) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void ReadoutRow(const char* name, const char* formula, const char* value_format, ...) {
    char value[128];
    va_list args;
    va_start(args, value_format);
    std::vsnprintf(value, sizeof value, value_format, args);
    va_end(args);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(name);
    FormulaTooltip(formula);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(value);
    FormulaTooltip(formula);
}

void DefaultWindowPlacement(ImVec2 pos, ImVec2 size, bool force) {
    const ImGuiNextWindowDataFlags pending = ImGui::GetCurrentContext()->NextWindowData.Flags;
    const ImGuiCond condition = force ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    if (!(pending & ImGuiNextWindowDataFlags_HasPos)) ImGui::SetNextWindowPos(pos, condition);
    if (!(pending & ImGuiNextWindowDataFlags_HasSize)) ImGui::SetNextWindowSize(size, condition);
}

void QuadrantPlacement(int quadrant, bool force) {
    // Viewport::WorkPos would give the same area, but ImGui 1.86 updates it one frame late,
    // after FirstUseEver has applied; the bars are one frame high each.
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float bar = ImGui::GetFrameHeight();
    const float gap = ImGui::GetFontSize() * 0.3f;
    const float top = viewport->Pos.y + bar, height = viewport->Size.y - 2 * bar;
    const float half_w = viewport->Size.x * 0.5f, half_h = height * 0.5f;
    const float x = viewport->Pos.x + (quadrant % 2) * half_w, y = top + (quadrant / 2) * half_h;
    DefaultWindowPlacement(ImVec2(x + gap, y + gap), ImVec2(half_w - 2 * gap, half_h - 2 * gap),
                           force);
}

void RecordWidget(AppState& state, const char* name) {
    if (!state.record_widgets) return;
    // Only the visible part: a test must not click where a person could not.
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 clip_min = draw->GetClipRectMin(), clip_max = draw->GetClipRectMax();
    const ImVec2 item_min = ImGui::GetItemRectMin(), item_max = ImGui::GetItemRectMax();
    const WidgetRect visible{std::max(item_min.x, clip_min.x), std::max(item_min.y, clip_min.y),
                             std::min(item_max.x, clip_max.x), std::min(item_max.y, clip_max.y)};
    if (visible.x1 - visible.x0 < 2.0f || visible.y1 - visible.y0 < 2.0f) {
        state.widget_rects.erase(name);
        return;
    }
    state.widget_rects[name] = visible;
}

CoreTimer::CoreTimer(AppState& state) : state_(state), start_(std::chrono::steady_clock::now()) {}
CoreTimer::~CoreTimer() {
    state_.core_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ErrorText(const char* message) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(0xFF, 0x70, 0x60, 0xFF));
    ImGui::TextWrapped("%s", message);
    ImGui::PopStyleColor();
}

} // namespace pelab
