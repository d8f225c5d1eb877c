#include "panels/compare/panel_compare.h"
#include "io/model_service.h"

#include "widgets/number_text.h"

#include "io/json_input.h"
#include "io/scene.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/similarity.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {
// Each position is a slider (the first 1000 positions, or a checkpoint's rows) and a box that
// takes any position.
constexpr NumberControl kComparePosASlider = Drawn(kPosA, "##pos_a_slider", "compare.pos_a_slider");
constexpr NumberControl kComparePosAInput = Drawn(kPosA, "pos A##input", "compare.pos_a_input");
constexpr NumberControl kComparePosBSlider = Drawn(kPosB, "##pos_b_slider", "compare.pos_b_slider");
constexpr NumberControl kComparePosBInput = Drawn(kPosB, "pos B##input", "compare.pos_b_input");
constexpr NumberControl kCompareShift = Drawn(kShiftK, "shift k", "compare.shift_k");
} // namespace

void ComparePanel::Draw(FrameContext& frame) {
    // The inputs first: a preset changes d_model, and everything below must be computed for the
    // d_model it draws with (the table once read PE vectors of the old, smaller width).
    filter_in_strip = false;
    if (BeginControls(frame)) {
        DrawPositionInputs(frame);
        // In a strip (a short presented window) the table's filter joins the controls, which
        // may scroll: the table below keeps its lines for its rows.
        if (frame.controls_in_strip && frame.presented) {
            DrawFilterControls(frame, frame.state.d_model);
            filter_in_strip = true;
        }
        EndControls(frame);
    }
    const AppState& state = frame.state;
    {
        CoreTimer core_time(frame.stats);
        shown = &ResultFor(state);
        shown_rows = ShowsRows(state) ? &RowsFor(state) : nullptr;
    }
    if (frame.show_controls) ImGui::Separator();
    const float font = ImGui::GetFontSize();
    const ImGuiStyle& style = ImGui::GetStyle();
    const float half = (ImGui::GetContentRegionAvail().x - style.ItemSpacing.x) * 0.5f;
    in_band = frame.presented && frame.pictures_first && half >= font * 13.0f;
    if (in_band) {
        // Presented in a short window (a projector at text ×2): the offset picture on the left, the
        // numbers and the words on the right (each half needs 13 em: "Euclidean distance" and
        // its value), and below them the table with its header and first three rows (and the
        // filter row when it is not in the strip).
        const float table = ShortTableHeight() + style.ItemSpacing.y +
                            (FilterUnderTable(frame) ? ImGui::GetFrameHeightWithSpacing() : 0.0f);
        // Controls hidden, the room they leave goes to the table's rows too, not to the band
        // alone: at most 60 % of the height for the band (still the plot's 9 em at least).
        const float avail = ImGui::GetContentRegionAvail().y;
        const float band =
            std::max(font * 9.0f,
                     frame.show_controls ? avail - table : std::min(avail - table, avail * 0.6f));
        ImGui::BeginChild("##offset_half", ImVec2(half, band), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        PlotOffsets(frame, band);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##compare_words", ImVec2(0, band), false);
        DrawReadouts(frame);
        DrawShift(frame); // the shift's two products first: what the plot's markers show
        DrawExplanation(frame);
        KeepOutlinedInView(frame); // a step about the shift scrolls its products into view
        ImGui::EndChild();
    } else if (frame.pictures_first) {
        // A short tile: the offset picture right under the numbers, then the words.
        // 60 % of what is left: the sentences and the table's first rows follow in view when
        // there is room for them (tiled at 1920×1080), the plot alone when there is not.
        DrawReadouts(frame);
        PlotOffsets(frame, std::max(font * 9.0f, ImGui::GetContentRegionAvail().y * 0.6f));
        DrawExplanation(frame);
        DrawShift(frame);
    } else {
        DrawReadouts(frame);
        DrawExplanation(frame);
        DrawShift(frame);
        // The picture of "depends only on the offset": 40 % of what is left, at least 11 em
        // (the plot's axes and legend take 4 of them).
        PlotOffsets(frame, std::max(font * 11.0f, ImGui::GetContentRegionAvail().y * 0.4f));
    }
    // The table's own border separates it from the band above.
    if (!in_band) ImGui::Separator();
    if (shown_rows)
        DrawRowsTable(frame);
    else
        DrawTable(frame);
}

void ComparePanel::PlotOffsets(FrameContext& frame, float height) {
    if (shown_rows)
        DrawRowsOffsetPlot(frame, height);
    else
        DrawOffsetPlot(frame, height);
}

void ComparePanel::DrawPositionInputs(FrameContext& frame) {
    AppState& state = frame.state;
    const float font = ImGui::GetFontSize();
    // Rows of a checkpoint's table: the sliders span its rows.
    const bool rows = ShowsRows(state);
    const double slider_max = rows ? state.model_table->rows - 1.0 : 1000.0;
    // Each position is a group [slider][typed entry] label; the groups wrap when narrow.
    const float spacing = FlowRow::Spacing();
    const float input_width = font * 5.0f;
    const float group_room = FitWidth(40.0f) - HelpMarkerWidth() - spacing;
    const float slider_width = std::clamp(group_room - input_width - spacing - LabelWidth("pos A"),
                                          font * 3.0f, font * 16.0f);
    const float group_width = slider_width + spacing + LabelledWidth(input_width, "pos A");
    const struct {
        const NumberControl& slider;
        const NumberControl& input;
        const char* what;
        double* value;
    } fields[] = {{kComparePosASlider, kComparePosAInput, "pos A", &state.pos_a},
                  {kComparePosBSlider, kComparePosBInput, "pos B", &state.pos_b}};
    FlowRow row;
    for (const auto& field : fields) {
        row.Item(group_width + (&field == &fields[1] ? spacing + HelpMarkerWidth() : 0.0f));
        ImGui::PushID(field.what);
        FlowRow group; // the field's items, on the line row placed it on
        ScenePositionSlider(frame, group, field.slider, field.value, slider_width, slider_max);
        ImGui::SameLine();
        SceneEntry(frame, group, field.input, field.value, input_width, field.what, &input_note);
        ImGui::PopID();
    }
    ImGui::SameLine();
    HelpMarker(rows ? "Drag the slider over the table's rows or type a position and press Enter "
                      "(past the last row, the last row is shown)."
                    : "Drag the slider (0 to 1000) or type a position up to 1 000 000 and press "
                      "Enter.");
    DrawSourceChoice(frame);
    if (rows) {
        if (!input_note.empty()) ErrorText(frame, input_note.c_str());
        return; // the formula's presets set d_model, which the rows do not have
    }
    // The classic example's pairs; they also set d_model to 128, which every panel shares, so
    // the row says so.
    const char* intro = "Classic examples (set d_model = 128):";
    FlowRow presets_row;
    presets_row.Item(ImGui::CalcTextSize(intro).x);
    WrappedText(intro);
    const struct {
        const char* label;
        double a, b;
        const char* widget;
    } presets[] = {{"3 & 5", 3, 5, "compare.preset_3_5"},
                   {"3 & 50", 3, 50, "compare.preset_3_50"},
                   {"3 & 150", 3, 150, "compare.preset_3_150"}};
    for (const auto& preset : presets) {
        presets_row.Item(ButtonWidth(preset.label));
        const bool pressed = ImGui::Button(preset.label);
        FormulaTooltip("pos A = 3, pos B as labelled, d_model = 128 (for every panel).");
        frame.Record(preset.widget);
        if (pressed) {
            state.pos_a = preset.a;
            state.pos_b = preset.b;
            state.d_model = 128;
            input_note.clear();
        }
    }
    if (!input_note.empty()) ErrorText(frame, input_note.c_str());
}

void ComparePanel::DrawReadouts(FrameContext& frame) {
    AppState& state = frame.state;
    const PositionComparison& c = shown_rows ? shown_rows->comparison : shown->comparison;
    char formula[256];
    FlowRow row;
    const float gap = ImGui::GetFontSize() * 1.5f;
    if (shown_rows && (in_band || !frame.show_controls)) {
        // The checkbox naming the table may be scrolled away in the strip, or hidden with the
        // controls: the numbers say it.
        const ModelTable& table = *state.model_table;
        // A half-width column: the family only (a tensor's dotted name has nowhere to wrap),
        // the whole name on hover.
        const bool own = table.family_id != "numpy_table" && table.family_id != "chosen_tensor";
        const std::string source =
            "rows of " + (own ? table.family + "'s table" : TableTitle(table));
        MutedWrappedText(source.c_str());
        if (ImGui::IsItemHovered())
            Tooltip("%s, %d × %d", TableTitle(table).c_str(), table.rows, table.cols);
        frame.Record("compare.rows_source");
    }
    if (model_rows && !state.model_table) {
        MutedWrappedText(kNoTableNote);
        frame.Record("compare.rows_note");
    }
    if (shown_rows) {
        // A typed position past the table's rows: which row is shown instead.
        const std::string note = RowsNote(state);
        if (!note.empty()) {
            MutedWrappedText(note.c_str());
            frame.Record("compare.rows_note");
        }
    }
    // In a short window the numbers sit in a half-width column: one name and value per row.
    const bool as_table =
        in_band && ImGui::BeginTable("##compare_numbers", 2, ImGuiTableFlags_SizingFixedFit);
    const auto block = [&](const char* name, const char* value, const char* record) {
        if (as_table) {
            ReadoutRow(name, formula, "%s", value);
            frame.Record(record);
            return;
        }
        row.Item(ReadoutBlockWidth(name, value), gap);
        ReadoutBlock(frame, name, value, formula, record);
    };
    char value[64];
    if (shown_rows) {
        // Two stored rows: no closed form, the sums themselves.
        std::snprintf(formula, sizeof formula, "distance = |row A − row B| = |%d − %d|",
                      shown_rows->row_a, shown_rows->row_b);
        block("distance", DistanceText(c.distance).c_str(), "compare.distance");
        std::snprintf(formula, sizeof formula,
                      "row A · row B = Σ_dim A_dim·B_dim over the %zu "
                      "dimensions (the table's A·B column)",
                      shown_rows->a.size());
        std::snprintf(value, sizeof value, "%s", ShownNumber(c.dot_product, 4).c_str());
        block("dot product", value, "compare.dot_product");
        std::snprintf(formula, sizeof formula,
                      "cos = A·B / (‖A‖ ‖B‖) = %.6g / (%.6g · %.6g)\nLearned rows have lengths "
                      "of their own (the formula's are all √(d/2)).",
                      c.dot_product, c.norm_a, c.norm_b);
        std::snprintf(value, sizeof value, "%.4f", c.cosine_similarity);
        block("cosine similarity", value, "compare.cosine");
        std::snprintf(formula, sizeof formula, "‖A − B‖ = √(Σ_dim (A_dim − B_dim)²)");
        std::snprintf(value, sizeof value, "%s", ShownNumber(c.euclidean_distance, 4).c_str());
        block("Euclidean distance", value, "compare.euclidean");
    } else {
        std::snprintf(formula, sizeof formula, "distance = |A − B| = |%.6g − %.6g|", state.pos_a,
                      state.pos_b);
        block("distance", DistanceText(c.distance).c_str(), "compare.distance");
        std::snprintf(formula, sizeof formula,
                      "PE(A)·PE(B) = Σ_dim PE_A·PE_B = Σ_i cos(ω_i (A − B))\n"
                      "= sum of the %d pair contributions in the table. Maximum d/2 = %d (A = B).",
                      state.d_model / 2, state.d_model / 2);
        std::snprintf(value, sizeof value, "%.2f", c.dot_product);
        block("dot product", value, "compare.dot_product");
        std::snprintf(formula, sizeof formula,
                      "cos = PE(A)·PE(B) / (‖PE(A)‖ ‖PE(B)‖) = %.4f / (%.4f · %.4f)\n"
                      "Every pair is a unit vector, so ‖PE‖ = √(d/2) = %.4f.",
                      c.dot_product, c.norm_a, c.norm_b, std::sqrt(state.d_model / 2.0));
        std::snprintf(value, sizeof value, "%.4f", c.cosine_similarity);
        block("cosine similarity", value, "compare.cosine");
        std::snprintf(formula, sizeof formula,
                      "‖PE(A) − PE(B)‖ = √(Σ_dim (PE_A − PE_B)²) = √(d − 2·dot) = √(%d − 2·%.4f)",
                      state.d_model, c.dot_product);
        std::snprintf(value, sizeof value, "%.4f", c.euclidean_distance);
        block("Euclidean distance", value, "compare.euclidean");
    }
    if (as_table) ImGui::EndTable();
    ImGui::Text("similarity: %s", similarity_label(c.cosine_similarity));
    frame.Record("compare.similarity");
    char thresholds[160];
    std::snprintf(thresholds, sizeof thresholds,
                  "(cosine ≥ %.2f very high · ≥ %.2f high · ≥ %.2f moderate · below: low)",
                  kSimilarityVeryHigh, kSimilarityHigh, kSimilarityModerate);
    if (as_table) {
        FormulaTooltip(thresholds);
        return;
    }
    ImGui::SameLine();
    MutedWrappedText(thresholds);
}

void ComparePanel::DrawExplanation(FrameContext& frame) {
    // Beginner mode: the first sentence (where the two positions stand); the pairs' story is
    // the advanced reading.
    const std::string& text = shown_rows ? shown_rows->explanation.text : shown->explanation;
    if (!frame.advanced) {
        const std::size_t end = text.find(". ");
        WrappedText(end == std::string::npos ? text.c_str() : text.substr(0, end + 1).c_str());
        return;
    }
    WrappedText(text.c_str());
    if (shown_rows) frame.Record("compare.rows_sentence");
}

void ComparePanel::DrawShift(FrameContext& frame) {
    AppState& state = frame.state;
    FlowRow row;
    if (frame.show_controls) {
        SceneSlider(frame, row, kCompareShift, &state.shift_k, FitWidth(10.0f, "shift k"));
        row.Item(SmallButtonWidth("move A and B by k"));
    }
    const double a = (shown_rows ? shown_rows->row_a : state.pos_a) + state.shift_k,
                 b = (shown_rows ? shown_rows->row_b : state.pos_b) + state.shift_k;
    const double last = shown_rows ? state.model_table->rows - 1.0 : kUiMaxPosition;
    if (a < 0 || b < 0 || a > last || b > last) {
        char range[96];
        std::snprintf(range, sizeof range, "A + k and B + k must stay in [0, %s].",
                      ShownNumber(last).c_str());
        ImGui::TextDisabled("%s", range);
        return;
    }
    const double before =
        shown_rows ? shown_rows->comparison.dot_product : shown->comparison.dot_product;
    double after = 0;
    {
        CoreTimer core_time(frame.stats);
        after = shown_rows ? RowsDot(*state.model_table, static_cast<int>(a), static_cast<int>(b))
                           : compare_positions(a, b, state.d_model, state.base).dot_product;
    }
    if (frame.show_controls) {
        if (ImGui::SmallButton("move A and B by k")) {
            state.pos_a = a;
            state.pos_b = b;
        }
        frame.Record("compare.move_by_k");
    }
    char shifted[200];
    std::snprintf(shifted, sizeof shifted,
                  shown_rows ? "row (A+k)·row (B+k) = %.4f,  row A·row B = %.4f  (difference %s)"
                             : "PE(A+k)·PE(B+k) = %.4f,  PE(A)·PE(B) = %.4f  (difference %s)",
                  after, before, ShownNumber(std::fabs(after - before), 2).c_str());
    ImGui::BeginGroup(); // both products, however they wrap, are one recorded rectangle
    WrappedText(shifted);
    ImGui::EndGroup();
    frame.Record("compare.shift_products");
    FormulaTooltip(shown_rows
                       ? "Shifting both rows by k keeps A − B; a learned table's dot product "
                         "need not stay the same (the formula's does: it depends on A − B only)."
                       : "Shifting both positions by k keeps A − B, and the dot product only "
                         "depends on A − B: Σ_i cos(ω_i ((A+k) − (B+k))) = Σ_i cos(ω_i (A − B)).");
}

std::string DistanceText(double distance) {
    // "1 position", not "1 positions".
    char text[64];
    std::snprintf(text, sizeof text, "%.6g %s", distance, distance == 1 ? "position" : "positions");
    return text;
}

double OffsetPlotSpan(double offset) {
    const double wanted = 2.0 * offset;
    if (wanted <= 64.0) return 64.0;
    const double decade = std::pow(10.0, std::floor(std::log10(wanted)));
    for (const double step : {1.0, 2.0, 5.0, 10.0})
        if (step * decade >= wanted) return step * decade;
    return 10.0 * decade;
}

ComparePanel::Result ComparePanel::Compute(const Inputs& inputs) {
    Result result;
    const int d = inputs.d_model;
    result.pe_a = pe_vector_double(inputs.pos_a, d, inputs.base);
    result.pe_b = pe_vector_double(inputs.pos_b, d, inputs.base);
    result.contributions = pair_contributions(inputs.pos_a, inputs.pos_b, d, inputs.base);
    result.omegas = frequencies(d, inputs.base);
    result.comparison = compare_positions(inputs.pos_a, inputs.pos_b, d, inputs.base);
    result.explanation = ExplainDifference(inputs.pos_a, inputs.pos_b, d, inputs.base).text;
    return result;
}

const ComparePanel::Result& ComparePanel::ResultFor(const AppState& state) const {
    return result_cache.Get(Inputs{state.pos_a, state.pos_b, state.base, state.d_model}, Compute);
}

ComparePanel::Curve ComparePanel::ComputeCurve(const CurveInputs& inputs) {
    Curve curve;
    curve.span = inputs.span;
    constexpr int kSamples = 512;
    curve.k.resize(kSamples);
    for (int j = 0; j < kSamples; ++j)
        curve.k[j] = inputs.span * j / (kSamples - 1);
    curve.dot = dot_product_at_offsets(curve.k, inputs.d_model, inputs.base);
    // Room below for the curve's lowest point: with few pairs (d_model 2, 4) the sum dips to
    // −d_model/2, which a fixed −0.6·d_model/2 would cut off.
    const double half = inputs.d_model / 2.0;
    const double lowest = *std::min_element(curve.dot.begin(), curve.dot.end());
    curve.y = plot::Range{std::min(-0.6 * half, lowest - 0.1 * half), 1.1 * half};
    return curve;
}

void ComparePanel::DrawOffsetPlot(FrameContext& frame, float height) {
    const AppState& state = frame.state;
    const double offset = std::fabs(state.pos_b - state.pos_a);
    // Offsets from 0 to a round number at least twice B − A (64, 100, 200, 500, 1 000, …; at
    // most the position range), 512 samples. Round spans keep the axis still while B is
    // dragged, and the curve (512 × d/2 cosines) is recomputed only when the span steps.
    const double span = std::min(OffsetPlotSpan(offset), kUiMaxPosition);
    const Curve* curve = nullptr;
    {
        CoreTimer core_time(frame.stats);
        curve = &curve_cache.GetForFrame(CurveInputs{span, state.base, state.d_model}, ComputeCurve,
                                         frame.compute_in_background, &curve_current,
                                         &frame.stats.computing);
    }
    if (curve_fitted != curve_cache.Computations()) {
        offset_view.Refit(plot::Range{0.0, curve->span}, curve->y);
        curve_fitted = curve_cache.Computations();
    }
    offset_view.SetHome(plot::Range{0.0, curve->span}, curve->y);
    plot::PlotConfig config;
    config.x_label = "offset k = |B − A| (positions)";
    config.y_label = "PE(p)·PE(p + k), the same for every start p";
    config.x_limits = plot::Range{0.0, kUiMaxPosition};
    plot::Plot p;
    if (!p.Begin("##offset_plot", offset_view, ImVec2(-1, height), config)) return;
    frame.Record("compare.offset_plot");
    p.Line("Σ cos(ω_i k)", curve->k.data(), curve->dot.data(), static_cast<int>(curve->k.size()),
           frame.Color(Role::Accent), frame.Px(2.0f));
    const double k_here[] = {offset}, dot_here[] = {shown->comparison.dot_product};
    // A shift by k lands on the same point (that is the lesson), so A, B is a ring drawn
    // around the shifted pair's smaller square: both stay visible where they coincide.
    p.Markers("A, B", k_here, dot_here, 1, frame.Color(Role::PosA), frame.Px(9.0f),
              plot::Marker::Ring);
    const double a = state.pos_a + state.shift_k, b = state.pos_b + state.shift_k;
    if (state.shift_k != 0 && a >= 0 && b >= 0 && a <= kUiMaxPosition && b <= kUiMaxPosition) {
        const double dot_shifted[] = {
            compare_positions(a, b, state.d_model, state.base).dot_product};
        p.Markers("A + k, B + k", k_here, dot_shifted, 1, frame.Color(Role::PosB), frame.Px(4.0f),
                  plot::Marker::Square);
    }
    p.HLine(0.0, ImGui::GetColorU32(ImGuiCol_Text, 0.3f));
    p.End();
}

} // namespace pelab

