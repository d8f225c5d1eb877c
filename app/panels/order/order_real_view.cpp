// The order panel's Real model view (order_real.h): the two sentences' tokens, one head's
// attention under one switch, each switch's guesses and loss, and the per-block distance of the
// last tokens, drawn from one computed demo.
#include "io/model_service.h"
#include "panels/order/panel_order.h"
#include "panels/scene_controls.h"

#include "pelab/base/limits.h"
#include "widgets/heatmap.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace pelab {

namespace {

// The run of the scene field real_switch in this demo (the trained one when the model has no
// such switch: GPT-2's "zero" on a rotary model).
int SwitchIndex(const RealOrderDemo& demo, const std::string& id) {
    for (std::size_t k = 0; k < demo.switch_ids.size(); ++k)
        if (id == demo.switch_ids[k]) return static_cast<int>(k);
    return 0;
}

// One head's n × n attention of a run, as doubles for the heatmap.
std::vector<double> HeadAttention(const std::vector<float>& attention, int block, int head,
                                  int heads, int n) {
    const std::size_t size = static_cast<std::size_t>(n) * n;
    const std::size_t begin = (static_cast<std::size_t>(block) * heads + head) * size;
    if (begin + size > attention.size()) return {};
    return {attention.begin() + static_cast<std::ptrdiff_t>(begin),
            attention.begin() + static_cast<std::ptrdiff_t>(begin + size)};
}

// Each row's label: its index and token, a long one (Llama 3's "<|begin_of_text|>") shortened
// in its middle to 5 em so that both matrices keep their room (the boxes above show it whole).
std::vector<std::string> TokenLabels(const std::vector<std::string>& pieces) {
    std::vector<std::string> labels;
    const float most = ImGui::GetFontSize() * 5.0f;
    const auto measure = [](const std::string& text) {
        return ImGui::CalcTextSize(text.c_str()).x;
    };
    for (std::size_t k = 0; k < pieces.size(); ++k)
        labels.push_back(std::to_string(k) + " " +
                         ElideMiddle(ShownToken(pieces[k]), most, measure));
    return labels;
}

} // namespace

namespace {

bool ViewRuns(const std::string& family_id) {
    return family_id == "gpt2" || LlamaPassRuns(family_id);
}

} // namespace

RealSource OrderPanel::SourceFor(const AppState& state) {
    RealSource source;
    const OpenedModel* opened = state.opened_model.get();
    if (opened == nullptr || !ViewRuns(opened->report.found.family_id)) return source;
    source.checkpoint_path = opened->report.path;
    source.config_path = opened->report.config_path;
    source.family_id = opened->report.found.family_id;
    source.version = opened->version;
#ifdef __EMSCRIPTEN__
    source.max_bytes = kPageMaxModelBytes;
#endif
    return source;
}

std::string OrderPanel::NothingToRun(const AppState& state) {
    const OpenedModel* opened = state.opened_model.get();
    if (opened != nullptr && ViewRuns(opened->report.found.family_id)) return {};
    const std::string open = opened == nullptr ? std::string("No checkpoint is open in Your model")
                                               : "The checkpoint open in Your model is " +
                                                     (opened->report.found.family.empty()
                                                          ? std::string("of no family PE Lab knows")
                                                          : opened->report.found.family + "'s") +
                                                     ", a family this view does not run";
    return open + ": to run this experiment, open a folder holding a model's weights "
                  "(model.safetensors), config.json and tokenizer in the Your model panel (File → "
                  "Open, or pelab --model FOLDER): GPT-2 (openai-community/gpt2: vocab.json and "
                  "merges.txt), or a rotary model of the Llama, Qwen2, Qwen3, Mistral, OLMo 2 or "
                  "SmolLM3 families (tokenizer.json), such as HuggingFaceTB/SmolLM2-135M, "
                  "Qwen/Qwen2.5-0.5B or meta-llama/Llama-3.2-1B, from the Hugging Face Hub (Files "
                  "and versions).";
}

