// panel_model.cpp — the Your model panel's state: what it draws of the service's model, its scene
// fields, readouts and widget names; the views are drawn in model_views.cpp.
#include "panels/model/panel_model.h"

#include "io/scene.h"
#include "panels/model/model_sentences.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/sinusoidal.h"
#include "pelab/models/rope_analysis.h"
#include "pelab/models/table_analysis.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace pelab {

namespace {

// What a kind of layer without RoPE does with order, by what it is.
const char* WithoutPositionsText(const LayerPlan& plan) {
    switch (plan.attention) {
    case LayerAttention::Linear:
        return "These layers are linear attention (a recurrence with a causal convolution): no "
               "position encoding; order reaches them through the convolution and the "
               "recurrence, which read the tokens in turn.";
    case LayerAttention::Conv:
        return "These layers are short convolutions, not attention: each token is mixed with "
               "the few tokens just before it, one learned weight per offset, so the kernel "
               "itself tells the neighbours apart; there is no position encoding.";
    case LayerAttention::None:
        return "These layers mix no tokens (a feed-forward or expert block): each token is "
               "transformed alone, so positions play no part in them.";
    default:
        break;
    }
    return plan.temperature_tuned
               ? "These layers have no position encoding (NoPE): their queries are only scaled "
                 "by the position (temperature tuning), which does not tell one order from "
                 "another."
               : "These layers have no position encoding (NoPE): attention sees the tokens "
                 "without their positions; order reaches them through the causal mask and the "
                 "layers before.";
}

constexpr const char* kViews[] = {"components", "similarity", "norms",   "wavelengths", "pairing",
                                  "usage",      "check",      "buckets", "slopes"};

} // namespace

ModelPanel::ModelPanel() = default;

void ModelPanel::Sync(const ModelService* models) const {
    const std::shared_ptr<const OpenedModel> shown = models ? models->Current() : nullptr;
    const std::uint64_t version = shown ? shown->version : 0;
    if (version == synced_version) return;
    synced_version = version;
    if (shown) {
        Rebuild(std::shared_ptr<const ModelReport>(shown, &shown->report), shown->cosines);
        service_report = report;
        layer_built = -2;
        preview = false;
        SyncLayer();
        return;
    }
    // The sinusoidal table alone, until a model is opened.
    auto sinusoid = std::make_shared<ModelReport>();
    sinusoid->found.family = "sinusoidal";
    sinusoid->found.kind = PositionKind::LearnedTable;
    sinusoid->found.table = "PE(pos), base 10 000";
    sinusoid->found.context = kPreviewRows;
    const FloatArray table = pe_matrix(kPreviewRows, kPreviewWidth, 10000.0);
    sinusoid->table.assign(table.begin(), table.end());
    sinusoid->table_report = analyse_table(sinusoid->table, kPreviewRows, kPreviewWidth);
    sinusoid->sinusoid = sinusoid->table;
    sinusoid->sinusoid_report = sinusoid->table_report;
    sinusoid->has_table = true;
    Rebuild(sinusoid, TableCosines::Of(*sinusoid));
    service_report = report;
    layer_built = -2;
    preview = true;
}

void ModelPanel::Rebuild(std::shared_ptr<const ModelReport> shown,
                         const TableCosines& shown_cosines) const {
    const ModelReport& r = *shown;
    table_sentence =
        r.has_table ? TableSentence(r.found, r.table_report, r.sinusoid_report) : Explanation{};
    rope_sentence = r.has_rope ? RopeSentence(r.rope) : Explanation{};
    usage_grid_head = -2; // computed for the new model when first drawn or read
    alibi_sentence = r.alibi_slopes.empty() ? Explanation{} : AlibiSentence(r.alibi_slopes);
    bucket_sentences.clear();
    for (const BucketReport& buckets : r.buckets)
        bucket_sentences.push_back(BucketSentence(buckets));
    cosines = shown_cosines;
    ++cosine_version;
    homes_stale = true;
    report = std::move(shown);
}

