#include "panels/worked/panel_worked.h"
#include "panels/scene_controls.h"

#include "pelab/encodings/pair_turns.h"
#include "widgets/number_text.h"

#include "pelab/base/limits.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/layout.h"
#include "widgets/plot.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pelab {

namespace {

// Correctly rounded to 3 decimals, as the tables print.
double Rounded3(double value) {
    return std::round(value * 1000.0) / 1000.0;
}

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// The cell colours: which part of X a value came from.
Role EmbeddingRole() {
    return Role::Accent;
}
Role PeRole() {
    return Role::ShiftArc;
}

} // namespace

void WorkedPanel::Draw(FrameContext& frame) {
    marked_pe = marked_final = 0;
    sentence_note = ResultFor(frame.state).why;
    if (BeginControls(frame)) {
        DrawControls(frame, ResultFor(frame.state).tokens);
        EndControls(frame);
    }
    // A copy, taken after the controls: an edited cell changes the inputs while the tables are
    // drawn, and the next frame shows its result.
    const Result shown = ResultFor(frame.state);
    const std::vector<std::string>& tokens = shown.tokens;
    sentence_note = shown.why;
    if (tokens.empty()) {
        ErrorText(frame, ("Sentence not used: " + sentence_note + ".").c_str());
        return;
    }
    probe_token = std::clamp(probe_token, 0, static_cast<int>(tokens.size()) - 1);
    if (!frame.pictures_first)
        MutedWrappedText("X_final = token_embedding + positional_encoding, element by element: "
                         "each word's row gets the PE row of its position added.");
    ImGui::BeginChild("##worked_tables", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    // The tables share the room: columns widen to the window (up to 9 em), and rows get taller
    // when there is height to spare, so a presented example reads from the back of a room.
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int rows = 3 * static_cast<int>(tokens.size()) + 3; // three tables and their headers
    const float natural = rows * (font + 2 * ImGui::GetStyle().CellPadding.y) +
                          font * 20.0f; // titles, the sentence and its chart
    const float padding_y = std::clamp((avail.y - natural) / (2.0f * rows),
                                       ImGui::GetStyle().CellPadding.y, font * 0.5f);
    // One first-column width for the three tables, so their dims line up.
    label_width = ImGui::CalcTextSize("word@pos").x;
    for (int row = 0; row < static_cast<int>(tokens.size()); ++row) {
        const std::string label = "\"" + tokens[row] + "\"@" + std::to_string(row);
        label_width = std::max(label_width, ImGui::CalcTextSize(label.c_str()).x);
    }
    label_width += font * 0.5f;
    cell_width = std::clamp((avail.x - label_width - font * 2.0f) / worked_d_model, font * 3.6f,
                            font * 9.0f);
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding,
                        ImVec2(ImGui::GetStyle().CellPadding.x, padding_y));
    // A short window shows the result first (its bars tell the two parts apart), then the parts.
    if (frame.pictures_first) DrawFinalTable(frame, shown);
    DrawEmbeddingTable(frame, shown);
    DrawPeTable(frame, shown);
    if (!frame.pictures_first) DrawFinalTable(frame, shown);
    ImGui::PopStyleVar();
    // Only the cells marked on screen (counted while drawing) are named.
    if (marked_final > 0)
        MutedWrappedText(
            "* the published example prints 0.999, 1.099 and 0.499 in the marked cells: it "
            "cut the digits off instead of rounding (hover a cell).");
    else if (marked_pe > 0)
        MutedWrappedText(
            "* the published example prints 0.999 in the marked PE cells: it cut the digits "
            "off instead of rounding (hover a cell).");
    DrawProbe(frame, shown);
    ImGui::EndChild();
}

