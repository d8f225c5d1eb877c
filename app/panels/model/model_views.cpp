// model_views.cpp — the Your model panel's views (panel_model.h): pictures of the numbers the
// report holds, each with its sentence (model_sentences.h).
#include "panels/model/panel_model.h"

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

// The least and largest of values, widened by a twentieth on each side (a flat series by 1).
plot::Range Padded(const std::vector<double>& values) {
    if (values.empty()) return {0, 1};
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    const double span = *high - *low;
    const double margin = span > 0 ? span / 20 : 1;
    return {*low - margin, *high + margin};
}

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
    view.SetHome(Padded(xs), Padded(ys));
    if (!view.has_home) view.Reset();
    plot::PlotConfig config;
    config.x_label = three_d ? "components 1 and 2, turned" : "component 1";
    config.y_label = three_d ? "component 3 (tilted)" : "component 2";
    ImGui::BeginGroup();
    ImGui::TextUnformatted(title);
    size.y = std::max(size.y - ImGui::GetTextLineHeightWithSpacing(), ImGui::GetFontSize() * 4);
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
        if (best_distance < frame.Px(12) * frame.Px(12)) ImGui::SetTooltip("position %zu", best);
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
                ImGui::SetTooltip("cos(row %d, row %d) = %.4f", row, q, value);
            else
                ImGui::SetTooltip("rows %d–%d × %d–%d: mean cos %.4f", row / block * block,
                                  std::min(rows, row / block * block + block) - 1,
                                  q / block * block, std::min(rows, q / block * block + block) - 1,
                                  value);
        }
    }
    p.End();
    ImGui::EndGroup();
}

void Sentence(FrameContext& frame, const Explanation& sentence, const char* record) {
    WrappedText(sentence.text.c_str());
    frame.Record(record);
}

} // namespace

void ModelPanel::DrawComponents(FrameContext& frame) {
    const ModelReport& r = *report;
    if (!frame.pictures_first && !preview) Sentence(frame, table_sentence, "model.table_sentence");
    ImGui::Checkbox("3-D", &three_d);
    frame.Record("model.three_d");
    if (three_d) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(FitWidth(10.0f));
        ImGui::SliderFloat("turn", &yaw_degrees, -180.0f, 180.0f, "%.0f°");
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
    std::string wavelengths =
        "wavelength of components 1–" + std::to_string(t.wavelengths.size()) + ":";
    for (double w : t.wavelengths)
        wavelengths += " " + (w > 0 ? ShownNumber(w, 3) : std::string("—"));
    wavelengths += " positions (— under one wave)";
    MutedWrappedText(wavelengths.c_str());
    frame.Record("model.wavelength_note");
    if (frame.pictures_first && !preview) Sentence(frame, table_sentence, "model.table_sentence");
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
    if (!frame.pictures_first && !preview) Sentence(frame, table_sentence, "model.table_sentence");
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
    std::vector<double> all_norms = t.norms;
    all_norms.insert(all_norms.end(), s.norms.begin(), s.norms.end());
    plot::Range y = Padded(all_norms);
    y.min = std::min(y.min, 0.0);
    norms_view.SetHome({0, static_cast<double>(std::max(t.rows - 1, 1))}, y);
    if (!norms_view.has_home) norms_view.Reset();
    plot::PlotConfig config;
    config.x_label = "position";
    config.y_label = "‖row‖";
    config.x_flags = plot::AxisFlags_Integer;
    plot::Plot p;
    if ((both || norms_shown == 0) &&
        p.Begin("##model_norms", norms_view, ImVec2(-1, height), config)) {
        frame.Record("model.norms_plot");
        p.Line(r.found.family.c_str(), xs.data(), t.norms.data(), t.rows,
               frame.Color(Role::Accent));
        if (!preview)
            p.Line("sinusoidal", xs.data(), s.norms.data(), s.rows, frame.Color(Role::Muted));
        if (t.rows > 16) p.VLine(t.rows - 16, frame.Color(Role::Warning), "last 16 rows");
        p.End();
    }
    std::vector<double> xs_pairs(xs.begin(), xs.end() - (xs.empty() ? 0 : 1));
    std::vector<double> cosines = t.neighbour_cosine;
    cosines.insert(cosines.end(), s.neighbour_cosine.begin(), s.neighbour_cosine.end());
    neighbour_view.SetHome({0, static_cast<double>(std::max(t.rows - 1, 1))}, Padded(cosines));
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
    if (frame.pictures_first && !preview) Sentence(frame, table_sentence, "model.table_sentence");
}

