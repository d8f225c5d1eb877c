// quiz_practice.cpp — the quiz panel's flashcards and teach-back tabs (panel_quiz.h); the
// questions, keys and scene fields are in panel_quiz.cpp.
#include "panels/quiz/panel_quiz.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>

namespace pelab {

namespace {

// Breaks the line being typed at its last space once it is wider than width.
struct HardWrap {
    float width;
    static int Callback(ImGuiInputTextCallbackData* data) {
        const auto* wrap = static_cast<const HardWrap*>(data->UserData);
        int line_start = data->CursorPos;
        while (line_start > 0 && data->Buf[line_start - 1] != '\n')
            --line_start;
        const char* begin = data->Buf + line_start;
        if (ImGui::CalcTextSize(begin, data->Buf + data->CursorPos).x <= wrap->width) return 0;
        for (int k = data->CursorPos - 1; k > line_start; --k)
            if (data->Buf[k] == ' ') {
                data->Buf[k] = '\n';
                data->BufDirty = true;
                break;
            }
        return 0;
    }
};

// Breaks every line of text wider than width at its last space that fits (text set by a scene
// or pasted arrives in long lines; the box does not wrap by itself). Never removes a break.
void HardWrapAll(std::string* text, float width) {
    std::size_t line_start = 0;
    while (line_start < text->size()) {
        std::size_t line_end = text->find('\n', line_start);
        if (line_end == std::string::npos) line_end = text->size();
        const char* begin = text->data() + line_start;
        if (ImGui::CalcTextSize(begin, text->data() + line_end).x > width) {
            // The last space before the width runs out.
            std::size_t cut = std::string::npos;
            for (std::size_t k = line_start; k < line_end; ++k)
                if ((*text)[k] == ' ') {
                    if (ImGui::CalcTextSize(begin, text->data() + k).x > width &&
                        cut != std::string::npos)
                        break;
                    cut = k;
                }
            if (cut != std::string::npos && cut > line_start) {
                (*text)[cut] = '\n';
                line_start = cut + 1;
                continue;
            }
        }
        line_start = line_end + 1;
    }
}

} // namespace

void QuizPanel::DrawCards(FrameContext& frame) {
    if (quiz.cards.empty()) {
        ImGui::TextDisabled("This quiz has no flashcards.");
        return;
    }
    const int count = static_cast<int>(quiz.cards.size());
    card = std::clamp(card, 0, count - 1);
    const QuizCard& shown = quiz.cards[CardAt(card)];
    char heading[120];
    std::snprintf(heading, sizeof heading, "Card %d of %d · %s", card + 1, count,
                  card_back ? "back" : "front");
    FlowRow row;
    row.Item(ImGui::CalcTextSize(heading).x);
    ImGui::TextDisabled("%s", heading);
    row.Item(ImGui::GetFrameHeight() + ImGui::CalcTextSize("shuffled").x + FlowRow::Spacing());
    if (ImGui::Checkbox("shuffled", &shuffle)) card_back = false;
    frame.Record("quiz.shuffle");
    // The card: a framed face as wide as the panel; a click flips it, as Space does.
    const float em = ImGui::GetFontSize();
    const float width = std::max(ImGui::GetContentRegionAvail().x, em * 6);
    const float button_row = ImGui::GetFrameHeightWithSpacing() * 2;
    const float height = std::max(ImGui::GetContentRegionAvail().y - button_row, em * 5);
    const ImVec2 top_left = ImGui::GetCursorScreenPos();
    if (ImGui::InvisibleButton("##card", ImVec2(width, height))) card_back = !card_back;
    frame.Record("quiz.card");
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 bottom_right(top_left.x + width, top_left.y + height);
    draw->AddRectFilled(top_left, bottom_right, ImGui::GetColorU32(ImGuiCol_FrameBg), em * 0.4f);
    draw->AddRect(top_left, bottom_right, frame.Color(card_back ? Role::Accent : Role::Muted),
                  em * 0.4f, 0, frame.Px(2.0f));
    // The face's text, wrapped at spaces and centred.
    const std::string& text = card_back ? shown.back : shown.front;
    const float pad = em;
    const std::vector<std::string> lines =
        WrapAtSpaces(text, width - 2 * pad, width - 2 * pad,
                     [](const std::string& line) { return ImGui::CalcTextSize(line.c_str()).x; });
    const float line_height = ImGui::GetTextLineHeightWithSpacing();
    float y = top_left.y + std::max(pad, (height - line_height * lines.size()) / 2);
    const ImU32 ink = card_back ? ImGui::GetColorU32(ImGuiCol_Text) : frame.Color(Role::Accent);
    draw->PushClipRect(top_left, bottom_right, true);
    for (const std::string& line : lines) {
        const float line_width = ImGui::CalcTextSize(line.c_str()).x;
        draw->AddText(ImVec2(top_left.x + (width - line_width) / 2, y), ink, line.c_str());
        y += line_height;
    }
    draw->PopClipRect();
    if (ImGui::IsItemHovered()) Tooltip("Click or press Space to flip the card.");
    FlowRow nav;
    nav.Item(ButtonWidth("◀ Previous") + ButtonWidth("Flip") + ButtonWidth("Next ▶") +
             FlowRow::Spacing(2));
    ImGui::BeginDisabled(card == 0);
    const int card_before = card;
    if (ImGui::Button("◀ Previous")) card -= 1, card_back = false;
    ImGui::EndDisabled();
    frame.Record("quiz.card_previous");
    ImGui::SameLine();
    if (ImGui::Button("Flip")) card_back = !card_back;
    frame.Record("quiz.flip");
    FormulaTooltip("Space flips the card too (while this panel has the focus).");
    ImGui::SameLine();
    ImGui::BeginDisabled(card + 1 >= count);
    if (ImGui::Button("Next ▶")) card += 1, card_back = false;
    ImGui::EndDisabled();
    frame.Record("quiz.card_next");
    if (card != card_before) {
        frame.requests.set_highlight = true; // the last card's "show me" outline goes
        frame.requests.highlight.clear();
    }
    if (!shown.show.scene.empty() || !shown.show.highlight.empty()) {
        nav.Item(ButtonWidth("Show me"));
        if (ImGui::Button("Show me")) RequestShow(shown.show, frame.requests);
        frame.Record("quiz.card_show");
        FormulaTooltip("Opens the panel that illustrates this card.");
    }
}

void QuizPanel::DrawTeachBack(FrameContext& frame) {
    if (quiz.rubric.empty()) {
        ImGui::TextDisabled("This quiz has no teach-back rubric.");
        return;
    }
    WrappedText(quiz.teach_back_prompt.c_str());
    const float em = ImGui::GetFontSize();
    const float rubric_height =
        ImGui::GetTextLineHeightWithSpacing() * (static_cast<float>(quiz.rubric.size()) + 3.5f);
    const float box_height =
        std::clamp(ImGui::GetContentRegionAvail().y - rubric_height, em * 4, em * 9);
    // ImGui 1.86's text boxes do not wrap: the line being typed is broken at its last space
    // when it reaches the box's edge (HardWrap), so a paragraph stays readable.
    HardWrap wrap{ImGui::GetContentRegionAvail().x - ImGui::GetStyle().FramePadding.x * 2 -
                  ImGui::GetStyle().ScrollbarSize};
    if (ImGui::GetActiveID() != ImGui::GetID("##teach_back") &&
        wrap.width > ImGui::GetFontSize() * 4)
        HardWrapAll(&teach_back_text, wrap.width);
    ImGui::InputTextMultiline("##teach_back", &teach_back_text, ImVec2(-1, box_height),
                              ImGuiInputTextFlags_CallbackEdit, HardWrap::Callback, &wrap);
    frame.Record("quiz.teach_text");
    if (teach_back_text.size() > kMaxTeachBackBytes) {
        // Cut at a character boundary: never half a UTF-8 sequence (the scene must stay text).
        std::size_t cut = kMaxTeachBackBytes;
        while (cut > 0 && (static_cast<unsigned char>(teach_back_text[cut]) & 0xC0) == 0x80)
            --cut;
        teach_back_text.resize(cut);
    }
    const std::vector<bool> mentioned = MentionedIdeas(quiz.rubric, teach_back_text);
    const int found = static_cast<int>(std::count(mentioned.begin(), mentioned.end(), true));
    char summary[200];
    const long ticked_here = std::count_if(ticked.begin(), ticked.end(), [this](int index) {
        return index < static_cast<int>(quiz.rubric.size());
    });
    std::snprintf(summary, sizeof summary, "Ticked %ld of %zu ideas · words linked to %d found",
                  ticked_here, quiz.rubric.size(), found);
    const char* legend = "◆: your text uses a word linked to the idea (a hint, not a grade)";
    FlowRow row;
    row.Item(ImGui::CalcTextSize(summary).x);
    ImGui::TextUnformatted(summary);
    frame.Record("quiz.rubric_summary");
    row.Item(ImGui::CalcTextSize(legend).x);
    ImGui::TextDisabled("%s", legend);
    row.Item(ImGui::CalcTextSize("(?)").x);
    HelpMarker("Tick an idea when your explanation really covers it. The ◆ marks are a hint from "
               "word matching (your text uses a word linked to the idea); they do not grade, "
               "and they cannot tell a right sentence from a wrong one.");
    for (std::size_t k = 0; k < quiz.rubric.size(); ++k) {
        ImGui::PushID(static_cast<int>(k));
        const int index = static_cast<int>(k);
        bool on = std::find(ticked.begin(), ticked.end(), index) != ticked.end();
        if (ImGui::Checkbox("##tick", &on)) {
            if (on)
                ticked.push_back(index);
            else
                ticked.erase(std::remove(ticked.begin(), ticked.end(), index), ticked.end());
            std::sort(ticked.begin(), ticked.end());
        }
        frame.Record(("quiz.tick" + std::to_string(k + 1)).c_str());
        ImGui::SameLine();
        // A group, so that a wrapped idea's second line starts under its first.
        ImGui::BeginGroup();
        if (mentioned[k]) {
            ImGui::TextColored(frame.ColorVec(Role::Accent), "◆");
            ImGui::SameLine();
        }
        WrappedText(quiz.rubric[k].idea.c_str());
        ImGui::EndGroup();
        ImGui::PopID();
    }
}

} // namespace pelab
