// panel_alternatives.h — what came after the sinusoidal encoding (as the published articles tell
// it), one tab each: a learned table (and its hard edge), RoPE (q·k depends only on m − n,
// checked), ALiBi (slopes, the bias per head, and how it breaks the word-order tie), T5's relative
// buckets, long-context scaling of RoPE's spectrum (linear, NTK-aware, YaRN, Llama 3), and a
// side-by-side table whose "relative" and "extrapolation" cells are computed here. Every number
// comes from pelab/encodings/alternatives.h and pelab/scaling/context_scaling.h.
#pragma once

#include "panels/explanation.h"

#include "io/scene.h"

#include "panels/panel.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/scaling/context_scaling.h"
#include "widgets/cached.h"
#include "widgets/layout.h"
#include "widgets/plot.h"
#include "widgets/scene_tabs.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pelab {

/// The side-by-side table's "relative?" answer of a method: yes (green), no (amber), or neither
/// (plain text): sinusoidal PE is absolute, yet the dot product of two bare encodings depends on
/// m − n alone.
enum class Verdict { Yes, No, Neither };

/// One row of the side-by-side table: method, used in, where position enters, parameters,
/// past the training length, relative?
struct MethodRow {
    std::string cells[6];
    Verdict relative = Verdict::No;
    /// The largest change of its score when both positions move together (what "relative?"
    /// measured), if it measured one; reported under id in relative_checks.
    std::optional<double> shift_change;
    std::string id; ///< its key in the readouts ("rope", "alibi", …)
};

/// A method's row of the side-by-side table, to be computed off the frame: every input it reads
/// written out (equal inputs give equal rows, so the table computes again only when one
/// changes), and a pure function holding copies of them.
struct MethodRowJob {
    std::string inputs;
    std::function<MethodRow()> compute;
    bool operator==(const MethodRowJob& o) const { return inputs == o.inputs; }
};

struct AlternativesPanel;

/// One tab of the alternatives panel, in its own file (alternatives_<id>.cpp, whose Make…Tab()
/// is its row in AlternativesTabs()): its own settings and scene fields, what it computes and
/// keeps, its drawing, its readouts (an object under its key), its widget names and its method's
/// row of the side-by-side table. What several tabs read (RoPE's q and k, the input error) is
/// the panel's.
struct AlternativesTab {
    virtual ~AlternativesTab() = default;
    virtual void Draw(AlternativesPanel& panel, FrameContext& frame) = 0;
    virtual void AddFields(SceneTable& /*table*/) {}
    virtual nlohmann::json Readouts(const AlternativesPanel& panel,
                                    const AppState& state) const = 0;
    virtual std::vector<WidgetName> Widgets() const = 0;
    /// Called in the frame the person opens the tab (not a scene): a tab whose method is
    /// undefined for the shared pos A and pos B (a key after a causal query) moves them to a
    /// pair it is defined for, so its first sentence is the rule and not the exception.
    virtual void Opened(AppState& /*state*/) {}
    /// Its method's row of the side-by-side table, after sinusoidal's; none by default.
    virtual std::optional<MethodRowJob> RowJob(const AlternativesPanel& /*panel*/,
                                               const AppState& /*state*/) const {
        return std::nullopt;
    }
};

/// One row of the tabs' table: the scene value (alternatives_tab, and the widget
/// "alternatives.tab_<id>"), the title, one line on what it shows, and how to make it.
struct AlternativesTabInfo {
    const char* id;
    const char* title;
    const char* summary;
    std::unique_ptr<AlternativesTab> (*make)();
};
/// The tabs, in the order they are shown. Adding a tab is its file and its row.
const std::vector<AlternativesTabInfo>& AlternativesTabs();
/// "learned, rope, … or table", for the scene field's doc and messages.
std::string AlternativesTabList();

/// The seed of the random q and k every RoPE tab turns (scene field rope_seed).
inline constexpr NumberControl kRopeSeed =
    Stepped(NumberControl{"rope_seed", "the seed the random q and k vectors are drawn from", 0,
                          1000000, 7, "seed", "%d", false, nullptr, "alternatives.rope_seed"},
            1, 10);

struct AlternativesPanel : Panel {
    AlternativesPanel(); ///< makes its tabs (parts)

