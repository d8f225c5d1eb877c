#include "panels/train/panel_train.h"

#include "io/json_input.h"
#include "io/scene.h"
#include "panels/train/train_verdict.h"
#include "pelab/error.h"
#include "widgets/heatmap.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

constexpr const char* kViews[3] = {"curves", "length", "attention"};
constexpr const char* kViewTitles[3] = {"Curves", "Length", "Attention"};

// One colour per variant, the same in every plot and map.
Role VariantRole(PositionalKind kind) {
    switch (kind) {
    case PositionalKind::None:
        return Role::Muted; // the baseline, in grey
    case PositionalKind::Sinusoidal:
        return Role::Cos;
    case PositionalKind::Learned:
        return Role::PosB;
    case PositionalKind::Rope:
        return Role::PosA;
    case PositionalKind::Alibi:
        return Role::ShiftArc;
    case PositionalKind::T5:
        return Role::Sin;
    }
    return Role::Sin;
}

plot::Marker VariantMarker(PositionalKind kind) {
    // Variants of close colours (sinusoidal's orange and RoPE's vermillion) differ in shape;
    // none is a ring, drawn larger, so a variant on the same points (learned, when its table
    // did not train) shows inside it.
    switch (kind) {
    case PositionalKind::None:
        return plot::Marker::Ring;
    case PositionalKind::Sinusoidal:
    case PositionalKind::Alibi:
    case PositionalKind::T5:
        return plot::Marker::Square;
    default:
        return plot::Marker::Circle;
    }
}

std::string Seconds(double seconds) {
    char text[32];
    if (seconds < 90)
        std::snprintf(text, sizeof text, "%.0f s", seconds);
    else
        std::snprintf(text, sizeof text, "%.0f min %02.0f s", std::floor(seconds / 60),
                      std::fmod(seconds, 60));
    return text;
}

std::string RunSummary(const TrainSettings& s) {
    char text[160];
    std::snprintf(text, sizeof text, "%s, %s, trained at %d%s, %d steps",
                  train_task_name(s.task.task), s.causal ? "causal" : "bidirectional", s.train_len,
                  s.min_train_len < s.train_len ? " and shorter" : "", s.steps);
    return text;
}

