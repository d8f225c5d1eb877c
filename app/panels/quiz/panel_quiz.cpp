#include "panels/quiz/panel_quiz.h"
#include "widgets/shortcuts.h"

#include "io/json_input.h"
#include "io/scene.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace pelab {

using nlohmann::json;

namespace {

constexpr const char* kModeNames[] = {"questions", "cards", "teach-back"};

// A typed number: the whole field must be one finite number ("6.28", "1e4", " 3 ").
bool ParseTyped(const std::string& text, double* value) {
    const char* start = text.c_str();
    char* end = nullptr;
    const double parsed = std::strtod(start, &end);
    if (end == start) return false;
    while (*end == ' ')
        ++end;
    if (*end != '\0' || !std::isfinite(parsed)) return false;
    *value = parsed;
    return true;
}

// The shortest way to write an answer: 6.28, 60611, 0.0001.
std::string FormatNumber(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

} // namespace

void QuizPanel::Ready(const SceneTable& table, const PanelCatalog& panels) {
    Quiz built_in;
    load_error = ParseQuiz(BuiltInQuizText(), table, panels, &built_in);
    SetQuiz(std::move(built_in));
}

std::string QuizPanel::OpenDocument(const nlohmann::json& doc, const std::string& path,
                                    const SceneTable& table, const PanelCatalog& panels) {
    Quiz read;
    if (std::string error = ReadQuiz(doc, table, panels, &read); !error.empty()) return error;
    read.path = path;
    SetQuiz(std::move(read));
    return {};
}

void QuizPanel::SetQuiz(Quiz replacement) {
    quiz = std::move(replacement);
    answers.assign(quiz.questions.size(), QuizAnswer{});
    question = 0;
    card = 0;
    card_back = false;
    ticked.clear();
}

int QuizPanel::CardAt(int k) const {
    const int count = static_cast<int>(quiz.cards.size());
    if (count == 0) return 0;
    k = std::clamp(k, 0, count - 1);
    if (!shuffle) return k;
    // A fixed permutation (a multiplicative step coprime with the count), so that a scene
    // reopens on the same card.
    int step = 7;
    while (std::gcd(step, count) != 1)
        ++step;
    return static_cast<int>((static_cast<long long>(k) * step + 3) % count);
}

int QuizPanel::Score() const {
    return static_cast<int>(
        std::count_if(answers.begin(), answers.end(), [](const QuizAnswer& a) { return a.right; }));
}

int QuizPanel::Answered() const {
    return static_cast<int>(std::count_if(answers.begin(), answers.end(),
                                          [](const QuizAnswer& a) { return a.revealed; }));
}

void QuizPanel::RequestShow(const LessonStep& show, FrameRequests& requests) {
    json scene = show.scene;
    // The panel that shows the answer opens beside the quiz (presenting it alone would hide the
    // question).
    if (scene.contains("presented_panel")) {
        const std::string panel = scene["presented_panel"].get<std::string>();
        scene.erase("presented_panel");
        if (!panel.empty() && panel != "quiz") {
            scene["open_panels"] = json::array({"quiz", panel});
            scene["presented_panel"] = "";
        }
    }
    // A show that tiles panels of its own keeps the quiz among them.
    if (scene.contains("open_panels") && scene["open_panels"].is_array()) {
        json& open = scene["open_panels"];
        if (std::find(open.begin(), open.end(), "quiz") == open.end())
            open.insert(open.begin(), "quiz");
    }
    if (!scene.empty()) requests.apply_scene = scene;
    requests.set_highlight = true;
    requests.highlight = show.highlight;
}

void QuizPanel::ClampPositions() {
    // A scene (or lock) may name a question or card past the end of this quiz.
    const int questions = static_cast<int>(quiz.questions.size());
    question = questions == 0 ? 0 : std::clamp(question, 0, questions - 1);
    const int cards = static_cast<int>(quiz.cards.size());
    card = cards == 0 ? 0 : std::clamp(card, 0, cards - 1);
    answers.resize(quiz.questions.size());
}

bool QuizPanel::Reveal(FrameRequests& requests) {
    ClampPositions();
    if (quiz.questions.empty()) return false;
    const QuizQuestion& q = quiz.questions[question];
    QuizAnswer& answer = answers[question];
    if (answer.revealed) return true;
    if (q.IsNumber()) {
        double typed = 0;
        if (!ParseTyped(answer.typed, &typed)) return false;
        answer.right = std::fabs(typed - q.number) <= q.tolerance;
    } else {
        if (answer.choice < 0) return false;
        answer.right = answer.choice == q.answer;
    }
    answer.revealed = true;
    RequestShow(q.show, requests);
    return true;
}

void QuizPanel::GoToQuestion(int k, FrameRequests& requests) {
    if (quiz.questions.empty()) return;
    question = std::clamp(k, 0, static_cast<int>(quiz.questions.size()) - 1);
    // The outline belonged to the last answer.
    requests.set_highlight = true;
    requests.highlight.clear();
}

bool QuizPanel::TakeKey(const KeyPress& press, FrameRequests& requests) {
    if (press.ctrl) return false;
    ClampPositions();
    if (mode == Mode::Questions && !quiz.questions.empty()) {
        const QuizQuestion& q = quiz.questions[question];
        QuizAnswer& answer = answers[question];
        const int digit = PredictedChoice(press);
        if (digit >= 0 && !q.IsNumber() && !answer.revealed &&
            digit < static_cast<int>(q.choices.size())) {
            answer.choice = digit;
            return true;
        }
        if (Is(press, Command::QuizReveal)) {
            if (!answer.revealed)
                Reveal(requests);
            else
                GoToQuestion(question + 1, requests);
            return true;
        }
    }
    if (mode == Mode::Cards && !quiz.cards.empty()) {
        if (Is(press, Command::QuizFlip)) {
            card_back = !card_back;
            return true;
        }
        if (Is(press, Command::QuizReveal)) {
            card = std::min(card + 1, static_cast<int>(quiz.cards.size()) - 1);
            card_back = false;
            return true;
        }
    }
    return false;
}

void QuizPanel::Draw(FrameContext& frame) {
    ClampPositions();
    if (!load_error.empty()) {
        ErrorText(frame, ("The quiz could not be read: " + load_error).c_str());
        return;
    }
    // Presented to a room, the words are the picture: larger text, up to twice the size, as long
    // as a line still holds about 80 characters and the panel about 26 lines.
    // (The atlas's size, not GetFontSize(), which already holds last frame's scale.)
    const float base_size = ImGui::GetFontSize() / ImGui::GetCurrentWindow()->FontWindowScale;
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float fit = std::min(room.x / (base_size * 40.0f), room.y / (base_size * 26.0f));
    ImGui::SetWindowFontScale(frame.presented ? std::clamp(fit, 1.0f, 2.0f) : 1.0f);
    if (!ImGui::BeginTabBar("##quiz_modes")) return;
    const struct {
        const char* label;
        Mode mode;
        const char* record;
    } tabs[] = {{"Questions", Mode::Questions, "quiz.tab_questions"},
                {"Flashcards", Mode::Cards, "quiz.tab_cards"},
                {"Teach-back", Mode::TeachBack, "quiz.tab_teach"}};
    for (const auto& tab : tabs) {
        // A scene (or a key) that changes the mode selects its tab once.
        const ImGuiTabItemFlags flags =
            mode == tab.mode && drawn_mode != mode ? ImGuiTabItemFlags_SetSelected : 0;
        const bool open = ImGui::BeginTabItem(tab.label, nullptr, flags);
        frame.Record(tab.record);
        if (!open) continue;
        // While a requested tab is not shown yet, the tab still drawn does not take over.
        if (mode == drawn_mode || mode == tab.mode) {
            // Another tab: the outlines of the last revealed answer no longer belong.
            if (drawn_mode != tab.mode) {
                frame.requests.set_highlight = true;
                frame.requests.highlight.clear();
            }
            mode = drawn_mode = tab.mode;
        }
        if (mode == Mode::Questions) DrawQuestions(frame);
        if (mode == Mode::Cards) DrawCards(frame);
        if (mode == Mode::TeachBack) DrawTeachBack(frame);
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

void QuizPanel::DrawChoices(FrameContext& frame, const QuizQuestion& q, QuizAnswer& answer) {
    // Each choice a wide block, as tall as the room allows (a quiz on a projector is read from
    // the back): a click predicts it. Once revealed, the right one is framed in the "good"
    // colour and a wrong prediction in the warning colour.
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float below = line * 7; // verdict, explanation and buttons under the choices
    const float count = static_cast<float>(q.choices.size());
    const float height = std::clamp((ImGui::GetContentRegionAvail().y - below) / count - spacing,
                                    line * 1.6f, line * 3.2f);
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 6);
    const float pad = ImGui::GetFontSize() * 0.6f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (std::size_t k = 0; k < q.choices.size(); ++k) {
        const int index = static_cast<int>(k);
        ImGui::PushID(index);
        const ImVec2 top_left = ImGui::GetCursorScreenPos();
        if (ImGui::InvisibleButton("##choice", ImVec2(width, height)) && !answer.revealed)
            answer.choice = index;
        frame.Record(("quiz.choice" + std::to_string(k + 1)).c_str());
        const bool hovered = ImGui::IsItemHovered() && !answer.revealed;
        const bool chosen = answer.choice == index;
        const ImVec2 bottom_right(top_left.x + width, top_left.y + height);
        const ImU32 fill = ImGui::GetColorU32(chosen    ? ImGuiCol_ButtonActive
                                              : hovered ? ImGuiCol_ButtonHovered
                                                        : ImGuiCol_FrameBg);
        draw->AddRectFilled(top_left, bottom_right, fill, pad * 0.5f);
        if (answer.revealed && (index == q.answer || chosen))
            draw->AddRect(top_left, bottom_right,
                          frame.Color(index == q.answer ? Role::Good : Role::Warning), pad * 0.5f,
                          0, frame.Px(3.0f));
        // "1  Yes: the scores are the same", wrapped at spaces, centred vertically.
        const std::string label = std::to_string(k + 1) + "   " + q.choices[k];
        const std::vector<std::string> lines =
            WrapAtSpaces(label, width - 2 * pad, width - 2 * pad, [](const std::string& text) {
                return ImGui::CalcTextSize(text.c_str()).x;
            });
        const float text_height = ImGui::GetTextLineHeight() * static_cast<float>(lines.size());
        float y = top_left.y + std::max(0.0f, (height - text_height) / 2);
        draw->PushClipRect(top_left, bottom_right, true);
        for (const std::string& text : lines) {
            draw->AddText(ImVec2(top_left.x + pad, y), ImGui::GetColorU32(ImGuiCol_Text),
                          text.c_str());
            y += ImGui::GetTextLineHeight();
        }
        draw->PopClipRect();
        ImGui::PopID();
    }
}

void QuizPanel::DrawQuestions(FrameContext& frame) {
    if (quiz.questions.empty()) {
        ImGui::TextDisabled("This quiz has no questions.");
        return;
    }
    question = std::clamp(question, 0, static_cast<int>(quiz.questions.size()) - 1);
    const QuizQuestion& q = quiz.questions[question];
    QuizAnswer& answer = answers[question];
    char heading[200];
    std::snprintf(heading, sizeof heading, "Question %d of %zu%s%s", question + 1,
                  quiz.questions.size(), q.topic.empty() ? "" : " · ", q.topic.c_str());
    char score[120];
    std::snprintf(score, sizeof score, "score: %d right of %d answered", Score(), Answered());
    FlowRow row;
    row.Item(ImGui::CalcTextSize(heading).x);
    ImGui::TextDisabled("%s", heading);
    row.Item(ImGui::CalcTextSize(score).x);
    ImGui::TextUnformatted(score);
    frame.Record("quiz.score");
    ImGui::Separator();
    ImGui::BeginGroup(); // the whole wrapped question is one recorded rectangle
    WrappedText(q.question.c_str());
    ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, 0));
    ImGui::EndGroup();
    frame.Record("quiz.question");
    ImGui::Spacing();
    if (answer.revealed)
        ImGui::TextDisabled("Your prediction:");
    else if (q.IsNumber())
        ImGui::TextDisabled("First predict: type a number, then reveal.");
    else
        ImGui::TextDisabled("First predict (keys 1–%zu), then reveal (Enter):", q.choices.size());
    if (q.IsNumber()) {
        ImGui::BeginDisabled(answer.revealed);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        // Enter in the field reveals (ImGui keeps that Enter from the app's keys).
        if (ImGui::InputText("##typed", &answer.typed,
                             ImGuiInputTextFlags_CharsScientific |
                                 ImGuiInputTextFlags_EnterReturnsTrue))
            Reveal(frame.requests);
        frame.Record("quiz.number");
        if (!q.unit.empty()) {
            ImGui::SameLine();
            ImGui::TextUnformatted(q.unit.c_str());
        }
        double typed = 0;
        if (!answer.typed.empty() && !ParseTyped(answer.typed, &typed))
            ErrorText(frame, "Type one number, e.g. 6.28 or 1e4.");
        ImGui::EndDisabled();
    } else {
        DrawChoices(frame, q, answer);
    }
    double typed = 0;
    const bool predicted = q.IsNumber() ? ParseTyped(answer.typed, &typed) : answer.choice >= 0;
    if (!answer.revealed) {
        ImGui::BeginDisabled(!predicted);
        if (ImGui::Button("Reveal the answer")) Reveal(frame.requests);
        ImGui::EndDisabled();
        frame.Record("quiz.reveal");
        FormulaTooltip(predicted ? "Scores your prediction and opens the panel that shows why."
                                 : "Make a prediction first: choose or type an answer.");
    } else {
        const std::string right_answer =
            q.IsNumber() ? FormatNumber(q.number) + (q.unit.empty() ? "" : " " + q.unit) +
                               (q.tolerance > 0 ? " (± " + FormatNumber(q.tolerance) + ")" : "")
                         : "\"" + q.choices[q.answer] + "\"";
        const std::string verdict = answer.right ? "Right: " + right_answer + "."
                                                 : "Not quite: the answer is " + right_answer + ".";
        ImGui::PushStyleColor(ImGuiCol_Text,
                              frame.Color(answer.right ? Role::Good : Role::Warning));
        WrappedText(verdict.c_str());
        ImGui::PopStyleColor();
        frame.Record("quiz.verdict");
        DrawCaption(q.explanation, frame.Color(Role::Accent));
        frame.Record("quiz.explanation");
        if (!q.show.scene.empty() || !q.show.highlight.empty()) {
            if (ImGui::Button("Show me again")) RequestShow(q.show, frame.requests);
            frame.Record("quiz.show");
            FormulaTooltip("Opens the panel that shows the answer, set as the question needs.");
        }
    }
    if (Answered() == static_cast<int>(quiz.questions.size())) {
        char done[160];
        std::snprintf(done, sizeof done, "All %zu answered: %d right.", quiz.questions.size(),
                      Score());
        ImGui::TextColored(frame.ColorVec(Role::Accent), "%s", done);
    }
    ImGui::Spacing();
    // The way on sits at the bottom of the panel, where it stays from question to question.
    const float bottom = ImGui::GetWindowContentRegionMax().y - ImGui::GetFrameHeight();
    if (ImGui::GetCursorPosY() < bottom) ImGui::SetCursorPosY(bottom);
    FlowRow nav;
    nav.Item(ButtonWidth("◀ Previous") + ButtonWidth("Next ▶") + ButtonWidth("Start again") +
             FlowRow::Spacing(2));
    ImGui::BeginDisabled(question == 0);
    if (ImGui::Button("◀ Previous")) GoToQuestion(question - 1, frame.requests);
    ImGui::EndDisabled();
    frame.Record("quiz.previous");
    ImGui::SameLine();
    ImGui::BeginDisabled(question + 1 >= static_cast<int>(quiz.questions.size()));
    if (ImGui::Button("Next ▶")) GoToQuestion(question + 1, frame.requests);
    ImGui::EndDisabled();
    frame.Record("quiz.next");
    ImGui::SameLine();
    if (ImGui::Button("Start again")) {
        answers.assign(quiz.questions.size(), QuizAnswer{});
        GoToQuestion(0, frame.requests);
    }
    frame.Record("quiz.restart");
    FormulaTooltip("Clears every prediction and the score.");
}

