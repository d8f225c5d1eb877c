// The Train panel's pictures: the curves, the length-generalisation plot and the attention maps
// (TrainPanel::DrawCurves, DrawLength, DrawAttention), each drawing the run it is given.
#include "panels/scene_controls.h"
#include "panels/train/panel_train.h"

#include "panels/methods.h"

#include "widgets/heatmap.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

// Row i, column j of a length × length map.
std::size_t Cell(int i, int j, int length) {
    return static_cast<std::size_t>(i) * static_cast<std::size_t>(length) +
           static_cast<std::size_t>(j);
}

} // namespace

void TrainPanel::DrawCurves(FrameContext& frame, const TrainRun& run, float height) {
    const float font = ImGui::GetFontSize();
    const ImVec2 avail(ImGui::GetContentRegionAvail().x, height);
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const bool side_by_side = avail.x >= font * 44.0f;
    const bool stacked = !side_by_side && avail.y >= font * 24.0f;
    if (!side_by_side && !stacked) {
        // Short and narrow (a projector): one plot at a time.
        ImGui::RadioButton("loss", &curve_shown, 0);
        ImGui::SameLine();
        ImGui::RadioButton("accuracy", &curve_shown, 1);
    }
    const float height_left =
        side_by_side || stacked ? height : height - ImGui::GetFrameHeightWithSpacing();
    const ImVec2 size =
        side_by_side ? ImVec2((avail.x - spacing) * 0.5f, std::max(font * 10.0f, height_left))
        : stacked    ? ImVec2(-1, std::max(font * 10.0f, (height_left - spacing) * 0.5f))
                     : ImVec2(-1, std::max(font * 10.0f, height_left));
    const double steps = run.settings.steps;
    const int every = LossEvery(run.settings.steps);
    // The loss: log scale, from the largest loss down to the smallest (above 0).
    double low = 1e300, high = 0;
    std::vector<std::vector<double>> xs(run.variants.size());
    for (std::size_t v = 0; v < run.variants.size(); ++v) {
        for (std::size_t k = 0; k < run.variants[v].loss.size(); ++k) {
            xs[v].push_back(static_cast<double>(k * every + every));
            const double loss = run.variants[v].loss[k];
            if (loss > 0) low = std::min(low, loss), high = std::max(high, loss);
        }
    }
    if (high <= 0) low = 0.01, high = 10;
    const plot::Range step_range{0, std::max(1.0, steps) * 1.03}; // room for the last marker
    if (side_by_side || stacked || curve_shown == 0) {
        // Log when the loss falls by more than a decade (a model that learned); otherwise
        // linear, so that the axis has labels.
        const bool log = high / low > 10;
        const plot::Range loss_range =
            log ? plot::Range{std::max(1e-6, low * 0.8), high * 1.25}
                : plot::Range{std::max(0.0, low - 0.1 * (high - low) - 1e-3),
                              high + 0.1 * (high - low) + 1e-3};
        // Refitted whenever the data's range moves (a live run's loss keeps falling).
        if (loss_view.home_x.max != step_range.max || loss_view.home_y.max != loss_range.max ||
            loss_view.home_y.min != loss_range.min)
            loss_view.Refit(step_range, loss_range);
        loss_view.SetHome(step_range, loss_range);
        plot::PlotConfig config;
        config.x_label = "training step";
        config.y_label = "loss (cross-entropy)";
        config.y_flags = log ? plot::AxisFlags_Log : plot::AxisFlags_None;
        plot::Plot p;
        if (p.Begin("##train_loss", loss_view, size, config)) {
            for (std::size_t v = 0; v < run.variants.size(); ++v) {
                const VariantResult& r = run.variants[v];
                // Marked at eight places, so lines of one colour tell apart by their shape.
                const int count = static_cast<int>(r.loss.size());
                p.LineMarkers(positional_kind_name(r.variant), xs[v].data(), r.loss.data(), count,
                              frame.theme.Color(LookOf(r.variant).role),
                              2.0f * frame.theme.line_scale, 3.5f * frame.theme.line_scale,
                              LookOf(r.variant).marker, std::max(1, count / 8));
            }
            p.End();
        }
        frame.Record("train.loss_plot");
        if (side_by_side) ImGui::SameLine();
    }
    if (side_by_side || stacked || curve_shown == 1) {
        const plot::Range accuracy_range{0, 1.05};
        if (accuracy_view.home_x.max != step_range.max)
            accuracy_view.Refit(step_range, accuracy_range);
        accuracy_view.SetHome(step_range, accuracy_range);
        plot::PlotConfig config;
        config.x_label = "training step";
        char label[64];
        std::snprintf(label, sizeof label, "accuracy at length %d", run.settings.train_len);
        config.y_label = label;
        plot::Plot p;
        std::vector<std::vector<double>> steps_at(run.variants.size());
        if (p.Begin("##train_accuracy", accuracy_view, size, config)) {
            for (std::size_t v = 0; v < run.variants.size(); ++v) {
                const VariantResult& r = run.variants[v];
                steps_at[v].assign(r.accuracy_steps.begin(), r.accuracy_steps.end());
                const ImU32 color = frame.theme.Color(LookOf(r.variant).role);
                // Marked too: a short run measures once (at its last step), a single point.
                p.LineMarkers(positional_kind_name(r.variant), steps_at[v].data(),
                              r.accuracy.data(), static_cast<int>(r.accuracy.size()), color,
                              2.0f * frame.theme.line_scale, 3.0f * frame.theme.line_scale,
                              LookOf(r.variant).marker);
            }
            p.End();
        }
        frame.Record("train.accuracy_plot");
    }
}

