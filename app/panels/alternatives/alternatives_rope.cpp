// alternatives_rope.cpp — the alternatives panel's RoPE tab: q and k turned by their positions,
// the score that depends only on m − n (checked), its curve and its decay with distance.
#include "io/scene.h"
#include "panels/alternatives/panel_alternatives.h"
#include "pelab/sinusoidal.h"
#include "widgets/layout.h"
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

std::string ParseRopeVector(const std::string& text, std::vector<double>* values) {
    std::vector<double> parsed;
    std::string token;
    const auto flush = [&]() -> std::string {
        if (token.empty()) return "";
        char* end = nullptr;
        const double value = std::strtod(token.c_str(), &end);
        if (end == token.c_str() || *end != '\0' || !std::isfinite(value) || std::abs(value) > 1e6)
            return "\"" + token + "\" is not a number within ±1e6";
        parsed.push_back(value);
        token.clear();
        return "";
    };
    for (const char c : text + " ") {
        if (c == ',' || c == ' ' || c == '\t') {
            std::string error = flush();
            if (!error.empty()) return error;
        } else {
            token += c;
        }
    }
    if (parsed.size() < 2 || parsed.size() > 64 || parsed.size() % 2 != 0)
        return "needs an even count of 2 to 64 numbers, one pair per rotation (got " +
               std::to_string(parsed.size()) + ")";
    if (values) *values = parsed;
    return "";
}

bool AlternativesPanel::UsesTypedVectors() const {
    std::vector<double> q, k;
    return rope_typed && ParseRopeVector(rope_q, &q).empty() &&
           ParseRopeVector(rope_k, &k).empty() && q.size() == k.size();
}

std::vector<double> AlternativesPanel::RopeVectorFor(const RopeInputs& inputs, bool query) {
    std::vector<double> q, k;
    if (inputs.typed && ParseRopeVector(inputs.q_text, &q).empty() &&
        ParseRopeVector(inputs.k_text, &k).empty() && q.size() == k.size())
        return query ? q : k;
    return seeded_vector(inputs.d_model,
                         static_cast<std::uint64_t>(inputs.seed) * 2 + (query ? 0 : 1));
}

std::vector<double> AlternativesPanel::RopeQuery(const AppState& state) const {
    return RopeVectorFor(RopeInputsFor(state), true);
}

std::vector<double> AlternativesPanel::RopeKey(const AppState& state) const {
    return RopeVectorFor(RopeInputsFor(state), false);
}

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
        AlternativesBasePresets(frame, row, "alternatives.rope_base");
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
                xs[s] = std::cos(2 * M_PI * s / 128), ys[s] = std::sin(2 * M_PI * s / 128);
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

void AlternativesPanel::AddRopeFields(SceneTable& table) {
    table.Integer("rope_seed", "the seed of q and k", &rope_seed, 0, 1000000);
    table.Bool("rope_typed", "RoPE uses rope_q and rope_k instead of seeded vectors", &rope_typed);
    for (auto [name, target] : {std::pair{"rope_q", &rope_q}, std::pair{"rope_k", &rope_k}})
        table.Text(name, "text: 2 to 64 numbers within ±1e6 (an even count), the typed q or k",
                   target, [](const std::string& text) { return ParseRopeVector(text, nullptr); });
}

nlohmann::json AlternativesPanel::RopeReadouts(const AppState& state) const {
    const RopePoint& rope = RopeAt(state);
    return {{"rope",
             {{"m", state.pos_a},
              {"n", state.pos_b},
              {"d", rope.q.size()},
              {"typed", UsesTypedVectors()},
              {"score", rope.score},
              {"score_from_distance", rope.relative},
              {"max_shift_change", RopeShiftAt(state).change}}}};
}

MethodRow AlternativesPanel::RopeRow(const MethodChecks& checks) const {
    const bool relative = checks.rope_shift_change < 1e-6;
    const std::string change = ShownNumber(checks.rope_shift_change, 2);
    return {{"RoPE", "Llama, Mistral, Gemma, Qwen", "q and k turned in every attention layer", "0",
             "defined at any position; quality past training needs scaling (Long context tab)",
             (relative ? "yes, q·k: change " : "no: q·k changes by ") + change},
            relative ? Verdict::Yes : Verdict::No};
}

std::vector<WidgetName> AlternativesPanel::RopeWidgets() {
    return {
        {"alternatives.rope_base", "the base 10 000 button on the RoPE tab"},
        {"alternatives.rope_check",
         "the sentence showing the RoPE score depends only on m - n",
         {"rope"}},
        {"alternatives.rope_circle",
         "the circle with q's and k's hands for one pair, turned by m and n"},
        {"alternatives.rope_curve", "the plot of the q-k score against the distance m - n"},
        {"alternatives.rope_decay", "the decay plot: how the score falls off with distance"},
        {"alternatives.rope_k", "the k text box: the key vector, typed"},
        {"alternatives.rope_m", "the m box: the query's position (pos A)"},
        {"alternatives.rope_n", "the n box: the key's position (pos B)"},
        {"alternatives.rope_q", "the q text box: the query vector, typed"},
        {"alternatives.rope_seed", "the seed box the random q and k vectors are drawn from"},
        {"alternatives.rope_typed", "the type q, k checkbox: type q and k instead of a seed"},
    };
}

} // namespace pelab
