// alternatives_learned.cpp — the alternatives panel's Learned table tab: one trained vector per
// position (BERT, GPT-2), its parameter count and its hard edge past the last row.
#include "panels/alternatives/panel_alternatives.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include "pelab/encodings/sinusoidal.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

/// The seed of the learned table's stand-in values (the tab and its side-by-side row).
constexpr std::uint64_t kAlternativesLearnedSeed = 2024;

constexpr NumberControl kLearnedRows{"learned_rows",
                                     "how many positions the learned table holds",
                                     1,
                                     kMaxLearnedRows,
                                     512,
                                     "rows L",
                                     "%d",
                                     false,
                                     nullptr,
                                     "alternatives.learned_rows"};
constexpr NumberControl kLearnedWidth{"learned_d", "how many values each learned row has (even)",
                                      2,           kUiMaxDModel * 4,
                                      768,         "width d",
                                      "%d",        false,
                                      nullptr,     "alternatives.learned_d",
                                      true};
constexpr NumberControl kLearnedLookup =
    Stepped(NumberControl{"learned_lookup", "which position's row to fetch from the table", 0,
                          kUiMaxPosition, 512, "look up pos", "%d", false, nullptr,
                          "alternatives.learned_lookup"},
            1, 100);

struct LearnedTab final : AlternativesTab {
    int learned_rows = static_cast<int>(kLearnedRows.initial);
    int learned_d = static_cast<int>(kLearnedWidth.initial);
    int learned_lookup = static_cast<int>(kLearnedLookup.initial); ///< the position looked up
    plot::PlotView learned_view;

    LearnedTable Learned() const {
        return make_learned_table(learned_rows, learned_d, kAlternativesLearnedSeed);
    }
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

void LearnedTab::Draw(AlternativesPanel& /*panel*/, FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float input = FitWidth(7.0f, "rows L");
        SceneInput(frame, row, kLearnedRows, &learned_rows, input);
        SceneInput(frame, row, kLearnedWidth, &learned_d, input);
        SceneInput(frame, row, kLearnedLookup, &learned_lookup, input);
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

void LearnedTab::AddFields(SceneTable& table) {
    table.Integer(kLearnedRows, &learned_rows);
    table.Integer(kLearnedWidth, &learned_d);
    table.Integer(kLearnedLookup, &learned_lookup);
}

nlohmann::json LearnedTab::Readouts(const AlternativesPanel& /*panel*/,
                                    const AppState& /*state*/) const {
    const LearnedTable learned = Learned();
    return {{"learned",
             {{"rows", learned.rows},
              {"d", learned.d},
              {"parameters", learned.parameter_count()},
              {"lookup", learned_lookup},
              {"has_entry", learned.lookup(learned_lookup).has_value()}}}};
}

std::optional<MethodRowJob> LearnedTab::RowJob(const AlternativesPanel& /*panel*/,
                                               const AppState& /*state*/) const {
    const int rows = learned_rows, d = learned_d;
    return MethodRowJob{
        "rows " + std::to_string(rows) + " d " + std::to_string(d), [rows, d] {
            constexpr int kShiftChecks = 100;
            const LearnedTable table = make_learned_table(rows, d, kAlternativesLearnedSeed);
            // Rows 0 and 3 against rows s and s + 3 for the first shifts the table holds.
            const double change =
                rows >= 4 ? learned_max_shift_change(table, 0, 3, std::min(rows, kShiftChecks)) : 0;
            const bool relative = change < 1e-6;
            return MethodRow{
                {"learned table", "BERT, GPT-2, GPT-3", "added to the input embeddings",
                 "L × d = " + ShownNumber(static_cast<double>(table.parameter_count())),
                 table.lookup(rows).has_value() ? std::string("has a row at L")
                                                : "no entry at position L = " + ShownNumber(rows),
                 (relative ? "yes here: row 0·row 3 vs shifted rows change by "
                           : "no: row 0·row 3 vs shifted rows change by ") +
                     ShownNumber(change, 2)},
                relative ? Verdict::Yes : Verdict::No,
                change,
                "learned"};
        }};
}

std::vector<WidgetName> LearnedTab::Widgets() const {
    return {
        ControlWidget(kLearnedWidth, "box"),
        ControlWidget(kLearnedLookup, "box"),
        {"alternatives.learned_lookup_result",
         "the entry / no entry line saying what the lookup found",
         {"learned"}},
        {"alternatives.learned_parameters",
         "the sentence counting the learned table's parameters",
         {"learned"}},
        {"alternatives.learned_plot", "the bar chart of the looked-up row's first values"},
        ControlWidget(kLearnedRows, "box"),
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeLearnedTab() {
    return std::make_unique<LearnedTab>();
}

} // namespace pelab
