// panel_quiz.h — check your understanding: predict-then-reveal questions
// with a score and feedback that explains, flashcards that flip by click or Space, and
// teach-back: the student explains the idea in their own words beside a rubric of the key ideas,
// with the ideas their text seems to mention marked (a word-matching hint, not a grade). The
// questions, cards and rubric come from a quiz file (quiz.h); the built-in one is
// assets/quiz/positional-encoding.json.
#pragma once

#include "io/quiz.h"
#include "panels/panel.h"

#include <string>
#include <vector>

namespace pelab {

/// One question's progress: the prediction, then the reveal.
struct QuizAnswer {
    int choice = -1;   ///< the predicted choice (-1: none yet)
    std::string typed; ///< a number question's field
    bool revealed = false;
    bool right = false;
};

/// The longest teach-back text, in bytes (a scene field; typing stops there).
constexpr std::size_t kMaxTeachBackBytes = 8000;

struct QuizPanel : Panel {
    enum class Mode { Questions, Cards, TeachBack };
    Quiz quiz;
    std::string load_error; ///< the built-in quiz failed its checks (a build defect)
    // Own settings (scene fields).
    Mode mode = Mode::Questions;
    int question = 0;            ///< 0-based
    int card = 0;                ///< 0-based, in the shown order
    bool card_back = false;      ///< the card shows its back
    bool shuffle = false;        ///< cards in a shuffled order (a fixed seed: repeatable)
    std::string teach_back_text; ///< the student's explanation (saved with the scene)
    std::vector<int> ticked;     ///< rubric ideas the student ticked (indices)
    // Progress (not in scenes: a scene is a view, not a result).
    std::vector<QuizAnswer> answers;
    Mode drawn_mode = Mode::Questions; ///< the tab drawn last frame (to follow a scene's mode)

    void Ready(const SceneTable& table, const PanelCatalog& panels) override;
    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();
    bool TakeKey(const KeyPress& press, FrameRequests& requests) override;
    std::string DocumentKind() const override { return "quiz"; }
    /// Reads a quiz file (checked whole: nothing changes when it is refused) and shows it.
    std::string OpenDocument(const nlohmann::json& doc, const std::string& path,
                             const SceneTable& table, const PanelCatalog& panels) override;

    /// Replaces the quiz (progress starts again).
    void SetQuiz(Quiz replacement);
    /// The card shown at position k of the order (shuffled or not).
    int CardAt(int k) const;
    /// Reveals the current question (when predicted): scores it, and asks the frame to open the
    /// panel that shows the answer. False when there is no prediction yet.
    bool Reveal(FrameRequests& requests);
    /// Asks the frame to open a show's panel beside the quiz, set its scene, outline its widgets.
    static void RequestShow(const LessonStep& show, FrameRequests& requests);
    int Score() const;
    /// Brings question and card within this quiz (a scene may name one past its end).
    void ClampPositions();
    int Answered() const;

private:
    void DrawQuestions(FrameContext& frame);
    void DrawChoices(FrameContext& frame, const QuizQuestion& q, QuizAnswer& answer);
    void DrawCards(FrameContext& frame);
    void DrawTeachBack(FrameContext& frame);
    void GoToQuestion(int k, FrameRequests& requests);
};

} // namespace pelab
