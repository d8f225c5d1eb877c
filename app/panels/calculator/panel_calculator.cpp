#include "panels/calculator/panel_calculator.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/pair_turns.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>

namespace pelab {

namespace {

// pos is pos A; the slider spans the first 1000 positions (or up to the next power of ten
// above pos A), the box takes any position.
constexpr NumberControl kCalculatorPosSlider =
    Drawn(kPosA, "##pos_slider", "calculator.pos_slider",
          "pos = pos A, shared with every panel (Left/Right arrows: −1 / +1). The slider reaches "
          "1000, or the next power of ten above pos A.");
constexpr NumberControl kCalculatorPosInput =
    Drawn(kPosA, "##pos_input", "calculator.pos_input",
          "Type a position (fractions allowed) and press Enter.");
constexpr NumberControl kCalculatorOffset =
    Stepped(NumberControl{"calculator_offset", "the calculator's second column is pos A + this",
                          -kUiMaxPosition, kUiMaxPosition, 1, "##offset", "%.10g", false, nullptr,
                          "calculator.offset"},
            1, 10);
constexpr NumberControl kCalculatorDimFrom =
    Stepped(NumberControl{"calculator_dim_from", "first dimension the calculator shows", 0,
                          kUiMaxDModel - 1, 0, "##from", "%d", false,
                          "First dimension shown (0 … d_model − 1).", "calculator.dim_from"},
            1, 8);
constexpr NumberControl kCalculatorDimTo =
    Stepped(NumberControl{"calculator_dim_to", "last dimension shown (clamped to d_model - 1)", 0,
                          kUiMaxDModel - 1, 7, "##to", "%d", false,
                          "Last dimension shown; the table scrolls through any number of rows.",
                          "calculator.dim_to"},
            1, 8);

// "dims 0–255" or "dim 0".
std::string Dims(int first, int last) {
    char text[48];
    if (first == last)
        std::snprintf(text, sizeof text, "dim %d", first);
    else
        std::snprintf(text, sizeof text, "dims %d–%d", first, last);
    return text;
}

} // namespace

Explanation CalculatorSummary(double pos, double other, int first, int last, int d_model,
                              double base) {
    Explanation out;
    char text[640];
    const std::vector<PairTurn> turns = pair_turns(pos, other, d_model, base);
    const MotionCounts counts = count_motions(turns);
    out.Claims("came_round_pairs", counts.came_round);
    const auto [shown_pos, shown_other] = ShownPair(pos, other, 10);
    if (pos == other) {
        std::snprintf(text, sizeof text, "Both columns are position %s: every |Δ| is 0.",
                      shown_pos.c_str());
        out.text = text;
        out.Claims("no_dimension_moves", 1);
        return out;
    }
    // |Δ| of every dim, once (the whole vector is summarised below too).
    const std::vector<double> pe_pos = pe_vector_double(pos, d_model, base),
                              pe_other = pe_vector_double(other, d_model, base);
    std::vector<double> deltas(static_cast<std::size_t>(d_model));
    for (int dim = 0; dim < d_model; ++dim)
        deltas[dim] = std::fabs(pe_pos[dim] - pe_other[dim]);
    const auto largest_in = [&](int from, int to) {
        return *std::max_element(deltas.begin() + from, deltas.begin() + to + 1);
    };
    int most = first, least = first;
    double largest = -1, smallest = 3;
    for (int dim = first; dim <= last; ++dim) {
        const double delta = deltas[dim];
        if (delta > largest) largest = delta, most = dim;
        if (delta < smallest) smallest = delta, least = dim;
    }
    out.Claims("largest_delta", largest);
    std::string summary;
    if (first == last) {
        std::snprintf(text, sizeof text, "Between pos %s and %s, dim %d differs by %s.",
                      shown_pos.c_str(), shown_other.c_str(), first,
                      ShownNumber(largest, 3).c_str());
        summary = text;
    } else {
        std::snprintf(text, sizeof text,
                      "Between pos %s and %s, in %s: |Δ| is largest at dim %d (%s, pair %d, "
                      "wavelength %s) and smallest at dim %d (%s, pair %d, wavelength %s).",
                      shown_pos.c_str(), shown_other.c_str(), Dims(first, last).c_str(), most,
                      ShownNumber(largest, 3).c_str(), most / 2,
                      ShownNumber(wavelength(most / 2, d_model, base), 3).c_str(), least,
                      ShownNumber(smallest, 3).c_str(), least / 2,
                      ShownNumber(wavelength(least / 2, d_model, base), 3).c_str());
        summary = text;
    }
    // Pairs that came round look alike at both positions however far apart they are: said
    // whenever there are some, because "close" would be the wrong reason.
    std::string came_round;
    if (counts.came_round > 0) {
        const bool one = counts.came_round == 1;
        came_round = " " + Capitalised(PairList(turns, PairMotion::CameRound)) +
                     (one ? " has" : " have") + " come round to within 0.1 rad of " +
                     (one ? "its" : "their") +
                     " starting angle (a whole number of turns: aliasing), so " +
                     (one ? "its" : "their") + " dims look alike although the positions are " +
                     ShownNumber(std::fabs(pos - other)) + " apart.";
    }
    const bool all_still = counts.still == static_cast<int>(turns.size());
    out.Claims("no_dimension_moves", all_still ? 1 : 0);
    if (d_model < 4) {
        if (all_still) summary += " The positions are so close that no dimension moves much.";
        out.text = summary + came_round;
        out.Claims("slow_half_barely_moves", std::numeric_limits<double>::quiet_NaN());
        return out;
    }
    // The whole vector in two halves: the early dims hold the fast pairs, the late ones the slow.
    const int half = d_model / 2;
    const double early = largest_in(0, half - 1);
    const double late = largest_in(half, d_model - 1);
    out.Claims("early_delta", early);
    out.Claims("late_delta", late);
    std::snprintf(text, sizeof text,
                  " Over the whole vector, %s change by up to %s and %s by up to %s",
                  Dims(0, half - 1).c_str(), ShownNumber(early, 3).c_str(),
                  Dims(half, d_model - 1).c_str(), ShownNumber(late, 3).c_str());
    summary += text;
    const bool looks_alike = counts.in_order == 0 && counts.wrapped == 0 && !all_still;
    out.Claims("slow_half_barely_moves", late < 0.1 ? 1 : 0);
    if (all_still)
        summary += ": the positions are so close that no dimension moves much.";
    else if (looks_alike)
        summary += ": every pair either barely moved or came round to almost the same angle, so "
                   "the two columns look alike.";
    else if (late < 0.1 && early > 10 * late)
        summary += ": the early, fast dimensions tell these positions apart and the late, slow "
                   "ones barely move.";
    else if (late < 0.1)
        summary += ": only some of the early dimensions move much.";
    else
        summary += ": at this distance even the slow dimensions have moved.";
    out.text = summary + came_round;
    return out;
}

double CalculatorPanel::SecondPosition(const AppState& state) const {
    return std::clamp(state.pos_a + second_offset, 0.0, kUiMaxPosition);
}

void CalculatorPanel::Range(const AppState& state, int* first, int* last) const {
    *last = std::clamp(dim_to, 0, state.d_model - 1);
    *first = std::clamp(dim_from, 0, *last);
}

void CalculatorPanel::Draw(FrameContext& frame) {
    if (BeginControls(frame)) {
        DrawControls(frame);
        EndControls(frame);
    }
    if (!frame.pictures_first) {
        MutedWrappedText("PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / "
                         "base^(2i/d)): each row works one dimension out, left to right. Hover a "
                         "header for its formula; click a row to select its pair everywhere.");
    }
    const Result* result = nullptr;
    {
        CoreTimer core_time(frame.stats);
        result = &ResultFor(frame.state);
    }
    DrawSummary(frame, *result);
    DrawTable(frame, *result);
    if (show_chart) DrawChart(frame);
}

CalculatorPanel::Inputs CalculatorPanel::InputsFor(const AppState& state) const {
    Inputs inputs;
    inputs.pos = state.pos_a;
    inputs.other = SecondPosition(state);
    inputs.base = state.base;
    inputs.d_model = state.d_model;
    Range(state, &inputs.first, &inputs.last);
    return inputs;
}

CalculatorPanel::Result CalculatorPanel::Compute(const Inputs& inputs) {
    Result result;
    result.first = inputs.first;
    for (int dim = inputs.first; dim <= inputs.last; ++dim) {
        result.steps.push_back(pe_step(inputs.pos, dim, inputs.d_model, inputs.base));
        result.steps_other.push_back(pe_step(inputs.other, dim, inputs.d_model, inputs.base));
    }
    result.summary = CalculatorSummary(inputs.pos, inputs.other, inputs.first, inputs.last,
                                       inputs.d_model, inputs.base)
                         .text;
    return result;
}

const CalculatorPanel::Result& CalculatorPanel::ResultFor(const AppState& state) const {
    return result_cache.Get(InputsFor(state), Compute);
}

CalculatorPanel::Chart CalculatorPanel::ComputeChart(const Inputs& inputs) {
    Chart chart;
    chart.dims.resize(inputs.d_model);
    chart.delta.resize(inputs.d_model);
    for (int dim = 0; dim < inputs.d_model; ++dim) {
        chart.dims[dim] = dim;
        chart.delta[dim] = std::fabs(pe_value(inputs.pos, dim, inputs.d_model, inputs.base) -
                                     pe_value(inputs.other, dim, inputs.d_model, inputs.base));
    }
    // The axis fits the largest change (a step of 1 moves dims by at most about 0.9, far from
    // the bound 2), with room above; never flatter than 0.01.
    const double largest = *std::max_element(chart.delta.begin(), chart.delta.end());
    chart.top = std::max(0.01, largest * 1.15);
    return chart;
}

void CalculatorPanel::DrawChart(FrameContext& frame) {
    const AppState& state = frame.state;
    Inputs inputs = InputsFor(state);
    inputs.first = inputs.last = 0; // the chart shows every dim
    const Chart* chart = nullptr;
    {
        CoreTimer core_time(frame.stats);
        chart = &chart_cache.Get(inputs, ComputeChart);
    }
    if (chart_fitted != chart_cache.Computations()) {
        chart_view.SetHome(plot::Range{-0.5, state.d_model - 0.5}, plot::Range{0, chart->top});
        chart_view.Reset();
        chart_fitted = chart_cache.Computations();
    }
    int first = 0, last = 0;
    Range(state, &first, &last);
    plot::PlotConfig config;
    config.x_label = "dim (the whole vector; the table's rows between the lines)";
    config.y_label = "|PE(pos A) − PE(second)|";
    config.x_flags = plot::AxisFlags_Integer;
    plot::Plot p;
    if (!p.Begin("##delta_chart", chart_view, ImVec2(-1, ImGui::GetContentRegionAvail().y), config))
        return;
    frame.Record("calculator.chart");
    // Bars, not a line: sin and cos dims of one pair change by different amounts, and a line
    // through them zigzags into a broken-looking hatch; a bar per dim reads as a spectrum.
    p.Bars("|Δ| per dim", chart->dims.data(), chart->delta.data(), state.d_model, 0.8,
           frame.Color(Role::Magnitude));
    p.VLine(first - 0.5, frame.Color(Role::Highlight), nullptr, frame.Px(1.5f));
    p.VLine(last + 0.5, frame.Color(Role::Highlight), nullptr, frame.Px(1.5f));
    p.End();
}

void CalculatorPanel::DrawControls(FrameContext& frame) {
    FlowRow row;
    DrawPositionControls(frame, row);
    DrawOffsetControl(frame, row);
    DrawDimensionRange(frame, row);
    DrawCopyButtons(frame, row);
    if (!input_note.empty()) ErrorText(frame, input_note.c_str());
    if (SecondPosition(frame.state) != frame.state.pos_a + second_offset) {
        char note[160];
        std::snprintf(note, sizeof note,
                      "pos A + offset = %.10g is outside [0, 1000000]: the second column shows "
                      "position %.10g.",
                      frame.state.pos_a + second_offset, SecondPosition(frame.state));
        ErrorText(frame, note);
    }
}

void CalculatorPanel::DrawPositionControls(FrameContext& frame, FlowRow& row) {
    AppState& state = frame.state;
    const float font = ImGui::GetFontSize();
    const float spacing = FlowRow::Spacing();
    // pos (= pos A everywhere): a slider for the first 1000 positions and a typed entry, with the
    // label first, as a sentence reads.
    // The slider covers 0…1000, or up to the next power of ten when pos A is beyond that, so
    // its handle never shows a number other than pos A.
    const double slider_max =
        state.pos_a <= 1000.0
            ? 1000.0
            : std::min(kUiMaxPosition, std::pow(10.0, std::ceil(std::log10(state.pos_a))));
    const float slider_width = FitWidth(10.0f, "pos A");
    const float input_width = font * 5.5f;
    row.Item(LabelWidth("pos A") + slider_width + spacing + input_width);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("pos A");
    ImGui::SameLine();
    // The group's items on the line row placed it on.
    FlowRow group;
    ScenePositionSlider(frame, group, kCalculatorPosSlider, &state.pos_a, slider_width, slider_max);
    ImGui::SameLine();
    SceneEntry(frame, group, kCalculatorPosInput, &state.pos_a, input_width, "pos", &input_note);
}

void CalculatorPanel::DrawOffsetControl(FrameContext& frame, FlowRow& row) {
    const float font = ImGui::GetFontSize();
    const float spacing = FlowRow::Spacing();
    // The second column: pos A + offset.
    const float offset_width = font * 7.0f;
    row.Item(LabelWidth("second: pos A +") + offset_width + 2 * spacing + HelpMarkerWidth());
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("second: pos A +");
    ImGui::SameLine();
    FlowRow group; // on the line row placed it on
    SceneInput(frame, group, kCalculatorOffset, &second_offset, offset_width);
    ImGui::SameLine();
    HelpMarker("The second column is PE(pos A + offset); offset 1 compares neighbours. "
               "The second position stays within [0, 1000000].");
}

void CalculatorPanel::DrawDimensionRange(FrameContext& frame, FlowRow& row) {
    AppState& state = frame.state;
    const float font = ImGui::GetFontSize();
    const float spacing = FlowRow::Spacing();
    // The range of dimensions: "dims [from] to [to]".
    const float dim_width = font * 6.5f;
    row.Item(LabelWidth("dims") + LabelWidth("to") + 2 * dim_width + 3 * spacing);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("dims");
    ImGui::SameLine();
    // The fields show the range as drawn (fitted to d_model); an edit sets the stored range.
    // Moving one end past the other carries the other along (keeping 8 rows), instead of
    // silently undoing the edit.
    int shown_from = 0, shown_to = 0;
    Range(state, &shown_from, &shown_to);
    const int last_dim = state.d_model - 1;
    FlowRow group; // the range's items, on the line row placed it on
    if (SceneInput(frame, group, kCalculatorDimFrom, &shown_from, dim_width, last_dim)) {
        dim_from = shown_from;
        dim_to = shown_to;
        if (dim_from > dim_to) dim_to = std::min(dim_from + 7, last_dim);
    }
    ImGui::SameLine();
    ImGui::TextUnformatted("to");
    ImGui::SameLine();
    if (SceneInput(frame, group, kCalculatorDimTo, &shown_to, dim_width, last_dim)) {
        dim_to = shown_to;
        dim_from = shown_from;
        if (dim_to < dim_from) dim_from = std::max(0, dim_to - 7);
    }
    for (const auto& [label, first, last, name] :
         {std::tuple{"first 8", 0, 7, "calculator.first_8"},
          std::tuple{"last 8", state.d_model - 8, state.d_model - 1, "calculator.last_8"},
          std::tuple{"all", 0, state.d_model - 1, "calculator.all"}}) {
        row.Item(ButtonWidth(label));
        if (ImGui::Button(label)) dim_from = std::max(0, first), dim_to = last;
        frame.Record(name);
    }
}

void CalculatorPanel::DrawCopyButtons(FrameContext& frame, FlowRow& row) {
    const AppState& state = frame.state;
    row.Item(ButtonWidth("Copy as CSV"));
    if (ImGui::Button("Copy as CSV")) {
        int first = 0, last = 0;
        Range(state, &first, &last);
        copied_rows = last - first + 1;
        copy_ticket = frame.clipboard->Copy(Csv(state));
    }
    FormulaTooltip("The rows of the shown range, as CSV, to the clipboard.");
    frame.Record("calculator.copy_csv");
    row.Item(ButtonWidth("Save CSV…"));
    // The File menu's export, with the app's file dialog.
    if (ImGui::Button("Save CSV…")) frame.requests.export_csv = "calculator";
    FormulaTooltip("The rows of the shown range, as CSV, to a file (File → Export table as CSV).");
    frame.Record("calculator.save_csv");
    if (const std::string copy_note = CopyNote(frame); !copy_note.empty()) {
        row.Item(ImGui::CalcTextSize(copy_note.c_str()).x);
        ImGui::TextDisabled("%s", copy_note.c_str());
    }
}

void CalculatorPanel::DrawSummary(FrameContext& frame, const Result& result) {
    const std::string& summary = result.summary;
    WrappedText(summary.c_str());
    frame.Record("calculator.summary");
}

void CalculatorPanel::DrawTable(FrameContext& frame, const Result& result) {
    AppState& state = frame.state;
    const double other = SecondPosition(state);
    const int first = result.first, last = first + static_cast<int>(result.steps.size()) - 1;
    const float font = ImGui::GetFontSize();
    // Wide enough for every column: they share the width; else they scroll sideways.
    const bool wide = ImGui::GetContentRegionAvail().x > font * 48.0f;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_ScrollY |
                                  (wide ? ImGuiTableFlags_SizingStretchProp
                                        : ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit);
    // As tall as its rows need (plus a scrollbar's room), leaving the rest to the chart of the
    // whole vector when that gets at least 10 text lines; all the height when it would not.
    const float row_height = font + 2 * ImGui::GetStyle().CellPadding.y;
    const float needed = (last - first + 2) * row_height + font * 1.5f;
    const float avail = ImGui::GetContentRegionAvail().y;
    show_chart = avail - std::min(needed, avail * 0.6f) >= font * 10.0f;
    // In a short window the table takes what is left (its header, three rows and the sideways
    // scrollbar at least), so that only the table scrolls, not the window around it as well.
    const float least = frame.pictures_first
                            ? row_height * 4 + ImGui::GetStyle().ScrollbarSize + 2.0f
                            : font * 8.0f;
    const float height = std::max(least, show_chart ? std::min(needed, avail * 0.6f) : avail);
    // A scrolling table makes a child window; in a window that is drawn hidden this frame (as
    // ImGui does while it measures one) the child skips its items while the table's columns
    // count as visible, and ImGui 1.86 asserts. Such a frame shows nothing anyway.
    if (ImGui::GetCurrentWindowRead()->Hidden || ImGui::GetContentRegionAvail().x < 1.0f) return;
    if (!ImGui::BeginTable("##steps", 10, flags, ImVec2(0, height))) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    char pos_header[48], other_header[48];
    std::snprintf(pos_header, sizeof pos_header, "PE(%.10g)", state.pos_a);
    std::snprintf(other_header, sizeof other_header, "PE(%.10g)", other);
    const char* headers[] = {"dim",    "i",  "2i/d",     "base^(2i/d)", "angle (rad)",
                             "mod 2π", "fn", pos_header, other_header,  "|Δ|"};
    for (const char* header : headers)
        ImGui::TableSetupColumn(header);
    const char* tooltips[] = {"dimension of the PE vector (0 … d_model − 1)",
                              "pair index i = ⌊dim / 2⌋: dims 2i and 2i+1 share one frequency",
                              "the exponent 2i/d_model, from 0 towards 1",
                              "the denominator base^(2i/d): pos is divided by it",
                              "angle = pos / base^(2i/d) = pos · ω_i, in radians",
                              "the same angle minus whole turns: angle mod 2π, in [0, 2π)",
                              "sin for even dims, cos for odd dims",
                              "PE(pos, dim) = sin or cos of the angle",
                              "PE(pos + offset, dim), the same steps for the second position",
                              "|PE(pos, dim) − PE(pos + offset, dim)|"};
    TableHeadersWithTooltips(frame, tooltips, "calculator");
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(result.steps.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const int dim = first + row;
            const PeStep& step = result.steps[row];
            const PeStep& step_other = result.steps_other[row];
            ImGui::TableNextRow();
            // The selected pair's rows get a light tint, not the solid selection colour: the
            // coloured values on them must stay readable (a reviewer measured 2.3:1 on solid).
            const bool selected = step.pair_index == state.pair;
            if (selected)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1,
                                       ImGui::GetColorU32(ImGuiCol_Header, 0.3f));
            ImGui::TableNextColumn();
            char label[24];
            std::snprintf(label, sizeof label, selected ? "%d ◀" : "%d", dim);
            if (ImGui::Selectable(label, false, ImGuiSelectableFlags_SpanAllColumns))
                state.pair = step.pair_index;
            ImGui::TableNextColumn();
            ImGui::Text("%d", step.pair_index);
            ImGui::TableNextColumn();
            // One style for the working: 6 significant digits (the tooltips and the CSV keep
            // every digit); the values below keep 6 decimals, signed, so that they line up.
            ImGui::TextUnformatted(ShownNumber(step.exponent).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(ShownNumber(step.denominator).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(ShownNumber(step.angle).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(ShownNumber(step.angle_mod_2pi).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(step.is_cos ? "cos" : "sin");
            ImGui::TableNextColumn();
            ImGui::TextColored(frame.ColorVec(Role::PosA), "%+.6f", step.value);
            ImGui::TableNextColumn();
            ImGui::TextColored(frame.ColorVec(Role::PosB), "%+.6f", step_other.value);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(ShownNumber(std::fabs(step.value - step_other.value)).c_str());
        }
    }
    ImGui::EndTable();
    frame.Record("calculator.table");
}

std::string CalculatorPanel::CopyNote(const FrameContext& frame) const {
    if (copy_ticket == 0) return {};
    switch (frame.clipboard->OutcomeOf(copy_ticket)) {
    case Clipboard::Outcome::Done:
        return "copied " + std::to_string(copied_rows) + (copied_rows == 1 ? " row" : " rows");
    case Clipboard::Outcome::Pending:
        return "copying…";
    case Clipboard::Outcome::Refused:
        break;
    }
    return "not copied: the browser refused the clipboard (use Save CSV…)";
}

std::string CalculatorPanel::Csv(const AppState& state) const {
    // The rows the table shows, from the same result.
    const Result& result = ResultFor(state);
    const int first = result.first;
    std::string csv = "dim,i,exponent_2i_over_d,denominator,angle,angle_mod_2pi,function,pe_pos,"
                      "pe_other,abs_delta\n";
    char line[320];
    for (std::size_t row = 0; row < result.steps.size(); ++row) {
        const int dim = first + static_cast<int>(row);
        const PeStep& s = result.steps[row];
        const PeStep& o = result.steps_other[row];
        std::snprintf(line, sizeof line, "%d,%d,%.17g,%.17g,%.17g,%.17g,%s,%.17g,%.17g,%.17g\n",
                      dim, s.pair_index, s.exponent, s.denominator, s.angle, s.angle_mod_2pi,
                      s.is_cos ? "cos" : "sin", s.value, o.value, std::fabs(s.value - o.value));
        csv += line;
    }
    return csv;
}

void CalculatorPanel::AddSceneFields(SceneTable& table) {
    table.Number(kCalculatorOffset, &second_offset);
    table.Integer(kCalculatorDimFrom, &dim_from);
    table.Integer(kCalculatorDimTo, &dim_to);
}

nlohmann::json CalculatorPanel::Readouts(const AppState& state) const {
    const Inputs inputs = InputsFor(state);
    const int first = inputs.first, last = inputs.last;
    const double other = inputs.other;
    const Result& result = ResultFor(state);
    nlohmann::json rows = nlohmann::json::array();
    for (int dim = first; dim <= last; ++dim) {
        const PeStep& s = result.steps[dim - first];
        const double value_other = result.steps_other[dim - first].value;
        rows.push_back({{"dim", dim},
                        {"i", s.pair_index},
                        {"exponent", s.exponent},
                        {"denominator", s.denominator},
                        {"angle", s.angle},
                        {"angle_mod_2pi", s.angle_mod_2pi},
                        {"function", s.is_cos ? "cos" : "sin"},
                        {"value", s.value},
                        {"value_other", value_other},
                        {"abs_delta", std::fabs(s.value - value_other)}});
    }
    return {{"pos", state.pos_a}, {"other_pos", other}, {"dim_from", first},
            {"dim_to", last},     {"rows", rows},       {"summary", result.summary}};
}

std::vector<WidgetName> CalculatorPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        {"calculator.all", "the all button: shows every dimension in the table"},
        {"calculator.chart", "the bar chart of |PE(pos A) − PE(second position)| per dim"},
        {"calculator.copy_csv", "the Copy as CSV button: copies the shown rows to the clipboard"},
        ControlWidget(kCalculatorDimFrom, "box"),
        ControlWidget(kCalculatorDimTo, "box"),
        {"calculator.first_8", "the first 8 button: shows dims 0 to 7"},
        {"calculator.header<i>", "the step table's header cell of column i (from 0)"},
        {"calculator.last_8", "the last 8 button: shows the last eight dims"},
        ControlWidget(kCalculatorOffset, "box"),
        ControlWidget(kCalculatorPosInput, "box"),
        ControlWidget(kCalculatorPosSlider),
        {"calculator.save_csv", "the Save CSV button: writes the shown rows to a file"},
        {"calculator.summary",
         "the summary paragraph: where the two positions differ most and least",
         {"pos", "other_pos", "summary"}},
        {"calculator.table",
         "the table of working from pos to PE value, one row per dimension",
         {"pos", "other_pos", "rows"}},
    };
}

} // namespace pelab
