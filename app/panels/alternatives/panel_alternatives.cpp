#include "panels/alternatives/panel_alternatives.h"

#include "io/scene.h"
#include "pelab/attention.h"
#include "pelab/error.h"
#include "pelab/limits.h"
#include "pelab/sinusoidal.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pelab {

namespace {

const char* kTabIds[kAlternativesTabCount] = {"learned", "rope", "alibi", "t5", "scaling", "table"};
const char* kTabTitles[kAlternativesTabCount] = {"Learned table", "RoPE",         "ALiBi",
                                                 "T5 buckets",    "Long context", "Side by side"};
constexpr int kShiftSweep = 1000; ///< the "depends only on m − n" checks move both by up to this
constexpr int kShiftChecks = 100; ///< … in this many shifts
constexpr std::uint64_t kLearnedSeed = 2024;

} // namespace

const char* AlternativesTabId(int tab) {
    return kTabIds[tab];
}

float RemainingHeight(float lines) {
    return std::max(ImGui::GetFontSize() * lines, ImGui::GetContentRegionAvail().y);
}

LearnedTable AlternativesPanel::Learned() const {
    return make_learned_table(learned_rows, learned_d, kLearnedSeed);
}

T5BucketOptions AlternativesPanel::T5Options() const {
    T5BucketOptions options;
    options.num_buckets = t5_buckets;
    options.bidirectional = t5_bidirectional;
    // max_distance must pass the exact buckets (half a side); a smaller value is raised to it,
    // and the tab says so.
    const int side = t5_bidirectional ? t5_buckets / 2 : t5_buckets;
    options.max_distance = std::max(t5_max_distance, side / 2 + 1);
    return options;
}

ContextScalingOptions AlternativesPanel::ScalingOptions(const AppState& state) const {
    ContextScalingOptions options;
    options.d = scaling_d;
    options.base = state.base;
    options.factor = scaling_factor;
    options.original_context = scaling_context;
    return options;
}

std::string ParseRopeVector(const std::string& text, std::vector<double>* values) {
    std::vector<double> parsed;
    std::string token;
    const auto flush = [&]() -> std::string {
        if (token.empty()) return "";
        char* end = nullptr;
        const double value = std::strtod(token.c_str(), &end);
        if (end == token.c_str() || *end != '\0' || !std::isfinite(value) || std::abs(value) > 1e6)
            return "\"" + token + "\" is not a number within ±1e6";
        parsed.push_back(value);
        token.clear();
        return "";
    };
    for (const char c : text + " ") {
        if (c == ',' || c == ' ' || c == '\t') {
            std::string error = flush();
            if (!error.empty()) return error;
        } else {
            token += c;
        }
    }
    if (parsed.size() < 2 || parsed.size() > 64 || parsed.size() % 2 != 0)
        return "needs an even count of 2 to 64 numbers, one pair per rotation (got " +
               std::to_string(parsed.size()) + ")";
    if (values) *values = parsed;
    return "";
}

bool AlternativesPanel::UsesTypedVectors() const {
    std::vector<double> q, k;
    return rope_typed && ParseRopeVector(rope_q, &q).empty() &&
           ParseRopeVector(rope_k, &k).empty() && q.size() == k.size();
}

std::vector<double> AlternativesPanel::RopeVectorFor(const RopeInputs& inputs, bool query) {
    std::vector<double> q, k;
    if (inputs.typed && ParseRopeVector(inputs.q_text, &q).empty() &&
        ParseRopeVector(inputs.k_text, &k).empty() && q.size() == k.size())
        return query ? q : k;
    return seeded_vector(inputs.d_model,
                         static_cast<std::uint64_t>(inputs.seed) * 2 + (query ? 0 : 1));
}

std::vector<double> AlternativesPanel::RopeQuery(const AppState& state) const {
    return RopeVectorFor(RopeInputsFor(state), true);
}

std::vector<double> AlternativesPanel::RopeKey(const AppState& state) const {
    return RopeVectorFor(RopeInputsFor(state), false);
}

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

