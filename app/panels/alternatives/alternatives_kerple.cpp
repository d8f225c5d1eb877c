// alternatives_kerple.cpp — the alternatives panel's KERPLE tab (Chi et al., 2022): biases added
// to the attention scores that, unlike ALiBi's straight line, flatten with distance. The
// logarithmic −r₁·log(1 + r₂·d) (the paper's best, and the training lab's kerple) and the power
// −r₁·d^p, 0 < p ≤ 2, both against ALiBi with the same slope at d = 0. Against distance: the
// three biases. Per step: what one more token of distance costs each.
#include "panels/alternatives/alternatives_kerple.h"
#include "pelab/encodings/relative_biases.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

KerpleResult ComputeKerple(double r1, double r2, double power, double distance) {
    KerpleResult r;
    r.r1 = r1, r.r2 = r2, r.power = power;
    r.slope = r1 * r2;
    r.distance = distance;
    const double reach = std::max(64.0, std::ceil(2 * distance));
    for (int s = 0; s <= 256; ++s) {
        const double d = reach * s / 256.0;
        r.distances.push_back(d);
        r.log_bias.push_back(kerple_log_bias(r1, r2, d));
        r.power_bias.push_back(kerple_power_bias(r1, power, d));
        r.alibi_bias.push_back(-r.slope * d);
        r.log_step.push_back(kerple_log_bias(r1, r2, d) - kerple_log_bias(r1, r2, d + 1));
        r.power_step.push_back(kerple_power_bias(r1, power, d) -
                               kerple_power_bias(r1, power, d + 1));
        r.alibi_step.push_back(r.slope);
    }
    r.log_at = kerple_log_bias(r1, r2, distance);
    r.power_at = kerple_power_bias(r1, power, distance);
    r.alibi_at = -r.slope * distance;
    r.log_step_at = r.log_at - kerple_log_bias(r1, r2, distance + 1);
    r.log_far = kerple_log_bias(r1, r2, r.far);
    r.alibi_far = -r.slope * r.far;
    return r;
}

Explanation KerpleSentence(const KerpleResult& r) {
    Explanation out;
    out.Claims("distance", r.distance);
    out.Claims("log_bias", r.log_at);
    out.Claims("power_bias", r.power_at);
    out.Claims("alibi_bias", r.alibi_at);
    out.Claims("log_step", r.log_step_at);
    out.Claims("log_far", r.log_far);
    out.Claims("alibi_far", r.alibi_far);
    out.text = "KERPLE's biases at the distance d = |m − n| = " + ShownNumber(r.distance) +
               ": the log form −r₁·log(1 + r₂·d) gives " + ShownNumber(r.log_at, 4) +
               ", the power form −r₁·d^p (p = " + ShownNumber(r.power, 3) + ") gives " +
               ShownNumber(r.power_at, 4) +
               ", and ALiBi with the log form's slope at 0 (r₁·r₂ = " + ShownNumber(r.slope, 4) +
               ") gives " + ShownNumber(r.alibi_at, 4) + ". ";
    out.text += "One more token of distance costs the log form " + ShownNumber(r.log_step_at, 3) +
                " here and ALiBi " + ShownNumber(r.slope, 4) +
                " at every distance: the log form flattens, so far keys fade ever more gently (at "
                "d = 1 000 it gives " +
                ShownNumber(r.log_far, 4) + " where ALiBi gives " + ShownNumber(r.alibi_far, 4) +
                "). ";
    // At p = 1 the power form is a line of slope r₁; the ALiBi line drawn has r₁·r₂.
    out.text += r.power < 1 ? "The power form flattens too, as p < 1."
                : r.power == 1
                    ? (r.r2 == 1 ? "The power form at p = 1 is a straight line of slope r₁: the "
                                   "ALiBi line drawn, as r₂ = 1."
                                 : "The power form at p = 1 is a straight line of slope r₁ = " +
                                       ShownNumber(r.r1, 4) +
                                       ": ALiBi's shape, not the ALiBi line drawn (slope r₁·r₂).")
                    : "The power form with p > 1 steepens instead.";
    out.text += " The training lab's kerple learns r₁ and r₂ per head.";
    return out;
}

