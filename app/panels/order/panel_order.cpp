#include "panels/order/panel_order.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/attention.h"
#include "pelab/encodings/embedding.h"
#include "widgets/heatmap.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace pelab {

OrderDemoOptions OrderPanel::Options(double base) const {
    OrderDemoOptions options;
    options.d_model = order_d_model;
    options.embedding = random_embeddings ? EmbeddingKind::Random : EmbeddingKind::OneHot;
    options.seed = static_cast<std::uint64_t>(embedding_seed);
    options.positional.pe_enabled = pe_enabled;
    options.positional.pe_scale = pe_scale;
    options.positional.scale_embeddings = scale_embeddings;
    options.positional.base = base;
    return options;
}

void OrderPanel::ClampSettings() {
    if (!std::isfinite(pe_scale)) pe_scale = 1.0;
    pe_scale = std::clamp(pe_scale, 0.0, kMaxPeScale);
    if (order_d_model % 2 != 0) order_d_model += 1;
    order_d_model = std::clamp(order_d_model, 2, kMaxOrderDModel);
    embedding_seed = std::max(embedding_seed, 0);
    if (order_view != "real") order_view = "toy";
    real_block = std::clamp(real_block, 1, kMaxRealBlocks);
    real_head = std::clamp(real_head, 1, kMaxRealHeads);
    real_shuffle_seed = std::max(real_shuffle_seed, 0);
    real_shift = std::clamp(real_shift, 0, kMaxRealShift);
    if (!std::isfinite(real_base_factor)) real_base_factor = kRealBaseFactor.initial;
    real_base_factor = std::clamp(real_base_factor, kMinBaseFactor, kMaxBaseFactor);
    real_nope_block = std::clamp(real_nope_block, 1, kMaxRealBlocks);
    bool known = false;
    for (const char* id : kRealSwitchIds)
        known = known || real_switch == id;
    if (!known) real_switch = "trained";
}

std::size_t SentenceWords(const std::string& sentence) {
    std::istringstream words(sentence);
    std::size_t count = 0;
    for (std::string word; words >> word;)
        ++count;
    return count;
}

std::vector<std::string> OrderPanel::SlideSceneProblems(const nlohmann::json& scene) const {
    std::vector<std::string> problems;
    for (const char* field : {"sentence_a", "sentence_b"}) {
        const auto value = scene.find(field);
        if (value == scene.end() || !value->is_string()) continue;
        if (const std::size_t words = SentenceWords(value->get<std::string>());
            words > kSlideMaxWords)
            problems.push_back(std::string(field) + " has " + std::to_string(words) +
                               " words; on a slide the order panel takes at most " +
                               std::to_string(kSlideMaxWords) +
                               ", so that its matrices stay readable");
    }
    return problems;
}

void OrderPanel::Draw(FrameContext& frame) {
    std::string shown = order_view == "real" ? "real" : "toy";
    if (!tabs.BeginBar("##order_views")) return;
    if (tabs.Tab("Toy words", "toy", &shown)) {
        if (tabs.TabInView()) frame.Record("order.tab_toy");
        DrawToy(frame);
        // The controls strip of a short window opens a scrolling body: it ends inside its tab.
        EndPanelBody(frame);
        ImGui::EndTabItem();
    }
    if (tabs.Tab("Real model", "real", &shown)) {
        if (tabs.TabInView()) frame.Record("order.tab_real");
        DrawReal(frame);
        EndPanelBody(frame);
        ImGui::EndTabItem();
    }
    tabs.EndBar();
    order_view = shown;
}