// Row i, column j of a length × length map.
std::size_t Cell(int i, int j, int length) {
    return static_cast<std::size_t>(i) * static_cast<std::size_t>(length) +
           static_cast<std::size_t>(j);
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
    return text;
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
    // it running copies that last one.
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
    const std::string about = Capitalised(shown->source) + ": " + RunSummary(run.settings) + ".";
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
    const float below = frame.pictures_first ? ImGui::GetTextLineHeightWithSpacing() : prose_height;
    const float picture_height =
        std::max(font * 10.0f, ImGui::GetContentRegionAvail().y - below - tabs_height);
    if (!frame.pictures_first) prose();
    // A tab bar that was not drawn last frame, or is drawn in another window (a picture
    // exported offscreen, a slide), opens at its first tab: the scene's view is asked again.
    const ImGuiID tabs_id = ImGui::GetID("##train");
    if (ImGui::GetFrameCount() != tabs_frame + 1 || tabs_id != tabs_window) shown_view.clear();
    tabs_frame = ImGui::GetFrameCount();
    tabs_window = tabs_id;
    if (ImGui::BeginTabBar("##train")) {
        for (int t = 0; t < 3; ++t) {
            // A scene (or lesson) that names a view selects it once; clicks select the rest.
            const bool requested = view == kViews[t] && shown_view != view;
            const bool open = ImGui::BeginTabItem(kViewTitles[t], nullptr,
                                                  requested ? ImGuiTabItemFlags_SetSelected : 0);
            char record[40];
            std::snprintf(record, sizeof record, "train.tab_%s", kViews[t]);
            frame.Record(record);
            if (!open) continue;
            if (view == shown_view || view == kViews[t]) view = shown_view = kViews[t];
            if (t == 0)
                DrawCurves(frame, run, picture_height);
            else if (t == 1)
                DrawLength(frame, run, picture_height);
            else
                DrawAttention(frame, run, picture_height);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    if (frame.pictures_first) prose();
}

void TrainPanel::DrawControls(FrameContext& frame) {
    FlowRow row;
    // Which run is shown: a built-in one, or the panel's own.
    const float combo = FitWidth(9.0f, "run");
    row.Item(LabelledWidth(combo, "run"));
    ImGui::SetNextItemWidth(combo);
    const std::string current =
        result_name.empty()
            ? (own_source.empty() ? std::string("(none yet)") : std::string("your run"))
            : result_name;
    if (ImGui::BeginCombo("run", current.c_str())) {
        for (const BuiltInTrainRun& built_in : BuiltInTrainRuns()) {
            // Its settings are taken once it is shown (Draw), so Start reruns it live.
            if (ImGui::Selectable(built_in.name, result_name == built_in.name))
                result_name = built_in.name;
        }
        if (!own_source.empty() && ImGui::Selectable("your run", result_name.empty()))
            result_name.clear();
        ImGui::EndCombo();
    }
    FormulaTooltip("The built-in runs were trained with `pelab train` (assets/train/); picking "
                   "one also fills in its settings, so Start trains it again here.");
    frame.Record("train.run");

    const bool running = job.Running();
    if (running) {
        row.Item(ButtonWidth("Cancel"));
        if (ImGui::Button("Cancel")) job.Cancel();
        frame.Record("train.start");
        const float bar = FitWidth(14.0f);
        row.Item(bar);
        char overlay[96];
        std::snprintf(overlay, sizeof overlay, "%.0f%%, about %s left", 100 * job.Progress(),
                      Seconds(job.SecondsLeft()).c_str());
        ImGui::ProgressBar(static_cast<float>(job.Progress()), ImVec2(bar, 0), overlay);
    } else {
        row.Item(ButtonWidth("Start"));
        if (ImGui::Button("Start")) StartTraining();
        FormulaTooltip("Train the chosen variants here, one worker thread; the window stays "
                       "responsive and Cancel stops it.");
        frame.Record("train.start");
        if (own_source == "live" && job.Cancelled()) {
            row.Item(FitWidth(12.0f));
            char note[96];
            std::snprintf(note, sizeof note, "cancelled at %.0f%%", 100 * job.Progress());
            ImGui::TextDisabled("%s", note);
        }
    }
    ImGui::BeginDisabled(running);
    const float task_width = FitWidth(7.0f, "task");
    row.Item(LabelledWidth(task_width, "task"));
    ImGui::SetNextItemWidth(task_width);
    if (ImGui::BeginCombo("task", train_task_name(edit.task.task))) {
        for (const TrainTask task : train_tasks())
            if (ImGui::Selectable(train_task_name(task), edit.task.task == task)) {
                edit.task.task = task;
                edit.train_len = std::max(edit.train_len, task_shortest_length(edit.task));
                edit.min_train_len = std::max(edit.min_train_len, task_shortest_length(edit.task));
                edit.test_len = std::max(edit.test_len, edit.train_len);
            }
        ImGui::EndCombo();
    }
    FormulaTooltip("reverse: each position predicts the token at its mirror position.\n"
                   "token_at: every position predicts the token at position k (2).\n"
                   "shift: each position predicts the token k (2) places back.\n"
                   "sorted: the last position says whether the sequence never decreases.\n"
                   "first: each position says whether its token appeared before.\n"
                   "majority: every position predicts the most frequent token; it needs no "
                   "order, so every variant should tie.");
    frame.Record("train.task");
    row.Item(CheckboxWidth("causal"));
    ImGui::Checkbox("causal", &edit.causal);
    FormulaTooltip("Causal: each query sees only itself and the keys before it (a decoder). "
                   "Otherwise every token sees every other (an encoder).");
    frame.Record("train.causal");
    const float number = FitWidth(4.5f, "test len");
    const auto whole = [&](const char* label, int* value, int low, int high, const char* name,
                           const char* tip) {
        row.Item(LabelledWidth(number, label));
        ImGui::SetNextItemWidth(number);
        ImGui::InputInt(label, value, 0, 0);
        *value = std::clamp(*value, low, high);
        FormulaTooltip(tip);
        frame.Record(name);
    };
    const int shortest = task_shortest_length(edit.task);
    whole("train len", &edit.train_len, shortest, 256, "train.train_len",
          "The length of the training sequences.");
    edit.min_train_len = std::clamp(edit.min_train_len, shortest, edit.train_len);
    whole("test len", &edit.test_len, edit.train_len, 1024, "train.test_len",
          "Accuracy is measured up to this length (4 × train len shows length generalisation).");
    whole("steps", &edit.steps, 1, 20000, "train.steps", "Training steps per variant.");
    int seed = static_cast<int>(std::min<std::uint64_t>(edit.seed, 1000000));
    whole("seed", &seed, 0, 1000000, "train.seed",
          "The seed of the weights and the data: the same seed gives the same curves.");
    edit.seed = static_cast<std::uint64_t>(seed);
    for (const PositionalKind kind : positional_kinds()) {
        const char* name = positional_kind_name(kind);
        row.Item(CheckboxWidth(name));
        bool on =
            std::find(edit.variants.begin(), edit.variants.end(), kind) != edit.variants.end();
        ImGui::PushStyleColor(ImGuiCol_CheckMark, frame.theme.Color(VariantRole(kind)));
        if (ImGui::Checkbox(name, &on)) {
            std::vector<PositionalKind> chosen;
            for (const PositionalKind each : positional_kinds()) {
                const bool keep = each == kind
                                      ? on
                                      : std::find(edit.variants.begin(), edit.variants.end(),
                                                  each) != edit.variants.end();
                if (keep) chosen.push_back(each);
            }
            edit.variants = chosen;
        }
        ImGui::PopStyleColor();
        char record[40];
        std::snprintf(record, sizeof record, "train.variant_%s", name);
        frame.Record(record);
    }
    ImGui::EndDisabled();
    if (edit.variants.empty())
        ErrorText(frame, "Pick at least one variant to train.");
    else if (!edit_error.empty())
        ErrorText(frame, edit_error.c_str());
}

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
                p.Line(positional_kind_name(r.variant), xs[v].data(), r.loss.data(),
                       static_cast<int>(r.loss.size()), frame.theme.Color(VariantRole(r.variant)),
                       2.0f * frame.theme.line_scale);
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
                const ImU32 color = frame.theme.Color(VariantRole(r.variant));
                p.Line(positional_kind_name(r.variant), steps_at[v].data(), r.accuracy.data(),
                       static_cast<int>(r.accuracy.size()), color, 2.0f * frame.theme.line_scale);
                // Marked too: a short run measures once (at its last step), a single point.
                p.Markers(nullptr, steps_at[v].data(), r.accuracy.data(),
                          static_cast<int>(r.accuracy.size()), color, 3.0f * frame.theme.line_scale,
                          VariantMarker(r.variant));
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
    config.x_label = "test length (tokens)";
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
        p.Text(to, 0.0, "trained", frame.theme.Color(Role::Muted),
               ImVec2(4, -ImGui::GetTextLineHeightWithSpacing()));
        for (const VariantResult& r : run.variants) {
            if (!r.Done()) continue;
            any = true;
            const ImU32 color = frame.theme.Color(VariantRole(r.variant));
            p.Line(positional_kind_name(r.variant), xs.data(), r.accuracy_by_length.data(),
                   static_cast<int>(xs.size()), color, 2.0f * frame.theme.line_scale);
            const float radius = r.variant == PositionalKind::None ? 7.0f : 4.0f;
            p.Markers(nullptr, xs.data(), r.accuracy_by_length.data(), static_cast<int>(xs.size()),
                      color, radius * frame.theme.line_scale, VariantMarker(r.variant));
        }
        p.End();
    }
    frame.Record("train.length_plot");
    if (!any)
        MutedWrappedText("The accuracy per test length is measured once a variant has "
                         "finished training.");
}