const std::vector<double>& ModelPanel::UsageFor() const {
    const RopeReport& rope = report->rope;
    const int head = usage_head >= 0 && usage_head < rope.heads ? usage_head : -1;
    if (head != usage_grid_head) {
        usage_grid = UsageGrid(rope, head);
        usage_sentence = report->has_rope ? UsageSentence(rope, head) : Explanation{};
        usage_grid_head = head;
    }
    return usage_grid;
}

void ModelPanel::AddSceneFields(SceneTable& table) {
    table.Text("model_view",
               "text: the Your model panel's view: components, similarity or norms (a learned "
               "table), wavelengths, pairing, usage or check (RoPE), buckets (T5), slopes (ALiBi)",
               &view, [](const std::string& text) {
                   for (const char* id : kViews)
                       if (text == id) return std::string();
                   return std::string("must be components, similarity, norms, wavelengths, "
                                      "pairing, usage, check, buckets or slopes");
               });
    table.Bool("model_3d", "the Your model panel's components in 3-D", &three_d);
    table.Integer(
        "model_layer",
        "the Your model panel's layer whose kind the RoPE views show (from 0; shown from 1), or -1 "
        "for the schedule's first global rotary layer (a layer the model has not "
        "shows that one)",
        &layer, -1, 100000);
    table.Integer(kCheckFirst, &check_first);
    table.Integer("model_usage_head",
                  "the Your model panel's Usage view: a query head (from 0; shown from 1), or -1 "
                  "for the mean "
                  "over heads (a head the model has not shows the mean)",
                  &usage_head, -1, 4096);
}

std::string ModelPanel::StatusNote(const AppState& state) const {
    Sync(state.models);
    if (state.models && !state.models->Opening().empty())
        return "reading " + std::filesystem::path(state.models->Opening()).filename().string();
    if (preview) return "no model open";
    return report->found.family + ": " + position_kind_name(report->found.kind);
}

