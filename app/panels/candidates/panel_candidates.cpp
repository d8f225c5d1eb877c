#include "panels/candidates/panel_candidates.h"
#include "panels/scene_controls.h"

#include "widgets/number_text.h"

#include "io/scene.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace pelab {

namespace {

constexpr int kPositionChoices[] = {64, 256, 1024, 4096};

} // namespace

const char* PropertyName(int property) {
    const char* names[kPropertyCount] = {"bounded", "unique",       "same across L",
                                         "smooth",  "shift linear", "beyond L"};
    return names[property];
}

PropertyCell DescribeProperty(int property, const CandidateProperties& m, int length) {
    PropertyCell cell;
    char how[512];
    switch (property) {
    case 0:
        cell.text = ShownNumber(m.max_abs, 3);
        cell.ok = m.max_abs <= kBoundedLimit;
        std::snprintf(how, sizeof how,
                      "max |PE(p)_j| over positions 0…%d and dims 0…%d = %.6g. ok when ≤ %.0f, "
                      "the scale of embedding values.",
                      m.positions_checked - 1, m.dims_checked - 1, m.max_abs, kBoundedLimit);
        break;
    case 1:
        cell.text = ShownNumber(static_cast<double>(m.collisions_near));
        cell.ok = m.collisions_near == 0;
        std::snprintf(how, sizeof how,
                      "Pairs of positions p < q among the first %d whose vectors agree within "
                      "%.0e in every dim: %lld (%lld of them exactly equal).%s",
                      m.positions_checked, kNearCollision, m.collisions_near, m.collisions_exact,
                      m.collisions_near > 0 ? " The first: positions " : "");
        if (m.collisions_near > 0)
            std::snprintf(how + std::strlen(how), sizeof how - std::strlen(how), "%d and %d.",
                          m.first_collision_p, m.first_collision_q);
        else if (m.closest_p >= 0)
            std::snprintf(how + std::strlen(how), sizeof how - std::strlen(how),
                          " The closest two are positions %d and %d, %.2g apart in their most "
                          "different dim.",
                          m.closest_p, m.closest_q, m.closest_distance);
        break;
    case 2:
        cell.text = ShownNumber(m.length_change, 2);
        cell.ok = m.length_change <= kSameAcrossLengthsLimit;
        std::snprintf(how, sizeof how,
                      "max_j |PE(5)_j in a sequence of length 10 − PE(5)_j in one of length "
                      "100| = %.6g. ok when the two are equal.",
                      m.length_change);
        break;
    case 3:
        cell.text = ShownNumber(m.smoothness, 2);
        cell.ok = m.smoothness <= kSmoothLimit;
        std::snprintf(how, sizeof how,
                      "The largest step between neighbours, max ‖PE(p+1) − PE(p)‖ = %.4g, over "
                      "the RMS distance between two positions, %.4g: %.3g. ok when ≤ %.2f "
                      "(a step to the next position is small next to a jump anywhere).",
                      m.largest_step, m.rms_distance, m.smoothness, kSmoothLimit);
        break;
    case 4:
        cell.known = !std::isnan(m.shift_residual);
        cell.text = cell.known ? ShownNumber(m.shift_residual, 1) : std::string("n/a");
        cell.ok = cell.known && m.shift_residual <= kLinearShiftLimit;
        if (cell.known)
            std::snprintf(how, sizeof how,
                          "The best matrix M (least squares by SVD, NumPy's rank rule) mapping "
                          "PE(p) to PE(p+%d) over %d positions leaves ‖PE(p)·M − PE(p+%d)‖ / "
                          "‖PE(p+%d)‖ = %.3g. ok when ≤ %.0e: the shift is a fixed linear map.%s",
                          m.shift_k, m.shift_pairs, m.shift_k, m.shift_k, m.shift_residual,
                          kLinearShiftLimit,
                          m.shift_residual > kLinearShiftLimit
                              ? " Even a small residual fails: a shift that adds a constant "
                                "(p → p + k in every dim) is affine, and no matrix adds a "
                                "constant to 0."
                              : "");
        else
            std::snprintf(how, sizeof how,
                          "Only %d pairs (p, p+%d) exist and they have %d dims: with no more "
                          "pairs than dims some matrix always fits, so this says nothing. Raise "
                          "L or N.",
                          m.shift_pairs, m.shift_k, m.dims_checked);
        break;
    default:
        cell.text = m.defined_beyond_length ? "yes" : "no";
        cell.ok = m.defined_beyond_length;
        std::snprintf(how, sizeof how,
                      m.defined_beyond_length
                          ? "PE(%d) exists: the formula goes on past L = %d."
                          : "PE(%d) does not exist: there is no position %d in a sequence (or "
                            "table) of length %d.",
                      length, length, length);
        break;
    }
    cell.how = how;
    return cell;
}

