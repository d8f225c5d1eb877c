// rope_vectors.cpp — the q and k every RoPE tab of the alternatives panel turns (seeded or
// typed), their controls, and the RoPE numbers the tabs and the side-by-side table share: the
// score at (m, n) and its largest change when both move together.
#include "panels/alternatives/panel_alternatives.h"
#include "panels/scene_controls.h"

#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pelab {

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
    const double room = static_cast<double>(kRopeShiftStep) * kRopeShifts;
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

std::string AlternativesPanel::RopeInputs::Key() const {
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "d %d base %.17g m %.17g n %.17g seed %d typed %d",
                  d_model, base, m, n, seed, typed ? 1 : 0);
    return std::string(numbers) + " q " + q_text + " k " + k_text;
}

void AlternativesPanel::RopeVectorControls(FrameContext& frame, FlowRow& row) {
    row.Item(CheckboxWidth("type q, k"));
    ImGui::Checkbox("type q, k", &rope_typed);
    FormulaTooltip("Off: q and k are d_model standard normal values drawn from a seed. On: "
                   "type them (2 to 64 numbers each, the same even count).");
    frame.Record("alternatives.rope_typed");
    if (!rope_typed) {
        SceneInput(frame, row, kRopeSeed, &rope_seed, FitWidth(5.0f, "seed"));
        return;
    }
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

} // namespace pelab
