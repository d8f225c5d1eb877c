// alternatives_rope.cpp — the alternatives panel's RoPE and long-context tabs.
#include "panels/alternatives/panel_alternatives.h"
#include "widgets/layout.h"

#include "pelab/sinusoidal.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

constexpr int kRopeShifts = 100, kRopeShiftStep = 10; ///< m, n moved together by 10 … 990
constexpr int kRopeCurveHalfWidth = 256; ///< q·k is drawn for m − n in [−256, 256]
constexpr double kDecayMaxDistance = 4096;
constexpr double kPi = 3.14159265358979323846;

void BasePresets(FrameContext& frame, FlowRow& row, const char* record) {
    row.Item(ButtonWidth("base 10 000") + ButtonWidth("500 000 (Llama 3)") + FlowRow::Spacing());
    if (ImGui::Button("base 10 000")) frame.state.base = 10000;
    frame.Record(record);
    ImGui::SameLine();
    if (ImGui::Button("500 000 (Llama 3)")) frame.state.base = 500000;
    FormulaTooltip("Llama 3 uses RoPE with base (rope_theta) 500 000. The base above 10⁶ is "
                   "outside PE Lab's shared range, so larger bases are not offered.");
}

void PositionInput(FrameContext& frame, FlowRow& row, const char* label, double* position,
                   const char* record) {
    const float input = FitWidth(8.0f, label); // room for 1000000 beside the ± buttons
    row.Item(LabelledWidth(input, label));
    ImGui::SetNextItemWidth(input);
    double typed = *position;
    if (ImGui::InputDouble(label, &typed, 1, 10, "%.10g") && std::isfinite(typed))
        *position = std::clamp(typed, 0.0, kUiMaxPosition);
    frame.Record(record);
}

} // namespace

AlternativesPanel::RopeInputs AlternativesPanel::RopeInputsFor(const AppState& state) const {
    return RopeInputs{state.d_model, state.base, state.pos_a, state.pos_b,
                      rope_seed,     rope_typed, rope_q,      rope_k};
}

AlternativesPanel::RopePoint AlternativesPanel::ComputeRopePoint(const RopeInputs& inputs) {
    RopePoint point;
    point.q = RopeVectorFor(inputs, true), point.k = RopeVectorFor(inputs, false);
    const double m = inputs.m, n = inputs.n;
    point.score = rope_score(point.q, point.k, m, n, inputs.base);
    point.relative = rope_score_relative(point.q, point.k, m - n, inputs.base);
    return point;
}

AlternativesPanel::RopeShift AlternativesPanel::ComputeRopeShift(const RopeInputs& inputs) {
    const std::vector<double> q = RopeVectorFor(inputs, true), k = RopeVectorFor(inputs, false);
    const double room = kRopeShiftStep * kRopeShifts;
    RopeShift shift;
    shift.change = rope_max_shift_change(q, k, std::min(inputs.m, kUiMaxPosition - room),
                                         std::min(inputs.n, kUiMaxPosition - room), inputs.base,
                                         kRopeShifts, kRopeShiftStep);
    return shift;
}

const AlternativesPanel::RopePoint& AlternativesPanel::RopeAt(const AppState& state) const {
    return rope_point.Get(RopeInputsFor(state), ComputeRopePoint);
}

const AlternativesPanel::RopeShift& AlternativesPanel::RopeShiftAt(const AppState& state) const {
    return rope_shift.GetNow(RopeInputsFor(state), ComputeRopeShift);
}

const AlternativesPanel::RopeCurve& AlternativesPanel::RopeCurveFor(const AppState& state) const {
    // q·k against m − n depends on q, k and the base only, not on where m and n are.
    RopeInputs inputs = RopeInputsFor(state);
    inputs.m = inputs.n = 0;
    return rope_curve.Get(inputs, [&](const RopeInputs& key) {
        const RopePoint& point = RopeAt(state);
        RopeCurve curve;
        for (int delta = -kRopeCurveHalfWidth; delta <= kRopeCurveHalfWidth; ++delta) {
            curve.x.push_back(delta);
            curve.y.push_back(rope_score_relative(point.q, point.k, delta, key.base));
        }
        return curve;
    });
}

const AlternativesPanel::RopeDecay& AlternativesPanel::RopeDecayFor(int d, double base) const {
    return rope_decay.Get(DecayInputs{d, base}, [](const DecayInputs& key) {
        RopeDecay decay;
        const double at_zero = rope_decay_bound(0, key.d, key.base);
        for (int s = 0; s <= 400; ++s) {
            const double distance = kDecayMaxDistance * s / 400.0;
            decay.distances.push_back(distance);
            decay.expected.push_back(rope_expected_similarity(distance, key.d, key.base));
            decay.bound.push_back(rope_decay_bound(distance, key.d, key.base) / at_zero);
        }
        return decay;
    });
}