void ModelPanel::DrawWavelengths(FrameContext& frame) {
    const RopeReport& rope = report->rope;
    if (!frame.pictures_first) Sentence(frame, rope_sentence, "model.rope_sentence");
    std::vector<double> pairs(static_cast<std::size_t>(rope.pairs));
    for (int i = 0; i < rope.pairs; ++i)
        pairs[i] = i;
    std::vector<double> all = rope.wavelength;
    all.insert(all.end(), rope.scaled_wavelength.begin(), rope.scaled_wavelength.end());
    if (rope.context > 0) all.push_back(static_cast<double>(rope.context));
    if (rope.extended_context > 0) all.push_back(static_cast<double>(rope.extended_context));
    const double low = *std::min_element(all.begin(), all.end());
    const double high = *std::max_element(all.begin(), all.end());
    wavelength_view.SetHome({-0.5, rope.pairs - 0.5}, {low / 2, high * 2});
    if (!wavelength_view.has_home) wavelength_view.Reset();
    plot::PlotConfig config;
    config.x_label = "pair i (fast → slow)";
    config.y_label = "wavelength, positions";
    config.x_flags = plot::AxisFlags_Integer;
    config.y_flags = plot::AxisFlags_Log;
    char context_label[96], scaled_label[96], extended_label[96];
    std::snprintf(extended_label, sizeof extended_label, "stretched to %lld",
                  rope.extended_context);
    std::snprintf(context_label, sizeof context_label, "trained context %lld", rope.context);
    std::snprintf(scaled_label, sizeof scaled_label, "with rope_scaling (%s)",
                  rope.scaling.c_str());
    plot::Plot p;
    const float height =
        ImGui::GetContentRegionAvail().y - (frame.pictures_first ? ImGui::GetFontSize() * 5 : 0.0f);
    if (p.Begin("##model_wavelengths", wavelength_view,
                ImVec2(-1, std::max(height, ImGui::GetFontSize() * 8)), config)) {
        frame.Record("model.wavelength_plot");
        p.LineMarkers("as trained", pairs.data(), rope.wavelength.data(), rope.pairs,
                      frame.Color(Role::Accent), frame.Px(1.5f), frame.Px(3.0f),
                      plot::Marker::Circle, std::max(1, rope.pairs / 32));
        if (!rope.scaled_wavelength.empty())
            p.LineMarkers(scaled_label, pairs.data(), rope.scaled_wavelength.data(), rope.pairs,
                          frame.Color(Role::PosA), frame.Px(1.5f), frame.Px(3.0f),
                          plot::Marker::Square, std::max(1, rope.pairs / 32));
        if (rope.context > 0)
            p.HLine(static_cast<double>(rope.context), frame.Color(Role::Warning), context_label);
        if (rope.extended_context > 0)
            p.HLine(static_cast<double>(rope.extended_context), frame.Color(Role::Muted),
                    extended_label);
        p.End();
    }
    if (frame.pictures_first) Sentence(frame, rope_sentence, "model.rope_sentence");
}