nlohmann::json ModelPanel::Readouts(const AppState& state) const {
    Sync(state.models);
    SyncLayer();
    const std::string no_text;
    const std::string& opening = state.models ? state.models->Opening() : no_text;
    const std::string& open_error = state.models ? state.models->OpenError() : no_text;
    // Every key always (null where the model has no such part); with no model open, the
    // sinusoidal table the panel shows.
    const ModelReport& r = *report;
    nlohmann::json out = {{"open", !preview},
                          {"reading", !opening.empty()},
                          {"open_error", open_error},
                          {"view", view},
                          {"file", preview ? "" : r.path},
                          {"format", preview ? "" : r.format},
                          {"family", r.found.family},
                          {"kind", position_kind_name(r.found.kind)},
                          {"context", r.found.context},
                          {"notes", r.found.notes},
                          {"table", nullptr},
                          {"rope", nullptr},
                          {"buckets", nlohmann::json::array()},
                          {"alibi", nullptr},
                          {"layers", nullptr},
                          {"check", nullptr}};
    if (const RopeCheckOutcome* check = CheckOutcomeNow(state)) {
        const RopeCheckResult& result = check->result;
        out["check"] = {{"cos", check_files.cos},
                        {"sin", check_files.sin},
                        {"inv_freq", check_files.inv_freq},
                        {"angles", check_files.angles},
                        {"waiting", check->waiting},
                        {"error", check->error},
                        {"ran", check->ran},
                        {"agrees", result.agrees},
                        {"cause", rope_cause_id(result.agrees ? RopeCause::None : result.cause)},
                        {"verdict", result.verdict},
                        {"layer", check->layer_summary},
                        {"pairs", check->picture.pairs},
                        {"largest_error", check->picture.largest_error}};
    }
    if (!preview && r.has_config && !r.schedule.layers.empty()) {
        const int shown = LayerShown();
        const LayerPlan& plan = r.schedule.layers[shown];
        std::string kind;
        for (const LayerGroup& group : r.schedule.groups)
            if (std::find(group.layers.begin(), group.layers.end(), shown) != group.layers.end())
                kind = group.name;
        out["layers"] = {{"count", r.schedule.layers.size()},
                         {"summary", ScheduleSummary(r.schedule)},
                         {"groups", r.schedule.groups.size()},
                         {"shown", shown},
                         {"shown_kind", kind},
                         {"shown_rotates", plan.rope},
                         {"shown_without_positions", plan.rope ? "" : WithoutPositionsText(plan)}};
    }
    if (r.has_table) {
        const TableReport& t = r.table_report;
        out["table"] = {
            {"name", r.found.table},
            {"rows", t.rows},
            {"cols", t.cols},
            {"first_row", r.found.first_row},
            {"explained", t.explained},
            {"approximate", t.approximate},
            {"explained_error", explained_error(t)},
            {"wavelengths", t.wavelengths},
            {"wave_shares", t.wave_shares},
            {"twin_explained", r.sinusoid_report.explained},
            {"median_norm", t.median_norm},
            {"edge_norm_ratio", t.edge_norm_ratio},
            {"cosine_block", cosines.fine_block},
            {"sentence", preview ? "" : table_sentence.text},
            {"claims", preview ? nlohmann::json::object() : ClaimsJson(table_sentence)}};
    }
    if (r.has_rope) {
        UsageFor();
        out["rope"] = {
            {"rotary_dims", r.rope.rotary_dims},
            {"head_dim", r.rope.head_dim},
            {"pairs", r.rope.pairs},
            {"base", r.rope.base},
            {"wavelengths", r.rope.wavelength},
            {"scaled_wavelengths", r.rope.scaled_wavelength},
            {"scaling", r.rope.scaling},
            {"pairs_without_turn", r.rope.pairs_without_turn},
            {"window", r.rope.window},
            {"pairs_without_turn_in_window", r.rope.pairs_without_turn_in_window},
            {"pairing", r.found.pairing == RotaryPairing::HalfSplit ? "half-split" : "interleaved"},
            {"sentence", rope_sentence.text},
            {"claims", ClaimsJson(rope_sentence)},
            {"usage_head", usage_grid_head},
            {"usage_note", usage_head >= r.rope.heads && r.rope.heads > 1
                               ? "query head " + std::to_string(usage_head + 1) + " is past the " +
                                     std::to_string(r.rope.heads) + " heads: the mean is shown"
                               : ""},
            {"usage_sentence", usage_sentence.text},
            {"usage_layers", r.rope.usage_layers},
            {"weights_note", r.rope.weights_note},
            {"usage_claims", ClaimsJson(usage_sentence)}};
    }
    for (std::size_t i = 0; i < r.buckets.size(); ++i)
        out["buckets"].push_back({{"stack", r.buckets[i].stack},
                                  {"buckets", r.buckets[i].buckets},
                                  {"heads", r.buckets[i].heads},
                                  {"edges", r.buckets[i].edges},
                                  {"sentence", bucket_sentences[i].text},
                                  {"claims", ClaimsJson(bucket_sentences[i])}});
    if (!r.alibi_slopes.empty())
        out["alibi"] = {{"slopes", r.alibi_slopes},
                        {"sentence", alibi_sentence.text},
                        {"claims", ClaimsJson(alibi_sentence)}};
    return out;
}

