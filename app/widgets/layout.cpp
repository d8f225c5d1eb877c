#include "widgets/layout.h"

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

void PlaceFloatingWindow(ImVec2 size) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const ImVec2 most(viewport->Size.x * 0.95f, viewport->Size.y * 0.95f);
    ImGui::SetNextWindowPos(viewport->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(size.x, most.x), std::min(size.y, most.y)),
                             ImGuiCond_Appearing);
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), most);
}

void KeepWindowInViewport() {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const ImVec2 fitted(std::min(size.x, viewport->Size.x), std::min(size.y, viewport->Size.y));
    const ImVec2 placed(
        std::clamp(pos.x, viewport->Pos.x, viewport->Pos.x + viewport->Size.x - fitted.x),
        std::clamp(pos.y, viewport->Pos.y, viewport->Pos.y + viewport->Size.y - fitted.y));
    if (fitted.x != size.x || fitted.y != size.y) ImGui::SetWindowSize(fitted);
    if (placed.x != pos.x || placed.y != pos.y) ImGui::SetWindowPos(placed);
}

} // namespace pelab
