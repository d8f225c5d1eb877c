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

// Each tab's maker, from its file.
std::unique_ptr<AlternativesTab> MakeLearnedTab();
std::unique_ptr<AlternativesTab> MakeRopeTab();
std::unique_ptr<AlternativesTab> MakeAlibiTab();
std::unique_ptr<AlternativesTab> MakeT5Tab();
std::unique_ptr<AlternativesTab> MakePairingTab();
std::unique_ptr<AlternativesTab> MakeXposTab();
std::unique_ptr<AlternativesTab> MakePartialTab();
std::unique_ptr<AlternativesTab> MakeNopeTab();
std::unique_ptr<AlternativesTab> MakeCopeTab();
std::unique_ptr<AlternativesTab> MakeKerpleTab();
std::unique_ptr<AlternativesTab> MakeFireTab();
std::unique_ptr<AlternativesTab> MakeScalingTab();
std::unique_ptr<AlternativesTab> MakeTableTab();

const std::vector<AlternativesTabInfo>& AlternativesTabs() {
    static const std::vector<AlternativesTabInfo> tabs = {
        {"learned", "Learned table", "one trained vector per position", MakeLearnedTab},
        {"rope", "RoPE", "q and k turned by their positions", MakeRopeTab},
        {"alibi", "ALiBi", "a distance penalty added to attention scores", MakeAlibiTab},
        {"t5", "T5 buckets", "a learned bias per distance bucket", MakeT5Tab},
        {"pairing", "RoPE pairs", "the two ways code pairs RoPE's dimensions", MakePairingTab},
        {"partial", "Partial", "partial rotary against p-RoPE", MakePartialTab},
        {"xpos", "xPos", "RoPE whose pairs fade with distance", MakeXposTab},
        {"nope", "NoPE", "layers without positions, and what the causal mask tells", MakeNopeTab},
        {"kerple", "KERPLE", "biases that flatten with distance", MakeKerpleTab},
        {"fire", "FIRE", "a learned function of the normalised distance", MakeFireTab},
        {"cope", "CoPE", "positions the query counts itself", MakeCopeTab},
        {"scaling", "Long context", "stretching RoPE to longer contexts", MakeScalingTab},
        {"table", "Side by side", "every method compared at once", MakeTableTab},
    };
    return tabs;
}

AlternativesPanel::AlternativesPanel() {
    for (const AlternativesTabInfo& each : AlternativesTabs())
        parts.push_back(each.make());
}

std::string AlternativesTabList() {
    const std::vector<AlternativesTabInfo>& tabs = AlternativesTabs();
    std::string list;
    for (std::size_t t = 0; t < tabs.size(); ++t)
        list += std::string(t == 0 ? "" : t + 1 == tabs.size() ? " or " : ", ") + tabs[t].id;
    return list;
}

void SentenceAndPlots::Begin(FrameContext& frame, const std::string& sentence, const char* record) {
    sentence_ = &sentence;
    record_ = record;
    if (!frame.pictures_first) Say(frame);
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // On a projector the sentence follows the plots: they leave it its height.
    const float sentence_height =
        frame.pictures_first
            ? ImGui::CalcTextSize(sentence.c_str(), nullptr, false, avail.x).y + font
            : 0.0f;
    // At least 12 lines: with a legend of two rows and both axes titled, a plot of 9 lines
    // kept about 4 for its data at 1024×768, text ×2 (the sentence scrolls instead).
    height = std::max(font * 12.0f, (avail.y - sentence_height) * 0.97f);
    half_width = (avail.x - ImGui::GetStyle().ItemSpacing.x) / 2;
}

void SentenceAndPlots::End(FrameContext& frame) const {
    if (frame.pictures_first) Say(frame);
}

void SentenceAndPlots::Say(FrameContext& frame) const {
    WrappedText(sentence_->c_str());
    frame.Record(record_);
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
    for (std::size_t t = 0; t < parts.size(); ++t) {
        const AlternativesTabInfo& each = AlternativesTabs()[t];
        const bool open = tabs.Tab(each.title, each.id, &tab);
        // A tab scrolled out of a narrow bar is not outlined (it is not on screen).
        if (tabs.TabInView()) frame.Record((std::string("alternatives.tab_") + each.id).c_str());
        if (open) {
            if (tabs.ChosenNow()) parts[t]->Opened(frame.state);
            parts[t]->Draw(*this, frame);
            EndPanelBody(frame); // the body a strip opened belongs inside this tab
            ImGui::EndTabItem();
        }
    }
    tabs.EndBar();
}

void AlternativesPanel::AddSceneFields(SceneTable& table) {
    table.Text("alternatives_tab", AlternativesTabList().c_str(), &tab,
               [](const std::string& text) {
                   for (const AlternativesTabInfo& each : AlternativesTabs())
                       if (text == each.id) return std::string();
                   return "must be " + AlternativesTabList();
               });
    // The q and k every RoPE tab reads, then each tab's own.
    table.Integer(kRopeSeed, &rope_seed);
    table.Bool("rope_typed", "RoPE uses rope_q and rope_k instead of seeded vectors", &rope_typed);
    for (auto [name, target] : {std::pair{"rope_q", &rope_q}, std::pair{"rope_k", &rope_k}})
        table.Text(name, "text: 2 to 64 numbers within ±1e6 (an even count), the typed q or k",
                   target, [](const std::string& text) { return ParseRopeVector(text, nullptr); });
    for (const std::unique_ptr<AlternativesTab>& part : parts)
        part->AddFields(table);
}

std::vector<const char*> AlternativesPanel::SceneFieldNames() {
    // The names live as long as the program, as the registry's string literals do.
    static const std::vector<std::string> own = [] {
        AlternativesPanel panel;
        SceneTable table;
        panel.AddSceneFields(table);
        std::vector<std::string> names;
        for (const SceneField& field : table.Fields())
            names.push_back(field.name);
        return names;
    }();
    std::vector<const char*> names = {"d_model", "base", "pos_a", "pos_b", "pair"};
    for (const std::string& name : own)
        names.push_back(name.c_str());
    return names;
}

std::string AlternativesPanel::StatusNote(const AppState& /*state*/) const {
    return "tab: " + tab;
}

nlohmann::json AlternativesPanel::Readouts(const AppState& state) const {
    nlohmann::json readouts = {{"tab", tab}};
    for (const std::unique_ptr<AlternativesTab>& part : parts)
        readouts.update(part->Readouts(*this, state));
    return readouts;
}

std::vector<WidgetName> AlternativesPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp): each
    // tab's, from its file, and the tabs themselves.
    std::vector<WidgetName> names;
    for (const AlternativesTabInfo& each : AlternativesTabs()) {
        names.push_back({std::string("alternatives.tab_") + each.id,
                         std::string("the ") + each.title + " tab: " + each.summary});
        for (WidgetName& name : each.make()->Widgets())
            names.push_back(std::move(name));
    }
    return names;
}

} // namespace pelab