Explanation DrowningSentence(const char* candidate, double pos, int length, double embedding_norm,
                             double pe_norm) {
    Explanation out;
    char text[320];
    out.Claims("has_vector", pe_norm >= 0 ? 1 : 0);
    // The real reason there is no vector: a position at or past L, or (a table's rows) one
    // that is not whole.
    if (pe_norm < 0 && pos >= length) {
        std::snprintf(text, sizeof text, "%s has no vector for pos %s: it is past L = %d.",
                      candidate, ShownNumber(pos, 10).c_str(), length);
        out.Claims("past_length", 1);
    } else if (pe_norm < 0) {
        std::snprintf(text, sizeof text,
                      "%s has no vector for pos %s: a table has rows only at whole positions.",
                      candidate, ShownNumber(pos, 10).c_str());
        out.Claims("past_length", 0);
    } else if (embedding_norm <= 0 || pe_norm == 0) {
        std::snprintf(text, sizeof text, "At pos %s, ‖PE‖ = %s and ‖embedding‖ = %s.",
                      ShownNumber(pos, 10).c_str(), ShownNumber(pe_norm, 3).c_str(),
                      ShownNumber(embedding_norm, 3).c_str());
    } else {
        const double ratio = pe_norm / embedding_norm;
        out.Claims("ratio", ratio);
        std::snprintf(text, sizeof text, "At pos %s, ‖PE‖ of %s is %s× ‖embedding‖: %s.",
                      ShownNumber(pos, 10).c_str(), candidate, ShownNumber(ratio, 4).c_str(),
                      ratio > 10     ? "the position drowns the word"
                      : ratio > 2    ? "the position outweighs the word"
                      : ratio >= 0.5 ? "the two are on a similar scale"
                      : ratio >= 0.1 ? "the word outweighs the position"
                                     : "the position is a whisper beside the word");
    }
    out.text = text;
    return out;
}

Candidate CandidatesPanel::Selected() const {
    for (int c = 0; c < kCandidateCount; ++c)
        if (candidate == candidate_id(static_cast<Candidate>(c))) return static_cast<Candidate>(c);
    return Candidate::Binary; // the scene field validates, so only a default reaches here
}

CandidateSettings CandidatesPanel::Settings(const AppState& state) const {
    CandidateSettings settings;
    settings.d_model = state.d_model;
    settings.base = state.base;
    settings.length = length;
    return settings;
}

int CandidatesPanel::CheckedDims(const AppState& state) {
    return std::min(state.d_model, kMaxCheckedDims);
}

CandidatesPanel::TableInputs CandidatesPanel::TableInputsFor(const AppState& state) const {
    TableInputs inputs;
    inputs.settings = Settings(state);
    inputs.positions = std::clamp(positions, 16, kMaxCheckedPositions);
    inputs.dims = CheckedDims(state);
    inputs.shift_k = std::clamp(shift_k, 1, inputs.positions - 1);
    return inputs;
}

CandidatesPanel::Table CandidatesPanel::ComputeTable(const TableInputs& inputs) {
    Table table;
    table.inputs = inputs;
    for (int c = 0; c < kCandidateCount; ++c) {
        table.properties[c] = candidate_properties(static_cast<Candidate>(c), inputs.settings,
                                                   inputs.positions, inputs.dims, inputs.shift_k);
        for (int property = 0; property < kPropertyCount; ++property)
            table.cells[c][property] =
                DescribeProperty(property, table.properties[c], inputs.settings.length);
    }
    return table;
}