void OrderPanel::DrawToy(FrameContext& frame) {
    if (BeginControls(frame)) {
        DrawInputs(frame);
        EndControls(frame);
    }
    // On a slide the matrices must stay readable from the back: at most kSlideMaxWords words.
    if (frame.slides) {
        for (const auto& [name, sentence] :
             {std::pair{"A", &sentence_a}, std::pair{"B", &sentence_b}}) {
            const std::size_t words = SentenceWords(*sentence);
            if (words <= kSlideMaxWords) continue;
            char note[200];
            std::snprintf(note, sizeof note,
                          "On a slide the order panel takes sentences of up to %zu words, so that "
                          "its matrices stay readable; sentence %s has %zu. Shorten it, or press "
                          "F5 for the whole app.",
                          kSlideMaxWords, name, words);
            ErrorText(frame, note);
            return;
        }
    }
    const Demo* demo = nullptr;
    {
        CoreTimer core_time(frame.stats);
        demo = &DemoFor(frame.state);
    }
    if (!demo->error.empty()) {
        ErrorText(frame, demo->error.c_str());
        return;
    }
    const OrderDemoResult& result = demo->result;
    if (frame.show_controls) ImGui::Separator();
    if (frame.pictures_first) {
        // A short panel (a projector): the one-line verdict, the matrices, then the whole
        // explanation. The one line is the verdict a room reads.
        DrawHeadline(frame, result);
        frame.Record("order.verdict");
        DrawMatrices(frame, result);
        ImGui::Separator();
        DrawVerdict(frame, result);
        return;
    }
    DrawVerdict(frame, result);
    ImGui::Separator();
    DrawMatrices(frame, result);
}

void OrderPanel::DrawInputs(FrameContext& frame) {
    // In a strip (a short window) the switch comes first: it is what a room looks for.
    if (frame.controls_in_strip) DrawSettings(frame);
    DrawSentences(frame);
    if (!frame.controls_in_strip) DrawSettings(frame);
}

void OrderPanel::DrawSentences(FrameContext& frame) {
    FlowRow row;
    const float text_width = FitWidth(16.0f, "sentence A");
    row.Item(LabelledWidth(text_width, "sentence A"));
    ImGui::SetNextItemWidth(text_width);
    LimitedInputText("sentence A", &sentence_a, kMaxSentenceBytes);
    frame.Record("order.sentence_a");
    row.Item(LabelledWidth(text_width, "sentence B"));
    ImGui::SetNextItemWidth(text_width);
    LimitedInputText("sentence B", &sentence_b, kMaxSentenceBytes);
    frame.Record("order.sentence_b");
    row.Item(SmallButtonWidth("swap"));
    if (ImGui::SmallButton("swap")) std::swap(sentence_a, sentence_b);
    FormulaTooltip("Exchange sentences A and B.");
    frame.Record("order.swap");
    row.Item(HelpMarkerWidth());
    HelpMarker(kOrderWordsHelp);
    frame.Record("order.words_help");
}

void OrderPanel::DrawSettings(FrameContext& frame) {
    const float marker = FlowRow::Spacing() + HelpMarkerWidth();
    FlowRow settings;
    settings.Item(CheckboxWidth("add positional encoding"));
    ImGui::Checkbox("add positional encoding", &pe_enabled);
    frame.Record("order.pe_enabled");
    // The scale and √d are advanced settings (beginner mode hides them).
    if (frame.ShowsAdvanced(kOrderPeScale.widget)) {
        WithHelp(settings, "X = E·(√d if ticked) + scale·PE(pos). Scale 0 is the same as no PE.",
                 [&] {
                     return SceneSlider(frame, settings, kOrderPeScale, &pe_scale,
                                        FitWidth(7.0f, "PE scale") - marker);
                 });
    }
    if (frame.ShowsAdvanced("order.scale_embeddings")) {
        settings.Item(CheckboxWidth("E·√d") + marker);
        ImGui::Checkbox("E·√d", &scale_embeddings);
        frame.Record("order.scale_embeddings");
        ImGui::SameLine();
        HelpMarker("Some recipes multiply each word's embedding by √d_model before adding the "
                   "encoding, so that the word signal is not drowned by the position signal.");
    }
    int kind = random_embeddings ? 1 : 0;
    settings.Item(CheckboxWidth("one-hot words"));
    ImGui::RadioButton("one-hot words", &kind, 0);
    FormulaTooltip("Each distinct word gets its own dimension set to 1: every pair of different "
                   "words has score 0, the same word scores 1.");
    frame.Record("order.one_hot");
    settings.Item(CheckboxWidth("random words (seeded)"));
    ImGui::RadioButton("random words (seeded)", &kind, 1);
    FormulaTooltip("Each distinct word gets a vector of normally distributed numbers (the same "
                   "for the same seed): scores between different words are no longer 0.");
    frame.Record("order.random");
    random_embeddings = kind == 1;
    if (random_embeddings)
        SceneInput(frame, settings, kOrderSeed, &embedding_seed, FitWidth(6.0f, "seed"));
    WithHelp(settings,
             "Width of the word vectors in this demo (even, 2 to 64), separate from the shared "
             "d_model so that the numbers stay readable. One-hot words need at least one "
             "dimension per distinct word.",
             [&] {
                 return SceneSlider(frame, settings, kOrderDModel, &order_d_model,
                                    FitWidth(7.0f, "demo d_model") - marker);
             });
    ClampSettings();
}