void TrainPanel::DrawLength(FrameContext& frame, const TrainRun& run, float height) {
    const std::vector<int> lengths = test_lengths(run.settings);
    std::vector<double> xs(lengths.begin(), lengths.end());
    const plot::Range x_range{0, static_cast<double>(lengths.back()) * 1.04};
    const plot::Range y_range{0, 1.05};
    if (length_view.home_x.max != x_range.max) length_view.Refit(x_range, y_range);
    length_view.SetHome(x_range, y_range);
    plot::PlotConfig config;
    // The shaded band is named in the axis title: a label inside the plot sat on the curves.
    config.x_label = "test length (tokens; shaded: the lengths trained on)";
    config.y_label = "accuracy";
    const float font = ImGui::GetFontSize();
    plot::Plot p;
    bool any = false;
    if (p.Begin("##train_length", length_view, ImVec2(-1, std::max(font * 10.0f, height)),
                config)) {
        // The trained range, shaded (at least one token wide, so one trained length shows).
        const double from = run.settings.min_train_len - 0.5, to = run.settings.train_len + 0.5;
        const ImU32 shade = (frame.theme.Color(Role::Muted) & 0x00FFFFFFu) | 0x40000000u;
        p.DrawList()->AddRectFilled(p.ToPixels(from, y_range.max), p.ToPixels(to, 0), shade);
        // The plot keeps the points it is given until End (it draws hover and legend then):
        // each variant's means live here until then.
        std::vector<std::vector<double>> means_of;
        means_of.reserve(run.variants.size());
        for (const VariantResult& r : run.variants) {
            if (!r.Done()) continue;
            any = true;
            const ImU32 color = frame.theme.Color(LookOf(r.variant).role);
            // The mean over the run's seeds; with several, each length's range as a bar with
            // caps (a run of one seed: its accuracies, no bar).
            std::vector<double>& means = means_of.emplace_back(xs.size());
            for (std::size_t k = 0; k < xs.size(); ++k)
                means[k] = r.MeanAt(k);
            if (r.Seeds() > 1) {
                const float cap = 4.0f * frame.theme.line_scale;
                for (std::size_t k = 0; k < xs.size(); ++k) {
                    const ImVec2 low = p.ToPixels(xs[k], r.LowestAt(k)),
                                 high = p.ToPixels(xs[k], r.HighestAt(k));
                    p.DrawList()->AddLine(low, high, color, 1.5f * frame.theme.line_scale);
                    p.DrawList()->AddLine(ImVec2(low.x - cap, low.y), ImVec2(low.x + cap, low.y),
                                          color, 1.5f * frame.theme.line_scale);
                    p.DrawList()->AddLine(ImVec2(high.x - cap, high.y),
                                          ImVec2(high.x + cap, high.y), color,
                                          1.5f * frame.theme.line_scale);
                }
            }
            const float radius = r.variant == PositionalKind::None ? 7.0f : 4.0f;
            p.LineMarkers(positional_kind_name(r.variant), xs.data(), means.data(),
                          static_cast<int>(xs.size()), color, 2.0f * frame.theme.line_scale,
                          radius * frame.theme.line_scale, LookOf(r.variant).marker);
        }
        p.End();
    }
    frame.Record("train.length_plot");
    if (!any)
        MutedWrappedText("The accuracy per test length is measured once a variant has "
                         "finished training.");
}

