// panel_order.h — the PE on/off order demo: "dog bites man" vs "man bites dog". Without a
// positional encoding, B's attention scores are A's scores re-ordered; with one, they differ.
#pragma once

#include "panels/panel.h"
#include "pelab/attention.h"
#include "widgets/cached.h"

#include <string>
#include <vector>

namespace pelab {

constexpr int kMaxOrderDModel = 64;
constexpr double kMaxPeScale = 100.0;
/// On a slide (a lesson on a projector) the order panel's sentences have at most this many
/// words, so that its matrices stay readable; lesson check refuses a step with more.
constexpr std::size_t kSlideMaxWords = 8;
/// Words of a sentence as the order demo splits it: at whitespace.
std::size_t SentenceWords(const std::string& sentence);

struct OrderPanel : Panel {
    // Own settings (scene fields; see AddSceneFields). The demo has its own small width so
    // that one-hot rows, X rows and score matrices stay readable: PE is added to
    // order_d_model-wide embeddings, with the shared base.
    bool pe_enabled = true;
    double pe_scale = 1.0;
    bool scale_embeddings = false;
    std::string sentence_a = "dog bites man";
    std::string sentence_b = "man bites dog";
    int order_d_model = 16;
    /// Seeded random word vectors by default: with one-hot words and no PE both score matrices
    /// are the identity, and "B is A re-ordered" cannot be seen.
    bool random_embeddings = true;
    int embedding_seed = 42;
    // View state.
    int x_dims_shown = 8; ///< columns of the X rows shown (of order_d_model)
    std::vector<std::string> labels_a, labels_b, dim_labels;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();
    std::string StatusNote() const override;
    /// A sentence of more than kSlideMaxWords words (sentence_a, sentence_b in scene).
    std::vector<std::string> SlideSceneProblems(const nlohmann::json& scene) const override;

    /// The core's options for the current settings at the shared base.
    OrderDemoOptions Options(double base) const;
    /// The demo for the two sentences and these options, computed once per change: the frame
    /// draws it and Readouts reports it. error: why the core refused the sentences ("" if not).
    struct DemoInputs {
        std::string sentence_a, sentence_b;
        OrderDemoOptions options;
        bool operator==(const DemoInputs& o) const {
            const PositionalOptions& p = options.positional;
            const PositionalOptions& q = o.options.positional;
            return sentence_a == o.sentence_a && sentence_b == o.sentence_b &&
                   options.d_model == o.options.d_model &&
                   options.embedding == o.options.embedding && options.seed == o.options.seed &&
                   options.random_stddev == o.options.random_stddev &&
                   p.pe_enabled == q.pe_enabled && p.pe_scale == q.pe_scale &&
                   p.scale_embeddings == q.scale_embeddings && p.base == q.base;
        }
    };
    struct Demo {
        OrderDemoResult result;
        std::string error;
    };
    static Demo ComputeDemo(const DemoInputs& inputs);
    const Demo& DemoFor(const AppState& state) const;
    mutable Cached<DemoInputs, Demo> demo_cache;
    /// Restores the settings' invariants after an edit.
    void ClampSettings();

private:
    void DrawInputs(FrameContext& frame);
    void DrawSentences(FrameContext& frame);
    void DrawSettings(FrameContext& frame);
    void DrawHeadline(FrameContext& frame, const OrderDemoResult& result);
    void DrawVerdict(FrameContext& frame, const OrderDemoResult& result);
    void DrawMatrices(FrameContext& frame, const OrderDemoResult& result);
};

/// How the demo reads words, beside the sentence fields (the README says the same).
constexpr const char* kOrderWordsHelp =
    "Words are split at spaces. Only the ASCII letters A-Z are lower-cased, so \"Dog\" and "
    "\"dog\" are one word, but other letters are kept as typed: \"ÄRGER\" and \"ärger\" are "
    "two different words.";

/// The verdict in one short line, shown above the matrices in a short panel.
std::string OrderHeadlineText(const OrderDemoResult& result);
/// The verdict sentence for a result (exposed for tests).
std::string OrderVerdictText(const OrderDemoResult& result, bool pe_enabled);
/// "bites" → "dog" in both sentences: the same score when order is invisible, two when not.
std::string OrderSameWordsText(const OrderDemoResult& result);

} // namespace pelab
