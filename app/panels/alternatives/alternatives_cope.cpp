// alternatives_cope.cpp — the alternatives panel's CoPE tab (Golovneva et al., 2024): a query
// counts its keys' positions itself, summing its gates σ(q·k) from each key up to itself. Here
// the gates open on one token of a typed text (σ(s) on it, σ(−s) elsewhere), so the positions
// count sentences (or words) rather than tokens. Against distance: each key's counted position
// and the token count every gate 1 would give. Per key: the gates themselves.
#include "panels/alternatives/alternatives_cope.h"
#include "pelab/encodings/relative_biases.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/encodings/embedding.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace pelab {

CopeResult ComputeCope(const std::string& text, const std::string& separator, double sharpness,
                       double key_position) {
    CopeResult r;
    r.tokens = tokenize(text);
    r.separator = tokenize(separator).front();
    r.sharpness = sharpness;
    r.open = cope_gate(sharpness);
    r.closed = cope_gate(-sharpness);
    const int n = static_cast<int>(r.tokens.size()), query = n - 1;
    for (int j = 0; j < n; ++j) {
        const bool is_separator = r.tokens[static_cast<std::size_t>(j)] == r.separator;
        r.separators += is_separator ? 1 : 0;
        r.gates.push_back(is_separator ? r.open : r.closed);
        r.keys.push_back(j);
        r.distances.push_back(query - j);
        r.token_counts.push_back(query - j + 1);
    }
    r.positions = cope_positions(r.gates);
    r.key_asked = key_position;
    r.key = static_cast<int>(std::clamp(std::floor(key_position), 0.0, static_cast<double>(query)));
    for (int j = r.key; j <= query; ++j)
        r.separators_between += r.tokens[static_cast<std::size_t>(j)] == r.separator ? 1 : 0;
    r.creep = static_cast<long long>(std::ceil(1 / r.closed - 1e-12));
    r.outweigh = static_cast<long long>(std::floor(r.open / r.closed)) + 1;
    return r;
}

Explanation CopeSentence(const CopeResult& r) {
    Explanation out;
    const int query = static_cast<int>(r.tokens.size()) - 1;
    const double position = r.positions[static_cast<std::size_t>(r.key)];
    const int distance = query - r.key;
    out.Claims("key_position", position);
    out.Claims("distance", distance);
    out.Claims("separators_between", r.separators_between);
    out.Claims("open", r.open);
    out.Claims("closed", r.closed);
    out.Claims("creep", static_cast<double>(r.creep));
    out.Claims("outweigh", static_cast<double>(r.outweigh));
    const std::string quoted = "\"" + r.separator + "\"";
    const std::string s = ShownNumber(r.sharpness, 3);
    if (r.sharpness == 0)
        out.text = "CoPE's query sums its gates σ(q·k) back to each key: here every gate is σ(0) = "
                   "0.5. ";
    else
        out.text = "CoPE's query sums its gates σ(q·k) back to each key: here σ(" + s +
                   ") = " + ShownNumber(r.open, 3) + " on " + quoted + " and σ(−" + s +
                   ") = " + ShownNumber(r.closed, 3) + " on every other token. ";
    const std::string key = "\"" + r.tokens[static_cast<std::size_t>(r.key)] + "\"";
    const std::string where = r.key_asked == r.key ? ""
                              : r.key_asked > query
                                  ? " (pos B " + ShownNumber(r.key_asked) + " is past the text's " +
                                        std::to_string(query + 1) +
                                        (query == 0 ? " token" : " tokens") + ": the last)"
                                  : " (pos B " + ShownNumber(r.key_asked) + " in whole tokens)";
    if (distance == 0) {
        out.text += "The key " + key + where + " is the query itself, at position " +
                    ShownNumber(position, 3) + ": its own gate.";
    } else {
        const int others = distance + 1 - r.separators_between;
        std::string parts;
        if (r.separators_between > 0)
            parts = std::to_string(r.separators_between) + " × " + quoted + " counted " +
                    ShownNumber(r.open, 3);
        if (others > 0)
            parts += (parts.empty() ? "" : " and ") + std::to_string(others) +
                     (r.separators_between > 0 ? " other" : "") +
                     (others == 1 ? " token " : " tokens ") + ShownNumber(r.closed, 3) +
                     (others == 1 ? "" : " each");
        out.text += "The key " + key + where + ", " + std::to_string(distance) +
                    (distance == 1 ? " token" : " tokens") + " before the query \"" +
                    r.tokens.back() + "\", gets position " + ShownNumber(position, 3) + " (" +
                    parts + ", the key and the query included), where token positions put it " +
                    std::to_string(distance) + " back.";
    }
    if (r.separators == 0 && r.sharpness > 0)
        out.text += " " + quoted + " is not one of the text's tokens, so every gate is σ(−" + s +
                    ") = " + ShownNumber(r.closed, 3) + ": a count of tokens, " +
                    ShownNumber(r.closed, 3) + " each.";
    if (r.sharpness == 0)
        out.text += " At s = 0 the gates cannot tell tokens apart: CoPE counts half-tokens, a "
                    "token position again.";
    else {
        // The comparison printed must read true: digits enough to tell its two sides apart.
        const auto [small_sum, one_open] =
            ShownPair(static_cast<double>(r.outweigh) * r.closed, r.open, 3);
        out.text += " The small gates add up: " + ShownNumber(static_cast<double>(r.outweigh)) +
                    " tokens without " + quoted + " already weigh more than one " + quoted +
                    " (their gates sum to " + small_sum + ", its gate is " + one_open + "), and " +
                    ShownNumber(static_cast<double>(r.creep)) + " count as a whole position.";
    }
    return out;
}

