// model_views.cpp — the Your model panel's views of a learned table (panel_model.h): its
// components, the cosine of every two rows, its norms; each with its sentence
// (model_sentences.h). The RoPE, T5 and ALiBi views are in model_rope_views.cpp.
#include "panels/model/model_views.h"
#include "panels/scene_controls.h"
#include "pelab/models/table_analysis.h"

#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

constexpr double kDegrees = 3.14159265358979323846 / 180.0;

// Two pictures side by side when each gets at least min_width, else one above the other.
bool SideBySide(float min_width) {
    return ImGui::GetContentRegionAvail().x >= 2 * min_width + ImGui::GetStyle().ItemSpacing.x;
}

// The positions of a table along its components: 2-D (c1, c2), or 3-D (c1, c2, c3) turned by yaw
// about the vertical axis and seen from 20° above.
void Projected(const TableReport& report, bool three_d, float yaw_degrees, std::vector<double>* xs,
               std::vector<double>* ys) {
    xs->clear();
    ys->clear();
    if (report.components.size() < 2) return;
    const std::vector<double>& c1 = report.components[0];
    const std::vector<double>& c2 = report.components[1];
    const bool has_third = three_d && report.components.size() >= 3;
    const double yaw = yaw_degrees * kDegrees, pitch = 20 * kDegrees;
    for (std::size_t p = 0; p < c1.size(); ++p) {
        if (!has_third) {
            xs->push_back(c1[p]);
            ys->push_back(c2[p]);
            continue;
        }
        const double c3 = report.components[2][p];
        const double x = c1[p] * std::cos(yaw) - c2[p] * std::sin(yaw);
        const double depth = c1[p] * std::sin(yaw) + c2[p] * std::cos(yaw);
        xs->push_back(x);
        ys->push_back(c3 * std::cos(pitch) + depth * std::sin(pitch));
    }
}

// The positions as a path coloured from the first (dark) to the last (yellow) row.
void ComponentsPlot(FrameContext& frame, const char* id, const char* record, plot::PlotView& view,
                    const TableReport& report, bool three_d, float yaw, ImVec2 size,
                    const char* title) {
    std::vector<double> xs, ys;
    Projected(report, three_d, yaw, &xs, &ys);
    if (xs.empty()) {
        MutedWrappedText("The table has fewer than two components to draw.");
        return;
    }
    view.SetHome(PaddedRange(xs), PaddedRange(ys));
    if (!view.has_home) view.Reset();
    plot::PlotConfig config;
    config.x_label = three_d ? "components 1 and 2, turned" : "component 1";
    config.y_label = three_d ? "component 3 (tilted)" : "component 2";
    // One unit as long on both axes: a circle of positions is drawn as one, not an ellipse.
    config.flags |= plot::PlotFlags_EqualAspect;
    ImGui::BeginGroup();
    // The title wraps at the plot's width: wider, it widened the group and pushed the plot
    // beside it past the window's edge.
    if (size.x > 0) ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
    ImGui::TextWrapped("%s", title);
    if (size.x > 0) ImGui::PopTextWrapPos();
    size.y = std::max(size.y - ImGui::GetItemRectSize().y - ImGui::GetStyle().ItemSpacing.y,
                      ImGui::GetFontSize() * 4);
    plot::Plot p;
    if (!p.Begin(id, view, size, config)) {
        ImGui::EndGroup();
        return;
    }
    frame.Record(record);
    ImDrawList* draw = p.DrawList();
    const std::size_t count = xs.size();
    const float thickness = frame.Px(1.0f) * frame.theme.line_scale;
    const float radius = frame.Px(count > 256 ? 1.6f : 2.6f) * frame.theme.line_scale;
    for (std::size_t k = 0; k + 1 < count; ++k) {
        const ImU32 colour =
            plot::Sequential(static_cast<double>(k) / std::max<std::size_t>(count - 1, 1));
        draw->AddLine(p.ToPixels(xs[k], ys[k]), p.ToPixels(xs[k + 1], ys[k + 1]),
                      (colour & 0x00FFFFFF) | 0x90000000, thickness);
    }
    for (std::size_t k = 0; k < count; ++k)
        draw->AddCircleFilled(
            p.ToPixels(xs[k], ys[k]), radius,
            plot::Sequential(static_cast<double>(k) / std::max<std::size_t>(count - 1, 1)));
    if (p.IsHovered()) {
        // The nearest position under the mouse.
        std::size_t best = 0;
        float best_distance = 1e30f;
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        for (std::size_t k = 0; k < count; ++k) {
            const ImVec2 at = p.ToPixels(xs[k], ys[k]);
            const float distance =
                (at.x - mouse.x) * (at.x - mouse.x) + (at.y - mouse.y) * (at.y - mouse.y);
            if (distance < best_distance) best_distance = distance, best = k;
        }
        if (best_distance < frame.Px(12) * frame.Px(12)) Tooltip("position %zu", best);
    }
    p.End();
    ImGui::EndGroup();
}

