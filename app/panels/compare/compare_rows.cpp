// compare_rows.cpp — the compare panel on two rows of a checkpoint's learned table (the Your model
// panel's, AppState::model_table) instead of the formula's vectors: the same numbers, the rows'
// offset curve beside the spread over every start, and a sentence set against the sinusoidal
// table of the same width.
#include "io/model_service.h"
#include "panels/compare/panel_compare.h"

#include "pelab/encodings/similarity.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

// cos, dot, distance and norms of two stored rows.
PositionComparison CompareRows(const ModelTable& table, int a, int b) {
    PositionComparison out;
    out.distance = std::abs(a - b);
    const float* x = table.values.data() + static_cast<std::size_t>(a) * table.cols;
    const float* y = table.values.data() + static_cast<std::size_t>(b) * table.cols;
    double dot = 0, xx = 0, yy = 0, squared = 0;
    for (int c = 0; c < table.cols; ++c) {
        dot += static_cast<double>(x[c]) * y[c];
        xx += static_cast<double>(x[c]) * x[c];
        yy += static_cast<double>(y[c]) * y[c];
        squared += (static_cast<double>(x[c]) - y[c]) * (static_cast<double>(x[c]) - y[c]);
    }
    out.dot_product = dot;
    out.norm_a = std::sqrt(xx);
    out.norm_b = std::sqrt(yy);
    out.cosine_similarity = xx > 0 && yy > 0 ? dot / (out.norm_a * out.norm_b) : 0.0;
    out.euclidean_distance = std::sqrt(squared);
    return out;
}

// The width of the sinusoidal table set beside a table of cols columns (even, at least 2).
int TwinWidth(int cols) {
    return std::max(2, cols - cols % 2);
}

} // namespace

double RowsDot(const ModelTable& table, int row_a, int row_b) {
    return CompareRows(table, row_a, row_b).dot_product;
}

void ComparePanel::DrawSourceChoice(FrameContext& frame) {
    const AppState& state = frame.state;
    if (!state.model_table) return; // the numbers' column says so when rows were asked for
    const ModelTable& table = *state.model_table;
    char label[200];
    std::snprintf(label, sizeof label, "rows of %s (%d × %d)", TableTitle(table).c_str(),
                  table.rows, table.cols);
    ImGui::Checkbox(label, &model_rows);
    frame.Record("compare.model_rows");
    FormulaTooltip("Compares two rows of the learned table open in the Your model panel instead "
                   "of the formula's PE(A) and PE(B); pos A and pos B pick the rows.");
}

std::string TableTitle(const ModelTable& table) {
    if (table.family_id == "numpy_table") return "the NumPy table \"" + table.name + "\"";
    if (table.family_id == "chosen_tensor") return "the tensor \"" + table.name + "\"";
    return table.family + "'s " + table.name;
}

int ComparePanel::RowOf(double position, const ModelTable& table) {
    return static_cast<int>(std::clamp(std::round(position), 0.0, table.rows - 1.0));
}