void QuizPanel::AddSceneFields(SceneTable& table) {
    table.Add({"quiz_mode", "\"questions\", \"cards\" or \"teach-back\": the quiz tab shown",
               [this](const json& value, const json&) -> std::function<void()> {
                   for (int k = 0; k < 3; ++k)
                       if (value == kModeNames[k])
                           return [this, k] { mode = static_cast<Mode>(k); };
                   throw SceneFieldError{
                       "must be \"questions\", \"cards\" or \"teach-back\" (got " + Excerpt(value) +
                       ")"};
               },
               [this] { return json(kModeNames[static_cast<int>(mode)]); }});
    table.Integer("quiz_question", "the question shown (from 0)", &question, 0,
                  static_cast<int>(kMaxQuizItems) - 1);
    table.Integer("quiz_card", "the flashcard shown (from 0)", &card, 0,
                  static_cast<int>(kMaxQuizItems) - 1);
    table.Bool("quiz_card_back", "the flashcard shows its back", &card_back);
    table.Bool("quiz_shuffle", "flashcards in a shuffled (repeatable) order", &shuffle);
    table.Text("teach_back_text", "text, valid UTF-8, at most 8000 bytes: the teach-back answer",
               &teach_back_text, [](const std::string& text) {
                   return text.size() > kMaxTeachBackBytes
                              ? std::string("must be at most 8000 bytes")
                              : std::string();
               });
    table.Add({"teach_back_ticked",
               "list of at most 30 rubric idea indices in [0, 29]: the ideas the student ticked",
               [this](const json& value, const json&) -> std::function<void()> {
                   if (!value.is_array() || value.size() > 30)
                       throw SceneFieldError{"must be a list of at most 30 indices"};
                   std::vector<int> list;
                   for (const json& item : value) {
                       const int index = SceneInteger(item, 0, 29);
                       if (std::find(list.begin(), list.end(), index) == list.end())
                           list.push_back(index);
                   }
                   std::sort(list.begin(), list.end());
                   return [this, list] { ticked = list; };
               },
               [this] { return json(ticked); }});
}

