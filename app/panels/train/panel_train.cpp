#include "panels/train/panel_train.h"
#include "panels/scene_controls.h"

#include "io/json_input.h"
#include "io/scene.h"
#include "panels/methods.h"
#include "panels/train/train_verdict.h"
#include "pelab/base/error.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

// Where training shares the frame (the browser edition), the part of each frame it takes. A step
// cannot be cut (~0.1 s in the page at the default size), so the page draws a frame between
// steps: 8 to 15 frames a second while the curves grow (docs/web.md).
constexpr double kTrainSliceSeconds = 0.030;
constexpr const char* kViews[3] = {"curves", "length", "attention"};
constexpr const char* kViewTitles[3] = {"Curves", "Length", "Attention"};

std::string RunSummary(const TrainSettings& s) {
    char text[160];
    std::snprintf(text, sizeof text, "%s, %s, trained at %d%s, %d steps",
                  train_task_name(s.task.task), s.causal ? "causal" : "bidirectional", s.train_len,
                  s.min_train_len < s.train_len ? " and shorter" : "", s.steps);
    return text;
}

// The options of the run's methods (each from its row), and which layers a layer pattern leaves
// without positions.
std::string OptionsNote(const TrainSettings& s) {
    std::string note;
    for (const PositionalKind kind : s.variants) {
        const std::vector<MethodOption>& options = positional_method_info(kind).options;
        if (options.empty()) continue;
        note += std::string("\n") + positional_kind_name(kind) + ":";
        for (const MethodOption& option : options) {
            const int value = s.method_options.*option.field;
            note += std::string(" ") + option.key + " " + std::to_string(value) + " (" +
                    method_option_flag(option) + " " + std::to_string(value) + ")";
        }
        const TransformerConfig config = ModelConfig(s, kind);
        std::vector<int> bare;
        for (int l = 0; l < s.layers; ++l)
            if (layer_without_positions(config, l)) bare.push_back(l + 1);
        if (!bare.empty()) {
            std::string layers;
            for (const int l : bare)
                layers += (layers.empty() ? "" : ", ") + std::to_string(l);
            note += bare.size() == 1 ? "; layer " + layers + " attends without positions."
                                     : "; layers " + layers + " attend without positions.";
        } else {
            note += ".";
        }
    }
    return note;
}

// What every model of a run is, and the choices the papers leave open, made here.
std::string ModelNote(const TrainSettings& s) {
    char text[1600];
    std::snprintf(
        text, sizeof text,
        "The same model for every encoding: a token embedding, %d pre-LayerNorm block%s "
        "(%d-head %s attention, an MLP 4× wide with GELU), a final LayerNorm and an output "
        "head, d_model %d; AdamW (learning rate %g), the gradient clipped to norm %g; the "
        "same seed, so every model starts from the same shared weights and sees the same "
        "batches. Only the encoding differs:\n"
        "none: no position signal (in a causal model the mask still lets a position count "
        "the tokens before it).\n"
        "sinusoidal: PE(pos) added to the token embeddings.\n"
        "learned: a trained vector per position added; the rows past the longest trained "
        "length never receive a gradient and keep their initial values (the table's hard "
        "edge).\n"
        "rope: each head's queries and keys turned by pos·θ_i.\n"
        "alibi: −m·|i − j| added to the scores (in both directions when not causal).\n"
        "t5: a learned bias per head and bucket of j − i, shared by the layers; %s.",
        s.layers, s.layers == 1 ? "" : "s", s.heads, s.causal ? "causal" : "bidirectional",
        s.d_model, s.optimizer.learning_rate, s.optimizer.clip_norm,
        s.causal ? "causal runs use T5's decoder buckets"
                 : "bidirectional runs use T5's own encoder buckets (half of them for keys after "
                   "the query)");
    return text + OptionsNote(s);
}

} // namespace

TrainPanel::TrainPanel() {
    // Nothing is parsed here: an App (and every fuzz input's) builds every panel. The default
    // settings are the built-in runs' (TrainSettings' defaults); the run shown fills them in
    // when it is first drawn (settings_from).
    edit.eval_every = EvalEvery(edit.steps);
}

