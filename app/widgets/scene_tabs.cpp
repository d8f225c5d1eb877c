#include "widgets/scene_tabs.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

namespace pelab {

bool SceneTabs::BeginBar(const char* id) {
    const ImGuiID bar = ImGui::GetID(id);
    if (ImGui::GetFrameCount() != frame_ + 1 || bar != window_) shown_.clear();
    frame_ = ImGui::GetFrameCount();
    window_ = bar;
    // Titles stay whole: a bar too narrow for every tab (the alternatives panel on a projector)
    // scrolls, with arrows and a list of every tab, instead of cutting each title short.
    return ImGui::BeginTabBar(id, ImGuiTabBarFlags_FittingPolicyScroll |
                                      ImGuiTabBarFlags_TabListPopupButton);
}

bool SceneTabs::Tab(const char* title, const char* tab_id, std::string* field) {
    const bool requested = *field == tab_id && shown_ != *field;
    // A tab scrolled out of a narrow bar is laid out past the window's edge; it is not content
    // there (no scrollbar reaches it: the bar's arrows and list do), so the window's extent
    // keeps only the part of it inside the bar.
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    const float extent_before = window->DC.CursorMaxPos.x;
    const float bar_right = window->WorkRect.Max.x;
    const bool open =
        ImGui::BeginTabItem(title, nullptr, requested ? ImGuiTabItemFlags_SetSelected : 0);
    window->DC.CursorMaxPos.x =
        std::max(extent_before, std::min(window->DC.CursorMaxPos.x, bar_right));
    visible_ = ImGui::IsItemVisible() && ImGui::GetItemRectMax().x <= bar_right + 1.0f;
    // The field still names the tab shown before, yet ImGui opened this one: a click.
    chosen_now_ = open && !shown_.empty() && *field == shown_ && shown_ != tab_id;
    // While a requested tab is not shown yet, the tab still drawn does not take over.
    if (open && (*field == shown_ || *field == tab_id)) *field = shown_ = tab_id;
    return open;
}

bool SceneTabs::TabInView() const {
    return visible_;
}

void SceneTabs::EndBar() {
    ImGui::EndTabBar();
}

} // namespace pelab
