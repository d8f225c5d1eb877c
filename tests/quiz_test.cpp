// The quiz panel, headless. The built-in quiz (assets/quiz/positional-encoding.json, read here
// with nlohmann directly) is played question by question: a prediction first, then the reveal
// scores it and opens the panel the file names with the file's scene fields and outlines its
// widgets. Keys (1–9, Enter, Space) work when the quiz has the focus; flashcards flip; the
// teach-back hint finds the rubric's keywords; the text and ticks travel with the scene; bad quiz
// files are refused naming the item and field.
#include "headless_fixture.h"
#include "io/quiz.h"
#include "panels/quiz/panel_quiz.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace pelab;
namespace fs = std::filesystem;

namespace {

nlohmann::json BuiltInFile() {
    std::ifstream in(fs::path(pelab_test::SourceDir()) / "assets/quiz/positional-encoding.json");
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
}

class QuizTest : public HeadlessApp {
protected:
    explicit QuizTest(ImVec2 size = ImVec2(1600, 1000)) : HeadlessApp(size) {}
    void SetUp() override {
        HeadlessApp::SetUp();
        app.recorder.enabled = true;
        ASSERT_EQ(app.scene.Apply(R"({"open_panels": ["quiz"], "presented_panel": ""})"), "");
        app.focused_panel = "quiz";
    }
    QuizPanel& quiz() { return Get<QuizPanel>("quiz"); }
    // Predicts question k's right answer, as the file gives it.
    void PredictRight(std::size_t k, const nlohmann::json& q) {
        if (q.contains("number"))
            quiz().answers[k].typed = std::to_string(q["number"]["answer"].get<double>());
        else
            quiz().answers[k].choice = q["answer"].get<int>();
    }
};

} // namespace

TEST_F(QuizTest, BuiltInQuizIsCompleteAndMatchesItsFile) {
    const nlohmann::json file = BuiltInFile();
    EXPECT_EQ(quiz().load_error, "");
    EXPECT_EQ(quiz().quiz.questions.size(), file["questions"].size());
    EXPECT_GE(quiz().quiz.questions.size(), 8u);
    EXPECT_GE(quiz().quiz.cards.size(), 8u);
    // The seven ideas a teach-back on positional encoding should name, each with keywords.
    ASSERT_EQ(quiz().quiz.rubric.size(), 7u);
    // The five "check your understanding" topics of the published course and the panels: every
    // question has a topic and a show.
    for (const QuizQuestion& q : quiz().quiz.questions) {
        EXPECT_FALSE(q.topic.empty()) << q.question;
        EXPECT_TRUE(q.show.scene.contains("presented_panel")) << q.question;
    }
    const auto mentioned = [&](const char* text) {
        const std::vector<bool> found = MentionedIdeas(quiz().quiz.rubric, text);
        return static_cast<int>(std::count(found.begin(), found.end(), true));
    };
    // A student's plain sentence for each idea finds it.
    for (const char* sentence :
         {"Adding is commutative, so the model loses the word order.",
          "If you add the raw index, the big number drowns the word embedding.",
          "Dividing by the length to get 0 to 1 depends on how long the sentence is.",
          "Binary bits jump around, they are not smooth.",
          "Each position gets a unique point from its sin and cos pair.",
          "Many frequencies: fast ones for fine detail and slow ones for coarse position.",
          "Shifting by k is the same rotation for every position."}) {
        EXPECT_GE(mentioned(sentence), 1) << sentence;
    }
    EXPECT_EQ(mentioned("I like turtles."), 0);
}

// The same at the default window size (1280×800): an outlined widget below the fold of its
// panel is scrolled into view.
class QuizAtDefaultSize : public QuizTest {
protected:
    QuizAtDefaultSize() : QuizTest(ImVec2(1280, 800)) {}
};

TEST_F(QuizAtDefaultSize, EveryOutlinedWidgetIsScrolledIntoView) {
    const nlohmann::json file = BuiltInFile();
    Frame();
    for (std::size_t k = 0; k < file["questions"].size(); ++k) {
        SCOPED_TRACE("question " + std::to_string(k + 1));
        const nlohmann::json& q = file["questions"][k];
        quiz().question = static_cast<int>(k);
        PredictRight(k, q);
        ASSERT_TRUE(quiz().Reveal(app.pending));
        for (int frame = 0; frame < 4; ++frame)
            Frame();
        const nlohmann::json highlight = q["show"].value("highlight", nlohmann::json::array());
        if (!highlight.empty()) {
            EXPECT_TRUE(app.recorder.rects.count(highlight[0].get<std::string>()))
                << highlight[0] << " is not on screen";
        }
    }
}

