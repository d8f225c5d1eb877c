// panel_registry.h — the one table of panels. Adding a panel is its own folder
// (panels/<id>/, picked up by CMake) and one line in the table in panel_registry.cpp.
#pragma once

#include "io/panel_catalog.h"
#include "panels/panel.h"

#include <memory>
#include <string>
#include <vector>

namespace pelab {

struct PanelEntry {
    std::string id;          ///< stable name: --panel, open_panels, presented_panel, widget names
    std::string title;       ///< window title and View menu text
    std::string description; ///< one line, the View menu's tooltip
    bool open_by_default = false;
    std::unique_ptr<Panel> panel;
    bool open = false;
    /// "Title###id": ImGui keys the window by id, so a retitled panel keeps its saved layout.
    std::string window_name;
};

/// What a panel is, before one is built: its id, title, one-line summary, whether it opens by
/// default, and how to build it. PanelInfos() lists every panel once, in menu order; the menus,
/// `--panel`'s help, the README's panel table and the tests read it (listing builds no panel).
struct PanelInfo {
    const char* id;
    const char* title;
    const char* summary;
    bool open_by_default;
    std::unique_ptr<Panel> (*make)();
    /// The panel's main picture (a widget it records) and the least height it keeps, in text
    /// heights, presented on a 1024×768 projector at text ×2, wholly in view without scrolling;
    /// and one of its controls that is still there. tests/layout_test.cpp checks every panel's.
    const char* picture;
    float picture_ems;
    const char* control;
};
const std::vector<PanelInfo>& PanelInfos();
/// "waves, compare, …", for messages and help, from PanelInfos().
std::string PanelIdList();
bool IsPanelId(const std::string& id);

/// Whether a declared widget name matches name: equal, or with "<i>" standing for one or more
/// digits ("clocks.summary_pair_<i>" matches "clocks.summary_pair_3").
bool WidgetNameMatches(const std::string& pattern, const std::string& name);

class PanelRegistry : public PanelCatalog {
public:
    PanelRegistry(); ///< creates every panel, open or closed by default
    std::vector<PanelEntry>& Entries() { return entries_; }
    const std::vector<PanelEntry>& Entries() const { return entries_; }
    PanelEntry* Find(const std::string& id);
    const PanelEntry* Find(const std::string& id) const;
    bool IsKnown(const std::string& id) const override { return Find(id) != nullptr; }
    /// "waves, compare, …", for messages.
    std::string IdList() const override;
    /// Every panel's declared widget names (Panel::WidgetNames), panel by panel.
    const std::vector<std::string>& WidgetNames() const { return widget_names_; }
    /// Whether name is one a panel declares (a lesson or quiz may highlight it).
    bool IsKnownWidget(const std::string& name) const;
    /// "" when name is known, else a message for a lesson: the unknown name and the closest
    /// declared names ("unknown widget \"compare.dot_prodct\" (did you mean
    /// \"compare.dot_product\"?)").
    std::string CheckWidgetName(const std::string& name) const override;
    /// The panel's own Panel::SlideSceneProblems (none for an unknown id).
    std::vector<std::string> SlideSceneProblems(const std::string& panel_id,
                                                const nlohmann::json& scene) const override;

private:
    std::vector<PanelEntry> entries_;
    std::vector<std::string> widget_names_;
};

} // namespace pelab
