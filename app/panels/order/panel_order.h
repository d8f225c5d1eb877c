// panel_order.h — the PE on/off order demo: "dog bites man" vs "man bites dog". Without a
// positional encoding, B's attention scores are A's scores re-ordered; with one, they differ.
#pragma once

#include "io/scene.h"
#include "panels/order/order_real.h"
#include "panels/panel.h"
#include "pelab/encodings/attention.h"
#include "widgets/cached.h"
#include "widgets/plot.h"
#include "widgets/scene_tabs.h"

#include <string>
#include <vector>

namespace pelab {

class FlowRow;

/// What the Real model view runs on, said when a model is open but cannot run (a folder with
/// only its position table, a malformed file, the page's limit).
constexpr const char* kRealNeeds =
    "This view runs the whole model on the two sentences: its folder must hold every weight "
    "(model.safetensors as downloaded, or its shards and index), config.json and the "
    "tokenizer (vocab.json and merges.txt, or tokenizer.json), as on the model's Hugging Face "
    "page (Files and versions): GPT-2 (openai-community/gpt2) or a rotary model of the Llama, "
    "Qwen2, Qwen3, Mistral, OLMo 2 or SmolLM3 families (HuggingFaceTB/SmolLM2-135M is the "
    "smallest).";

constexpr int kMaxOrderDModel = 64;
constexpr double kMaxPeScale = 100.0;
/// On a slide (a lesson on a projector) the order panel's sentences have at most this many
/// words, so that its matrices stay readable; lesson check refuses a step with more.
constexpr std::size_t kSlideMaxWords = 8;
/// Words of a sentence as the order demo splits it: at whitespace.
std::size_t SentenceWords(const std::string& sentence);

/// The Real model view's block and head (scene fields real_block and real_head), counted from
/// 1: at most the model's blocks and heads (SceneSlider's most).
inline constexpr NumberControl kRealBlock{
    "real_block",
    "the block whose attention is drawn (1 … the model's blocks)",
    1,
    kMaxRealBlocks,
    1,
    "block",
    "%d",
    false,
    "Whose attention is drawn: blocks are numbered from 1 (h.0 or model.layers.0 in the "
    "checkpoint is block 1).",
    "order.real_block"};
inline constexpr NumberControl kRealHead{
    "real_head", "the head whose attention is drawn (1 … the model's heads)",
    1,           kMaxRealHeads,
    1,           "head",
    "%d",        false,
    nullptr,     "order.real_head"};

/// The Real model view's shuffle seed and shift (lowered when drawn so that the longer sentence
/// stays inside the table).
inline constexpr NumberControl kRealShuffleSeed =
    Stepped(NumberControl{"real_shuffle_seed", "the Real model view's shuffle seed", 0, 2147483647,
                          1, "shuffle seed", "%d", false, nullptr, "order.real_seed"},
            1, 100);
inline constexpr NumberControl kRealShift = Stepped(
    NumberControl{
        "real_shift", "the Real model view's shift k (token t gets position t + k)", 0,
        kMaxRealShift, 100, "shift by", "%d", false,
        "Token t sits at position t + k. GPT-2 takes row t + k of its table (lowered so that the "
        "longer sentence stays inside it); a rotary model turns by the angles of t + k.",
        "order.real_shift"},
    1, 100);
/// A rotary model's base switch (every layer's base × the factor) and its "none from block"
/// switch (blocks from this one on turn nothing).
inline constexpr NumberControl kRealBaseFactor{
    "real_base_factor",
    "a rotary model's base switch: every layer's base times this factor",
    kMinBaseFactor,
    kMaxBaseFactor,
    0.1,
    "base ×",
    "%.3g",
    true,
    "Every layer's rope_theta times this factor: below 1 every pair but the fastest turns faster, "
    "above 1 slower.",
    "order.real_base_factor"};
inline constexpr NumberControl kRealNopeBlock{
    "real_nope_block",
    "a rotary model's switch: blocks from this one on turn nothing",
    1,
    kMaxRealBlocks,
    2,
    "none from block",
    "%d",
    false,
    "The blocks before this one turn q and k as trained; this one and the later ones turn "
    "nothing (nope-from:L on the command line, L = this block − 1).",
    "order.real_nope_block"};

/// The toy demo's own settings: the encoding's scale (the slider reaches 10; a typed value up
/// to kMaxPeScale), its width, its seed, and the X columns shown.
inline constexpr NumberControl kOrderPeScale{"pe_scale",
                                             "order demo, X = E + pe_scale·PE",
                                             0,
                                             kMaxPeScale,
                                             1,
                                             "PE scale",
                                             "%.2f",
                                             false,
                                             nullptr,
                                             "order.pe_scale",
                                             false,
                                             /*slider_span=*/10};
inline constexpr NumberControl kOrderDModel{
    "order_d_model", "order demo width", 2, kMaxOrderDModel, 16, "demo d_model", "%d", false,
    nullptr,         "order.d_model",
    /*even=*/true};
inline constexpr NumberControl kOrderSeed =
    Stepped(NumberControl{"embedding_seed", "order demo random seed", 0, 2147483647, 42, "seed",
                          "%d", false, nullptr, "order.seed"},
            1, 100);
inline constexpr NumberControl kOrderDimsShown{
    "order_dims_shown",
    "columns of the X rows shown (at most order_d_model)",
    2,
    kMaxOrderDModel,
    8,
    "dims shown",
    "%d",
    false,
    nullptr,
    "order.dims_shown"};

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
    /// "toy": the demo above on a few words; "real": the Real model view, the same experiment on
    /// the GPT-2 checkpoint open in the Your model panel (order_real.h).
    std::string order_view = "toy";
    // The Real model view's settings (scene fields).
    std::string real_text_a = "the dog bites the man .";
    std::string real_text_b = "the man bites the dog .";
    int real_block = static_cast<int>(kRealBlock.initial); ///< whose attention: block 1 … L
    int real_head = static_cast<int>(kRealHead.initial);   ///< … and head 1 … H
    /// … under GPT-2's trained, zero, mean, shuffle, shift, sinusoidal, or a rotary model's
    /// trained, none, pairing, base, shift, scaling-off, nope-from (kRealSwitchIds)
    std::string real_switch = "trained";
    double real_base_factor = kRealBaseFactor.initial;
    int real_nope_block = static_cast<int>(kRealNopeBlock.initial);
    int real_shuffle_seed = static_cast<int>(kRealShuffleSeed.initial);
    int real_shift =
        static_cast<int>(kRealShift.initial); ///< lowered when it would leave the table
    // View state.
    bool x_rows_open = false; ///< the X rows' header is open
    int x_dims_shown = 8;     ///< columns of the X rows shown (of order_d_model)
    std::vector<std::string> labels_a, labels_b, dim_labels;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    /// The toy demo's numbers, the view, and (view "real") the Real model view's numbers.
    nlohmann::json Readouts(const AppState& state) const override;
    nlohmann::json ToyReadouts(const AppState& state) const;
    nlohmann::json RealReadouts(const AppState& state) const;
    /// The Real model view's error, or a block or head past the model's (view "real").
    std::string StepProblem(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();
    std::string StatusNote(const AppState& state) const override;
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

    /// The checkpoint the Real model view runs: the table's source in AppState (an empty path
    /// when none is open, or a family the view does not run).
    static RealSource SourceFor(const AppState& state);
    /// Why there is nothing to run ("" when a GPT-2 or a rotary model the pass runs is open):
    /// what to bring and where.
    static std::string NothingToRun(const AppState& state);
    /// The Real model view's demo for the settings: read and run on this thread (readouts), or
    /// in the background for a frame (*computing while the last result stays on screen; null
    /// while the first is computed). null with *why set when nothing can run.
    const RealOrderDemo* RealFor(const AppState& state, bool background, bool* computing,
                                 std::string* why) const;
    mutable BackgroundCached<RealSource, std::shared_ptr<const LoadedModel>> model_cache;
    mutable BackgroundCached<RealOrderInputs, RealOrderDemo> real_cache;
    /// The background run's passes and its Cancel; Run again counts real_run up.
    std::shared_ptr<PassProgress> real_progress = std::make_shared<PassProgress>();
    int real_run = 0;
    mutable RealOrderInputs real_started; ///< the inputs whose run Cancel last stopped or began
    SceneTabs tabs;
    plot::PlotView distance_view, closeness_view;
    int guesses_of = 0;          ///< a narrow window's guesses table: after sentence A (0) or B (1)
    bool guesses_narrow = false; ///< the table had room for one sentence's guesses last frame

private:
    void DrawToy(FrameContext& frame);
    void DrawReal(FrameContext& frame);
    void DrawRealInputs(FrameContext& frame, const RealOrderDemo* demo);
    /// The demo's tokens, sentences, attention, table and plots (the plots beside the attention
    /// in a wide window).
    void DrawRealBody(FrameContext& frame, const RealOrderDemo& demo);
    /// A GPT-2 open that cannot run: why (error), what the view needs, the toy demo meanwhile.
    void DrawCannotRun(FrameContext& frame, const std::string& error);
    /// While the passes run: how many are done, and Cancel; after Cancel: Run again.
    void DrawRunProgress(FrameContext& frame, const RealOrderDemo* demo, bool computing);
    void DrawRealSettings(FrameContext& frame, const RealOrderDemo* demo);
    void DrawTokens(FrameContext& frame, const RealOrderDemo& demo);
    void DrawRealAttention(FrameContext& frame, const RealOrderDemo& demo);
    void DrawGuesses(FrameContext& frame, const RealOrderDemo& demo);
    /// height 0: the plot's own (10 to 16 em, as the window allows).
    void DrawDistances(FrameContext& frame, const RealOrderDemo& demo, float height = 0);
    /// A rotary model's: the chosen switch's own sentence, and under the shift how close each
    /// block's attention stays (order_rotary_view.cpp).
    void DrawSwitchSentence(FrameContext& frame, const RealOrderDemo& demo);
    void DrawShiftCloseness(FrameContext& frame, const RealOrderDemo& demo, float height = 0);
    /// The settings of the chosen switch that a rotary model has (the base, the block).
    void DrawRotarySettings(FrameContext& frame, FlowRow& row, int layers);
    void DrawInputs(FrameContext& frame);
    void DrawSentences(FrameContext& frame);
    void DrawSettings(FrameContext& frame);
    void DrawHeadline(FrameContext& frame, const OrderDemoResult& result);
    void DrawVerdict(FrameContext& frame, const OrderDemoResult& result);
    void DrawMatrices(FrameContext& frame, const OrderDemoResult& result);
    /// The rows X = E + PE the scores come from (their first dimensions), under a header.
    void DrawInputRows(FrameContext& frame, const OrderDemoResult& result);
};

/// Every real_switch id: GPT-2's, then a rotary model's (shift and trained are both's).
inline constexpr const char* kRealSwitchIds[] = {"trained", "zero",        "mean",     "shuffle",
                                                 "shift",   "sinusoidal",  "none",     "pairing",
                                                 "base",    "scaling-off", "nope-from"};

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
