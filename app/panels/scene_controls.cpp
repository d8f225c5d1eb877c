// scene_controls.cpp — sliders drawn from their NumberControl rows (panels/scene_controls.h).
#include "panels/scene_controls.h"

#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

bool SceneSlider(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
                 float width) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    double low = control.min, high = control.max;
    ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp;
    if (control.slider_span > 0) {
        // As the whole-number slider: a value typed past the slider's ends keeps the bounds.
        low = std::max(low, -control.slider_span);
        high = std::max(low, std::min(high, control.slider_span));
        flags = ImGuiSliderFlags_None;
    }
    if (control.logarithmic) flags |= ImGuiSliderFlags_Logarithmic;
    const double before = *value;
    ImGui::SliderScalar(control.label, ImGuiDataType_Double, value, &low, &high, control.format,
                        flags);
    *value = std::isfinite(*value) ? std::clamp(*value, control.min, control.max) : before;
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return *value != before;
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
    int low = static_cast<int>(control.min);
    int high = ClampToControl(control, static_cast<int>(control.max), most);
    ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp;
    if (control.slider_span > 0) {
        // A slider narrower than the field: a value typed past its ends is clamped to the
        // field's bounds below, not to the slider's.
        const int span = static_cast<int>(control.slider_span);
        low = std::max(low, -span);
        high = std::max(low, std::min(high, span));
        flags = ImGuiSliderFlags_None;
    }
    if (control.logarithmic) flags |= ImGuiSliderFlags_Logarithmic;
    const int before = *value;
    ImGui::SliderInt(control.label, value, low, high, control.format, flags);
    *value = ClampToControl(control, *value, most);
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return *value != before;
}

bool SceneSlider(FrameContext& frame, FlowRow& row, const NumberControl& control, float* value,
                 float width) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp;
    if (control.logarithmic) flags |= ImGuiSliderFlags_Logarithmic;
    const float before = *value;
    ImGui::SliderFloat(control.label, value, static_cast<float>(control.min),
                       static_cast<float>(control.max), control.format, flags);
    if (!std::isfinite(*value)) *value = before;
    *value = std::clamp(*value, static_cast<float>(control.min), static_cast<float>(control.max));
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return *value != before;
}

bool SceneDrag(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
               float width, float speed, const char* format) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    const double before = *value;
    ImGui::DragScalar(control.label, ImGuiDataType_Double, value, speed, &control.min, &control.max,
                      format != nullptr ? format : control.format, ImGuiSliderFlags_AlwaysClamp);
    *value = std::isfinite(*value) ? std::clamp(*value, control.min, control.max) : before;
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return *value != before;
}

bool SceneRange(FrameContext& frame, FlowRow& row, const NumberControl& first_row,
                const NumberControl& last_row, int* first, int* last, float width, int most) {
    row.Item(LabelledWidth(width, first_row.label));
    ImGui::SetNextItemWidth(width);
    const int low = ClampToControl(first_row, static_cast<int>(first_row.min), most);
    const int high = ClampToControl(last_row, static_cast<int>(last_row.max), most);
    const int first_before = *first, last_before = *last;
    ImGui::DragIntRange2(first_row.label, first, last, 1.0f, low, high, "%d", "%d",
                         ImGuiSliderFlags_AlwaysClamp);
    *first = ClampToControl(first_row, *first, most);
    *last = std::max(*first, ClampToControl(last_row, *last, most));
    if (first_row.tooltip != nullptr) FormulaTooltip(first_row.tooltip);
    frame.Record(first_row.widget);
    return *first != first_before || *last != last_before;
}

bool ScenePositionSlider(FrameContext& frame, FlowRow& row, const NumberControl& control,
                         double* value, float width, double most) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    const double high = std::clamp(most, control.min, control.max);
    double handle = std::min(*value, high);
    const double before = *value;
    if (ImGui::SliderScalar(control.label, ImGuiDataType_Double, &handle, &control.min, &high,
                            PositionFormat(handle), ImGuiSliderFlags_AlwaysClamp))
        *value = std::round(handle);
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return *value != before;
}

bool SceneEntry(FrameContext& frame, FlowRow& row, const NumberControl& control, double* value,
                float width, const char* what, std::string* note) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    double typed = *value;
    const double before = *value;
    if (ImGui::InputDouble(control.label, &typed, 0.0, 0.0, control.format,
                           ImGuiInputTextFlags_EnterReturnsTrue)) {
        if (std::isfinite(typed) && typed >= control.min && typed <= control.max) {
            *value = typed;
            note->clear();
        } else {
            char text[192];
            std::snprintf(text, sizeof text,
                          "%s must be a number in [%.10g, %.10g] (got %.10g); kept %.10g.", what,
                          control.min, control.max, typed, *value);
            *note = text;
        }
    }
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return *value != before;
}

bool SceneCell(const NumberControl& control, double* value) {
    double typed = *value;
    ImGui::SetNextItemWidth(-1);
    const bool taken = ImGui::InputDouble(control.label, &typed, 0.0, 0.0, control.format,
                                          ImGuiInputTextFlags_EnterReturnsTrue);
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    if (!taken || !std::isfinite(typed)) return false;
    const double before = *value;
    *value = std::clamp(typed, control.min, control.max);
    return *value != before;
}

bool DModelSlider(FrameContext& frame, FlowRow& row, const NumberControl& control, float width,
                  std::string* note) {
    AppState& state = frame.state;
    // Drawn without the even rule, so that an odd value typed can be named in the note.
    NumberControl any_width = control;
    any_width.even = false;
    int d_model = state.d_model;
    if (!SceneSlider(frame, row, any_width, &d_model, width)) return false;
    if (d_model % 2 != 0) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "d_model must be even (each pair needs a sin and a cos dimension): "
                      "%d was rounded to %d.",
                      d_model, ClampToControl(control, d_model));
        *note = text;
    } else {
        note->clear();
    }
    state.d_model = ClampToControl(control, d_model);
    state.Clamp();
    return true;
}

float HelpMarkerRoom() {
    return FlowRow::Spacing() + HelpMarkerWidth();
}

void HelpAfter(const char* help) {
    ImGui::SameLine();
    HelpMarker(help);
}

bool SceneInput(FrameContext& frame, FlowRow& row, const NumberControl& control, int* value,
                float width, int most) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    // No buttons unless the row has a step (ImGui draws them for a step that is not null).
    const int step = static_cast<int>(control.step),
              step_fast = static_cast<int>(control.step_fast);
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
                float width) {
    row.Item(LabelledWidth(width, control.label));
    ImGui::SetNextItemWidth(width);
    const double before = *value;
    const double* step_buttons = control.step > 0 ? &control.step : nullptr;
    const double* fast_buttons = control.step_fast > 0 ? &control.step_fast : nullptr;
    const bool changed = ImGui::InputScalar(control.label, ImGuiDataType_Double, value,
                                            step_buttons, fast_buttons, control.format);
    *value = std::isfinite(*value) ? std::clamp(*value, control.min, control.max) : before;
    if (control.tooltip != nullptr) FormulaTooltip(control.tooltip);
    frame.Record(control.widget);
    return changed && *value != before;
}

WidgetName ControlWidget(const NumberControl& control, const char* kind) {
    // The label as shown: ImGui hides what follows "##" (an id, not text).
    std::string shown(control.label);
    shown = shown.substr(0, shown.find("##"));
    if (!shown.empty()) shown += ' ';
    return {control.widget, "the " + shown + kind + ": " + control.doc};
}

} // namespace pelab