const CandidatesPanel::Table& CandidatesPanel::TableFor(const AppState& state) const {
    return table_cache.GetNow(TableInputsFor(state), ComputeTable);
}

void CandidatesPanel::Draw(FrameContext& frame) {
    if (BeginControls(frame)) {
        DrawControls(frame);
        EndControls(frame);
    }
    const Table* measured = nullptr;
    {
        CoreTimer core_time(frame.stats);
        // A long table (≈ 50 ms per thousand positions) is measured off the frame, so that a
        // drag stays smooth; the last one stays on screen meanwhile.
        measured = &table_cache.GetForFrame(TableInputsFor(frame.state), ComputeTable,
                                            frame.compute_in_background, &table_current,
                                            &frame.stats.computing);
    }
    const float font = ImGui::GetFontSize();
    const ImGuiStyle& style = ImGui::GetStyle();
    if (!frame.pictures_first)
        MutedWrappedText("Each row is an encoding someone might try first; each column one of the "
                         "usual design constraints, measured at these settings (hover a cell "
                         "for the number and how). Click a row to plot it.");
    // The table: a header, 9 rows and the legend; the pictures take what is left.
    const float table =
        (font + style.CellPadding.y * 2 + 1) * 10 + font * 2 + style.ItemSpacing.y * 3;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float height = std::max(font * 9.0f, avail.y - table);
    if (avail.x > font * 45.0f && avail.y - table > font * 16.0f) {
        // Wide: the plot, and beside it the meter over the circle.
        const float side = std::clamp(avail.x * 0.28f, font * 14.0f, font * 24.0f);
        DrawValues(frame, ImVec2(avail.x - side - style.ItemSpacing.x, height));
        ImGui::SameLine();
        const float top = ImGui::GetCursorScreenPos().y;
        ImGui::BeginGroup();
        DrawDrowning(frame, side);
        const float used = ImGui::GetCursorScreenPos().y - top;
        DrawAliasing(frame, std::min(side, std::max(font * 6.0f, height - used - font * 3.5f)));
        ImGui::EndGroup();
        DrawTable(frame, *measured);
    } else {
        // Narrow (1024×768 at text scale 2): everything stacked, the window scrolls.
        DrawValues(frame, ImVec2(avail.x, height));
        DrawTable(frame, *measured);
        DrawDrowning(frame, avail.x);
        DrawAliasing(frame, std::min(avail.x, font * 10.0f));
    }
}