// A square picture of block-averaged cosines (row 0 at the bottom left, as the axes count): the
// fine grid as a GPU texture, else the coarse grid as rectangles.
void CosinePicture(FrameContext& frame, const char* id, const char* record, plot::PlotView& view,
                   int slot, const std::vector<float>& fine, int fine_size, int fine_block,
                   const std::vector<float>& coarse, int coarse_size, int coarse_block,
                   unsigned long long version, int rows, ImVec2 extent, const char* title) {
    view.SetHome({0, static_cast<double>(rows)}, {0, static_cast<double>(rows)});
    if (!view.has_home) view.Reset();
    plot::PlotConfig config;
    config.x_label = "position q";
    config.y_label = "position p";
    config.x_flags = plot::AxisFlags_Integer;
    config.y_flags = plot::AxisFlags_Integer;
    ImGui::BeginGroup();
    ImGui::TextUnformatted(title);
    // The title's line comes out of the picture's height: the extent given is the room for
    // both (the x title was cut at the window's bottom).
    extent.y = std::max(extent.y - ImGui::GetTextLineHeightWithSpacing(), ImGui::GetFontSize() * 4);
    plot::Plot p;
    if (!p.Begin(id, view, extent, config)) {
        ImGui::EndGroup();
        return;
    }
    frame.Record(record);
    const ImU32 negative = frame.Color(Role::MapNegative), middle = frame.Color(Role::MapMiddle),
                positive = frame.Color(Role::MapPositive);
    std::string error;
    const ImTextureID texture =
        frame.gpu ? frame.gpu->MatrixTexture(slot, fine.data(), fine_size, fine_size, version,
                                             negative, middle, positive, &error)
                  : nullptr;
    const bool textured = texture != nullptr;
    const int block = textured ? fine_block : coarse_block;
    const int size = textured ? fine_size : coarse_size;
    const std::vector<float>& cells = textured ? fine : coarse;
    ImDrawList* draw = p.DrawList();
    draw->PushClipRect(p.PlotMin(), p.PlotMax(), true);
    const double span = static_cast<double>(size) * block;
    if (textured) {
        // Texture row 0 (position 0) at the bottom: its top edge samples the last row.
        p.Image(texture, {0, span}, {0, span}, ImVec2(0, 1), ImVec2(1, 0));
    } else {
        const plot::DivergingMap map{negative, middle, positive};
        for (int a = 0; a < size; ++a)
            for (int b = 0; b < size; ++b) {
                const double q0 = static_cast<double>(b) * block,
                             p0 = static_cast<double>(a) * block;
                draw->AddRectFilled(
                    p.ToPixels(q0, p0 + block), p.ToPixels(q0 + block, p0),
                    plot::Diverging(cells[static_cast<std::size_t>(a) * size + b], map));
            }
    }
    draw->PopClipRect();
    if (p.IsHovered()) {
        const int q = static_cast<int>(std::floor(p.MouseX()));
        const int row = static_cast<int>(std::floor(p.MouseY()));
        if (q >= 0 && q < rows && row >= 0 && row < rows) {
            const double value = cells[static_cast<std::size_t>(row / block) * size + q / block];
            if (block == 1)
                Tooltip("cos(row %d, row %d) = %.4f", row, q, value);
            else
                Tooltip("rows %d–%d × %d–%d: mean cos %.4f", row / block * block,
                        std::min(rows, row / block * block + block) - 1, q / block * block,
                        std::min(rows, q / block * block + block) - 1, value);
        }
    }
    p.End();
    ImGui::EndGroup();
}

} // namespace