void TrainPanel::DrawAttention(FrameContext& frame, const TrainRun& run, float height) {
    const TrainSettings& s = run.settings;
    const int shown_layer = std::clamp(layer, 0, s.layers - 1);
    const int shown_head = std::clamp(head, 0, s.heads - 1);
    FlowRow row;
    const float slider = FitWidth(5.0f, "layer");
    row.Item(LabelledWidth(slider, "layer"));
    ImGui::SetNextItemWidth(slider);
    int shown = shown_layer;
    if (ImGui::SliderInt("layer", &shown, 0, s.layers - 1)) layer = shown;
    frame.Record("train.layer");
    row.Item(LabelledWidth(slider, "head"));
    ImGui::SetNextItemWidth(slider);
    shown = shown_head;
    if (ImGui::SliderInt("head", &shown, 0, s.heads - 1)) head = shown;
    frame.Record("train.head");
    std::string tokens = "example:";
    for (const int token : run.example.tokens)
        tokens += " " + std::to_string(token);
    row.Item(ImGui::CalcTextSize(tokens.c_str()).x);
    ImGui::TextUnformatted(tokens.c_str());
    FormulaTooltip("One sequence of the task at the trained length (at most 16 tokens). Each "
                   "map's row i is the weight query i gives each key; bright is more.");
    frame.Record("train.example");

    std::vector<const VariantResult*> done;
    for (const VariantResult& r : run.variants)
        if (r.Done() && !r.attention.empty()) done.push_back(&r);
    if (done.empty()) {
        MutedWrappedText("The attention maps appear once a variant has finished training.");
        return;
    }
    // As many maps per row as fit (a title above each), each as large as the rows allow.
    // (Below the maps: their colour scale, about two text heights.)
    const ImVec2 avail(ImGui::GetContentRegionAvail().x,
                       height - 2 * ImGui::GetFrameHeightWithSpacing() -
                           2.2f * ImGui::GetFontSize());
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
    for (int columns = 1; columns <= count; ++columns) {
        const int rows = (count + columns - 1) / columns;
        if (columns > 1 && columns * (title_width + spacing) > avail.x + spacing) break;
        const float by_width = (avail.x - spacing * (columns - 1)) / columns;
        const float by_height =
            (avail.y - rows * (ImGui::GetTextLineHeightWithSpacing() + spacing)) / rows;
        const float side = std::min(by_width, by_height);
        if (side > best_side) best_side = side, best_columns = columns;
    }
    const float side = std::max(font * 4.0f, best_side);
    const int length = run.example.length;
    const float cell = side / static_cast<float>(length);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float start_x = ImGui::GetCursorPosX();
    for (int k = 0; k < count; ++k) {
        const VariantResult& r = *done[static_cast<std::size_t>(k)];
        // Columns as wide as the widest title or the map, whichever is wider.
        if (k % best_columns != 0)
            ImGui::SameLine(start_x + static_cast<float>(k % best_columns) *
                                          (std::max(side, title_width) + spacing));
        ImGui::BeginGroup();
        int right = 0, scored = 0;
        for (int p = 0; p < length; ++p) {
            const int target = run.example.targets[static_cast<std::size_t>(p)];
            if (target < 0) continue;
            ++scored;
            right += r.prediction[static_cast<std::size_t>(p)] == target ? 1 : 0;
        }
        char title[96];
        std::snprintf(title, sizeof title, "%s %d/%d", positional_kind_name(r.variant), right,
                      scored);
        ImGui::TextColored(frame.theme.ColorVec(VariantRole(r.variant)), "%s", title);
        FormulaTooltip("Right answers of this model on the example, at the positions the task "
                       "scores. Hover the map for each weight.");
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        ImGui::InvisibleButton(title, ImVec2(side, side));
        const std::vector<double>& map = r.attention[static_cast<std::size_t>(shown_layer)]
                                                    [static_cast<std::size_t>(shown_head)];
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
                std::snprintf(answer, sizeof answer,
                              "the model answers %d here (the task wants %d)",
                              r.prediction[static_cast<std::size_t>(i)], wanted);
            ImGui::SetTooltip("query %d (token %d) → key %d (token %d): weight %.4f\n%s", i,
                              run.example.tokens[static_cast<std::size_t>(i)], j,
                              run.example.tokens[static_cast<std::size_t>(j)],
                              map[Cell(i, j, length)], answer);
        }
        ImGui::EndGroup();
        char record[48];
        std::snprintf(record, sizeof record, "train.attention_%s", positional_kind_name(r.variant));
        frame.Record(record);
    }
    HeatmapStyle scale;
    scale.diverging = false;
    scale.range_min = 0;
    scale.range = 1;
    ColorLegend(scale, std::min(avail.x, font * 16.0f));
    FormulaTooltip("The weight a query (row) gives a key (column): each row sums to 1.");
}

