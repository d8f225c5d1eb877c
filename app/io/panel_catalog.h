// panel_catalog.h — what the lesson and quiz readers need to know about the panels, without
// depending on them: the readers sit below the panels (io), the registry above implements this.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pelab {

class PanelCatalog {
public:
    virtual ~PanelCatalog() = default;
    /// Whether id names a panel ("compare").
    virtual bool IsKnown(const std::string& id) const = 0;
    /// "waves, compare, …", for messages.
    virtual std::string IdList() const = 0;
    /// "" when a panel declares name (a lesson or quiz may highlight it), else a message with
    /// the closest declared names.
    virtual std::string CheckWidgetName(const std::string& name) const = 0;
    /// What panel_id cannot show on a slide with this scene (every field's value): one message
    /// per problem, none when it can (the order panel: sentences of at most 8 words).
    virtual std::vector<std::string> SlideSceneProblems(const std::string& panel_id,
                                                        const nlohmann::json& scene) const = 0;
};

} // namespace pelab