void ModelPanel::DrawPairing(FrameContext& frame) {
    const ModelReport& r = *report;
    const RopeReport& rope = r.rope;
    const bool half = r.found.pairing == RotaryPairing::HalfSplit;
    char line[400];
    const std::string which =
        rope.rotary_dims < rope.head_dim
            ? std::to_string(rope.rotary_dims) + " of each head's " +
                  std::to_string(rope.head_dim) + " dimensions rotate (grey: passed unturned)"
            : "all " + std::to_string(rope.head_dim) + " dimensions of a head rotate";
    std::snprintf(line, sizeof line,
                  "%s rotates %s pairs, %s: %s. Each arc joins the two dimensions of a pair, from "
                  "the fastest (dark) to the slowest (light)%s.%s",
                  r.found.family.c_str(), half ? "half-split" : "interleaved",
                  half ? "dimension i with i + r/2" : "dimension 2i with 2i + 1", which.c_str(),
                  rope.head_dim > 128 ? "; the first 128 dimensions are drawn" : "",
                  r.found.family == "Llama" || r.found.family == "Mistral" ||
                          r.found.family == "Mixtral"
                      ? " Meta's own code rotates interleaved pairs of its original weights; "
                        "Hugging Face's conversion permuted the query and key rows so that "
                        "half-split pairs give the same scores."
                      : "");
    WrappedText(line);
    const int shown = std::min(rope.head_dim, 128);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float cell = width / shown;
    const float height = std::max(ImGui::GetFontSize() * 8, ImGui::GetContentRegionAvail().y);
    ImGui::InvisibleButton("##model_pairing", ImVec2(width, height));
    frame.Record("model.pairing_picture");
    ImDrawList* draw = ImGui::GetWindowDrawList();
    // Two bands: the family's pairing, then the other convention (muted) for comparison.
    const float band = height / 2;
    const float cell_height = std::min(cell, ImGui::GetFontSize() * 1.6f);
    const auto draw_band = [&](float top, RotaryPairing pairing, bool own, const char* title) {
        draw->AddText(ImVec2(origin.x, top),
                      own ? ImGui::GetColorU32(ImGuiCol_Text) : frame.Color(Role::Muted), title);
        const float row_bottom = top + band - ImGui::GetFontSize() * 1.6f;
        const float row_top = row_bottom - cell_height;
        for (int d = 0; d < shown; ++d) {
            const bool turns = d < rope.rotary_dims;
            const ImU32 fill = turns ? (own ? frame.Color(Role::Accent) : frame.Color(Role::Muted))
                                     : (frame.Color(Role::Muted) & 0x00FFFFFF) | 0x60000000;
            draw->AddRectFilled(ImVec2(origin.x + d * cell + 1, row_top),
                                ImVec2(origin.x + (d + 1) * cell - 1, row_bottom), fill);
            if (cell > ImGui::CalcTextSize("000").x) {
                char number[16];
                std::snprintf(number, sizeof number, "%d", d);
                draw->AddText(ImVec2(origin.x + d * cell + frame.Px(2), row_bottom + frame.Px(2)),
                              frame.Color(Role::Muted), number);
            }
        }
        const float arc_room = row_top - top - ImGui::GetFontSize() * 1.4f;
        for (int i = 0; i < rope.pairs; ++i) {
            int a = 0, b = 0;
            pair_dimensions(i, rope.rotary_dims, pairing, &a, &b);
            if (a >= shown || b >= shown) continue;
            const float xa = origin.x + (a + 0.5f) * cell, xb = origin.x + (b + 0.5f) * cell;
            const float rise = std::min(arc_room, std::max(frame.Px(8), (xb - xa) * 0.7f));
            // The map's light three quarters: every arc reads on a dark and a light background.
            const double t = rope.pairs > 1 ? static_cast<double>(i) / (rope.pairs - 1) : 0;
            ImU32 colour = plot::Sequential(0.25 + 0.75 * t);
            if (!own) colour = (colour & 0x00FFFFFF) | 0x90000000;
            draw->AddBezierCubic(ImVec2(xa, row_top), ImVec2(xa, row_top - rise),
                                 ImVec2(xb, row_top - rise), ImVec2(xb, row_top), colour,
                                 frame.Px(own ? 2.0f : 1.5f) * frame.theme.line_scale);
        }
    };
    const RotaryPairing other = half ? RotaryPairing::Interleaved : RotaryPairing::HalfSplit;
    char own_title[160], other_title[160];
    std::snprintf(own_title, sizeof own_title, "%s: %s (dimension i with %s)",
                  r.found.family.c_str(), half ? "half-split" : "interleaved",
                  half ? "i + r/2" : "i + 1");
    std::snprintf(other_title, sizeof other_title, "%s",
                  half ? "not this: interleaved, 2i with 2i + 1 (GPT-J)"
                       : "not this: half-split, i with i + r/2 (NeoX)");
    draw_band(origin.y, r.found.pairing, true, own_title);
    draw_band(origin.y + band, other, false, other_title);
    if (ImGui::IsItemHovered()) {
        const int d = static_cast<int>((ImGui::GetIO().MousePos.x - origin.x) / cell);
        if (d >= 0 && d < shown) {
            if (d >= rope.rotary_dims) {
                ImGui::SetTooltip("dimension %d: not rotated (partial rotary)", d);
            } else {
                const int pair = half ? d % (rope.rotary_dims / 2) : d / 2;
                int a = 0, b = 0;
                pair_dimensions(pair, rope.rotary_dims, r.found.pairing, &a, &b);
                ImGui::SetTooltip("dimension %d: pair %d (dimensions %d and %d), wavelength %s", d,
                                  pair, a, b, ShownNumber(rope.wavelength[pair], 4).c_str());
            }
        }
    }
}