const RealOrderDemo* OrderPanel::RealFor(const AppState& state, bool background, bool* computing,
                                         std::string* why) const {
    *why = NothingToRun(state);
    if (!why->empty()) return nullptr;
    const auto load = [](const RealSource& source) {
        return std::shared_ptr<const LoadedModel>(
            std::make_shared<LoadedModel>(LoadRealSource(source)));
    };
    const RealSource source = SourceFor(state);
    bool current = true;
    const std::shared_ptr<const LoadedModel>* loaded =
        background ? model_cache.Get(source, load, &current) : &model_cache.GetNow(source, load);
    if (loaded == nullptr || !current) {
        // Another checkpoint's weights must not run on this one's sentences: wait for these.
        *computing = true;
        *why = "Reading the model's weights from " +
               std::filesystem::path(source.checkpoint_path).filename().string() + " …";
        return nullptr;
    }
    if (!(*loaded)->error.empty()) {
        *why = (*loaded)->error;
        return nullptr;
    }
    RealOrderInputs inputs;
    inputs.loaded = *loaded;
    inputs.text_a = real_text_a;
    inputs.text_b = real_text_b;
    inputs.shuffle_seed = static_cast<std::uint64_t>(real_shuffle_seed);
    inputs.shift = real_shift;
    inputs.base_factor = real_base_factor;
    inputs.nope_block = real_nope_block;
    inputs.run = real_run;
#ifdef __EMSCRIPTEN__
    inputs.threads = 1;
#endif
    if (!background) return &real_cache.GetNow(inputs, ComputeRealOrder);
    // New inputs: a Cancel pressed for the last ones does not stop these.
    if (!(inputs == real_started)) {
        real_progress->cancel = false;
        real_started = inputs;
    }
    inputs.progress = real_progress;
    const RealOrderDemo* demo = real_cache.Get(inputs, ComputeRealOrder, &current);
    // A demo of another checkpoint is not shown meanwhile (its tokens are another vocabulary's).
    if (demo != nullptr && !current && demo->model != loaded->get()) demo = nullptr;
    if (!current) *computing = true;
    if (demo == nullptr)
        *why = "Running the model on the two sentences under each position switch …";
    return demo;
}

std::string OrderPanel::StepProblem(const AppState& state) const {
    if (order_view != "real") return {};
    bool computing = false;
    std::string why;
    const RealOrderDemo* demo = RealFor(state, false, &computing, &why);
    if (demo == nullptr) return "the Real model view cannot run: " + why;
    if (!demo->error.empty()) return "the Real model view cannot run: " + demo->error;
    const OrderResult& r = demo->result;
    if (real_block > r.layers || real_head > r.heads)
        return "real_block " + std::to_string(real_block) + " and real_head " +
               std::to_string(real_head) + ": the model has " + std::to_string(r.layers) +
               " blocks of " + std::to_string(r.heads) + " heads";
    if (std::find(demo->switch_ids.begin(), demo->switch_ids.end(), real_switch) ==
        demo->switch_ids.end())
        return "real_switch \"" + real_switch + "\": " +
               (demo->rotary ? "a rotary model's switches are trained, none, pairing, base, "
                               "shift, scaling-off and nope-from"
                             : "GPT-2's switches are trained, zero, mean, shuffle, shift and "
                               "sinusoidal");
    if (demo->rotary && real_nope_block > r.layers)
        return "real_nope_block " + std::to_string(real_nope_block) + ": the model has " +
               std::to_string(r.layers) + " blocks";
    return {};
}

void OrderPanel::DrawReal(FrameContext& frame) {
    bool computing = false;
    std::string why;
    const RealOrderDemo* demo = RealFor(frame.state, frame.compute_in_background, &computing, &why);
    if (computing) frame.stats.computing = true;
    if (demo == nullptr && NothingToRun(frame.state).empty() && !computing) {
        // The checkpoint cannot run (a folder holding only the position table, not enough
        // memory, a malformed file, the page's limit): why, what the view needs, and the toy
        // demo meanwhile, as when no GPT-2 is open.
        DrawCannotRun(frame, why);
        return;
    }
    if (demo == nullptr && !computing) {
        WrappedText(why.c_str());
        frame.Record("order.real_needs");
        if (frame.slides) {
            // A lesson's step about the real model: the toy demo here would contradict its
            // caption. Where to go instead (the slides have no menu bar).
            MutedWrappedText("This step shows a real checkpoint: press F5 to leave the slides, "
                             "open its folder, then F5 again.");
            return;
        }
        MutedWrappedText("Meanwhile, the toy demo:");
        ImGui::Separator();
        DrawToy(frame);
        return;
    }
    if (BeginControls(frame)) {
        DrawRealInputs(frame, demo);
        EndControls(frame);
    }
    if (demo == nullptr) {
        ImGui::TextColored(frame.ColorVec(Role::Muted), "%s", why.c_str());
        // (while the weights are read there is no pass to count or stop)
        if (!model_cache.Busy()) DrawRunProgress(frame, demo, computing);
        return;
    }
    DrawRunProgress(frame, demo, computing);
    if (demo->cancelled) return;
    if (!demo->error.empty()) {
        DrawCannotRun(frame, demo->error);
        return;
    }
    DrawRealBody(frame, *demo);
}

