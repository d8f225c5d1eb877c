// panel_alternatives.h — what came after the sinusoidal encoding (as the published articles tell
// it), one tab each: a learned table (and its hard edge), RoPE (q·k depends only on m − n,
// checked), ALiBi (slopes, the bias per head, and how it breaks the word-order tie), T5's relative
// buckets, long-context scaling of RoPE's spectrum (linear, NTK-aware, YaRN, Llama 3), and a
// side-by-side table whose "relative" and "extrapolation" cells are computed here. Every number
// comes from pelab/alternatives.h and pelab/context_scaling.h.
#pragma once

#include "panels/explanation.h"

#include "panels/panel.h"
#include "pelab/alternatives.h"
#include "pelab/context_scaling.h"
#include "widgets/cached.h"
#include "widgets/layout.h"
#include "widgets/plot.h"
#include "widgets/scene_tabs.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pelab {

/// The seed of the learned table's stand-in values (the tab and the side-by-side checks).
constexpr std::uint64_t kAlternativesLearnedSeed = 2024;

/// The side-by-side table's computed cells, for tests and readouts.
/// The "relative?" answer of a method: yes (green), no (amber), or neither (plain text):
/// sinusoidal PE is absolute, yet the dot product of two bare encodings depends on m − n alone.
enum class Verdict { Yes, No, Neither };

/// One row of the side-by-side table: method, used in, where position enters, parameters,
/// past the training length, relative?
struct MethodRow {
    std::string cells[6];
    Verdict relative = Verdict::No;
};

struct MethodChecks {
    double sinusoidal_shift_change = 0; ///< max |PE(m+s)·PE(n+s) − PE(m)·PE(n)|
    double learned_shift_change = 0;
    double rope_shift_change = 0;
    double alibi_shift_change = 0;
    long long t5_last_bucket_start = 0;
    bool learned_has_entry_at_rows = false;
};
struct AlternativesPanel : Panel {
    // Own settings (scene fields).
    std::string tab = "rope";
    int learned_rows = 512;
    int learned_d = 768;
    int learned_lookup = 512; ///< the position looked up in the learned table
    int rope_seed = 7;        ///< q and k are seeded normal vectors of d_model values…
    bool rope_typed = false;  ///< … or typed here (their own even length, 2 to 64)
    std::string rope_q = "1, 0, 0.5, 0.5", rope_k = "0, 1, 1, 0";
    int alibi_heads = 8;
    int alibi_head = 1; ///< 1 … heads
    bool alibi_causal = true;
    std::string alibi_sentence_a = "dog bites man", alibi_sentence_b = "man bites dog";
    int t5_buckets = 32;
    int t5_max_distance = 128;
    bool t5_bidirectional = true;
    int scaling_d = 128;
    double scaling_factor = 8;
    double scaling_context = 8192;
    // Computed numbers, each kept until an input it reads changes (the RoPE tab and the
    // side-by-side checks cost up to ~100 ms at d 4 096): the tabs draw them and Readouts
    // reports the same results.
    /// Every input of the RoPE numbers (m and n are 0 for the curve, which does not read them).
    struct RopeInputs {
        int d_model = 0;
        double base = 0, m = 0, n = 0;
        int seed = 0;
        bool typed = false;
        std::string q_text, k_text;
        bool operator==(const RopeInputs& o) const {
            return d_model == o.d_model && base == o.base && m == o.m && n == o.n &&
                   seed == o.seed && typed == o.typed && q_text == o.q_text && k_text == o.k_text;
        }
    };
    /// The RoPE score at (m, n): q, k, q·k rotated, the same from m − n alone, and the largest
    /// change when m and n move together.
    struct RopePoint {
        std::vector<double> q, k;
        double score = 0, relative = 0;
    };
    /// The largest change of q·k when m and n move together by 10, 20, … (kRopeShifts scores:
    /// ~10 ms at d_model 4 096, so off the frame in the window).
    struct RopeShift {
        double change = 0;
    };
    struct RopeCurve {
        std::vector<double> x, y; ///< q·k against m − n
    };
    struct RopeDecay {
        std::vector<double> distances, expected, bound;
    };
    struct DecayInputs {
        int d = 0;
        double base = 0;
        bool operator==(const DecayInputs& o) const { return d == o.d && base == o.base; }
    };
    struct ChecksInputs {
        RopeInputs rope;
        int learned_rows = 0, learned_d = 0, t5_buckets = 0, t5_max_distance = 0;
        bool t5_bidirectional = false;
        bool operator==(const ChecksInputs& o) const {
            return rope == o.rope && learned_rows == o.learned_rows && learned_d == o.learned_d &&
                   t5_buckets == o.t5_buckets && t5_max_distance == o.t5_max_distance &&
                   t5_bidirectional == o.t5_bidirectional;
        }
    };
    mutable Cached<RopeInputs, RopePoint> rope_point;
    mutable BackgroundCached<RopeInputs, RopeShift> rope_shift;
    /// Whether the shift change drawn is for this frame's inputs (GetForFrame).
    bool rope_shift_current = true;
    mutable Cached<RopeInputs, RopeCurve> rope_curve;
    mutable Cached<DecayInputs, RopeDecay> rope_decay;
    mutable BackgroundCached<ChecksInputs, MethodChecks> method_checks;
    /// RoPE's two pairings for the RoPE tab's q and k (the RoPE pairs tab).
    struct PairingResult {
        std::vector<double> distances, interleaved, half_split; ///< q·k at m − n = distance
        /// Each dimension and the θ it turns at under either pairing.
        std::vector<double> dimensions, interleaved_theta, half_split_theta;
        double interleaved_shift_change = 0, half_split_shift_change = 0; ///< as the RoPE tab's
        double largest_gap = 0;   ///< max over distances of |half-split − interleaved q·k|
        double largest_score = 0; ///< max |interleaved q·k| over the distances
        int same_frequency_dims = 0, d = 0;
    };
    mutable Cached<RopeInputs, PairingResult> pairing;
    // View state.
    SceneTabs tabs; ///< tab's tabs
    plot::PlotView learned_view, rope_view, rope_curve_view, decay_view, t5_view, factor_view,
        wavelength_view, pairing_view, pairing_theta_view;
    int decay_view_d = 0;
    std::string input_error;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();
    std::string StatusNote() const override;

