// alternatives_table.cpp — the alternatives panel's Side by side tab: every method in one table,
// sinusoidal's row and then each tab's (AlternativesTab::RowJob), computed off the frame.
#include "panels/alternatives/panel_alternatives.h"

#include "io/scene.h"
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

constexpr int kShiftSweep = 1000; ///< the "depends only on m − n" checks move both by up to this
constexpr int kShiftChecks = 100; ///< … in this many shifts

// The row of the encoding the others are compared with (it has no tab of its own: the other
// panels are about it).
MethodRowJob SinusoidalRowJob(const AlternativesPanel::RopeInputs& rope) {
    const double m = std::min(rope.m, kUiMaxPosition - kShiftSweep);
    const double n = std::min(rope.n, kUiMaxPosition - kShiftSweep);
    const int d = rope.d_model;
    const double base = rope.base;
    char inputs[120];
    std::snprintf(inputs, sizeof inputs, "m %.17g n %.17g d %d base %.17g", m, n, d, base);
    return {inputs, [m, n, d, base] {
                const double change = sinusoidal_max_shift_change(m, n, d, base, kShiftChecks);
                // Added to the input, so absolute: attention's q·k of real inputs (word + PE)
                // depends on where the words are, not only on how far apart; only the dot
                // product of two bare encodings depends on m − n alone.
                return MethodRow{
                    {"sinusoidal", "the original Transformer", "added to the input embeddings", "0",
                     "defined at any position: a formula, not a table",
                     "no, absolute (added to the input); PE(m)·PE(n) alone depends only on m − n: "
                     "change " +
                         ShownNumber(change, 2)},
                    Verdict::Neither,
                    change,
                    "sinusoidal"};
            }};
}

struct TableTab final : AlternativesTab {
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
};

} // namespace

AlternativesPanel::MethodJobs AlternativesPanel::MethodRowJobs(const AppState& state) const {
    // Sinusoidal first, then each tab's method in the tabs' order.
    MethodJobs jobs = {SinusoidalRowJob(RopeInputsFor(state))};
    for (const std::unique_ptr<AlternativesTab>& part : parts)
        if (std::optional<MethodRowJob> job = part->RowJob(*this, state)) jobs.push_back(*job);
    return jobs;
}

std::vector<MethodRow> AlternativesPanel::ComputeMethodRows(const MethodJobs& jobs) {
    std::vector<MethodRow> rows;
    for (const MethodRowJob& job : jobs)
        rows.push_back(job.compute());
    return rows;
}

const std::vector<MethodRow>& AlternativesPanel::MethodRows(const AppState& state) const {
    return method_checks.GetNow(MethodRowJobs(state), ComputeMethodRows);
}

namespace {

void TableTab::Draw(AlternativesPanel& panel, FrameContext& frame) {
    const std::vector<MethodRow>* computed = nullptr;
    {
        CoreTimer core_time(frame.stats);
        computed = &panel.method_checks.GetForFrame(
            panel.MethodRowJobs(frame.state), AlternativesPanel::ComputeMethodRows,
            frame.compute_in_background, &panel.checks_current, &frame.stats.computing);
    }
    const std::vector<MethodRow>& rows = *computed;
    // While the measured columns are computed off the frame for new positions, the last ones
    // stay and the relative column says so.
    const char* headers[6] = {"method",
                              "used in",
                              "where position enters",
                              "parameters",
                              "past the training length",
                              panel.checks_current ? "relative?" : "relative? (updating…)"};
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

nlohmann::json TableTab::Readouts(const AlternativesPanel& panel, const AppState& state) const {
    nlohmann::json checks = nlohmann::json::object();
    for (const MethodRow& row : panel.MethodRows(state))
        if (row.shift_change) checks[row.id] = *row.shift_change;
    return {{"relative_checks", checks}};
}

std::vector<WidgetName> TableTab::Widgets() const {
    return {
        {"alternatives.methods",
         "the side-by-side comparison of every method with a row",
         {"learned", "t5", "relative_checks"}},
        {"alternatives.table.header<i>",
         "the side-by-side table's header cell of column i (from 0)"},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeTableTab() {
    return std::make_unique<TableTab>();
}

} // namespace pelab
