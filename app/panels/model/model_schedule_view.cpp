// model_schedule_view.cpp — the Your model panel's schedule strip: one cell per layer, coloured
// by what the layer does with positions (pelab/models/layer_schedule.h), and the layer kind the
// RoPE views show (a copy of the report with that kind's numbers).
#include "panels/model/model_sentences.h"
#include "panels/model/panel_model.h"
#include "pelab/models/layer_schedule.h"
#include "pelab/models/rope_analysis.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>

namespace pelab {

namespace {

// The group a layer belongs to (its index in schedule.groups).
int GroupOf(const LayerSchedule& schedule, int layer) {
    for (std::size_t g = 0; g < schedule.groups.size(); ++g)
        for (int index : schedule.groups[g].layers)
            if (index == layer) return static_cast<int>(g);
    return 0;
}

// A group's name in a few words, for the legend: where its layers look ("sliding 1024",
// "chunked 8192", "global") when they rotate, else what gives them positions.
std::string ShortName(const LayerPlan& plan) {
    if (plan.attention == LayerAttention::Linear) return "linear attention";
    if (plan.attention == LayerAttention::Conv) return "convolution";
    if (plan.attention == LayerAttention::None) return "feed-forward only";
    if (plan.positions == PositionKind::None) return "attention, no positions";
    if (plan.positions != PositionKind::Rope) return position_kind_name(plan.positions);
    switch (plan.attention) {
    case LayerAttention::Sliding:
        return "sliding " + std::to_string(plan.span);
    case LayerAttention::Chunked:
        return "chunked " + std::to_string(plan.span);
    default:
        return "global";
    }
}

// A group's colour, by what its layers do, so a colour means one thing in every model: the
// layers without positions muted; global, sliding and chunked RoPE layers (or a bias) each their
// own colour; a second group of one meaning takes the next colour free.
ImU32 GroupColor(const FrameContext& frame, const LayerSchedule& schedule, int group) {
    static constexpr Role kCycle[] = {Role::Accent,   Role::PosA, Role::PosB,
                                      Role::ShiftArc, Role::Cos,  Role::Sin};
    const auto preferred = [&](int g) {
        const LayerPlan& plan = schedule.layers[schedule.groups[g].first];
        if (plan.positions == PositionKind::None) return -1;
        if (plan.positions != PositionKind::Rope) return 0;
        return plan.attention == LayerAttention::Sliding   ? 1
               : plan.attention == LayerAttention::Chunked ? 2
                                                           : 0;
    };
    bool taken[6] = {};
    int choice = -1;
    for (int g = 0; g <= group; ++g) {
        int slot = preferred(g);
        if (slot < 0) continue;
        while (taken[slot % 6] && slot < 12)
            ++slot;
        taken[slot % 6] = true;
        choice = slot % 6;
    }
    if (preferred(group) >= 0) return frame.Color(kCycle[choice]);
    // Without positions, each kind its own shade of the muted colour, so a hybrid's strip
    // (Nemotron-H: Mamba-2, attention, experts) still shows its pattern: attention full, the
    // recurrent and convolution layers lighter, the layers that mix no tokens lighter still.
    const LayerAttention attention = schedule.layers[schedule.groups[group].first].attention;
    const float alpha = attention == LayerAttention::None ? 0.3f
                        : attention == LayerAttention::Linear || attention == LayerAttention::Conv
                            ? 0.6f
                            : 1.0f;
    ImVec4 muted = ImGui::ColorConvertU32ToFloat4(frame.Color(Role::Muted));
    muted.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(muted);
}

// The report with the RoPE numbers of layer's kind in place of the shown kind's: base, widths,
// pairing, contexts, wavelengths, scaling and attention factor. The weights' usage is kept when
// the kind rotates as many pairs (it is per layer already), else dropped.
std::shared_ptr<const ModelReport> ReportForLayer(const ModelReport& shown, const LayerPlan& plan) {
    auto copy = std::make_shared<ModelReport>(shown);
    if (!plan.rope) {
        copy->has_rope = false;
        return copy;
    }
    const CheckpointConfig config = ConfigOfLayer(shown.config, plan);
    FoundPositions& found = copy->found;
    UseLayerPositions(config, plan, &found);
    RopeReport fresh;
    rope_frequencies(found, config, &fresh);
    // The usage of this kind's layers, measured with its widths (none without weights: the
    // usage view then says it needs them).
    fresh.usage_groups = shown.rope.usage_groups;
    fresh.layers = 0;
    const int group = GroupOf(shown.schedule, plan.index);
    for (const RopeUsage& usage : shown.rope.usage_groups)
        if (usage.group == group && usage.pairs == fresh.pairs) UseGroup(usage, &fresh);
    copy->rope = std::move(fresh);
    copy->has_rope = true;
    return copy;
}

} // namespace

int ModelPanel::LayerShown() const {
    const ModelReport& r = service_report ? *service_report : *report;
    const int count = static_cast<int>(r.schedule.layers.size());
    if (count == 0) return -1;
    if (layer >= 0 && layer < count) return layer;
    return r.schedule.shown_layer >= 0 ? r.schedule.shown_layer : 0;
}

void ModelPanel::SyncLayer() const {
    if (!service_report) return;
    const int shown = LayerShown();
    if (shown == layer_built) return;
    layer_built = shown;
    const ModelReport& r = *service_report;
    // The schedule's own layer is the report as it came; another kind of layer gets its copy.
    const bool own = shown < 0 || r.found.kind != PositionKind::Rope ||
                     GroupOf(r.schedule, shown) == GroupOf(r.schedule, r.schedule.shown_layer);
    Rebuild(own ? service_report : ReportForLayer(r, r.schedule.layers[shown]), cosines);
}

void ModelPanel::DrawSchedule(FrameContext& frame) {
    const ModelReport& r = service_report ? *service_report : *report;
    const LayerSchedule& schedule = r.schedule;
    const int count = static_cast<int>(schedule.layers.size());
    if (count == 0 || !r.has_config) return;
    const int shown = LayerShown();
    const int shown_group = GroupOf(schedule, shown);
    // The line a student reads at a glance (in a short window the strip's tooltip and menu say
    // it, leaving the height to the pictures), then the strip when the layers differ.
    // Layers counted from 1 on screen, as the Real model view counts blocks (JSON: from 0).
    const std::string summary = r.found.family + ", " + ScheduleSummary(schedule, 1);
    if (!frame.pictures_first) {
        WrappedText(summary.c_str());
        frame.Record("model.schedule_summary");
    }
    if (schedule.groups.size() == 1) return;
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = ImGui::GetFontSize() * 1.1f;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##model_schedule", ImVec2(width, height));
    frame.Record("model.schedule_strip");
    const bool hovered = ImGui::IsItemHovered();
    const float cell = width / static_cast<float>(count);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (int i = 0; i < count; ++i) {
        const int group = GroupOf(schedule, i);
        const ImVec2 a(origin.x + cell * static_cast<float>(i), origin.y);
        const ImVec2 b(origin.x + cell * static_cast<float>(i + 1) - (cell > 4 ? 1.0f : 0.0f),
                       origin.y + height);
        draw->AddRectFilled(a, b, GroupColor(frame, schedule, group));
        if (group == shown_group)
            draw->AddRectFilled(ImVec2(a.x, b.y - frame.Px(3)), b, frame.Color(Role::Highlight));
    }
    draw->AddRect(ImVec2(origin.x + cell * static_cast<float>(shown), origin.y),
                  ImVec2(origin.x + cell * static_cast<float>(shown + 1), origin.y + height),
                  frame.Color(Role::Highlight), 0, 0, frame.Px(2));
    if (hovered) {
        const int at = std::clamp(
            static_cast<int>((ImGui::GetIO().MousePos.x - origin.x) / std::max(cell, 1e-3f)), 0,
            count - 1);
        Tooltip("layer %d: %s\n\n%s", at + 1, schedule.groups[GroupOf(schedule, at)].name.c_str(),
                summary.c_str());
        if (ImGui::IsItemClicked()) layer = at;
    }
    // The legend is the choice of the kind shown: each kind's colour, count and short name, one
    // button each (the keyboard's and a clicker's way to the strip), on as few lines as fit; the
    // full name and the layers in its tooltip.
    const float box = ImGui::GetFontSize() * 0.8f;
    const ImGuiStyle& style = ImGui::GetStyle();
    for (std::size_t g = 0; g < schedule.groups.size(); ++g) {
        const LayerGroup& group = schedule.groups[g];
        const std::string text = std::to_string(group.layers.size()) + " " +
                                 ShortName(schedule.layers[static_cast<std::size_t>(group.first)]) +
                                 "##kind" + std::to_string(g);
        const float label = ImGui::CalcTextSize(text.c_str(), nullptr, true).x;
        const float needed = box + style.ItemInnerSpacing.x + label + style.ItemSpacing.x;
        if (g > 0 && ImGui::GetContentRegionAvail().x > needed) ImGui::SameLine();
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float drop = (ImGui::GetTextLineHeight() - box) / 2;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, at.y + drop),
                                                  ImVec2(at.x + box, at.y + drop + box),
                                                  GroupColor(frame, schedule, static_cast<int>(g)));
        ImGui::Dummy(ImVec2(box, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, style.ItemInnerSpacing.x);
        if (ImGui::Selectable(text.c_str(), static_cast<int>(g) == shown_group, 0,
                              ImVec2(label, 0)))
            layer = group.layers[0];
        if (ImGui::IsItemHovered())
            Tooltip("%zu layers: %s\nlayers %s", group.layers.size(), group.name.c_str(),
                    LayerList(group.layers, 1).c_str());
        frame.Record("model.schedule_kind");
    }
}

} // namespace pelab
