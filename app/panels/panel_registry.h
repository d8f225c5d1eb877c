// panel_registry.h — the one table of panels. Adding a panel is its own folder
// (panels/<id>/, picked up by CMake) and one line in the table in panel_registry.cpp.
#pragma once

#include "io/panel_catalog.h"
#include "panels/panel.h"
#include "widgets/shortcuts.h"

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

/// What a panel is, before one is built. PanelInfos() lists every panel once, in menu order;
/// the menus, `--panel`'s help, `pelab panels`, `pelab lesson widgets`, the README's panel
/// table, the scene-field list of docs/file-formats.md, the README's pictures
/// (scripts/readme_screenshots.sh) and the tests read it. Listing builds no panel.
struct PanelInfo {
    const char* id;      ///< stable name: --panel, open_panels, presented_panel, widget names
    const char* title;   ///< window title and View menu text
    const char* summary; ///< one line: the View menu's tooltip and the README's table
    bool open_by_default;
    std::unique_ptr<Panel> (*make)();
    /// Every widget name the panel records ("compare.dot_product"), "<i>" standing for a number
    /// ("clocks.summary_pair_<i>"), each with what it outlines: what lessons and quizzes may
    /// highlight.
    /// tests/widget_names_test.cpp draws the panel in each of its modes and checks these are
    /// exactly the names it records.
    std::vector<WidgetName> (*widgets)();
    /// The scene fields the panel's numbers and pictures depend on, beside kWindowSceneFields
    /// (which every panel may show). tests/registry_test.cpp changes every other field and
    /// checks that neither the panel's readouts nor its drawing change.
    std::vector<const char*> scene_fields;
    /// The commands of the key table (widgets/shortcuts.h) the panel takes itself through
    /// Panel::TakeKey while it has the focus; the app's own keys are not listed.
    std::vector<Command> keys;
    /// The panel's main picture (a widget it records) and the least height it keeps, in text
    /// heights, presented on a 1024×768 projector at text ×2, wholly in view without scrolling;
    /// and one of its controls that is still there. tests/layout_test.cpp checks every panel's.
    const char* picture;
    float picture_ems;
    const char* control;
    /// The scene (fields that differ from the defaults, as JSON) of the panel's picture in the
    /// README and docs/panels.md: scripts/readme_screenshots.sh takes assets/screenshots/<id>.png
    /// with it.
    const char* figure_scene;
    /// Whether the panel shows the checkpoint the model service opened (Your model): a
    /// checkpoint opened from the File menu, a drop or --model opens this panel.
    bool shows_opened_model = false;
};
/// The fields of the window and of time that any panel may show: the view (text size, theme,
/// mode, which panels, controls hidden) and Play, which moves pos A.
const std::vector<const char*>& WindowSceneFields();
const std::vector<PanelInfo>& PanelInfos();
/// "waves, compare, …", for messages and help, from PanelInfos().
std::string PanelIdList();
bool IsPanelId(const std::string& id);
/// The panel's PanelInfo, or nullptr for an unknown id.
const PanelInfo* FindPanelInfo(const std::string& id);

/// Whether a declared widget name matches name: equal, or with "<i>" standing for one or more
/// digits ("clocks.summary_pair_<i>" matches "clocks.summary_pair_3") and "<method>" for a
/// positional method's name ("train.attention_<method>" matches "train.attention_rope").
bool WidgetNameMatches(const std::string& pattern, const std::string& name);

class PanelRegistry : public PanelCatalog {
public:
    PanelRegistry(); ///< creates every panel, open or closed by default
    std::vector<PanelEntry>& Entries() { return entries_; }
    const std::vector<PanelEntry>& Entries() const { return entries_; }
    PanelEntry* Find(const std::string& id);
    const PanelEntry* Find(const std::string& id) const;
    bool IsKnown(const std::string& id) const override { return Find(id) != nullptr; }
    /// The panel that shows an opened checkpoint (PanelInfo::shows_opened_model), or nullptr.
    PanelEntry* ModelViewer();
    /// "waves, compare, …", for messages.
    std::string IdList() const override;
    /// Every panel's declared widget names (PanelInfo::widgets), panel by panel.
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
