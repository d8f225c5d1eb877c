// alternatives_alibi.cpp — the alternatives panel's ALiBi tab: each head's slope, its bias
// −m·|i − j| on the scores, and how it breaks the order demo's word-order tie.
#include "panels/alternatives/alternatives_alibi.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/attention.h"
#include "pelab/encodings/embedding.h"

namespace pelab {

namespace {

constexpr int kAlibiTokens = 12; ///< the bias matrix drawn: 12 × 12 tokens

std::string CheckSentence(const std::string& text) {
    try {
        tokenize(text);
        return "";
    } catch (const InvalidArgument& error) {
        return error.what();
    }
}

} // namespace

namespace {

// scores + bias (−m·|i − j|, masked above the diagonal when causal).
Matrix WithAlibi(Matrix scores, double slope, bool causal) {
    for (int i = 0; i < scores.rows; ++i)
        for (int j = 0; j < scores.cols; ++j)
            scores.at(i, j) += alibi_bias(slope, i, j, causal);
    return scores;
}

} // namespace

AlibiTie AlibiBreaksTie(const std::string& sentence_a, const std::string& sentence_b,
                        double slope) {
    AlibiTie tie;
    try {
        OrderDemoOptions options;
        options.positional.pe_enabled = false;
        options.d_model = kMaxSentenceTokens; // one-hot room for any sentence the field accepts
        const OrderDemoResult demo = run_order_demo(sentence_a, sentence_b, options);
        tie.same_words = demo.verdict.same_multiset;
        tie.without_bias = demo.verdict.max_difference;
        const auto difference = [&](const Matrix& a, const Matrix& b) {
            return compare_orderings(demo.tokens_a, demo.tokens_b, a, b);
        };
        const ReorderVerdict biased = difference(WithAlibi(demo.scores_a, slope, false),
                                                 WithAlibi(demo.scores_b, slope, false));
        tie.with_bias = biased.max_difference;
        tie.distances_kept = tie.same_words;
        const std::vector<int>& map = biased.mapping;
        for (std::size_t j = 0; tie.same_words && j < map.size(); ++j)
            for (std::size_t k = 0; k < map.size(); ++k)
                if (std::abs(map[j] - map[k]) !=
                    std::abs(static_cast<int>(j) - static_cast<int>(k)))
                    tie.distances_kept = false;
        // As ALiBi (Press et al., 2022) defines it: the bias is added to the already scaled
        // scores, softmax(q·kᵀ/√d + m·(j − i)), so it is not divided by √d.
        const double scale = 1 / std::sqrt(static_cast<double>(options.d_model));
        const auto weights = [&](const Matrix& scores, double head_slope) {
            Matrix scaled = scores;
            for (double& value : scaled.values)
                value *= scale;
            return softmax_rows(WithAlibi(std::move(scaled), head_slope, true), 1.0);
        };
        tie.causal_mask_only =
            difference(weights(demo.scores_a, 0), weights(demo.scores_b, 0)).max_difference;
        tie.causal_with_bias =
            difference(weights(demo.scores_a, slope), weights(demo.scores_b, slope)).max_difference;
    } catch (const InvalidArgument& error) {
        tie.error = error.what();
    }
    return tie;
}

namespace {

constexpr NumberControl kAlibiHeads{"alibi_heads",
                                    "how many heads ALiBi's slopes are shared out to",
                                    1,
                                    64,
                                    8,
                                    "heads H",
                                    "%d",
                                    false,
                                    "H heads get the slopes 2^(−8h/H), h = 1 … H (for a power of "
                                    "two).",
                                    "alternatives.alibi_heads"};
// The head's upper bound is the heads shown (SceneSlider's most; the scene field checks it
// against alibi_heads).
constexpr NumberControl kAlibiHead{"alibi_head",
                                   "the head whose bias matrix is drawn",
                                   1,
                                   64,
                                   1,
                                   "head h",
                                   "%d",
                                   false,
                                   nullptr,
                                   "alternatives.alibi_head"};

struct AlibiTab final : AlternativesTab {
    int alibi_heads = static_cast<int>(kAlibiHeads.initial);
    int alibi_head = static_cast<int>(kAlibiHead.initial); ///< 1 … heads
    bool alibi_causal = true;
    std::string alibi_sentence_a = "dog bites man", alibi_sentence_b = "man bites dog";

    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    /// The heads, the head shown, the mask and the two sentences.
    void DrawControls(AlternativesPanel& panel, FrameContext& frame);
    /// The head's bias matrix, as large as the room allows; returns its side.
    float DrawBiasMatrix(FrameContext& frame, const std::vector<double>& slopes, double slope);
    /// Whether the bias breaks the order demo's tie between the two sentences.
    void DrawTie(FrameContext& frame, double slope);
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

void AlibiTab::DrawControls(AlternativesPanel& panel, FrameContext& frame) {
    FlowRow row;
    const float slider = FitWidth(7.0f, "heads H");
    SceneSlider(frame, row, kAlibiHeads, &alibi_heads, slider);
    SceneSlider(frame, row, kAlibiHead, &alibi_head, slider, alibi_heads);
    row.Item(CheckboxWidth("causal mask"));
    ImGui::Checkbox("causal mask", &alibi_causal);
    frame.Record("alternatives.alibi_causal");
    const float text = FitWidth(10.0f, "sentence B");
    for (int which = 0; which < 2; ++which) {
        const char* label = which == 0 ? "sentence A" : "sentence B";
        std::string& sentence = which == 0 ? alibi_sentence_a : alibi_sentence_b;
        row.Item(LabelledWidth(text, label));
        ImGui::SetNextItemWidth(text);
        std::string edited = sentence;
        if (LimitedInputText(label, &edited, kMaxSentenceBytes)) {
            const std::string why = CheckSentence(edited);
            if (why.empty())
                sentence = edited, panel.input_error.clear();
            else
                panel.input_error = std::string(label) + " not used: " + why;
        }
        frame.Record(which == 0 ? "alternatives.alibi_a" : "alternatives.alibi_b");
    }
    EndControls(frame);
}

void AlibiTab::Draw(AlternativesPanel& panel, FrameContext& frame) {
    if (BeginControls(frame)) DrawControls(panel, frame);
    alibi_heads = ClampToControl(kAlibiHeads, alibi_heads);
    alibi_head = ClampToControl(kAlibiHead, alibi_head, alibi_heads);
    const std::vector<double> slopes = alibi_slopes(alibi_heads);
    const double slope = slopes[alibi_head - 1];
    std::string list;
    for (int h = 0; h < alibi_heads && h < 12; ++h) {
        char value[32];
        std::snprintf(value, sizeof value, "%s%s", h ? ", " : "", ShownNumber(slopes[h]).c_str());
        list += value;
    }
    if (alibi_heads > 12) list += ", …";
    char line[640];
    const bool power_of_two = (alibi_heads & (alibi_heads - 1)) == 0;
    std::snprintf(line, sizeof line,
                  "ALiBi adds −m_h·|i − j| to the score of query i and key j: no vector is "
                  "added to the input. %s slopes for H = %d: %s. Head %d (m = %s) is drawn "
                  "below%s. The paper fixes the slopes; the training lab's alibi_learned "
                  "trains one per head, starting from these.",
                  power_of_two ? "The geometric"
                               : "Not a power of two, so the reference code's "
                                 "mix of two geometric series gives the",
                  alibi_heads, list.c_str(), alibi_head, ShownNumber(slope, 4).c_str(),
                  alibi_causal ? "; keys after the query are masked (the model is causal)" : "");
    WrappedText(line);
    frame.Record("alternatives.alibi_slopes");
    const float avail_x = ImGui::GetContentRegionAvail().x;
    const float side = DrawBiasMatrix(frame, slopes, slope);
    // Beside the matrix when the window is wide enough, else below it.
    const bool beside = avail_x - side > ImGui::GetFontSize() * 18;
    if (beside) {
        ImGui::SameLine();
        ImGui::BeginGroup();
    }
    DrawTie(frame, slope);
    if (beside) ImGui::EndGroup();
}

float AlibiTab::DrawBiasMatrix(FrameContext& frame, const std::vector<double>& slopes,
                               double slope) {
    // The bias matrix of the head: darker the further apart, masked cells hatched grey.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float font = ImGui::GetFontSize();
    // Fill the room below; when the window is short (a projector at text scale 2), take half
    // the width and let the tab scroll, so that the cells keep their numbers. Not on a slide:
    // there the matrix stays within the room below, and the step is drawn smaller until it
    // fits whole (FitStepToRoom).
    const float below = avail.y - font * 1.5f;
    const float room =
        below > font * 14 || frame.slides ? std::min(avail.x, below) : avail.x * 0.55f;
    const float cell = std::max(font * 1.6f, room / (kAlibiTokens + 1));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const plot::DivergingMap map{frame.Color(Role::MapNegative), frame.Color(Role::MapMiddle),
                                 frame.Color(Role::MapPositive)};
    // Colours on head 1's scale (the steepest), so that a gentle head looks pale.
    const double most = slopes[0] * (kAlibiTokens - 1);
    // Every cell's number at one size: the widest fits its cell (down to 0.6 of the text size;
    // below that none is drawn and hovering gives them). A number missing from some cells only
    // would read as "no penalty" there.
    const auto cell_text = [&](double bias, char* out, std::size_t size) {
        std::snprintf(out, size, "%.3g", bias == 0 ? 0.0 : bias);
    };
    float widest = 0;
    for (int i = 0; i < kAlibiTokens; ++i)
        for (int j = 0; j < kAlibiTokens; ++j) {
            const double bias = alibi_bias(slope, i, j, alibi_causal);
            if (std::isinf(bias)) continue;
            char value[16];
            cell_text(bias, value, sizeof value);
            widest = std::max(widest, ImGui::CalcTextSize(value).x);
        }
    const float number_size =
        widest > 0 ? std::min(font, font * (cell - font * 0.3f) / widest) : font;
    for (int i = 0; i < kAlibiTokens; ++i) {
        char label[8];
        std::snprintf(label, sizeof label, "%d", i);
        draw->AddText(ImVec2(origin.x + font * 0.2f, origin.y + cell * (i + 1) + (cell - font) / 2),
                      ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
        draw->AddText(ImVec2(origin.x + cell * (i + 1) + (cell - ImGui::CalcTextSize(label).x) / 2,
                             origin.y + (cell - font) / 2),
                      ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
        for (int j = 0; j < kAlibiTokens; ++j) {
            const double bias = alibi_bias(slope, i, j, alibi_causal);
            const ImVec2 a(origin.x + cell * (j + 1), origin.y + cell * (i + 1));
            const ImVec2 b(a.x + cell - 1, a.y + cell - 1);
            if (std::isinf(bias)) {
                draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
                draw->AddLine(a, b, ImGui::GetColorU32(ImGuiCol_TextDisabled));
                continue;
            }
            const float t = most > 0 ? static_cast<float>(-bias / most) : 0.0f;
            const ImU32 colour = plot::Diverging(-t, map);
            draw->AddRectFilled(a, b, colour);
            char value[16];
            cell_text(bias, value, sizeof value);
            if (number_size >= font * 0.6f) {
                const float width = ImGui::CalcTextSize(value).x * number_size / font;
                draw->AddText(ImGui::GetFont(), number_size,
                              ImVec2(a.x + (cell - width) / 2, a.y + (cell - number_size) / 2),
                              plot::TextColorOn(colour), value);
            }
        }
    }
    ImGui::Dummy(ImVec2(cell * (kAlibiTokens + 1), cell * (kAlibiTokens + 1)));
    frame.Record("alternatives.alibi_matrix");
    if (ImGui::IsItemHovered()) {
        const ImVec2 mouse = ImGui::GetMousePos();
        const int j = static_cast<int>((mouse.x - origin.x) / cell) - 1;
        const int i = static_cast<int>((mouse.y - origin.y) / cell) - 1;
        if (i >= 0 && j >= 0 && i < kAlibiTokens && j < kAlibiTokens) {
            const double bias = alibi_bias(slope, i, j, alibi_causal);
            if (std::isinf(bias))
                Tooltip("query %d, key %d: masked (a later key)", i, j);
            else
                Tooltip("query %d, key %d: −%.4g·|%d − %d| = %.4g", i, j, slope, i, j, bias);
        }
    }
    return cell * (kAlibiTokens + 1);
}

void AlibiTab::DrawTie(FrameContext& frame, double slope) {
    char line[640];
    const AlibiTie tie = AlibiBreaksTie(alibi_sentence_a, alibi_sentence_b, slope);
    if (!tie.error.empty()) {
        ErrorText(frame, tie.error.c_str());
    } else if (!tie.same_words) {
        MutedWrappedText("The two sentences do not hold the same words, so there is no tie to "
                         "break: write B as a re-ordering of A.");
    } else {
        std::snprintf(line, sizeof line,
                      "Order demo, PE off: \"%s\" and \"%s\" score the same up to re-ordering "
                      "(largest difference %s). With head %d's bias −m·|i − j| added to every "
                      "score (no mask, for this check): %s. %s",
                      alibi_sentence_a.c_str(), alibi_sentence_b.c_str(),
                      ShownNumber(tie.without_bias, 3).c_str(), alibi_head,
                      ShownNumber(tie.with_bias, 3).c_str(),
                      tie.distances_kept
                          ? "Every pair of words is as far apart in B as in A, and the bias sees "
                            "only distance, so the tie stays."
                      : tie.with_bias > 1e-9 ? "The bias alone breaks the tie."
                                             : "Still a tie.");
        ImGui::PushStyleColor(ImGuiCol_Text,
                              frame.ColorVec(tie.with_bias > 1e-9 ? Role::Good : Role::Warning));
        WrappedText(line);
        ImGui::PopStyleColor();
        std::snprintf(line, sizeof line,
                      "Causal, as ALiBi models run: the attention weights differ by %s after "
                      "re-ordering with the mask and the bias (%s with the mask alone: a "
                      "causal model sees order through its mask too).",
                      ShownNumber(tie.causal_with_bias, 3).c_str(),
                      ShownNumber(tie.causal_mask_only, 3).c_str());
        ImGui::PushStyleColor(
            ImGuiCol_Text,
            frame.ColorVec(tie.causal_with_bias > 1e-9 ? Role::Good : Role::Warning));
        WrappedText(line);
        ImGui::PopStyleColor();
    }
    frame.Record("alternatives.alibi_tie");
}

void AlibiTab::AddFields(SceneTable& table) {
    table.Integer(kAlibiHeads, &alibi_heads);
    // The head must exist: its range is the scene's alibi_heads (or the current one).
    table.Add(
        {kAlibiHead.field, "integer in [1, alibi_heads]: the head drawn",
         [this](const nlohmann::json& value, const nlohmann::json& doc) -> std::function<void()> {
             int heads = alibi_heads;
             if (doc.contains(kAlibiHeads.field))
                 heads = SceneInteger(doc[kAlibiHeads.field], static_cast<int>(kAlibiHeads.min),
                                      static_cast<int>(kAlibiHeads.max));
             const int head = SceneInteger(value, static_cast<int>(kAlibiHead.min), heads);
             return [this, head] { alibi_head = head; };
         },
         [this] { return nlohmann::json(alibi_head); }});
    table.Bool("alibi_causal", "mask keys after the query", &alibi_causal);
    table.Text("alibi_sentence_a", "text, valid UTF-8, 1 to 32 words: sentence A of the ALiBi tie",
               &alibi_sentence_a, CheckSentence);
    table.Text("alibi_sentence_b", "text, valid UTF-8, 1 to 32 words: sentence B of the ALiBi tie",
               &alibi_sentence_b, CheckSentence);
}

nlohmann::json AlibiTab::Readouts(const AlternativesPanel& /*panel*/,
                                  const AppState& /*state*/) const {
    const int head = ClampToControl(kAlibiHead, alibi_head, alibi_heads);
    const std::vector<double> slopes = alibi_slopes(alibi_heads);
    const AlibiTie tie = AlibiBreaksTie(alibi_sentence_a, alibi_sentence_b, slopes[head - 1]);
    return {{"alibi",
             {{"heads", alibi_heads},
              {"slopes", slopes},
              {"head", head},
              {"tie_without_bias", tie.without_bias},
              {"tie_with_bias", tie.with_bias},
              {"distances_kept", tie.distances_kept},
              {"causal_mask_only", tie.causal_mask_only},
              {"causal_with_bias", tie.causal_with_bias}}}};
}

std::optional<MethodRowJob> AlibiTab::RowJob(const AlternativesPanel& /*panel*/,
                                             const AppState& /*state*/) const {
    // Reads nothing the user sets: the bias of keys 3 and 9 at slope 0.5, moved together by
    // 1 … 999.
    return MethodRowJob{
        "", [] {
            double change = 0;
            for (int s = 1; s < 1000; ++s)
                change = std::max(change, std::abs(alibi_bias(0.5, 3 + s, 9 + s, false) -
                                                   alibi_bias(0.5, 3, 9, false)));
            const bool relative = change == 0;
            return MethodRow{{"ALiBi", "BLOOM, MPT", "a bias added to each attention score", "0",
                              "defined at any distance: the penalty keeps growing linearly",
                              (relative ? "yes, −m·|i − j|: change " : "no: the bias changes by ") +
                                  ShownNumber(change, 2)},
                             relative ? Verdict::Yes : Verdict::No,
                             change,
                             "alibi"};
        }};
}

std::vector<WidgetName> AlibiTab::Widgets() const {
    return {
        {"alternatives.alibi_a", "the sentence A text box: the words the order demo starts from"},
        {"alternatives.alibi_b", "the sentence B text box: sentence A's words in another order"},
        {"alternatives.alibi_causal",
         "the causal mask checkbox: hides keys that come after the query"},
        ControlWidget(kAlibiHead),
        ControlWidget(kAlibiHeads),
        {"alternatives.alibi_matrix",
         "the 12 by 12 grid of ALiBi biases, query rows against key columns",
         {"alibi"}},
        {"alternatives.alibi_slopes", "the paragraph listing the heads' ALiBi slopes m", {"alibi"}},
        {"alternatives.alibi_tie",
         "the order demo text: does the bias tell sentence A from B",
         {"alibi"}},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeAlibiTab() {
    return std::make_unique<AlibiTab>();
}

} // namespace pelab