    std::string tab = "rope"; ///< the tab shown (scene field alternatives_tab)
    // The q and k every RoPE tab turns (scene fields rope_seed, rope_typed, rope_q, rope_k):
    // seeded normal vectors of d_model values, or typed (their own even length, 2 to 64).
    int rope_seed = static_cast<int>(kRopeSeed.initial);
    bool rope_typed = false;
    std::string rope_q = "1, 0, 0.5, 0.5", rope_k = "0, 1, 1, 0";
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
        /// Every field written out (MethodRowJob::inputs).
        std::string Key() const;
    };
    /// The RoPE score at (m, n): q, k, q·k rotated, the same from m − n alone.
    struct RopePoint {
        std::vector<double> q, k;
        double score = 0, relative = 0;
    };
    /// The largest change of q·k when m and n move together by 10, 20, … (kRopeShifts scores:
    /// ~10 ms at d_model 4 096, so off the frame in the window).
    struct RopeShift {
        double change = 0;
    };
    static constexpr int kRopeShifts = 100, kRopeShiftStep = 10; ///< moved by 10 … 990
    // Computed numbers, each kept until an input it reads changes: the tabs draw them and
    // Readouts reports the same results.
    mutable Cached<RopeInputs, RopePoint> rope_point;
    mutable BackgroundCached<RopeInputs, RopeShift> rope_shift;
    /// Whether the shift change drawn is for this frame's inputs (GetForFrame).
    bool rope_shift_current = true;
    using MethodJobs = std::vector<MethodRowJob>;
    /// The side-by-side table's rows (up to ~100 ms at d 4 096: off the frame in the window).
    mutable BackgroundCached<MethodJobs, std::vector<MethodRow>> method_checks;
    /// Whether the rows drawn are for this frame's inputs (the last ones meanwhile).
    bool checks_current = true;
    /// The tabs, one per AlternativesTabs() row, in its order.
    std::vector<std::unique_ptr<AlternativesTab>> parts;
    SceneTabs tabs; ///< tab's tabs
    std::string input_error;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();
    /// Every scene field the panel reads (PanelInfo::scene_fields): the shared d_model, base,
    /// positions and pair, and the fields its tabs add (collected from AddSceneFields, so a tab
    /// added is listed without a line elsewhere).
    static std::vector<const char*> SceneFieldNames();
    std::string StatusNote(const AppState& state) const override;

    /// q and k for RoPE: the typed ones when rope_typed and they have the same length, else
    /// seeded at the shared d_model.
    std::vector<double> RopeQuery(const AppState& state) const;
    std::vector<double> RopeKey(const AppState& state) const;
    bool UsesTypedVectors() const;
    RopeInputs RopeInputsFor(const AppState& state) const;
    /// The type q, k checkbox, then the seed box or the q and k fields (a RoPE tab's controls).
    void RopeVectorControls(FrameContext& frame, FlowRow& row);
    /// q (query) or k for these inputs: the typed ones when typed and both parse with the same
    /// length, else seeded at d_model. Pure: the checks run it off the frame.
    static std::vector<double> RopeVectorFor(const RopeInputs& inputs, bool query);
    static RopePoint ComputeRopePoint(const RopeInputs& inputs);
    static RopeShift ComputeRopeShift(const RopeInputs& inputs);
    /// The RoPE numbers for this state, from their caches.
    const RopePoint& RopeAt(const AppState& state) const;
    const RopeShift& RopeShiftAt(const AppState& state) const; ///< computed now if need be

    /// The side-by-side table's jobs: sinusoidal's, then each tab's method's.
    MethodJobs MethodRowJobs(const AppState& state) const;
    /// Runs the jobs (pure: off the frame in the window).
    static std::vector<MethodRow> ComputeMethodRows(const MethodJobs& jobs);
    /// The side-by-side rows for this state, from their cache (computed now if need be).
    const std::vector<MethodRow>& MethodRows(const AppState& state) const;
};

/// The two base buttons (10 000, and Llama 3's 500 000) of the RoPE and long-context tabs;
/// record names the first.
void AlternativesBasePresets(FrameContext& frame, FlowRow& row, const char* record);

/// A tab's sentence and the two plots side by side beside it: the sentence above them, or below
/// them on a projector (frame.pictures_first puts pictures first), the plots taking the height
/// the sentence leaves (at least 9 lines). Begin draws the sentence when it goes first; End
/// when it goes last. The sentence must outlive End.
struct SentenceAndPlots {
    float height = 0, half_width = 0;
    void Begin(FrameContext& frame, const std::string& sentence, const char* record);
    void End(FrameContext& frame) const;

private:
    void Say(FrameContext& frame) const;
    const std::string* sentence_ = nullptr;
    const char* record_ = nullptr;
};

/// The height left in the tab, but at least `lines` text lines (the tab then scrolls): a plot
/// on a projector at text scale 2 stays readable.
float RemainingHeight(float lines = 10.0f);

/// Reads "1, 0, 0.5, 0.5" (commas or spaces) into values: "" or why not (an even count of 2 to
/// 64 finite numbers, each within ±1e6).
std::string ParseRopeVector(const std::string& text, std::vector<double>* values);

} // namespace pelab