void TrainPanel::AddSceneFields(SceneTable& table) {
    table.Text("train_result",
               "text: a built-in run (reverse, shift-causal, majority) or \"\" "
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
    table.Integer("train_layer", "the layer whose attention the Train panel shows", &layer, 0, 3);
    table.Integer("train_head", "the head whose attention the Train panel shows", &head, 0, 3);
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
    for (const VariantResult& r : run.variants)
        variants.push_back({{"pe", positional_kind_name(r.variant)},
                            {"steps_done", r.loss.size() * LossEvery(run.settings.steps)},
                            {"final_loss", r.loss.empty() ? 0.0 : r.loss.back()},
                            {"accuracy_by_length", r.accuracy_by_length},
                            {"example_prediction", r.prediction}});
    out["variants"] = variants;
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

std::string TrainPanel::StatusNote() const {
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

std::vector<std::string> TrainPanel::WidgetNames() {
    std::vector<std::string> names = {
        "train.run",           "train.task",        "train.causal",        "train.train_len",
        "train.test_len",      "train.steps",       "train.seed",          "train.start",
        "train.verdict",       "train.paper_notes", "train.tab_curves",    "train.tab_length",
        "train.tab_attention", "train.loss_plot",   "train.accuracy_plot", "train.length_plot",
        "train.layer",         "train.head",        "train.example",       "train.source"};
    for (const PositionalKind kind : positional_kinds()) {
        names.push_back(std::string("train.variant_") + positional_kind_name(kind));
        names.push_back(std::string("train.attention_") + positional_kind_name(kind));
    }
    return names;
}

} // namespace pelab
