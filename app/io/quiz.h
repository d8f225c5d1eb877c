// quiz.h — a quiz a teacher can write: predict-then-reveal questions, flashcards and a teach-back
// rubric, in one JSON file (format "pelab-quiz"; assets/quiz/, README "Writing a quiz"):
//
//   {"format": "pelab-quiz", "version": 1, "title": "…",
//    "questions": [{"topic": "…", "question": "…", "choices": ["…", "…"], "answer": 1,
//                   "explanation": "…", "show": {"present": "compare", "scene": {…},
//                                               "highlight": ["compare.dot_product"]}},
//                  {"question": "…", "number": {"answer": 6.28, "tolerance": 0.05,
//                                               "unit": "positions"}, "explanation": "…"}],
//    "cards": [{"front": "…", "back": "…", "show": {…}}],
//    "teach_back": {"prompt": "…", "rubric": [{"idea": "…", "keywords": ["commut", …]}]}}
//
// A "show" is a lesson step without its caption: the panel that shows the answer, scene fields
// to set there, widgets to outline. The whole file is checked when read ("question 3: field
// \"answer\": …"), each show's scene against the scene table, before anything is used.
#pragma once

#include "io/lesson.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pelab {

class SceneTable;
class PanelCatalog;

struct QuizQuestion {
    std::string topic;
    std::string question;
    std::vector<std::string> choices; ///< empty for a number question
    int answer = 0;                   ///< index into choices
    double number = 0,
           tolerance = 0; ///< a number question: right when |typed − number| ≤ tolerance
    std::string unit;
    std::string explanation; ///< *stars* mark emphasis, as in lesson captions
    LessonStep show;         ///< empty scene and no panel: nothing to open
    bool IsNumber() const { return choices.empty(); }
};

struct QuizCard {
    std::string front, back;
    LessonStep show;
};

struct RubricIdea {
    std::string idea;
    std::vector<std::string> keywords; ///< lower case; matched as substrings of the text
};

struct Quiz {
    std::string title;
    std::string path; ///< "" for the built-in quiz
    std::vector<QuizQuestion> questions;
    std::vector<QuizCard> cards;
    std::string teach_back_prompt;
    std::vector<RubricIdea> rubric;
};

constexpr std::size_t kMaxQuizItems = 200;
constexpr std::size_t kMaxQuizText = 2000;

/// Parses and checks a quiz: "" or one line saying what is wrong and where; *out is written only
/// on success. The scene table is used to check each show's scene, and left as it was.
std::string ParseQuiz(const std::string& text, const SceneTable& table, const PanelCatalog& panels,
                      Quiz* out);
/// The same for a document already parsed (File → Open reads and parses a file once).
std::string ReadQuiz(const nlohmann::json& doc, const SceneTable& table, const PanelCatalog& panels,
                     Quiz* out);
/// Reads the file (a regular file of at most 1 MiB) and parses it.
std::string LoadQuiz(const std::string& path, const SceneTable& table, const PanelCatalog& panels,
                     Quiz* out);
/// The quiz built into PE Lab (assets/quiz/positional-encoding.json, compiled in).
const char* BuiltInQuizText();

/// Which rubric ideas the text seems to mention: idea k when any of its keywords occurs in the
/// text, ignoring case (ASCII). A hint for the student, not a grade.
std::vector<bool> MentionedIdeas(const std::vector<RubricIdea>& rubric, const std::string& text);

} // namespace pelab
