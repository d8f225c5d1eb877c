#include "panels/panel_registry.h"

#include <algorithm>

#include "io/suggest.h"
#include "panels/alternatives/panel_alternatives.h"
#include "panels/calculator/panel_calculator.h"
#include "panels/candidates/panel_candidates.h"
#include "panels/clocks/panel_clocks.h"
#include "panels/compare/panel_compare.h"
#include "panels/heatmap/panel_heatmap.h"
#include "panels/model/panel_model.h"
#include "panels/order/panel_order.h"
#include "panels/precision/panel_precision.h"
#include "panels/quiz/panel_quiz.h"
#include "panels/rotation/panel_rotation.h"
#include "panels/start/panel_start.h"
#include "panels/train/panel_train.h"
#include "panels/waves/panel_waves.h"
#include "panels/worked/panel_worked.h"
#include "pelab/training/transformer.h"

#include <utility>
#include <vector>

namespace pelab {

namespace {

template <typename PanelType> std::unique_ptr<Panel> Make() {
    return std::make_unique<PanelType>();
}

} // namespace

namespace {

// The panels of the sinusoidal encoding's first look: its waves, two positions, its clocks, word
// order, the heatmap (rows of PanelInfos, split so that each list stays short).
std::vector<PanelInfo> FirstLookInfos() {
    // clang-format off
    return {
        {"waves", "Waves: frequency explorer",
         "sin and cos of one pair against position: ω, wavelength, the spectrum of all pairs",
         true, Make<WavesPanel>, WavesPanel::WidgetNames,
         {"d_model", "base", "pos_a", "pair", "many_waves", "many_waves_lanes", "waves_fit"},
         {},
         "waves.wave_plot", 9.0f, "waves.pair_slider",
         "{}"},
        {"compare", "Compare two positions",
         "PE(A) and PE(B) dimension by dimension: dot product, similarity, which pairs differ",
         true, Make<ComparePanel>, ComparePanel::WidgetNames,
         {"d_model", "base", "pos_a", "pos_b", "pair", "shift_k", "compare_dims",
          "compare_range_first", "compare_range_last", "compare_every_k", "compare_source"},
         {},
         "compare.offset_plot", 9.0f, "compare.pos_a_input",
         R"({"d_model": 128, "pos_a": 3, "pos_b": 50})"},
        {"clocks", "Clocks: one hand per pair",
         "every pair as a clock hand turning ω_i per position; pos A, pos B and a shift by k",
         true, Make<ClocksPanel>, ClocksPanel::WidgetNames,
         {"d_model", "base", "pos_a", "pos_b", "pair", "shift_k", "clock_size", "clock_show_b",
          "clock_show_shift"},
         {},
         "clocks.grid", 5.0f, "clocks.shift_k",
         "{}"},
        {"order", "Order: does the model see word order?",
         "\"dog bites man\" vs \"man bites dog\": attention scores with and without PE",
         true, Make<OrderPanel>, OrderPanel::WidgetNames,
         {"base", "pe_enabled", "pe_scale", "sentence_a", "sentence_b", "scale_embeddings",
          "order_d_model", "random_embeddings", "embedding_seed", "order_view", "real_text_a",
          "real_text_b", "real_block", "real_head", "real_switch", "real_shuffle_seed",
          "real_shift"},
         {},
         "order.scores_a", 4.0f, "order.sentence_a",
         "{}"},
        {"heatmap", "PE heatmap: positions × dimensions",
         "the whole PE matrix computed per pixel on the GPU, up to 65 536 × 4 096; zoom, hover, click",
         false, Make<HeatmapPanel>, HeatmapPanel::WidgetNames,
         {"d_model", "base", "pos_a", "pos_b", "pair", "heatmap_max_len", "heatmap_layout",
          "heatmap_both_layouts", "heatmap_grey", "heatmap_similarity", "heatmap_colours"},
         {},
         "heatmap.plot", 6.0f, "heatmap.max_len",
         R"({"heatmap_similarity": true})"},
    };
    // clang-format on
}

// The panels that work with the encoding's numbers, what came after it, and the class's tools.
std::vector<PanelInfo> DeeperInfos() {
    // clang-format off
    return {
        {"calculator", "Calculator: PE(pos) step by step",
         "every dimension worked out: i, 2i/d, base^(2i/d), angle, sin or cos; two positions side by side",
         false, Make<CalculatorPanel>, CalculatorPanel::WidgetNames,
         {"d_model", "base", "pos_a", "pair", "calculator_offset", "calculator_dim_from",
          "calculator_dim_to"},
         {},
         "calculator.table", 6.0f, "calculator.pos_input",
         "{}"},
        {"worked", "Worked example: X = embedding + PE",
         "\"The cat sat\" at d_model 4: editable embeddings, the PE rows, their sum, the same word elsewhere",
         false, Make<WorkedPanel>, WorkedPanel::WidgetNames,
         {"base", "worked_sentence", "worked_d_model", "worked_probe_word",
          "worked_probe_position", "worked_embeddings"},
         {},
         "worked.final_table", 4.0f, "worked.sentence",
         "{}"},
        {"rotation", "Rotation: a shift by k is a fixed turn",
         "PE(pos + k) = R_k·PE(pos) on the unit circle; PE(p)·PE(p + k) depends only on k",
         false, Make<RotationPanel>, RotationPanel::WidgetNames,
         {"d_model", "base", "pos_a", "pair", "shift_k", "rotation_max_k", "rotation_len"},
         {},
         "rotation.circle", 6.0f, "rotation.shift_k",
         "{}"},
        {"precision", "Precision: float32 against exact",
         "the error of the common float32 code, of float32 angles and of pelab_core, positions 1 to 10⁶",
         false, Make<PrecisionPanel>, PrecisionPanel::WidgetNames,
         {"d_model", "base", "precision_position"},
         {},
         "precision.plot", 9.0f, "precision.d_model",
         "{}"},
        {"candidates", "Why the obvious ideas fail",
         "raw index, [0, 1] scaling, binary, digits, random, sin only, learned: each design constraint measured",
         false, Make<CandidatesPanel>, CandidatesPanel::WidgetNames,
         {"d_model", "base", "pos_a", "pair", "candidates_plot", "candidates_length",
          "candidates_positions", "candidates_shift_k", "candidates_embedding",
          "candidates_scale_embedding", "candidates_grid"},
         {},
         "candidates.values", 5.0f, "candidates.choice",
         R"({"candidates_plot": "raw_index", "pos_a": 100, "d_model": 512})"},
        {"alternatives", "What came after: learned, RoPE, ALiBi, T5",
         "a learned table's edge, RoPE's q·k from m − n, ALiBi's slopes, T5's buckets, RoPE's pairings, partial rotary and p-RoPE, xPos, NoPE layers and the causal mask, KERPLE, FIRE, CoPE, long-context scaling",
         false, Make<AlternativesPanel>, AlternativesPanel::WidgetNames,
         AlternativesPanel::SceneFieldNames(),
         {},
         "alternatives.rope_circle", 6.0f, "alternatives.rope_m",
         R"({"alternatives_tab": "rope", "d_model": 128, "pos_a": 40, "pos_b": 12})"},
        {"train", "Train: what the encoding does to a model",
         "a tiny transformer trained once per encoding: live curves, accuracy at longer inputs, attention maps",
         false, Make<TrainPanel>, TrainPanel::WidgetNames,
         {"train_result", "train_view", "train_layer", "train_head"},
         {},
         "train.length_plot", 9.0f, "train.start",
         "{}"},
        {"model", "Your model: a real checkpoint's positions",
         "open GPT-2, BERT, T5, BLOOM, Llama, Qwen, Pythia … weights: learned tables' components, RoPE's pairs, T5's buckets",
         false, Make<ModelPanel>, ModelPanel::WidgetNames,
         {"model_view", "model_3d"},
         {},
         "model.components_plot", 8.0f, "model.three_d",
         "{}", true},
        {"quiz", "Quiz, flashcards and teach-back",
         "predict, then reveal the panel that shows why; flashcards; explain it in your own words",
         false, Make<QuizPanel>, QuizPanel::WidgetNames,
         {"quiz_mode", "quiz_question", "quiz_card", "quiz_card_back", "quiz_shuffle",
          "teach_back_text", "teach_back_ticked"},
         {Command::QuizPredict, Command::QuizReveal, Command::QuizFlip},
         "quiz.question", 2.0f, "quiz.reveal",
         R"({"quiz_question": 2})"},
        {"start", "Start here: where positions enter a transformer",
         "tokens → embeddings + positional encoding → Q, K, V → scores → softmax; each box opens its panel",
         false, Make<StartPanel>, StartPanel::WidgetNames,
         {},
         {},
         "start.pe", 2.0f, "start.tokens",
         "{}"},
    };
    // clang-format on
}

} // namespace

const std::vector<PanelInfo>& PanelInfos() {
    static const std::vector<PanelInfo> infos = [] {
        std::vector<PanelInfo> all = FirstLookInfos();
        for (PanelInfo& info : DeeperInfos())
            all.push_back(std::move(info));
        return all;
    }();
    return infos;
}

const std::vector<const char*>& WindowSceneFields() {
    static const std::vector<const char*> fields = {
        "hide_controls",   "mode",    "font_scale", "theme",      "open_panels",
        "presented_panel", "playing", "play_speed", "play_smooth"};
    return fields;
}

std::string PanelIdList() {
    std::string list;
    for (const PanelInfo& info : PanelInfos())
        list += (list.empty() ? "" : ", ") + std::string(info.id);
    return list;
}

const PanelInfo* FindPanelInfo(const std::string& id) {
    for (const PanelInfo& info : PanelInfos())
        if (id == info.id) return &info;
    return nullptr;
}

bool IsPanelId(const std::string& id) {
    return FindPanelInfo(id) != nullptr;
}

PanelRegistry::PanelRegistry() {
    for (const PanelInfo& info : PanelInfos()) {
        PanelEntry entry;
        entry.id = info.id;
        entry.title = info.title;
        entry.description = info.summary;
        entry.open_by_default = entry.open = info.open_by_default;
        entry.panel = info.make();
        entry.window_name = entry.title + "###" + entry.id;
        entries_.push_back(std::move(entry));
    }
    // The declared widget names, once: lessons and quizzes check every highlight against them.
    for (const PanelInfo& info : PanelInfos())
        for (const WidgetName& widget : info.widgets())
            widget_names_.push_back(widget.name);
}

PanelEntry* PanelRegistry::Find(const std::string& id) {
    for (PanelEntry& entry : entries_)
        if (entry.id == id) return &entry;
    return nullptr;
}

const PanelEntry* PanelRegistry::Find(const std::string& id) const {
    for (const PanelEntry& entry : entries_)
        if (entry.id == id) return &entry;
    return nullptr;
}

PanelEntry* PanelRegistry::ModelViewer() {
    for (PanelEntry& entry : entries_)
        if (const PanelInfo* info = FindPanelInfo(entry.id); info && info->shows_opened_model)
            return &entry;
    return nullptr;
}

std::string PanelRegistry::IdList() const {
    return PanelIdList();
}

bool WidgetNameMatches(const std::string& pattern, const std::string& name) {
    std::size_t p = 0, n = 0;
    while (p < pattern.size()) {
        if (pattern.compare(p, 3, "<i>") == 0) {
            const std::size_t digits_start = n;
            while (n < name.size() && name[n] >= '0' && name[n] <= '9')
                ++n;
            if (n == digits_start) return false;
            p += 3;
        } else if (pattern.compare(p, 8, "<method>") == 0) {
            // Any method's name ("rope" and "rope_half" both start "rope": try each).
            const std::string rest = pattern.substr(p + 8);
            for (const PositionalKind kind : positional_kinds()) {
                const std::string method = positional_kind_name(kind);
                if (name.compare(n, method.size(), method) == 0 &&
                    WidgetNameMatches(rest, name.substr(n + method.size())))
                    return true;
            }
            return false;
        } else {
            if (n >= name.size() || name[n] != pattern[p]) return false;
            ++p, ++n;
        }
    }
    return n == name.size();
}

bool PanelRegistry::IsKnownWidget(const std::string& name) const {
    for (const std::string& pattern : widget_names_)
        if (WidgetNameMatches(pattern, name)) return true;
    return false;
}

std::string PanelRegistry::CheckWidgetName(const std::string& name) const {
    if (IsKnownWidget(name)) return {};
    const std::string suggestions = ClosestNames(name, widget_names_);
    const std::string panel = name.substr(0, name.find('.'));
    return "unknown widget \"" + name + "\"" +
           (suggestions.empty() ? std::string() : " (did you mean " + suggestions + "?)") +
           (suggestions.empty() && IsKnown(panel)
                ? " (`pelab lesson widgets " + panel + "` lists that panel's widgets)"
                : "");
}

std::vector<std::string> PanelRegistry::SlideSceneProblems(const std::string& panel_id,
                                                           const nlohmann::json& scene) const {
    const PanelEntry* entry = Find(panel_id);
    return entry != nullptr ? entry->panel->SlideSceneProblems(scene) : std::vector<std::string>{};
}

} // namespace pelab