void WorkedPanel::DrawControls(FrameContext& frame, const std::vector<std::string>& tokens) {
    const float font = ImGui::GetFontSize();
    FlowRow row;
    const float text_width = FitWidth(14.0f, "sentence");
    row.Item(LabelledWidth(text_width, "sentence"));
    ImGui::SetNextItemWidth(text_width);
    LimitedInputText("sentence", &sentence, kMaxSentenceBytes);
    FormulaTooltip("Up to 16 words, split at spaces; \"The\" and \"the\" share one embedding.");
    frame.Record("worked.sentence");
    WithHelp(row,
             "This example's own width (even, 2 to 16), so every number fits on screen; the "
             "base is the shared one. The published example uses d_model 4.",
             [&] {
                 return SceneSlider(frame, row, kWorkedDModel, &worked_d_model,
                                    FitWidth(6.0f, "d_model"));
             });
    if (!tokens.empty()) {
        const float word_width = FitWidth(7.0f, "same word");
        row.Item(LabelledWidth(word_width, "same word") + FlowRow::Spacing() +
                 LabelledWidth(font * 5.0f, "at pos"));
        ImGui::SetNextItemWidth(word_width);
        const int shown = std::clamp(probe_token, 0, static_cast<int>(tokens.size()) - 1);
        if (ImGui::BeginCombo("same word", tokens[shown].c_str())) {
            for (int k = 0; k < static_cast<int>(tokens.size()); ++k) {
                ImGui::PushID(k);
                if (ImGui::Selectable(tokens[k].c_str(), k == shown)) probe_token = k;
                ImGui::PopID();
            }
            ImGui::EndCombo();
        }
        frame.Record("worked.probe_word");
        ImGui::SameLine();
        SceneInput(frame, row, kWorkedProbePosition, &probe_position, font * 5.0f);
    }
    row.Item(ButtonWidth("published values"));
    if (ImGui::Button("published values")) {
        edited.clear();
        sentence = "The cat sat";
        worked_d_model = 4;
        frame.state.base = 10000.0;
    }
    FormulaTooltip(
        "Back to the published example: \"The cat sat\", d_model 4, base 10 000, its embeddings.");
    frame.Record("worked.reset");
}

bool WorkedPanel::BeginDimTable(const char* id, const char* first_header) const {
    // The three tables share their column widths, so the same dimension lines up in all three.
    const int d = worked_d_model;
    if (!ImGui::BeginTable(id, d + 1, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit,
                           ImVec2(TableWidth(), 0)))
        return false;
    ImGui::TableSetupColumn(first_header, ImGuiTableColumnFlags_WidthFixed, label_width);
    for (int dim = 0; dim < d; ++dim) {
        char header[16];
        std::snprintf(header, sizeof header, "dim %d", dim);
        ImGui::TableSetupColumn(header, ImGuiTableColumnFlags_WidthFixed, cell_width);
    }
    ImGui::TableHeadersRow();
    return true;
}