std::vector<WidgetName> ModelPanel::WidgetNames() {
    return {
        {"model.summary",
         "the line naming the file, the family and where it keeps positions",
         {"family", "kind", "context"}},
        {"model.open_hint", "the sentence saying what to open while no model is open"},
        {"model.table_picker", "the menu reading any 2-D tensor of the file as the table"},
        {"model.error", "why the last file could not be opened", {"open_error"}},
        {"model.tab_components", "the Components tab (a learned table)"},
        {"model.tab_similarity", "the Similarity tab (a learned table)"},
        {"model.tab_norms", "the Norms tab (a learned table)"},
        {"model.tab_wavelengths", "the Wavelengths tab (RoPE)"},
        {"model.tab_pairing", "the Pairing tab (RoPE)"},
        {"model.tab_usage", "the Usage tab (RoPE)"},
        {"model.tab_check", "the Check tab (RoPE): another engine's tables against this one's"},
        {"model.check_hint", "the sentence saying which tables to drop to check them"},
        {"model.check_files", "the line naming the tables dropped", {"check"}},
        {"model.check_clear", "the button forgetting the tables dropped"},
        {"model.check_waiting", "what the check still needs, or why it cannot run", {"check"}},
        {"model.check_verdict",
         "whether the tables agree, and the bug that explains it",
         {"check"}},
        ControlWidget(kCheckPair),
        ControlWidget(kCheckFirst, "box"),
        {"model.check_details", "where the tables part and by how much", {"check"}},
        {"model.check_curve", "the engine's curve of the pair beside the reference's", {"check"}},
        {"model.check_map", "the difference over positions × pairs (click: that pair)", {"check"}},
        {"model.schedule_summary",
         "the line saying what each kind of layer does with positions",
         {"layers"}},
        {"model.schedule_strip", "the strip of layers, one cell each coloured by kind", {"layers"}},
        {"model.schedule_kind",
         "the menu choosing the kind of layer the RoPE views show",
         {"layers"}},
        {"model.rope_none", "the line saying the chosen layers have no position encoding"},
        {"model.usage_needs_weights", "the line saying the Usage view needs the weights"},
        {"model.colour_note", "the line saying what the points' colour means"},
        {"model.wavelength_note", "the line listing the components' wavelengths", {"table"}},
        {"model.components_plot",
         "the table's positions along its first principal components",
         {"table"}},
        {"model.twin_plot", "the same components of the sinusoidal table of the same size"},
        {"model.three_d", "the 3-D checkbox of the components view"},
        ControlWidget(kModelTurn),
        {"model.table_sentence", "the sentence about the table's components and edge", {"table"}},
        {"model.cosine_plot", "the cosine similarity of every two rows of the table", {"table"}},
        {"model.twin_cosine_plot", "the same for the sinusoidal table"},
        {"model.norms_plot",
         "each row's norm against its position, the last 16 rows marked",
         {"table"}},
        {"model.neighbour_plot", "each row's cosine with the next row"},
        {"model.wavelength_plot",
         "each RoPE pair's wavelength against the trained context",
         {"rope"}},
        {"model.rope_sentence", "the sentence about the pairs' wavelengths", {"rope"}},
        {"model.pairing_picture", "a head's dimensions with the family's pairs joined", {"rope"}},
        {"model.usage_picture",
         "the weights' per-pair usage, layers × pairs, of one query head or the mean over heads",
         {"rope"}},
        {"model.usage_head", "the Usage view's menu choosing a query head or the mean"},
        {"model.usage_note", "the line saying a chosen query head is past the model's heads"},
        {"model.usage_sentence", "the sentence about where the usage sits", {"rope"}},
        {"model.bucket_plot",
         "each head's T5 bias against key − query, bucket edges marked",
         {"buckets"}},
        {"model.bucket_sentence", "the sentence about the buckets", {"buckets"}},
        {"model.slope_plot", "ALiBi's slope of each head", {"alibi"}},
        {"model.alibi_sentence", "the sentence about the slopes", {"alibi"}},
    };
}