const TrainPanel::Shown& TrainPanel::ShownFor() const {
    return shown_cache.Get({result_name, own_version}, [this](const ShownInputs& inputs) {
        Shown shown;
        if (!inputs.result_name.empty()) {
            const BuiltInTrainRun* built_in = FindBuiltInTrainRun(inputs.result_name);
            nlohmann::json doc;
            if (built_in == nullptr) {
                shown.error = "no built-in run is called \"" + inputs.result_name + "\"";
            } else if (std::string error = ParseJsonInput(built_in->text, &doc); !error.empty()) {
                shown.error = "built-in run " + inputs.result_name + ": " + error;
            } else if (std::string bad = ReadTrainRun(doc, &shown.built_in); !bad.empty()) {
                shown.error = "built-in run " + inputs.result_name + ": " + bad;
            } else {
                shown.source = "built-in run \"" + inputs.result_name + "\"";
            }
        } else if (!own_source.empty()) {
            shown.source = own_source == "live" ? "your run" : "run file " + own_source;
        }
        if (shown.error.empty() && !shown.source.empty()) {
            const TrainRun& run = inputs.result_name.empty() ? own_run : shown.built_in;
            shown.verdict = TrainVerdict(run);
            shown.notes = TrainPaperNotes(run);
        }
        return shown;
    });
}

bool TrainPanel::StartTraining() {
    edit.eval_every = EvalEvery(edit.steps);
    try {
        validate_train_settings(edit);
    } catch (const InvalidArgument& e) {
        edit_error = e.what();
        return false;
    }
    edit_error.clear();
    job.Start(edit);
    job_version = 0;
    own_run = TrainRun{};
    own_run.settings = edit;
    own_source = "live";
    ++own_version;
    result_name.clear();
    view = "curves";
    return true;
}