Explanation RowsSentence(const ModelTable& table, int row_a, int row_b,
                         const PositionComparison& rows, double twin_cosine) {
    Explanation out;
    const int offset = std::abs(row_a - row_b);
    out.Claims("cosine", rows.cosine_similarity);
    out.Claims("twin_cosine", twin_cosine);
    out.Claims("offset", offset);
    const std::string where = TableTitle(table);
    char text[900];
    if (rows.norm_a == 0 || rows.norm_b == 0) {
        if (rows.norm_a == 0 && rows.norm_b == 0 && offset > 0)
            std::snprintf(text, sizeof text,
                          "Rows %d and %d of %s are both all zeros: their cosine is taken as 0, "
                          "and their dot product is 0.",
                          std::min(row_a, row_b), std::max(row_a, row_b), where.c_str());
        else
            std::snprintf(text, sizeof text,
                          "Row %d of %s is all zeros: its cosine with any row is taken as 0, and "
                          "its dot product is 0.",
                          rows.norm_a == 0 ? row_a : row_b, where.c_str());
        out.text = text;
        return out;
    }
    if (offset == 0) {
        std::snprintf(text, sizeof text,
                      "Both positions are row %d of %s: cosine 1, and the dot product is the "
                      "row's squared length, %s.",
                      row_a, where.c_str(), ShownNumber(rows.dot_product, 4).c_str());
        out.text = text;
        return out;
    }
    // The sinusoidal table set beside it has an even width: the table's, or one column fewer.
    char twin[80];
    if (table.cols % 2 == 0)
        std::snprintf(twin, sizeof twin, "the sinusoidal table of the same width");
    else
        std::snprintf(twin, sizeof twin, "the sinusoidal table of width %d (even)",
                      TwinWidth(table.cols));
    std::snprintf(text, sizeof text,
                  "Rows %d and %d of %s have cosine %s (%s), against %s for %s at the same two "
                  "positions.",
                  std::min(row_a, row_b), std::max(row_a, row_b), where.c_str(),
                  ShownNumber(rows.cosine_similarity, 3).c_str(),
                  similarity_label(rows.cosine_similarity), ShownNumber(twin_cosine, 3).c_str(),
                  twin);
    out.text = text;
    const OffsetCosines& spread = table.offsets;
    if (offset >= static_cast<int>(spread.mean.size())) return out;
    const double least = spread.least[offset], greatest = spread.greatest[offset];
    const int starts = spread.starts[offset];
    out.Claims("spread_least", least);
    out.Claims("spread_greatest", greatest);
    out.Claims("starts", starts);
    const bool depends = greatest - least >= 0.01;
    out.Claims("depends_on_start", depends ? 1 : 0);
    const bool all_starts = starts == table.rows - offset;
    out.Claims("all_starts", all_starts ? 1 : 0);
    // "its 209 starts", or "3 813 of its 4 998 starts (spread evenly)" when sampled.
    char over[96];
    if (all_starts)
        std::snprintf(over, sizeof over, "its %s starts", ShownNumber(starts).c_str());
    else
        std::snprintf(over, sizeof over, "%s of its %s starts (spread evenly)",
                      ShownNumber(starts).c_str(), ShownNumber(table.rows - offset).c_str());
    if (starts < 2) {
        std::snprintf(text, sizeof text,
                      " Offset %d fits in this table only once, so there is no other start to "
                      "set it against.",
                      offset);
    } else if (depends) {
        std::snprintf(text, sizeof text,
                      " At offset %d this table's cosine runs from %s to %s over %s (mean %s): "
                      "it depends on where the two positions are, not only on how far apart; in "
                      "the sinusoidal table it is one number.",
                      offset, ShownNumber(least, 3).c_str(), ShownNumber(greatest, 3).c_str(), over,
                      ShownNumber(spread.mean[offset], 3).c_str());
    } else {
        std::snprintf(text, sizeof text,
                      " At offset %d this table's cosine is nearly the same over %s (they differ "
                      "by at most %s), as the sinusoidal table's is exactly.",
                      offset, over, ShownNumber(greatest - least, 2).c_str());
    }
    out.text += text;
    return out;
}

ComparePanel::RowsResult ComparePanel::ComputeRows(const RowsInputs& inputs) {
    RowsResult result;
    const ModelTable& table = *inputs.table;
    result.row_a = inputs.row_a;
    result.row_b = inputs.row_b;
    const float* x = table.values.data() + static_cast<std::size_t>(inputs.row_a) * table.cols;
    const float* y = table.values.data() + static_cast<std::size_t>(inputs.row_b) * table.cols;
    result.a.assign(x, x + table.cols);
    result.b.assign(y, y + table.cols);
    result.products.resize(static_cast<std::size_t>(table.cols));
    for (int c = 0; c < table.cols; ++c)
        result.products[c] = static_cast<double>(x[c]) * y[c];
    result.comparison = CompareRows(table, inputs.row_a, inputs.row_b);
    result.twin_cosine =
        compare_positions(inputs.row_a, inputs.row_b, TwinWidth(table.cols), 10000.0)
            .cosine_similarity;
    result.explanation =
        RowsSentence(table, inputs.row_a, inputs.row_b, result.comparison, result.twin_cosine);
    // cos(row F, row F + k) for every k the table holds, from the earlier of the two rows F, so
    // the pair's own point lies on the curve.
    const int from = std::min(inputs.row_a, inputs.row_b);
    for (int k = 0; from + k < table.rows; ++k) {
        result.k_from_a.push_back(k);
        result.from_a.push_back(CompareRows(table, from, from + k).cosine_similarity);
    }
    return result;
}

std::vector<double> ComparePanel::TwinCurve(const TwinInputs& inputs) {
    // The sinusoidal twin's cosine at each offset the spread measured: Σcos(ω_i k)/(d/2). Once
    // per table (4 097 offsets × d/2 cosines), not once per pair of rows.
    const ModelTable& table = *inputs.table;
    const int width = TwinWidth(table.cols);
    std::vector<double> offsets(table.offsets.mean.size());
    for (std::size_t k = 0; k < offsets.size(); ++k)
        offsets[k] = static_cast<double>(k);
    std::vector<double> twin = dot_product_at_offsets(offsets, width, 10000.0);
    for (double& value : twin)
        value /= width / 2.0;
    return twin;
}

