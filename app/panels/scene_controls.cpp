// scene_controls.cpp — sliders drawn from their NumberControl rows (panels/scene_controls.h).
#include "panels/scene_controls.h"

#include "widgets/widgets.h"

#include <imgui.h>

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

WidgetName ControlWidget(const NumberControl& control) {
    return {control.widget, std::string("the ") + control.label + " slider: " + control.doc};
}

} // namespace pelab
