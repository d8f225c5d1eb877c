#include "panels/start/panel_start.h"

#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>

namespace pelab {

const std::vector<StartStage>& StartStages() {
    // Each sentence fits two lines beside its box on a 1024×768 screen at text ×2.
    static const std::vector<StartStage> stages = {
        {"tokens", "Tokens", "The text is cut into tokens. Attention alone sees no order in them.",
         "order", ""},
        {"embeddings", "Embeddings",
         "Each token becomes a vector: the same word, the same vector, anywhere.", "worked", ""},
        {"pe", "Positional encoding",
         "Added to it: a vector of the position alone, sin and cos pairs.", "waves", ""},
        {"qkv", "Q, K, V",
         "Each sum gives a query, a key and a value (RoPE turns q and k instead).", "alternatives",
         R"({"alternatives_tab": "rope"})"},
        {"scores", "Attention scores",
         "Query · key for every pair; PE(p)·PE(q) alone depends only on p − q.", "compare", ""},
        {"softmax", "Softmax", "Each row of scores becomes weights that add up to 1.", "order", ""},
    };
    return stages;
}

void StartPanel::Draw(FrameContext& frame) {
    // A short window (1024×768 at text ×2, or under a lesson's bar) tightens the map so that
    // the six rows stay whole: first it leaves out the hint under the map (each box's tooltip
    // says the same), then it shortens the arrows, then its text is drawn at 0.85 of the size;
    // one step more each frame the map ran past the window's bottom, none again at a new height.
    const float region_height = ImGui::GetContentRegionAvail().y;
    if (region_height != fitted_height) {
        fitted_height = region_height;
        compact = 0;
    } else if (compact < 3 && ImGui::GetScrollMaxY() > 0.0f) {
        ++compact;
    }
    // On a tall window the map grows with it, up to twice the text size, to be read from the
    // back of a room: the column takes about 17 text lines (six rows of two, five arrows and the
    // hint). The rows then share the height.
    const float lines_needed = 17.0f * ImGui::GetTextLineHeightWithSpacing();
    ImGui::SetWindowFontScale(compact >= 3 ? 0.85f
                                           : std::clamp(region_height / lines_needed, 1.0f, 2.0f));
    const float font = ImGui::GetFontSize();
    const ImGuiStyle& style = ImGui::GetStyle();
    const float gap = style.ItemSpacing.y * 0.5f;
    const int rows = static_cast<int>(StartStages().size());
    // The boxes in a column, each sentence beside its box (below it when the window is narrow),
    // all six in view on a 1024×768 screen at text ×2: a box at least two lines of text tall.
    const ImVec2 region = ImGui::GetContentRegionAvail();
    const float avail = region.x;
    const float box_width = std::clamp(avail * 0.28f, std::min(font * 9.0f, avail), font * 14.0f);
    const bool beside = avail - box_width - style.ItemSpacing.x >= font * 12.0f;
    const float two_lines = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetTextLineHeight();
    const float hint_height = ImGui::GetTextLineHeightWithSpacing() + style.ItemSpacing.y;
    const bool hint = compact < 1;
    const float arrow = font * (compact >= 2 ? 0.6f : 0.8f);
    const float shared =
        (region.y - (rows - 1) * arrow - (2 * rows) * gap - (hint ? hint_height : 0.0f)) / rows;
    const float box_height =
        beside ? std::max({ImGui::GetFrameHeight() * 1.2f, two_lines, shared}) : two_lines;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const std::vector<StartStage>& stages = StartStages();
    // Half the usual gap between the rows: the arrows separate them.
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(style.ItemSpacing.x, gap));
    for (std::size_t k = 0; k < stages.size(); ++k) {
        const StartStage& stage = stages[k];
        const bool pe = std::string(stage.id) == "pe";
        ImGui::PushID(stage.id);
        ImGui::BeginGroup();
        // The positional encoding is the app's subject: its box in the accent colour.
        if (pe) {
            ImGui::PushStyleColor(ImGuiCol_Button, frame.ColorVec(Role::Accent));
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_WindowBg]);
        }
        const auto open = [&] {
            nlohmann::json scene = stage.scene[0] != '\0' ? nlohmann::json::parse(stage.scene)
                                                          : nlohmann::json::object();
            scene["presented_panel"] = stage.panel;
            frame.requests.apply_scene = scene;
        };
        bool clicked = ImGui::Button(stage.label, ImVec2(box_width, box_height));
        if (pe) ImGui::PopStyleColor(2);
        const ImVec2 box_max = ImGui::GetItemRectMax();
        if (ImGui::IsItemHovered()) Tooltip("Open the %s panel", stage.panel);
        if (beside) ImGui::SameLine();
        ImGui::BeginGroup();
        if (beside) {
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x);
            // Level with the box's middle when the row is taller than two lines.
            ImGui::SetCursorPosY(ImGui::GetCursorPosY() +
                                 std::max(0.0f, (box_height - two_lines) / 2));
        }
        WrappedText(stage.sentence);
        if (beside) ImGui::PopTextWrapPos();
        // The row runs to the window's edge: its outline frames the whole row.
        ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, 0.0f));
        ImGui::EndGroup();
        ImGui::EndGroup();
        // The box with its sentence: what a lesson outlines, and a click on either opens.
        clicked = clicked || ImGui::IsItemClicked();
        frame.Record((std::string("start.") + stage.id).c_str());
        if (clicked) open();
        ImGui::PopID();
        // The arrow to the next box ("+" between the embeddings and the encoding, which are
        // added together), centred under this box.
        if (k + 1 < stages.size()) {
            const bool plus = std::string(stages[k + 1].id) == "pe";
            const ImVec2 top(ImGui::GetCursorScreenPos().x + box_width / 2,
                             std::max(box_max.y, ImGui::GetCursorScreenPos().y - 1));
            ImGui::Dummy(ImVec2(box_width, arrow));
            const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
            const float line = frame.Px(2.0f);
            if (plus) {
                const float half = arrow * 0.3f, middle = top.y + arrow / 2;
                draw->AddLine(ImVec2(top.x - half, middle), ImVec2(top.x + half, middle), colour,
                              line);
                draw->AddLine(ImVec2(top.x, middle - half), ImVec2(top.x, middle + half), colour,
                              line);
            } else {
                const float bottom = top.y + arrow;
                draw->AddLine(ImVec2(top.x, top.y + 2), ImVec2(top.x, bottom - 2), colour, line);
                draw->AddTriangleFilled(ImVec2(top.x - arrow * 0.25f, bottom - arrow * 0.35f),
                                        ImVec2(top.x + arrow * 0.25f, bottom - arrow * 0.35f),
                                        ImVec2(top.x, bottom), colour);
            }
        }
    }
    ImGui::PopStyleVar();
    if (hint) {
        ImGui::Spacing();
        ImGui::TextDisabled("Each box opens the panel that shows it (Esc comes back).");
    }
    ImGui::SetWindowFontScale(1.0f);
}

nlohmann::json StartPanel::Readouts(const AppState& /*state*/) const {
    nlohmann::json boxes = nlohmann::json::array();
    for (const StartStage& stage : StartStages())
        boxes.push_back({{"box", stage.label}, {"opens", stage.panel}});
    return {{"boxes", boxes}};
}

std::vector<WidgetName> StartPanel::WidgetNames() {
    std::vector<WidgetName> names;
    for (const StartStage& stage : StartStages())
        names.push_back({std::string("start.") + stage.id,
                         std::string("the map's \"") + stage.label +
                             "\" box and the button that presents its panel"});
    return names;
}

} // namespace pelab