MethodChecks AlternativesPanel::ComputeChecks(const ChecksInputs& inputs) {
    MethodChecks checks;
    const RopeInputs& rope = inputs.rope;
    const double m = std::min(rope.m, kUiMaxPosition - kShiftSweep);
    const double n = std::min(rope.n, kUiMaxPosition - kShiftSweep);
    checks.sinusoidal_shift_change =
        sinusoidal_max_shift_change(m, n, rope.d_model, rope.base, kShiftChecks);
    const LearnedTable table =
        make_learned_table(inputs.learned_rows, inputs.learned_d, kLearnedSeed);
    const int rows = table.rows;
    // Rows 0 and 3 against rows s and s + 3 for the first shifts the table holds.
    checks.learned_shift_change =
        rows >= 4 ? learned_max_shift_change(table, 0, 3, std::min(rows, kShiftChecks)) : 0;
    checks.learned_has_entry_at_rows = table.lookup(rows).has_value();
    // The same computation, on the same inputs, as the number the RoPE tab shows (m and n
    // moved together by 10 … 990).
    checks.rope_shift_change = ComputeRopeShift(rope).change;
    double alibi_change = 0;
    for (int s = 1; s < kShiftSweep; ++s)
        alibi_change = std::max(alibi_change, std::abs(alibi_bias(0.5, 3 + s, 9 + s, false) -
                                                       alibi_bias(0.5, 3, 9, false)));
    checks.alibi_shift_change = alibi_change;
    T5BucketOptions t5;
    t5.num_buckets = inputs.t5_buckets;
    t5.max_distance = inputs.t5_max_distance;
    t5.bidirectional = inputs.t5_bidirectional;
    checks.t5_last_bucket_start = t5_last_bucket_start(t5);
    return checks;
}

MethodChecks ComputeMethodChecks(const AlternativesPanel& panel, const AppState& state) {
    return AlternativesPanel::ComputeChecks(panel.ChecksInputsFor(state));
}

void AlternativesPanel::Draw(FrameContext& frame) {
    if (!input_error.empty()) ErrorText(frame, input_error.c_str());
    if (!tabs.BeginBar("##alternatives")) return;
    for (int t = 0; t < kAlternativesTabCount; ++t) {
        const bool open = tabs.Tab(kTabTitles[t], kTabIds[t], &tab);
        char record[48];
        std::snprintf(record, sizeof record, "alternatives.tab_%s", kTabIds[t]);
        frame.Record(record);
        if (open) {
            switch (t) {
            case 0:
                DrawLearned(frame);
                break;
            case 1:
                DrawRope(frame);
                break;
            case 2:
                DrawAlibi(frame);
                break;
            case 3:
                DrawT5(frame);
                break;
            case 4:
                DrawScaling(frame);
                break;
            default:
                DrawSideBySide(frame);
                break;
            }
            EndPanelBody(frame); // the body a strip opened belongs inside this tab
            ImGui::EndTabItem();
        }
    }
    tabs.EndBar();
}