    // Each tab, in its own file (alternatives_<id>.cpp): its drawing, its own scene fields,
    // its readouts (an object under its key) and its widget names; AlternativesTabs() lists
    // them.
    void DrawLearned(FrameContext& frame);
    void AddLearnedFields(SceneTable& table);
    nlohmann::json LearnedReadouts(const AppState& state) const;
    static std::vector<WidgetName> LearnedWidgets();
    /// Its method's row of the side-by-side table, worded from the checks.
    MethodRow LearnedRow(const MethodChecks& checks) const;
    void DrawRope(FrameContext& frame);
    void AddRopeFields(SceneTable& table);
    nlohmann::json RopeReadouts(const AppState& state) const;
    static std::vector<WidgetName> RopeWidgets();
    /// Its method's row of the side-by-side table, worded from the checks.
    MethodRow RopeRow(const MethodChecks& checks) const;
    void DrawAlibi(FrameContext& frame);
    void AddAlibiFields(SceneTable& table);
    nlohmann::json AlibiReadouts(const AppState& state) const;
    static std::vector<WidgetName> AlibiWidgets();
    /// Its method's row of the side-by-side table, worded from the checks.
    MethodRow AlibiRow(const MethodChecks& checks) const;
    void DrawT5(FrameContext& frame);
    void AddT5Fields(SceneTable& table);
    nlohmann::json T5Readouts(const AppState& state) const;
    static std::vector<WidgetName> T5Widgets();
    /// Its method's row of the side-by-side table, worded from the checks.
    MethodRow T5Row(const MethodChecks& checks) const;
    void DrawPairing(FrameContext& frame);
    nlohmann::json PairingReadouts(const AppState& state) const;
    static std::vector<WidgetName> PairingWidgets();
    static PairingResult ComputePairing(const RopeInputs& inputs);
    const PairingResult& PairingFor(const AppState& state) const;
    void DrawScaling(FrameContext& frame);
    void AddScalingFields(SceneTable& table);
    nlohmann::json ScalingReadouts(const AppState& state) const;
    static std::vector<WidgetName> ScalingWidgets();
    void DrawSideBySide(FrameContext& frame);
    nlohmann::json TableReadouts(const AppState& state) const;
    static std::vector<WidgetName> TableWidgets();