void ModelPanel::Draw(FrameContext& frame) {
    const ModelService* models = frame.state.models;
    Sync(models);
    SyncLayer();
    if (homes_stale) {
        for (plot::PlotView* each :
             {&components_view, &twin_view, &norms_view, &neighbour_view, &wavelength_view,
              &bucket_view, &slope_view, &cosine_view, &twin_cosine_view})
            each->has_home = false;
        homes_stale = false;
    }
    const std::string no_text;
    const std::string& opening = models ? models->Opening() : no_text;
    const std::string& open_error = models ? models->OpenError() : no_text;
    if (!opening.empty()) {
        frame.stats.computing = true;
        ImGui::TextColored(frame.ColorVec(Role::Muted), "Reading %s …",
                           std::filesystem::path(opening).filename().string().c_str());
    }
    if (!open_error.empty()) {
        ErrorText(frame, open_error.c_str());
        frame.Record("model.error");
    }
    if (preview) DrawNothingOpen(frame);
    const ModelReport& r = *report;
    char line[512];
    std::snprintf(
        line, sizeof line, "%s — %s: %s%s", r.found.family.c_str(),
        std::filesystem::path(r.path).filename().string().c_str(), position_kind_name(r.found.kind),
        r.found.context > 0 ? (", context " + std::to_string(r.found.context)).c_str() : "");
    if (!preview) {
        WrappedText(line);
        frame.Record("model.summary");
    }
    if (!r.found.notes.empty() && ImGui::IsItemHovered()) {
        std::string notes;
        for (const std::string& note : r.found.notes)
            notes += "• " + note + "\n";
        Tooltip("%s", notes.c_str());
    }
    // In a short window (a projector) the menu gives its line to the pictures, except where
    // nothing of a known family was found and the menu is all there is: a short menu on the
    // summary's line instead (beside it when it fits, else under it).
    if (!preview && frame.show_controls && !r.tensors_2d.empty()) {
        const bool compact = frame.pictures_first && r.found.kind != PositionKind::None;
        if (compact) SameLineIfFits(ImGui::CalcTextSize("table").x + ImGui::GetFrameHeight() * 2);
        DrawTablePicker(frame, compact);
    }
    if (!preview) DrawSchedule(frame);
    switch (r.found.kind) {
    case PositionKind::LearnedTable:
        DrawTable(frame);
        break;
    case PositionKind::Rope:
        DrawRope(frame);
        break;
    case PositionKind::RelativeBuckets:
        DrawBuckets(frame);
        break;
    case PositionKind::Alibi:
        DrawSlopes(frame);
        break;
    case PositionKind::None:
        // A plan whose layers all lack positions (Nemotron-H, a model of NoPE layers): its notes
        // say why; a file of no known family: what else can be read.
        if (!service_report->schedule.layers.empty() && !r.found.notes.empty()) {
            for (const std::string& note : r.found.notes)
                WrappedText(note.c_str());
            MutedWrappedText(WithoutPositionsText(service_report->schedule.layers[LayerShown()]));
            break;
        }
        MutedWrappedText(r.tensors_2d.empty()
                             ? "No position tensor of a known family was found in this file, and "
                               "it holds no 2-D float tensor to read as one."
                             : "No position tensor of a known family was found in this file. "
                               "Choose any 2-D tensor of it above to read as a position table "
                               "(or `pelab model inspect FILE --table NAME`).");
        break;
    }
}

void ModelPanel::DrawTablePicker(FrameContext& frame, bool compact) {
    // Any 2-D float tensor of the file read as a position table (a family PE Lab does not know,
    // or another look at one it does); the family's own parts again with the first entry.
    const ModelReport& r = *report;
    ModelService* models = frame.state.models;
    const ModelRequest shown_request =
        models && models->Current() ? models->Current()->request : ModelRequest{};
    const std::string own = "the family's own parts";
    const std::string current = shown_request.table.empty() ? own : shown_request.table;
    const char* label = compact ? "##table_compact" : "read as the table";
    ImGui::SetNextItemWidth(compact
                                ? ImGui::CalcTextSize("table").x + ImGui::GetFrameHeight() * 1.5f
                                : FitWidth(24.0f, label));
    std::string chosen;
    bool picked = false;
    if (ImGui::BeginCombo(label, compact ? "table" : current.c_str())) {
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        ImGui::SetNextItemWidth(-1);
        ImGui::InputTextWithHint("##table_filter", "filter by name", &table_filter);
        if (ImGui::Selectable(own.c_str(), shown_request.table.empty())) picked = true;
        for (const std::string& name : r.tensors_2d) {
            if (!table_filter.empty() && name.find(table_filter) == std::string::npos) continue;
            if (ImGui::Selectable(name.c_str(), name == shown_request.table)) {
                chosen = name;
                picked = true;
            }
        }
        ImGui::EndCombo();
    }
    frame.Record("model.table_picker");
    FormulaTooltip(compact ? ("Read as the table: " + current +
                              ". Reads the chosen tensor's rows as positions (row 0 = position 0); "
                              "the family's own parts come back with the first entry.")
                                 .c_str()
                           : "Reads the chosen tensor's rows as positions (row 0 = position 0) "
                             "and shows the table's views; the family's own parts come back "
                             "with the first entry.");
    if (picked && chosen != shown_request.table && models) {
        ModelRequest request = shown_request;
        request.table = chosen;
        if (std::string error = models->Open(request); !error.empty())
            models->NoteError(std::move(error));
    }
}

