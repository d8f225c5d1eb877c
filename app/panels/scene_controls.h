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
#include <string>

namespace pelab {

/// The fields every panel shares (AppState, registered with the window's fields in
/// shell/app.cpp): every panel that shows one draws it from these rows, under its own label and
/// widget name (Drawn). The pair's upper bound is d_model/2 − 1, given as `most` when drawn.
inline constexpr NumberControl kDModel{
    "d_model", "the model width", 2,         kUiMaxDModel, 512, "d_model", "%d",
    true,      nullptr,           "d_model", /*even=*/true};
inline constexpr NumberControl kBase{"base",     "ω_i = base^(−2i/d_model)",
                                     kUiMinBase, kUiMaxBase,
                                     10000,      "base",
                                     "%.0f",     true,
                                     nullptr,    "base"};
inline constexpr NumberControl kPair{"pair",  "the selected (sin, cos) pair",
                                     0,       kUiMaxDModel / 2.0 - 1,
                                     0,       "pair i",
                                     "%d",    false,
                                     nullptr, "pair"};
inline constexpr NumberControl kPosA{"pos_a", "position A", 0,     kUiMaxPosition, 3,
                                     "pos A", "%.10g",      false, nullptr,        "pos_a"};
inline constexpr NumberControl kPosB{"pos_b", "position B", 0,     kUiMaxPosition, 50,
                                     "pos B", "%.10g",      false, nullptr,        "pos_b"};
/// The shift's slider spans ±100 (one position is a few pixels); Ctrl+click types up to ±1000.
inline constexpr NumberControl kShiftK{"shift_k",
                                       "the shift k of both positions",
                                       -kUiMaxShift,
                                       kUiMaxShift,
                                       5,
                                       "k",
                                       "%d",
                                       false,
                                       nullptr,
                                       "shift_k",
                                       false,
                                       /*slider_span=*/100};

/// The same field and bounds drawn under another label and widget name (a shared field that
/// several panels show), with its own hover text when tooltip is given.
constexpr NumberControl Drawn(NumberControl row, const char* label, const char* widget,
                              const char* tooltip = nullptr) {
    row.label = label;
    row.widget = widget;
    if (tooltip != nullptr) row.tooltip = tooltip;
    return row;
}

/// The room a help marker takes after a control on its row (FlowRow::ReserveNext).
float HelpMarkerRoom();
/// The "(?)" marker with help, on the line of the item just drawn.
void HelpAfter(const char* help);
/// draw() (a control) followed on its line by a "(?)" marker with help; both move to the next
/// line together. Returns what draw() returned.
template <class Draw> bool WithHelp(FlowRow& row, const char* help, Draw draw) {
    row.ReserveNext(HelpMarkerRoom());
    const bool changed = draw();
    HelpAfter(help);
    return changed;
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
/// A whole-number control as a typed box (no slider), clamped the same way, with − and +
/// buttons when the row has a step (Stepped).
bool SceneInput(FrameContext& frame, FlowRow& row, const NumberControl& control, int* value,
                float width, int most = std::numeric_limits<int>::max());
/// A number control as a typed box: a value typed outside the bounds is clamped to them, one
/// that is not a finite number leaves the value as it was.
bool SceneInput(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
                float width);
/// value within the control's bounds (and most): for a value that a scene or a lesson set.
int ClampToControl(const NumberControl& control, int value,
                   int most = std::numeric_limits<int>::max());

/// A float control's slider (a size, an angle), as the double one.
bool SceneSlider(FrameContext& frame, FlowRow& row, const NumberControl& control, float* value,
                 float width);
/// A number control as a drag field (a position: speed values per pixel dragged, typed with
/// Ctrl+click or a double-click), clamped to the bounds; format replaces the row's (e.g.
/// PositionFormat, which shows a whole position without decimals).
bool SceneDrag(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
               float width, float speed, const char* format = nullptr);
/// Two whole-number controls as one range field (first … last, dragged or typed), each within
/// its row's bounds and most, first ≤ last; recorded under first_row's widget name.
bool SceneRange(FrameContext& frame, FlowRow& row, const NumberControl& first_row,
                const NumberControl& last_row, int* first, int* last, float width,
                int most = std::numeric_limits<int>::max());
/// A position's slider over [control.min, most] (a checkpoint's rows, the first 1000
/// positions): the handle shows min(value, most) and sets whole positions. True when it changed.
bool ScenePositionSlider(FrameContext& frame, FlowRow& row, const NumberControl& control,
                         double* value, float width, double most);
/// A typed box taken on Enter: a value outside the control's bounds, or not a number, is
/// refused and note says so ("pos A must be a number in [0, 1000000] (got 2e+06); kept 3."),
/// what naming the value; a value taken clears note. True when it changed the value.
bool SceneEntry(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
                float width, const char* what, std::string* note);
/// A number control as a table cell's typed box (the cell's width, no label): a value typed
/// and taken with Enter is clamped to the bounds, one that is not a finite number is ignored.
/// The caller records the cells it names. True when it changed the value.
bool SceneCell(const NumberControl& control, double* value);
/// The d_model slider (kDModel or a Drawn copy) on the shared AppState::d_model: an odd value
/// typed is rounded up to the next even one and note says so (an even one clears it).
bool DModelSlider(FrameContext& frame, FlowRow& row, const NumberControl& control, float width,
                  std::string* note);

/// The control's entry in the panel's widget names ("the c slider: …"; kind "box" for one drawn
/// by SceneInput).
WidgetName ControlWidget(const NumberControl& control, const char* kind = "slider");

} // namespace pelab