void CandidatesPanel::DrawControls(FrameContext& frame) {
    FlowRow row;
    const float combo = FitWidth(11.0f, "plot");
    row.Item(LabelledWidth(combo, "plot"));
    ImGui::SetNextItemWidth(combo);
    if (ImGui::BeginCombo("plot", candidate_name(Selected()))) {
        for (int c = 0; c < kCandidateCount; ++c) {
            const auto each = static_cast<Candidate>(c);
            if (ImGui::Selectable(candidate_name(each), each == Selected()))
                candidate = candidate_id(each);
        }
        ImGui::EndCombo();
    }
    FormulaTooltip(candidate_formula(Selected()));
    frame.Record("candidates.choice");
    // The plot and the grid for everyone; the sizes, shift and embedding are advanced settings.
    const float slider = FitWidth(8.0f, "d_model");
    if (frame.ShowsAdvanced("candidates.d_model")) {
        DModelSlider(frame, row, kCandidatesDModel, slider, &d_model_note);
    }
    if (frame.ShowsAdvanced("candidates.length")) {
        SceneSlider(frame, row, kCandidatesLength, &length, slider);
    }
    const float small = FitWidth(5.0f, "N");
    if (frame.ShowsAdvanced("candidates.positions")) {
        row.Item(LabelledWidth(small, "N"));
        ImGui::SetNextItemWidth(small);
        char current[16];
        std::snprintf(current, sizeof current, "%d", positions);
        if (ImGui::BeginCombo("N", current)) {
            for (const int choice : kPositionChoices) {
                std::snprintf(current, sizeof current, "%d", choice);
                if (ImGui::Selectable(current, choice == positions)) positions = choice;
            }
            ImGui::EndCombo();
        }
        FormulaTooltip("N: the table measures positions 0 … N−1.");
        frame.Record("candidates.positions");
    }
    if (frame.ShowsAdvanced("candidates.shift_k")) {
        SceneSlider(frame, row, kCandidatesShiftK, &shift_k, small);
    }
    if (frame.ShowsAdvanced("candidates.embedding")) {
        SceneSlider(frame, row, kCandidatesEmbedding, &embedding_value, slider);
    }
    row.Item(CheckboxWidth("grid"));
    ImGui::Checkbox("grid", &grid);
    FormulaTooltip("Show the values as a grid, positions across and dims down (a \"bar code\" "
                   "of positions), instead of lines for the first four dims.");
    frame.Record("candidates.grid");
    if (frame.ShowsAdvanced("candidates.scale_embedding")) {
        row.Item(CheckboxWidth("×√d_model"));
        ImGui::Checkbox("×√d_model", &scale_embedding);
        FormulaTooltip(
            "Multiply the embedding by √d_model before adding PE (as the original Transformer's "
            "embedding layer does).");
        frame.Record("candidates.scale_embedding");
    }
    if (!d_model_note.empty()) ErrorText(frame, d_model_note.c_str());
    positions = std::clamp(positions, 16, kMaxCheckedPositions);
    shift_k = std::clamp(shift_k, 1, positions - 1);
}

namespace {

// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
std::string CsvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

} // namespace

std::string CandidatesPanel::TableCsv(const AppState& state) const {
    std::string csv = "encoding";
    for (int property = 0; property < kPropertyCount; ++property)
        csv +=
            std::string(",") + PropertyName(property) + "," + PropertyName(property) + " verdict";
    csv += "\n";
    const Table& table = TableFor(state);
    for (int c = 0; c < kCandidateCount; ++c) {
        const auto each = static_cast<Candidate>(c);
        csv += CsvField(candidate_name(each));
        for (int property = 0; property < kPropertyCount; ++property) {
            const PropertyCell& cell = table.cells[c][property];
            csv += "," + CsvField(cell.text) + "," +
                   (!cell.known ? "cannot say"
                    : cell.ok   ? "ok"
                                : "fails");
        }
        csv += "\n";
    }
    return csv;
}

std::vector<WidgetName> CandidatesPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        {"candidates.aliasing", "the circle showing that an angle and pi minus it share one sin"},
        {"candidates.aliasing_text",
         "the why sin needs cos sentence about the selected pair's angle"},
        {"candidates.choice", "the plot dropdown: which candidate encoding is drawn"},
        ControlWidget(kCandidatesDModel),
        {"candidates.drowning",
         "the drowning meter's sentence comparing PE's size with the embedding's",
         {"drowning"}},
        {"candidates.drowning_title", "the Drowning meter heading above its two bars"},
        ControlWidget(kCandidatesEmbedding),
        {"candidates.embedding_bar", "the drowning meter's bar for the embedding's length"},
        {"candidates.grid", "the grid checkbox: values as a colour grid instead of lines"},
        {"candidates.header<i>",
         "the property table's header cell of column i (0 is the encoding)"},
        {"candidates.legend",
         "the key under the table: ok, fails, cannot say, and what was measured"},
        ControlWidget(kCandidatesLength),
        {"candidates.pe_bar", "the drowning meter's bar for the length of PE(pos A)"},
        {"candidates.positions", "the N dropdown: how many positions the table measures"},
        {"candidates.scale_embedding",
         "the x sqrt(d_model) checkbox: scales the embedding before adding PE"},
        ControlWidget(kCandidatesShiftK),
        {"candidates.table",
         "the table of candidate encodings (rows) against design checks (columns)",
         {"properties"}},
        {"candidates.values",
         "the picture of the chosen encoding's values: line plot or colour grid"},
    };
}

} // namespace pelab