void AlternativesPanel::DrawRope(FrameContext& frame) {
    AppState& state = frame.state;
    if (BeginControls(frame)) {
        FlowRow row;
        PositionInput(frame, row, "m (pos A)", &state.pos_a, "alternatives.rope_m");
        PositionInput(frame, row, "n (pos B)", &state.pos_b, "alternatives.rope_n");
        row.Item(CheckboxWidth("type q, k"));
        ImGui::Checkbox("type q, k", &rope_typed);
        FormulaTooltip("Off: q and k are d_model standard normal values drawn from a seed. On: "
                       "type them (2 to 64 numbers each, the same even count).");
        frame.Record("alternatives.rope_typed");
        if (!rope_typed) {
            const float input = FitWidth(5.0f, "seed");
            row.Item(LabelledWidth(input, "seed"));
            ImGui::SetNextItemWidth(input);
            ImGui::InputInt("seed", &rope_seed, 1, 10);
            rope_seed = std::clamp(rope_seed, 0, 1000000);
            frame.Record("alternatives.rope_seed");
        } else {
            const float text = FitWidth(10.0f, "q");
            for (int which = 0; which < 2; ++which) {
                const char* label = which == 0 ? "q" : "k";
                std::string& vector = which == 0 ? rope_q : rope_k;
                row.Item(LabelledWidth(text, label));
                ImGui::SetNextItemWidth(text);
                std::string edited = vector;
                if (ImGui::InputText(label, &edited, ImGuiInputTextFlags_EnterReturnsTrue)) {
                    const std::string why = ParseRopeVector(edited, nullptr);
                    if (why.empty())
                        vector = edited, input_error.clear();
                    else
                        input_error = std::string(label) + " not used: " + why;
                }
                FormulaTooltip("Numbers separated by commas or spaces; Enter to use them.");
                frame.Record(which == 0 ? "alternatives.rope_q" : "alternatives.rope_k");
            }
        }
        BasePresets(frame, row, "alternatives.rope_base");
        EndControls(frame);
    }
    const RopePoint* point = nullptr;
    const RopeShift* shift = nullptr;
    const RopeCurve* curve = nullptr;
    const RopeDecay* decay = nullptr;
    {
        CoreTimer core_time(frame.stats);
        point = &RopeAt(state);
        shift = &rope_shift.GetForFrame(RopeInputsFor(state), ComputeRopeShift,
                                        frame.compute_in_background, &rope_shift_current,
                                        &frame.stats.computing);
        curve = &RopeCurveFor(state);
        decay = &RopeDecayFor(static_cast<int>(point->q.size()), state.base);
    }
    const std::vector<double>& q = point->q;
    const std::vector<double>& k = point->k;
    const int d = static_cast<int>(q.size());
    if (rope_typed && !UsesTypedVectors())
        ErrorText(frame, "q and k need the same number of values: the seeded vectors are used.");
    const double m = state.pos_a, n = state.pos_b;
    const double score = point->score, relative = point->relative, change = shift->change;
    // While m or n is dragged the sweep runs off the frame: the last one is said as such.
    const std::string change_text =
        ShownNumber(change, 2) + (rope_shift_current ? "" : " (updating…)");
    char line[480];
    std::snprintf(line, sizeof line,
                  "RoPE turns pair i of q by m·θ_i and of k by n·θ_i (θ_i = base^(−2i/d), base "
                  "%s, d = %d). Rotating both and taking the dot product gives q·k = %.6f; "
                  "the sum Σ|q_i||k_i|cos((m − n)θ_i + φ_i), which knows only m − n = %s, "
                  "gives %.6f. Moving m and n together by 10, 20, … %d changes q·k by at most "
                  "%s: the score depends on the distance alone.",
                  ShownNumber(state.base).c_str(), d, score, ShownNumber(m - n).c_str(), relative,
                  kRopeShiftStep * (kRopeShifts - 1), change_text.c_str());
    const auto check_sentence = [&] {
        WrappedText(line);
        frame.Record("alternatives.rope_check");
    };
    // A short window (a projector) shows the pair and the curve first, then the sentence.
    if (!frame.pictures_first) check_sentence();
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float top_height =
        std::max(font * 10.0f, avail.y * (frame.pictures_first ? 0.7f : 0.55f));
    const float circle = std::min(top_height - font * 2.5f, avail.x * 0.35f);
    // Pair i as two hands: q's pair turned by mθ_i, k's by nθ_i.
    {
        const int i = std::min(state.pair, d / 2 - 1);
        const std::vector<double> rq = rope_rotate(q, m, state.base),
                                  rk = rope_rotate(k, n, state.base);
        const double scale = std::max(
            {std::hypot(q[2 * i], q[2 * i + 1]), std::hypot(k[2 * i], k[2 * i + 1]), 1e-12});
        plot::PlotView& view = rope_view;
        view.SetHome(plot::Range{-1.3, 1.3}, plot::Range{-1.3, 1.3});
        if (!view.has_home) view.Reset();
        plot::PlotConfig config;
        config.flags =
            plot::PlotFlags_EqualAspect | plot::PlotFlags_NoHoverReadout | plot::PlotFlags_NoLegend;
        // The legend as two coloured lines above the circle (a narrow plot has no room for it).
        ImGui::BeginGroup();
        ImGui::TextColored(frame.ColorVec(Role::PosA), "q's pair %d, turned by m·θ", i);
        ImGui::TextColored(frame.ColorVec(Role::PosB), "k's pair %d, turned by n·θ", i);
        plot::Plot p;
        if (p.Begin("##rope_circle", view, ImVec2(circle, circle), config)) {
            frame.Record("alternatives.rope_circle");
            double xs[129], ys[129];
            for (int s = 0; s <= 128; ++s)
                xs[s] = std::cos(2 * kPi * s / 128), ys[s] = std::sin(2 * kPi * s / 128);
            p.Line("##circle", xs, ys, 129, ImGui::GetColorU32(ImGuiCol_Border, 1.0f),
                   frame.Px(1.5f));
            const double qx[] = {0, rq[2 * i] / scale}, qy[] = {0, rq[2 * i + 1] / scale};
            const double kx[] = {0, rk[2 * i] / scale}, ky[] = {0, rk[2 * i + 1] / scale};
            p.Line("q turned by m·θ", qx, qy, 2, frame.Color(Role::PosA), frame.Px(3.0f));
            p.Line("k turned by n·θ", kx, ky, 2, frame.Color(Role::PosB), frame.Px(3.0f));
            p.End();
        }
        ImGui::EndGroup();
    }
    ImGui::SameLine();
    {
        const std::vector<double>& xs = curve->x;
        const std::vector<double>& ys = curve->y;
        double low = 0, high = 0;
        for (const double value : ys)
            low = std::min(low, value), high = std::max(high, value);
        plot::PlotConfig config;
        config.x_label = "m − n";
        // No y label: the legend names the curve (q·k), and a label there would sit on the
        // line beside the circle.
        plot::PlotView& view = rope_curve_view;
        view.SetHome(plot::Range{-static_cast<double>(kRopeCurveHalfWidth), kRopeCurveHalfWidth},
                     plot::Range{low * 1.1, high * 1.1});
        if (!view.has_home) view.Reset();
        plot::Plot p;
        if (p.Begin("q·k against m − n (this q and k)##rope_curve", view, ImVec2(-1, top_height),
                    config)) {
            frame.Record("alternatives.rope_curve");
            p.Line("q·k", xs.data(), ys.data(), static_cast<int>(xs.size()),
                   frame.Color(Role::Accent), frame.Px(2.0f));
            if (std::abs(m - n) <= kRopeCurveHalfWidth) {
                const double here_x = m - n;
                p.Markers("m − n now", &here_x, &relative, 1, frame.Color(Role::PosA),
                          frame.Px(6.0f));
            }
            p.End();
        }
    }
    if (frame.pictures_first) check_sentence();
    const std::vector<double>& distances = decay->distances;
    const std::vector<double>& expected = decay->expected;
    const std::vector<double>& bound = decay->bound;
    decay_view.SetHome(plot::Range{0, kDecayMaxDistance}, plot::Range{-0.3, 1.05});
    if (!decay_view.has_home || decay_view_d != d) decay_view.Reset();
    decay_view_d = d;
    plot::PlotConfig config;
    config.x_label = "distance |m − n|";
    config.y_label = "relative to distance 0";
    plot::Plot p;
    if (p.Begin("decay with distance##rope_decay", decay_view, ImVec2(-1, RemainingHeight()),
                config)) {
        frame.Record("alternatives.rope_decay");
        const int count = static_cast<int>(distances.size());
        p.Line("mean q·k over random q = k (mean of cos Δθ_i)", distances.data(), expected.data(),
               count, frame.Color(Role::Sin), frame.Px(2.0f));
        p.Line("RoPE paper's decay term Σ_j |S_j|, scaled to 1 at 0", distances.data(),
               bound.data(), count, frame.Color(Role::Cos), frame.Px(2.0f));
        p.VLine(std::abs(m - n), frame.Color(Role::PosA), "|m − n|");
        p.End();
    }
}

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
    const double slowest_turns =
        fastest_turns * std::pow(options.base, -2.0 * (pairs - 1) / options.d);
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
    std::snprintf(
        line, sizeof line,
        " YaRN also scales the logits by (0.1·ln s + 1)² = %s. (YaRN is drawn as in its "
        "paper, a ramp linear in turns per context; the reference code's ramp is linear "
        "in the pair index, a slightly different curve.)",
        ShownNumber(std::pow(attention_temperature_factor(ContextScaling::Yarn, options.factor), 2),
                    4)
            .c_str());
    out.text += line;
    return out;
}