namespace {

// How the maps are laid out: as many per row as fit (a title above each), each as large as the
// rows allow.
struct MapGrid {
    int columns = 1;
    float side = 0, title_width = 0;
};
MapGrid FitAttentionMaps(const std::vector<const VariantResult*>& done, const ImVec2& avail) {
    const float font = ImGui::GetFontSize();
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const int count = static_cast<int>(done.size());
    int best_columns = 1;
    float best_side = 0;
    float title_width = 0;
    for (const VariantResult* r : done)
        title_width =
            std::max(title_width,
                     ImGui::CalcTextSize(
                         (std::string(positional_kind_name(r->variant)) + ": 16/16 right").c_str())
                         .x);
    // The line under each title is as wide as its widest value.
    title_width = std::max(title_width, ImGui::CalcTextSize("sink 0.00 (even 0.00)").x);
    for (int columns = 1; columns <= count; ++columns) {
        const int rows = (count + columns - 1) / columns;
        if (columns > 1 && columns * (title_width + spacing) > avail.x + spacing) break;
        const float by_width = (avail.x - spacing * (columns - 1)) / columns;
        // Above each map: its title and its first-token line.
        const float by_height =
            (avail.y - rows * (2 * ImGui::GetTextLineHeightWithSpacing() + spacing)) / rows;
        // Too short for every row (a projector): the maps scroll, as many abreast as fit, each
        // as wide as the columns allow.
        const float side = by_height < font * 4.0f ? std::min(by_width, font * 4.0f)
                                                   : std::min(by_width, by_height);
        if (side >= best_side) best_side = side, best_columns = columns;
    }
    return {best_columns, std::max(font * 4.0f, best_side), title_width};
}

// One variant's map of the example: its title (right answers), its first-token line, the
// weights, and each weight on hover.
void DrawAttentionMap(FrameContext& frame, const TrainRun& run, const VariantResult& r,
                      int shown_layer, int shown_head, float side) {
    const TrainSettings& s = run.settings;
    const int length = run.example.length;
    const float cell = side / static_cast<float>(length);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImGui::BeginGroup();
    char record[48];
    int right = 0, scored = 0;
    for (int p = 0; p < length; ++p) {
        const int target = run.example.targets[static_cast<std::size_t>(p)];
        if (target < 0) continue;
        ++scored;
        right += r.prediction[static_cast<std::size_t>(p)] == target ? 1 : 0;
    }
    char title[96];
    std::snprintf(title, sizeof title, "%s %d/%d", positional_kind_name(r.variant), right, scored);
    ImGui::TextColored(frame.theme.ColorVec(LookOf(r.variant).role), "%s", title);
    FormulaTooltip("Right answers of this model on the example, at the positions the task "
                   "scores. Hover the map for each weight.");
    const std::vector<double>& weights =
        r.attention[static_cast<std::size_t>(shown_layer)][static_cast<std::size_t>(shown_head)];
    if (length >= 2) {
        const FirstTokenShare sink = first_token_share(weights, length, s.causal);
        char line[80];
        std::snprintf(line, sizeof line, "sink %.2f (even %.2f)", sink.share, sink.even);
        ImGui::TextDisabled("%s", line);
        FormulaTooltip("The attention sink: the mean weight queries 1 … n − 1 give the first "
                       "token, and in brackets what it would be if each spread its weight "
                       "evenly over the keys it sees. Far above even: the head parks weight "
                       "on the first token.");
        std::snprintf(record, sizeof record, "train.first_token_%s",
                      positional_kind_name(r.variant));
        frame.Record(record);
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(title, ImVec2(side, side));
    const std::vector<double>& map = weights;
    for (int i = 0; i < length; ++i)
        for (int j = 0; j < length; ++j) {
            const ImVec2 a(origin.x + j * cell, origin.y + i * cell);
            draw->AddRectFilled(a, ImVec2(a.x + cell, a.y + cell),
                                plot::Sequential(map[Cell(i, j, length)]));
        }
    if (ImGui::IsItemHovered()) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const int i = std::clamp(static_cast<int>((mouse.y - origin.y) / cell), 0, length - 1);
        const int j = std::clamp(static_cast<int>((mouse.x - origin.x) / cell), 0, length - 1);
        const int wanted = run.example.targets[static_cast<std::size_t>(i)];
        char answer[96];
        if (wanted < 0)
            std::snprintf(answer, sizeof answer, "the model answers %d here (not scored)",
                          r.prediction[static_cast<std::size_t>(i)]);
        else
            std::snprintf(answer, sizeof answer, "the model answers %d here (the task wants %d)",
                          r.prediction[static_cast<std::size_t>(i)], wanted);
        Tooltip("query %d (token %d) → key %d (token %d): weight %.4f\n%s", i,
                run.example.tokens[static_cast<std::size_t>(i)], j,
                run.example.tokens[static_cast<std::size_t>(j)], map[Cell(i, j, length)], answer);
    }
    ImGui::EndGroup();
    std::snprintf(record, sizeof record, "train.attention_%s", positional_kind_name(r.variant));
    frame.Record(record);
}

} // namespace

