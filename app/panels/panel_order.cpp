#include "panel_order.h"

#include "heatmap.h"
#include "pelab/attention.h"
#include "pelab/embedding.h"
#include "pelab/error.h"
#include "scene.h"
#include "widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

std::string OrderVerdictText(const OrderDemoResult& result, bool pe_enabled) {
    const ReorderVerdict& v = result.verdict;
    char text[512];
    if (!v.same_multiset) {
        std::snprintf(text, sizeof text,
                      "The two sentences are not re-orderings of each other (their words differ), "
                      "so their score matrices cannot be matched cell by cell.");
    } else if (v.same_up_to_reordering) {
        std::snprintf(
            text, sizeof text,
            "Identical up to re-ordering: B's scores are A's scores with rows and columns "
            "shuffled (largest difference after re-ordering: %.3g). %s",
            v.max_difference,
            pe_enabled ? "The encoding is too weak here to break the tie."
                       : "Without positions, the model cannot tell the two orders apart.");
    } else {
        const std::string& row_word = result.tokens_b[v.row_b];
        const std::string& col_word = result.tokens_b[v.col_b];
        std::snprintf(
            text, sizeof text,
            "Different: after matching the words, the largest difference is %.3f, for "
            "\"%s\" attending to \"%s\": %.3f in A (row %d, column %d) vs %.3f in B (row %d, "
            "column %d). The positions make the two orders distinguishable.",
            v.max_difference, row_word.c_str(), col_word.c_str(),
            result.scores_a.at(v.row_a, v.col_a), v.row_a, v.col_a,
            result.scores_b.at(v.row_b, v.col_b), v.row_b, v.col_b);
    }
    return text;
}

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
}

void OrderPanel::Draw(FrameContext& frame) {
    DrawInputs(frame);
    OrderDemoResult result;
    try {
        CoreTimer core_time(frame.stats);
        result = run_order_demo(sentence_a, sentence_b, Options(frame.state.base));
    } catch (const InvalidArgument& e) {
        ErrorText(frame, e.what());
        return;
    }
    ImGui::Separator();
    DrawVerdict(frame, result);
    ImGui::Separator();
    DrawMatrices(frame, result);
}

void OrderPanel::DrawInputs(FrameContext& frame) {
    const float font = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(font * 16);
    ImGui::InputText("sentence A", &sentence_a);
    frame.Record("order.sentence_a");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(font * 16);
    ImGui::InputText("sentence B", &sentence_b);
    frame.Record("order.sentence_b");
    ImGui::SameLine();
    if (ImGui::SmallButton("swap")) std::swap(sentence_a, sentence_b);
    ImGui::Checkbox("add positional encoding", &pe_enabled);
    frame.Record("order.pe_enabled");
    ImGui::SameLine();
    const double zero = 0.0, max_scale = 10.0;
    ImGui::SetNextItemWidth(font * 7);
    ImGui::SliderScalar("PE scale", ImGuiDataType_Double, &pe_scale, &zero, &max_scale, "%.2f");
    ImGui::SameLine();
    HelpMarker("X = E·(√d if ticked) + scale·PE(pos). Scale 0 is the same as no PE.");
    ImGui::SameLine();
    ImGui::Checkbox("E·√d", &scale_embeddings);
    ImGui::SameLine();
    HelpMarker("Document 003's recipe multiplies the embeddings by √d_model before adding PE, so "
               "that the word signal is not drowned by the position signal.");
    int kind = random_embeddings ? 1 : 0;
    ImGui::RadioButton("one-hot embeddings", &kind, 0);
    ImGui::SameLine();
    ImGui::RadioButton("random (seeded)", &kind, 1);
    random_embeddings = kind == 1;
    if (random_embeddings) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(font * 6);
        ImGui::InputInt("seed", &embedding_seed);
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(font * 7);
    if (ImGui::SliderInt("demo d_model", &order_d_model, 2, kMaxOrderDModel))
        order_d_model += order_d_model % 2;
    ImGui::SameLine();
    HelpMarker("Width of the embeddings in this demo (even, 2 to 64). One-hot embeddings need at "
               "least one dimension per distinct word. Small widths keep the numbers readable.");
    ClampSettings();
}