void AlternativesPanel::DrawLearned(FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float input = FitWidth(7.0f, "rows L");
        row.Item(LabelledWidth(input, "rows L"));
        ImGui::SetNextItemWidth(input);
        ImGui::InputInt("rows L", &learned_rows, 0, 0);
        learned_rows = std::clamp(learned_rows, 1, kMaxLearnedRows);
        frame.Record("alternatives.learned_rows");
        row.Item(LabelledWidth(input, "width d"));
        ImGui::SetNextItemWidth(input);
        ImGui::InputInt("width d", &learned_d, 0, 0);
        learned_d = std::clamp(learned_d + learned_d % 2, 2, kUiMaxDModel * 4);
        frame.Record("alternatives.learned_d");
        row.Item(LabelledWidth(input, "look up pos"));
        ImGui::SetNextItemWidth(input);
        ImGui::InputInt("look up pos", &learned_lookup, 1, 100);
        learned_lookup = std::clamp(learned_lookup, 0, static_cast<int>(kUiMaxPosition));
        frame.Record("alternatives.learned_lookup");
        row.Item(ButtonWidth("BERT-base") + ButtonWidth("GPT-2") + FlowRow::Spacing());
        if (ImGui::Button("BERT-base")) learned_rows = 512, learned_d = 768;
        ImGui::SameLine();
        if (ImGui::Button("GPT-2")) learned_rows = 1024, learned_d = 768;
        EndControls(frame);
    }
    const LearnedTable table = Learned();
    char line[320];
    std::snprintf(
        line, sizeof line,
        "A learned table is one trained vector per position: %s %s × %s values = "
        "%s parameters to train (BERT-base: 512 × 768 = %s; GPT-2: %s × 768 = %s).",
        ShownNumber(table.rows).c_str(), table.rows == 1 ? "row" : "rows",
        ShownNumber(table.d).c_str(),
        ShownNumber(static_cast<double>(table.parameter_count())).c_str(),
        ShownNumber(static_cast<double>(make_learned_table(512, 768, 0).parameter_count())).c_str(),
        ShownNumber(1024).c_str(),
        ShownNumber(static_cast<double>(make_learned_table(1024, 768, 0).parameter_count()))
            .c_str());
    WrappedText(line);
    frame.Record("alternatives.learned_parameters");
    const auto row = table.lookup(learned_lookup);
    if (!row)
        std::snprintf(line, sizeof line,
                      "PE(%s): no entry. The table has %s %s (positions 0 … %s); a model "
                      "trained with it has nothing to add at position %s, and nothing is "
                      "invented here.",
                      ShownNumber(learned_lookup).c_str(), ShownNumber(table.rows).c_str(),
                      table.rows == 1 ? "row" : "rows", ShownNumber(table.rows - 1).c_str(),
                      ShownNumber(learned_lookup).c_str());
    else
        std::snprintf(line, sizeof line,
                      "PE(%s) is row %s: its first values are %.3f, %.3f, … (a seeded "
                      "stand-in for trained values).",
                      ShownNumber(learned_lookup).c_str(), ShownNumber(learned_lookup).c_str(),
                      (*row)[0], (*row)[1]);
    ImGui::TextColored(frame.ColorVec(row ? Role::Good : Role::Warning), "%s",
                       row ? "entry" : "no entry");
    ImGui::SameLine();
    WrappedText(line);
    frame.Record("alternatives.learned_lookup_result");
    // The row's first values as bars (or an empty plot with the edge marked).
    const int shown = std::min(table.d, 64);
    std::vector<double> xs(static_cast<std::size_t>(shown)), ys(xs.size(), 0.0);
    for (int j = 0; j < shown; ++j)
        xs[j] = j, ys[j] = row ? (*row)[j] : 0.0;
    learned_view.SetHome(plot::Range{-1, static_cast<double>(shown)}, plot::Range{-1.1, 1.1});
    if (!learned_view.has_home) learned_view.Reset();
    plot::PlotConfig config;
    config.x_label = shown < table.d ? "dim j (the first 64)" : "dim j";
    config.y_label = "PE(pos)_j";
    config.x_flags = plot::AxisFlags_Integer;
    // The legend keeps the labels' addresses until End: they live as long as the plot.
    char last_label[64], formula_label[64];
    plot::Plot p;
    if (p.Begin("##learned_row", learned_view, ImVec2(-1, RemainingHeight()), config)) {
        frame.Record("alternatives.learned_plot");
        if (row) {
            p.Bars("row values", xs.data(), ys.data(), shown, 0.8, frame.Color(Role::Accent));
        } else {
            // Past the table: its last row, the nearest thing it has, beside the sinusoidal
            // encoding's vector at the position asked for, which a formula gives for any
            // position (both stand-ins: the learned values are seeded, not trained).
            const auto last = table.lookup(table.rows - 1);
            std::vector<double> last_values(xs.size(), 0.0), sinusoid(xs.size(), 0.0);
            const std::vector<double> formula =
                pe_vector_double(learned_lookup, table.d % 2 == 0 ? table.d : table.d + 1, 10000.0);
            for (int j = 0; j < shown; ++j) {
                last_values[j] = last ? (*last)[j] : 0.0;
                sinusoid[j] = formula[j];
            }
            std::snprintf(last_label, sizeof last_label, "row %d, the last one", table.rows - 1);
            std::snprintf(formula_label, sizeof formula_label, "sinusoidal PE(%d)", learned_lookup);
            p.Bars(last_label, xs.data(), last_values.data(), shown, 0.8, frame.Color(Role::Muted));
            p.Markers(formula_label, xs.data(), sinusoid.data(), shown, frame.Color(Role::Sin),
                      frame.Px(4.0f), plot::Marker::Circle);
        }
        p.End();
    }
}