void WorkedPanel::DrawEmbeddingTable(FrameContext& frame, const Result& shown) {
    const std::vector<std::string>& tokens = shown.tokens;
    ImGui::TextColored(frame.ColorVec(EmbeddingRole()), "token_embedding");
    ImGui::SameLine();
    MutedWrappedText("(click a cell to edit; Enter to keep)");
    const int d = worked_d_model;
    if (!BeginDimTable("##embedding", "word")) return;
    for (int row = 0; row < static_cast<int>(tokens.size()); ++row) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("\"%s\"", tokens[row].c_str());
        const std::vector<double>& values = shown.rows[row].embedding;
        for (int dim = 0; dim < d; ++dim) {
            ImGui::TableNextColumn();
            ImGui::PushID(row * kWorkedMaxDModel + dim);
            double value = values[dim];
            if (SceneCell(kWorkedCell, &value)) {
                std::vector<double>& stored = edited[WorkedKey(tokens[row])];
                if (stored.size() < static_cast<std::size_t>(kWorkedMaxDModel)) {
                    const std::vector<double> old = stored;
                    stored.resize(kWorkedMaxDModel);
                    for (int k = 0; k < kWorkedMaxDModel; ++k)
                        stored[k] = k < static_cast<int>(old.size())
                                        ? old[k]
                                        : WorkedDefaultEmbedding(WorkedKey(tokens[row]), k);
                }
                stored[dim] = value;
            }
            if (row == 0 && dim == 0) frame.Record("worked.embedding_0_0");
            if (row == 1 && dim == 0) frame.Record("worked.embedding_1_0");
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
}

void WorkedPanel::DrawPeTable(FrameContext& frame, const Result& shown) {
    const int rows = static_cast<int>(shown.rows.size());
    const AppState& state = frame.state;
    const int d = worked_d_model;
    ImGui::TextColored(frame.ColorVec(PeRole()), "positional_encoding");
    ImGui::SameLine();
    char formula[160];
    std::snprintf(
        formula, sizeof formula,
        "PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i), ω_i = %.10g^(−2i/%d)%s",
        state.base, d, state.base == 10000.0 ? "" : " (the published example uses base 10 000)");
    MutedWrappedText(formula);
    const bool document = d == 4 && state.base == 10000.0;
    if (!BeginDimTable("##pe", "position")) return;
    for (int pos = 0; pos < rows; ++pos) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("pos %d", pos);
        for (int dim = 0; dim < d; ++dim) {
            ImGui::TableNextColumn();
            const double value = shown.rows[pos].pe[dim];
            const double printed = document ? WorkedDocumentPe(pos, dim) : kNone;
            const bool differs = !std::isnan(printed) && Rounded3(value) != printed;
            marked_pe += differs ? 1 : 0;
            ImGui::Text(differs ? "%.3f*" : "%.3f", value);
            if (ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                ImGui::Text("PE(%d, %d) = %s(%d · %.6g) = %.6f", pos, dim, dim % 2 ? "cos" : "sin",
                            pos, omega(dim / 2, d, state.base), value);
                if (differs)
                    ImGui::Text("The published example prints %.3f here: it cut the digits off. "
                                "%.6f rounds "
                                "to %.3f.",
                                printed, value, Rounded3(value));
                ImGui::EndTooltip();
            }
            if (pos == 1 && dim == 3) frame.Record("worked.pe_1_3");
        }
    }
    ImGui::EndTable();
}

