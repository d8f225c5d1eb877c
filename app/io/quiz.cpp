#include "quiz.h"

#include "json_input.h"
#include "panel_registry.h"
#include "scene.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace pelab {

namespace {

using nlohmann::json;

// "" or why item[key] is not text of 1 to kMaxQuizText bytes; optional fields may be absent.
std::string TextField(const json& item, const char* key, bool required, std::string* out) {
    if (!item.contains(key)) return required ? std::string("field \"") + key + "\": missing" : "";
    const json& value = item[key];
    if (!value.is_string() || value.get<std::string>().empty() ||
        value.get<std::string>().size() > kMaxQuizText)
        return std::string("field \"") + key + "\": must be text of 1 to " +
               std::to_string(kMaxQuizText) + " bytes (got " + Excerpt(value) + ")";
    *out = value.get<std::string>();
    return "";
}

std::string OnlyFields(const json& item, std::initializer_list<const char*> known,
                       const char* what) {
    if (!item.is_object()) return std::string("must be an object (") + what + ")";
    for (const auto& field : item.items()) {
        bool found = false;
        std::string list;
        for (const char* name : known) {
            found = found || field.key() == name;
            list += (list.empty() ? "" : ", ") + std::string(name);
        }
        if (!found)
            return "unknown field " + Excerpt(json(field.key())) + " (" + what + " has " + list +
                   ")";
    }
    return "";
}

std::string ReadShow(const json& item, const PanelRegistry& panels, LessonStep* show) {
    if (!item.contains("show")) return "";
    if (item["show"].is_object() && item["show"].contains("lock"))
        return "field \"show\": a show cannot lock fields (only lesson steps do)";
    if (std::string error = ReadLessonStep(item["show"], panels, false, show); !error.empty())
        return "field \"show\": " + error;
    // A show is applied on top of whatever the student has set, so the pair it names must exist
    // whatever d_model that is.
    if (show->scene.contains("pair") && !show->scene.contains("d_model"))
        return "field \"show\": a show that sets \"pair\" sets \"d_model\" too (the pair must "
               "exist whatever d_model the student chose)";
    return "";
}

std::string ReadQuestion(const json& item, const PanelRegistry& panels, QuizQuestion* q) {
    if (std::string error = OnlyFields(
            item, {"topic", "question", "choices", "answer", "number", "explanation", "show"},
            "a question");
        !error.empty())
        return error;
    if (std::string error = TextField(item, "topic", false, &q->topic); !error.empty())
        return error;
    if (std::string error = TextField(item, "question", true, &q->question); !error.empty())
        return error;
    if (std::string error = TextField(item, "explanation", true, &q->explanation); !error.empty())
        return error;
    const bool has_choices = item.contains("choices"), has_number = item.contains("number");
    if (has_choices == has_number)
        return "a question has either \"choices\" with \"answer\", or \"number\"";
    if (has_choices) {
        const json& choices = item["choices"];
        if (!choices.is_array() || choices.size() < 2 || choices.size() > 6)
            return "field \"choices\": must be a list of 2 to 6 choices";
        for (const json& choice : choices) {
            if (!choice.is_string() || choice.get<std::string>().empty() ||
                choice.get<std::string>().size() > 300)
                return "field \"choices\": each choice is text of 1 to 300 bytes (got " +
                       Excerpt(choice) + ")";
            q->choices.push_back(choice.get<std::string>());
        }
        if (!item.contains("answer") || !item["answer"].is_number_integer() ||
            item["answer"].get<long long>() < 0 ||
            item["answer"].get<long long>() >= static_cast<long long>(q->choices.size()))
            return "field \"answer\": must be the index of the right choice, 0 to " +
                   std::to_string(q->choices.size() - 1) +
                   (item.contains("answer") ? " (got " + Excerpt(item["answer"]) + ")" : "");
        q->answer = item["answer"].get<int>();
    } else {
        if (item.contains("answer"))
            return "field \"answer\": a number question keeps its answer in \"number\"";
        const json& number = item["number"];
        if (std::string error = OnlyFields(number, {"answer", "tolerance", "unit"}, "a number");
            !error.empty())
            return "field \"number\": " + error;
        if (!number.contains("answer") || !number["answer"].is_number() ||
            !std::isfinite(number["answer"].get<double>()))
            return "field \"number\": needs \"answer\", a finite number";
        q->number = number["answer"].get<double>();
        q->tolerance = number.value("tolerance", json(0.0)).is_number()
                           ? number.value("tolerance", 0.0)
                           : -1.0;
        if (!(q->tolerance >= 0) || !std::isfinite(q->tolerance))
            return "field \"number\": \"tolerance\" must be a number ≥ 0";
        if (std::string error = TextField(number, "unit", false, &q->unit); !error.empty())
            return "field \"number\": " + error;
    }
    return ReadShow(item, panels, &q->show);
}

std::string ReadCard(const json& item, const PanelRegistry& panels, QuizCard* card) {
    if (std::string error = OnlyFields(item, {"front", "back", "show"}, "a card"); !error.empty())
        return error;
    if (std::string error = TextField(item, "front", true, &card->front); !error.empty())
        return error;
    if (std::string error = TextField(item, "back", true, &card->back); !error.empty())
        return error;
    return ReadShow(item, panels, &card->show);
}

std::string ReadTeachBack(const json& item, Quiz* quiz) {
    if (std::string error = OnlyFields(item, {"prompt", "rubric"}, "teach_back"); !error.empty())
        return error;
    if (std::string error = TextField(item, "prompt", true, &quiz->teach_back_prompt);
        !error.empty())
        return error;
    if (!item.contains("rubric") || !item["rubric"].is_array() || item["rubric"].empty() ||
        item["rubric"].size() > 30)
        return "field \"rubric\": must be a list of 1 to 30 ideas";
    for (std::size_t k = 0; k < item["rubric"].size(); ++k) {
        const json& entry = item["rubric"][k];
        const std::string where = "rubric idea " + std::to_string(k + 1) + ": ";
        RubricIdea idea;
        if (std::string error = OnlyFields(entry, {"idea", "keywords"}, "an idea"); !error.empty())
            return where + error;
        if (std::string error = TextField(entry, "idea", true, &idea.idea); !error.empty())
            return where + error;
        if (!entry.contains("keywords") || !entry["keywords"].is_array() ||
            entry["keywords"].empty() || entry["keywords"].size() > 30)
            return where + "field \"keywords\": must be a list of 1 to 30 words";
        for (const json& word : entry["keywords"]) {
            if (!word.is_string() || word.get<std::string>().size() < 2 ||
                word.get<std::string>().size() > 60)
                return where + "field \"keywords\": each is text of 2 to 60 bytes (got " +
                       Excerpt(word) + ")";
            std::string lower = word.get<std::string>();
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            idea.keywords.push_back(lower);
        }
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

std::string ParseQuiz(const std::string& text, const SceneTable& table, const PanelRegistry& panels,
                      Quiz* out) {
    json doc;
    if (std::string error = ParseJsonInput(text, &doc); !error.empty()) return error;
    if (std::string error = OnlyFields(
            doc, {"format", "version", "title", "questions", "cards", "teach_back"}, "a quiz");
        !error.empty())
        return error;
    if (doc.contains("format") && doc["format"] != "pelab-quiz")
        return "field \"format\": must be \"pelab-quiz\" (got " + Excerpt(doc["format"]) + ")";
    if (doc.contains("version") && doc["version"] != 1)
        return "field \"version\": this PE Lab reads quiz version 1 (got " +
               Excerpt(doc["version"]) + ")";
    Quiz quiz;
    if (std::string error = TextField(doc, "title", true, &quiz.title); !error.empty())
        return error;
    const auto list = [&](const char* key) -> std::string {
        if (!doc.contains(key)) return "";
        if (!doc[key].is_array() || doc[key].size() > kMaxQuizItems)
            return std::string("field \"") + key + "\": must be a list of at most " +
                   std::to_string(kMaxQuizItems);
        return "";
    };
    if (std::string error = list("questions"); !error.empty()) return error;
    if (std::string error = list("cards"); !error.empty()) return error;
    if (doc.contains("questions"))
        for (std::size_t k = 0; k < doc["questions"].size(); ++k) {
            QuizQuestion question;
            const std::string where = "question " + std::to_string(k + 1) + ": ";
            if (std::string error = ReadQuestion(doc["questions"][k], panels, &question);
                !error.empty())
                return where + error;
            if (std::string error = CheckShow(question.show, table); !error.empty())
                return where + error;
            quiz.questions.push_back(std::move(question));
        }
    if (doc.contains("cards"))
        for (std::size_t k = 0; k < doc["cards"].size(); ++k) {
            QuizCard card;
            const std::string where = "card " + std::to_string(k + 1) + ": ";
            if (std::string error = ReadCard(doc["cards"][k], panels, &card); !error.empty())
                return where + error;
            if (std::string error = CheckShow(card.show, table); !error.empty())
                return where + error;
            quiz.cards.push_back(std::move(card));
        }
    if (doc.contains("teach_back"))
        if (std::string error = ReadTeachBack(doc["teach_back"], &quiz); !error.empty())
            return "teach_back: " + error;
    if (quiz.questions.empty() && quiz.cards.empty() && quiz.rubric.empty())
        return "a quiz needs questions, cards or a teach_back rubric";
    *out = std::move(quiz);
    return "";
}

std::string LoadQuiz(const std::string& path, const SceneTable& table, const PanelRegistry& panels,
                     Quiz* out) {
    std::string text;
    if (std::string error = ReadInputFile(path, kMaxInputBytes, &text); !error.empty())
        return "quiz " + error;
    Quiz quiz;
    if (std::string error = ParseQuiz(text, table, panels, &quiz); !error.empty())
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
