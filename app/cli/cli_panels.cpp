#include "cli/cli_panels.h"

#include "cli/cli.h"
#include "cli/cli_checks.h"
#include "panels/panel_registry.h"
#include "widgets/shortcuts.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

namespace pelab {

namespace {

// The rows of the key table that hold one of the panel's own commands, as the F1 sheet words
// them.
nlohmann::json KeysOf(const PanelInfo& info) {
    nlohmann::json rows = nlohmann::json::array();
    for (const ShortcutRow& row : ShortcutTable()) {
        const bool own = std::any_of(row.commands.begin(), row.commands.end(), [&](Command c) {
            return std::find(info.keys.begin(), info.keys.end(), c) != info.keys.end();
        });
        if (own) rows.push_back({{"keys", KeysText(row)}, {"action", row.action}});
    }
    return rows;
}

} // namespace

int RunPanels(bool json) {
    if (!json) {
        for (const PanelInfo& info : PanelInfos())
            std::cout << info.id << "  " << info.title << "\n    " << info.summary << "\n";
        return FlushStandardOutput();
    }
    nlohmann::json panels = nlohmann::json::array();
    for (const PanelInfo& info : PanelInfos()) {
        nlohmann::json widgets = nlohmann::json::array();
        nlohmann::json widget_info = nlohmann::json::object();
        for (const WidgetName& widget : info.widgets()) {
            widgets.push_back(widget.name);
            widget_info[widget.name] = {{"what", widget.what}, {"shows", widget.shows}};
        }
        nlohmann::json fields = nlohmann::json::array();
        for (const char* field : info.scene_fields)
            fields.push_back(field);
        panels.push_back({{"id", info.id},
                          {"title", info.title},
                          {"summary", info.summary},
                          {"open_by_default", info.open_by_default},
                          {"widgets", widgets},
                          {"widget_info", widget_info},
                          {"scene_fields", fields},
                          {"keys", KeysOf(info)},
                          {"picture", info.picture},
                          {"figure_scene", nlohmann::json::parse(info.figure_scene)}});
    }
    return WriteStandardOutput(panels.dump(2) + "\n");
}

} // namespace pelab