void AlternativesPanel::DrawScaling(FrameContext& frame) {
    AppState& state = frame.state;
    if (BeginControls(frame)) {
        FlowRow row;
        const float slider = FitWidth(8.0f, "factor s");
        row.Item(LabelledWidth(slider, "factor s"));
        ImGui::SetNextItemWidth(slider);
        const double low = 1, high = 64;
        ImGui::SliderScalar("factor s", ImGuiDataType_Double, &scaling_factor, &low, &high, "%.2f",
                            ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
        FormulaTooltip("s = new context / original context (Llama 3.1: 8).");
        frame.Record("alternatives.scaling_factor");
        const float input = FitWidth(6.0f, "original L");
        row.Item(LabelledWidth(input, "original L"));
        ImGui::SetNextItemWidth(input);
        double typed = scaling_context;
        if (ImGui::InputDouble("original L", &typed, 0, 0, "%.0f") && std::isfinite(typed))
            scaling_context = std::clamp(std::round(typed), 16.0, 1e7);
        frame.Record("alternatives.scaling_context");
        row.Item(LabelledWidth(input, "head d"));
        ImGui::SetNextItemWidth(input);
        ImGui::InputInt("head d", &scaling_d, 2, 16);
        scaling_d = std::clamp(scaling_d + scaling_d % 2, 4, 1024);
        FormulaTooltip("The width of one attention head, whose pairs RoPE turns (Llama: 128).");
        frame.Record("alternatives.scaling_d");
        BasePresets(frame, row, "alternatives.scaling_base");
        EndControls(frame);
    }
    const ContextScalingOptions options = ScalingOptions(state);
    const ContextScaling methods[] = {ContextScaling::Linear, ContextScaling::NtkAware,
                                      ContextScaling::Yarn, ContextScaling::Llama3};
    const Role roles[] = {Role::PosA, Role::PosB, Role::Sin, Role::Cos};
    std::vector<double> factors[4], wavelengths[5], pairs;
    {
        CoreTimer core_time(frame.stats);
        for (int method = 0; method < 4; ++method) {
            factors[method] = frequency_scale_factors(methods[method], options);
            wavelengths[method] = scaled_frequencies(methods[method], options);
        }
        wavelengths[4] = scaled_frequencies(ContextScaling::None, options);
    }
    for (auto& curve : wavelengths)
        for (double& value : curve)
            value = 2 * kPi / value;
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
    config.x_label = "pair i";
    config.y_label = "θ'_i / θ_i";
    config.x_flags = plot::AxisFlags_Integer;
    factor_view.SetHome(plot::Range{0, count - 1.0}, plot::Range{0, 1.08});
    if (!factor_view.has_home) factor_view.Reset();
    plot::Plot p;
    if (p.Begin("how much each pair is slowed##scaling_factors", factor_view, factors_size,
                config)) {
        frame.Record("alternatives.scaling_factors");
        for (int method = 0; method < 4; ++method)
            p.Line(context_scaling_name(methods[method]), pairs.data(), factors[method].data(),
                   count, frame.Color(roles[method]), frame.Px(2.2f));
        p.HLine(1 / options.factor, frame.Color(Role::Muted), "1/s");
        p.End();
    }
    if (frame.pictures_first) ImGui::SameLine();
    config.y_label = "wavelength 2π/θ'_i";
    config.y_flags = plot::AxisFlags_Log;
    wavelength_view.SetHome(plot::Range{0, count - 1.0}, plot::Range{1, wavelengths[0].back() * 4});
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
        w.Line("unscaled", pairs.data(), wavelengths[4].data(), count, frame.Color(Role::Muted),
               frame.Px(1.5f));
        for (int method = 0; method < 4; ++method)
            w.Line(context_scaling_name(methods[method]), pairs.data(), wavelengths[method].data(),
                   count, frame.Color(roles[method]), frame.Px(2.2f));
        w.HLine(options.original_context, frame.Color(Role::Muted), "original L");
        // Its label only where it does not sit on "original L": the two lines at least a line
        // and a half of text apart on screen (a squashed log axis puts s = 4 within a line).
        const float apart = std::abs(w.ToPixels(0, options.original_context * options.factor).y -
                                     w.ToPixels(0, options.original_context).y);
        w.HLine(options.original_context * options.factor, frame.Color(Role::Muted),
                apart >= 1.5f * ImGui::GetFontSize() ? "s·L" : nullptr);
        w.End();
    }
    if (frame.pictures_first) sentence();
}

} // namespace pelab