namespace {
ImVec4 VerdictColour(const FrameContext& frame, const ReorderVerdict& verdict) {
    const bool distinguishable = verdict.same_multiset && !verdict.same_up_to_reordering;
    return frame.ColorVec(!verdict.same_multiset ? Role::Muted
                          : distinguishable      ? Role::Good
                                                 : Role::Warning);
}
} // namespace

void OrderPanel::DrawHeadline(FrameContext& frame, const OrderDemoResult& result) {
    ImGui::PushStyleColor(ImGuiCol_Text, VerdictColour(frame, result.verdict));
    WrappedText(OrderHeadlineText(result).c_str());
    ImGui::PopStyleColor();
    frame.Record("order.headline");
}

void OrderPanel::DrawVerdict(FrameContext& frame, const OrderDemoResult& result) {
    ImGui::PushStyleColor(ImGuiCol_Text, VerdictColour(frame, result.verdict));
    WrappedText(OrderVerdictText(result, pe_enabled).c_str());
    ImGui::PopStyleColor();
    if (!frame.pictures_first) frame.Record("order.verdict");
    frame.Record("order.explanation");
    // Beginner mode: the verdict alone; the word-by-word numbers and the re-ordering check are
    // the advanced reading (shown when a lesson points at them).
    if (!frame.ShowsAdvanced("order.first_word") && !frame.ShowsAdvanced("order.reordering_check"))
        return;
    // The published QKᵀ example: the word at position 1 is the same in both sentences, but the
    // first word differs, and so does how strongly the former attends to the latter.
    if (result.tokens_a.size() >= 2 && result.tokens_b.size() >= 2 &&
        result.tokens_a[1] == result.tokens_b[1] && result.tokens_a[0] != result.tokens_b[0]) {
        char line[256];
        std::snprintf(
            line, sizeof line, "\"%s\" → first word: %.3f (\"%s\" in A) vs %.3f (\"%s\" in B)",
            result.tokens_a[1].c_str(), result.scores_a.at(1, 0), result.tokens_a[0].c_str(),
            result.scores_b.at(1, 0), result.tokens_b[0].c_str());
        WrappedText(line);
        // Recorded right after its own line (it once followed the grey line below, and so
        // outlined that one).
        frame.Record("order.first_word");
        FormulaTooltip("Row 1, column 0 of each score matrix: x_1 · x_0. The same word at "
                       "position 1, a different word at position 0.");
        // Those two numbers differ even without positions (they pair different words); the
        // next line says what does show order.
        const std::string same_words = OrderSameWordsText(result);
        if (!same_words.empty()) {
            MutedWrappedText(same_words.c_str());
            frame.Record("order.same_words");
        }
    }
    char check[256];
    std::snprintf(check, sizeof check,
                  "Re-ordering check: attention computed on the re-ordered sentence differs from "
                  "the re-ordered attention of the original by %s (0: word order is invisible "
                  "to attention).",
                  ShownNumber(result.equivariance, 3).c_str());
    WrappedText(check);
    FormulaTooltip(
        "‖Attn(PX) − P·Attn(X)‖, with Attn(X) = softmax(XXᵀ/√d)·X and P the re-ordering that "
        "turns sentence A into B (or reverses A when B is not a re-ordering of it); positions "
        "are added after re-ordering. Without a positional encoding this is 0 up to rounding: "
        "attention is permutation-equivariant.");
    frame.Record("order.reordering_check");
}