void WorkedPanel::DrawFinalTable(FrameContext& frame, const Result& shown) {
    const std::vector<std::string>& tokens = shown.tokens;
    const AppState& state = frame.state;
    const int d = worked_d_model;
    ImGui::TextUnformatted("X_final =");
    ImGui::SameLine();
    ImGui::TextColored(frame.ColorVec(EmbeddingRole()), "embedding");
    ImGui::SameLine();
    ImGui::TextUnformatted("+");
    ImGui::SameLine();
    ImGui::TextColored(frame.ColorVec(PeRole()), "PE");
    ImGui::SameLine();
    MutedWrappedText("(the bar under each value: how much of it each part gave, by size)");
    const bool document = d == 4 && state.base == 10000.0 && edited.empty() && tokens.size() == 3 &&
                          WorkedKey(tokens[0]) == "the" && WorkedKey(tokens[1]) == "cat" &&
                          WorkedKey(tokens[2]) == "sat";
    if (!BeginDimTable("##final", "word@pos")) return;
    for (int row = 0; row < static_cast<int>(tokens.size()); ++row) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("\"%s\"@%d", tokens[row].c_str(), row);
        const Row& values = shown.rows[row];
        for (int dim = 0; dim < d; ++dim) {
            ImGui::TableNextColumn();
            const double e = values.embedding[dim], pe = values.pe[dim];
            const double x = values.x[dim];
            const double printed = document ? WorkedDocumentFinal(row, dim) : kNone;
            const bool differs = !std::isnan(printed) && Rounded3(x) != printed;
            marked_final += differs ? 1 : 0;
            ImGui::Text(differs ? "%.3f*" : "%.3f", x);
            const ImVec2 text_max = ImGui::GetItemRectMax();
            const ImVec2 text_min = ImGui::GetItemRectMin();
            const bool hovered = ImGui::IsItemHovered();
            // The share bar: |e| and |PE| side by side over the cell's width.
            const float width = ImGui::GetContentRegionAvail().x;
            const float total = static_cast<float>(std::fabs(e) + std::fabs(pe));
            const float split = total > 0 ? width * static_cast<float>(std::fabs(e)) / total : 0;
            ImDrawList* draw = ImGui::GetWindowDrawList();
            const float y0 = text_max.y, y1 = text_max.y + frame.Px(4.0f);
            draw->AddRectFilled(ImVec2(text_min.x, y0), ImVec2(text_min.x + split, y1),
                                frame.Color(EmbeddingRole()));
            draw->AddRectFilled(ImVec2(text_min.x + split, y0), ImVec2(text_min.x + width, y1),
                                frame.Color(PeRole()));
            ImGui::Dummy(ImVec2(width, frame.Px(4.0f)));
            if (hovered) {
                ImGui::BeginTooltip();
                ImGui::Text("\"%s\"@%d, dim %d: X = embedding + PE = %.3f + %.6f = %.6f",
                            tokens[row].c_str(), row, dim, e, pe, x);
                if (differs)
                    ImGui::Text(
                        "The published example prints %.3f here: it cut the digits off. %.6f "
                        "rounds to %.3f.",
                        printed, x, Rounded3(x));
                ImGui::EndTooltip();
            }
            if (row == 1 && dim == 0) frame.Record("worked.final_1_0");
        }
    }
    ImGui::EndTable();
    frame.Record("worked.final_table");
}

Explanation ProbeSentence(const std::string& word, int there, int elsewhere, int d_model,
                          double base) {
    Explanation out;
    char line[640];
    if (there == elsewhere) {
        std::snprintf(line, sizeof line,
                      "\"%s\" at position %d twice: the same vector. Pick another position to "
                      "see the encoding make the two differ.",
                      word.c_str(), there);
        out.text = line;
        out.Claims("tells_apart", 0);
        return out;
    }
    // The embedding is shared, so the rows differ by PE(there) − PE(elsewhere) alone.
    const std::vector<double> pe_there = pe_vector_double(there, d_model, base),
                              pe_elsewhere = pe_vector_double(elsewhere, d_model, base);
    double distance_squared = 0;
    for (int dim = 0; dim < d_model; ++dim) {
        const double delta = pe_there[dim] - pe_elsewhere[dim];
        distance_squared += delta * delta;
    }
    const std::vector<PairTurn> turns = pair_turns(there, elsewhere, d_model, base);
    const MotionCounts counts = count_motions(turns);
    // Every pair barely moved or came back round: the two rows are nearly one vector.
    const bool tells_apart = counts.in_order > 0 || counts.wrapped > 0;
    out.Claims("tells_apart", tells_apart ? 1 : 0);
    out.Claims("came_round_pairs", counts.came_round);
    out.Claims("distance", std::sqrt(distance_squared));
    std::snprintf(line, sizeof line,
                  "The same word at two positions: \"%s\"@%d and \"%s\"@%d share the embedding "
                  "(dots) but not the PE, so the rows differ by PE(%d) − PE(%d), a distance of "
                  "%s.",
                  word.c_str(), there, word.c_str(), elsewhere, there, elsewhere,
                  ShownNumber(std::sqrt(distance_squared), 3).c_str());
    out.text = line;
    if (tells_apart) {
        out.text += " The encoding tells the model where \"" + word + "\" is.";
    } else if (counts.came_round > 0) {
        out.text += " But at d_model " + std::to_string(d_model) + " " +
                    PairList(turns, PairMotion::CameRound) +
                    (counts.came_round == 1 ? " has" : " have") +
                    " come round to almost the same angle (aliasing): the two rows are nearly "
                    "the same, and the encoding can hardly tell these positions apart.";
    } else {
        out.text += " Every pair has barely moved: the two rows are nearly the same, and the "
                    "encoding can hardly tell these positions apart.";
    }
    return out;
}