void TrainPanel::Draw(FrameContext& frame) {
    // The worker's latest snapshot, copied only when it changed. Running is read first: the
    // worker publishes its last snapshot before it stops, so the frame after the one that saw
    // it running copies that last one. Without threads (the browser) the run takes its steps
    // here, in a slice of each frame that leaves the page responsive.
    job.Advance(kTrainSliceSeconds);
    const bool running = job.Running();
    if (own_source == "live" && job.Latest(&own_run, &job_version)) ++own_version;
    if (running) frame.stats.computing = true; // frames go on while the curves grow
    if (BeginControls(frame)) {
        DrawControls(frame);
        EndControls(frame);
    }
    const Shown* shown = nullptr;
    {
        CoreTimer core_time(frame.stats);
        shown = &ShownFor();
    }
    // A built-in run shown (picked here, by a scene or a lesson step) fills in the settings
    // once, so that Start trains what is on screen.
    if (!result_name.empty() && result_name != settings_from && shown->error.empty() && !running) {
        edit = shown->built_in.settings;
        settings_from = result_name;
    }
    if (!shown->error.empty()) {
        ErrorText(frame, shown->error.c_str());
        return;
    }
    if (shown->source.empty()) {
        MutedWrappedText("No run yet: pick a built-in run above, or choose the settings and press "
                         "Start to train one here.");
        return;
    }
    const TrainRun& run = result_name.empty() ? own_run : shown->built_in;
    std::string about = Capitalised(shown->source) + ": " + RunSummary(run.settings) + ".";
    // A run cancelled part way says where it stopped (here, not beside Start: the row of Start
    // and the variants keeps its width whether a run goes, stopped or never started).
    if (result_name.empty() && own_source == "live" && job.Cancelled()) {
        char stopped[48];
        std::snprintf(stopped, sizeof stopped, " Stopped at %.0f%%.", 100 * job.Progress());
        about += stopped;
    }
    const std::string model = ModelNote(run.settings);
    const auto prose = [&] {
        HelpMarker(model.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("%s", about.c_str());
        frame.Record("train.source");
        WrappedText(shown->verdict.text.c_str());
        frame.Record("train.verdict");
        if (!shown->notes.text.empty()) {
            MutedWrappedText(shown->notes.text.c_str());
            frame.Record("train.paper_notes");
        }
    };
    // The picture takes what the prose leaves, at least 10 text heights; on a short window
    // (a projector) it comes first, takes all but a line, and the prose follows below it.
    const float font = ImGui::GetFontSize();
    const float wrap = ImGui::GetContentRegionAvail().x;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float prose_height =
        ImGui::GetTextLineHeightWithSpacing() +
        ImGui::CalcTextSize(shown->verdict.text.c_str(), nullptr, false, wrap).y +
        (shown->notes.text.empty()
             ? 0.0f
             : ImGui::CalcTextSize(shown->notes.text.c_str(), nullptr, false, wrap).y +
                   style.ItemSpacing.y) +
        style.ItemSpacing.y * 2;
    const float tabs_height = ImGui::GetFrameHeightWithSpacing() + style.ItemSpacing.y;
    // On a short window the picture leaves room under it for the source line and three lines of
    // the verdict, the same room idle and while a run goes (its provisional verdict is what the
    // class reads meanwhile), so the picture keeps its height; a longer verdict scrolls, except
    // on a slide about it, which makes room for all of it.
    const float below = !frame.pictures_first ? prose_height
                        : frame.SlideOutlines("train.verdict")
                            ? prose_height
                            : ImGui::GetTextLineHeightWithSpacing() * 4.0f;
    const float picture_height =
        std::max(font * 10.0f, ImGui::GetContentRegionAvail().y - below - tabs_height);
    if (!frame.pictures_first) prose();
    if (tabs.BeginBar("##train")) {
        for (int t = 0; t < 3; ++t) {
            const bool open = tabs.Tab(kViewTitles[t], kViews[t], &view);
            char record[40];
            std::snprintf(record, sizeof record, "train.tab_%s", kViews[t]);
            frame.Record(record);
            if (!open) continue;
            if (t == 0)
                DrawCurves(frame, run, picture_height);
            else if (t == 1)
                DrawLength(frame, run, picture_height);
            else
                DrawAttention(frame, run, picture_height);
            ImGui::EndTabItem();
        }
        tabs.EndBar();
    }
    if (frame.pictures_first) prose();
}

namespace {

bool InDefaultRun(PositionalKind kind) {
    const std::vector<PositionalKind>& kinds = default_positional_kinds();
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

// One method's box: ticked when the run trains it; its tooltip says what it changes.
void VariantCheckbox(FrameContext& frame, std::vector<PositionalKind>& variants,
                     PositionalKind kind) {
    const char* name = positional_kind_name(kind);
    bool on = std::find(variants.begin(), variants.end(), kind) != variants.end();
    ImGui::PushStyleColor(ImGuiCol_CheckMark, frame.theme.Color(LookOf(kind).role));
    if (ImGui::Checkbox(name, &on)) {
        std::vector<PositionalKind> chosen; // in the table's order
        for (const PositionalKind each : positional_kinds()) {
            const bool keep =
                each == kind ? on
                             : std::find(variants.begin(), variants.end(), each) != variants.end();
            if (keep) chosen.push_back(each);
        }
        variants = chosen;
    }
    ImGui::PopStyleColor();
    // What the method changes in the model, from its row (Markdown's \| unescaped).
    std::string changes = LookOf(kind).changes;
    for (std::size_t at = changes.find("\\|"); at != std::string::npos;
         at = changes.find("\\|", at))
        changes.erase(at, 1);
    const PositionalMethodInfo& info = positional_method_info(kind);
    const std::string paper = *info.paper ? std::string(" (") + info.paper + ")" : "";
    FormulaTooltip((std::string(info.display_name) + paper + ": " + changes).c_str());
    frame.Record((std::string("train.variant_") + name).c_str());
}

} // namespace

void TrainPanel::DrawVariantChoices(FrameContext& frame, FlowRow& row) {
    // The default run's methods as boxes; the others in one list, so the row keeps its length
    // on a projector however many methods the core has.
    std::vector<PositionalKind> more;
    for (const PositionalKind kind : positional_kinds()) {
        if (!InDefaultRun(kind)) {
            more.push_back(kind);
            continue;
        }
        row.Item(CheckboxWidth(positional_kind_name(kind)));
        VariantCheckbox(frame, edit.variants, kind);
    }
    if (more.empty()) return;
    int ticked = 0;
    for (const PositionalKind kind : more)
        ticked +=
            std::find(edit.variants.begin(), edit.variants.end(), kind) != edit.variants.end();
    // "more", or "more (2)" when two of them are ticked: short enough to share the second row
    // with the default boxes at 1024 × 768, text × 2.
    const std::string label =
        ticked == 0 ? std::string("more") : "more (" + std::to_string(ticked) + ")";
    const float width = ImGui::CalcTextSize("more (0)").x + ImGui::GetFrameHeight() +
                        2 * ImGui::GetStyle().FramePadding.x;
    row.Item(width);
    ImGui::SetNextItemWidth(width);
    if (ImGui::BeginCombo("##more_methods", label.c_str())) {
        for (const PositionalKind kind : more)
            VariantCheckbox(frame, edit.variants, kind);
        ImGui::EndCombo();
    }
    FormulaTooltip("More methods, which the default run does not train: tick any to train it "
                   "too.");
    frame.Record("train.more_methods");
}

void TrainPanel::AddSceneFields(SceneTable& table) {
    table.Text("train_result",
               "text: a built-in run (majority, reverse, shift-causal, shift-causal-1500) or \"\" "
               "(the panel's own run)",
               &result_name, [](const std::string& text) {
                   if (text.empty() || FindBuiltInTrainRun(text) != nullptr) return std::string();
                   std::string names;
                   for (const BuiltInTrainRun& run : BuiltInTrainRuns())
                       names += std::string(names.empty() ? "" : ", ") + run.name;
                   return "must be one of the built-in runs (" + names + ") or \"\"";
               });
    table.Text("train_view", "text: curves, length or attention: the Train panel's tab", &view,
               [](const std::string& text) {
                   for (const char* id : kViews)
                       if (text == id) return std::string();
                   return std::string("must be curves, length or attention");
               });
    table.Integer(kTrainLayer, &layer);
    table.Integer(kTrainHead, &head);
}

nlohmann::json TrainPanel::Readouts(const AppState& /*state*/) const {
    const Shown& shown = ShownFor();
    nlohmann::json out = {{"source", shown.source}};
    out["training"] = {{"running", job.Running()}, {"progress", job.Progress()}};
    if (!shown.error.empty()) out["problem"] = shown.error;
    if (!shown.error.empty() || shown.source.empty()) return out;
    const TrainRun& run = result_name.empty() ? own_run : shown.built_in;
    out["settings"] = TrainRunJson(run)["settings"];
    out["test_lengths"] = test_lengths(run.settings);
    nlohmann::json variants = nlohmann::json::array();
    for (const VariantResult& r : run.variants) {
        nlohmann::json variant = {{"pe", positional_kind_name(r.variant)},
                                  {"steps_done", r.loss.size() * LossEvery(run.settings.steps)},
                                  {"final_loss", r.loss.empty() ? 0.0 : r.loss.back()},
                                  {"accuracy_by_length", r.accuracy_by_length},
                                  {"example_prediction", r.prediction}};
        // A run of several seeds: what the verdict and the length plot read.
        if (r.Seeds() > 1) {
            nlohmann::json mean = nlohmann::json::array(), lowest = mean, highest = mean;
            for (std::size_t k = 0; k < r.accuracy_by_length.size(); ++k) {
                mean.push_back(r.MeanAt(k));
                lowest.push_back(r.LowestAt(k));
                highest.push_back(r.HighestAt(k));
            }
            variant["seeds"] = r.Seeds();
            variant["mean_by_length"] = mean;
            variant["lowest_by_length"] = lowest;
            variant["highest_by_length"] = highest;
        }
        variants.push_back(variant);
    }
    out["variants"] = variants;
    // The attention the panel shows: the scene's layer and head within the run's model.
    const int shown_layer = std::clamp(layer, 0, run.settings.layers - 1);
    const int shown_head = std::clamp(head, 0, run.settings.heads - 1);
    out["attention"] = {{"layer", shown_layer}, {"head", shown_head}};
    if (shown_layer != layer || shown_head != head)
        out["attention"]["note"] =
            "the scene asks for layer " + std::to_string(layer) + ", head " + std::to_string(head) +
            "; the run's model has " + std::to_string(run.settings.layers) + " layers and " +
            std::to_string(run.settings.heads) + " heads: its last are shown";
    else if (!attention_note.empty())
        out["attention"]["note"] = attention_note;
    // Each finished map's first-token share (its attention sink), as drawn under its title.
    nlohmann::json sinks = nlohmann::json::object();
    for (const VariantResult& r : run.variants)
        if (r.Done() && !r.attention.empty() && run.example.length >= 2) {
            const FirstTokenShare sink =
                first_token_share(r.attention[static_cast<std::size_t>(shown_layer)]
                                             [static_cast<std::size_t>(shown_head)],
                                  run.example.length, run.settings.causal);
            sinks[positional_kind_name(r.variant)] = {{"share", sink.share}, {"even", sink.even}};
        }
    out["attention"]["first_token"] = sinks;
    out["verdict"] = shown.verdict.text;
    out["paper_notes"] = shown.notes.text;
    nlohmann::json claims = nlohmann::json::object();
    for (const Claim& claim : shown.verdict.claims)
        claims[claim.name] = claim.value;
    for (const Claim& claim : shown.notes.claims)
        claims[claim.name] = claim.value;
    out["claims"] = claims;
    return out;
}

bool TrainPanel::HasTable() const {
    const Shown& shown = ShownFor();
    return shown.error.empty() && !shown.source.empty();
}

std::string TrainPanel::TableCsv(const AppState& /*state*/) const {
    const Shown& shown = ShownFor();
    if (!HasTable()) return {};
    const TrainRun& run = result_name.empty() ? own_run : shown.built_in;
    std::string csv = "variant";
    for (const int length : test_lengths(run.settings))
        csv += ",accuracy at " + std::to_string(length);
    csv += ",last loss\n";
    char number[40];
    for (const VariantResult& r : run.variants) {
        csv += positional_kind_name(r.variant);
        for (const double accuracy : r.accuracy_by_length) {
            std::snprintf(number, sizeof number, ",%.17g", accuracy);
            csv += number;
        }
        // A variant still training has no accuracy per length yet: empty cells.
        for (std::size_t k = r.accuracy_by_length.size(); k < test_lengths(run.settings).size();
             ++k)
            csv += ",";
        std::snprintf(number, sizeof number, ",%.17g", r.loss.empty() ? 0.0 : r.loss.back());
        csv += (r.loss.empty() ? std::string(",") : std::string(number)) + "\n";
    }
    return csv;
}

std::string TrainPanel::StatusNote(const AppState& /*state*/) const {
    if (job.Running()) {
        char text[64];
        std::snprintf(text, sizeof text, "training %.0f%%", 100 * job.Progress());
        return text;
    }
    if (!result_name.empty()) return "built-in run " + result_name;
    return own_source == "live" ? std::string("your run") : own_source;
}

std::string TrainPanel::OpenDocument(const nlohmann::json& doc, const std::string& path,
                                     const SceneTable& /*table*/, const PanelCatalog& /*panels*/) {
    TrainRun run;
    if (std::string error = ReadTrainRun(doc, &run); !error.empty()) return error;
    job.Stop();
    own_run = std::move(run);
    own_source = path;
    ++own_version;
    result_name.clear();
    edit = own_run.settings;
    return {};
}

std::vector<WidgetName> TrainPanel::WidgetNames() {
    std::vector<WidgetName> names = {
        {"train.run", "the run list: a built-in run or your own"},
        {"train.quick_demo", "the Quick demo button: a short run a class can wait for"},
        {"train.task", "the task list: what the models must learn (reverse, shift …)"},
        {"train.causal", "the causal tick box: each token sees only itself and earlier ones"},
        ControlWidget(kTrainLenControl, "box"),
        ControlWidget(kTestLenControl, "box"),
        ControlWidget(kStepsControl, "box"),
        {"train.seed", "the seed field for the weights and the data"},
        {"train.start", "the Start button, or Cancel while a run is training"},
        {"train.verdict",
         "the verdict paragraph: which variants learned the task and kept it",
         {"verdict"}},
        {"train.paper_notes",
         "the grey notes on what the run says about three papers",
         {"paper_notes"}},
        {"train.tab_curves", "the Curves tab: loss and accuracy during training"},
        {"train.tab_length", "the Length tab: accuracy by test length"},
        {"train.tab_attention", "the Attention tab: each trained model's attention map"},
        {"train.loss_plot", "the loss plot: each variant's loss over the training steps"},
        {"train.accuracy_plot",
         "the accuracy plot: each variant at the trained length, by step",
         {"settings"}},
        {"train.length_plot", "the plot of each variant's accuracy against test length"},
        ControlWidget(kTrainLayer),
        ControlWidget(kTrainHead),
        {"train.example", "the example line: the tokens the attention maps are drawn for"},
        {"train.source",
         "the grey line naming the run shown and its settings",
         {"source", "settings"}},
    };
    // One box per method (the default run's in the row, the others in the more list).
    names.push_back(
        {"train.variant_<method>", "the box of the method named: ticked, the run trains it"});
    names.push_back({"train.more_methods",
                     "the more methods list: the methods the default run does not train"});
    // One box per option of a method, while the method is ticked (its row: MethodOption).
    for (const PositionalKind kind : positional_kinds())
        for (const MethodOption& option : positional_method_info(kind).options)
            names.push_back({std::string("train.") + option.key,
                             std::string("the ") + option.label + " box: an option of " +
                                 positional_kind_name(kind) + " (" + method_option_flag(option) +
                                 ")"});
    // One map per method of the run shown (a run need not hold every method).
    names.push_back({"train.attention_<method>",
                     "the attention map, on the Attention tab, of the model of the method named"});
    names.push_back(
        {"train.first_token_<method>",
         "the sink line under a map: attention on the first token, and an even spread's",
         {"attention"}});
    return names;
}

} // namespace pelab