namespace {
HeatmapStyle ThemedStyle(const FrameContext& frame) {
    HeatmapStyle style;
    style.map = {frame.Color(Role::MapNegative), frame.Color(Role::MapMiddle),
                 frame.Color(Role::MapPositive)};
    style.highlight = frame.Color(Role::Highlight);
    return style;
}
} // namespace

namespace {

// The matrices' cells: as large as the room allows (a presented panel fills the window: up to
// 20 em), at least 1.2 em (numbers still fit); smaller only when one matrix alone would not fit.
// Cells widen (up to twice their height) so that a row of matrices spans the window.
struct MatrixCells {
    float size = 0, width = 0;
};
MatrixCells FitMatrixCells(const FrameContext& frame, int blocks, int n, float label_width,
                           float gap) {
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // As many matrices per row as keep their cells at least 2.4 em wide (numbers readable).
    float fit_width = 0;
    int per_row = blocks;
    for (; per_row >= 1; --per_row) {
        fit_width = (avail.x - per_row * label_width - (per_row - 1) * gap) / (per_row * n);
        if (fit_width >= font * 2.4f || per_row == 1) break;
    }
    // Rows of matrices: the scores (and B − A), then the two softmax matrices; each row also
    // has a title and column labels (~3 em), and the colour keys below take ~3 em.
    const int matrix_rows = (blocks + per_row - 1) / per_row + (2 + per_row - 1) / per_row;
    const float fit_height = (avail.y - font * (3.0f * matrix_rows + 4.0f)) / (matrix_rows * n);
    // When the height is short the panel scrolls instead: cells stay at least 2.4 em tall
    // (1.3 em, one line of numbers, in a short window: the room sees all four matrices).
    const float least_height = font * (frame.pictures_first ? 1.3f : 2.4f);
    float cell_size = std::clamp(std::min(fit_width, std::max(fit_height, least_height)),
                                 font * 1.2f, font * 20.0f);
    cell_size = std::min(cell_size, std::max(font * 0.5f, (avail.x - label_width) / n));
    return {cell_size, std::clamp(fit_width, cell_size, cell_size * 2.0f)};
}

// The colour keys, with the ranges they stand for.
void DrawColourKeys(FrameContext& frame, const HeatmapStyle& scores_style,
                    const HeatmapStyle* difference_style, const HeatmapStyle& weights_style,
                    bool all_zero, float gap) {
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    FlowRow keys;
    const float key_width = std::min(font * 10.0f, avail.x * 0.4f);
    keys.Item(ImGui::CalcTextSize("scores:").x + FlowRow::Spacing() + key_width);
    ImGui::TextDisabled("scores:");
    ImGui::SameLine();
    ColorLegend(scores_style, key_width);
    if (difference_style != nullptr) {
        const char* label = all_zero ? "B − A (all 0):" : "B − A:";
        keys.Item(ImGui::CalcTextSize(label).x + FlowRow::Spacing() + key_width, gap);
        ImGui::TextDisabled("%s", label);
        ImGui::SameLine();
        ColorLegend(*difference_style, key_width);
    }
    // The weights have a scale of their own: 0 to 1, whatever the scores are.
    keys.Item(ImGui::CalcTextSize("weights:").x + FlowRow::Spacing() + key_width, gap);
    ImGui::TextDisabled("weights:");
    ImGui::SameLine();
    ColorLegend(weights_style, key_width);
    frame.Record("order.weights_legend");
}

} // namespace

