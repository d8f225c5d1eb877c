#include "layout.h"

#include <imgui_internal.h>

#include <algorithm>

namespace pelab {

float LabelWidth(const char* label) {
    if (label == nullptr) return 0.0f;
    const float width = ImGui::CalcTextSize(label, nullptr, true).x;
    return width > 0.0f ? width + ImGui::GetStyle().ItemInnerSpacing.x : 0.0f;
}

float LabelledWidth(float item_width, const char* label) {
    return item_width + LabelWidth(label);
}

float ButtonWidth(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f;
}

float SmallButtonWidth(const char* label) {
    // SmallButton keeps the horizontal frame padding.
    return ButtonWidth(label);
}

float CheckboxWidth(const char* label) {
    return ImGui::GetFrameHeight() + LabelWidth(label);
}

float HelpMarkerWidth() {
    return ImGui::CalcTextSize("(?)").x;
}

float ContentRight() {
    // WorkRect: the window's content region without padding and scrollbar, or the current
    // table cell.
    return ImGui::GetCurrentWindowRead()->WorkRect.Max.x;
}

float FitWidth(float ems, const char* label) {
    const ImGuiWindow* window = ImGui::GetCurrentWindowRead();
    const float row = window->WorkRect.Max.x - window->WorkRect.Min.x;
    const float room = row - LabelWidth(label);
    return std::max(ImGui::GetFontSize() * 3.0f, std::min(ImGui::GetFontSize() * ems, room));
}

void SameLineIfFits(float width, float spacing) {
    const float gap = spacing >= 0.0f ? spacing : ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::GetItemRectMax().x + gap + width <= ContentRight() + 0.5f)
        ImGui::SameLine(0.0f, gap);
}

} // namespace pelab
