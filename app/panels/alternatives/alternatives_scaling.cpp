// alternatives_scaling.cpp — the alternatives panel's Long context tab: RoPE's spectrum stretched
// to a longer context (linear, NTK-aware, YaRN, Llama 3), each pair's factor and wavelength.
#include "panels/alternatives/alternatives_scaling.h"
#include "pelab/encodings/sinusoidal.h"

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

namespace {

// "keeps 3 pairs and slows 5 fully", "keeps no pair and slows all 64 fully", …
std::string KeepsAndSlows(int kept, int slowed, int pairs) {
    const auto count = [pairs](int n) {
        if (n == 0) return std::string("no pair");
        if (n == pairs && pairs > 1) return "all " + std::to_string(n) + " pairs";
        return std::to_string(n) + (n == 1 ? " pair" : " pairs");
    };
    return "keeps " + count(kept) + " and slows " + (slowed == 0 ? "none" : count(slowed)) +
           " fully";
}

} // namespace

Explanation ScalingSentence(const ContextScalingOptions& options) {
    Explanation out;
    const int pairs = options.d / 2;
    // How many pairs each ramp method leaves alone and slows fully, counted from the factors.
    const ContextScaling methods[] = {ContextScaling::Linear, ContextScaling::NtkAware,
                                      ContextScaling::Yarn, ContextScaling::Llama3};
    int kept[4] = {}, slowed[4] = {};
    for (int method = 0; method < 4; ++method)
        for (const double factor : frequency_scale_factors(methods[method], options)) {
            kept[method] += std::abs(factor - 1) < 1e-12;
            slowed[method] += std::abs(factor * options.factor - 1) < 1e-12;
        }
    char line[900];
    if (options.factor == 1) {
        std::snprintf(line, sizeof line,
                      "s = 1: the context is not stretched, so every method leaves every θ_i as "
                      "it is (base %s, head d %d, L = %s). Raise s to see how they differ.",
                      ShownNumber(options.base).c_str(), options.d,
                      ShownNumber(options.original_context).c_str());
        out.text = line;
        out.Claims("changes_nothing", 1);
        return out;
    }
    out.Claims("changes_nothing", 0);
    out.Claims("linear_slowed", slowed[0]);
    out.Claims("yarn_kept", kept[2]);
    out.Claims("yarn_slowed", slowed[2]);
    out.Claims("llama_kept", kept[3]);
    out.Claims("llama_slowed", slowed[3]);
    std::snprintf(
        line, sizeof line,
        "To run at %s× the original context (L = %s → %s; base %s, head d %d), each "
        "method slows pairs by a factor between 1 and 1/s = %s. Linear slows all %d "
        "pairs; NTK-aware keeps pair 0 and slows the last by exactly 1/s; YaRN %s; "
        "Llama 3 %s.",
        ShownNumber(options.factor, 4).c_str(), ShownNumber(options.original_context).c_str(),
        ShownNumber(options.original_context * options.factor).c_str(),
        ShownNumber(options.base).c_str(), options.d, ShownNumber(1 / options.factor, 3).c_str(),
        pairs, KeepsAndSlows(kept[2], slowed[2], pairs).c_str(),
        KeepsAndSlows(kept[3], slowed[3], pairs).c_str());
    out.text = line;
    // What the ramps do, said only where the counts show it.
    const bool both_ways = (kept[2] > 0 && slowed[2] > 0) || (kept[3] > 0 && slowed[3] > 0);
    out.Claims("says_fast_kept_slow_slowed", both_ways ? 1 : 0);
    // Turns of pair 0 (θ_0 = 1) and of the last pair within the original context.
    const double fastest_turns = options.original_context / (2 * M_PI);
    const double slowest_turns = fastest_turns * omega(pairs - 1, options.d, options.base);
    if (both_ways) {
        out.text += " The pairs they keep are the fast ones, which turn many times within L; "
                    "the ones they slow fully are the long waves.";
    } else if (kept[2] + kept[3] == 0) {
        std::snprintf(line, sizeof line,
                      " Neither keeps a pair: at L = %s even the fastest pair turns only %s "
                      "times within the context.",
                      ShownNumber(options.original_context).c_str(),
                      ShownNumber(fastest_turns, 3).c_str());
        out.text += line;
    } else if (slowed[2] + slowed[3] == 0) {
        std::snprintf(line, sizeof line,
                      " Neither slows a pair fully: even the slowest pair turns %s times within "
                      "L = %s.",
                      ShownNumber(slowest_turns, 3).c_str(),
                      ShownNumber(options.original_context).c_str());
        out.text += line;
    }
    out.Claims("fastest_turns", fastest_turns);
    out.Claims("slowest_turns", slowest_turns);
    // The other ramp of YaRN, against the one drawn: where they differ most.
    ContextScalingOptions other = options;
    const bool over_pairs = options.yarn_ramp == YarnRamp::PairIndex;
    other.yarn_ramp = over_pairs ? YarnRamp::Turns : YarnRamp::PairIndex;
    const std::vector<double> drawn = frequency_scale_factors(ContextScaling::Yarn, options),
                              not_drawn = frequency_scale_factors(ContextScaling::Yarn, other);
    double differ = 0;
    int differ_pair = 0;
    for (int i = 0; i < pairs; ++i)
        if (std::abs(drawn[i] - not_drawn[i]) > differ)
            differ = std::abs(drawn[i] - not_drawn[i]), differ_pair = i;
    out.Claims("yarn_over_pairs", over_pairs ? 1 : 0);
    out.Claims("ramps_differ", differ);
    out.Claims("ramps_differ_pair", differ_pair);
    const std::string ramps = differ < 1e-12
                                  ? std::string("; at these settings the two ramps agree")
                                  : ": they differ by up to " + ShownNumber(differ, 3) + " (pair " +
                                        ShownNumber(differ_pair) + ")";
    std::snprintf(
        line, sizeof line,
        " YaRN also scales the logits by (0.1·ln s + 1)² = %s. It is drawn %s%s.",
        ShownNumber(attention_logit_scale(ContextScaling::Yarn, options.factor), 4).c_str(),
        over_pairs ? "as Hugging Face's code computes it, which checkpoints run (a ramp "
                     "linear over the pair index); the paper's ramp is linear in the "
                     "turns each pair makes within L"
                   : "as in its paper (a ramp linear in the turns each pair makes within "
                     "L); Hugging Face's code, which checkpoints run, ramps linearly over "
                     "the pair index",
        ramps.c_str());
    out.text += line;
    // Dynamic NTK at the stretched length n = s·L: the base grows by (s·n/L − (s − 1))^(d/(d−2))
    // = (s² − s + 1)^(d/(d−2)), and the slowest pair is slowed by exactly 1/(s² − s + 1).
    const std::vector<double> dynamic =
        frequency_scale_factors(ContextScaling::DynamicNtk, options);
    const double dynamic_base = dynamic_ntk_base(options);
    out.Claims("dynamic_base", dynamic_base);
    out.Claims("dynamic_slowest_factor", dynamic.back());
    std::snprintf(line, sizeof line,
                  " Dynamic NTK recomputes NTK-aware scaling for the text's length: at s·L = %s "
                  "the base becomes %s and the slowest pair is slowed to %s of its frequency, "
                  "1/(s² − s + 1), past the static 1/s.",
                  ShownNumber(options.original_context * options.factor).c_str(),
                  ShownNumber(dynamic_base, 4).c_str(), ShownNumber(dynamic.back(), 3).c_str());
    out.text += line;
    return out;
}

