// model_rope_views.cpp — the Your model panel's views of RoPE (each pair's wavelength, the
// family's pairing, the weights' per-pair usage), T5's buckets and ALiBi's slopes
// (panel_model.h), each with its sentence (model_sentences.h).
#include "panels/model/model_views.h"
#include "pelab/models/rope_analysis.h"

#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

void ModelPanel::DrawWavelengths(FrameContext& frame) {
    const RopeReport& rope = report->rope;
    if (!frame.pictures_first) ViewSentence(frame, rope_sentence, "model.rope_sentence");
    std::vector<double> pairs(static_cast<std::size_t>(rope.pairs));
    for (int i = 0; i < rope.pairs; ++i)
        pairs[i] = i;
    std::vector<double> all = rope.wavelength;
    all.insert(all.end(), rope.scaled_wavelength.begin(), rope.scaled_wavelength.end());
    all.insert(all.end(), rope.short_wavelength.begin(), rope.short_wavelength.end());
    if (rope.context > 0) all.push_back(static_cast<double>(rope.context));
    if (rope.extended_context > 0) all.push_back(static_cast<double>(rope.extended_context));
    if (rope.window > 0) all.push_back(static_cast<double>(rope.window));
    const double low = *std::min_element(all.begin(), all.end());
    const double high = *std::max_element(all.begin(), all.end());
    wavelength_view.SetHome({-0.5, rope.pairs - 0.5}, {low / 2, high * 2});
    if (!wavelength_view.has_home) wavelength_view.Reset();
    plot::PlotConfig config;
    config.x_label = "pair i (fast → slow)";
    config.y_label = "wavelength, positions";
    config.x_flags = plot::AxisFlags_Integer;
    config.y_flags = plot::AxisFlags_Log;
    char context_label[96], scaled_label[96], extended_label[96], short_label[96], window_label[96];
    std::snprintf(window_label, sizeof window_label, "%s %lld",
                  rope.window_chunked ? "chunk" : "sliding window", rope.window);
    std::snprintf(extended_label, sizeof extended_label, "stretched to %lld",
                  rope.extended_context);
    std::snprintf(context_label, sizeof context_label, "trained context %lld", rope.context);
    std::snprintf(scaled_label, sizeof scaled_label, "with rope_scaling (%s)",
                  rope.scaling.c_str());
    // longrope: transformers uses short_factor up to the original context, long_factor past it.
    if (!rope.short_wavelength.empty()) {
        std::snprintf(scaled_label, sizeof scaled_label, "long_factor (past %lld)", rope.long_from);
        std::snprintf(short_label, sizeof short_label, "short_factor (up to %lld)", rope.long_from);
    }
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
        if (!rope.short_wavelength.empty())
            p.LineMarkers(short_label, pairs.data(), rope.short_wavelength.data(), rope.pairs,
                          frame.Color(Role::PosB), frame.Px(1.5f), frame.Px(3.0f),
                          plot::Marker::Ring, std::max(1, rope.pairs / 32));
        if (rope.context > 0)
            p.HLine(static_cast<double>(rope.context), frame.Color(Role::Warning), context_label);
        if (rope.extended_context > 0)
            p.HLine(static_cast<double>(rope.extended_context), frame.Color(Role::Muted),
                    extended_label);
        // What these layers' queries can see back: the wavelengths above it never turn there.
        if (rope.window > 0)
            p.HLine(static_cast<double>(rope.window), frame.Color(Role::PosB), window_label);
        p.End();
    }
    if (frame.pictures_first) ViewSentence(frame, rope_sentence, "model.rope_sentence");
}