void OrderPanel::DrawMatrices(FrameContext& frame, const OrderDemoResult& result) {
    const float font = ImGui::GetFontSize();
    const auto label_tokens = [](const std::vector<std::string>& tokens,
                                 std::vector<std::string>& labels) {
        labels.clear();
        for (std::size_t k = 0; k < tokens.size(); ++k)
            labels.push_back(std::to_string(k) + " " + tokens[k]);
    };
    label_tokens(result.tokens_a, labels_a);
    label_tokens(result.tokens_b, labels_b);
    const ReorderVerdict& verdict = result.verdict;
    const bool mark = verdict.same_multiset && !verdict.same_up_to_reordering;
    // The scores' colours span the scores shown (sequential: low → high), so that 9.00 and
    // 10.82 look different; the difference matrix is diverging around 0.
    double low = result.scores_a.values.empty() ? 0.0 : result.scores_a.values[0], high = low;
    for (const Matrix* scores : {&result.scores_a, &result.scores_b})
        for (double v : scores->values)
            low = std::min(low, v), high = std::max(high, v);
    if (high - low < 1e-9) high = low + 1.0;
    Matrix difference;
    double largest_difference = 0;
    if (verdict.same_multiset) {
        difference = reordered_difference(result.scores_a, result.scores_b, verdict.mapping);
        for (double v : difference.values)
            largest_difference = std::max(largest_difference, std::fabs(v));
    }
    const int blocks = verdict.same_multiset ? 3 : 2;
    const int n = std::max(result.scores_a.rows, result.scores_b.rows);
    const float gap = font * 1.5f;
    const float label_width = std::max(HeatmapLabelWidth(labels_a), HeatmapLabelWidth(labels_b));
    const MatrixCells cells = FitMatrixCells(frame, blocks, n, label_width, gap);
    const float cell_size = cells.size, cell_width = cells.width;
    FlowRow row;
    const auto block = [&](const char* title, const char* tooltip, const char* id,
                           const Matrix& values, const std::vector<std::string>& row_labels,
                           const std::vector<std::string>& col_labels, const HeatmapStyle& style,
                           const char* note) {
        row.Item(std::max(HeatmapWidth(row_labels, values.cols, style.cell_width),
                          ImGui::CalcTextSize(title).x),
                 gap);
        ImGui::BeginGroup();
        ImGui::TextUnformatted(title);
        FormulaTooltip(tooltip);
        AnnotatedHeatmap(id, values.values.data(), values.rows, values.cols, row_labels, col_labels,
                         style, note);
        ImGui::EndGroup();
        frame.Record((std::string("order.") + (id + 2)).c_str());
    };
    HeatmapStyle scores_style = ThemedStyle(frame);
    scores_style.cell_size = cell_size;
    scores_style.cell_width = cell_width;
    scores_style.diverging = false;
    scores_style.range_min = low;
    scores_style.range = high;
    const char* scores_tip =
        "Raw scores x_i · x_j: how strongly word i attends to word j before the softmax. Query "
        "and key projections are left out (W_Q = W_K = I), so the matrix shows exactly what the "
        "input rows X = E + PE give attention.";
    for (int side = 0; side < 2; ++side) {
        const bool is_a = side == 0;
        HeatmapStyle style = scores_style;
        style.highlight_row = mark ? (is_a ? verdict.row_a : verdict.row_b) : -1;
        style.highlight_col = mark ? (is_a ? verdict.col_a : verdict.col_b) : -1;
        block(is_a ? "A: scores QKᵀ" : "B: scores QKᵀ", scores_tip,
              is_a ? "##scores_a" : "##scores_b", is_a ? result.scores_a : result.scores_b,
              is_a ? labels_a : labels_b, is_a ? labels_a : labels_b, style,
              "score = x_row · x_col");
    }
    HeatmapStyle difference_style = ThemedStyle(frame);
    difference_style.cell_size = cell_size;
    difference_style.cell_width = cell_width;
    difference_style.range = largest_difference > 1e-12 ? largest_difference : 1.0;
    difference_style.highlight_row = mark ? verdict.row_a : -1;
    difference_style.highlight_col = mark ? verdict.col_a : -1;
    HeatmapStyle weights_style = ThemedStyle(frame);
    weights_style.cell_size = cell_size;
    weights_style.cell_width = cell_width;
    weights_style.diverging = false;
    weights_style.range_min = 0.0;
    weights_style.range = 1.0;
    const auto draw_difference = [&] {
        if (verdict.same_multiset)
            block(
                "B − A, in A's word order",
                "B's scores moved back into A's word order, minus A's scores, cell by cell. All 0: "
                "the model sees the same thing in both orders. Anything else: the positions make "
                "the orders different.",
                "##difference", difference, labels_a, labels_a, difference_style,
                "B's score for these two words minus A's");
    };
    const auto draw_weights = [&] {
        for (int side = 0; side < 2; ++side) {
            const bool is_a = side == 0;
            const HeatmapStyle& style = weights_style;
            char title[64];
            std::snprintf(title, sizeof title, "%s: softmax(QKᵀ/√%d)", is_a ? "A" : "B",
                          order_d_model);
            if (side == 0) row = FlowRow();
            block(title,
                  "Attention weights: each row is a softmax over the row's scores divided by "
                  "√d_model, so it sums to 1.",
                  is_a ? "##weights_a" : "##weights_b", is_a ? result.weights_a : result.weights_b,
                  is_a ? labels_a : labels_b, is_a ? labels_a : labels_b, style,
                  "each row sums to 1");
        }
    };
    if (frame.pictures_first) {
        // A short window: the scores, then the weights (what a room compares), then B − A.
        draw_weights();
        row = FlowRow();
        draw_difference();
    } else {
        draw_difference();
        ImGui::NewLine();
        draw_weights();
    }
    DrawColourKeys(frame, scores_style, verdict.same_multiset ? &difference_style : nullptr,
                   weights_style, largest_difference <= 1e-12, gap);
    DrawInputRows(frame, result);
}