plot::Range PaddedRange(const std::vector<double>& values) {
    if (values.empty()) return {0, 1};
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    const double span = *high - *low;
    // At least a fiftieth of the values' size: a series flat to within float rounding (the
    // fixture's norms, all 1 over their median to 10⁻⁷) got a margin of rounding and sat on the
    // frame, unseen. All zeros: 1.
    const double size = std::max(std::abs(*low), std::abs(*high));
    const double margin = size > 0 ? std::max(span / 20, size / 50) : 1;
    return {*low - margin, *high + margin};
}

ImU32 PairArcColour(const Theme& theme, double t) {
    return plot::Sequential(theme.IsDark() ? 0.4 + 0.6 * t : 0.1 + 0.65 * t);
}

std::vector<double> NormsOverMedian(const TableReport& table) {
    std::vector<double> out = table.norms;
    if (table.median_norm > 0)
        for (double& norm : out)
            norm /= table.median_norm;
    return out;
}

std::string NormsLegend(const std::string& name, const TableReport& table) {
    return name + (table.median_norm > 0 ? " (median " + ShownNumber(table.median_norm, 3) + ")"
                                         : std::string(" (median 0: not scaled)"));
}

void ViewSentence(FrameContext& frame, const Explanation& sentence, const char* record) {
    WrappedText(sentence.text.c_str());
    frame.Record(record);
}