const ComparePanel::RowsResult& ComparePanel::RowsFor(const AppState& state) const {
    const ModelTable& table = *state.model_table;
    return rows_cache.Get(
        RowsInputs{RowOf(state.pos_a, table), RowOf(state.pos_b, table), table.version, &table},
        ComputeRows);
}

std::string ComparePanel::RowsNote(const AppState& state) {
    const ModelTable& table = *state.model_table;
    std::string note;
    for (const auto& [name, position] : {std::pair<const char*, double>{"A", state.pos_a},
                                         std::pair<const char*, double>{"B", state.pos_b}}) {
        const int row = RowOf(position, table);
        if (row == position) continue;
        char part[200];
        std::snprintf(part, sizeof part,
                      "%spos %s = %s is shown as row %d (the table's rows are "
                      "0 … %d)",
                      note.empty() ? "" : "; ", name, ShownNumber(position, 6).c_str(), row,
                      table.rows - 1);
        note += part;
    }
    return note.empty() ? note : note + ".";
}

void ComparePanel::DrawRowsOffsetPlot(FrameContext& frame, float height) {
    const ModelTable& table = *frame.state.model_table;
    const RowsResult& r = *shown_rows;
    const OffsetCosines& spread = table.offsets;
    const double span = std::max<double>(1.0, static_cast<double>(spread.mean.size()) - 1);
    const plot::Range y{-1.05, 1.05};
    offset_view.SetHome(plot::Range{0.0, span}, y);
    if (rows_fitted != table.version) {
        offset_view.Refit(plot::Range{0.0, span}, y);
        rows_fitted = table.version;
    }
    plot::PlotConfig config;
    config.x_label = "offset k (positions)";
    config.y_label = "cos(row p, row p + k)";
    config.x_limits = plot::Range{0.0, span};
    config.x_flags = plot::AxisFlags_Integer;
    // Narrow (a short window's half), the grey range goes unlabelled: the sentence names it.
    const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 24;
    plot::Plot p;
    if (!p.Begin("##offset_plot", offset_view, ImVec2(-1, height), config)) return;
    frame.Record("compare.offset_plot");
    std::vector<double> ks(spread.mean.size());
    for (std::size_t k = 0; k < ks.size(); ++k)
        ks[k] = static_cast<double>(k);
    const int count = static_cast<int>(ks.size());
    p.Line(narrow ? "##least" : "range over starts", ks.data(), spread.least.data(), count,
           frame.Color(Role::Muted), frame.Px(1.0f));
    p.Line("##greatest", ks.data(), spread.greatest.data(), count, frame.Color(Role::Muted),
           frame.Px(1.0f));

    const std::vector<double>& twin = twin_cache.Get(TwinInputs{table.version, &table}, TwinCurve);
    p.Line("sinusoidal", ks.data(), twin.data(), count, frame.Color(Role::ShiftArc),
           frame.Px(1.5f));
    char from_a[48];
    std::snprintf(from_a, sizeof from_a, "row %d + k", std::min(r.row_a, r.row_b));
    p.Line(from_a, r.k_from_a.data(), r.from_a.data(), static_cast<int>(r.k_from_a.size()),
           frame.Color(Role::Accent), frame.Px(2.0f));
    // The mean over starts on top: where the table is shift-invariant it hides nothing.
    p.Line("mean", ks.data(), spread.mean.data(), count, frame.Color(Role::PosB), frame.Px(1.5f));
    const double k_here[] = {static_cast<double>(std::abs(r.row_b - r.row_a))};
    const double cos_here[] = {r.comparison.cosine_similarity};
    p.Markers("A, B", k_here, cos_here, 1, frame.Color(Role::PosA), frame.Px(9.0f),
              plot::Marker::Ring);
    p.HLine(0.0, ImGui::GetColorU32(ImGuiCol_Text, 0.3f));
    p.End();
}

