// scene_controls.h — the controls of the panels drawn from their one declaration
// (NumberControl, io/scene.h): the slider's bounds, label, format, tooltip and recorded name all
// come from the row, as do the widget's entry in the panel's widget names.
#pragma once

#include "io/scene.h"
#include "panels/panel.h"
#include "widgets/app_state.h"
#include "widgets/frame.h"
#include "widgets/layout.h"

#include <limits>

namespace pelab {

/// The shared positions A and B (scene fields pos_a and pos_b, registered with the window's
/// fields in shell/app.cpp): every panel that shows one draws it from these rows, under its own
/// label and widget name (Drawn).
inline constexpr NumberControl kPosA{"pos_a", "position A", 0,     kUiMaxPosition, 0,
                                     "pos A", "%.10g",      false, nullptr,        "pos_a"};
inline constexpr NumberControl kPosB{"pos_b", "position B", 0,     kUiMaxPosition, 0,
                                     "pos B", "%.10g",      false, nullptr,        "pos_b"};

/// The same field and bounds drawn under another label and widget name (a shared field that
/// several panels show).
constexpr NumberControl Drawn(NumberControl row, const char* label, const char* widget) {
    row.label = label;
    row.widget = widget;
    return row;
}

/// The control's slider as the next item of row, width wide: clamped to the bounds (typing a
/// number outside them keeps it inside), its tooltip on hover, recorded under its widget name.
/// True when it changed the value.
bool SceneSlider(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
                 float width);

/// A whole-number control's slider (format "%d"); most narrows the row's upper bound for this
/// frame (a head must exist: at most the heads shown), never widens it. True when it changed.
bool SceneSlider(FrameContext& frame, FlowRow& row, const NumberControl& control, int* value,
                 float width, int most = std::numeric_limits<int>::max());
/// A whole-number control as a typed box (no slider), clamped the same way; step > 0 adds −
/// and + buttons that move it by step (by step_fast with Ctrl).
bool SceneInput(FrameContext& frame, FlowRow& row, const NumberControl& control, int* value,
                float width, int most = std::numeric_limits<int>::max(), int step = 0,
                int step_fast = 0);
/// A number control as a typed box: a value typed outside the bounds is clamped to them, one
/// that is not a finite number leaves the value as it was.
bool SceneInput(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
                float width, double step = 0, double step_fast = 0);
/// value within the control's bounds (and most): for a value that a scene or a lesson set.
int ClampToControl(const NumberControl& control, int value,
                   int most = std::numeric_limits<int>::max());

/// The control's entry in the panel's widget names ("the c slider: …"; kind "box" for one drawn
/// by SceneInput).
WidgetName ControlWidget(const NumberControl& control, const char* kind = "slider");

} // namespace pelab
