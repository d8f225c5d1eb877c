#include "widgets/scene_tabs.h"

#include <imgui.h>

namespace pelab {

bool SceneTabs::BeginBar(const char* id) {
    const ImGuiID bar = ImGui::GetID(id);
    if (ImGui::GetFrameCount() != frame_ + 1 || bar != window_) shown_.clear();
    frame_ = ImGui::GetFrameCount();
    window_ = bar;
    return ImGui::BeginTabBar(id);
}

bool SceneTabs::Tab(const char* title, const char* tab_id, std::string* field) {
    const bool requested = *field == tab_id && shown_ != *field;
    const bool open =
        ImGui::BeginTabItem(title, nullptr, requested ? ImGuiTabItemFlags_SetSelected : 0);
    // While a requested tab is not shown yet, the tab still drawn does not take over.
    if (open && (*field == shown_ || *field == tab_id)) *field = shown_ = tab_id;
    return open;
}

void SceneTabs::EndBar() {
    ImGui::EndTabBar();
}

} // namespace pelab