void ModelPanel::DrawUsage(FrameContext& frame) {
    const RopeReport& rope = report->rope;
    // One query head, or the mean over heads; the sentence follows what is drawn.
    if (rope.heads > 1) {
        const std::string mean = "mean of " + std::to_string(rope.heads) + " heads";
        const std::string shown_head = usage_head >= 0 && usage_head < rope.heads
                                           ? "head " + std::to_string(usage_head)
                                           : mean;
        ImGui::SetNextItemWidth(FitWidth(10.0f, "query head"));
        if (ImGui::BeginCombo("query head", shown_head.c_str())) {
            if (ImGui::Selectable(mean.c_str(), usage_head < 0)) usage_head = -1;
            for (int head = 0; head < rope.heads; ++head)
                if (ImGui::Selectable(("head " + std::to_string(head)).c_str(), usage_head == head))
                    usage_head = head;
            ImGui::EndCombo();
        }
        frame.Record("model.usage_head");
        if (usage_head >= rope.heads) {
            char note[120];
            std::snprintf(note, sizeof note,
                          "Query head %d: this model has %d heads (0 to %d); the mean over them "
                          "is shown.",
                          usage_head, rope.heads, rope.heads - 1);
            MutedWrappedText(note);
            frame.Record("model.usage_note");
        }
        FormulaTooltip("Each query head's usage uses the key head of its group (grouped-query "
                       "attention shares one key head among several query heads).");
    }
    const std::vector<double>& grid = UsageFor();
    if (!frame.pictures_first) Sentence(frame, usage_sentence, "model.usage_sentence");
    const float label_width = ImGui::CalcTextSize("layer 000").x + frame.Px(6);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = std::max(ImGui::GetFontSize() * 6,
                                  ImGui::GetContentRegionAvail().y -
                                      (frame.pictures_first ? ImGui::GetFontSize() * 5 : 0.0f));
    ImGui::InvisibleButton("##model_usage", ImVec2(width, height));
    frame.Record("model.usage_picture");
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float grid_left = origin.x + label_width;
    const float grid_bottom = origin.y + height - ImGui::GetFontSize() * 2.6f;
    const float cell_w = (width - label_width) / std::max(rope.pairs, 1);
    const float cell_h = (grid_bottom - origin.y) / std::max(rope.layers, 1);
    double highest = 0;
    for (double value : grid)
        highest = std::max(highest, value);
    for (int layer = 0; layer < rope.layers; ++layer)
        for (int pair = 0; pair < rope.pairs; ++pair) {
            const double value = grid[static_cast<std::size_t>(layer) * rope.pairs + pair];
            draw->AddRectFilled(
                ImVec2(grid_left + pair * cell_w, origin.y + layer * cell_h),
                ImVec2(grid_left + (pair + 1) * cell_w, origin.y + (layer + 1) * cell_h),
                plot::Sequential(highest > 0 ? value / highest : 0));
        }
    const int label_every =
        std::max(1, static_cast<int>(ImGui::GetFontSize() * 1.2f / std::max(cell_h, 1.0f)));
    for (int layer = 0; layer < rope.layers; layer += label_every) {
        char name[32];
        std::snprintf(name, sizeof name, "layer %d", layer);
        draw->AddText(
            ImVec2(origin.x, origin.y + layer * cell_h + (cell_h - ImGui::GetFontSize()) / 2),
            ImGui::GetColorU32(ImGuiCol_Text), name);
    }
    char left[96], right[96];
    std::snprintf(left, sizeof left, "pair 0: fast (%s positions)",
                  ShownNumber(rope.wavelength.front(), 3).c_str());
    std::snprintf(right, sizeof right, "pair %d: slow (%s)", rope.pairs - 1,
                  ShownNumber(rope.wavelength.back(), 3).c_str());
    draw->AddText(ImVec2(grid_left, grid_bottom + frame.Px(2)), frame.Color(Role::Muted), left);
    // The colour scale, between the two labels: 0 to the largest mean usage.
    char scale_high[48];
    std::snprintf(scale_high, sizeof scale_high, "%s", ShownNumber(highest, 3).c_str());
    const float bar_width = std::min(frame.Px(160), width / 4);
    const float bar_left = origin.x + width / 2 - bar_width / 2;
    const float bar_top = grid_bottom + ImGui::GetFontSize() * 1.4f;
    const float bar_height = ImGui::GetFontSize() * 0.8f;
    for (int k = 0; k < 32; ++k)
        draw->AddRectFilled(ImVec2(bar_left + bar_width * k / 32, bar_top),
                            ImVec2(bar_left + bar_width * (k + 1) / 32, bar_top + bar_height),
                            plot::Sequential(k / 31.0));
    draw->AddText(ImVec2(bar_left - ImGui::CalcTextSize("0 ").x, bar_top - frame.Px(2)),
                  frame.Color(Role::Muted), "0");
    draw->AddText(ImVec2(bar_left + bar_width + frame.Px(4), bar_top - frame.Px(2)),
                  frame.Color(Role::Muted), scale_high);
    const float right_width = ImGui::CalcTextSize(right).x;
    draw->AddText(ImVec2(origin.x + width - right_width, grid_bottom + frame.Px(2)),
                  frame.Color(Role::Muted), right);
    if (ImGui::IsItemHovered()) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const int pair = static_cast<int>((mouse.x - grid_left) / cell_w);
        const int layer = static_cast<int>((mouse.y - origin.y) / cell_h);
        if (pair >= 0 && pair < rope.pairs && layer >= 0 && layer < rope.layers)
            ImGui::SetTooltip(
                "layer %d, pair %d (wavelength %s): ‖W_q‖·‖W_k‖ = %s, %s", layer, pair,
                ShownNumber(rope.wavelength[pair], 4).c_str(),
                ShownNumber(grid[static_cast<std::size_t>(layer) * rope.pairs + pair], 4).c_str(),
                usage_head >= 0 && usage_head < rope.heads
                    ? ("query head " + std::to_string(usage_head)).c_str()
                    : ("mean over " + std::to_string(rope.heads) + " heads").c_str());
    }
    if (frame.pictures_first) Sentence(frame, usage_sentence, "model.usage_sentence");
}