std::vector<MethodRow> AlternativesPanel::MethodRows(const MethodChecks& checks) const {
    std::vector<MethodRow> rows;
    char params[64], beyond[160], relative[160];
    const auto emit = [&](const char* method, const char* used, const char* where,
                          Verdict verdict) {
        rows.push_back(MethodRow{{method, used, where, params, beyond, relative}, verdict});
    };
    const auto yes_if = [](bool holds) { return holds ? Verdict::Yes : Verdict::No; };
    std::snprintf(params, sizeof params, "0");
    std::snprintf(beyond, sizeof beyond, "defined at any position: a formula, not a table");
    // Added to the input, so absolute: attention's q·k of real inputs (word + PE) depends on
    // where the words are, not only on how far apart; only the dot product of two bare
    // encodings depends on m − n alone.
    std::snprintf(relative, sizeof relative,
                  "no, absolute (added to the input); PE(m)·PE(n) alone depends only on m − n: "
                  "change %s",
                  ShownNumber(checks.sinusoidal_shift_change, 2).c_str());
    emit("sinusoidal", "the original Transformer", "added to the input embeddings",
         Verdict::Neither);
    std::snprintf(params, sizeof params, "L × d = %s",
                  ShownNumber(static_cast<double>(Learned().parameter_count())).c_str());
    std::snprintf(beyond, sizeof beyond,
                  checks.learned_has_entry_at_rows ? "has a row at L"
                                                   : "no entry at position L = %s",
                  ShownNumber(learned_rows).c_str());
    std::snprintf(relative, sizeof relative,
                  checks.learned_shift_change < 1e-6
                      ? "yes here: row 0·row 3 vs shifted rows change by %s"
                      : "no: row 0·row 3 vs shifted rows change by %s",
                  ShownNumber(checks.learned_shift_change, 2).c_str());
    emit("learned table", "BERT, GPT-2, GPT-3", "added to the input embeddings",
         yes_if(checks.learned_shift_change < 1e-6));
    std::snprintf(params, sizeof params, "0");
    std::snprintf(beyond, sizeof beyond,
                  "defined at any position; quality past training needs "
                  "scaling (Long context tab)");
    std::snprintf(relative, sizeof relative,
                  checks.rope_shift_change < 1e-6 ? "yes, q·k: change %s" : "no: q·k changes by %s",
                  ShownNumber(checks.rope_shift_change, 2).c_str());
    emit("RoPE", "Llama, Mistral, Gemma, Qwen", "q and k turned in every attention layer",
         yes_if(checks.rope_shift_change < 1e-6));
    std::snprintf(beyond, sizeof beyond,
                  "defined at any distance: the penalty keeps growing "
                  "linearly");
    std::snprintf(relative, sizeof relative,
                  checks.alibi_shift_change == 0 ? "yes, −m·|i − j|: change %s"
                                                 : "no: the bias changes by %s",
                  ShownNumber(checks.alibi_shift_change, 2).c_str());
    emit("ALiBi", "BLOOM, MPT", "a bias added to each attention score",
         yes_if(checks.alibi_shift_change == 0));
    std::snprintf(params, sizeof params, "%d per head (shared by layers)", t5_buckets);
    std::snprintf(beyond, sizeof beyond, "every distance ≥ %s shares the last bucket",
                  ShownNumber(static_cast<double>(checks.t5_last_bucket_start)).c_str());
    std::snprintf(relative, sizeof relative, "yes: the bucket of j − i");
    emit("T5 relative bias", "T5", "a learned bias per distance bucket, added to scores",
         Verdict::Yes);
    return rows;
}