void ModelPanel::DrawPairing(FrameContext& frame) {
    const ModelReport& r = *report;
    const RopeReport& rope = r.rope;
    const bool half = r.found.pairing == RotaryPairing::HalfSplit;
    char line[640];
    // At most 128 dimensions are drawn: the first ones, or under latent attention (rotating
    // dimensions last) the last ones.
    const int shown = std::min(rope.head_dim, 128);
    const int first = std::clamp(rope.rotary_first, 0, rope.head_dim - shown);
    const std::string drawn = rope.head_dim <= shown
                                  ? ""
                                  : "; dimensions " + std::to_string(first) + "–" +
                                        std::to_string(first + shown - 1) + " are drawn";
    const std::string which =
        rope.rotary_first > 0
            ? "the last " + std::to_string(rope.rotary_dims) + " of each head's " +
                  std::to_string(rope.head_dim) + " dimensions rotate, after the " +
                  std::to_string(rope.rotary_first) + " of qk_nope_head_dim (grey: passed unturned)"
        : rope.rotary_dims < rope.head_dim
            ? std::to_string(rope.rotary_dims) + " of each head's " +
                  std::to_string(rope.head_dim) + " dimensions rotate (grey: passed unturned)"
            : "all " + std::to_string(rope.head_dim) + " dimensions of a head rotate";
    std::snprintf(line, sizeof line,
                  "%s rotates %s pairs, %s: %s. Each arc joins the two dimensions of a pair, from "
                  "the fastest (dark) to the slowest (light)%s.%s",
                  r.found.family.c_str(), half ? "half-split" : "interleaved",
                  half ? "dimension i with i + r/2" : "dimension 2i with 2i + 1", which.c_str(),
                  drawn.c_str(),
                  r.found.family_id == "llama" || r.found.family_id == "mistral" ||
                          r.found.family_id == "mixtral"
                      ? " Meta's own code rotates interleaved pairs of its original weights; "
                        "Hugging Face's conversion permuted the query and key rows so that "
                        "half-split pairs give the same scores."
                      : "");
    WrappedText(line);
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
            const int dim = first + d;
            const bool turns =
                dim >= rope.rotary_first && dim < rope.rotary_first + rope.rotary_dims;
            const ImU32 fill = turns ? (own ? frame.Color(Role::Accent) : frame.Color(Role::Muted))
                                     : (frame.Color(Role::Muted) & 0x00FFFFFF) | 0x60000000;
            draw->AddRectFilled(ImVec2(origin.x + d * cell + 1, row_top),
                                ImVec2(origin.x + (d + 1) * cell - 1, row_bottom), fill);
            if (cell > ImGui::CalcTextSize("000").x) {
                char number[16];
                std::snprintf(number, sizeof number, "%d", dim);
                // Centred under its cell (at its left edge it read as the cell boundary's).
                const float text_width = ImGui::CalcTextSize(number).x;
                draw->AddText(
                    ImVec2(origin.x + (d + 0.5f) * cell - text_width / 2, row_bottom + frame.Px(2)),
                    frame.Color(Role::Muted), number);
            }
        }
        const float arc_room = row_top - top - ImGui::GetFontSize() * 1.4f;
        for (int i = 0; i < rope.pairs; ++i) {
            int a = 0, b = 0;
            pair_dimensions(i, rope.rotary_dims, pairing, &a, &b);
            a += rope.rotary_first - first;
            b += rope.rotary_first - first;
            if (a < 0 || b < 0 || a >= shown || b >= shown) continue;
            const float xa = origin.x + (a + 0.5f) * cell, xb = origin.x + (b + 0.5f) * cell;
            const float rise = std::min(arc_room, std::max(frame.Px(8), (xb - xa) * 0.7f));
            const double t = rope.pairs > 1 ? static_cast<double>(i) / (rope.pairs - 1) : 0;
            ImU32 colour = PairArcColour(frame.theme, t);
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
        const int column = static_cast<int>((ImGui::GetIO().MousePos.x - origin.x) / cell);
        const int d = first + column - rope.rotary_first; // within the rotating part
        if (column >= 0 && column < shown) {
            if (d < 0 || d >= rope.rotary_dims) {
                Tooltip("dimension %d: not rotated (%s)", first + column,
                        rope.rotary_first > 0 ? "qk_nope_head_dim" : "partial rotary");
            } else {
                const int pair = half ? d % (rope.rotary_dims / 2) : d / 2;
                int a = 0, b = 0;
                pair_dimensions(pair, rope.rotary_dims, r.found.pairing, &a, &b);
                Tooltip("dimension %d: pair %d (dimensions %d and %d), wavelength %s",
                        first + column, pair, a + rope.rotary_first, b + rope.rotary_first,
                        ShownNumber(rope.wavelength[pair], 4).c_str());
            }
        }
    }
}

namespace {

// The model's index of usage row `row` (rows skip the layers without RoPE).
int ModelLayerOf(const RopeReport& rope, int row) {
    return row >= 0 && row < static_cast<int>(rope.usage_layers.size())
               ? rope.usage_layers[static_cast<std::size_t>(row)]
               : row;
}

} // namespace

