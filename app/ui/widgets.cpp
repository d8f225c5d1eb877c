#include "widgets.h"

#include "fonts.h"

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

void ErrorText(const FrameContext& frame, const char* message) {
    ImGui::PushStyleColor(ImGuiCol_Text, frame.Color(Role::Error));
    ImGui::TextWrapped("%s", message);
    ImGui::PopStyleColor();
}

float FrameContext::Px(float pixels) const {
    return pixels * ImGui::GetFontSize() / kBaseFontPixels * theme.line_scale;
}

void WidgetRecorder::RecordLastItem(const char* name) {
    if (!enabled) return;
    // Only the visible part: a test must not click where a person could not.
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 clip_min = draw->GetClipRectMin(), clip_max = draw->GetClipRectMax();
    const ImVec2 item_min = ImGui::GetItemRectMin(), item_max = ImGui::GetItemRectMax();
    const WidgetRect visible{std::max(item_min.x, clip_min.x), std::max(item_min.y, clip_min.y),
                             std::min(item_max.x, clip_max.x), std::min(item_max.y, clip_max.y)};
    if (visible.x1 - visible.x0 < 2.0f || visible.y1 - visible.y0 < 2.0f) {
        rects.erase(name);
        return;
    }
    rects[name] = visible;
}

} // namespace pelab
