#include "panels/clocks/panel_clocks.h"
#include "widgets/number_text.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pelab {

namespace {
constexpr NumberControl kClocksShift = Drawn(kShiftK, "k", "clocks.shift_k");
constexpr NumberControl kClocksPosA = Drawn(kPosA, "pos A", "clocks.pos_a");
constexpr NumberControl kClocksPosB = Drawn(kPosB, "pos B", "clocks.pos_b");
constexpr NumberControl kClocksSize{
    "clock_size",
    "size of the clock faces",
    0.6,
    2.5,
    1,
    "size",
    "%.1fx",
    false,
    "Size of the clock faces (in present mode they also grow with the window).",
    "clocks.size"};
} // namespace

HandTip HandDirection(double angle) {
    return {static_cast<float>(std::sin(angle)), static_cast<float>(-std::cos(angle))};
}

void ClocksPanel::Draw(FrameContext& frame) {
    if (BeginControls(frame)) {
        DrawTransport(frame);
        EndControls(frame);
    }
    const char* description =
        "Each clock is one pair i. Its hand points to (x, y) = (sin ω_i·pos, cos ω_i·pos): "
        "straight up at pos 0, turning clockwise by ω_i radians per position; one full turn "
        "takes one wavelength.";
    // The paragraph for the advanced reading; in a short window or beginner mode it is the
    // "(?)" beside the grid's heading.
    const bool as_marker = frame.pictures_first || !frame.advanced;
    if (!as_marker) {
        WrappedText(description);
        ImGui::Separator();
    }
    DrawSummary(frame);
    ImGui::Separator();
    // In a short window the grid takes all the height left (one scrollbar, the grid's): the
    // description is the "(?)" beside its heading.
    DrawGrid(frame, as_marker ? description : nullptr);
}

void ClocksPanel::DrawTransport(FrameContext& frame) {
    AppState& state = frame.state;
    FlowRow row;
    const auto shift_controls = [&] {
        row.Item(CheckboxWidth("k-shift arc"));
        ImGui::Checkbox("k-shift arc", &show_shift);
        frame.Record("clocks.show_shift");
        WithHelp(row,
                 "Moving from pos A to pos A + k turns every hand by ω_i·k: the reddish-purple "
                 "arc. The arc depends on k only, never on where A is; that is the rotation R_k.",
                 [&] {
                     return SceneSlider(frame, row, kClocksShift, &state.shift_k,
                                        FitWidth(7.0f, "k") - HelpMarkerRoom());
                 });
    };
    // In a strip (a short window: two rows show) the shift k comes first: it is what the clocks
    // are there to show.
    if (frame.controls_in_strip) shift_controls();
    PlayControls(frame, row, "clocks");
    row.Item(ButtonWidth("-1") + FlowRow::Spacing() + ButtonWidth("+1"));
    if (ImGui::Button("-1")) state.pos_a = std::max(0.0, std::round(state.pos_a) - 1);
    FormulaTooltip("pos A − 1 (Left arrow)");
    frame.Record("clocks.minus_one");
    ImGui::SameLine();
    if (ImGui::Button("+1")) state.pos_a = std::min(kUiMaxPosition, std::round(state.pos_a) + 1);
    FormulaTooltip("pos A + 1 (Right arrow)");
    frame.Record("clocks.plus_one");
    const float drag = FitWidth(6.0f, "pos A");
    SceneDrag(frame, row, kClocksPosA, &state.pos_a, drag, 0.1f, PositionFormat(state.pos_a));
    SceneDrag(frame, row, kClocksPosB, &state.pos_b, drag, 0.1f, PositionFormat(state.pos_b));
    row.Item(CheckboxWidth("pos B hand"));
    ImGui::Checkbox("pos B hand", &show_b);
    frame.Record("clocks.show_b");
    if (!frame.controls_in_strip) shift_controls();
    SceneSlider(frame, row, kClocksSize, &clock_scale, FitWidth(6.0f, "size"));
}

