// The Real model view's parts that only a rotary model has (order_real.h): the chosen switch's
// own sentence, how close each block's attention stays under a shift of every position (with
// float32 and bf16 tables), and the settings of the base and "none from block" switches.
#include "panels/order/panel_order.h"
#include "panels/scene_controls.h"

#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace pelab {

namespace {

// The run the scene's switch names (0: as trained, when the model has no such switch).
std::size_t ChosenRun(const RealOrderDemo& demo, const std::string& id) {
    for (std::size_t k = 0; k < demo.switch_ids.size(); ++k)
        if (demo.switch_ids[k] == id) return k;
    return 0;
}

// A block where no weight changed at all is drawn here on the log axis.
constexpr double kClosenessFloor = 1e-10;

} // namespace

void OrderPanel::DrawRotarySettings(FrameContext& frame, FlowRow& row, int layers) {
    // In a strip (a short window, a slide) only the number the chosen switch uses.
    const bool strip = frame.controls_in_strip;
    if (!strip || real_switch == "base")
        SceneSlider(frame, row, kRealBaseFactor, &real_base_factor, FitWidth(7.0f, "base ×"));
    if (!strip || real_switch == "nope-from")
        SceneSlider(frame, row, kRealNopeBlock, &real_nope_block, FitWidth(5.0f, "none from block"),
                    std::max(1, layers));
}

void OrderPanel::DrawSwitchSentence(FrameContext& frame, const RealOrderDemo& demo) {
    if (!demo.rotary) return;
    const std::size_t k = ChosenRun(demo, real_switch);
    if (k >= demo.switch_sentences.size()) return;
    WrappedText(demo.switch_sentences[k].text.c_str());
    frame.Record("order.real_switch_sentence");
}

void OrderPanel::DrawShiftCloseness(FrameContext& frame, const RealOrderDemo& demo, float height) {
    const ShiftCloseness& s = demo.shift;
    if (!demo.rotary || s.shift == 0 || s.f32.empty() || real_switch != "shift") return;
    std::vector<double> xs, f32, bf16;
    double low = 1.0, high = kClosenessFloor;
    for (std::size_t l = 0; l < s.f32.size(); ++l) {
        xs.push_back(static_cast<double>(l + 1));
        f32.push_back(std::max(s.f32[l], kClosenessFloor));
        bf16.push_back(std::max(s.bf16[l], kClosenessFloor));
        for (double value : {f32.back(), bf16.back()})
            low = std::min(low, value), high = std::max(high, value);
    }
    plot::PlotConfig config;
    config.x_label = "block";
    config.y_label = "largest change of a weight";
    config.x_flags = plot::AxisFlags_Integer;
    config.y_flags = plot::AxisFlags_Log;
    closeness_view.SetHome({0.5, static_cast<double>(xs.size()) + 0.5},
                           {low / 3, std::max(high * 3, low * 30)});
    // As tall as the distance plot (DrawDistances' rule), less the title line.
    if (height <= 0)
        height = std::max(ImGui::GetFontSize() * 10.0f, std::min(ImGui::GetContentRegionAvail().y,
                                                                 ImGui::GetFontSize() * 16.0f)) -
                 ImGui::GetTextLineHeightWithSpacing();
    ImGui::BeginGroup(); // the title with the plot: what a lesson outlines
    WrappedText(("Shifted by " + ShownNumber(static_cast<double>(s.shift), 9) +
                 ": how much each block's attention changes")
                    .c_str());
    plot::Plot plot;
    if (plot.Begin("##real_shift_closeness", closeness_view, ImVec2(-1, height), config)) {
        plot.LineMarkers("float32 tables", xs.data(), f32.data(), static_cast<int>(xs.size()),
                         frame.Color(Role::PosB), frame.Px(2.4f), frame.Px(4.0f),
                         plot::Marker::Circle);
        plot.LineMarkers("tables rounded to bf16", xs.data(), bf16.data(),
                         static_cast<int>(xs.size()), frame.Color(Role::ShiftArc), frame.Px(2.0f),
                         frame.Px(4.0f), plot::Marker::Square);
        plot.End();
    }
    ImGui::EndGroup();
    FormulaTooltip("Per block: the largest difference of any attention weight of either sentence "
                   "between the run at positions 0, 1, 2, … and the run at K, K + 1, …. With "
                   "float32 tables the angles and the turn are float32, as transformers computes "
                   "them; bf16 rounds the cos and sin tables as transformers hands them to a model "
                   "run in bf16. A block where no weight changed is drawn at 10⁻¹⁰.");
    frame.Record("order.real_shift_closeness");
}

} // namespace pelab
