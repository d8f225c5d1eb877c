// panel_start.h — "Start here": where positions enter a transformer, as a column of boxes
// (tokens → embeddings + positional encoding → Q, K, V → attention scores → softmax), each box
// a button that presents the panel explaining it, with one sentence beside it. What a new user
// sees first, and the first step of the why-positions lesson.
#pragma once

#include "panels/panel.h"

#include <string>
#include <vector>

namespace pelab {

/// One box of the picture: what it is, the sentence beside it, the panel (and scene fields)
/// its button presents.
struct StartStage {
    const char* id;       ///< widget name suffix: "start.<id>"
    const char* label;    ///< the box's text
    const char* sentence; ///< beside the box
    const char* panel;    ///< presented by the box's button
    const char* scene;    ///< extra scene fields, as JSON ("" = none)
};

/// The stages, top to bottom; the positional encoding is joined to the embeddings by "+".
const std::vector<StartStage>& StartStages();

struct StartPanel : Panel {
    // View state: how far the map was tightened to fit the window's height (0: not; 1: no hint
    // line; 2: and shorter arrows; 3: and smaller text), and the height it was fitted to.
    int compact = 0;
    float fitted_height = 0.0f;

    void Draw(FrameContext& frame) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();
};

} // namespace pelab
