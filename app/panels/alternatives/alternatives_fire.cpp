// alternatives_fire.cpp — the alternatives panel's FIRE tab (Li et al., 2023, "Functional
// Interpolation for Relative Positions Improves Long Context Transformers"): each head's bias is
// a small learned MLP f of one number, u = ψ(i − j)/ψ(max(L, i)), ψ(x) = log(c·x + 1), c and L
// learned. u stays in [0, 1] at any length (the query's own position normalises it), so a model
// trained on short texts never meets an input it has not seen; an f can imitate T5's buckets,
// ALiBi or KERPLE on it. Against distance: u for queries at m, 4m and 16m. Against the share of
// the context behind the key: the same curves, nearly one.
#include "panels/alternatives/alternatives_fire.h"
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
#include <utility>

namespace pelab {

FireResult ComputeFire(double c, double threshold, double query, double key) {
    FireResult r;
    r.c = c, r.threshold = threshold;
    r.query_asked = query, r.key_asked = key;
    r.query = std::max(1.0, std::floor(query));
    r.key_after_query = std::floor(key) > r.query;
    r.distance = std::clamp(r.query - std::floor(key), 0.0, r.query);
    for (const double times : {1.0, 4.0, 16.0}) {
        const double at = r.query * times;
        r.queries.push_back(at);
        std::vector<double> distances, inputs, shares;
        for (int s = 0; s <= 200; ++s) {
            const double d = at * s / 200.0;
            distances.push_back(d);
            inputs.push_back(fire_input(d, at, c, threshold));
            shares.push_back(d / at);
        }
        r.distances.push_back(std::move(distances));
        r.inputs.push_back(std::move(inputs));
        r.shares.push_back(std::move(shares));
    }
    r.input = fire_input(r.distance, r.query, c, threshold);
    r.input_at_4 = fire_input(4 * r.distance, 4 * r.query, c, threshold);
    r.log_distance = fire_input(r.distance, 0.0, c, threshold); // ψ(d)/ψ(L): L > 0 is the max
    return r;
}

Explanation FireSentence(const FireResult& r) {
    Explanation out;
    out.Claims("query", r.query);
    out.Claims("distance", r.distance);
    out.Claims("input", r.input);
    out.Claims("input_at_4", r.input_at_4);
    const std::string m = ShownNumber(r.query), d = ShownNumber(r.distance);
    out.text = "FIRE's bias is a learned function f of u = ψ(i − j)/ψ(max(L, i)), ψ(x) = log(c·x + "
               "1), here c = " +
               ShownNumber(r.c, 3) + " and L = " + ShownNumber(r.threshold) + ". ";
    const std::string query_note =
        r.query_asked == r.query ? ""
        : r.query_asked < 1      ? " (pos A " + ShownNumber(r.query_asked) + " taken as 1)"
                                 : " (pos A " + ShownNumber(r.query_asked) + " in whole tokens)";
    if (r.key_after_query) {
        out.text += "Pos B (" + ShownNumber(r.key_asked) + ") is after the query at " + m +
                    query_note +
                    ": FIRE is causal, so that key is masked; the plots draw u for the keys up to "
                    "the query";
    } else {
        out.text += "The key " + d + (r.distance == 1 ? " token" : " tokens") +
                    " before the query at " + m + query_note +
                    " gets u = " + ShownNumber(r.input, 3);
        if (r.query <= r.threshold)
            out.text += " (the query is within L, so u is ψ(d)/ψ(L), the same for every query up "
                        "to " +
                        ShownNumber(r.threshold) + ")";
        out.text += "; the key at the same share of the context seen from 4 × " + m + " (" +
                    ShownNumber(4 * r.distance) + " back) gets " + ShownNumber(r.input_at_4, 3);
    }
    out.text += ". u never leaves [0, 1] however long the text: a model trained on texts longer "
                "than L has met all of it (the farthest key of a query past L is at u = 1), and "
                "a longer text only packs the keys closer together in it.";
    return out;
}

namespace {

struct FireInputs {
    double c = 0, threshold = 0, query = 0, key = 0;
    bool operator==(const FireInputs& o) const {
        return c == o.c && threshold == o.threshold && query == o.query && key == o.key;
    }
};

constexpr NumberControl kFireC{
    "fire_c",
    "FIRE's c in ψ(x) = log(c·x + 1)",
    0.01,
    100,
    1,
    "c",
    "%.2f",
    true,
    "c in ψ(x) = log(c·x + 1): how strongly near distances are spread (learned).",
    "alternatives.fire_c"};
constexpr NumberControl kFireThreshold{
    "fire_threshold",
    "FIRE's threshold L in ψ(max(L, i))",
    1,
    65536,
    512,
    "L",
    "%.0f",
    true,
    "L in ψ(max(L, i)): queries before L are normalised by ψ(L), not by their own position "
    "(learned). The query is pos A, the key pos B.",
    "alternatives.fire_threshold"};

struct FireTab final : AlternativesTab {
    double c = kFireC.initial;                 ///< ψ's c
    double threshold = kFireThreshold.initial; ///< L
    mutable Cached<FireInputs, FireResult> result;

    /// FIRE is causal: a key after the query (pos B past pos A) is masked.
    void Opened(AppState& state) override {
        if (std::floor(state.pos_b) > std::max(1.0, std::floor(state.pos_a)))
            std::swap(state.pos_a, state.pos_b);
    }
    plot::PlotView distance_view, share_view;