void ModelPanel::DrawNothingOpen(FrameContext& frame) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "No model open (File → Open a checkpoint; docs/models.md). Meanwhile: the "
                  "sinusoidal table, %d × %d.",
                  kPreviewRows, kPreviewWidth);
    WrappedText(line);
    if (ImGui::IsItemHovered())
        Tooltip("Open with File → Open, or drop on the window: a folder holding "
                "model.safetensors and config.json\n(from a model's Hugging Face page: "
                "GPT-2, BERT, T5, BLOOM, Llama, Qwen, Pythia, …), a sharded model's\n"
                "model.safetensors.index.json, or a .npy table of your own. Only the "
                "parts that hold positions are read.");
    frame.Record("model.open_hint");
}

void ModelPanel::DrawTabs(FrameContext& frame, const char* bar, const ViewTab* tabs_shown,
                          int count) {
    // The scene's view when it is one of these tabs, else the first.
    const char* chosen = tabs_shown[0].id;
    for (int k = 0; k < count; ++k)
        if (view == tabs_shown[k].id) chosen = tabs_shown[k].id;
    if (!tabs.BeginBar(bar)) return;
    std::string shown = chosen;
    for (int k = 0; k < count; ++k) {
        const ViewTab& tab = tabs_shown[k];
        if (tabs.Tab(tab.label, tab.id, &shown)) {
            if (tabs.TabInView()) frame.Record(tab.record);
            (this->*tab.draw)(frame);
            ImGui::EndTabItem();
        }
    }
    tabs.EndBar();
    if (shown != chosen) view = shown;
}

void ModelPanel::DrawTable(FrameContext& frame) {
    static constexpr ViewTab kTabs[] = {
        {"Components", "components", "model.tab_components", &ModelPanel::DrawComponents},
        {"Similarity", "similarity", "model.tab_similarity", &ModelPanel::DrawSimilarity},
        {"Norms", "norms", "model.tab_norms", &ModelPanel::DrawNorms}};
    DrawTabs(frame, "##model_table_tabs", kTabs, 3);
}

void ModelPanel::DrawRope(FrameContext& frame) {
    if (!report->has_rope) {
        // A kind of layer chosen on the strip that has no position encoding at all.
        const LayerSchedule& schedule = service_report->schedule;
        const LayerPlan& plan = schedule.layers[LayerShown()];
        MutedWrappedText(WithoutPositionsText(plan));
        frame.Record("model.rope_none");
        return;
    }
    static constexpr ViewTab kTabs[] = {
        {"Wavelengths", "wavelengths", "model.tab_wavelengths", &ModelPanel::DrawWavelengths},
        {"Pairing", "pairing", "model.tab_pairing", &ModelPanel::DrawPairing},
        {"Usage", "usage", "model.tab_usage", &ModelPanel::DrawUsage},
        {"Check", "check", "model.tab_check", &ModelPanel::DrawCheck}};
    DrawTabs(frame, "##model_rope_tabs", kTabs, 4);
}

} // namespace pelab
