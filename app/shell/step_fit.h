// step_fit.h — whether a lesson step shows what it highlights whole: the step laid out as slides
// in a headless context of its own, at a room's size and text scale, and for each highlighted
// widget the fraction of it in view above the lesson bar. The room test checks every shipped
// lesson with it; `pelab lesson check` warns a teacher with it before class.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pelab {

struct App;
struct Lesson;
struct WidgetRecorder;

/// A room a lesson is shown in: the window's size and the text scale.
struct SlideRoom {
    const char* name;
    float width, height, text_scale;
};
/// The projector every lesson must fit (a back row reads text ×2), and a common laptop screen.
constexpr SlideRoom kProjectorRoom{"1024x768 text x2", 1024, 768, 2.0f};
constexpr SlideRoom kLaptopRoom{"1920x1080 text x1", 1920, 1080, 1.0f};

/// A highlighted widget counts as shown when this much of it is in view, above the lesson bar.
constexpr float kMinVisibleShare = 0.98f;

/// Frames a measurement or a picture waits at most for a step to settle (at 0.6 of the text
/// size after eight tries of three frames each, and the glide landed).
constexpr int kMaxSettleFrames = 60;

/// When a picture (a screenshot, a handout page, a step's measurement) has settled: after at
/// least min_frames frames, and two frames in a row with nothing pending (no step being fitted,
/// no result computed off the frame). ImGui lays out from the last frame's sizes: a widget first
/// scrolled into view in the frame the fitting ends (a plot whose legend wraps onto a second row)
/// is only drawn right in the frame after, as the live window shows it.
class FrameSettler {
public:
    explicit FrameSettler(int min_frames) : min_frames_(min_frames) {}
    /// After each frame: true when the picture may be taken.
    bool Settled(bool pending) {
        ++frames_;
        calm_ = pending ? 0 : calm_ + 1;
        return frames_ >= min_frames_ && calm_ >= 2;
    }

private:
    int min_frames_, frames_ = 0, calm_ = 0;
};

struct HighlightFit {
    std::string name;
    bool drawn = false; ///< false: the step's panels never draw it (not even scrolled away)
    /// The share of the widget's whole rectangle in view above the lesson bar, 0 to 1.
    float visible = 0.0f;
};

struct StepFit {
    std::vector<HighlightFit> highlights; ///< in the step's order
    float bar_top = 0.0f;                 ///< where the lesson bar begins, in pixels from the top
    float scale = 1.0f;         ///< the share of the text size the step's panels are drawn at
    float caption_scale = 1.0f; ///< CaptionScale: the text scale the caption is drawn at
    int caption_lines = 0;      ///< the caption's lines at kMinCaptionScale (CaptionLinesAt)
};

/// The share of the named widget's whole rectangle that is in view inside the window's
/// [0, width] × [0, bar_top] (bar_top: where the lesson bar begins), from this frame's
/// recording; -1 when the widget was not drawn this frame.
float HighlightVisibleShare(const WidgetRecorder& recorder, const std::string& name, float width,
                            float bar_top);

/// Lays out step k of the lesson app is playing (StartLesson first) as the room shows it, in an
/// ImGui context of its own, and measures its highlights. The app's view (text scale) is left
/// as it was; its lesson is left at step k.
StepFit MeasureStepFit(App& app, int k, const SlideRoom& room);

/// "" when every highlight is at least kMinVisibleShare in view; else one phrase per widget
/// ("clocks.grid is 61% in view"), joined with "; ".
std::string StepFitProblem(const StepFit& fit);

/// A number a caption quotes, as written ("0.70", "60 600"), its value, and how far a number on
/// screen may be from it and still be the one quoted: half a unit of its last written digit
/// ("0.70": 0.695 to 0.705; "620": 615 to 625; "9": 8.5 to 9.5).
struct QuotedNumber {
    std::string text;
    double value = 0.0;
    double tolerance = 0.0;
};

/// The numbers a caption quotes: digits standing alone, with a decimal point and groups of three
/// digits after a space ("10 000") allowed, a leading minus sign (- or −) kept. Not a number
/// that is part of a formula or a word: one touching a letter, a Greek letter, ^, _, / or ·
/// ("2π", "ω_i", "base^(−2i/d)", "20/512", "10-word", "4×").
std::vector<QuotedNumber> QuotedNumbers(const std::string& caption);

/// Whether any number in doc (a value, or a number written inside a string) is the quoted one.
bool HoldsNumber(const nlohmann::json& doc, const QuotedNumber& number);

/// What a teacher should know before class that does not stop the lesson from opening, one line
/// per finding ("step 3: …"): a highlighted widget that is not whole on the projector
/// (kProjectorRoom) even drawn at kMinFitScale, and a number in a caption that none of the
/// highlighted widgets shows (the readouts each declares, WidgetName::shows), nor the scene
/// fields of their panels (PanelInfo::scene_fields) hold. The lesson is played in app
/// (StartLesson) and left at its last step.
std::vector<std::string> LessonWarnings(App& app, const Lesson& lesson);

/// A lesson that runs on a checkpoint (Lesson::needs_model): "" problems when the app has one of
/// that family open and each step's presented panel can show its settings with it
/// (Panel::StepProblem); else one line per problem, the missing checkpoint first. The lesson is
/// played in app and left at its last step.
std::vector<std::string> LessonModelProblems(App& app, const Lesson& lesson);

} // namespace pelab
