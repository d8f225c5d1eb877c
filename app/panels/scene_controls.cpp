// scene_controls.cpp — sliders drawn from their NumberControl rows (panels/scene_controls.h).
#include "panels/scene_controls.h"

#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace pelab {

bool SceneSlider(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
                 float width) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp;
    if (control.logarithmic) flags |= ImGuiSliderFlags_Logarithmic;
    const bool changed = ImGui::SliderScalar(control.label, ImGuiDataType_Double, value,
                                             &control.min, &control.max, control.format, flags);
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return changed;
}

int ClampToControl(const NumberControl& control, int value, int most) {
    const int low = static_cast<int>(control.min);
    const int high = std::max(low, std::min(static_cast<int>(control.max), most));
    const int clamped = std::clamp(value, low, high);
    // An even control goes up to the next even number (down at the top).
    if (control.even && clamped % 2 != 0) return clamped + 1 <= high ? clamped + 1 : clamped - 1;
    return clamped;
}

bool SceneSlider(FrameContext& frame, FlowRow& row, const NumberControl& control, int* value,
                 float width, int most) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    const int low = static_cast<int>(control.min);
    const int high = ClampToControl(control, static_cast<int>(control.max), most);
    ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp;
    if (control.logarithmic) flags |= ImGuiSliderFlags_Logarithmic;
    const bool changed = ImGui::SliderInt(control.label, value, low, high, control.format, flags);
    *value = ClampToControl(control, *value, most);
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return changed;
}

bool SceneInput(FrameContext& frame, FlowRow& row, const NumberControl& control, int* value,
                float width, int most, int step, int step_fast) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    // No buttons unless asked for (ImGui draws them for a step that is not null).
    const int* step_buttons = step > 0 ? &step : nullptr;
    const int* fast_buttons = step_fast > 0 ? &step_fast : nullptr;
    const bool changed =
        ImGui::InputScalar(control.label, ImGuiDataType_S32, value, step_buttons, fast_buttons);
    *value = ClampToControl(control, *value, most);
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return changed;
}

bool SceneInput(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
                float width, double step, double step_fast) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    const double before = *value;
    const double* step_buttons = step > 0 ? &step : nullptr;
    const double* fast_buttons = step_fast > 0 ? &step_fast : nullptr;
    const bool changed = ImGui::InputScalar(control.label, ImGuiDataType_Double, value,
                                            step_buttons, fast_buttons, control.format);
    *value = std::isfinite(*value) ? std::clamp(*value, control.min, control.max) : before;
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return changed && *value != before;
}

WidgetName ControlWidget(const NumberControl& control, const char* kind) {
    return {control.widget, std::string("the ") + control.label + " " + kind + ": " + control.doc};
}

} // namespace pelab