void OrderPanel::DrawRealBody(FrameContext& frame, const RealOrderDemo& demo) {
    DrawTokens(frame, demo);
    if (!frame.pictures_first) {
        WrappedText(demo.sentence.text.c_str());
        frame.Record("order.real_sentence");
    }
    // Under a shift, how close each block stays: beside the distances.
    const bool closeness = demo.rotary && real_switch == "shift" && demo.shift.shift > 0;
    const float font = ImGui::GetFontSize();
    // A wide window (1920×1080): the plots beside the matrices at their largest cells, so that
    // the table and both plots stay on the screen with them.
    const std::vector<std::string> labels_a = TokenLabels(demo.pieces_a),
                                   labels_b = TokenLabels(demo.pieces_b);
    const int n = std::max(demo.result.tokens_a, demo.result.tokens_b);
    const float matrices = HeatmapWidth(labels_a, n, font * 2.4f) +
                           HeatmapWidth(labels_b, n, font * 2.4f) + font * 2.0f;
    const bool beside = ImGui::GetContentRegionAvail().x >= matrices + font * 32.0f;
    if (beside && ImGui::BeginTable("##real_top", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("matrices", ImGuiTableColumnFlags_WidthFixed, matrices);
        ImGui::TableSetupColumn("plots", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableNextColumn();
        DrawRealAttention(frame, demo);
        ImGui::TableNextColumn();
        // Both plots about as tall as the matrices beside them.
        const float each = closeness ? font * 10.5f : 0.0f;
        DrawDistances(frame, demo, each);
        if (closeness) DrawShiftCloseness(frame, demo, each);
        ImGui::EndTable();
    } else {
        DrawRealAttention(frame, demo);
    }
    DrawSwitchSentence(frame, demo);
    DrawGuesses(frame, demo);
    {
        // Which checkpoint this is: a projector's audience and a handout's reader see its size.
        const OpenedModel* opened = frame.state.opened_model.get();
        char line[320];
        std::snprintf(line, sizeof line, "%s (%s): %d blocks of %d heads, width %d, %d tokens",
                      opened ? std::filesystem::path(opened->report.path)
                                   .parent_path()
                                   .filename()
                                   .string()
                                   .c_str()
                             : "",
                      demo.family.c_str(), demo.result.layers, demo.result.heads, demo.width,
                      demo.vocab);
        ImGui::TextDisabled("%s", line);
        frame.Record("order.real_model");
    }
    if (!beside) {
        DrawDistances(frame, demo);
        if (closeness) DrawShiftCloseness(frame, demo);
    }
    if (frame.pictures_first) {
        WrappedText(demo.sentence.text.c_str());
        frame.Record("order.real_sentence");
    }
}

void OrderPanel::DrawCannotRun(FrameContext& frame, const std::string& error) {
    ErrorText(frame, error.c_str());
    frame.Record("order.real_error");
    WrappedText(kRealNeeds);
    frame.Record("order.real_needs");
    if (frame.slides) return;
    MutedWrappedText("Meanwhile, the toy demo:");
    ImGui::Separator();
    DrawToy(frame);
}

void OrderPanel::DrawRealInputs(FrameContext& frame, const RealOrderDemo* demo) {
    // In a strip (a short window) the attention's choices come first: what a room changes.
    if (frame.controls_in_strip) DrawRealSettings(frame, demo);
    FlowRow row;
    const float text_width = FitWidth(16.0f, "sentence A");
    for (const auto& [label, text, name] :
         {std::tuple{"sentence A", &real_text_a, "order.real_text_a"},
          std::tuple{"sentence B", &real_text_b, "order.real_text_b"}}) {
        row.Item(LabelledWidth(text_width, label));
        ImGui::SetNextItemWidth(text_width);
        LimitedInputText(label, text, kMaxSentenceBytes);
        frame.Record(name);
    }
    row.Item(SmallButtonWidth("swap"));
    if (ImGui::SmallButton("swap##real")) std::swap(real_text_a, real_text_b);
    FormulaTooltip("Exchange sentences A and B.");
    if (!frame.controls_in_strip) DrawRealSettings(frame, demo);
}

void OrderPanel::DrawRealSettings(FrameContext& frame, const RealOrderDemo* demo) {
    const int layers = demo != nullptr ? std::max(demo->result.layers, 1) : 1;
    const int heads = demo != nullptr ? std::max(demo->result.heads, 1) : 1;
    FlowRow settings;
    const float slider = FitWidth(6.0f, "block");
    // A scene's block or head past this model's: its last (lesson check names the step).
    real_block = std::min(real_block, layers), real_head = std::min(real_head, heads);
    SceneSlider(frame, settings, kRealBlock, &real_block, slider, layers);
    SceneSlider(frame, settings, kRealHead, &real_head, slider, heads);
    if (guesses_narrow) {
        // The table below has room for one sentence's guesses: which.
        const float radios = CheckboxWidth("guesses after A") + CheckboxWidth("B");
        settings.Item(radios + FlowRow::Spacing());
        ImGui::RadioButton("guesses after A", &guesses_of, 0);
        ImGui::SameLine();
        ImGui::RadioButton("B##guesses", &guesses_of, 1);
        frame.Record("order.real_guesses_of");
    }
    const float combo = FitWidth(11.0f, "attention under");
    settings.Item(LabelledWidth(combo, "attention under"));
    ImGui::SetNextItemWidth(combo);
    // The labels of the demo shown (the last one while the next is computed).
    std::vector<std::string> labels = {"as trained"}, ids = {"trained"};
    if (demo != nullptr && !demo->labels.empty()) labels = demo->labels, ids = demo->switch_ids;
    int chosen = 0;
    for (std::size_t k = 0; k < ids.size(); ++k)
        if (ids[k] == real_switch) chosen = static_cast<int>(k);
    // A scene's switch the model does not have stays asked (StepProblem names it) until one is
    // picked here.
    if (ImGui::BeginCombo("attention under", labels[chosen].c_str())) {
        for (std::size_t k = 0; k < labels.size(); ++k)
            if (ImGui::Selectable(labels[k].c_str(), static_cast<int>(k) == chosen))
                real_switch = ids[k];
        ImGui::EndCombo();
    }
    frame.Record("order.real_switch");
    const bool rotary = demo != nullptr && demo->rotary;
    // In a strip (a short window, a slide) only the number the chosen switch uses: the seed
    // beside "shuffled", the shift beside "shifted"; each row of the strip counts there.
    const bool strip = frame.controls_in_strip;
    if (!rotary && frame.ShowsAdvanced("order.real_seed") && (!strip || real_switch == "shuffle")) {
        SceneInput(frame, settings, kRealShuffleSeed, &real_shuffle_seed,
                   FitWidth(5.0f, "shuffle seed"));
    }
    if (frame.ShowsAdvanced("order.real_shift") && (!strip || real_switch == "shift")) {
        SceneInput(frame, settings, kRealShift, &real_shift,
                   FitWidth(rotary ? 7.0f : 5.0f, "shift by"));
        if (demo != nullptr && !rotary && demo->shift_used != real_shift) {
            // The table ends before: the shift the runs used, beside the one asked.
            char used[64];
            std::snprintf(used, sizeof used, "(%d used: the table ends)", demo->shift_used);
            settings.Item(ImGui::CalcTextSize(used).x);
            ImGui::TextDisabled("%s", used);
        }
    }
    if (rotary) DrawRotarySettings(frame, settings, layers);
    ClampSettings();
}

void OrderPanel::DrawTokens(FrameContext& frame, const RealOrderDemo& demo) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 pad(ImGui::GetFontSize() * 0.2f, ImGui::GetFontSize() * 0.1f);
    const ImU32 fills[2] = {frame.Color(Role::Sin) & 0x60FFFFFFu,
                            frame.Color(Role::Cos) & 0x60FFFFFFu};
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    for (const auto& [name, pieces, ids, record] :
         {std::tuple{"A", &demo.pieces_a, &demo.ids_a, "order.real_tokens_a"},
          std::tuple{"B", &demo.pieces_b, &demo.ids_b, "order.real_tokens_b"}}) {
        FlowRow row;
        char head[64];
        std::snprintf(head, sizeof head, "%s, %zu tokens:", name, pieces->size());
        ImGui::BeginGroup();
        row.Item(ImGui::CalcTextSize(head).x);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(head);
        FormulaTooltip("Each box is one token; · is a space, which GPT-2 keeps at the start of "
                       "the token after it (\" dog\", not \"dog\").");
        for (std::size_t k = 0; k < pieces->size(); ++k) {
            // A space is part of the token after it (" dog"): drawn as a dot, so it shows.
            std::string shown;
            for (char c : ShownToken((*pieces)[k]))
                shown += c == ' ' ? std::string("·") : std::string(1, c);
            const ImVec2 text = ImGui::CalcTextSize(shown.c_str());
            const ImVec2 size(text.x + 2 * pad.x, text.y + 2 * pad.y);
            row.Item(size.x, pad.x);
            const ImVec2 at = ImGui::GetCursorScreenPos();
            ImGui::Dummy(size);
            draw->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), fills[k % 2], pad.x);
            draw->AddText(ImVec2(at.x + pad.x, at.y + pad.y), ink, shown.c_str());
            if (ImGui::IsItemHovered())
                Tooltip("token %zu: id %d, \"%s\"", k, (*ids)[k], shown.c_str());
        }
        ImGui::EndGroup();
        frame.Record(record);
        // A little air between the two rows (their outlines on a slide would touch).
        ImGui::Dummy(ImVec2(0, pad.y));
    }
}