nlohmann::json QuizPanel::Readouts(const AppState& /*state*/) const {
    json readouts = {{"title", quiz.title},
                     {"source", quiz.path.empty() ? "built in" : quiz.path},
                     {"mode", kModeNames[static_cast<int>(mode)]},
                     {"questions", quiz.questions.size()},
                     {"answered", Answered()},
                     {"right", Score()},
                     {"cards", quiz.cards.size()},
                     {"card_shown", quiz.cards.empty() ? -1 : CardAt(card)},
                     {"rubric", quiz.rubric.size()},
                     {"ticked", ticked}};
    if (!quiz.questions.empty()) {
        const int k = std::clamp(question, 0, static_cast<int>(quiz.questions.size()) - 1);
        readouts["question"] = k + 1;
        const bool known = k < static_cast<int>(answers.size());
        readouts["revealed"] = known && answers[k].revealed;
        readouts["prediction_right"] = known && answers[k].right;
    }
    const std::vector<bool> mentioned = MentionedIdeas(quiz.rubric, teach_back_text);
    json found = json::array();
    for (std::size_t k = 0; k < mentioned.size(); ++k)
        if (mentioned[k]) found.push_back(k);
    readouts["mentioned"] = found;
    return readouts;
}

std::vector<WidgetName> QuizPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        {"quiz.card", "the flashcard itself: a click turns it over"},
        {"quiz.card_next", "the Next button that moves to the following flashcard"},
        {"quiz.card_previous", "the Previous button that goes back one flashcard"},
        {"quiz.card_show", "the card's Show me button: opens the panel it is about"},
        {"quiz.choice<i>", "the answer block of choice i (from 1): a click predicts it"},
        {"quiz.explanation", "the explanation under the verdict once the answer is revealed"},
        {"quiz.flip", "the Flip button that turns the flashcard over"},
        {"quiz.next", "the Next button that moves to the following question"},
        {"quiz.number", "the box where a number is typed as the prediction"},
        {"quiz.previous", "the Previous button that goes back one question"},
        {"quiz.question", "the text of the current question"},
        {"quiz.restart", "the Start again button: clears every prediction and the score"},
        {"quiz.reveal", "the Reveal the answer button, which scores the prediction"},
        {"quiz.rubric_summary",
         "the line counting the ideas ticked and their words found",
         {"rubric"}},
        {"quiz.score",
         "the score line: right answers out of those answered",
         {"right", "answered"}},
        {"quiz.show", "the Show me again button: opens the panel showing why"},
        {"quiz.shuffle", "the shuffled tick box that mixes the flashcards' order"},
        {"quiz.tab_cards", "the Flashcards tab at the top of the panel"},
        {"quiz.tab_questions", "the Questions tab at the top of the panel"},
        {"quiz.tab_teach", "the Teach-back tab at the top of the panel"},
        {"quiz.teach_text", "the text box where the learner explains it in their own words"},
        {"quiz.tick<i>", "the tick box of rubric idea i (from 1) on the Teach-back tab"},
        {"quiz.verdict", "the coloured verdict once revealed: right, or what the answer is"},
    };
}

} // namespace pelab
