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

// The switch names of the scene field real_switch, in RealSwitches' order.
constexpr const char* kSwitchIds[] = {"trained", "zero", "mean", "shuffle", "shift", "sinusoidal"};
constexpr int kSwitchCount = 6;

int SwitchIndex(const std::string& id) {
    for (int k = 0; k < kSwitchCount; ++k)
        if (id == kSwitchIds[k]) return k;
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

std::vector<std::string> TokenLabels(const std::vector<std::string>& pieces) {
    std::vector<std::string> labels;
    for (std::size_t k = 0; k < pieces.size(); ++k)
        labels.push_back(std::to_string(k) + " " + ShownToken(pieces[k]));
    return labels;
}

} // namespace

Gpt2Source OrderPanel::SourceFor(const AppState& state) {
    Gpt2Source source;
    const ModelTable* table = state.model_table.get();
    if (table == nullptr || table->family_id != "gpt2") return source;
    source.checkpoint_path = table->checkpoint_path;
    source.config_path = table->config_path;
    source.version = table->version;
#ifdef __EMSCRIPTEN__
    source.max_bytes = kPageMaxGpt2Bytes;
#endif
    return source;
}

std::string OrderPanel::NothingToRun(const AppState& state) {
    const ModelTable* table = state.model_table.get();
    if (table != nullptr && table->family_id == "gpt2") return {};
    const std::string open = table == nullptr
                                 ? std::string("No GPT-2 checkpoint is open in Your model")
                                 : "The table open in Your model is " + table->family + "'s";
    return open + ": to run this experiment on GPT-2, open a folder holding its "
                  "model.safetensors, config.json, vocab.json and merges.txt (from "
                  "openai-community/gpt2 on the Hugging Face Hub, Files and versions) in the Your "
                  "model panel: File → Open, or pelab --model FOLDER.";
}

