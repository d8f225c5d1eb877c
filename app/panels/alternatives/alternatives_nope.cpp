// alternatives_nope.cpp — the alternatives panel's NoPE tab: layers without positions. iRoPE
// (Llama 4) leaves every N-th layer without RoPE; there q·k is the same at every distance
// (against RoPE's layers, for the RoPE tabs' q and k). What such a layer can still read about
// position comes from the causal mask: a query at position m sees m + 1 tokens, so attention
// spread evenly hands the first token 1/(m + 1), a count of the position (Haviv et al. 2022;
// Kazemnejad et al. 2023), whose neighbours grow too close to store apart.
#include "panels/alternatives/alternatives_nope.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/precision.h"
#include "pelab/scaling/rope_family.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pelab {

ShareCollisions ComputeShareCollisions() {
    return {first_share_collision(kBfloat16), first_share_collision(kFloat16),
            first_share_collision(kFloat32)};
}

NopeResult ComputeNope(const AlternativesPanel::RopeInputs& inputs, int layers, int nope_every,
                       const ShareCollisions& collisions) {
    NopeResult r;
    const std::vector<double> q = AlternativesPanel::RopeVectorFor(inputs, true);
    const std::vector<double> k = AlternativesPanel::RopeVectorFor(inputs, false);
    r.d = static_cast<int>(q.size());
    r.nope_score = std::inner_product(q.begin(), q.end(), k.begin(), 0.0);
    const RopePairPlan rope = rope_plan(r.d, inputs.base);
    for (int s = 0; s <= 256; ++s) {
        r.distances.push_back(s);
        r.rope_scores.push_back(plan_score_relative(q, k, s, rope));
        r.nope_scores.push_back(r.nope_score);
    }
    r.rope_lowest = *std::min_element(r.rope_scores.begin(), r.rope_scores.end());
    r.rope_highest = *std::max_element(r.rope_scores.begin(), r.rope_scores.end());
    r.layers = layers;
    r.nope_every = nope_every;
    for (int layer = nope_every; layer <= layers; layer += nope_every)
        r.nope_layers.push_back(layer);
    r.position_asked = inputs.m;
    r.position = static_cast<long long>(std::floor(std::max(0.0, inputs.m)));
    r.share = 1.0 / static_cast<double>(r.position + 1);
    r.next_share = 1.0 / static_cast<double>(r.position + 2);
    r.gap = r.share - r.next_share;
    const double reach = std::max(64.0, 2.0 * static_cast<double>(r.position));
    for (int s = 0; s <= 400; ++s) {
        const double position = std::round(reach * s / 400.0);
        r.positions.push_back(position);
        r.causal_shares.push_back(1.0 / (position + 1));
        r.bidirectional_shares.push_back(1.0 / (reach + 1));
    }
    r.collisions = collisions;
    return r;
}

namespace {

// "4, 8, 12" or, past six, "4, 8, …, 48".
std::string LayerList(const std::vector<int>& layers) {
    std::string out;
    if (layers.size() <= 6) {
        for (std::size_t l = 0; l < layers.size(); ++l)
            out += (l == 0                   ? ""
                    : l + 1 == layers.size() ? " and "
                                             : ", ") +
                   std::to_string(layers[l]);
        return out;
    }
    return std::to_string(layers[0]) + ", " + std::to_string(layers[1]) + ", …, " +
           std::to_string(layers.back());
}

} // namespace