// Every question, answered right: the reveal scores it and opens the panel of its show, with the
// file's scene fields, beside the quiz, and the outlined widgets are on screen. Then one wrong
// answer is scored wrong.
TEST_F(QuizTest, EveryQuestionRevealsThePanelThatShowsWhy) {
    const nlohmann::json file = BuiltInFile();
    Frame();
    for (std::size_t k = 0; k < file["questions"].size(); ++k) {
        SCOPED_TRACE("question " + std::to_string(k + 1));
        const nlohmann::json& q = file["questions"][k];
        quiz().question = static_cast<int>(k);
        Frame();
        QuizAnswer& answer = quiz().answers[k];
        EXPECT_FALSE(quiz().Reveal(app.pending)) << "no reveal before a prediction";
        PredictRight(k, q);
        ASSERT_TRUE(quiz().Reveal(app.pending));
        EXPECT_TRUE(answer.right);
        // The show is applied when the first frame ends; a tab it selects is drawn in the third.
        Frame();
        Frame();
        Frame();
        const nlohmann::json scene = app.scene.Document();
        const std::string panel = q["show"]["present"];
        const auto& open = scene["open_panels"];
        EXPECT_NE(std::find(open.begin(), open.end(), panel), open.end()) << panel;
        EXPECT_NE(std::find(open.begin(), open.end(), "quiz"), open.end());
        const nlohmann::json show_scene = q["show"].value("scene", nlohmann::json::object());
        for (const auto& field : show_scene.items()) {
            EXPECT_EQ(scene[field.key()], field.value()) << field.key();
        }
        const nlohmann::json highlight = q["show"].value("highlight", nlohmann::json::array());
        for (const auto& name : highlight) {
            EXPECT_TRUE(app.recorder.rects.count(name.get<std::string>())) << name;
        }
        EXPECT_EQ(app.highlight_widgets.size(),
                  q["show"].value("highlight", nlohmann::json::array()).size());
    }
    EXPECT_EQ(quiz().Score(), static_cast<int>(file["questions"].size()));
    // A wrong prediction on the first question, after starting again.
    quiz().answers.assign(quiz().answers.size(), QuizAnswer{});
    quiz().question = 0;
    const nlohmann::json& first = file["questions"][0];
    if (first.contains("number"))
        quiz().answers[0].typed = std::to_string(first["number"]["answer"].get<double>() + 1000);
    else
        quiz().answers[0].choice =
            (first["answer"].get<int>() + 1) % static_cast<int>(first["choices"].size());
    ASSERT_TRUE(quiz().Reveal(app.pending));
    EXPECT_FALSE(quiz().answers[0].right);
    EXPECT_EQ(quiz().Score(), 0);
    EXPECT_EQ(quiz().Answered(), 1);
}

// Keys while the quiz has the focus: a digit predicts, Enter reveals, Enter again moves on;
// on the flashcards Space flips (and does not start pos A playing), Enter goes to the next card.
TEST_F(QuizTest, KeysPredictRevealAndFlip) {
    quiz().SetQuiz(quiz().quiz);
    int choice_question = -1;
    for (std::size_t k = 0; k < quiz().quiz.questions.size() && choice_question < 0; ++k)
        if (!quiz().quiz.questions[k].IsNumber()) choice_question = static_cast<int>(k);
    ASSERT_GE(choice_question, 0);
    quiz().question = choice_question;
    Frame();
    const int right = quiz().quiz.questions[choice_question].answer;
    Press(keys::kDigit1 + right);
    EXPECT_EQ(quiz().answers[choice_question].choice, right);
    Press(keys::kEnter);
    EXPECT_TRUE(quiz().answers[choice_question].revealed);
    EXPECT_TRUE(quiz().answers[choice_question].right);
    Frame();
    Press(keys::kEnter);
    EXPECT_EQ(quiz().question,
              std::min<int>(choice_question + 1, quiz().quiz.questions.size() - 1));
    ASSERT_EQ(app.scene.Apply(R"({"quiz_mode": "cards", "quiz_card": 0})"), "");
    app.focused_panel = "quiz";
    Frame();
    Frame();
    EXPECT_EQ(app.notice, "");
    EXPECT_EQ(app.focused_panel, "quiz");
    EXPECT_TRUE(quiz().mode == QuizPanel::Mode::Cards);
    Press(keys::kSpace);
    EXPECT_TRUE(quiz().card_back);
    EXPECT_FALSE(state.playing) << "Space flipped the card, nothing else";
    Press(keys::kEnter);
    EXPECT_EQ(quiz().card, 1);
    EXPECT_FALSE(quiz().card_back);
    // Another panel focused: Space plays again.
    app.focused_panel = "waves";
    ASSERT_EQ(app.scene.Apply(R"({"open_panels": ["quiz", "waves"]})"), "");
    Frame();
    app.focused_panel = "waves";
    Press(keys::kSpace);
    EXPECT_TRUE(state.playing);
}

