// lesson_player.h — a lesson being taught: which step is on screen, the lesson bar at the bottom
// of the window (step n of N, the caption, Prev / Next / Back to this step), the clicker keys,
// the black screen, the highlighted widgets, and the short glide of the numbers a step changes.
#pragma once

#include "io/lesson.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <string>

namespace pelab {

struct App;

/// Frames in which panels scroll their outlined widgets into view after a step changes (ImGui
/// settles window sizes over two frames).
constexpr int kFocusFrames = 4;

/// The smallest share of the text size a step's panels are drawn at to show what it highlights
/// whole (at text ×2 on a projector, ×1.2: still larger than a laptop's text), and how much
/// smaller each try is.
constexpr float kMinFitScale = 0.6f;
constexpr float kFitScaleStep = 0.05f;

/// Seconds a step takes to glide pos A, pos B, the base, the pair and k to their new values.
constexpr double kStepGlideSeconds = 0.4;

struct LessonPlayer {
    Lesson lesson;
    int step = -1;        ///< 0-based step on screen; -1: no lesson
    bool blank = false;   ///< B: a black screen until any key
    nlohmann::json start; ///< where every step's scene starts: LessonStart
    nlohmann::json shown; ///< the scene the current step set (R / "Back to this step")
    // The glide: from → to over kStepGlideSeconds.
    double glide_elapsed = kStepGlideSeconds;
    double from_pos_a = 0, from_pos_b = 0, from_base = 0, from_pair = 0, from_shift = 0;
    double to_pos_a = 0, to_pos_b = 0, to_base = 0, to_pair = 0, to_shift = 0;
    /// Slides draw the step's panels at this share of the text size when what the step
    /// highlights is not whole at full size (FitStepToRoom), from 1 down to kMinFitScale; fit
    /// says the search is over (a new step, or a new window size, starts it again at 1).
    float fit_scale = 1.0f;
    bool fit_done = false;
    int fit_wait = 0; ///< frames to let the layout settle before the next measurement
    /// H in slides: every control row, not only those the step outlines.
    bool all_controls = false;
    /// S: the step's speaker notes over the top of the picture (stays on from step to step).
    bool show_notes = false;
    /// The locked fields a change was snapped back on, for the lesson bar ("" = none lately).
    std::string lock_note;

    bool Active() const { return step >= 0 && !lesson.steps.empty(); }
    int StepCount() const { return static_cast<int>(lesson.steps.size()); }
};

/// Where a lesson's steps start: the app's defaults without the room's fields (theme, text
/// size, hidden controls) and the student's teach-back text. Pass it to LoadLesson / ReadLesson
/// so that a lesson is checked from where it will be shown.
nlohmann::json LessonStart(const App& app);
/// Starts lesson (already checked by ReadLesson from LessonStart) at its first step.
void StartLesson(App& app, Lesson lesson);
/// Shows step k (clamped to the lesson): the scene before the lesson, then steps 1 … k applied
/// in order, so that going back restores exactly what that step showed; pos A, pos B and the
/// base glide there from where they were.
void GoToStep(App& app, int k);
/// Ends the lesson: no lesson bar, no slides, the menus back; the scene the step showed stays
/// (what the class was looking at), and the panels are arranged again.
void EndLesson(App& app);
/// Starts the search for the step's scale again at full size (a new step, a new window size).
void RefitStep(LessonPlayer& player);
/// Once a frame in slides, after the panels: while a highlighted widget is less than
/// kMinVisibleShare in view above bar_top (the lesson bar's top), the step's panels are drawn
/// kFitScaleStep smaller from the next frames on, down to kMinFitScale. A widget the step's
/// panels do not draw is left to `lesson check`, which names it.
void FitStepToRoom(App& app, float bar_top);
/// Moves the glide on by seconds (called once per frame).
void AdvanceGlide(App& app, double seconds);

/// Puts the step's locked fields back to the step's values if anything changed them (called once
/// a frame, after the panels; not during a glide). Says so in the lesson bar.
void HoldLockedFields(App& app);
/// The lesson bar holds three caption lines; a longer caption is drawn smaller, down to
/// kMinCaptionScale of the text size, and beyond that scrolls (`pelab lesson check` and the
/// reader keep captions within kMaxCaptionCharacters so that it does not happen).
constexpr int kCaptionLines = 3;
constexpr float kMinCaptionScale = 0.8f;

/// Height of the lesson bar at the current text size (0 without a lesson): three caption lines.
float LessonBarHeight(const App& app);
/// The text scale the step's caption is drawn at in a bar bar_width wide: 1, 0.9 or 0.8, the
/// largest at which it takes at most kCaptionLines lines.
float CaptionScale(const LessonPlayer& player, float bar_width);
/// Lines the step's caption (and lock note) wrap to in a bar bar_width wide at this text scale.
int CaptionLinesAt(const LessonPlayer& player, float bar_width, float scale);
/// The bar, in the rectangle at the bottom of the window (above the status bar outside slides):
/// the caption on the left, "Step n of N" and ◀ ▶ ↺ on the right.
void DrawLessonBar(App& app, ImVec2 pos, ImVec2 size);
/// Outlines the step's highlighted widgets (from the widget recorder) over everything.
/// top: outlines are cut above this y (the notes' bottom edge when they are shown).
void DrawLessonHighlights(App& app, float top = -1e30f);
/// The step's speaker notes (S), in a window over the top of the picture: at most 40 % of the
/// height, scrolling when longer; "no notes" when the step has none. Recorded as "lesson.notes".
/// Returns the notes' bottom edge (y), to keep the outlines off them.
float DrawLessonNotes(App& app);
/// Outlines the named widgets drawn this frame (from the widget recorder) over everything.
void DrawWidgetOutlines(App& app, const std::vector<std::string>& names, float top = -1e30f);
/// The black screen of B, over everything.
void DrawBlankScreen();

/// The lesson's state for readouts: {"title", "path", "step" (1-based), "steps", "blank"}.
nlohmann::json LessonReadout(const LessonPlayer& player);

} // namespace pelab