Explanation NopeSentence(const NopeResult& r) {
    Explanation out;
    const int count = static_cast<int>(r.nope_layers.size());
    out.Claims("nope_layers", count);
    out.Claims("nope_score", r.nope_score);
    out.Claims("rope_lowest", r.rope_lowest);
    out.Claims("rope_highest", r.rope_highest);
    out.Claims("position", static_cast<double>(r.position));
    out.Claims("share", r.share);
    out.Claims("next_share", r.next_share);
    out.Claims("bfloat16_from", static_cast<double>(r.collisions.bfloat16));
    out.Claims("float16_from", static_cast<double>(r.collisions.float16));
    out.Claims("float32_from", static_cast<double>(r.collisions.float32));
    const std::string of_layers = std::to_string(r.layers) + (r.layers == 1 ? " layer" : " layers");
    const std::string llama =
        r.nope_every == 4 ? "every 4th, as in Llama 4" : "Llama 4 leaves every 4th";
    if (count == 0) {
        out.text = "iRoPE leaves layers " + std::to_string(r.nope_every) + ", " +
                   std::to_string(2 * r.nope_every) + ", … without positions, and a model of " +
                   of_layers + " has none of them: iRoPE is RoPE there. ";
    } else {
        out.text = "iRoPE leaves layer" + std::string(count == 1 ? " " : "s ") +
                   LayerList(r.nope_layers) + " of " + of_layers + " without positions (" + llama +
                   "): there q·k is " + ShownNumber(r.nope_score, 4) +
                   " at any distance, while RoPE's layers move it between " +
                   ShownNumber(r.rope_lowest, 4) + " and " + ShownNumber(r.rope_highest, 4) +
                   " (m − n from 0 to 256). ";
    }
    const auto whole = [](long long value) { return ShownNumber(static_cast<double>(value)); };
    const std::string counted =
        r.position_asked == static_cast<double>(r.position)
            ? ""
            : " (pos A " + ShownNumber(r.position_asked) + " in whole tokens)";
    const auto [share, next] = ShownPair(r.share, r.next_share, 4);
    out.text += "The causal mask still gives position away: at position " + whole(r.position) +
                counted + " a query sees " + whole(r.position + 1) +
                (r.position == 0 ? " token" : " tokens") +
                ", so even attention gives the first 1/" + whole(r.position + 1) + " = " + share +
                ", the next position 1/" + whole(r.position + 2) + " = " + next +
                ". In bfloat16 these shares of neighbours first coincide at position " +
                whole(r.collisions.bfloat16) + ", in float16 at " + whole(r.collisions.float16) +
                ", in float32 at " + whole(r.collisions.float32) +
                ". Without the mask every query gets 1/n: no position at all.";
    return out;
}

namespace {

struct NopeInputs {
    AlternativesPanel::RopeInputs rope;
    int layers = 0, nope_every = 0;
    bool operator==(const NopeInputs& o) const {
        return rope == o.rope && layers == o.layers && nope_every == o.nope_every;
    }
};

constexpr NumberControl kNopeLayers{"nope_layers",
                                    "the model's layers for iRoPE's pattern",
                                    1,
                                    256,
                                    48,
                                    "layers",
                                    "%d",
                                    false,
                                    "The model's layers (Llama 4 Scout: 48).",
                                    "alternatives.nope_layers"};
constexpr NumberControl kNopeEvery{"nope_every",
                                   "iRoPE leaves layers N, 2N, … (from 1) without positions",
                                   2,
                                   256,
                                   4,
                                   "NoPE every",
                                   "%d",
                                   false,
                                   "Layers N, 2N, … (counted from 1) attend without positions "
                                   "(Llama 4: 4). The training lab's irope is the same with "
                                   "--nope-every.",
                                   "alternatives.nope_every"};

struct NopeTab final : AlternativesTab {
    int layers = static_cast<int>(kNopeLayers.initial);    ///< Llama 4 Scout's
    int nope_every = static_cast<int>(kNopeEvery.initial); ///< Llama 4's
    /// The stored-share collisions, which depend on nothing (~50 ms for float32's: once).
    mutable Cached<int, ShareCollisions> collisions;
    mutable Cached<NopeInputs, NopeResult> result;
    plot::PlotView score_view, share_view;

