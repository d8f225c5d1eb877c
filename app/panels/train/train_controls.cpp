// train_controls.cpp — the Train panel's controls: the run shown, Start / Quick demo (or Cancel
// and the progress while a run goes), the variants and the run's settings.
#include "panels/train/panel_train.h"

#include "io/train_run.h"
#include "panels/scene_controls.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

namespace pelab {

namespace {

std::string Seconds(double seconds) {
    char text[32];
    if (seconds < 90)
        std::snprintf(text, sizeof text, "%.0f s", seconds);
    else
        std::snprintf(text, sizeof text, "%.0f min %02.0f s", std::floor(seconds / 60),
                      std::fmod(seconds, 60));
    return text;
}

} // namespace

std::string ProgressText(double progress, double seconds_left, float room,
                         const std::function<float(const std::string&)>& width) {
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.0f%%", 100 * progress);
    // No estimate before the first step is measured (a 0 % run is not "0 s left").
    if (seconds_left < 0) {
        const std::string timing = std::string(percent) + ", timing a step";
        return width(timing) <= room ? timing : percent;
    }
    const std::string left = Seconds(seconds_left) + " left";
    for (const std::string& text : {std::string(percent) + ", " + left, left})
        if (width(text) <= room) return text;
    return percent;
}

void TrainPanel::DrawControls(FrameContext& frame) {
    FlowRow row;
    DrawRunChoice(frame, row);
    DrawStartSlot(frame, row);
    // The variants next: with Start, what a class is shown (on a projector's two-row strip, the
    // rows in view); the rest of the settings follow.
    const bool running = job.Running();
    ImGui::BeginDisabled(running);
    DrawVariantChoices(frame, row);
    DrawSettings(frame, row);
    ImGui::EndDisabled();
    if (edit.variants.empty())
        ErrorText(frame, "Pick at least one variant to train.");
    else if (!edit_error.empty())
        ErrorText(frame, edit_error.c_str());
}

void TrainPanel::DrawRunChoice(FrameContext& frame, FlowRow& row) {
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
}

void TrainPanel::DrawStartSlot(FrameContext& frame, FlowRow& row) {
    // Start and Quick demo, or Cancel and the progress bar while a run goes: one slot of the
    // same width either way, so nothing after it moves (and the pictures keep their height)
    // when a run starts or ends.
    const bool running = job.Running();
    const float spacing = FlowRow::Spacing();
    // Start and Quick demo's width, the bar taking what Cancel leaves of it: so that on a
    // projector's strip the run list, this slot and the first variant share the first row, and
    // the other variants the second, whether a run goes or not.
    const float slot = std::max(ButtonWidth("Start") + spacing + ButtonWidth("Quick demo"),
                                ButtonWidth("Cancel") + spacing + ImGui::GetFontSize() * 4.0f);
    row.Item(slot);
    ImGui::BeginGroup();
    if (running) {
        if (ImGui::Button("Cancel")) job.Cancel();
        frame.Record("train.start");
        ImGui::SameLine();
        // The fill in the theme's header colour, which the text reads on in every theme (the
        // plot colour, yellow in the dark theme, left white text unreadable).
        ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImGui::GetStyleColorVec4(ImGuiCol_Header));
        const float bar = slot - ButtonWidth("Cancel") - spacing;
        const std::string overlay = ProgressText(
            job.Progress(), job.SecondsLeft(), bar - ImGui::GetStyle().FramePadding.x * 2,
            [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; });
        ImGui::ProgressBar(static_cast<float>(job.Progress()), ImVec2(bar, 0), overlay.c_str());
        ImGui::PopStyleColor();
    } else {
        if (ImGui::Button("Start")) StartTraining();
        FormulaTooltip(TrainJob::kBetweenFrames
                           ? "Train the chosen variants here, a step at a time between frames; "
                             "the page keeps drawing and Cancel stops it."
                           : "Train the chosen variants here, one worker thread per core; the "
                             "window stays responsive and Cancel stops it.");
        frame.Record("train.start");
        ImGui::SameLine();
        if (ImGui::Button("Quick demo")) {
            edit = quick_demo_settings();
            StartTraining();
        }
        // The times measured: `time pelab train --quick-demo` (3.6 s on the 2-core machine) and
        // the page's Quick demo in headless Chromium there (43 s), docs/web.md.
        FormulaTooltip(TrainJob::kBetweenFrames
                           ? "A run a class can wait for (under a minute in the page): reverse 16 "
                             "tokens with no encoding and with sinusoidal, 150 steps, tested up "
                             "to 32 tokens. The same as `pelab train --quick-demo`."
                           : "A run a class can wait for (a few seconds on two cores): reverse "
                             "16 tokens with no encoding and with sinusoidal, 150 steps, tested "
                             "up to 32 tokens. The same as `pelab train --quick-demo`.");
        frame.Record("train.quick_demo");
    }
    ImGui::EndGroup();
}

