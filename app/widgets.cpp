#include "widgets.h"

#include <imgui_internal.h>

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

void DefaultWindowPlacement(ImVec2 pos, ImVec2 size) {
    const ImGuiNextWindowDataFlags pending = ImGui::GetCurrentContext()->NextWindowData.Flags;
    if (!(pending & ImGuiNextWindowDataFlags_HasPos))
        ImGui::SetNextWindowPos(pos, ImGuiCond_FirstUseEver);
    if (!(pending & ImGuiNextWindowDataFlags_HasSize))
        ImGui::SetNextWindowSize(size, ImGuiCond_FirstUseEver);
}

void ErrorText(const char* message) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(0xFF, 0x70, 0x60, 0xFF));
    ImGui::TextWrapped("%s", message);
    ImGui::PopStyleColor();
}

} // namespace pelab