void ModelPanel::DrawUsage(FrameContext& frame) {
    const RopeReport& rope = report->rope;
    if (rope.layers == 0) {
        MutedWrappedText(report->config_only
                             ? "The pairs' usage is read from the weights' q and k "
                               "projections: open the model's weights (model.safetensors or its "
                               "index, with this config.json beside them)."
                             : "The weights hold no q and k projections for the layers of "
                               "this kind, so their pairs' usage cannot be measured.");
        frame.Record("model.usage_needs_weights");
        return;
    }
    // One query head, or the mean over heads; the sentence follows what is drawn.
    if (rope.heads > 1) {
        const std::string mean = "mean of " + std::to_string(rope.heads) + " heads";
        const std::string shown_head = usage_head >= 0 && usage_head < rope.heads
                                           ? "head " + std::to_string(usage_head + 1)
                                           : mean;
        ImGui::SetNextItemWidth(FitWidth(10.0f, "query head"));
        if (ImGui::BeginCombo("query head", shown_head.c_str())) {
            if (ImGui::Selectable(mean.c_str(), usage_head < 0)) usage_head = -1;
            for (int head = 0; head < rope.heads; ++head)
                if (ImGui::Selectable(("head " + std::to_string(head + 1)).c_str(),
                                      usage_head == head))
                    usage_head = head;
            ImGui::EndCombo();
        }
        frame.Record("model.usage_head");
        if (usage_head >= rope.heads) {
            char note[120];
            std::snprintf(note, sizeof note,
                          "Query head %d: this model has %d heads (1 to %d); the mean over them "
                          "is shown.",
                          usage_head + 1, rope.heads, rope.heads);
            MutedWrappedText(note);
            frame.Record("model.usage_note");
        }
        FormulaTooltip("Each query head's usage uses the key head of its group (grouped-query "
                       "attention shares one key head among several query heads).");
    }
    const std::vector<double>& grid = UsageFor();
    if (!frame.pictures_first) ViewSentence(frame, usage_sentence, "model.usage_sentence");
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
        std::snprintf(name, sizeof name, "layer %d", ModelLayerOf(rope, layer) + 1);
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
            Tooltip(
                "layer %d, pair %d (wavelength %s): ‖W_q‖·‖W_k‖ = %s, %s",
                ModelLayerOf(rope, layer) + 1, pair, ShownNumber(rope.wavelength[pair], 4).c_str(),
                ShownNumber(grid[static_cast<std::size_t>(layer) * rope.pairs + pair], 4).c_str(),
                usage_head >= 0 && usage_head < rope.heads
                    ? ("query head " + std::to_string(usage_head + 1)).c_str()
                    : ("mean over " + std::to_string(rope.heads) + " heads").c_str());
    }
    if (frame.pictures_first) ViewSentence(frame, usage_sentence, "model.usage_sentence");
    if (!rope.weights_note.empty()) {
        MutedWrappedText(("Read so: " + rope.weights_note + ".").c_str());
        frame.Record("model.usage_weights_note");
    }
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
    if (!frame.pictures_first) ViewSentence(frame, sentence, "model.bucket_sentence");
    std::vector<double> xs(b.distances.begin(), b.distances.end());
    bucket_view.SetHome({xs.front(), xs.back()}, PaddedRange(b.bias));
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
            labels[h] = "head " + std::to_string(h + 1);
            const ImU32 colour = h < 6 ? frame.Color(kHeadRoles[h])
                                       : plot::Sequential(static_cast<double>(h) / b.heads);
            p.Line(h < 6 ? labels[h].c_str() : nullptr, xs.data(),
                   b.bias.data() + static_cast<std::size_t>(h) * xs.size(),
                   static_cast<int>(xs.size()), colour, frame.Px(1.5f));
        }
        p.End();
    }
    if (frame.pictures_first) ViewSentence(frame, sentence, "model.bucket_sentence");
}

void ModelPanel::DrawSlopes(FrameContext& frame) {
    const std::vector<double>& slopes = report->alibi_slopes;
    if (!frame.pictures_first) ViewSentence(frame, alibi_sentence, "model.alibi_sentence");
    std::vector<double> heads(slopes.size());
    for (std::size_t h = 0; h < slopes.size(); ++h)
        heads[h] = static_cast<double>(h + 1); // heads counted from 1, as everywhere on screen
    slope_view.SetHome({0.5, slopes.size() + 0.5},
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
    if (frame.pictures_first) ViewSentence(frame, alibi_sentence, "model.alibi_sentence");
}

} // namespace pelab