void ModelPanel::DrawBuckets(FrameContext& frame) {
    const ModelReport& r = *report;
    if (r.buckets.empty()) return;
    if (r.buckets.size() > 1) {
        for (std::size_t i = 0; i < r.buckets.size(); ++i) {
            if (i > 0) ImGui::SameLine();
            if (ImGui::RadioButton(r.buckets[i].stack.c_str(), bucket_stack == static_cast<int>(i)))
                bucket_stack = static_cast<int>(i);
        }
    }
    bucket_stack = std::clamp(bucket_stack, 0, static_cast<int>(r.buckets.size()) - 1);
    const BucketReport& b = r.buckets[static_cast<std::size_t>(bucket_stack)];
    const Explanation& sentence = bucket_sentences[static_cast<std::size_t>(bucket_stack)];
    if (!frame.pictures_first) Sentence(frame, sentence, "model.bucket_sentence");
    std::vector<double> xs(b.distances.begin(), b.distances.end());
    bucket_view.SetHome({xs.front(), xs.back()}, Padded(b.bias));
    if (!bucket_view.has_home) bucket_view.Reset();
    plot::PlotConfig config;
    config.x_label = "key − query (negative: keys before the query)";
    config.y_label = "bias added to the score";
    static constexpr Role kHeadRoles[] = {Role::Sin,  Role::Cos,      Role::PosA,
                                          Role::PosB, Role::ShiftArc, Role::Accent};
    std::vector<std::string> labels(static_cast<std::size_t>(b.heads));
    plot::Plot p;
    const float height =
        ImGui::GetContentRegionAvail().y - (frame.pictures_first ? ImGui::GetFontSize() * 5 : 0.0f);
    if (p.Begin("##model_buckets", bucket_view,
                ImVec2(-1, std::max(height, ImGui::GetFontSize() * 8)), config)) {
        frame.Record("model.bucket_plot");
        for (long long edge : b.edges)
            p.VLine(static_cast<double>(edge) - 0.5,
                    (frame.Color(Role::Muted) & 0x00FFFFFF) | 0x50000000, nullptr, 1.0f);
        for (int h = 0; h < b.heads; ++h) {
            labels[h] = "head " + std::to_string(h);
            const ImU32 colour = h < 6 ? frame.Color(kHeadRoles[h])
                                       : plot::Sequential(static_cast<double>(h) / b.heads);
            p.Line(h < 6 ? labels[h].c_str() : nullptr, xs.data(),
                   b.bias.data() + static_cast<std::size_t>(h) * xs.size(),
                   static_cast<int>(xs.size()), colour, frame.Px(1.5f));
        }
        p.End();
    }
    if (frame.pictures_first) Sentence(frame, sentence, "model.bucket_sentence");
}