void TrainPanel::DrawAttentionControls(FrameContext& frame, const TrainRun& run) {
    const TrainSettings& s = run.settings;
    const int shown_layer = std::clamp(layer, 0, s.layers - 1);
    const int shown_head = std::clamp(head, 0, s.heads - 1);
    if (shown_layer != layer || shown_head != head) {
        attention_note = "Asked for layer " + std::to_string(layer) + ", head " +
                         std::to_string(head) + "; this model has " + std::to_string(s.layers) +
                         (s.layers == 1 ? " layer" : " layers") + " and " +
                         std::to_string(s.heads) + (s.heads == 1 ? " head" : " heads") +
                         " (counted from 0): showing layer " + std::to_string(shown_layer) +
                         ", head " + std::to_string(shown_head) + ".";
        layer = shown_layer;
        head = shown_head;
    }
    FlowRow row;
    const float slider = FitWidth(5.0f, "layer");
    int shown = shown_layer;
    if (SceneSlider(frame, row, kTrainLayer, &shown, slider, s.layers - 1))
        layer = shown, attention_note.clear();
    shown = shown_head;
    if (SceneSlider(frame, row, kTrainHead, &shown, slider, s.heads - 1))
        head = shown, attention_note.clear();
    if (!attention_note.empty()) MutedWrappedText(attention_note.c_str());
    std::string tokens = "example:";
    for (const int token : run.example.tokens)
        tokens += " " + std::to_string(token);
    row.Item(ImGui::CalcTextSize(tokens.c_str()).x);
    ImGui::TextUnformatted(tokens.c_str());
    FormulaTooltip("One sequence of the task at the trained length (at most 16 tokens). Each "
                   "map's row i is the weight query i gives each key; bright is more.");
    frame.Record("train.example");
}

void TrainPanel::DrawAttention(FrameContext& frame, const TrainRun& run, float height) {
    DrawAttentionControls(frame, run);
    const int shown_layer = layer, shown_head = head; // in range: the controls keep them so
    std::vector<const VariantResult*> done;
    for (const VariantResult& r : run.variants)
        if (r.Done() && !r.attention.empty()) done.push_back(&r);
    if (done.empty()) {
        MutedWrappedText("The attention maps appear once a variant has finished training.");
        return;
    }
    // (Below the maps: their colour scale, about two text heights.)
    const ImVec2 avail(ImGui::GetContentRegionAvail().x,
                       height - 2 * ImGui::GetFrameHeightWithSpacing() -
                           2.2f * ImGui::GetFontSize());
    const float font = ImGui::GetFontSize();
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const MapGrid grid = FitAttentionMaps(done, avail);
    const float start_x = ImGui::GetCursorPosX();
    for (std::size_t k = 0; k < done.size(); ++k) {
        const int column = static_cast<int>(k) % grid.columns;
        // Columns as wide as the widest title or the map, whichever is wider.
        if (column != 0)
            ImGui::SameLine(start_x + static_cast<float>(column) *
                                          (std::max(grid.side, grid.title_width) + spacing));
        DrawAttentionMap(frame, run, *done[k], shown_layer, shown_head, grid.side);
    }
    HeatmapStyle scale;
    scale.diverging = false;
    scale.range_min = 0;
    scale.range = 1;
    ColorLegend(scale, std::min(avail.x, font * 16.0f));
    FormulaTooltip("The weight a query (row) gives a key (column): each row sums to 1.");
}

} // namespace pelab