void OrderPanel::DrawVerdict(FrameContext& frame, const OrderDemoResult& result) {
    const bool distinguishable =
        result.verdict.same_multiset && !result.verdict.same_up_to_reordering;
    const ImVec4 colour = frame.ColorVec(!result.verdict.same_multiset ? Role::Muted
                                         : distinguishable             ? Role::Good
                                                                       : Role::Warning);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    WrappedText(OrderVerdictText(result, pe_enabled).c_str());
    ImGui::PopStyleColor();
    // Document 002's example: the word at position 1 is the same in both sentences, but the
    // first word differs, and so does how strongly the former attends to the latter.
    if (result.tokens_a.size() >= 2 && result.tokens_b.size() >= 2 &&
        result.tokens_a[1] == result.tokens_b[1] && result.tokens_a[0] != result.tokens_b[0]) {
        ImGui::Text("\"%s\" → first word: %.3f (\"%s\" in A) vs %.3f (\"%s\" in B)",
                    result.tokens_a[1].c_str(), result.scores_a.at(1, 0),
                    result.tokens_a[0].c_str(), result.scores_b.at(1, 0),
                    result.tokens_b[0].c_str());
        FormulaTooltip("Row 1, column 0 of each QKᵀ matrix: x_1 · x_0. Same word at position 1, a "
                       "different word at position 0.");
    }
    ImGui::Text("Permutation check ‖Attn(PX) − P·Attn(X)‖ = %.3g", result.equivariance);
    FormulaTooltip(
        "Attn(X) = softmax(XXᵀ/√d)·X. P re-orders the tokens of sentence A (into B's order "
        "when B is a re-ordering, else reversed); positions are added after re-ordering. "
        "Without PE this is 0 up to rounding: attention is permutation-equivariant.");
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
    double largest = 1e-12;
    for (double v : result.scores_a.values)
        largest = std::max(largest, std::fabs(v));
    for (double v : result.scores_b.values)
        largest = std::max(largest, std::fabs(v));
    const bool mark = result.verdict.same_multiset && !result.verdict.same_up_to_reordering;
    // Cells as large as 3.4 em, smaller when the half-width column cannot hold them.
    std::size_t longest_label = 0;
    for (const auto* labels : {&labels_a, &labels_b})
        for (const std::string& label : *labels)
            longest_label = std::max(longest_label, label.size());
    const int columns = std::max(result.scores_a.cols, result.scores_b.cols);
    const float column_width =
        ImGui::GetContentRegionAvail().x * 0.5f - font * (0.6f * longest_label + 1.0f);
    const float cell_size =
        std::clamp(column_width / std::max(columns, 1), font * 1.2f, font * 3.4f);
    if (ImGui::BeginTable("##scores", 2, ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextRow();
        for (int side = 0; side < 2; ++side) {
            ImGui::TableSetColumnIndex(side);
            const bool is_a = side == 0;
            const OrderDemoResult& r = result;
            ImGui::Text("%s: QKᵀ scores", is_a ? "A" : "B");
            FormulaTooltip(
                "Raw scores x_i · x_j with W_Q = W_K = I (no learned projection), so the "
                "matrix shows exactly what the input rows X = E + PE give attention.");
            HeatmapStyle style = ThemedStyle(frame);
            style.cell_size = cell_size;
            style.range = largest;
            style.highlight_row = mark ? (is_a ? r.verdict.row_a : r.verdict.row_b) : -1;
            style.highlight_col = mark ? (is_a ? r.verdict.col_a : r.verdict.col_b) : -1;
            const Matrix& scores = is_a ? r.scores_a : r.scores_b;
            const std::vector<std::string>& labels = is_a ? labels_a : labels_b;
            AnnotatedHeatmap(is_a ? "##scores_a" : "##scores_b", scores.values.data(), scores.rows,
                             scores.cols, labels, labels, style, "score = x_row · x_col");
        }
        ImGui::TableNextRow();
        for (int side = 0; side < 2; ++side) {
            ImGui::TableSetColumnIndex(side);
            const bool is_a = side == 0;
            ImGui::Text("%s: softmax(QKᵀ/√%d)", is_a ? "A" : "B", order_d_model);
            FormulaTooltip(
                "Attention weights: each row is a softmax over the row's scores divided by "
                "√d_model, so it sums to 1.");
            HeatmapStyle style = ThemedStyle(frame);
            style.cell_size = cell_size;
            style.diverging = false;
            style.range = 1.0;
            const Matrix& weights = is_a ? result.weights_a : result.weights_b;
            const std::vector<std::string>& labels = is_a ? labels_a : labels_b;
            AnnotatedHeatmap(is_a ? "##weights_a" : "##weights_b", weights.values.data(),
                             weights.rows, weights.cols, labels, labels, style,
                             "each row sums to 1");
        }
        ImGui::EndTable();
    }
    HeatmapStyle legend = ThemedStyle(frame);
    legend.range = largest;
    ImGui::TextDisabled("score colours:");
    ImGui::SameLine();
    ColorLegend(legend, font * 12);
    if (ImGui::CollapsingHeader("X = E + PE rows (first dimensions)")) {
        ImGui::SetNextItemWidth(font * 8);
        ImGui::SliderInt("dims shown", &x_dims_shown, 2, order_d_model);
        x_dims_shown = std::clamp(x_dims_shown, 2, order_d_model);
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
                             side == 0 ? labels_a : labels_b, dim_labels, style,
                             "x = embedding + PE");
        }
    }
}

} // namespace pelab