const RealOrderDemo* OrderPanel::RealFor(const AppState& state, bool background, bool* computing,
                                         std::string* why) const {
    *why = NothingToRun(state);
    if (!why->empty()) return nullptr;
    const auto load = [](const Gpt2Source& source) {
        return std::shared_ptr<const LoadedGpt2>(
            std::make_shared<LoadedGpt2>(LoadGpt2Source(source)));
    };
    const Gpt2Source source = SourceFor(state);
    bool current = true;
    const std::shared_ptr<const LoadedGpt2>* loaded =
        background ? gpt2_cache.Get(source, load, &current) : &gpt2_cache.GetNow(source, load);
    if (loaded == nullptr || !current) {
        // Another checkpoint's weights must not run on this one's sentences: wait for these.
        *computing = true;
        *why = "Reading GPT-2's weights from " +
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
#ifdef __EMSCRIPTEN__
    inputs.threads = 1;
#endif
    if (!background) return &real_cache.GetNow(inputs, ComputeRealOrder);
    const RealOrderDemo* demo = real_cache.Get(inputs, ComputeRealOrder, &current);
    // A demo of another checkpoint is not shown meanwhile (its tokens are another vocabulary's).
    if (demo != nullptr && !current && demo->model != loaded->get()) demo = nullptr;
    if (!current) *computing = true;
    if (demo == nullptr) *why = "Running GPT-2 on the two sentences under each position switch …";
    return demo;
}

std::string OrderPanel::StepProblem(const AppState& state) const {
    if (order_view != "real") return {};
    bool computing = false;
    std::string why;
    const RealOrderDemo* demo = RealFor(state, false, &computing, &why);
    if (demo == nullptr) return "the Real model view cannot run: " + why;
    if (!demo->error.empty()) return "the Real model view cannot run: " + demo->error;
    const Gpt2OrderResult& r = demo->result;
    if (real_block > r.layers || real_head > r.heads)
        return "real_block " + std::to_string(real_block) + " and real_head " +
               std::to_string(real_head) + ": the model has " + std::to_string(r.layers) +
               " blocks of " + std::to_string(r.heads) + " heads";
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
            MutedWrappedText("This step shows a GPT-2 checkpoint: press F5 to leave the slides, "
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
        return;
    }
    if (computing) ImGui::TextColored(frame.ColorVec(Role::Muted), "Running GPT-2 …");
    if (!demo->error.empty()) {
        DrawCannotRun(frame, demo->error);
        return;
    }
    DrawTokens(frame, *demo);
    if (!frame.pictures_first) {
        WrappedText(demo->sentence.text.c_str());
        frame.Record("order.real_sentence");
    }
    DrawRealAttention(frame, *demo);
    DrawGuesses(frame, *demo);
    {
        // Which checkpoint this is: a projector's audience and a handout's reader see its size.
        const ModelTable* table = frame.state.model_table.get();
        char line[320];
        std::snprintf(line, sizeof line, "%s: %d blocks of %d heads, width %d, %d tokens",
                      table ? std::filesystem::path(table->checkpoint_path)
                                  .parent_path()
                                  .filename()
                                  .string()
                                  .c_str()
                            : "",
                      demo->result.layers, demo->result.heads, demo->width, demo->vocab);
        ImGui::TextDisabled("%s", line);
        frame.Record("order.real_model");
    }
    DrawDistances(frame, *demo);
    if (frame.pictures_first) {
        WrappedText(demo->sentence.text.c_str());
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
    const std::vector<PositionChoice> switches =
        RealSwitches(static_cast<std::uint64_t>(real_shuffle_seed),
                     demo != nullptr ? demo->shift_used : real_shift);
    int chosen = SwitchIndex(real_switch);
    if (ImGui::BeginCombo("attention under", RealSwitchLabel(switches[chosen]).c_str())) {
        for (int k = 0; k < kSwitchCount; ++k)
            if (ImGui::Selectable(RealSwitchLabel(switches[k]).c_str(), k == chosen)) chosen = k;
        ImGui::EndCombo();
    }
    real_switch = kSwitchIds[chosen];
    frame.Record("order.real_switch");
    // In a strip (a short window, a slide) only the number the chosen switch uses: the seed
    // beside "shuffled", the shift beside "shifted"; each row of the strip counts there.
    const bool strip = frame.controls_in_strip;
    if (frame.ShowsAdvanced("order.real_seed") && (!strip || real_switch == "shuffle")) {
        SceneInput(frame, settings, kRealShuffleSeed, &real_shuffle_seed,
                   FitWidth(5.0f, "shuffle seed"));
    }
    if (frame.ShowsAdvanced("order.real_shift") && (!strip || real_switch == "shift")) {
        SceneInput(frame, settings, kRealShift, &real_shift, FitWidth(5.0f, "shift by"));
        if (demo != nullptr && demo->shift_used != real_shift) {
            // The table ends before: the shift the runs used, beside the one asked.
            char used[64];
            std::snprintf(used, sizeof used, "(%d used: the table ends)", demo->shift_used);
            settings.Item(ImGui::CalcTextSize(used).x);
            ImGui::TextDisabled("%s", used);
        }
    }
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
    const Gpt2OrderResult& r = demo.result;
    const int block = std::clamp(real_block, 1, std::max(r.layers, 1)) - 1;
    const int head = std::clamp(real_head, 1, std::max(r.heads, 1)) - 1;
    const int chosen = std::min(SwitchIndex(real_switch), static_cast<int>(r.runs.size()) - 1);
    if (chosen < 0) return;
    const Gpt2OrderRun& run = r.runs[chosen];
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
    cell = std::clamp(cell, font * 1.2f, font * 3.0f);
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
                  head + 1, RealSwitchLabel(run.choice).c_str());
    WrappedText(title);
    FormulaTooltip("Each row: how much that token attends to each token up to it (GPT-2 is "
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

void OrderPanel::DrawGuesses(FrameContext& frame, const RealOrderDemo& demo) {
    const Gpt2OrderResult& r = demo.result;
    // Each guess as '"text" 12%': kept whole when a narrow table wraps the guesses.
    const auto guesses = [](const std::vector<NextGuess>& top,
                            const std::vector<std::string>& texts) {
        std::vector<std::string> each;
        for (std::size_t k = 0; k < top.size() && k < texts.size(); ++k)
            each.push_back("\"" + ShownToken(texts[k]) + "\" " +
                           ShownNumber(100 * top[k].probability, 2) + "%");
        return each;
    };
    const auto joined = [](const std::vector<std::string>& each) {
        std::string line;
        for (const std::string& guess : each)
            line += (line.empty() ? "" : "  ") + guess;
        return line;
    };
    std::vector<std::vector<std::string>> each_a, each_b;
    std::vector<std::string> lines_a, lines_b;
    float widest_a = 0, widest_b = 0, widest_label = ImGui::CalcTextSize("positions").x;
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        each_a.push_back(guesses(r.runs[k].top_a, demo.top_text_a[k]));
        each_b.push_back(guesses(r.runs[k].top_b, demo.top_text_b[k]));
        lines_a.push_back(joined(each_a.back()));
        lines_b.push_back(joined(each_b.back()));
        widest_a = std::max(widest_a, ImGui::CalcTextSize(lines_a.back().c_str()).x);
        widest_b = std::max(widest_b, ImGui::CalcTextSize(lines_b.back().c_str()).x);
        widest_label = std::max(widest_label,
                                ImGui::CalcTextSize(RealSwitchLabel(r.runs[k].choice).c_str()).x);
    }
    // What "\xNN" is, said in the guesses' header too when any guess has one (the note under
    // a tall table is out of view on a projector).
    std::vector<std::vector<std::string>> every_guess = demo.top_text_a;
    every_guess.insert(every_guess.end(), demo.top_text_b.begin(), demo.top_text_b.end());
    const char* top = ByteGuessNote(every_guess).empty() ? " (top 5)" : " (top 5; \\xNN: a byte)";
    const std::string after_a = std::string("next after A") + top,
                      after_b = std::string("next after B") + top;
    widest_a = std::max(widest_a, ImGui::CalcTextSize(after_a.c_str()).x);
    widest_b = std::max(widest_b, ImGui::CalcTextSize(after_b.c_str()).x);
    // Both sentences' guesses side by side where they fit; else one sentence's at a time, its
    // guesses wrapped (a projector), with a choice of which.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float cells = 2 * style.CellPadding.x + 1;
    const float loss_width = ImGui::CalcTextSize("loss A (nats)").x + cells;
    const bool both = widest_label + widest_a + widest_b + 2 * loss_width + 3 * cells <=
                      ImGui::GetContentRegionAvail().x;
    guesses_narrow = !both; // the controls offer the choice of sentence (DrawRealSettings)
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    std::vector<std::vector<std::string>> shown;
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        if (both || guesses_of == 0) shown.push_back(demo.top_text_a[k]);
        if (both || guesses_of != 0) shown.push_back(demo.top_text_b[k]);
    }
    const std::string bytes_note = ByteGuessNote(shown);
    if (!ImGui::BeginTable("##real_guesses", both ? 5 : 4, flags)) return;
    ImGui::TableSetupColumn("positions");
    ImGui::TableSetupColumn("loss A (nats)");
    ImGui::TableSetupColumn("loss B (nats)");
    if (both) {
        ImGui::TableSetupColumn(after_a.c_str());
        ImGui::TableSetupColumn(after_b.c_str());
    } else {
        ImGui::TableSetupColumn(guesses_of == 0 ? after_a.c_str() : after_b.c_str(),
                                ImGuiTableColumnFlags_WidthStretch);
    }
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        const Gpt2OrderRun& run = r.runs[k];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(RealSwitchLabel(run.choice).c_str());
        if (run.choice.kind == PositionSwitch::Shuffled && demo.shuffle_unchanged) {
            ImGui::SameLine();
            ImGui::TextDisabled("= as trained");
            FormulaTooltip("This seed's shuffle of so few tokens leaves them in order: try "
                           "another seed.");
        }
        for (const auto& [loss, tokens] :
             {std::pair{run.loss_a, r.tokens_a}, std::pair{run.loss_b, r.tokens_b}}) {
            ImGui::TableNextColumn();
            // One token: nothing inside the sentence to predict.
            if (tokens < 2)
                ImGui::TextDisabled("—");
            else
                ImGui::TextUnformatted(ShownNumber(loss, 3).c_str());
        }
        if (both) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(lines_a[k].c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(lines_b[k].c_str());
        } else {
            ImGui::TableNextColumn();
            FlowRow row;
            for (const std::string& guess : (guesses_of == 0 ? each_a : each_b)[k]) {
                row.Item(ImGui::CalcTextSize(guess.c_str()).x);
                ImGui::TextUnformatted(guess.c_str());
            }
        }
    }
    ImGui::EndTable();
    FormulaTooltip(
        "Loss: the mean cross-entropy (nats) of each next token of the sentence given "
        "the tokens before it; lower is better. The guesses: the five most likely tokens after the "
        "sentence's last one, with their probabilities.");
    frame.Record("order.real_guesses");
    if (!bytes_note.empty()) MutedWrappedText(bytes_note.c_str());
}

void OrderPanel::DrawDistances(FrameContext& frame, const RealOrderDemo& demo) {
    const Gpt2OrderResult& r = demo.result;
    if (r.runs.size() < 3) return;
    std::vector<double> xs;
    for (std::size_t k = 0; k < r.runs[0].last_distances.size(); ++k)
        xs.push_back(static_cast<double>(k));
    double top = 0;
    for (const Gpt2OrderRun& run : r.runs)
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
    const float height =
        std::max(ImGui::GetFontSize() * 10.0f,
                 std::min(ImGui::GetContentRegionAvail().y, ImGui::GetFontSize() * 16.0f));
    plot::Plot plot;
    if (plot.Begin("##real_distances", distance_view, ImVec2(-1, height), config)) {
        // Every switch: a colour and a marker shape each (the three the sentence is about
        // first, thicker).
        const plot::Marker shapes[] = {plot::Marker::Circle, plot::Marker::Square,
                                       plot::Marker::Ring};
        std::vector<std::string> labels;
        for (const Gpt2OrderRun& run : r.runs)
            labels.push_back(RealSwitchLabel(run.choice));
        for (std::size_t k = 0; k < r.runs.size() && k < 6; ++k)
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