AlternativesPanel::ChecksInputs AlternativesPanel::ChecksInputsFor(const AppState& state) const {
    const T5BucketOptions t5 = T5Options();
    return ChecksInputs{RopeInputsFor(state), learned_rows,    learned_d,
                        t5.num_buckets,       t5.max_distance, t5.bidirectional};
}

const MethodChecks& AlternativesPanel::Checks(const AppState& state) const {
    return method_checks.GetNow(ChecksInputsFor(state), ComputeChecks);
}

void AlternativesPanel::DrawSideBySide(FrameContext& frame) {
    const MethodChecks* checks = nullptr;
    {
        CoreTimer core_time(frame.stats);
        checks = &method_checks.GetForFrame(ChecksInputsFor(frame.state), ComputeChecks,
                                            frame.compute_in_background, &checks_current,
                                            &frame.stats.computing);
    }
    const std::vector<MethodRow> rows = MethodRows(*checks);
    // While the measured columns are computed off the frame for new positions, the last ones
    // stay and the relative column says so.
    const char* headers[6] = {"method",
                              "used in",
                              "where position enters",
                              "parameters",
                              "past the training length",
                              checks_current ? "relative?" : "relative? (updating…)"};
    const char* tips[6] = {
        "the method",
        "models that use it",
        "where the position enters the computation",
        "parameters it adds",
        "computed here: what happens past the training length",
        ("computed here: does a score depend only on the distance m − n? Largest change of the "
         "score when both positions move together by 10, 20, … 990 (from pos A, pos B)")};
    const float font = ImGui::GetFontSize();
    if (ImGui::GetContentRegionAvail().x < font * 64) {
        // Narrow (a projector at text scale 2): one block per method, its facts as lines.
        ImGui::BeginGroup();
        for (const MethodRow& row : rows) {
            ImGui::TextColored(frame.ColorVec(Role::Accent), "%s", row.cells[0].c_str());
            for (int column = 1; column < 6; ++column) {
                const bool coloured = column == 5 && row.relative != Verdict::Neither;
                if (coloured)
                    ImGui::PushStyleColor(
                        ImGuiCol_Text,
                        frame.ColorVec(row.relative == Verdict::Yes ? Role::Good : Role::Warning));
                WrappedText((std::string(headers[column]) + ": " + row.cells[column]).c_str());
                if (coloured) ImGui::PopStyleColor();
            }
            ImGui::Spacing();
        }
        ImGui::EndGroup();
        frame.Record("alternatives.methods");
        return;
    }
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##methods", 6, flags)) return;
    const float weights[6] = {1.0f, 1.2f, 1.5f, 1.2f, 2.0f, 2.0f};
    for (int column = 0; column < 6; ++column)
        ImGui::TableSetupColumn(headers[column], ImGuiTableColumnFlags_WidthStretch,
                                weights[column]);
    TableHeadersWithTooltips(frame, tips, "alternatives.table");
    for (const MethodRow& row : rows) {
        ImGui::TableNextRow();
        for (int column = 0; column < 6; ++column) {
            ImGui::TableNextColumn();
            const bool coloured = column == 5 && row.relative != Verdict::Neither;
            if (coloured)
                ImGui::PushStyleColor(
                    ImGuiCol_Text,
                    frame.ColorVec(row.relative == Verdict::Yes ? Role::Good : Role::Warning));
            WrappedText(row.cells[column].c_str()); // breaks at spaces only, never in a number
            if (coloured) ImGui::PopStyleColor();
        }
    }
    ImGui::EndTable();
    frame.Record("alternatives.methods");
}