namespace {

constexpr NumberControl kScalingFactor{"scaling_factor",
                                       "how many times longer the new context is (s)",
                                       1,
                                       64,
                                       8,
                                       "factor s",
                                       "%.2f",
                                       true,
                                       "s = new context / original context (Llama 3.1: 8).",
                                       "alternatives.scaling_factor"};
constexpr NumberControl kScalingContext{
    "scaling_context", "the context length trained on", 16, 1e7, 8192, "original L", "%.0f", false,
    nullptr,           "alternatives.scaling_context"};
constexpr NumberControl kScalingWidth =
    Stepped(NumberControl{"scaling_d", "the width of one attention head (even)", 4, 1024, 128,
                          "head d", "%d", false,
                          "The width of one attention head, whose pairs RoPE turns "
                          "(Llama: 128).",
                          "alternatives.scaling_d", true},
            2, 16);

// The legend's name of each method drawn: which YaRN, and the length dynamic NTK is taken at.
const char* DrawnName(ContextScaling method, bool yarn_over_pairs) {
    if (method == ContextScaling::Yarn)
        return yarn_over_pairs ? "YaRN (Hugging Face)" : "YaRN (paper)";
    if (method == ContextScaling::DynamicNtk) return "dynamic NTK at s·L";
    // Its line is 1/s, the floor the others reach (an "1/s" line beside it hid the curves).
    if (method == ContextScaling::Linear) return "linear (1/s)";
    return context_scaling_name(method);
}

const char* const kYarnToggle = "YaRN as Hugging Face";

/// The top of the wavelength plot's home: 4× the longest wavelength of every method, scaled or
/// not. Dynamic NTK's base at s·L can stretch the slowest pair past the others (its curve ran
/// off the top when home followed the linear curve alone).
double WavelengthHomeTop(const ContextScalingOptions& options) {
    double longest = 1;
    for (int method = 0; method < kContextScalingCount; ++method)
        for (double frequency : scaled_frequencies(static_cast<ContextScaling>(method), options))
            if (frequency > 0) longest = std::max(longest, 2 * M_PI / frequency);
    return longest * 4;
}

struct ScalingTab final : AlternativesTab {
    int scaling_d = static_cast<int>(kScalingWidth.initial);
    /// YaRN drawn as Hugging Face's code computes it (ramp over the pair index), not the paper.
    bool yarn_over_pairs = false;
    double scaling_factor = kScalingFactor.initial;
    double scaling_context = kScalingContext.initial;
    plot::PlotView factor_view, wavelength_view;

