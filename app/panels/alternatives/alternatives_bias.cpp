// alternatives_bias.cpp — the alternatives panel's ALiBi and T5 tabs, its scene fields and its
// readouts.
#include "io/scene.h"
#include "panels/alternatives/panel_alternatives.h"
#include "pelab/attention.h"
#include "pelab/embedding.h"
#include "pelab/error.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pelab {

namespace {

constexpr int kAlibiTokens = 12; ///< the bias matrix drawn: 12 × 12 tokens

std::string CheckSentence(const std::string& text) {
    try {
        tokenize(text);
        return "";
    } catch (const InvalidArgument& error) {
        return error.what();
    }
}

} // namespace

void AlternativesPanel::DrawAlibi(FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float slider = FitWidth(7.0f, "heads H");
        row.Item(LabelledWidth(slider, "heads H"));
        ImGui::SetNextItemWidth(slider);
        ImGui::SliderInt("heads H", &alibi_heads, 1, 64, "%d", ImGuiSliderFlags_AlwaysClamp);
        frame.Record("alternatives.alibi_heads");
        row.Item(LabelledWidth(slider, "head h"));
        ImGui::SetNextItemWidth(slider);
        ImGui::SliderInt("head h", &alibi_head, 1, alibi_heads, "%d", ImGuiSliderFlags_AlwaysClamp);
        frame.Record("alternatives.alibi_head");
        row.Item(CheckboxWidth("causal mask"));
        ImGui::Checkbox("causal mask", &alibi_causal);
        frame.Record("alternatives.alibi_causal");
        const float text = FitWidth(10.0f, "sentence B");
        for (int which = 0; which < 2; ++which) {
            const char* label = which == 0 ? "sentence A" : "sentence B";
            std::string& sentence = which == 0 ? alibi_sentence_a : alibi_sentence_b;
            row.Item(LabelledWidth(text, label));
            ImGui::SetNextItemWidth(text);
            std::string edited = sentence;
            if (ImGui::InputText(label, &edited)) {
                const std::string why = CheckSentence(edited);
                if (why.empty())
                    sentence = edited, input_error.clear();
                else
                    input_error = std::string(label) + " not used: " + why;
            }
            frame.Record(which == 0 ? "alternatives.alibi_a" : "alternatives.alibi_b");
        }
        EndControls(frame);
    }
    alibi_heads = std::clamp(alibi_heads, 1, 64);
    alibi_head = std::clamp(alibi_head, 1, alibi_heads);
    const std::vector<double> slopes = alibi_slopes(alibi_heads);
    const double slope = slopes[alibi_head - 1];
    std::string list;
    for (int h = 0; h < alibi_heads && h < 12; ++h) {
        char value[32];
        std::snprintf(value, sizeof value, "%s%s", h ? ", " : "", ShownNumber(slopes[h]).c_str());
        list += value;
    }
    if (alibi_heads > 12) list += ", …";
    char line[640];
    const bool power_of_two = (alibi_heads & (alibi_heads - 1)) == 0;
    std::snprintf(line, sizeof line,
                  "ALiBi adds −m_h·|i − j| to the score of query i and key j: no vector is "
                  "added to the input. %s slopes for H = %d: %s. Head %d (m = %s) is drawn "
                  "below%s.",
                  power_of_two ? "The geometric"
                               : "Not a power of two, so the reference code's "
                                 "mix of two geometric series gives the",
                  alibi_heads, list.c_str(), alibi_head, ShownNumber(slope, 4).c_str(),
                  alibi_causal ? "; keys after the query are masked (the model is causal)" : "");
    WrappedText(line);
    frame.Record("alternatives.alibi_slopes");
    // The bias matrix of the head: darker the further apart, masked cells hatched grey.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float font = ImGui::GetFontSize();
    // Fill the room below; when the window is short (a projector at text scale 2), take half
    // the width and let the tab scroll, so that the cells keep their numbers. Not on a slide:
    // there the matrix stays within the room below, and the step is drawn smaller until it
    // fits whole (FitStepToRoom).
    const float below = avail.y - font * 1.5f;
    const float room =
        below > font * 14 || frame.slides ? std::min(avail.x, below) : avail.x * 0.55f;
    const float cell = std::max(font * 1.6f, room / (kAlibiTokens + 1));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const plot::DivergingMap map{frame.Color(Role::MapNegative), frame.Color(Role::MapMiddle),
                                 frame.Color(Role::MapPositive)};
    // Colours on head 1's scale (the steepest), so that a gentle head looks pale.
    const double most = slopes[0] * (kAlibiTokens - 1);
    // Every cell's number at one size: the widest fits its cell (down to 0.6 of the text size;
    // below that none is drawn and hovering gives them). A number missing from some cells only
    // would read as "no penalty" there.
    const auto cell_text = [&](double bias, char* out, std::size_t size) {
        std::snprintf(out, size, "%.3g", bias == 0 ? 0.0 : bias);
    };
    float widest = 0;
    for (int i = 0; i < kAlibiTokens; ++i)
        for (int j = 0; j < kAlibiTokens; ++j) {
            const double bias = alibi_bias(slope, i, j, alibi_causal);
            if (std::isinf(bias)) continue;
            char value[16];
            cell_text(bias, value, sizeof value);
            widest = std::max(widest, ImGui::CalcTextSize(value).x);
        }
    const float number_size =
        widest > 0 ? std::min(font, font * (cell - font * 0.3f) / widest) : font;
    for (int i = 0; i < kAlibiTokens; ++i) {
        char label[8];
        std::snprintf(label, sizeof label, "%d", i);
        draw->AddText(ImVec2(origin.x + font * 0.2f, origin.y + cell * (i + 1) + (cell - font) / 2),
                      ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
        draw->AddText(ImVec2(origin.x + cell * (i + 1) + (cell - ImGui::CalcTextSize(label).x) / 2,
                             origin.y + (cell - font) / 2),
                      ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
        for (int j = 0; j < kAlibiTokens; ++j) {
            const double bias = alibi_bias(slope, i, j, alibi_causal);
            const ImVec2 a(origin.x + cell * (j + 1), origin.y + cell * (i + 1));
            const ImVec2 b(a.x + cell - 1, a.y + cell - 1);
            if (std::isinf(bias)) {
                draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
                draw->AddLine(a, b, ImGui::GetColorU32(ImGuiCol_TextDisabled));
                continue;
            }
            const float t = most > 0 ? static_cast<float>(-bias / most) : 0.0f;
            const ImU32 colour = plot::Diverging(-t, map);
            draw->AddRectFilled(a, b, colour);
            char value[16];
            cell_text(bias, value, sizeof value);
            if (number_size >= font * 0.6f) {
                const float width = ImGui::CalcTextSize(value).x * number_size / font;
                draw->AddText(ImGui::GetFont(), number_size,
                              ImVec2(a.x + (cell - width) / 2, a.y + (cell - number_size) / 2),
                              plot::TextColorOn(colour), value);
            }
        }
    }
    ImGui::Dummy(ImVec2(cell * (kAlibiTokens + 1), cell * (kAlibiTokens + 1)));
    frame.Record("alternatives.alibi_matrix");
    if (ImGui::IsItemHovered()) {
        const ImVec2 mouse = ImGui::GetMousePos();
        const int j = static_cast<int>((mouse.x - origin.x) / cell) - 1;
        const int i = static_cast<int>((mouse.y - origin.y) / cell) - 1;
        if (i >= 0 && j >= 0 && i < kAlibiTokens && j < kAlibiTokens) {
            const double bias = alibi_bias(slope, i, j, alibi_causal);
            if (std::isinf(bias))
                ImGui::SetTooltip("query %d, key %d: masked (a later key)", i, j);
            else
                ImGui::SetTooltip("query %d, key %d: −%.4g·|%d − %d| = %.4g", i, j, slope, i, j,
                                  bias);
        }
    }
    // Beside the matrix when the window is wide enough, else below it.
    const bool beside = avail.x - cell * (kAlibiTokens + 1) > font * 18;
    if (beside) {
        ImGui::SameLine();
        ImGui::BeginGroup();
    }
    const AlibiTie tie = AlibiBreaksTie(alibi_sentence_a, alibi_sentence_b, slope);
    if (!tie.error.empty()) {
        ErrorText(frame, tie.error.c_str());
    } else if (!tie.same_words) {
        MutedWrappedText("The two sentences do not hold the same words, so there is no tie to "
                         "break: write B as a re-ordering of A.");
    } else {
        std::snprintf(line, sizeof line,
                      "Order demo, PE off: \"%s\" and \"%s\" score the same up to re-ordering "
                      "(largest difference %s). With head %d's bias −m·|i − j| added to every "
                      "score (no mask, for this check): %s. %s",
                      alibi_sentence_a.c_str(), alibi_sentence_b.c_str(),
                      ShownNumber(tie.without_bias, 3).c_str(), alibi_head,
                      ShownNumber(tie.with_bias, 3).c_str(),
                      tie.distances_kept
                          ? "Every pair of words is as far apart in B as in A, and the bias sees "
                            "only distance, so the tie stays."
                      : tie.with_bias > 1e-9 ? "The bias alone breaks the tie."
                                             : "Still a tie.");
        ImGui::PushStyleColor(ImGuiCol_Text,
                              frame.ColorVec(tie.with_bias > 1e-9 ? Role::Good : Role::Warning));
        WrappedText(line);
        ImGui::PopStyleColor();
        std::snprintf(line, sizeof line,
                      "Causal, as ALiBi models run: the attention weights differ by %s after "
                      "re-ordering with the mask and the bias (%s with the mask alone: a "
                      "causal model sees order through its mask too).",
                      ShownNumber(tie.causal_with_bias, 3).c_str(),
                      ShownNumber(tie.causal_mask_only, 3).c_str());
        ImGui::PushStyleColor(
            ImGuiCol_Text,
            frame.ColorVec(tie.causal_with_bias > 1e-9 ? Role::Good : Role::Warning));
        WrappedText(line);
        ImGui::PopStyleColor();
    }
    frame.Record("alternatives.alibi_tie");
    if (beside) ImGui::EndGroup();
}

void AlternativesPanel::DrawT5(FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float slider = FitWidth(7.0f, "buckets");
        row.Item(LabelledWidth(slider, "buckets"));
        ImGui::SetNextItemWidth(slider);
        ImGui::SliderInt("buckets", &t5_buckets, 4, 128, "%d", ImGuiSliderFlags_AlwaysClamp);
        t5_buckets += t5_buckets % 2;
        frame.Record("alternatives.t5_buckets");
        row.Item(LabelledWidth(slider, "max distance"));
        ImGui::SetNextItemWidth(slider);
        ImGui::SliderInt("max distance", &t5_max_distance, 8, 4096, "%d",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
        frame.Record("alternatives.t5_max_distance");
        row.Item(CheckboxWidth("bidirectional"));
        ImGui::Checkbox("bidirectional", &t5_bidirectional);
        FormulaTooltip("On: an encoder; keys after the query get their own half of the buckets. "
                       "Off: a decoder; every later key falls in bucket 0 (it is masked anyway).");
        frame.Record("alternatives.t5_bidirectional");
        EndControls(frame);
    }
    const int side = t5_bidirectional ? t5_buckets / 2 : t5_buckets;
    const T5BucketOptions options = T5Options();
    const long long last_start = t5_last_bucket_start(options);
    const int exact = side / 2;
    // Which of a side's buckets some distance reaches (the log steps can skip some).
    std::vector<bool> reached(static_cast<std::size_t>(side), false);
    for (long long n = 0; n <= last_start; ++n)
        reached[static_cast<std::size_t>(t5_bucket(-n, options) - 0)] = true;
    const int unused = static_cast<int>(std::count(reached.begin(), reached.end(), false));
    char exact_part[96];
    if (exact == 1)
        std::snprintf(exact_part, sizeof exact_part, "Distance 0 gets a bucket of its own");
    else
        std::snprintf(exact_part, sizeof exact_part,
                      "Distances 0 … %d each get a bucket of their own", exact - 1);
    char line[720];
    std::snprintf(
        line, sizeof line,
        "T5 adds a learned number per bucket of the relative position (key − query) to each "
        "score. "
        "%s%s, and every distance from %lld on shares the last bucket: past it the model "
        "cannot tell distances apart.%s%s",
        exact_part, last_start > exact ? "; then buckets widen logarithmically" : "", last_start,
        unused > 0 ? (" At this max distance " + std::to_string(unused) + " of a side's " +
                      std::to_string(side) +
                      " buckets are never reached: the "
                      "logarithmic steps skip them.")
                         .c_str()
                   : "",
        t5_bidirectional ? " Keys after the query use the other half of the buckets the same way."
                         : " Causal: every key after the query falls in bucket 0 (it is masked "
                           "anyway).");
    if (options.max_distance != t5_max_distance) {
        char raised[160];
        std::snprintf(raised, sizeof raised,
                      "max distance %d is raised to %d: it must pass the %d exact buckets.",
                      t5_max_distance, options.max_distance, exact);
        ErrorText(frame, raised);
    }
    WrappedText(line);
    frame.Record("alternatives.t5_text");
    const int reach = std::min(2 * options.max_distance, 8192);
    std::vector<double> xs, ys;
    for (int r = -reach; r <= reach; ++r) { // a staircase: each distance is one flat step
        const double bucket = t5_bucket(r, options);
        xs.push_back(r - 0.5), ys.push_back(bucket);
        xs.push_back(r + 0.5), ys.push_back(bucket);
    }
    const float height =
        std::max(ImGui::GetFontSize() * 8.0f,
                 (ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y) * 0.6f);
    t5_view.SetHome(plot::Range{-static_cast<double>(reach), static_cast<double>(reach)},
                    plot::Range{-1, static_cast<double>(t5_buckets)});
    t5_view.Refit(t5_view.home_x, t5_view.home_y);
    plot::PlotConfig config;
    config.x_label = "relative position j − i (key − query)";
    config.y_label = "bucket";
    config.y_flags = plot::AxisFlags_Integer;
    plot::Plot p;
    if (p.Begin("bucket of each distance##t5_buckets", t5_view, ImVec2(-1, height), config)) {
        frame.Record("alternatives.t5_plot");
        p.Line("bucket", xs.data(), ys.data(), static_cast<int>(xs.size()),
               frame.Color(Role::Accent), frame.Px(2.0f));
        p.VLine(-static_cast<double>(last_start), frame.Color(Role::Warning), "last bucket");
        if (t5_bidirectional) p.VLine(static_cast<double>(last_start), frame.Color(Role::Warning));
        p.End();
    }
    const std::vector<double> biases = t5_bucket_biases(t5_buckets, 5);
    std::vector<double> index(biases.size());
    for (std::size_t b = 0; b < biases.size(); ++b)
        index[b] = static_cast<double>(b);
    plot::PlotView bias_view;
    bias_view.Refit(plot::Range{-1, static_cast<double>(t5_buckets)}, plot::Range{-3.5, 3.5});
    config.x_label = "bucket";
    config.y_label = "bias (seeded)";
    config.x_flags = plot::AxisFlags_Integer;
    config.y_flags = 0;
    plot::Plot b;
    if (b.Begin("one learned scalar per bucket (a seeded stand-in)##t5_biases", bias_view,
                ImVec2(-1, RemainingHeight()), config)) {
        frame.Record("alternatives.t5_biases");
        b.Bars("bias", index.data(), biases.data(), t5_buckets, 0.8, frame.Color(Role::Cos));
        b.End();
    }
}

void AlternativesPanel::AddSceneFields(SceneTable& table) {
    table.Text("alternatives_tab", "learned, rope, alibi, t5, scaling or table", &tab,
               [](const std::string& text) {
                   for (int t = 0; t < kAlternativesTabCount; ++t)
                       if (text == AlternativesTabId(t)) return std::string();
                   return std::string("must be learned, rope, alibi, t5, scaling or table");
               });
    table.Integer("learned_rows", "the learned table's rows", &learned_rows, 1, kMaxLearnedRows);
    table.Integer("learned_d", "the learned table's width", &learned_d, 2, 16384, true);
    table.Integer("learned_lookup", "the position looked up", &learned_lookup, 0, 1000000);
    table.Integer("rope_seed", "the seed of q and k", &rope_seed, 0, 1000000);
    table.Bool("rope_typed", "RoPE uses rope_q and rope_k instead of seeded vectors", &rope_typed);
    for (auto [name, target] : {std::pair{"rope_q", &rope_q}, std::pair{"rope_k", &rope_k}})
        table.Text(name, "text: 2 to 64 numbers within ±1e6 (an even count), the typed q or k",
                   target, [](const std::string& text) { return ParseRopeVector(text, nullptr); });
    table.Integer("alibi_heads", "ALiBi heads", &alibi_heads, 1, 64);
    // The head must exist: its range is the scene's alibi_heads (or the current one).
    table.Add(
        {"alibi_head", "integer in [1, alibi_heads]: the head drawn",
         [this](const nlohmann::json& value, const nlohmann::json& doc) -> std::function<void()> {
             int heads = alibi_heads;
             if (doc.contains("alibi_heads")) heads = SceneInteger(doc["alibi_heads"], 1, 64);
             const int head = SceneInteger(value, 1, heads);
             return [this, head] { alibi_head = head; };
         },
         [this] { return nlohmann::json(alibi_head); }});
    table.Bool("alibi_causal", "mask keys after the query", &alibi_causal);
    table.Text("alibi_sentence_a", "text, valid UTF-8, 1 to 32 words: sentence A of the ALiBi tie",
               &alibi_sentence_a, CheckSentence);
    table.Text("alibi_sentence_b", "text, valid UTF-8, 1 to 32 words: sentence B of the ALiBi tie",
               &alibi_sentence_b, CheckSentence);
    table.Integer("t5_buckets", "T5 buckets", &t5_buckets, 4, 128, true);
    table.Integer("t5_max_distance", "T5 max_distance", &t5_max_distance, 8, 4096);
    table.Bool("t5_bidirectional", "encoder (true) or decoder buckets", &t5_bidirectional);
    table.Integer("scaling_d", "the head width RoPE turns", &scaling_d, 4, 1024, true);
    table.Number("scaling_factor", "s, new context / original", &scaling_factor, 1, 64);
    table.Number("scaling_context", "the original context length", &scaling_context, 16, 1e7);
}

std::string AlternativesPanel::StatusNote() const {
    return "tab: " + tab;
}

nlohmann::json AlternativesPanel::Readouts(const AppState& state) const {
    const LearnedTable learned = Learned();
    const auto row = learned.lookup(learned_lookup);
    const RopePoint& rope = RopeAt(state);
    const MethodChecks& checks = Checks(state);
    const int head = std::clamp(alibi_head, 1, alibi_heads);
    const std::vector<double> slopes = alibi_slopes(alibi_heads);
    const AlibiTie tie = AlibiBreaksTie(alibi_sentence_a, alibi_sentence_b, slopes[head - 1]);
    nlohmann::json scaling;
    const ContextScalingOptions options = ScalingOptions(state);
    for (int method = 0; method < kContextScalingCount; ++method) {
        const auto each = static_cast<ContextScaling>(method);
        scaling[context_scaling_id(each)] = {
            {"factors", frequency_scale_factors(each, options)},
            {"temperature_factor", attention_temperature_factor(each, options.factor)}};
    }
    return {{"tab", tab},
            {"learned",
             {{"rows", learned.rows},
              {"d", learned.d},
              {"parameters", learned.parameter_count()},
              {"lookup", learned_lookup},
              {"has_entry", row.has_value()}}},
            {"rope",
             {{"m", state.pos_a},
              {"n", state.pos_b},
              {"d", rope.q.size()},
              {"typed", UsesTypedVectors()},
              {"score", rope.score},
              {"score_from_distance", rope.relative},
              {"max_shift_change", RopeShiftAt(state).change}}},
            {"alibi",
             {{"heads", alibi_heads},
              {"slopes", slopes},
              {"head", head},
              {"tie_without_bias", tie.without_bias},
              {"tie_with_bias", tie.with_bias},
              {"distances_kept", tie.distances_kept},
              {"causal_mask_only", tie.causal_mask_only},
              {"causal_with_bias", tie.causal_with_bias}}},
            {"t5",
             {{"num_buckets", t5_buckets},
              {"max_distance", T5Options().max_distance},
              {"bidirectional", t5_bidirectional},
              {"last_bucket_start", checks.t5_last_bucket_start}}},
            {"scaling",
             {{"d", options.d},
              {"base", options.base},
              {"factor", options.factor},
              {"original_context", options.original_context},
              {"methods", scaling}}},
            {"relative_checks",
             {{"sinusoidal", checks.sinusoidal_shift_change},
              {"learned", checks.learned_shift_change},
              {"rope", checks.rope_shift_change},
              {"alibi", checks.alibi_shift_change}}}};
}

} // namespace pelab