void ModelPanel::DrawComponents(FrameContext& frame) {
    const ModelReport& r = *report;
    if (!frame.pictures_first && !preview)
        ViewSentence(frame, table_sentence, "model.table_sentence");
    ImGui::Checkbox("3-D", &three_d);
    frame.Record("model.three_d");
    if (three_d) {
        ImGui::SameLine();
        FlowRow row;
        SceneSlider(frame, row, kModelTurn, &yaw_degrees, FitWidth(10.0f));
    }
    const TableReport& t = r.table_report;
    char explained[160];
    std::snprintf(explained, sizeof explained, "colour: position 0 (purple) → %d (yellow)",
                  t.rows - 1);
    SameLineIfFits(ImGui::CalcTextSize(explained).x);
    ImGui::TextColored(frame.ColorVec(Role::Muted), "%s", explained);
    frame.Record("model.colour_note");
    const float lines = frame.pictures_first ? 6.0f : 2.0f;
    const float height = std::max(ImGui::GetFontSize() * 12,
                                  ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * lines);
    char title[160], twin_title[160];
    std::snprintf(title, sizeof title, "%s (%.0f%% + %.0f%% of the variance)",
                  r.found.family.c_str(), !t.explained.empty() ? 100 * t.explained[0] : 0.0,
                  t.explained.size() > 1 ? 100 * t.explained[1] : 0.0);
    const TableReport& s = r.sinusoid_report;
    std::snprintf(twin_title, sizeof twin_title, "sinusoidal, same size (%.0f%% + %.0f%%)",
                  !s.explained.empty() ? 100 * s.explained[0] : 0.0,
                  s.explained.size() > 1 ? 100 * s.explained[1] : 0.0);
    if (preview) {
        char preview_title[96];
        std::snprintf(preview_title, sizeof preview_title, "sinusoidal, %d × %d (%.0f%% + %.0f%%)",
                      t.rows, t.cols, !t.explained.empty() ? 100 * t.explained[0] : 0.0,
                      t.explained.size() > 1 ? 100 * t.explained[1] : 0.0);
        ComponentsPlot(frame, "##model_components", "model.components_plot", components_view, t,
                       three_d, yaw_degrees, ImVec2(-1, height), preview_title);
    } else if (SideBySide(ImGui::GetFontSize() * 12)) {
        const float width =
            (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
        ComponentsPlot(frame, "##model_components", "model.components_plot", components_view, t,
                       three_d, yaw_degrees, ImVec2(width, height), title);
        ImGui::SameLine();
        ComponentsPlot(frame, "##model_twin", "model.twin_plot", twin_view, s, three_d, yaw_degrees,
                       ImVec2(width, height), twin_title);
    } else {
        const float half = (height - ImGui::GetStyle().ItemSpacing.y) / 2;
        ComponentsPlot(frame, "##model_components", "model.components_plot", components_view, t,
                       three_d, yaw_degrees, ImVec2(-1, std::max(half, ImGui::GetFontSize() * 6)),
                       title);
        ComponentsPlot(frame, "##model_twin", "model.twin_plot", twin_view, s, three_d, yaw_degrees,
                       ImVec2(-1, std::max(half, ImGui::GetFontSize() * 6)), twin_title);
    }
    // Each component's strongest wave and the share of its variance that wave carries: a period
    // only where the share stands out (the sentence's rule), the share shown so a reader sees it.
    std::string wavelengths = "strongest wave of components 1–" +
                              std::to_string(t.wavelengths.size()) +
                              ", in positions (share of the variance):";
    for (std::size_t k = 0; k < t.wavelengths.size(); ++k) {
        const double w = t.wavelengths[k];
        const double share = k < t.wave_shares.size() ? t.wave_shares[k] : 0;
        wavelengths += " " + (w > 0 ? ShownNumber(w, 3) + " (" + ShownNumber(100 * share, 2) + "%)"
                                    : std::string("—"));
    }
    wavelengths += " (—: under one wave)";
    MutedWrappedText(wavelengths.c_str());
    frame.Record("model.wavelength_note");
    // A table too large to decompose whole whose solver stopped at its time cap: its shares of
    // variance are approximate, and the line says by how much at most.
    for (const TableReport* each : {&t, &s})
        if (each->approximate) {
            char note[200];
            std::snprintf(note, sizeof note,
                          "%s: approximate, each share of variance within ± %.2g%% (the iterative "
                          "solver stopped after %.3g s)",
                          each == &t ? "the table's components" : "the sinusoidal table's",
                          100 * explained_error(*each), kTableTimeCapSeconds);
            MutedWrappedText(note);
        }
    if (frame.pictures_first && !preview)
        ViewSentence(frame, table_sentence, "model.table_sentence");
}

void ModelPanel::DrawSimilarity(FrameContext& frame) {
    const ModelReport& r = *report;
    const int rows = r.table_report.rows;
    const int block = frame.gpu ? cosines.fine_block : cosines.coarse_block;
    char note[220];
    if (block > 1)
        std::snprintf(note, sizeof note,
                      "cos(row p, row q) for every two of the %d rows, each cell the mean over a "
                      "%d × %d block of rows; blue −1, middle 0, orange +1",
                      rows, block, block);
    else
        std::snprintf(
            note, sizeof note,
            "cos(row p, row q) for every two of the %d rows; blue −1, middle 0, orange +1", rows);
    MutedWrappedText(note);
    const float available = ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y;
    const auto picture = [&](const char* id, const char* record, plot::PlotView& view, int slot,
                             bool twin, float side, const char* title) {
        CosinePicture(frame, id, record, view, slot, twin ? cosines.twin_fine : cosines.fine,
                      cosines.fine_size, cosines.fine_block,
                      twin ? cosines.twin_coarse : cosines.coarse, cosines.coarse_size,
                      cosines.coarse_block, cosine_version, rows, ImVec2(side, side), title);
    };
    if (preview) {
        const float side = std::max(ImGui::GetFontSize() * 8,
                                    std::min(ImGui::GetContentRegionAvail().x, available));
        picture("##model_cosine", "model.cosine_plot", cosine_view, 0, false, side, "sinusoidal");
    } else if (SideBySide(ImGui::GetFontSize() * 12)) {
        const float width =
            (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
        const float side = std::max(ImGui::GetFontSize() * 8, std::min(width, available));
        picture("##model_cosine", "model.cosine_plot", cosine_view, 0, false, side,
                r.found.family.c_str());
        ImGui::SameLine();
        picture("##model_twin_cosine", "model.twin_cosine_plot", twin_cosine_view, 1, true, side,
                "sinusoidal, same size");
    } else {
        const float side = std::max(ImGui::GetFontSize() * 6,
                                    std::min(ImGui::GetContentRegionAvail().x,
                                             (available - ImGui::GetStyle().ItemSpacing.y) / 2));
        picture("##model_cosine", "model.cosine_plot", cosine_view, 0, false, side,
                r.found.family.c_str());
        picture("##model_twin_cosine", "model.twin_cosine_plot", twin_cosine_view, 1, true, side,
                "sinusoidal, same size");
    }
}

void ModelPanel::DrawNorms(FrameContext& frame) {
    const ModelReport& r = *report;
    const TableReport& t = r.table_report;
    const TableReport& s = r.sinusoid_report;
    if (!frame.pictures_first && !preview)
        ViewSentence(frame, table_sentence, "model.table_sentence");
    std::vector<double> xs(static_cast<std::size_t>(t.rows));
    for (int k = 0; k < t.rows; ++k)
        xs[k] = k;
    // Both plots when each gets 12 text lines, else one at a time with a switch.
    const float room = ImGui::GetContentRegionAvail().y -
                       ImGui::GetFontSize() * (frame.pictures_first ? 7.5f : 0.5f);
    const bool both = room >= ImGui::GetFontSize() * 24;
    if (!both) {
        ImGui::RadioButton("norms", &norms_shown, 0);
        ImGui::SameLine();
        ImGui::RadioButton("neighbours' cosine", &norms_shown, 1);
    }
    const float height = std::max(ImGui::GetFontSize() * 10,
                                  both ? room / 2 : room - ImGui::GetFrameHeightWithSpacing());
    // Each table on its own scale, over its median: the edge effect the view exists for shows
    // whatever the table's magnitude (BERT's median row is 0.11 long, the sinusoidal one 11.3).
    const std::vector<double> norms = NormsOverMedian(t), twin_norms = NormsOverMedian(s);
    std::vector<double> all_norms = norms;
    if (!preview) all_norms.insert(all_norms.end(), twin_norms.begin(), twin_norms.end());
    plot::Range y = PaddedRange(all_norms);
    y.min = std::min(y.min, 0.0);
    // 1 is each table's median row: room above it, so a table whose rows are all as long (the
    // sinusoidal one) is a line in view, not one on the frame.
    y.max = std::max(y.max, 1.25);
    norms_view.SetHome({0, static_cast<double>(std::max(t.rows - 1, 1))}, y);
    if (!norms_view.has_home) norms_view.Reset();
    plot::PlotConfig config;
    config.x_label = "position";
    config.y_label = "‖row‖ ÷ its table's median";
    config.x_flags = plot::AxisFlags_Integer;
    // The legend's names are read when the plot ends: they live as long as it.
    const std::string legend = NormsLegend(r.found.family, t),
                      twin_legend = NormsLegend("sinusoidal", s);
    plot::Plot p;
    if ((both || norms_shown == 0) &&
        p.Begin("##model_norms", norms_view, ImVec2(-1, height), config)) {
        frame.Record("model.norms_plot");
        p.Line(legend.c_str(), xs.data(), norms.data(), t.rows, frame.Color(Role::Accent));
        if (!preview)
            p.Line(twin_legend.c_str(), xs.data(), twin_norms.data(), s.rows,
                   frame.Color(Role::Muted));
        if (t.rows > 16) p.VLine(t.rows - 16, frame.Color(Role::Warning), "last 16 rows");
        p.End();
    }
    std::vector<double> xs_pairs(xs.begin(), xs.end() - (xs.empty() ? 0 : 1));
    std::vector<double> cosines = t.neighbour_cosine;
    cosines.insert(cosines.end(), s.neighbour_cosine.begin(), s.neighbour_cosine.end());
    neighbour_view.SetHome({0, static_cast<double>(std::max(t.rows - 1, 1))}, PaddedRange(cosines));
    if (!neighbour_view.has_home) neighbour_view.Reset();
    config.y_label = "cos(row p, row p + 1)";
    plot::Plot q;
    if ((both || norms_shown == 1) &&
        q.Begin("##model_neighbours", neighbour_view, ImVec2(-1, height), config)) {
        frame.Record("model.neighbour_plot");
        q.Line(r.found.family.c_str(), xs_pairs.data(), t.neighbour_cosine.data(),
               static_cast<int>(t.neighbour_cosine.size()), frame.Color(Role::Accent));
        if (!preview)
            q.Line("sinusoidal", xs_pairs.data(), s.neighbour_cosine.data(),
                   static_cast<int>(s.neighbour_cosine.size()), frame.Color(Role::Muted));
        q.End();
    }
    if (frame.pictures_first && !preview)
        ViewSentence(frame, table_sentence, "model.table_sentence");
}

} // namespace pelab