    ContextScalingOptions ScalingOptions(const AppState& state) const;
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    void DrawYarnToggle(FrameContext& frame);
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
};

ContextScalingOptions ScalingTab::ScalingOptions(const AppState& state) const {
    ContextScalingOptions options;
    options.d = scaling_d;
    options.base = state.base;
    options.factor = scaling_factor;
    options.original_context = scaling_context;
    options.yarn_ramp = yarn_over_pairs ? YarnRamp::PairIndex : YarnRamp::Turns;
    return options;
}

void ScalingTab::DrawYarnToggle(FrameContext& frame) {
    ImGui::Checkbox(kYarnToggle, &yarn_over_pairs);
    FormulaTooltip("Ticked: YaRN's ramp as transformers computes it for checkpoints, linear "
                   "over the pair index between the pairs that turn β = 32 and α = 1 times "
                   "within L (rounded outward). Unticked: the paper's, linear in the turns.");
    frame.Record("alternatives.scaling_yarn_pairs");
}

void ScalingTab::Draw(AlternativesPanel& /*panel*/, FrameContext& frame) {
    AppState& state = frame.state;
    bool toggle_by_legend = false;
    if (BeginControls(frame)) {
        FlowRow row;
        const float slider = FitWidth(8.0f, "factor s");
        SceneSlider(frame, row, kScalingFactor, &scaling_factor, slider);
        const float input = FitWidth(6.0f, "original L");
        // L is a whole number of positions.
        if (SceneInput(frame, row, kScalingContext, &scaling_context, input))
            scaling_context = std::round(scaling_context);
        SceneInput(frame, row, kScalingWidth, &scaling_d, input);
        AlternativesBasePresets(frame, row, "alternatives.scaling_base");
        // A short window: beside the legend's YaRN instead (a third row of the strip was out
        // of view on a projector).
        toggle_by_legend = frame.controls_in_strip && frame.pictures_first;
        if (!toggle_by_legend) {
            row.Item(CheckboxWidth(kYarnToggle));
            DrawYarnToggle(frame);
        }
        EndControls(frame);
    }
    const ContextScalingOptions options = ScalingOptions(state);
    constexpr int kDrawn = 5;
    const ContextScaling methods[kDrawn] = {ContextScaling::Linear, ContextScaling::NtkAware,
                                            ContextScaling::DynamicNtk, ContextScaling::Yarn,
                                            ContextScaling::Llama3};
    const Role roles[kDrawn] = {Role::PosA, Role::PosB, Role::ShiftArc, Role::Sin, Role::Cos};
    std::vector<double> factors[kDrawn], wavelengths[kDrawn + 1], pairs;
    {
        CoreTimer core_time(frame.stats);
        for (int method = 0; method < kDrawn; ++method) {
            factors[method] = frequency_scale_factors(methods[method], options);
            wavelengths[method] = scaled_frequencies(methods[method], options);
        }
        wavelengths[kDrawn] = scaled_frequencies(ContextScaling::None, options);
    }
    for (auto& curve : wavelengths)
        for (double& value : curve)
            value = 2 * M_PI / value;
    for (int i = 0; i < options.d / 2; ++i)
        pairs.push_back(i);
    const auto sentence = [&] {
        WrappedText(ScalingSentence(options).text.c_str());
        frame.Record("alternatives.scaling_text");
    };
    // A short window (a projector) shows the two plots side by side first, then the sentence;
    // otherwise the sentence, then the plots one above the other.
    if (!frame.pictures_first) sentence();
    const int count = static_cast<int>(pairs.size());
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 factors_size =
        frame.pictures_first
            ? ImVec2((avail.x - spacing) / 2, std::max(ImGui::GetFontSize() * 8.0f, avail.y * 0.7f))
            : ImVec2(-1, std::max(ImGui::GetFontSize() * 8.0f,
                                  (avail.y - ImGui::GetStyle().ItemSpacing.y) / 2));
    plot::PlotConfig config;
    // Side by side (a projector), one legend across both plots: each plot's own would wrap onto
    // three rows of its half and leave the data a line.
    if (frame.pictures_first) {
        std::vector<plot::LegendItem> legend = {{"unscaled", frame.Color(Role::Muted)}};
        for (int method = 0; method < kDrawn; ++method)
            legend.push_back(
                {DrawnName(methods[method], yarn_over_pairs), frame.Color(roles[method])});
        const ImVec2 at =
            plot::SharedLegend(legend, toggle_by_legend ? CheckboxWidth(kYarnToggle) : 0);
        if (toggle_by_legend) {
            const ImVec2 after = ImGui::GetCursorScreenPos();
            ImGui::SetCursorScreenPos(at);
            DrawYarnToggle(frame);
            ImGui::SetCursorScreenPos(after);
        }
        config.flags |= plot::PlotFlags_NoLegend;
    }
    config.x_label = "pair i";
    config.y_label = "θ'_i / θ_i";
    config.x_flags = plot::AxisFlags_Integer;
    factor_view.SetHome(plot::Range{0, count - 1.0}, plot::Range{0, 1.08});
    if (!factor_view.has_home) factor_view.Reset();
    plot::Plot p;
    if (p.Begin("how much each pair is slowed##scaling_factors", factor_view, factors_size,
                config)) {
        frame.Record("alternatives.scaling_factors");
        for (int method = 0; method < kDrawn; ++method)
            p.Line(DrawnName(methods[method], yarn_over_pairs), pairs.data(),
                   factors[method].data(), count, frame.Color(roles[method]), frame.Px(2.2f));
        p.End();
    }
    if (frame.pictures_first) ImGui::SameLine();
    // The band is named in the title: its lines' labels sat on the curves they cross.
    config.y_label = frame.pictures_first ? "wavelength (band: L to s·L)"
                                          : "wavelength 2π/θ'_i (band: the original L to s·L)";
    config.y_flags = plot::AxisFlags_Log;
    wavelength_view.SetHome(plot::Range{0, count - 1.0},
                            plot::Range{1, WavelengthHomeTop(options)});
    if (!wavelength_view.has_home) wavelength_view.Reset();
    plot::Plot w;
    if (w.Begin("wavelengths against the context##scaling_wavelengths", wavelength_view,
                ImVec2(-1, frame.pictures_first ? factors_size.y : RemainingHeight()), config)) {
        frame.Record("alternatives.scaling_wavelengths");
        // The band between the original and the new context length.
        const ImVec2 from = w.ToPixels(0, options.original_context * options.factor);
        const ImVec2 to = w.ToPixels(count - 1.0, options.original_context);
        ImVec4 band = frame.ColorVec(Role::Muted);
        band.w = 0.18f;
        w.DrawList()->AddRectFilled(ImVec2(w.PlotMin().x, std::max(from.y, w.PlotMin().y)),
                                    ImVec2(w.PlotMax().x, std::min(to.y, w.PlotMax().y)),
                                    ImGui::ColorConvertFloat4ToU32(band));
        w.Line("unscaled", pairs.data(), wavelengths[kDrawn].data(), count,
               frame.Color(Role::Muted), frame.Px(1.5f));
        for (int method = 0; method < kDrawn; ++method)
            w.Line(DrawnName(methods[method], yarn_over_pairs), pairs.data(),
                   wavelengths[method].data(), count, frame.Color(roles[method]), frame.Px(2.2f));
        w.HLine(options.original_context, frame.Color(Role::Muted), nullptr);
        w.HLine(options.original_context * options.factor, frame.Color(Role::Muted), nullptr);
        w.End();
    }
    if (frame.pictures_first) sentence();
}

void ScalingTab::AddFields(SceneTable& table) {
    table.Integer(kScalingWidth, &scaling_d);
    table.Number(kScalingFactor, &scaling_factor);
    table.Number(kScalingContext, &scaling_context);
    table.Bool("scaling_yarn_pairs",
               "the Long context tab draws YaRN as Hugging Face's code computes it (a ramp over "
               "the pair index) instead of its paper (over the turns)",
               &yarn_over_pairs);
}

nlohmann::json ScalingTab::Readouts(const AlternativesPanel& /*panel*/,
                                    const AppState& state) const {
    nlohmann::json methods;
    const ContextScalingOptions options = ScalingOptions(state);
    for (int method = 0; method < kContextScalingCount; ++method) {
        const auto each = static_cast<ContextScaling>(method);
        methods[context_scaling_id(each)] = {
            {"factors", frequency_scale_factors(each, options)},
            {"temperature_factor", attention_temperature_factor(each, options.factor)}};
    }
    return {{"scaling",
             {{"d", options.d},
              {"yarn_ramp", yarn_over_pairs ? "pair index (Hugging Face)" : "turns (paper)"},
              {"base", options.base},
              {"factor", options.factor},
              {"original_context", options.original_context},
              // The wavelength plot's y axis at home (log: 1 up to this).
              {"wavelength_home", {1, WavelengthHomeTop(options)}},
              {"methods", methods}}}};
}

std::vector<WidgetName> ScalingTab::Widgets() const {
    return {
        {"alternatives.scaling_base", "the base 10 000 button on the Long context tab"},
        ControlWidget(kScalingContext, "box"),
        ControlWidget(kScalingWidth, "box"),
        ControlWidget(kScalingFactor),
        {"alternatives.scaling_yarn_pairs",
         "the tick that draws YaRN as Hugging Face's code computes it"},
        {"alternatives.scaling_factors", "the plot of how much each method slows each pair"},
        {"alternatives.scaling_text",
         "the paragraph comparing linear, NTK-aware, YaRN and Llama 3",
         {"scaling"}},
        {"alternatives.scaling_wavelengths",
         "the plot of each pair's wavelength per method, with the context band"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeScalingTab() {
    return std::make_unique<ScalingTab>();
}

} // namespace pelab
