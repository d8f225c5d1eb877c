// candidates_drawing.cpp — the candidates panel's pictures, table, scene fields and readouts
// (the panel's state and controls are in panel_candidates.cpp).
#include "io/scene.h"
#include "panels/candidates/panel_candidates.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

constexpr int kGridPositions = 64, kGridDims = 16; ///< the grid's size at most
constexpr int kShownPositions = 40; ///< the plot starts on positions 0 … 40 (zoom out for all)
const Role kDimRoles[kCandidateShownDims] = {Role::Sin, Role::Cos, Role::PosB, Role::ShiftArc};

double EmbeddingNorm(double value, int d_model, bool scaled) {
    const double norm = value * std::sqrt(static_cast<double>(d_model));
    return scaled ? norm * std::sqrt(static_cast<double>(d_model)) : norm;
}

} // namespace

void CandidatesPanel::DrawGrid(FrameContext& frame, ImVec2 size) {
    const AppState& state = frame.state;
    const CandidateSettings settings = Settings(state);
    const int columns = std::min(positions, kGridPositions);
    const int rows = std::min(CheckedDims(state), kGridDims);
    std::vector<double> values(static_cast<std::size_t>(columns) * rows, 0.0);
    std::vector<bool> defined(static_cast<std::size_t>(columns), false);
    double largest = 0;
    for (int p = 0; p < columns; ++p) {
        defined[p] = candidate_encode(Selected(), p, settings, rows, values.data() + p * rows);
        for (int j = 0; defined[p] && j < rows; ++j)
            largest = std::max(largest, std::abs(values[p * rows + j]));
    }
    const float font = ImGui::GetFontSize();
    char title[160];
    std::snprintf(title, sizeof title,
                  "%s: positions 0–%d across, dims 0–%d down; colour from −%.3g to +%.3g (hover "
                  "a cell)",
                  candidate_name(Selected()), columns - 1, rows - 1, largest, largest);
    ImGui::TextUnformatted(title);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float label = font * 2.5f;
    const float cell_w = std::max(2.0f, (size.x - label) / columns);
    const float cell_h = std::max(2.0f, (size.y - font * 2.5f) / rows);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const plot::DivergingMap map{frame.Color(Role::MapNegative), frame.Color(Role::MapMiddle),
                                 frame.Color(Role::MapPositive)};
    for (int p = 0; p < columns; ++p)
        for (int j = 0; j < rows; ++j) {
            const ImVec2 a(origin.x + label + cell_w * p, origin.y + cell_h * j);
            const ImVec2 b(a.x + cell_w - 1, a.y + cell_h - 1);
            if (!defined[p]) {
                draw->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_TextDisabled));
                continue;
            }
            const float t = largest > 0 ? static_cast<float>(values[p * rows + j] / largest) : 0;
            draw->AddRectFilled(a, b, plot::Diverging(t, map));
        }
    for (int j = 0; j < rows; j += std::max(1, rows / 8)) {
        char text[16];
        std::snprintf(text, sizeof text, "%d", j);
        draw->AddText(ImVec2(origin.x, origin.y + cell_h * j + (cell_h - font) / 2),
                      ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
    }
    for (int p = 0; p < columns; p += 8) {
        char text[16];
        std::snprintf(text, sizeof text, "%d", p);
        draw->AddText(ImVec2(origin.x + label + cell_w * p, origin.y + cell_h * rows + 2),
                      ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
    }
    ImGui::Dummy(ImVec2(size.x, cell_h * rows + font * 1.3f));
    frame.Record("candidates.values");
    if (ImGui::IsItemHovered()) {
        const ImVec2 mouse = ImGui::GetMousePos();
        const int p = static_cast<int>((mouse.x - origin.x - label) / cell_w);
        const int j = static_cast<int>((mouse.y - origin.y) / cell_h);
        if (p >= 0 && p < columns && j >= 0 && j < rows) {
            if (defined[p])
                Tooltip("PE(%d)_%d = %.6g   (colour scale: ±%.3g)", p, j, values[p * rows + j],
                        largest);
            else
                Tooltip("position %d: no entry (L = %d)", p, length);
        }
    }
}

CandidatesPanel::PlotData CandidatesPanel::ComputePlot(const PlotInputs& inputs) {
    PlotData data;
    double values[kCandidateShownDims];
    for (int p = 0; p < inputs.positions; ++p) {
        if (!candidate_encode(inputs.candidate, p, inputs.settings, inputs.dims, values)) break;
        data.x.push_back(p);
        for (int j = 0; j < inputs.dims; ++j) {
            data.y[j].push_back(values[j]);
            if (p <= kShownPositions) // the range of the positions shown at first
                data.low = std::min(data.low, values[j]),
                data.high = std::max(data.high, values[j]);
        }
    }
    return data;
}

void CandidatesPanel::DrawValues(FrameContext& frame, ImVec2 size) {
    if (grid) {
        DrawGrid(frame, size);
        return;
    }
    const AppState& state = frame.state;
    const Candidate selected = Selected();
    // Raw index and index / length repeat one value in every dim: one line says it.
    const bool one_value =
        selected == Candidate::RawIndex || selected == Candidate::IndexOverLength;
    const int dims = one_value ? 1 : std::min(kCandidateShownDims, state.d_model);
    const PlotInputs inputs{selected, Settings(state), positions, dims};
    const PlotData& data = plot_cache.Get(inputs, ComputePlot);
    const std::vector<double>& plot_x = data.x;
    const std::array<std::vector<double>, kCandidateShownDims>& plot_y = data.y;
    if (plot_fitted != plot_cache.Computations()) {
        const double margin = 0.08 * (data.high - data.low);
        // The first 40 positions show each encoding's pattern; zoom out for all N.
        values_view.Refit(plot::Range{0, std::min<double>(kShownPositions, positions - 1.0)},
                          plot::Range{data.low - margin, data.high + margin});
        plot_fitted = plot_cache.Computations();
    }
    plot::PlotConfig config;
    config.x_label = "position p";
    config.y_label = "PE(p)_j";
    config.x_limits = plot::Range{-positions * 0.5, positions * 1.5};
    plot::Plot p;
    char id[64];
    std::snprintf(id, sizeof id, "%s: dims 0–%d##candidate_values", candidate_name(selected),
                  dims - 1);
    if (!p.Begin(id, values_view, size, config)) return;
    frame.Record("candidates.values");
    const int count = static_cast<int>(plot_x.size());
    const char* labels[kCandidateShownDims] = {"dim 0", "dim 1", "dim 2", "dim 3"};
    if (one_value) labels[0] = "every dim (all equal)";
    for (int j = 0; j < dims; ++j)
        p.Line(labels[j], plot_x.data(), plot_y[j].data(), count, frame.Color(kDimRoles[j]),
               frame.Px(j == 0 ? 2.5f : 1.8f));
    if (count < positions)
        p.VLine(count, frame.Color(Role::Warning), "no entry from here (L)", frame.Px(2.0f));
    p.End();
}

void CandidatesPanel::DrawTable(FrameContext& frame, const Table& table) {
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##properties", kPropertyCount + 1, flags)) return;
    // Short headers and names so that the table reads whole at 1024×768 and text scale 2; the
    // tooltips say the rest.
    const char* headers[kPropertyCount] = {"bounded", "unique", "same L",
                                           "smooth",  "linear", "past L"};
    const char* short_names[kCandidateCount] = {"raw index", "index / L",     "binary",
                                                "decimal",   "random + step", "sin only",
                                                "(sin+1)/2", "sin + cos",     "learned"};
    // Each column as wide as its widest text needs, in proportion when the room is short: a
    // name or number is never cut while a neighbouring column has room to spare.
    float need[kPropertyCount + 1];
    need[0] = ImGui::CalcTextSize("encoding").x;
    for (const char* name : short_names)
        need[0] = std::max(need[0], ImGui::CalcTextSize(name).x);
    for (int property = 0; property < kPropertyCount; ++property) {
        need[property + 1] = ImGui::CalcTextSize(headers[property]).x;
        for (int c = 0; c < kCandidateCount; ++c) {
            const std::string shown = "▲ " + table.cells[c][property].text;
            need[property + 1] = std::max(need[property + 1], ImGui::CalcTextSize(shown.c_str()).x);
        }
    }
    ImGui::TableSetupColumn("encoding", ImGuiTableColumnFlags_WidthStretch, need[0]);
    for (int property = 0; property < kPropertyCount; ++property)
        ImGui::TableSetupColumn(headers[property], ImGuiTableColumnFlags_WidthStretch,
                                need[property + 1]);
    char tips[kPropertyCount + 1][200];
    std::snprintf(tips[0], sizeof tips[0], "Click a row to plot that encoding.");
    std::snprintf(tips[1], sizeof tips[1],
                  "The largest |value| of any dimension, in the encoding's own units (an "
                  "embedding value is about 0.1); ok when ≤ %.0f",
                  kBoundedLimit);
    std::snprintf(tips[2], sizeof tips[2],
                  "A count: pairs of positions whose vectors agree within %.0e in every "
                  "dimension; ok when 0",
                  kNearCollision);
    std::snprintf(tips[3], sizeof tips[3],
                  "The largest change of one dimension of PE(5) between a text of length 10 and "
                  "one of length 100, in the encoding's units; ok when 0");
    std::snprintf(tips[4], sizeof tips[4],
                  "A ratio, no unit: the largest step to the next position over the RMS "
                  "distance between two positions; ok when ≤ %.2f",
                  kSmoothLimit);
    std::snprintf(tips[5], sizeof tips[5],
                  "A ratio, no unit: what the best linear map PE(p) → PE(p + k) misses, relative "
                  "to PE(p + k); ok when ≤ %.0e",
                  kLinearShiftLimit);
    std::snprintf(tips[6], sizeof tips[6],
                  "yes or no: does position L (one past the table or the length) have a "
                  "vector?");
    const char* tooltips[kPropertyCount + 1];
    for (int column = 0; column <= kPropertyCount; ++column)
        tooltips[column] = tips[column];
    TableHeadersWithTooltips(frame, tooltips, "candidates");
    for (int c = 0; c < kCandidateCount; ++c) {
        const auto each = static_cast<Candidate>(c);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        // A light tint for the plotted row, so that its coloured verdicts still read.
        ImVec4 tint = ImGui::GetStyleColorVec4(ImGuiCol_Header);
        tint.w *= 0.45f;
        ImGui::PushStyleColor(ImGuiCol_Header, tint);
        ImGui::PushStyleColor(ImGuiCol_HeaderHovered,
                              ImVec4(tint.x, tint.y, tint.z, tint.w * 0.6f));
        ImGui::PushStyleColor(ImGuiCol_HeaderActive, tint);
        if (ImGui::Selectable(short_names[c], each == Selected(),
                              ImGuiSelectableFlags_SpanAllColumns))
            candidate = candidate_id(each);
        ImGui::PopStyleColor(3);
        if (ImGui::IsItemHovered() &&
            (ImGui::TableGetColumnFlags(0) & ImGuiTableColumnFlags_IsHovered))
            Tooltip("%s: %s", candidate_name(each), candidate_formula(each));
        for (int property = 0; property < kPropertyCount; ++property) {
            ImGui::TableNextColumn();
            const PropertyCell& cell = table.cells[c][property];
            const Role role = !cell.known ? Role::Muted : cell.ok ? Role::Good : Role::Warning;
            ImGui::TextColored(frame.ColorVec(role), "%s %s",
                               !cell.known ? "·"
                               : cell.ok   ? "●"
                                           : "▲",
                               cell.text.c_str());
            if (ImGui::IsItemHovered())
                FormulaTooltip((std::string(candidate_name(each)) + ": " + cell.how).c_str());
        }
    }
    ImGui::EndTable();
    frame.Record("candidates.table");
    char legend[200];
    std::snprintf(legend, sizeof legend,
                  "● ok   ▲ fails   · cannot say.   Measured over positions 0…%d and dims 0…%d "
                  "(of %d), k = %d.%s",
                  table.inputs.positions - 1, table.inputs.dims - 1, table.inputs.settings.d_model,
                  table.inputs.shift_k, table_current ? "" : "  (updating…)");
    MutedWrappedText(legend);
    frame.Record("candidates.legend");
}

void CandidatesPanel::DrawDrowning(FrameContext& frame, float width) {
    const AppState& state = frame.state;
    const double embedding = EmbeddingNorm(embedding_value, state.d_model, scale_embedding);
    const double pe = candidate_norm(Selected(), state.pos_a, Settings(state));
    ImGui::TextUnformatted("Drowning meter");
    frame.Record("candidates.drowning_title");
    const double largest = std::max({embedding, pe, 1e-12});
    const float bar_height = ImGui::GetFontSize() * 0.8f;
    const auto bar = [&](const char* name, double value, Role role, const char* record) {
        char label[96];
        if (value < 0)
            std::snprintf(label, sizeof label, "%s: no entry", name);
        else
            std::snprintf(label, sizeof label, "%s = %s", name, ShownNumber(value, 3).c_str());
        ImGui::TextUnformatted(label);
        const ImVec2 start = ImGui::GetCursorScreenPos();
        const float length = value <= 0 ? 0.0f : static_cast<float>(width * value / largest);
        ImGui::GetWindowDrawList()->AddRectFilled(
            start, ImVec2(start.x + std::max(1.0f, length), start.y + bar_height),
            frame.Color(role));
        ImGui::Dummy(ImVec2(width, bar_height));
        frame.Record(record);
    };
    bar(scale_embedding ? "‖embedding·√d‖" : "‖embedding‖", embedding, Role::Accent,
        "candidates.embedding_bar");
    char name[64];
    std::snprintf(name, sizeof name, "‖PE(%s)‖", PositionText(state.pos_a).c_str());
    bar(name, pe, Role::PosA, "candidates.pe_bar");
    const std::string sentence =
        DrowningSentence(candidate_name(Selected()), state.pos_a, length, embedding, pe).text;
    WrappedText(sentence.c_str());
    frame.Record("candidates.drowning");
}

void CandidatesPanel::DrawAliasing(FrameContext& frame, float size) {
    const AppState& state = frame.state;
    const double w = omega(state.pair, state.d_model, state.base);
    const double angle = std::fmod(w * state.pos_a, 2 * M_PI);
    const double s = std::sin(angle), c = std::cos(angle);
    char line[320];
    if (std::abs(c) < 5e-4) // π − θ is θ itself (to the digits shown): nothing is aliased
        std::snprintf(line, sizeof line,
                      "Why sin needs cos: sin alone confuses θ with π − θ, but here θ = ω_%d·pos A "
                      "= %.3f is a quarter "
                      "turn, where the two meet (cos θ = 0) and sin loses nothing. Move pos A to "
                      "see two angles share one sin.",
                      state.pair, angle);
    else
        std::snprintf(line, sizeof line,
                      "Why sin needs cos: θ = ω_%d·pos A = %.3f and π − θ share sin θ = %.3f; "
                      "cos tells them apart (%.3f vs %.3f). The circle: sin across, cos up.",
                      state.pair, angle, s, c, -c);
    WrappedText(line);
    frame.Record("candidates.aliasing_text");
    // Too small a circle says nothing its sentence does not (a short window, the lesson bar).
    if (size < ImGui::GetFontSize() * 8.0f) return;
    const float circle = size;
    circle_view.SetHome(plot::Range{-1.3, 1.3}, plot::Range{-1.3, 1.3});
    if (!circle_view.has_home) circle_view.Reset();
    plot::PlotConfig config;
    config.flags =
        plot::PlotFlags_EqualAspect | plot::PlotFlags_NoHoverReadout | plot::PlotFlags_NoLegend;
    config.x_label = "sin θ";
    config.y_label = "cos θ";
    plot::Plot p;
    if (!p.Begin("##aliasing", circle_view, ImVec2(circle, circle), config)) return;
    frame.Record("candidates.aliasing");
    double xs[129], ys[129];
    for (int k = 0; k <= 128; ++k)
        xs[k] = std::sin(2 * M_PI * k / 128), ys[k] = std::cos(2 * M_PI * k / 128);
    p.Line("##circle", xs, ys, 129, ImGui::GetColorU32(ImGuiCol_Border, 1.0f), frame.Px(1.5f));
    // Points are (sin θ, cos θ) as on the clocks: sin across, cos up.
    const double chord_x[] = {s, s}, chord_y[] = {c, -c};
    p.Line("same sin", chord_x, chord_y, 2, frame.Color(Role::Muted), frame.Px(1.5f));
    p.Markers("θ", &s, &c, 1, frame.Color(Role::PosA), frame.Px(6.0f));
    const double alias_y = -c;
    p.Markers("π − θ", &s, &alias_y, 1, frame.Color(Role::PosB), frame.Px(6.0f),
              plot::Marker::Ring);
    p.End();
}

void CandidatesPanel::AddSceneFields(SceneTable& table) {
    std::string ids;
    for (int c = 0; c < kCandidateCount; ++c)
        ids += std::string(c ? ", " : "") + candidate_id(static_cast<Candidate>(c));
    const std::string doc = "one of " + ids + ": the encoding the candidates panel plots";
    table.Text("candidates_plot", doc.c_str(), &candidate, [ids](const std::string& text) {
        for (int c = 0; c < kCandidateCount; ++c)
            if (text == candidate_id(static_cast<Candidate>(c))) return std::string();
        return "must be one of " + ids;
    });
    table.Integer(kCandidatesLength, &length);
    table.Integer("candidates_positions", "N, positions the table measures", &positions, 16,
                  kMaxCheckedPositions);
    table.Integer(kCandidatesShiftK, &shift_k);
    table.Number(kCandidatesEmbedding, &embedding_value);
    table.Bool("candidates_scale_embedding", "embedding × √d_model", &scale_embedding);
    table.Bool("candidates_grid", "values as a positions × dims grid", &grid);
}

std::string CandidatesPanel::StatusNote(const AppState& /*state*/) const {
    return std::string("plotting ") + candidate_name(Selected());
}

nlohmann::json CandidatesPanel::Readouts(const AppState& state) const {
    nlohmann::json rows = nlohmann::json::array();
    const CandidateSettings settings = Settings(state);
    const Table& table = TableFor(state);
    const int n = table.inputs.positions;
    for (int c = 0; c < kCandidateCount; ++c) {
        const auto each = static_cast<Candidate>(c);
        const CandidateProperties& m = table.properties[c];
        nlohmann::json row = {
            {"candidate", candidate_id(each)},
            {"max_abs", m.max_abs},
            {"collisions_near", m.collisions_near},
            {"collisions_exact", m.collisions_exact},
            // Not searched (fewer than two positions, or rows so crowded that
            // an exact search would compare most pairs): null, not a number.
            {"closest_pair", m.closest_p < 0 ? nlohmann::json(nullptr)
                                             : nlohmann::json({m.closest_p, m.closest_q})},
            {"closest_distance",
             m.closest_p < 0 ? nlohmann::json(nullptr) : nlohmann::json(m.closest_distance)},
            {"length_change", m.length_change},
            {"smoothness", m.smoothness},
            {"shift_residual", std::isnan(m.shift_residual) ? nlohmann::json(nullptr)
                                                            : nlohmann::json(m.shift_residual)},
            {"defined_beyond_length", m.defined_beyond_length}};
        for (int property = 0; property < kPropertyCount; ++property) {
            const PropertyCell& cell = table.cells[c][property];
            row["verdicts"][PropertyName(property)] = !cell.known ? "cannot say"
                                                      : cell.ok   ? "ok"
                                                                  : "fails";
        }
        rows.push_back(row);
    }
    const double embedding = EmbeddingNorm(embedding_value, state.d_model, scale_embedding);
    const double pe = candidate_norm(Selected(), state.pos_a, settings);
    return {
        {"plotted", candidate},
        {"length", length},
        {"positions", n},
        {"dims_checked", CheckedDims(state)},
        {"properties", rows},
        {"embedding_norm", embedding},
        {"pe_norm", pe < 0 ? nlohmann::json(nullptr) : nlohmann::json(pe)},
        {"drowning",
         DrowningSentence(candidate_name(Selected()), state.pos_a, length, embedding, pe).text}};
}

} // namespace pelab