namespace {

struct KerpleInputs {
    double r1 = 0, r2 = 0, power = 0, distance = 0;
    bool operator==(const KerpleInputs& o) const {
        return r1 == o.r1 && r2 == o.r2 && power == o.power && distance == o.distance;
    }
};

constexpr NumberControl kKerpleR1{
    "kerple_r1",
    "KERPLE's r₁",
    0.01,
    10,
    1,
    "r1",
    "%.2f",
    true,
    "r₁ in −r₁·log(1 + r₂·d) and −r₁·d^p: the bias's scale (learned per head).",
    "alternatives.kerple_r1"};
constexpr NumberControl kKerpleR2{"kerple_r2",
                                  "KERPLE's r₂ (the log form)",
                                  0.01,
                                  10,
                                  1,
                                  "r2",
                                  "%.2f",
                                  true,
                                  "r₂ in −r₁·log(1 + r₂·d): how soon the log bends (learned per "
                                  "head).",
                                  "alternatives.kerple_r2"};
constexpr NumberControl kKerplePower{"kerple_power",
                                     "KERPLE's power p (the power form)",
                                     0.01,
                                     2,
                                     0.5,
                                     "power p",
                                     "%.2f",
                                     true,
                                     "p in the power form −r₁·d^p, 0 < p ≤ 2.",
                                     "alternatives.kerple_power"};

struct KerpleTab final : AlternativesTab {
    double r1 = kKerpleR1.initial, r2 = kKerpleR2.initial, power = kKerplePower.initial;
    mutable Cached<KerpleInputs, KerpleResult> result;
    plot::PlotView bias_view, step_view;