std::vector<WidgetName> AlternativesPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        {"alternatives.alibi_a", "the sentence A text box: the words the order demo starts from"},
        {"alternatives.alibi_b", "the sentence B text box: sentence A's words in another order"},
        {"alternatives.alibi_causal",
         "the causal mask checkbox: hides keys that come after the query"},
        {"alternatives.alibi_head", "the head h slider: which head's bias matrix is drawn"},
        {"alternatives.alibi_heads",
         "the heads H slider: how many heads the slopes are shared out to"},
        {"alternatives.alibi_matrix",
         "the 12 by 12 grid of ALiBi biases, query rows against key columns",
         {"alibi"}},
        {"alternatives.alibi_slopes", "the paragraph listing the heads' ALiBi slopes m", {"alibi"}},
        {"alternatives.alibi_tie",
         "the order demo text: does the bias tell sentence A from B",
         {"alibi"}},
        {"alternatives.learned_d", "the width d box: how many values each learned row has"},
        {"alternatives.learned_lookup", "the look up pos box: which position's row to fetch"},
        {"alternatives.learned_lookup_result",
         "the entry / no entry line saying what the lookup found",
         {"learned"}},
        {"alternatives.learned_parameters",
         "the sentence counting the learned table's parameters",
         {"learned"}},
        {"alternatives.learned_plot", "the bar chart of the looked-up row's first values"},
        {"alternatives.learned_rows", "the rows L box: how many positions the learned table holds"},
        {"alternatives.methods",
         "the side-by-side comparison of the five methods",
         {"learned", "t5", "relative_checks"}},
        {"alternatives.rope_base", "the base 10 000 button on the RoPE tab"},
        {"alternatives.rope_check",
         "the sentence showing the RoPE score depends only on m - n",
         {"rope"}},
        {"alternatives.rope_circle",
         "the circle with q's and k's hands for one pair, turned by m and n"},
        {"alternatives.rope_curve", "the plot of the q-k score against the distance m - n"},
        {"alternatives.rope_decay", "the decay plot: how the score falls off with distance"},
        {"alternatives.rope_k", "the k text box: the key vector, typed"},
        {"alternatives.rope_m", "the m box: the query's position (pos A)"},
        {"alternatives.rope_n", "the n box: the key's position (pos B)"},
        {"alternatives.rope_q", "the q text box: the query vector, typed"},
        {"alternatives.rope_seed", "the seed box the random q and k vectors are drawn from"},
        {"alternatives.rope_typed", "the type q, k checkbox: type q and k instead of a seed"},
        {"alternatives.scaling_base", "the base 10 000 button on the Long context tab"},
        {"alternatives.scaling_context", "the original L box: the context length trained on"},
        {"alternatives.scaling_d", "the head d box: the width of one attention head"},
        {"alternatives.scaling_factor",
         "the factor s slider: how many times longer the new context is"},
        {"alternatives.scaling_factors", "the plot of how much each method slows each pair"},
        {"alternatives.scaling_text",
         "the paragraph comparing linear, NTK-aware, YaRN and Llama 3",
         {"scaling"}},
        {"alternatives.scaling_wavelengths",
         "the plot of each pair's wavelength per method, with the context band"},
        {"alternatives.t5_biases",
         "the bar chart of each bucket's learned bias (a seeded stand-in)"},
        {"alternatives.t5_bidirectional",
         "the bidirectional checkbox: encoder buckets on both sides or decoder"},
        {"alternatives.t5_buckets", "the buckets slider: how many distance buckets T5 uses"},
        {"alternatives.t5_max_distance",
         "the max distance slider: past it all distances share the last bucket"},
        {"alternatives.t5_plot",
         "the staircase plot of the bucket each relative position falls in"},
        {"alternatives.t5_text",
         "the paragraph explaining T5's exact and logarithmic buckets",
         {"t5"}},
        {"alternatives.tab_alibi", "the ALiBi tab: a distance penalty added to attention scores"},
        {"alternatives.tab_learned", "the Learned table tab: one trained vector per position"},
        {"alternatives.tab_rope", "the RoPE tab: q and k turned by their positions"},
        {"alternatives.tab_scaling", "the Long context tab: stretching RoPE to longer contexts"},
        {"alternatives.tab_t5", "the T5 buckets tab: a learned bias per distance bucket"},
        {"alternatives.tab_table", "the Side by side tab: every method compared at once"},
        {"alternatives.table.header<i>",
         "the side-by-side table's header cell of column i (from 0)"},
    };
}

} // namespace pelab
