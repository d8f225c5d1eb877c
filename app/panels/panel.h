// panel.h — what every panel is to the rest of PE Lab. A panel is one struct in its own folder
// (panels/<id>/) holding its view state and its own settings; the frame does the window
// boilerplate (placement, Begin/End, clamping) and calls Draw between Begin and End. The registry
// (panel_registry.cpp) lists every panel once with what it declares (PanelInfo: its widget
// names, the scene fields it reads, its keys); the View menu, scenes, screenshots, presenting,
// readouts and the tests all iterate it.
#pragma once

#include "widgets/frame.h"
#include "widgets/input.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace pelab {

class SceneTable;
class PanelCatalog;

/// A widget a lesson or a quiz may highlight: the name the recorder gives it ("<i>" standing for
/// a number: "clocks.summary_pair_<i>") and one line saying what the outline goes around, for
/// `pelab lesson widgets` ("the summary face of pair i").
struct WidgetName {
    std::string name;
    std::string what;
    /// The panel's readouts (top-level keys of Panel::Readouts) whose numbers the widget puts
    /// on screen: `lesson check` looks for a number a caption quotes in these, of the widgets
    /// the step outlines, and in the scene (the numbers of every slider and field). Empty: the
    /// widget shows no readout (a control, a tab).
    std::vector<std::string> shows = {};
};

class Panel {
public:
    virtual ~Panel() = default;
    /// Draws the contents; the frame has called ImGui::Begin and calls End afterwards.
    virtual void Draw(FrameContext& frame) = 0;
    /// Adds the settings this panel alone owns to the scene table (default: none).
    virtual void AddSceneFields(SceneTable& /*table*/) {}
    /// Called once every panel has added its fields (the table is complete): for data checked
    /// against the scene table (the quiz's shows).
    virtual void Ready(const SceneTable& /*table*/, const PanelCatalog& /*panels*/) {}
    /// A key pressed while this panel has the focus (or is presented) and no text is being
    /// edited, before the app's own shortcuts; true when the panel used it. Only the commands
    /// its PanelInfo::keys declares (tests/registry_test.cpp).
    virtual bool TakeKey(const KeyPress& /*press*/, FrameRequests& /*requests*/) { return false; }
    /// The panel's key computed numbers for `pelab readouts` and --state-out, as one object.
    virtual nlohmann::json Readouts(const AppState& state) const = 0;
    /// What the status bar adds while this panel is presented (a setting of its own that the
    /// shared numbers do not show); default: nothing.
    virtual std::string StatusNote(const AppState& /*state*/) const { return {}; }
    /// The panel's table as CSV (a header line, then one line per row, full precision), for
    /// File → Export table as CSV; "" when the panel has no table.
    virtual std::string TableCsv(const AppState& /*state*/) const { return {}; }
    /// Whether TableCsv has a table to give (cheap: asked while the File menu is drawn).
    virtual bool HasTable() const { return false; }
    /// What this panel cannot show on a slide with scene (every field's value), one message per
    /// problem: `lesson check` and opening a lesson refuse such a step. Default: none.
    virtual std::vector<std::string> SlideSceneProblems(const nlohmann::json& /*scene*/) const {
        return {};
    }
    /// Why the panel cannot show what its settings ask for now, as a lesson step would be shown
    /// ("the Real model view cannot run: …"): `lesson check` lists it as the step's problem.
    /// Default: "" (every panel shows its settings).
    virtual std::string StepProblem(const AppState& /*state*/) const { return {}; }
    /// Whether this panel reads the data file at path (not JSON: a dropped or opened .npy) as it
    /// stands now: the Your model panel takes another engine's RoPE tables while a RoPE model is
    /// open. Default: no.
    virtual bool TakesDataFile(const std::string& /*path*/, const AppState& /*state*/) const {
        return false;
    }
    /// Reads a data file TakesDataFile accepted: "" or why it was refused.
    virtual std::string OpenDataFile(const std::string& /*path*/, const AppState& /*state*/) {
        return "this panel opens no data files";
    }
    /// The kind of document this panel opens (File → Open hands it over): "quiz" for the quiz
    /// panel; "" for none.
    virtual std::string DocumentKind() const { return {}; }
    /// Reads doc (a file of DocumentKind, at path) and shows it: "" or why it was refused, in
    /// which case nothing changes.
    virtual std::string OpenDocument(const nlohmann::json& /*doc*/, const std::string& /*path*/,
                                     const SceneTable& /*table*/, const PanelCatalog& /*panels*/) {
        return "this panel opens no files";
    }
};

} // namespace pelab