namespace {
// A face's cell: the face or its caption, whichever is wider, and a margin.
float ClockCellWidth(float radius, const char* caption) {
    const float font = ImGui::GetFontSize();
    return std::max(radius * 2, ImGui::CalcTextSize(caption).x) + font * 0.6f;
}
} // namespace

bool ClocksPanel::DrawClock(FrameContext& frame, int pair_index, float radius,
                            const char* caption) {
    AppState& state = frame.state;
    const float font = ImGui::GetFontSize();
    const Hand& hand = ResultFor(state).hands[static_cast<std::size_t>(pair_index)];
    const double w = hand.omega, lambda = hand.wavelength;
    const ImVec2 cell(ClockCellWidth(radius, caption), radius * 2 + font * 2.6f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::PushID(pair_index);
    const bool clicked = ImGui::InvisibleButton("##clock", cell);
    ImGui::PopID();
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 centre(origin.x + cell.x * 0.5f, origin.y + radius + font * 0.3f);
    const bool selected = pair_index == state.pair;
    draw->AddCircleFilled(centre, radius, ImGui::GetColorU32(ImGuiCol_FrameBg),
                          0); // 0: segments by radius (few for small faces)
    draw->AddCircle(centre, radius,
                    selected ? frame.Color(Role::Highlight)
                             : ImGui::GetColorU32(ImGuiCol_Border, 1.0f),
                    0, frame.Px(selected ? 3.0f : 1.5f));
    for (int tick = 0; tick < 12; ++tick) {
        const HandTip t = HandDirection(tick * M_PI / 6.0);
        const float inner = tick % 3 == 0 ? 0.80f : 0.88f;
        draw->AddLine(ImVec2(centre.x + t.dx * radius * inner, centre.y + t.dy * radius * inner),
                      ImVec2(centre.x + t.dx * radius * 0.97f, centre.y + t.dy * radius * 0.97f),
                      ImGui::GetColorU32(ImGuiCol_Text, 0.5f), frame.Px(1.0f));
    }
    const double angle_a = hand.angle_a;
    if (show_shift && state.shift_k != 0) {
        // The arc from pos A to pos A + k (capped at one turn; more turns are written out).
        const double sweep = hand.shift_arc;
        const double shown = std::clamp(sweep, -2 * M_PI, 2 * M_PI);
        const int segments = std::max(2, static_cast<int>(std::fabs(shown) / (2 * M_PI) * 48));
        ImVec2 arc[49];
        const float r = radius * 0.62f;
        for (int k = 0; k <= segments; ++k) {
            const HandTip t = HandDirection(angle_a + shown * k / segments);
            arc[k] = ImVec2(centre.x + t.dx * r, centre.y + t.dy * r);
        }
        draw->AddPolyline(arc, segments + 1, frame.Color(Role::ShiftArc), 0, frame.Px(3.0f));
    }
    if (show_b) {
        const HandTip b = HandDirection(hand.angle_b);
        draw->AddLine(centre,
                      ImVec2(centre.x + b.dx * radius * 0.78f, centre.y + b.dy * radius * 0.78f),
                      frame.Color(Role::PosB), frame.Px(3.0f));
    }
    const HandTip a = HandDirection(angle_a);
    draw->AddLine(centre, ImVec2(centre.x + a.dx * radius * 0.9f, centre.y + a.dy * radius * 0.9f),
                  frame.Color(Role::PosA), frame.Px(3.5f));
    draw->AddCircleFilled(centre, frame.Px(3.0f), ImGui::GetColorU32(ImGuiCol_Text));
    const float text_y = centre.y + radius + font * 0.2f;
    const ImVec2 caption_size = ImGui::CalcTextSize(caption);
    draw->AddText(ImVec2(centre.x - caption_size.x * 0.5f, text_y),
                  ImGui::GetColorU32(ImGuiCol_Text), caption);
    char label[48];
    // One decimal below 10 000, whole above; grouped as every number in the app (λ 60 611).
    const double shown = lambda < 1e4 ? std::round(lambda * 10) / 10 : std::round(lambda);
    std::snprintf(label, sizeof label, "λ %s", ShownNumber(shown).c_str());
    const ImVec2 label_size = ImGui::CalcTextSize(label);
    draw->AddText(ImVec2(centre.x - label_size.x * 0.5f, text_y + font),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
    if (hovered) {
        ImGui::BeginTooltip();
        ImGui::Text("pair %d (dims %d, %d): ω = %.6g rad/pos, wavelength %.6g", pair_index,
                    2 * pair_index, 2 * pair_index + 1, w, lambda);
        ImGui::Text("pos A: angle ω·pos = %.4f rad = %.3f turns", angle_a, angle_a / (2 * M_PI));
        ImGui::Text("hand tip (sin, cos) = (%+.4f, %+.4f)", std::sin(angle_a), std::cos(angle_a));
        if (state.shift_k != 0)
            ImGui::Text("k = %d turns the hand by ω·k = %.4f rad", state.shift_k, hand.shift_arc);
        ImGui::TextDisabled("click: select this pair everywhere");
        ImGui::EndTooltip();
    }
    if (clicked) state.pair = pair_index;
    return clicked;
}

void ClocksPanel::DrawSummary(FrameContext& frame) {
    AppState& state = frame.state;
    const float font = ImGui::GetFontSize();
    const std::vector<SummaryFace>& summary = ResultFor(state).summary;
    const int face_count = static_cast<int>(summary.size());
    // Faces as large as 3.2 em, larger when a presented panel has the height for it, smaller
    // when three do not fit side by side; the faces and the legend wrap when narrow.
    char legend_a[64], legend_b[64], legend_k[64], legend_pair[48];
    std::snprintf(legend_a, sizeof legend_a, "— pos A = %s", PositionText(state.pos_a).c_str());
    std::snprintf(legend_b, sizeof legend_b, "— pos B = %s", PositionText(state.pos_b).c_str());
    std::snprintf(legend_k, sizeof legend_k, "— pos A → pos A + %d", state.shift_k);
    std::snprintf(legend_pair, sizeof legend_pair, "selected pair: %d", state.pair);
    float legend_width = 0;
    for (const char* line : {legend_a, legend_b, legend_k, legend_pair})
        legend_width = std::max(legend_width, ImGui::CalcTextSize(line).x);
    const float gap = font * 1.5f;
    if (frame.pictures_first) {
        // A short window (a projector at text ×2): the fastest, middle and slowest faces small,
        // on one row (the grid below starts with the fast ones; these show the slow hands too),
        // then the legend on as few lines as the width allows.
        const float small = font * 1.4f;
        FlowRow faces;
        for (int k = 0; k < face_count; ++k) {
            char caption[48];
            std::snprintf(caption, sizeof caption, "%s: i = %d", summary[k].name, summary[k].pair);
            faces.Item(ClockCellWidth(small, caption), gap);
            ImGui::BeginGroup();
            ImGui::PushID(k);
            DrawClock(frame, summary[k].pair, small, caption);
            ImGui::PopID();
            ImGui::EndGroup();
            const std::string name = "clocks.summary_pair_" + std::to_string(summary[k].pair);
            frame.Record(name.c_str());
        }
        FlowRow legend;
        ImGui::BeginGroup();
        const auto item = [&](const char* text, const ImVec4& colour) {
            legend.Item(ImGui::CalcTextSize(text).x, gap);
            ImGui::TextColored(colour, "%s", text);
        };
        item(legend_a, frame.ColorVec(Role::PosA));
        if (show_b) item(legend_b, frame.ColorVec(Role::PosB));
        if (show_shift && state.shift_k != 0) item(legend_k, frame.ColorVec(Role::ShiftArc));
        item(legend_pair, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        ImGui::EndGroup();
        frame.Record("clocks.legend");
        return;
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // The height share keeps room for the grid below, but never shrinks a face under 2.2 em:
    // a face must grow with the text, or at text scale 2 it is smaller than its own caption.
    const float radius =
        std::max(font * 1.5f, std::min({std::max(font * 3.2f, avail.y * 0.16f),
                                        std::max(font * 2.2f, avail.y * 0.12f),
                                        ((avail.x - 2 * gap) / 3.0f - font * 0.6f) * 0.5f}));
    FlowRow row;
    for (int k = 0; k < face_count; ++k) {
        char caption[48];
        std::snprintf(caption, sizeof caption, "%s: i = %d", summary[k].name, summary[k].pair);
        row.Item(ClockCellWidth(radius, caption), gap);
        ImGui::BeginGroup();
        ImGui::PushID(k);
        DrawClock(frame, summary[k].pair, radius, caption);
        ImGui::PopID();
        ImGui::EndGroup();
        const std::string name = "clocks.summary_pair_" + std::to_string(summary[k].pair);
        frame.Record(name.c_str());
    }
    row.Item(legend_width, gap);
    ImGui::BeginGroup();
    ImGui::TextColored(frame.ColorVec(Role::PosA), "%s", legend_a);
    if (show_b) ImGui::TextColored(frame.ColorVec(Role::PosB), "%s", legend_b);
    if (show_shift && state.shift_k != 0)
        ImGui::TextColored(frame.ColorVec(Role::ShiftArc), "%s", legend_k);
    ImGui::TextDisabled("%s", legend_pair);
    ImGui::EndGroup();
    frame.Record("clocks.legend");
}

void ClocksPanel::DrawGrid(FrameContext& frame, const char* description) {
    AppState& state = frame.state;
    const float font = ImGui::GetFontSize();
    const int pairs = state.d_model / 2;
    ImGui::Text("All %d pairs", pairs);
    if (description != nullptr) {
        ImGui::SameLine();
        HelpMarker(description);
    }
    // At least one row of faces stays in view however much the controls above take.
    // In a short window the grid takes exactly what is left (at least four text lines), so that
    // only the grid scrolls, not the window around it as well.
    const float least =
        frame.pictures_first ? ImGui::GetTextLineHeightWithSpacing() * 4.0f : font * 7.0f;
    ImGui::BeginChild("##clock_grid", ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, least)),
                      false);
    // Faces grow with the window (a presented panel shows fewer, bigger faces) and never get
    // wider than the window.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float grow =
        std::clamp(std::min(avail.x / (font * 40.0f), avail.y / (font * 14.0f)), 1.0f, 3.0f);
    // In a short window (a projector) the faces stay small enough for eight of them to show.
    const float largest = frame.pictures_first ? font * 1.2f : font * 2.0f * clock_scale * grow;
    const float radius = std::max(
        font * 0.8f,
        std::min(largest, (avail.x - font * 0.6f - ImGui::GetStyle().ItemSpacing.x) * 0.5f));
    char widest[32];
    std::snprintf(widest, sizeof widest, "i = %d", pairs - 1);
    const float cell_width = ClockCellWidth(radius, widest) + ImGui::GetStyle().ItemSpacing.x;
    const int columns =
        std::max(1, static_cast<int>(ImGui::GetContentRegionAvail().x / cell_width));
    const int rows = (pairs + columns - 1) / columns;
    ImGuiListClipper clipper;
    clipper.Begin(rows, radius * 2 + font * 2.6f + ImGui::GetStyle().ItemSpacing.y);
    char caption[32];
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            for (int column = 0; column < columns; ++column) {
                const int pair = row * columns + column;
                if (pair >= pairs) break;
                if (column > 0) ImGui::SameLine();
                std::snprintf(caption, sizeof caption, "i = %d", pair);
                DrawClock(frame, pair, radius, caption);
                if (pair == 3) frame.Record("clocks.pair_3");
            }
        }
    }
    ImGui::EndChild();
    frame.Record("clocks.grid");
}

} // namespace pelab