namespace pelab {

namespace {
constexpr const char* kFilterNames[] = {"all", "sin", "cos", "range", "every-kth"};
} // namespace

void ComparePanel::AddSceneFields(SceneTable& table) {
    table.Add({"compare_dims", "\"all\", \"sin\", \"cos\", \"range\" or \"every-kth\": rows shown",
               [this](const nlohmann::json& value, const nlohmann::json&) -> std::function<void()> {
                   for (int k = 0; k < 5; ++k)
                       if (value == kFilterNames[k])
                           return [this, k] { filter = static_cast<DimensionFilter>(k); };
                   throw SceneFieldError{
                       "must be \"all\", \"sin\", \"cos\", \"range\" or \"every-kth\" (got " +
                       Excerpt(value) + ")"};
               },
               [this] { return nlohmann::json(kFilterNames[static_cast<int>(filter)]); }});
    table.Integer(kCompareRangeFirst, &range_first);
    table.Integer(kCompareRangeLast, &range_last);
    table.Integer(kCompareEveryK, &every_k);
    table.Add({"compare_source",
               "\"sinusoidal\" (the formula's vectors) or \"model\" (two rows of the learned "
               "table open in the Your model panel; the formula's while none is open)",
               [this](const nlohmann::json& value, const nlohmann::json&) -> std::function<void()> {
                   if (value == "sinusoidal") return [this] { model_rows = false; };
                   if (value == "model") return [this] { model_rows = true; };
                   throw SceneFieldError{"must be \"sinusoidal\" or \"model\" (got " +
                                         Excerpt(value) + ")"};
               },
               [this] { return nlohmann::json(model_rows ? "model" : "sinusoidal"); }});
}

nlohmann::json ComparePanel::Readouts(const AppState& state) const {
    if (ShowsRows(state)) return RowsReadouts(state);
    const Result& result = ResultFor(state);
    const PositionComparison& c = result.comparison;
    nlohmann::json readouts = {{"distance", c.distance},
                               {"dot_product", c.dot_product},
                               {"cosine_similarity", c.cosine_similarity},
                               {"euclidean_distance", c.euclidean_distance},
                               {"similarity_label", similarity_label(c.cosine_similarity)},
                               {"explanation", result.explanation},
                               {"source", "sinusoidal"}};
    if (model_rows) readouts["note"] = kNoTableNote;
    const double a = state.pos_a + state.shift_k, b = state.pos_b + state.shift_k;
    if (a >= 0 && b >= 0 && a <= kUiMaxPosition && b <= kUiMaxPosition)
        readouts["dot_product_shifted_by_k"] =
            compare_positions(a, b, state.d_model, state.base).dot_product;
    return readouts;
}

std::vector<WidgetName> ComparePanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {{"compare.cosine", "the cosine similarity of PE(A) and PE(B)", {"cosine_similarity"}},
            {"compare.distance", "the distance |A − B|, in positions", {"distance"}},
            {"compare.dot_product", "the dot product PE(A)·PE(B)", {"dot_product"}},
            {"compare.euclidean", "the Euclidean distance ‖PE(A) − PE(B)‖", {"euclidean_distance"}},
            ControlWidget(kCompareEveryK),
            {"compare.filter", "the \"show dimensions\" menu that filters the table's rows"},
            {"compare.move_by_k", "the button that moves A and B by k"},
            {"compare.offset_plot", "the plot of the dot product against the offset k = |B − A|"},
            ControlWidget(kComparePosAInput, "box"),
            ControlWidget(kComparePosASlider),
            ControlWidget(kComparePosBInput, "box"),
            ControlWidget(kComparePosBSlider),
            {kCompareRangeFirst.widget, "the dims range field: the first and last dimension shown"},
            {"compare.preset_3_150", "the preset button: A = 3, B = 150 and d_model 128"},
            {"compare.preset_3_5", "the preset button: A = 3, B = 5 and d_model 128"},
            {"compare.preset_3_50", "the preset button: A = 3, B = 50 and d_model 128"},
            ControlWidget(kCompareShift),
            {"compare.shift_products",
             "the line comparing PE(A+k)·PE(B+k) with PE(A)·PE(B)",
             {"dot_product_shifted_by_k", "dot_product"}},
            {"compare.similarity",
             "the line naming how similar A and B are (very high … low)",
             {"similarity_label"}},
            {"compare.table", "the table of every dimension's PE(A), PE(B) and difference"},
            {"compare.model_rows",
             "the checkbox comparing two rows of the checkpoint's table open in Your model"},
            {"compare.rows_source", "the line naming the table whose rows are compared"},
            {"compare.rows_note",
             "the line saying which position is shown as which row, or that no table is open"},
            {"compare.rows_sentence",
             "the sentence on two rows of a checkpoint's table against the sinusoidal table",
             {"explanation"}},
            {"compare.table.header<i>", "the table's header cell of column i (from 0)"}};
}

} // namespace pelab