void ModelPanel::DrawSlopes(FrameContext& frame) {
    const std::vector<double>& slopes = report->alibi_slopes;
    if (!frame.pictures_first) Sentence(frame, alibi_sentence, "model.alibi_sentence");
    std::vector<double> heads(slopes.size());
    for (std::size_t h = 0; h < slopes.size(); ++h)
        heads[h] = static_cast<double>(h);
    slope_view.SetHome({-0.5, slopes.size() - 0.5},
                       {0, *std::max_element(slopes.begin(), slopes.end()) * 1.1});
    if (!slope_view.has_home) slope_view.Reset();
    plot::PlotConfig config;
    config.x_label = "head";
    config.y_label = "slope m (score − m × distance)";
    config.x_flags = plot::AxisFlags_Integer;
    plot::Plot p;
    const float height =
        ImGui::GetContentRegionAvail().y - (frame.pictures_first ? ImGui::GetFontSize() * 5 : 0.0f);
    if (p.Begin("##model_slopes", slope_view,
                ImVec2(-1, std::max(height, ImGui::GetFontSize() * 8)), config)) {
        frame.Record("model.slope_plot");
        p.Bars("slope", heads.data(), slopes.data(), static_cast<int>(slopes.size()), 0.7,
               frame.Color(Role::Accent));
        p.End();
    }
    if (frame.pictures_first) Sentence(frame, alibi_sentence, "model.alibi_sentence");
}

} // namespace pelab
