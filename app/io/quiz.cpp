#include "io/quiz.h"

#include "io/json_input.h"
#include "io/panel_catalog.h"
#include "io/scene.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace pelab {

namespace {

using nlohmann::json;

std::string ReadShow(const FieldReader& fields, const PanelCatalog& panels, LessonStep* show) {
    const json* item = nullptr;
    if (std::string error = fields.Object("show", &item); !error.empty()) return error;
    if (item == nullptr) return "";
    if (item->contains("lock"))
        return "field \"show\": a show cannot lock fields (only lesson steps do)";
    if (std::string error = ReadLessonStep(*item, panels, false, show); !error.empty())
        return "field \"show\": " + error;
    // A show is applied on top of whatever the student has set, so the pair it names must exist
    // whatever d_model that is.
    if (show->scene.contains("pair") && !show->scene.contains("d_model"))
        return "field \"show\": a show that sets \"pair\" sets \"d_model\" too (the pair must "
               "exist whatever d_model the student chose)";
    return "";
}

std::string ReadQuestion(const json& item, const PanelCatalog& panels, QuizQuestion* q) {
    const FieldReader fields(item);
    if (std::string error = fields.OnlyFields(
            {"topic", "question", "choices", "answer", "number", "explanation", "show"},
            "a question");
        !error.empty())
        return error;
    if (std::string error = fields.Text("topic", false, 1, kMaxQuizText, &q->topic); !error.empty())
        return error;
    if (std::string error = fields.Text("question", true, 1, kMaxQuizText, &q->question);
        !error.empty())
        return error;
    if (std::string error = fields.Text("explanation", true, 1, kMaxQuizText, &q->explanation);
        !error.empty())
        return error;
    const bool has_choices = fields.Has("choices"), has_number = fields.Has("number");
    if (has_choices == has_number)
        return "a question has either \"choices\" with \"answer\", or \"number\"";
    if (has_choices) {
        if (std::string error = fields.TextList("choices", 2, 6, 1, 300, &q->choices);
            !error.empty())
            return error;
        if (std::string error = fields.Index("answer", q->choices.size(), &q->answer);
            !error.empty())
            return error + " (the index of the right choice, counted from 0)";
    } else {
        if (fields.Has("answer"))
            return "field \"answer\": a number question keeps its answer in \"number\"";
        const json* number_object = nullptr;
        if (std::string error = fields.Object("number", &number_object); !error.empty())
            return error;
        const FieldReader number(*number_object);
        if (std::string error = number.OnlyFields({"answer", "tolerance", "unit"}, "a number");
            !error.empty())
            return "field \"number\": " + error;
        if (std::string error = number.Number("answer", true, -1e300, 1e300, &q->number);
            !error.empty())
            return "field \"number\": " + error;
        q->tolerance = 0;
        if (std::string error = number.Number("tolerance", false, 0, 1e300, &q->tolerance);
            !error.empty())
            return "field \"number\": " + error;
        if (std::string error = number.Text("unit", false, 1, kMaxQuizText, &q->unit);
            !error.empty())
            return "field \"number\": " + error;
    }
    return ReadShow(fields, panels, &q->show);
}

std::string ReadCard(const json& item, const PanelCatalog& panels, QuizCard* card) {
    const FieldReader fields(item);
    if (std::string error = fields.OnlyFields({"front", "back", "show"}, "a card"); !error.empty())
        return error;
    if (std::string error = fields.Text("front", true, 1, kMaxQuizText, &card->front);
        !error.empty())
        return error;
    if (std::string error = fields.Text("back", true, 1, kMaxQuizText, &card->back); !error.empty())
        return error;
    return ReadShow(fields, panels, &card->show);
}

std::string ReadTeachBack(const json& item, Quiz* quiz) {
    const FieldReader fields(item);
    if (std::string error = fields.OnlyFields({"prompt", "rubric"}, "teach_back"); !error.empty())
        return error;
    if (std::string error = fields.Text("prompt", true, 1, kMaxQuizText, &quiz->teach_back_prompt);
        !error.empty())
        return error;
    const json* rubric = nullptr;
    if (std::string error = fields.List("rubric", true, 1, 30, &rubric); !error.empty())
        return error + " (ideas)";
    for (std::size_t k = 0; k < rubric->size(); ++k) {
        const FieldReader entry((*rubric)[k]);
        const std::string where = "rubric idea " + std::to_string(k + 1) + ": ";
        RubricIdea idea;
        if (std::string error = entry.OnlyFields({"idea", "keywords"}, "an idea"); !error.empty())
            return where + error;
        if (std::string error = entry.Text("idea", true, 1, kMaxQuizText, &idea.idea);
            !error.empty())
            return where + error;
        if (std::string error = entry.TextList("keywords", 1, 30, 2, 60, &idea.keywords);
            !error.empty())
            return where + error;
        for (std::string& word : idea.keywords)
            std::transform(word.begin(), word.end(), word.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        quiz->rubric.push_back(std::move(idea));
    }
    return "";
}

// Each show's scene, checked against the table as it is now (a show is applied on top of the
// scene on screen).
std::string CheckShow(const LessonStep& show, const SceneTable& table) {
    if (show.scene.empty()) return "";
    if (std::string why = table.Check(show.scene); !why.empty())
        return "field \"show\": " + (why.rfind("field ", 0) == 0 ? why : "field \"scene\": " + why);
    return "";
}

} // namespace

std::string ReadQuiz(const json& doc, const SceneTable& table, const PanelCatalog& panels,
                     Quiz* out) {
    const FieldReader fields(doc);
    if (std::string error = fields.OnlyFields(
            {"format", "version", "title", "questions", "cards", "teach_back"}, "a quiz");
        !error.empty())
        return error;
    if (std::string error = fields.Exactly("format", "pelab-quiz", "must be \"pelab-quiz\"");
        !error.empty())
        return error;
    if (std::string error = fields.Exactly("version", 1, "this PE Lab reads quiz version 1");
        !error.empty())
        return error;
    Quiz quiz;
    if (std::string error = fields.Text("title", true, 1, kMaxQuizText, &quiz.title);
        !error.empty())
        return error;
    const json* questions = nullptr;
    const json* cards = nullptr;
    if (std::string error = fields.List("questions", false, 0, kMaxQuizItems, &questions);
        !error.empty())
        return error;
    if (std::string error = fields.List("cards", false, 0, kMaxQuizItems, &cards); !error.empty())
        return error;
    if (questions)
        for (std::size_t k = 0; k < questions->size(); ++k) {
            QuizQuestion question;
            const std::string where = "question " + std::to_string(k + 1) + ": ";
            if (std::string error = ReadQuestion((*questions)[k], panels, &question);
                !error.empty())
                return where + error;
            if (std::string error = CheckShow(question.show, table); !error.empty())
                return where + error;
            quiz.questions.push_back(std::move(question));
        }
    if (cards)
        for (std::size_t k = 0; k < cards->size(); ++k) {
            QuizCard card;
            const std::string where = "card " + std::to_string(k + 1) + ": ";
            if (std::string error = ReadCard((*cards)[k], panels, &card); !error.empty())
                return where + error;
            if (std::string error = CheckShow(card.show, table); !error.empty())
                return where + error;
            quiz.cards.push_back(std::move(card));
        }
    if (fields.Has("teach_back"))
        if (std::string error = ReadTeachBack(doc["teach_back"], &quiz); !error.empty())
            return "teach_back: " + error;
    if (quiz.questions.empty() && quiz.cards.empty() && quiz.rubric.empty())
        return "a quiz needs questions, cards or a teach_back rubric";
    *out = std::move(quiz);
    return "";
}

std::string ParseQuiz(const std::string& text, const SceneTable& table, const PanelCatalog& panels,
                      Quiz* out) {
    json doc;
    if (std::string error = ParseJsonInput(text, &doc); !error.empty()) return error;
    return ReadQuiz(doc, table, panels, out);
}

std::string LoadQuiz(const std::string& path, const SceneTable& table, const PanelCatalog& panels,
                     Quiz* out) {
    JsonFile file;
    if (std::string error = ReadJsonFile(path, &file); !error.empty()) return "quiz " + error;
    if (file.png)
        return "quiz " + Excerpt(json(path), 200) + " is a PNG figure, not a quiz (a JSON file)";
    Quiz quiz;
    if (std::string error = ReadQuiz(file.doc, table, panels, &quiz); !error.empty())
        return "quiz " + Excerpt(json(path), 200) + ": " + error;
    quiz.path = path;
    *out = std::move(quiz);
    return "";
}

std::vector<bool> MentionedIdeas(const std::vector<RubricIdea>& rubric, const std::string& text) {
    std::string lower = text;
    // Lower case, and any run of spaces or line breaks as one space ("fixed\nrotation").
    std::string text_lower;
    for (unsigned char c : lower) {
        const char ch = std::isspace(c) ? ' ' : static_cast<char>(std::tolower(c));
        if (ch == ' ' && !text_lower.empty() && text_lower.back() == ' ') continue;
        text_lower.push_back(ch);
    }
    lower.swap(text_lower);
    std::vector<bool> mentioned(rubric.size(), false);
    for (std::size_t k = 0; k < rubric.size(); ++k)
        for (const std::string& word : rubric[k].keywords)
            if (lower.find(word) != std::string::npos) mentioned[k] = true;
    return mentioned;
}

} // namespace pelab