void WorkedPanel::DrawProbe(FrameContext& frame, const Result& shown) {
    const int d = static_cast<int>(shown.probe.here.size());
    const Probe& probe = shown.probe;
    const std::string& word = shown.tokens[probe.word];
    const int there = probe.word, elsewhere = probe_position;
    const std::vector<double>& embedding = shown.rows[probe.word].embedding;
    const std::vector<double>&here = probe.here, &other = probe.other;
    std::vector<double> dims(d), here_x(d), other_x(d);
    double low = 0, high = 0;
    for (int dim = 0; dim < d; ++dim) {
        dims[dim] = dim;
        here_x[dim] = dim - 0.2;
        other_x[dim] = dim + 0.2;
        low = std::min({low, here[dim], other[dim], embedding[dim]});
        high = std::max({high, here[dim], other[dim], embedding[dim]});
    }
    ImGui::Separator();
    char line[512];
    std::snprintf(line, sizeof line, "%s", probe.sentence.text.c_str());
    WrappedText(line);
    frame.Record("worked.probe");
    // The two rows as bars per dimension, the shared embedding as dots.
    const float font = ImGui::GetFontSize();
    const double margin = 0.15 * std::max(1.0, high - low);
    probe_view.SetHome(plot::Range{-0.6, d - 0.4}, plot::Range{low - margin, high + margin});
    if (probe_view_d_model != d) probe_view.Reset(), probe_view_d_model = d;
    plot::PlotConfig config;
    config.x_label = "dim";
    config.y_label = "X_final value";
    config.x_flags = plot::AxisFlags_Integer;
    plot::Plot p;
    char label_here[64], label_other[64];
    std::snprintf(label_here, sizeof label_here, "\"%s\"@%d", word.c_str(), there);
    std::snprintf(label_other, sizeof label_other, "\"%s\"@%d", word.c_str(), elsewhere);
    if (!p.Begin("##probe", probe_view,
                 ImVec2(-1, std::max(font * 9.0f, ImGui::GetContentRegionAvail().y)), config))
        return;
    frame.Record("worked.probe_plot");
    p.Bars(label_here, here_x.data(), here.data(), d, 0.38, frame.Color(Role::PosA));
    p.Bars(label_other, other_x.data(), other.data(), d, 0.38, frame.Color(Role::PosB));
    p.Markers("embedding", dims.data(), embedding.data(), d, frame.Color(EmbeddingRole()),
              frame.Px(5.0f));
    p.End();
}

std::vector<WidgetName> WorkedPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        ControlWidget(kWorkedDModel),
        {"worked.embedding_0_0",
         "the first word's editable embedding value in dim 0",
         {"embeddings"}},
        {"worked.embedding_1_0",
         "the second word's editable embedding value in dim 0",
         {"embeddings"}},
        {"worked.final_1_0", "the share bar under the second word's X_final in dim 0"},
        {"worked.final_table",
         "the X_final table: embedding + PE for each word",
         {"tokens", "x_final"}},
        {"worked.pe_1_3", "the PE table's value at position 1, dim 3 (cos of pair 1)", {"pe"}},
        {"worked.probe", "the sentence on the same word at two positions", {"probe"}},
        {"worked.probe_plot", "the chart of that word's two X rows per dim, embedding as dots"},
        ControlWidget(kWorkedProbePosition, "box"),
        {"worked.probe_word", "the same word list: which word to place at two positions"},
        {"worked.reset", "the published values button: back to \"The cat sat\", d_model 4"},
        {"worked.sentence", "the sentence text box (up to 16 words)"},
    };
}

} // namespace pelab