namespace {

std::string CheckText(const std::string& text) {
    try {
        tokenize(text);
        return "";
    } catch (const InvalidArgument& error) {
        return error.what();
    }
}

std::string CheckSeparator(const std::string& text) {
    try {
        if (tokenize(text).size() != 1) return "must be one token (no spaces)";
        return "";
    } catch (const InvalidArgument& error) {
        return error.what();
    }
}

struct CopeInputs {
    std::string text, separator;
    double sharpness = 0, key = 0;
    bool operator==(const CopeInputs& o) const {
        return text == o.text && separator == o.separator && sharpness == o.sharpness &&
               key == o.key;
    }
};

constexpr NumberControl kCopeSharpness{
    "cope_sharpness",
    "CoPE's gate logit s: σ(s) on the token, σ(−s) elsewhere",
    0,
    20,
    4,
    "gate logit s",
    "%.1f",
    false,
    "q·k on the gate token is +s, on the others −s: gates σ(s) and σ(−s). The key is pos B "
    "(counted in whole tokens from 0).",
    "alternatives.cope_sharpness"};

struct CopeTab final : AlternativesTab {
    std::string text = "the dog bites the man . the man runs away . it barks";
    std::string separator = ".";
    double sharpness = kCopeSharpness.initial; ///< the gates' logit on and off the separator

    /// The key is pos B in tokens: past the text it is the query itself (its own gate); the
    /// tab opens on pos A's token instead (the first when pos A is past the text too).
    void Opened(AppState& state) override {
        const double query = static_cast<double>(tokenize(text).size()) - 1;
        if (std::floor(state.pos_b) > query)
            state.pos_b = std::floor(state.pos_a) <= query ? std::floor(state.pos_a) : 0.0;
    }
    mutable Cached<CopeInputs, CopeResult> result;
    plot::PlotView position_view, gate_view;