void ComparePanel::DrawRowsTable(FrameContext& frame) {
    const float font = ImGui::GetFontSize();
    const RowsResult& r = *shown_rows;
    const int d = static_cast<int>(r.a.size());
    if (!BeginDimensionTable(frame, "##row_dims", 5, d)) return;
    ImGui::TableSetupColumn("dim", ImGuiTableColumnFlags_WidthFixed, font * 3.5f);
    ImGui::TableSetupColumn("row A", ImGuiTableColumnFlags_WidthFixed, font * 5.0f);
    ImGui::TableSetupColumn("row B", ImGuiTableColumnFlags_WidthFixed, font * 5.0f);
    ImGui::TableSetupColumn("|Δ|", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("A·B", ImGuiTableColumnFlags_WidthStretch);
    const char* const header_tips[] = {
        "dimension of the learned row (no sin/cos roles: the model chose each value)",
        "row A's value in this dimension", "row B's value in this dimension",
        "Δ = |A − B| in this dimension (the bar: against the largest in the table)",
        ("A·B in this dimension: its share of the dot product (the bar: against the largest "
         "magnitude; the shares add up to the dot product)")};
    TableHeadersWithTooltips(frame, header_tips, "compare.table");
    double largest_delta = 0, largest_product = 0;
    for (int dim = 0; dim < d; ++dim) {
        largest_delta = std::max(largest_delta, std::fabs(r.a[dim] - r.b[dim]));
        largest_product = std::max(largest_product, std::fabs(r.products[dim]));
    }
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(visible_dims.size()));
    while (clipper.Step())
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const int dim = visible_dims[row];
            const double delta = std::fabs(r.a[dim] - r.b[dim]);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d", dim);
            ImGui::TableNextColumn();
            ImGui::Text("%+.4f", r.a[dim]);
            ImGui::TableNextColumn();
            ImGui::Text("%+.4f", r.b[dim]);
            ImGui::TableNextColumn();
            {
                const ImVec2 at = ImGui::GetCursorScreenPos();
                const float width = ImGui::GetContentRegionAvail().x;
                const float fraction =
                    largest_delta > 0 ? static_cast<float>(delta / largest_delta) : 0.0f;
                draw->AddRectFilled(
                    at, ImVec2(at.x + width * fraction, at.y + ImGui::GetTextLineHeight()),
                    frame.Color(Role::Magnitude));
                ImGui::Text("%.4f", delta);
            }
            ImGui::TableNextColumn();
            {
                const double share = r.products[dim];
                const ImVec2 at = ImGui::GetCursorScreenPos();
                const float width = ImGui::GetContentRegionAvail().x;
                const float mid = at.x + width * 0.5f;
                const float end =
                    mid +
                    width * 0.5f *
                        (largest_product > 0 ? static_cast<float>(share / largest_product) : 0.0f);
                draw->AddRectFilled(ImVec2(std::min(mid, end), at.y),
                                    ImVec2(std::max(mid, end), at.y + ImGui::GetTextLineHeight()),
                                    share >= 0 ? frame.Color(Role::Positive)
                                               : frame.Color(Role::Negative));
                draw->AddLine(ImVec2(mid, at.y), ImVec2(mid, at.y + ImGui::GetTextLineHeight()),
                              text_color);
                ImGui::Text("%+.5f", share);
            }
        }
    ImGui::EndTable();
    frame.Record("compare.table");
}

std::string ComparePanel::RowsCsv(const AppState& state) const {
    const RowsResult& r = RowsFor(state);
    const int d = static_cast<int>(r.a.size());
    std::string csv = "dim,row_a,row_b,abs_delta,product\n";
    char line[200];
    for (int dim = 0; dim < d; ++dim) {
        if (!Shows(dim, d)) continue;
        std::snprintf(line, sizeof line, "%d,%.9g,%.9g,%.9g,%.17g\n", dim, r.a[dim], r.b[dim],
                      std::fabs(r.a[dim] - r.b[dim]), r.products[dim]);
        csv += line;
    }
    return csv;
}

nlohmann::json ComparePanel::RowsReadouts(const AppState& state) const {
    const RowsResult& r = RowsFor(state);
    const PositionComparison& c = r.comparison;
    const ModelTable& table = *state.model_table;
    nlohmann::json readouts = {{"source", "model"},
                               {"table", TableTitle(table)},
                               {"row_a", r.row_a},
                               {"row_b", r.row_b},
                               {"distance", c.distance},
                               {"dot_product", c.dot_product},
                               {"cosine_similarity", c.cosine_similarity},
                               {"euclidean_distance", c.euclidean_distance},
                               {"norm_a", c.norm_a},
                               {"norm_b", c.norm_b},
                               {"similarity_label", similarity_label(c.cosine_similarity)},
                               {"twin_cosine", r.twin_cosine},
                               {"explanation", r.explanation.text},
                               {"claims", ClaimsJson(r.explanation)},
                               {"note", RowsNote(state)}};
    const int a = r.row_a + state.shift_k, b = r.row_b + state.shift_k;
    if (a >= 0 && b >= 0 && a < table.rows && b < table.rows)
        readouts["dot_product_shifted_by_k"] = CompareRows(table, a, b).dot_product;
    return readouts;
}

} // namespace pelab