    const NopeResult& ResultFor(const AlternativesPanel& panel, const AppState& state) const {
        const ShareCollisions& stored =
            collisions.Get(0, [](int) { return ComputeShareCollisions(); });
        return result.Get(NopeInputs{panel.RopeInputsFor(state), layers, nope_every},
                          [&stored](const NopeInputs& in) {
                              return ComputeNope(in.rope, in.layers, in.nope_every, stored);
                          });
    }
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

void NopeTab::Draw(AlternativesPanel& panel, FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float number = FitWidth(4.0f, "NoPE every");
        SceneInput(frame, row, kNopeLayers, &layers, number);
        SceneInput(frame, row, kNopeEvery, &nope_every, number);
        panel.RopeVectorControls(frame, row);
        EndControls(frame);
    }
    const NopeResult* computed = nullptr;
    {
        CoreTimer core_time(frame.stats);
        computed = &ResultFor(panel, frame.state);
    }
    const NopeResult& r = *computed;
    const Explanation sentence = NopeSentence(r);
    SentenceAndPlots layout;
    layout.Begin(frame, sentence.text, "alternatives.nope_text");
    const float height = layout.height, half_width = layout.half_width;
    {
        const double top = std::max(
            {std::abs(r.rope_lowest), std::abs(r.rope_highest), std::abs(r.nope_score), 1e-9});
        score_view.SetHome(plot::Range{0, r.distances.back()}, plot::Range{-top * 1.1, top * 1.1});
        if (!score_view.has_home) score_view.Reset();
        plot::PlotConfig config;
        config.x_label = "m − n";
        plot::Plot p;
        if (p.Begin("q·k against m − n##nope_scores", score_view, ImVec2(half_width, height),
                    config)) {
            frame.Record("alternatives.nope_scores");
            const int count = static_cast<int>(r.distances.size());
            p.Line("RoPE", r.distances.data(), r.rope_scores.data(), count,
                   frame.Color(Role::Muted), frame.Px(1.5f));
            p.Line("no positions", r.distances.data(), r.nope_scores.data(), count,
                   frame.Color(Role::Accent), frame.Px(2.0f));
            p.End();
        }
    }
    ImGui::SameLine();
    {
        share_view.SetHome(plot::Range{0, r.positions.back()}, plot::Range{0, 1.05});
        if (!share_view.has_home) share_view.Reset();
        plot::PlotConfig config;
        config.x_label = "position m";
        plot::Plot p;
        if (p.Begin("the first token's even share##nope_shares", share_view, ImVec2(-1, height),
                    config)) {
            frame.Record("alternatives.nope_shares");
            const int count = static_cast<int>(r.positions.size());
            p.Line("causal 1/(m + 1)", r.positions.data(), r.causal_shares.data(), count,
                   frame.Color(Role::Cos), frame.Px(2.0f));
            p.Line("no mask 1/n", r.positions.data(), r.bidirectional_shares.data(), count,
                   frame.Color(Role::Sin), frame.Px(1.5f));
            const double at = static_cast<double>(r.position);
            p.Markers("m", &at, &r.share, 1, frame.Color(Role::PosA), frame.Px(4.0f));
            p.End();
        }
    }
    layout.End(frame);
}

void NopeTab::AddFields(SceneTable& table) {
    table.Integer(kNopeLayers, &layers);
    table.Integer(kNopeEvery, &nope_every);
}

nlohmann::json NopeTab::Readouts(const AlternativesPanel& panel, const AppState& state) const {
    const NopeResult& r = ResultFor(panel, state);
    const Explanation sentence = NopeSentence(r);
    return {{"nope",
             {{"layers", r.layers},
              {"nope_every", r.nope_every},
              {"nope_layers", r.nope_layers},
              {"nope_score", r.nope_score},
              {"rope_lowest", r.rope_lowest},
              {"rope_highest", r.rope_highest},
              {"position", r.position},
              {"share", r.share},
              {"next_share", r.next_share},
              {"share_collision",
               {{"bfloat16", r.collisions.bfloat16},
                {"float16", r.collisions.float16},
                {"float32", r.collisions.float32}}},
              {"sentence", sentence.text},
              {"claims", ClaimsJson(sentence)}}}};
}

std::optional<MethodRowJob> NopeTab::RowJob(const AlternativesPanel& /*panel*/,
                                            const AppState& /*state*/) const {
    // Nothing turns and nothing is added: the row reads no input, and its cells say so rather
    // than measure a change that is zero by construction.
    return MethodRowJob{"nope", [] {
                            const char* extrapolation = "nothing to extrapolate; the mask's count "
                                                        "1/(m + 1) blurs as m grows";
                            return MethodRow{{"NoPE (causal)", "Llama 4's every 4th layer (iRoPE)",
                                              "nowhere: only the causal mask tells positions apart",
                                              "0", extrapolation, "no position at all"},
                                             Verdict::Neither,
                                             std::nullopt,
                                             "nope"};
                        }};
}

std::vector<WidgetName> NopeTab::Widgets() const {
    return {
        ControlWidget(kNopeLayers, "box"),
        ControlWidget(kNopeEvery, "box"),
        {"alternatives.nope_text",
         "the sentence on iRoPE's layers and what a causal mask tells a layer without positions",
         {"nope"}},
        {"alternatives.nope_scores", "q·k against m − n in RoPE's layers and in the bare ones"},
        {"alternatives.nope_shares",
         "the first token's share under even attention against position, causal and not"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeNopeTab() {
    return std::make_unique<NopeTab>();
}

} // namespace pelab