void OrderPanel::DrawRealAttention(FrameContext& frame, const RealOrderDemo& demo) {
    const OrderResult& r = demo.result;
    const int block = std::clamp(real_block, 1, std::max(r.layers, 1)) - 1;
    const int head = std::clamp(real_head, 1, std::max(r.heads, 1)) - 1;
    const int chosen =
        std::min(SwitchIndex(demo, real_switch), static_cast<int>(r.runs.size()) - 1);
    if (chosen < 0) return;
    const OrderRun& run = r.runs[chosen];
    const std::vector<std::string> labels_a = TokenLabels(demo.pieces_a),
                                   labels_b = TokenLabels(demo.pieces_b);
    // Columns by index alone (the rows name each token): one rule at every cell width.
    std::vector<std::string> columns_a, columns_b;
    for (std::size_t k = 0; k < labels_a.size(); ++k)
        columns_a.push_back(std::to_string(k));
    for (std::size_t k = 0; k < labels_b.size(); ++k)
        columns_b.push_back(std::to_string(k));
    const std::vector<double> a = HeadAttention(run.attention_a, block, head, r.heads, r.tokens_a),
                              b = HeadAttention(run.attention_b, block, head, r.heads, r.tokens_b);
    const float font = ImGui::GetFontSize();
    const float gap = font * 1.5f;
    const float label_width = std::max(HeatmapLabelWidth(labels_a), HeatmapLabelWidth(labels_b));
    const int n = std::max(r.tokens_a, r.tokens_b);
    const float avail = ImGui::GetContentRegionAvail().x;
    // Two matrices side by side while their cells stay 1.6 em wide, else one above the other.
    float cell = (avail - 2 * label_width - gap) / (2.0f * n);
    if (cell < font * 1.6f) cell = (avail - label_width) / n;
    cell = std::clamp(cell, font * 1.2f, font * 2.4f);
    // A long sentence: smaller still, so that every column stays in view (numbers hide below
    // about 2 em; the hover still gives each cell).
    cell = std::min(cell, std::max(font * 0.5f, (avail - label_width) / n));
    // And small enough to show whole with what goes with them where the window allows (a
    // projector): the title line above both, each matrix's own, and the colour key below.
    // (Down to about a text height a row: each row keeps its label readable.)
    const float below = ImGui::GetContentRegionAvail().y -
                        2 * ImGui::GetTextLineHeightWithSpacing() - ColorLegendHeight(true) -
                        2 * ImGui::GetStyle().ItemSpacing.y;
    while (cell > font * 0.95f && HeatmapHeight(n, cell) > below)
        cell *= 0.95f;
    HeatmapStyle style;
    style.map = {frame.Color(Role::MapNegative), frame.Color(Role::MapMiddle),
                 frame.Color(Role::MapPositive)};
    style.highlight = frame.Color(Role::Highlight);
    style.diverging = false;
    style.range_min = 0.0;
    style.range = 1.0;
    style.cell_size = cell;
    char title[160];
    std::snprintf(title, sizeof title, "Attention of block %d, head %d, positions %s:", block + 1,
                  head + 1, demo.labels[chosen].c_str());
    WrappedText(title);
    FormulaTooltip("Each row: how much that token attends to each token up to it (the model is "
                   "causal: nothing after it), softmax(q·kᵀ/√d_head) of this head; each row "
                   "sums to 1.");
    // (a short window gives the line to the matrices: the tooltip says it there)
    if (!frame.pictures_first)
        MutedWrappedText("rows: the token attending; columns: the tokens it attends to (hover a "
                         "cell for both)");
    FlowRow row;
    for (const auto& [name, values, labels, columns, id, record] :
         {std::tuple{"A", &a, &labels_a, &columns_a, "##real_attention_a",
                     "order.real_attention_a"},
          std::tuple{"B", &b, &labels_b, &columns_b, "##real_attention_b",
                     "order.real_attention_b"}}) {
        const int count = static_cast<int>(labels->size());
        std::snprintf(title, sizeof title, "sentence %s", name);
        row.Item(std::max(HeatmapWidth(*labels, count, cell), ImGui::CalcTextSize(title).x), gap);
        ImGui::BeginGroup();
        ImGui::TextUnformatted(title);
        if (static_cast<int>(values->size()) == count * count)
            AnnotatedHeatmap(id, values->data(), count, count, *labels, *columns, style,
                             "attention weight");
        ImGui::EndGroup();
        frame.Record(record);
    }
    ImGui::TextDisabled("weight:");
    ImGui::SameLine();
    ColorLegend(style, std::min(font * 10.0f, avail * 0.4f), true);
    frame.Record("order.real_attention_key");
}