    LearnedTable Learned() const;
    T5BucketOptions T5Options() const;
    ContextScalingOptions ScalingOptions(const AppState& state) const;
    /// q and k for RoPE: the typed ones when rope_typed and they have the same length, else
    /// seeded at the shared d_model.
    std::vector<double> RopeQuery(const AppState& state) const;
    std::vector<double> RopeKey(const AppState& state) const;
    bool UsesTypedVectors() const;
    RopeInputs RopeInputsFor(const AppState& state) const;
    ChecksInputs ChecksInputsFor(const AppState& state) const;
    /// q (query) or k for these inputs: the typed ones when typed and both parse with the same
    /// length, else seeded at d_model. Pure: the checks run it off the frame.
    static std::vector<double> RopeVectorFor(const RopeInputs& inputs, bool query);
    static RopePoint ComputeRopePoint(const RopeInputs& inputs);
    static RopeShift ComputeRopeShift(const RopeInputs& inputs);
    /// The side-by-side checks, from their inputs alone (pure: run off the frame in the window).
    static MethodChecks ComputeChecks(const ChecksInputs& inputs);
    /// Whether the checks drawn are for this frame's inputs (drawn through GetForFrame: off the
    /// frame in the window, the last ones meanwhile).
    bool checks_current = true;
    /// The RoPE numbers for this state, from their caches.
    const RopePoint& RopeAt(const AppState& state) const;
    const RopeShift& RopeShiftAt(const AppState& state) const; ///< computed now if need be
    const RopeCurve& RopeCurveFor(const AppState& state) const;
    const RopeDecay& RopeDecayFor(int d, double base) const;
    /// The side-by-side checks for this state, from their cache (ComputeMethodChecks).
    const MethodChecks& Checks(const AppState& state) const;
    /// The side-by-side table's rows, worded from the checks.
    std::vector<MethodRow> MethodRows(const MethodChecks& checks) const;
};

/// One tab of the alternatives panel: its scene value (alternatives_tab, and the widget
/// "alternatives.tab_<id>"), its title and one line on what it shows, and its parts. Adding a
/// tab is its file and its row.
struct AlternativesTab {
    const char* id;
    const char* title;
    const char* summary;
    void (AlternativesPanel::*draw)(FrameContext& frame);
    void (AlternativesPanel::*add_fields)(SceneTable& table); ///< nullptr: no settings
    nlohmann::json (AlternativesPanel::*readouts)(const AppState& state) const;
    std::vector<WidgetName> (*widgets)();
    /// Its method's row of the side-by-side table (after sinusoidal's), or nullptr.
    MethodRow (AlternativesPanel::*method_row)(const MethodChecks& checks) const;
};
/// The tabs, in the order they are shown.
const std::vector<AlternativesTab>& AlternativesTabs();
/// "learned, rope, … or table", for the scene field's doc and messages.
std::string AlternativesTabList();

/// The two base buttons (10 000, and Llama 3's 500 000) of the RoPE and long-context tabs;
/// record names the first.
void AlternativesBasePresets(FrameContext& frame, FlowRow& row, const char* record);

/// The height left in the tab, but at least `lines` text lines (the tab then scrolls): a plot
/// on a projector at text scale 2 stays readable.
float RemainingHeight(float lines = 10.0f);

/// Reads "1, 0, 0.5, 0.5" (commas or spaces) into values: "" or why not (an even count of 2 to
/// 64 finite numbers, each within ±1e6).
std::string ParseRopeVector(const std::string& text, std::vector<double>* values);

/// The order demo's tie and ALiBi (one-hot embeddings, d_model 16, PE off). Scores: the largest
/// difference after re-ordering, without and with head's bias −m·|i − j| added in both
/// directions. Weights: the same for the causal softmax weights, with the mask alone and with
/// mask and bias (ALiBi is used in causal models, and the mask by itself already sees order).
struct AlibiTie {
    double without_bias = 0;
    double with_bias = 0;
    /// Every pair of words is as far apart in B as in A under the best matching (B is A
    /// backwards, say): then −m·|i − j| cannot tell the orders apart.
    bool distances_kept = false;
    double causal_mask_only = 0;
    double causal_with_bias = 0;
    bool same_words = false;
    std::string error; ///< a sentence the order demo refuses
};
AlibiTie AlibiBreaksTie(const std::string& sentence_a, const std::string& sentence_b, double slope);

/// The long-context tab's sentence: what each scaling method keeps and slows at these options,
/// worded from the counts of its factors, with its claims.
Explanation ScalingSentence(const ContextScalingOptions& options);

MethodChecks ComputeMethodChecks(const AlternativesPanel& panel, const AppState& state);

/// The RoPE pairs tab's sentence, with its claims: both pairings relative (both_relative), how
/// many dimensions keep their frequency across pairings (same_frequency_dims), how far the two
/// score curves are apart (largest_gap).
Explanation PairingSentence(const AlternativesPanel::PairingResult& result);

} // namespace pelab
