// alternatives_table.cpp — the alternatives panel's Side by side tab: every method in one table,
// its "relative?" and "past the training length" cells computed here (MethodChecks).
#include "panels/alternatives/panel_alternatives.h"

#include "io/scene.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include "pelab/sinusoidal.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {
constexpr int kShiftSweep = 1000; ///< the "depends only on m − n" checks move both by up to this
constexpr int kShiftChecks = 100; ///< … in this many shifts
} // namespace

MethodChecks AlternativesPanel::ComputeChecks(const ChecksInputs& inputs) {
    MethodChecks checks;
    const RopeInputs& rope = inputs.rope;
    const double m = std::min(rope.m, kUiMaxPosition - kShiftSweep);
    const double n = std::min(rope.n, kUiMaxPosition - kShiftSweep);
    checks.sinusoidal_shift_change =
        sinusoidal_max_shift_change(m, n, rope.d_model, rope.base, kShiftChecks);
    const LearnedTable table =
        make_learned_table(inputs.learned_rows, inputs.learned_d, kAlternativesLearnedSeed);
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

namespace {

// The row of the encoding the others are compared with (it has no tab of its own: the other
// panels are about it).
MethodRow SinusoidalRow(const MethodChecks& checks) {
    // Added to the input, so absolute: attention's q·k of real inputs (word + PE) depends on
    // where the words are, not only on how far apart; only the dot product of two bare
    // encodings depends on m − n alone.
    return {{"sinusoidal", "the original Transformer", "added to the input embeddings", "0",
             "defined at any position: a formula, not a table",
             "no, absolute (added to the input); PE(m)·PE(n) alone depends only on m − n: "
             "change " +
                 ShownNumber(checks.sinusoidal_shift_change, 2)},
            Verdict::Neither};
}

} // namespace

std::vector<MethodRow> AlternativesPanel::MethodRows(const MethodChecks& checks) const {
    // Sinusoidal first, then each tab's method in the tabs' order (AlternativesTab::method_row).
    std::vector<MethodRow> rows = {SinusoidalRow(checks)};
    for (const AlternativesTab& each : AlternativesTabs())
        if (each.method_row != nullptr) rows.push_back((this->*each.method_row)(checks));
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

nlohmann::json AlternativesPanel::TableReadouts(const AppState& state) const {
    const MethodChecks& checks = Checks(state);
    return {{"relative_checks",
             {{"sinusoidal", checks.sinusoidal_shift_change},
              {"learned", checks.learned_shift_change},
              {"rope", checks.rope_shift_change},
              {"alibi", checks.alibi_shift_change}}}};
}

std::vector<WidgetName> AlternativesPanel::TableWidgets() {
    return {
        {"alternatives.methods",
         "the side-by-side comparison of the five methods",
         {"learned", "t5", "relative_checks"}},
        {"alternatives.table.header<i>",
         "the side-by-side table's header cell of column i (from 0)"},
    };
}

} // namespace pelab