void OrderPanel::DrawInputRows(FrameContext& frame, const OrderDemoResult& result) {
    // Under a header, closed at first: the rows are for a closer look.
    ImGui::SetNextItemOpen(x_rows_open);
    x_rows_open = ImGui::CollapsingHeader("X = E + PE rows (first dimensions)");
    if (!x_rows_open) return;
    const float font = ImGui::GetFontSize();
    FlowRow row;
    SceneSlider(frame, row, kOrderDimsShown, &x_dims_shown, font * 8, order_d_model);
    dim_labels.clear();
    for (int dim = 0; dim < x_dims_shown; ++dim)
        dim_labels.push_back("d" + std::to_string(dim));
    for (int side = 0; side < 2; ++side) {
        const Matrix& x = side == 0 ? result.x_a : result.x_b;
        std::vector<double> shown;
        for (int r = 0; r < x.rows; ++r)
            shown.insert(shown.end(), x.row(r), x.row(r) + x_dims_shown);
        ImGui::Text("sentence %s", side == 0 ? "A" : "B");
        HeatmapStyle style = ThemedStyle(frame);
        style.range = 2.0;
        style.cell_size = font * 3.0f;
        AnnotatedHeatmap(side == 0 ? "##x_a" : "##x_b", shown.data(), x.rows, x_dims_shown,
                         side == 0 ? labels_a : labels_b, dim_labels, style, "x = embedding + PE");
    }
}

OrderPanel::Demo OrderPanel::ComputeDemo(const DemoInputs& inputs) {
    Demo demo;
    try {
        demo.result = run_order_demo(inputs.sentence_a, inputs.sentence_b, inputs.options);
    } catch (const InvalidArgument& e) {
        demo.error = e.what();
    }
    return demo;
}

const OrderPanel::Demo& OrderPanel::DemoFor(const AppState& state) const {
    return demo_cache.Get(DemoInputs{sentence_a, sentence_b, Options(state.base)}, ComputeDemo);
}

} // namespace pelab