namespace pelab {

void ClocksPanel::AddSceneFields(SceneTable& table) {
    table.Number(kClocksSize, &clock_scale);
    table.Bool("clock_show_b", "clocks draw the pos B hand", &show_b);
    table.Bool("clock_show_shift", "clocks draw the arc of a shift by k", &show_shift);
}

ClocksPanel::Result ClocksPanel::Compute(const Inputs& inputs) {
    Result result;
    const std::vector<double> omegas = frequencies(inputs.d_model, inputs.base);
    for (std::size_t i = 0; i < omegas.size(); ++i) {
        Hand hand;
        hand.omega = omegas[i];
        hand.wavelength = wavelength(static_cast<int>(i), inputs.d_model, inputs.base);
        hand.angle_a = hand.omega * inputs.pos_a;
        hand.angle_b = hand.omega * inputs.pos_b;
        hand.shift_arc = hand.omega * inputs.shift_k;
        result.hands.push_back(hand);
    }
    const int pairs = inputs.d_model / 2;
    if (pairs >= 3)
        result.summary = {{"fastest", 0}, {"middle", pairs / 2}, {"slowest", pairs - 1}};
    else if (pairs == 2)
        result.summary = {{"fastest", 0}, {"slowest", 1}};
    else
        result.summary = {{"the only pair", 0}};
    return result;
}

const ClocksPanel::Result& ClocksPanel::ResultFor(const AppState& state) const {
    return result_cache.Get(
        Inputs{state.d_model, state.shift_k, state.base, state.pos_a, state.pos_b}, Compute);
}

nlohmann::json ClocksPanel::Readouts(const AppState& state) const {
    const Result& result = ResultFor(state);
    const Hand& hand = result.hands[static_cast<std::size_t>(state.pair)];
    nlohmann::json summary = nlohmann::json::array();
    for (const SummaryFace& face : result.summary) {
        const Hand& shown = result.hands[static_cast<std::size_t>(face.pair)];
        summary.push_back({{"face", face.name},
                           {"pair", face.pair},
                           {"wavelength", shown.wavelength},
                           {"turns_at_pos_a", shown.angle_a / (2 * M_PI)}});
    }
    return {{"pair", state.pair},
            {"angle_at_pos_a", hand.angle_a},
            {"angle_at_pos_a_mod_2pi", std::fmod(hand.angle_a, 2 * M_PI)},
            {"hand_tip_at_pos_a", {std::sin(hand.angle_a), std::cos(hand.angle_a)}},
            {"angle_at_pos_b", hand.angle_b},
            {"shift_arc", hand.shift_arc},
            {"summary", summary}};
}

std::vector<WidgetName> ClocksPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        {"clocks.grid", "the scrolling grid of clock faces, one face per pair", {"summary"}},
        {"clocks.legend",
         "the colour key under the summary faces: pos A, pos B, shift, selected pair",
         {"pair"}},
        {"clocks.minus_one", "the -1 button: moves pos A back by one position"},
        {"clocks.pair_3", "the clock face of pair 3 in the grid of all pairs"},
        {"clocks.play", "the Play/Pause button that moves pos A forward on its own"},
        {"clocks.plus_one", "the +1 button: moves pos A forward by one position"},
        ControlWidget(kClocksPosA, "drag box"),
        ControlWidget(kClocksPosB, "drag box"),
        ControlWidget(kClocksShift),
        {"clocks.show_b", "the pos B hand checkbox: draws a second hand for pos B on each face"},
        {"clocks.show_shift", "the k-shift arc checkbox: draws the arc from pos A to pos A + k"},
        ControlWidget(kClocksSize),
        {"clocks.smooth", "the smooth checkbox: Play glides through fractions, not whole steps"},
        {"clocks.speed", "the positions/s slider: how fast Play moves pos A"},
        {"clocks.summary_pair_<i>",
         "the summary face (fastest, middle or slowest) of pair i",
         {"summary"}},
    };
}

} // namespace pelab