// The teach-back text and ticks are scene fields: saved and read back; shuffled cards show each
// card once.
TEST_F(QuizTest, TeachBackTravelsWithTheSceneAndShuffleIsAPermutation) {
    ASSERT_EQ(app.scene.Apply(R"({"quiz_mode": "teach-back",
                                  "teach_back_text": "Order is lost: addition is commutative.",
                                  "teach_back_ticked": [3, 0, 3]})"),
              "");
    Frame();
    Frame();
    EXPECT_EQ(quiz().ticked, (std::vector<int>{0, 3}));
    const nlohmann::json readouts = app.Document(true)["readouts"]["quiz"];
    EXPECT_EQ(readouts["ticked"], nlohmann::json({0, 3}));
    EXPECT_FALSE(readouts["mentioned"].empty());
    EXPECT_TRUE(app.recorder.rects.count("quiz.teach_text"));
    App other;
    ASSERT_EQ(other.scene.ApplyDocument(app.scene.Document()), "");
    EXPECT_EQ(dynamic_cast<QuizPanel&>(*other.panels.Find("quiz")->panel).teach_back_text,
              "Order is lost: addition is commutative.");
    EXPECT_NE(app.scene.Apply(R"({"teach_back_ticked": [99]})"), "");
    EXPECT_NE(app.scene.Apply(R"({"quiz_mode": "exam"})"), "");
    quiz().shuffle = true;
    const int count = static_cast<int>(quiz().quiz.cards.size());
    std::vector<int> seen;
    for (int k = 0; k < count; ++k)
        seen.push_back(quiz().CardAt(k));
    std::sort(seen.begin(), seen.end());
    for (int k = 0; k < count; ++k) {
        EXPECT_EQ(seen[k], k);
    }
}

TEST_F(QuizTest, BadQuizFilesNameTheItemAndField) {
    const struct {
        const char* text;
        const char* expected;
    } cases[] = {
        {R"({"title": "t", "questions": [{"question": "q", "explanation": "e",
             "choices": ["a", "b"], "answer": 0}, {"question": "q", "explanation": "e",
             "choices": ["a", "b"], "answer": 5}]})",
         "question 2: field \"answer\""},
        {R"({"title": "t", "questions": [{"question": "q", "explanation": "e",
             "number": {"answer": 1}, "show": {"present": "waves", "scene": {"pos_a": -1}}}]})",
         "question 1: field \"show\": field \"pos_a\""},
        {R"({"title": "t", "cards": [{"front": "f"}]})", "card 1: field \"back\""},
        {R"({"title": "t", "cards": [{"front": "f", "back": "b", "show": {"present": "nope"}}]})",
         "card 1: field \"show\": field \"present\""},
        {R"({"title": "t", "teach_back": {"prompt": "p", "rubric": [{"idea": "i"}]}})",
         "teach_back: rubric idea 1: field \"keywords\""},
        {R"({"title": "t", "questions": [], "quizz": 1})", "unknown field \"quizz\""},
        {R"({"title": "t"})", "needs questions, cards or"},
        {R"({"title": "t", "questions": [{"question": "q", "explanation": "e",
             "number": {"answer": 1, "tolerance": -2}}]})",
         "tolerance"},
    };
    const nlohmann::json before = app.scene.Document();
    for (const auto& c : cases) {
        Quiz out;
        const std::string error = ParseQuiz(c.text, app.scene, app.panels, &out);
        EXPECT_NE(error.find(c.expected), std::string::npos) << error;
        EXPECT_TRUE(out.questions.empty() && out.cards.empty());
    }
    EXPECT_EQ(app.scene.Document(), before);
}