    const CopeResult& ResultFor(const AppState& state) const {
        return result.Get(CopeInputs{text, separator, sharpness, state.pos_b},
                          [](const CopeInputs& in) {
                              return ComputeCope(in.text, in.separator, in.sharpness, in.key);
                          });
    }
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

void CopeTab::Draw(AlternativesPanel& panel, FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float wide = FitWidth(16.0f, "text");
        row.Item(LabelledWidth(wide, "text"));
        ImGui::SetNextItemWidth(wide);
        std::string edited = text;
        if (LimitedInputText("text", &edited, kMaxSentenceBytes)) {
            const std::string why = CheckText(edited);
            if (why.empty())
                text = edited, panel.input_error.clear();
            else
                panel.input_error = "text not used: " + why;
        }
        FormulaTooltip("Tokens split at spaces (up to 32); the query is the last.");
        frame.Record("alternatives.cope_text_input");
        const float narrow = FitWidth(3.0f, "gate on");
        row.Item(LabelledWidth(narrow, "gate on"));
        ImGui::SetNextItemWidth(narrow);
        std::string typed = separator;
        if (LimitedInputText("gate on", &typed, 64)) {
            const std::string why = CheckSeparator(typed);
            if (why.empty())
                separator = tokenize(typed).front(), panel.input_error.clear();
            else
                panel.input_error = "gate token not used: " + why;
        }
        FormulaTooltip("The token the gates open on (a sentence end, a space between words).");
        frame.Record("alternatives.cope_separator");
        SceneSlider(frame, row, kCopeSharpness, &sharpness, FitWidth(6.0f, kCopeSharpness.label));
        EndControls(frame);
    }
    const CopeResult* computed = nullptr;
    {
        CoreTimer core_time(frame.stats);
        computed = &ResultFor(frame.state);
    }
    const CopeResult& r = *computed;
    const Explanation sentence = CopeSentence(r);
    SentenceAndPlots layout;
    layout.Begin(frame, sentence.text, "alternatives.cope_text");
    const float height = layout.height, half_width = layout.half_width;
    const int count = static_cast<int>(r.keys.size());
    {
        const double top = r.token_counts.front() + 1;
        position_view.SetHome(plot::Range{-0.5, r.distances.front() + 0.5}, plot::Range{0, top});
        if (!position_view.has_home) position_view.Reset();
        plot::PlotConfig config;
        config.x_label = "tokens back from the query (i − j)";
        config.y_label = "position counted";
        plot::Plot p;
        if (p.Begin("each key's position##cope_positions", position_view,
                    ImVec2(half_width, height), config)) {
            frame.Record("alternatives.cope_positions");
            p.Line("tokens", r.distances.data(), r.token_counts.data(), count,
                   frame.Color(Role::Muted), frame.Px(1.5f));
            p.LineMarkers("CoPE", r.distances.data(), r.positions.data(), count,
                          frame.Color(Role::Accent), frame.Px(2.0f), frame.Px(3.5f),
                          plot::Marker::Circle);
            const double at = r.distances[static_cast<std::size_t>(r.key)];
            p.Markers("key", &at, &r.positions[static_cast<std::size_t>(r.key)], 1,
                      frame.Color(Role::PosB), frame.Px(5.0f), plot::Marker::Ring);
            p.End();
        }
    }
    ImGui::SameLine();
    {
        gate_view.SetHome(plot::Range{-0.5, count - 0.5}, plot::Range{0, 1.05});
        if (!gate_view.has_home) gate_view.Reset();
        plot::PlotConfig config;
        config.x_label = "key j (the query last)";
        config.y_label = "gate σ(q·k)";
        config.x_flags = plot::AxisFlags_Integer;
        plot::Plot p;
        if (p.Begin("the query's gate on each key##cope_gates", gate_view, ImVec2(-1, height),
                    config)) {
            frame.Record("alternatives.cope_gates");
            p.Bars("the query's gate", r.keys.data(), r.gates.data(), count, 0.7,
                   frame.Color(Role::Cos));
            p.End();
        }
    }
    layout.End(frame);
}

void CopeTab::AddFields(SceneTable& table) {
    table.Text("cope_text", "text, valid UTF-8, 1 to 32 tokens: CoPE's text (the query last)",
               &text, CheckText);
    table.Text("cope_separator", "text, one token: the token CoPE's gates open on", &separator,
               CheckSeparator);
    table.Number(kCopeSharpness, &sharpness);
}

nlohmann::json CopeTab::Readouts(const AlternativesPanel& /*panel*/, const AppState& state) const {
    const CopeResult& r = ResultFor(state);
    const Explanation sentence = CopeSentence(r);
    return {{"cope",
             {{"tokens", r.tokens},
              {"separator", r.separator},
              {"sharpness", r.sharpness},
              {"gates", r.gates},
              {"positions", r.positions},
              {"key", r.key},
              {"key_position", r.positions[static_cast<std::size_t>(r.key)]},
              {"separators_between", r.separators_between},
              {"creep", r.creep},
              {"sentence", sentence.text},
              {"claims", ClaimsJson(sentence)}}}};
}

std::optional<MethodRowJob> CopeTab::RowJob(const AlternativesPanel& /*panel*/,
                                            const AppState& /*state*/) const {
    // Positions are counted from what the gates open on: moving both tokens changes them only if
    // the text between changes, so "relative?" is about content, said rather than measured.
    return MethodRowJob{
        "cope", [] {
            const char* relative = "relative in counted units: keys between, weighed by the gates";
            return MethodRow{{"CoPE", "research models (Golovneva et al. 2024)",
                              "q scored against a vector per counted position",
                              "max length × d_head", "counts grow only where gates open", relative},
                             Verdict::Neither,
                             std::nullopt,
                             "cope"};
        }};
}

std::vector<WidgetName> CopeTab::Widgets() const {
    return {
        {"alternatives.cope_text_input", "the text box: the tokens CoPE counts over"},
        {"alternatives.cope_separator", "the gate on box: the token the gates open on"},
        ControlWidget(kCopeSharpness),
        {"alternatives.cope_text", "the sentence on what position CoPE gives the key", {"cope"}},
        {"alternatives.cope_positions", "each key's CoPE position against its token distance"},
        {"alternatives.cope_gates", "the query's gate on each key"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeCopeTab() {
    return std::make_unique<CopeTab>();
}

} // namespace pelab