    const KerpleResult& ResultFor(const AppState& state) const {
        return result.Get(KerpleInputs{r1, r2, power, std::abs(state.pos_a - state.pos_b)},
                          [](const KerpleInputs& in) {
                              return ComputeKerple(in.r1, in.r2, in.power, in.distance);
                          });
    }
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

void KerpleTab::Draw(AlternativesPanel& /*panel*/, FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float slider = FitWidth(6.0f, "power p");
        SceneSlider(frame, row, kKerpleR1, &r1, slider);
        SceneSlider(frame, row, kKerpleR2, &r2, slider);
        SceneSlider(frame, row, kKerplePower, &power, slider);
        EndControls(frame);
    }
    const KerpleResult* computed = nullptr;
    {
        CoreTimer core_time(frame.stats);
        computed = &ResultFor(frame.state);
    }
    const KerpleResult& r = *computed;
    const Explanation sentence = KerpleSentence(r);
    SentenceAndPlots layout;
    layout.Begin(frame, sentence.text, "alternatives.kerple_text");
    const float height = layout.height, half_width = layout.half_width;
    const int count = static_cast<int>(r.distances.size());
    {
        const double bottom = std::min({r.log_bias.back(), r.power_bias.back(), -1e-9});
        bias_view.SetHome(plot::Range{0, r.distances.back()}, plot::Range{bottom * 1.05, 0});
        if (!bias_view.has_home) bias_view.Reset();
        plot::PlotConfig config;
        config.x_label = "distance d = |i − j|";
        config.y_label = "bias added to q·k";
        plot::Plot p;
        if (p.Begin("the bias against distance##kerple_bias", bias_view, ImVec2(half_width, height),
                    config)) {
            frame.Record("alternatives.kerple_bias");
            p.Line("ALiBi, slope r₁r₂", r.distances.data(), r.alibi_bias.data(), count,
                   frame.Color(Role::Muted), frame.Px(1.5f));
            p.Line("log", r.distances.data(), r.log_bias.data(), count, frame.Color(Role::Accent),
                   frame.Px(2.0f));
            p.Line("power", r.distances.data(), r.power_bias.data(), count, frame.Color(Role::Cos),
                   frame.Px(2.0f));
            if (r.distance <= r.distances.back())
                p.VLine(r.distance, frame.Color(Role::PosA), "|m − n|");
            p.End();
        }
    }
    ImGui::SameLine();
    {
        const double top = std::max({r.slope, r.log_step.front(), r.power_step.front(), 1e-9});
        step_view.SetHome(plot::Range{0, r.distances.back()}, plot::Range{0, top * 1.05});
        if (!step_view.has_home) step_view.Reset();
        plot::PlotConfig config;
        config.x_label = "distance d";
        config.y_label = "cost of one more token";
        plot::Plot p;
        if (p.Begin("what one more token costs##kerple_step", step_view, ImVec2(-1, height),
                    config)) {
            frame.Record("alternatives.kerple_step");
            p.Line("ALiBi", r.distances.data(), r.alibi_step.data(), count,
                   frame.Color(Role::Muted), frame.Px(1.5f));
            p.Line("log", r.distances.data(), r.log_step.data(), count, frame.Color(Role::Accent),
                   frame.Px(2.0f));
            p.Line("power", r.distances.data(), r.power_step.data(), count, frame.Color(Role::Cos),
                   frame.Px(2.0f));
            p.End();
        }
    }
    layout.End(frame);
}

void KerpleTab::AddFields(SceneTable& table) {
    table.Number(kKerpleR1, &r1);
    table.Number(kKerpleR2, &r2);
    table.Number(kKerplePower, &power);
}

nlohmann::json KerpleTab::Readouts(const AlternativesPanel& /*panel*/,
                                   const AppState& state) const {
    const KerpleResult& r = ResultFor(state);
    const Explanation sentence = KerpleSentence(r);
    return {{"kerple",
             {{"r1", r.r1},
              {"r2", r.r2},
              {"power", r.power},
              {"distance", r.distance},
              {"log_bias", r.log_at},
              {"power_bias", r.power_at},
              {"alibi_bias", r.alibi_at},
              {"log_step", r.log_step_at},
              {"log_far", r.log_far},
              {"alibi_far", r.alibi_far},
              {"sentence", sentence.text},
              {"claims", ClaimsJson(sentence)}}}};
}

std::optional<MethodRowJob> KerpleTab::RowJob(const AlternativesPanel& /*panel*/,
                                              const AppState& /*state*/) const {
    char inputs[64];
    std::snprintf(inputs, sizeof inputs, "kerple %.17g %.17g", r1, r2);
    return MethodRowJob{
        inputs, [r1 = r1, r2 = r2] {
            // The log bias of query 9 on key 3, both moved by 1 … 999.
            double change = 0;
            for (int s = 1; s < 1000; ++s)
                change = std::max(change, std::abs(kerple_log_bias(r1, r2, (9 + s) - (3 + s)) -
                                                   kerple_log_bias(r1, r2, 9 - 3)));
            const bool relative = change == 0;
            return MethodRow{
                {"KERPLE (log)", "research models (Chi et al. 2022)",
                 "a bias added to each attention score", "2 per head",
                 "defined at any distance: the penalty grows ever more slowly",
                 (relative ? "yes, −r₁·log(1 + r₂·|i − j|): change " : "no: the bias changes by ") +
                     ShownNumber(change, 2)},
                relative ? Verdict::Yes : Verdict::No,
                change,
                "kerple"};
        }};
}

std::vector<WidgetName> KerpleTab::Widgets() const {
    return {
        ControlWidget(kKerpleR1),
        ControlWidget(kKerpleR2),
        ControlWidget(kKerplePower),
        {"alternatives.kerple_text", "the sentence on KERPLE's biases at |m − n|", {"kerple"}},
        {"alternatives.kerple_bias", "KERPLE's log and power biases and ALiBi's against distance"},
        {"alternatives.kerple_step", "what one more token of distance costs each"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeKerpleTab() {
    return std::make_unique<KerpleTab>();
}

} // namespace pelab