void OrderPanel::DrawDistances(FrameContext& frame, const RealOrderDemo& demo, float height) {
    const OrderResult& r = demo.result;
    if (r.runs.size() < 3) return;
    std::vector<double> xs;
    for (std::size_t k = 0; k < r.runs[0].last_distances.size(); ++k)
        xs.push_back(static_cast<double>(k));
    double top = 0;
    for (const OrderRun& run : r.runs)
        for (double value : run.last_distances)
            top = std::max(top, value);
    plot::PlotConfig config;
    config.x_label = "after block (0: the inputs)";
    config.y_label = "last tokens' states: ‖a − b‖ / mean length";
    config.x_flags = plot::AxisFlags_Integer;
    // Half a block of margin each side: the markers at the inputs and at the last block were cut
    // in half by the frame.
    const plot::Range x_home{-0.5, std::max(1.0, xs.empty() ? 1.0 : xs.back()) + 0.5};
    distance_view.SetHome(x_home, {0, std::max(top * 1.1, 1e-3)});
    if (height <= 0)
        height = std::max(ImGui::GetFontSize() * 10.0f,
                          std::min(ImGui::GetContentRegionAvail().y, ImGui::GetFontSize() * 16.0f));
    plot::Plot plot;
    if (plot.Begin("##real_distances", distance_view, ImVec2(-1, height), config)) {
        // Every switch: a colour and a marker shape each (the three the sentence is about
        // first, thicker).
        const plot::Marker shapes[] = {plot::Marker::Circle, plot::Marker::Square,
                                       plot::Marker::Ring};
        std::vector<std::string> labels;
        for (std::size_t k = 0; k < r.runs.size(); ++k)
            labels.push_back(demo.labels[k]);
        for (std::size_t k = 0; k < r.runs.size() && k < 7; ++k)
            plot.LineMarkers(labels[k].c_str(), xs.data(), r.runs[k].last_distances.data(),
                             static_cast<int>(xs.size()), frame.Color(RealSwitchRole(k)),
                             frame.Px(k < 3 ? 2.4f : 1.5f), frame.Px(4.0f), shapes[k % 3]);
        plot.End();
    }
    FormulaTooltip("‖a − b‖ / ((‖a‖ + ‖b‖)/2) of the two sentences' last-token states: the inputs "
                   "(0) and after each block. 0: the model holds the same state for both "
                   "orders there.");
    frame.Record("order.real_distances");
}

} // namespace pelab