void TrainPanel::DrawSettings(FrameContext& frame, FlowRow& row) {
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
                   "order, so every variant should tie.\n"
                   "word_back: words of 1 to 3 tokens, each ended by token 0; every position "
                   "predicts the first token of the word k (2) words back: a count of words, not "
                   "tokens.");
    frame.Record("train.task");
    row.Item(CheckboxWidth("causal"));
    ImGui::Checkbox("causal", &edit.causal);
    FormulaTooltip("Causal: each query sees only itself and the keys before it (a decoder). "
                   "Otherwise every token sees every other (an encoder).");
    frame.Record("train.causal");
    const float number = FitWidth(4.5f, "test len");
    // The lower bounds hang on the task and on train len; the upper ones are pelab train's.
    const int shortest = task_shortest_length(edit.task);
    SceneInput(frame, row, kTrainLenControl, &edit.train_len, number);
    edit.train_len = std::max(edit.train_len, shortest);
    edit.min_train_len = std::clamp(edit.min_train_len, shortest, edit.train_len);
    SceneInput(frame, row, kTestLenControl, &edit.test_len, number);
    edit.test_len = std::max(edit.test_len, edit.train_len);
    SceneInput(frame, row, kStepsControl, &edit.steps, number);
    // The options of the ticked methods, from their rows; a layer pattern's period is at most
    // the model's layers (the panel keeps the run's layers).
    for (const PositionalKind kind : edit.variants)
        for (const MethodOption& option : positional_method_info(kind).options) {
            const int high = option.at_most_layers
                                 ? std::clamp(edit.layers, option.min_value, option.max_value)
                                 : option.max_value;
            const std::string tip =
                std::string(option.help) + "; " + std::to_string(option.min_value) + " to " +
                std::to_string(high) +
                (option.at_most_layers ? " (at most the model's " + std::to_string(edit.layers) +
                                             (edit.layers == 1 ? " layer)." : " layers).")
                                       : std::string("."));
            const std::string name = std::string("train.") + option.key;
            const NumberControl control{nullptr,
                                        option.help,
                                        static_cast<double>(option.min_value),
                                        static_cast<double>(high),
                                        static_cast<double>(option.min_value),
                                        option.label,
                                        "%d",
                                        false,
                                        tip.c_str(),
                                        name.c_str()};
            SceneInput(frame, row, control, &(edit.method_options.*option.field), number);
        }
    // Any seed pelab train takes (0 to 2^64 - 1), so none is changed without a word.
    row.Item(LabelledWidth(FitWidth(11.0f), "seed"));
    ImGui::SetNextItemWidth(FitWidth(11.0f));
    ImGui::InputScalar("seed", ImGuiDataType_U64, &edit.seed);
    FormulaTooltip("The seed of the weights and the data (0 to 18446744073709551615): the same "
                   "seed gives the same curves.");
    frame.Record("train.seed");
}

} // namespace pelab
