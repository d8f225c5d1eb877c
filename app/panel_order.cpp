#include "panel_order.h"

#include "heatmap.h"
#include "pelab/attention.h"
#include "pelab/error.h"
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

void OrderPanel::Draw(const char* title, bool* p_open, AppState& state) {
    QuadrantPlacement(3, state.arrange_panels);
    if (!ImGui::Begin(title, p_open)) {
        ImGui::End();
        return;
    }
    DrawInputs(state);
    OrderDemoOptions options;
    options.d_model = state.order_d_model;
    options.embedding = state.random_embeddings ? EmbeddingKind::Random : EmbeddingKind::OneHot;
    options.seed = static_cast<std::uint64_t>(state.embedding_seed);
    options.positional.pe_enabled = state.pe_enabled;
    options.positional.pe_scale = state.pe_scale;
    options.positional.scale_embeddings = state.scale_embeddings;
    options.positional.base = state.base;
    OrderDemoResult result;
    try {
        CoreTimer core_time(state);
        result = run_order_demo(state.sentence_a, state.sentence_b, options);
    } catch (const InvalidArgument& e) {
        ErrorText(e.what());
        ImGui::End();
        return;
    }
    ImGui::Separator();
    DrawVerdict(state, result);
    ImGui::Separator();
    DrawMatrices(state, result);
    ImGui::End();
}

void OrderPanel::DrawInputs(AppState& state) {
    const float font = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(font * 16);
    ImGui::InputText("sentence A", &state.sentence_a);
    RecordWidget(state, "order.sentence_a");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(font * 16);
    ImGui::InputText("sentence B", &state.sentence_b);
    RecordWidget(state, "order.sentence_b");
    ImGui::SameLine();
    if (ImGui::SmallButton("swap")) std::swap(state.sentence_a, state.sentence_b);
    ImGui::Checkbox("add positional encoding", &state.pe_enabled);
    RecordWidget(state, "order.pe_enabled");
    ImGui::SameLine();
    const double zero = 0.0, max_scale = 10.0;
    ImGui::SetNextItemWidth(font * 7);
    ImGui::SliderScalar("PE scale", ImGuiDataType_Double, &state.pe_scale, &zero, &max_scale,
                        "%.2f");
    ImGui::SameLine();
    HelpMarker("X = E·(√d if ticked) + scale·PE(pos). Scale 0 is the same as no PE.");
    ImGui::SameLine();
    ImGui::Checkbox("E·√d", &state.scale_embeddings);
    ImGui::SameLine();
    HelpMarker("Document 003's recipe multiplies the embeddings by √d_model before adding PE, so "
               "that the word signal is not drowned by the position signal.");
    int kind = state.random_embeddings ? 1 : 0;
    ImGui::RadioButton("one-hot embeddings", &kind, 0);
    ImGui::SameLine();
    ImGui::RadioButton("random (seeded)", &kind, 1);
    state.random_embeddings = kind == 1;
    if (state.random_embeddings) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(font * 6);
        ImGui::InputInt("seed", &state.embedding_seed);
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(font * 7);
    if (ImGui::SliderInt("demo d_model", &state.order_d_model, 2, kUiMaxOrderDModel))
        state.order_d_model += state.order_d_model % 2;
    ImGui::SameLine();
    HelpMarker("Width of the embeddings in this demo (even, 2 to 64). One-hot embeddings need at "
               "least one dimension per distinct word. Small widths keep the numbers readable.");
    state.Clamp();
}

void OrderPanel::DrawVerdict(const AppState& state, const OrderDemoResult& result) {
    const bool distinguishable =
        result.verdict.same_multiset && !result.verdict.same_up_to_reordering;
    const ImVec4 colour = !result.verdict.same_multiset ? ImVec4(0.7f, 0.7f, 0.7f, 1.0f)
                          : distinguishable             ? ImVec4(0.0f, 0.62f, 0.45f, 1.0f)
                                                        : ImVec4(0.95f, 0.6f, 0.0f, 1.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(OrderVerdictText(result, state.pe_enabled).c_str());
    ImGui::PopTextWrapPos();
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

void OrderPanel::DrawMatrices(const AppState& state, const OrderDemoResult& result) {
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
            HeatmapStyle style;
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
            ImGui::Text("%s: softmax(QKᵀ/√%d)", is_a ? "A" : "B", state.order_d_model);
            FormulaTooltip(
                "Attention weights: each row is a softmax over the row's scores divided by "
                "√d_model, so it sums to 1.");
            HeatmapStyle style;
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
    HeatmapStyle legend;
    legend.range = largest;
    ImGui::TextDisabled("score colours:");
    ImGui::SameLine();
    ColorLegend(legend, font * 12);
    if (ImGui::CollapsingHeader("X = E + PE rows (first dimensions)")) {
        ImGui::SetNextItemWidth(font * 8);
        ImGui::SliderInt("dims shown", &x_dims_shown, 2, state.order_d_model);
        x_dims_shown = std::clamp(x_dims_shown, 2, state.order_d_model);
        dim_labels.clear();
        for (int dim = 0; dim < x_dims_shown; ++dim)
            dim_labels.push_back("d" + std::to_string(dim));
        for (int side = 0; side < 2; ++side) {
            const Matrix& x = side == 0 ? result.x_a : result.x_b;
            std::vector<double> shown;
            for (int r = 0; r < x.rows; ++r)
                shown.insert(shown.end(), x.row(r), x.row(r) + x_dims_shown);
            ImGui::Text("sentence %s", side == 0 ? "A" : "B");
            HeatmapStyle style;
            style.range = 2.0;
            style.cell_size = font * 3.0f;
            AnnotatedHeatmap(side == 0 ? "##x_a" : "##x_b", shown.data(), x.rows, x_dims_shown,
                             side == 0 ? labels_a : labels_b, dim_labels, style,
                             "x = embedding + PE");
        }
    }
}

} // namespace pelab
