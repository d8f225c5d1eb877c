// panel_alternatives.cpp — the alternatives panel: its tabs, one row each in AlternativesTabs()
// (each tab's drawing, settings, readouts and widget names in its own file,
// alternatives_<id>.cpp), and what the tabs share.
#include "panels/alternatives/panel_alternatives.h"

#include "io/scene.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace pelab {

const std::vector<AlternativesTab>& AlternativesTabs() {
    using P = AlternativesPanel;
    static const std::vector<AlternativesTab> tabs = {
        {"learned", "Learned table", "one trained vector per position", &P::DrawLearned,
         &P::AddLearnedFields, &P::LearnedReadouts, &P::LearnedWidgets, &P::LearnedRow},
        {"rope", "RoPE", "q and k turned by their positions", &P::DrawRope, &P::AddRopeFields,
         &P::RopeReadouts, &P::RopeWidgets, &P::RopeRow},
        {"alibi", "ALiBi", "a distance penalty added to attention scores", &P::DrawAlibi,
         &P::AddAlibiFields, &P::AlibiReadouts, &P::AlibiWidgets, &P::AlibiRow},
        {"t5", "T5 buckets", "a learned bias per distance bucket", &P::DrawT5, &P::AddT5Fields,
         &P::T5Readouts, &P::T5Widgets, &P::T5Row},
        {"pairing", "RoPE pairs", "the two ways code pairs RoPE's dimensions", &P::DrawPairing,
         nullptr, &P::PairingReadouts, &P::PairingWidgets, nullptr},
        {"scaling", "Long context", "stretching RoPE to longer contexts", &P::DrawScaling,
         &P::AddScalingFields, &P::ScalingReadouts, &P::ScalingWidgets, nullptr},
        {"table", "Side by side", "every method compared at once", &P::DrawSideBySide, nullptr,
         &P::TableReadouts, &P::TableWidgets, nullptr},
    };
    return tabs;
}

std::string AlternativesTabList() {
    const std::vector<AlternativesTab>& tabs = AlternativesTabs();
    std::string list;
    for (std::size_t t = 0; t < tabs.size(); ++t)
        list += std::string(t == 0 ? "" : t + 1 == tabs.size() ? " or " : ", ") + tabs[t].id;
    return list;
}

float RemainingHeight(float lines) {
    return std::max(ImGui::GetFontSize() * lines, ImGui::GetContentRegionAvail().y);
}

void AlternativesBasePresets(FrameContext& frame, FlowRow& row, const char* record) {
    row.Item(ButtonWidth("base 10 000") + ButtonWidth("500 000 (Llama 3)") + FlowRow::Spacing());
    if (ImGui::Button("base 10 000")) frame.state.base = 10000;
    frame.Record(record);
    ImGui::SameLine();
    if (ImGui::Button("500 000 (Llama 3)")) frame.state.base = 500000;
    FormulaTooltip("Llama 3 uses RoPE with base (rope_theta) 500 000. The base above 10⁶ is "
                   "outside PE Lab's shared range, so larger bases are not offered.");
}

void AlternativesPanel::Draw(FrameContext& frame) {
    if (!input_error.empty()) ErrorText(frame, input_error.c_str());
    if (!tabs.BeginBar("##alternatives")) return;
    for (const AlternativesTab& each : AlternativesTabs()) {
        const bool open = tabs.Tab(each.title, each.id, &tab);
        frame.Record((std::string("alternatives.tab_") + each.id).c_str());
        if (open) {
            (this->*each.draw)(frame);
            EndPanelBody(frame); // the body a strip opened belongs inside this tab
            ImGui::EndTabItem();
        }
    }
    tabs.EndBar();
}

void AlternativesPanel::AddSceneFields(SceneTable& table) {
    table.Text("alternatives_tab", AlternativesTabList().c_str(), &tab,
               [](const std::string& text) {
                   for (const AlternativesTab& each : AlternativesTabs())
                       if (text == each.id) return std::string();
                   return "must be " + AlternativesTabList();
               });
    for (const AlternativesTab& each : AlternativesTabs())
        if (each.add_fields != nullptr) (this->*each.add_fields)(table);
}

std::string AlternativesPanel::StatusNote() const {
    return "tab: " + tab;
}

nlohmann::json AlternativesPanel::Readouts(const AppState& state) const {
    nlohmann::json readouts = {{"tab", tab}};
    for (const AlternativesTab& each : AlternativesTabs())
        readouts.update((this->*each.readouts)(state));
    return readouts;
}

std::vector<WidgetName> AlternativesPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp): each
    // tab's, from its file, and the tabs themselves.
    std::vector<WidgetName> names;
    for (const AlternativesTab& each : AlternativesTabs()) {
        names.push_back({std::string("alternatives.tab_") + each.id,
                         std::string("the ") + each.title + " tab: " + each.summary});
        for (WidgetName& name : each.widgets())
            names.push_back(std::move(name));
    }
    return names;
}

} // namespace pelab