    const FireResult& ResultFor(const AppState& state) const {
        return result.Get(
            FireInputs{c, threshold, state.pos_a, state.pos_b},
            [](const FireInputs& in) { return ComputeFire(in.c, in.threshold, in.query, in.key); });
    }
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

void FireTab::Draw(AlternativesPanel& /*panel*/, FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float slider = FitWidth(6.0f, "L");
        SceneSlider(frame, row, kFireC, &c, slider);
        SceneSlider(frame, row, kFireThreshold, &threshold, slider);
        EndControls(frame);
    }
    const FireResult* computed = nullptr;
    {
        CoreTimer core_time(frame.stats);
        computed = &ResultFor(frame.state);
    }
    const FireResult& r = *computed;
    const Explanation sentence = FireSentence(r);
    SentenceAndPlots layout;
    layout.Begin(frame, sentence.text, "alternatives.fire_text");
    const float height = layout.height, half_width = layout.half_width;
    const Role roles[3] = {Role::PosA, Role::Cos, Role::Sin};
    const char* names[3] = {"query at m", "at 4m", "at 16m"};
    const plot::Marker shapes[3] = {plot::Marker::Circle, plot::Marker::Square, plot::Marker::Ring};
    {
        distance_view.SetHome(plot::Range{0, r.queries.back()}, plot::Range{0, 1.05});
        if (!distance_view.has_home) distance_view.Reset();
        plot::PlotConfig config;
        config.x_label = "distance i − j";
        config.y_label = "u, FIRE's input";
        plot::Plot p;
        if (p.Begin("FIRE's input u against distance##fire_distance", distance_view,
                    ImVec2(half_width, height), config)) {
            frame.Record("alternatives.fire_distance");
            // Drawn longest first, each marked by its own shape: below L the curves lie on one
            // another (u = ψ(d)/ψ(L) for every query), and each stays told apart.
            for (int q = 2; q >= 0; --q)
                p.LineMarkers(names[q], r.distances[q].data(), r.inputs[q].data(),
                              static_cast<int>(r.distances[q].size()), frame.Color(roles[q]),
                              frame.Px(2.0f), frame.Px(3.5f), shapes[q], 25);
            if (!r.key_after_query)
                p.Markers("key", &r.distance, &r.input, 1, frame.Color(Role::PosB), frame.Px(4.5f));
            p.End();
        }
    }
    ImGui::SameLine();
    {
        share_view.SetHome(plot::Range{0, 1}, plot::Range{0, 1.05});
        if (!share_view.has_home) share_view.Reset();
        plot::PlotConfig config;
        config.x_label = "(i − j)/i";
        config.y_label = "u, FIRE's input";
        plot::Plot p;
        if (p.Begin("u against the share of the context##fire_share", share_view,
                    ImVec2(-1, height), config)) {
            frame.Record("alternatives.fire_share");
            for (int q = 2; q >= 0; --q)
                p.LineMarkers(names[q], r.shares[q].data(), r.inputs[q].data(),
                              static_cast<int>(r.shares[q].size()), frame.Color(roles[q]),
                              frame.Px(2.0f), frame.Px(3.5f), shapes[q], 25);
            p.End();
        }
    }
    layout.End(frame);
}

void FireTab::AddFields(SceneTable& table) {
    table.Number(kFireC, &c);
    table.Number(kFireThreshold, &threshold);
}

nlohmann::json FireTab::Readouts(const AlternativesPanel& /*panel*/, const AppState& state) const {
    const FireResult& r = ResultFor(state);
    const Explanation sentence = FireSentence(r);
    return {{"fire",
             {{"c", r.c},
              {"threshold", r.threshold},
              {"query", r.query},
              {"distance", r.distance},
              {"input", r.input},
              {"input_at_4", r.input_at_4},
              {"sentence", sentence.text},
              {"claims", ClaimsJson(sentence)}}}};
}

std::optional<MethodRowJob> FireTab::RowJob(const AlternativesPanel& /*panel*/,
                                            const AppState& state) const {
    char inputs[128];
    std::snprintf(inputs, sizeof inputs, "fire %.17g %.17g %.17g %.17g", c, threshold, state.pos_a,
                  state.pos_b);
    return MethodRowJob{
        inputs, [c = c, threshold = threshold, m = state.pos_a, n = state.pos_b] {
            // u for the key n seen from the query m (whole tokens, the key before the query),
            // both moved by 10, 20, … 990: the query's own position normalises the distance.
            const double query = std::max(1.0, std::floor(m));
            const double distance = std::clamp(query - std::floor(n), 0.0, query);
            const double at = fire_input(distance, query, c, threshold);
            double change = 0;
            for (int s = 1; s < 100; ++s)
                change = std::max(
                    change, std::abs(fire_input(distance, query + 10 * s, c, threshold) - at));
            const bool relative = change < 1e-12;
            return MethodRow{{"FIRE", "research models (Li et al. 2023)",
                              "a learned function of the normalised distance, added to each score",
                              "an MLP of 32 units per model, c and L",
                              "its input stays in [0, 1] at any length",
                              (relative ? "yes below L: u changes by "
                                        : "no: normalised by the query's position, u changes by ") +
                                  ShownNumber(change, 2)},
                             relative ? Verdict::Yes : Verdict::No,
                             change,
                             "fire"};
        }};
}

std::vector<WidgetName> FireTab::Widgets() const {
    return {
        ControlWidget(kFireC),
        ControlWidget(kFireThreshold),
        {"alternatives.fire_text", "the sentence on the input FIRE's function reads", {"fire"}},
        {"alternatives.fire_distance", "FIRE's input against distance for three queries"},
        {"alternatives.fire_share", "the same against the share of the context behind the key"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeFireTab() {
    return std::make_unique<FireTab>();
}

} // namespace pelab