namespace pelab {

void OrderPanel::AddSceneFields(SceneTable& table) {
    table.Bool("pe_enabled", "bool: order demo adds the positional encoding", &pe_enabled);
    table.Number("pe_scale", "number in [0, 100]: order demo, X = E + pe_scale·PE", &pe_scale, 0.0,
                 kMaxPeScale);
    const auto check_sentence = [](const std::string& text) {
        try {
            tokenize(text);
        } catch (const InvalidArgument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    table.Text("sentence_a", "text, valid UTF-8, 1 to 32 words: order demo sentence A", &sentence_a,
               check_sentence);
    table.Text("sentence_b", "text, valid UTF-8, 1 to 32 words: order demo sentence B", &sentence_b,
               check_sentence);
    table.Bool("scale_embeddings", "bool: order demo multiplies embeddings by √d",
               &scale_embeddings);
    table.Integer("order_d_model", "even integer in [2, 64]: order demo width", &order_d_model, 2,
                  kMaxOrderDModel, true);
    table.Bool("random_embeddings", "bool: order demo uses seeded random embeddings, not one-hot",
               &random_embeddings);
    table.Integer("embedding_seed", "integer in [0, 2147483647]: order demo random seed",
                  &embedding_seed, 0, 2147483647);
}

nlohmann::json OrderPanel::Readouts(const AppState& state) const {
    try {
        const OrderDemoResult r = run_order_demo(sentence_a, sentence_b, Options(state.base));
        return {{"tokens_a", r.tokens_a},
                {"tokens_b", r.tokens_b},
                {"same_multiset", r.verdict.same_multiset},
                {"same_up_to_reordering", r.verdict.same_up_to_reordering},
                {"max_reorder_diff", r.verdict.max_difference},
                {"equivariance_residual", r.equivariance},
                {"verdict", OrderVerdictText(r, pe_enabled)}};
    } catch (const InvalidArgument& e) {
        return {{"error", e.what()}};
    }
}

} // namespace pelab
