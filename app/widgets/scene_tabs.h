// scene_tabs.h — a tab bar whose selected tab is a scene field (a panel's "view"): a scene or a
// lesson step that names a tab selects it once, and a click selects the others (the field
// follows). A bar that was not drawn last frame, or is drawn in another window (a picture
// exported offscreen, a slide), opens at its first tab in ImGui, so the field's tab is asked
// for again there. Used by every panel with tabs in its scene (alternatives, train).
#pragma once

#include <string>

namespace pelab {

class SceneTabs {
public:
    /// ImGui::BeginTabBar(id), scrolling when narrow, with a list of its tabs; false when the
    /// bar is not drawn (then no EndBar).
    bool BeginBar(const char* id);
    /// One tab titled title for the field value tab_id; true when it is the open one (the
    /// caller draws it, then calls ImGui::EndTabItem). *field is the scene field.
    bool Tab(const char* title, const char* tab_id, std::string* field);
    /// Whether the last Tab is whole in view (a narrow bar scrolls the others out): a caller
    /// records only such a tab's rectangle.
    bool TabInView() const;
    /// Whether the last Tab was opened by the person in this frame (a click, or the list), not
    /// by a scene or a lesson setting the field: a tab may then move to a scene it explains.
    bool ChosenNow() const { return chosen_now_; }
    void EndBar();

private:
    std::string shown_;       ///< the tab ImGui shows, as far as this bar knows
    int frame_ = -10;         ///< the ImGui frame the bar was last drawn in …
    unsigned window_ = 0;     ///< … and its id (which names its window)
    bool visible_ = true;     ///< the last tab, whole in view
    bool chosen_now_ = false; ///< the last tab, opened by the person in this frame
};

} // namespace pelab
