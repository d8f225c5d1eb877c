// lesson_player.h — a lesson being taught: which step is on screen, the lesson bar at the bottom
// of the window (step n of N, the caption, Prev / Next / Back to this step), the clicker keys,
// the black screen, the highlighted widgets, and the short glide of the numbers a step changes.
#pragma once

#include "lesson.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <string>

namespace pelab {

struct App;

/// Seconds a step takes to glide pos A, pos B, the base, the pair and k to their new values.
constexpr double kStepGlideSeconds = 0.4;

struct LessonPlayer {
    Lesson lesson;
    int step = -1;        ///< 0-based step on screen; -1: no lesson
    bool blank = false;   ///< B: a black screen until any key
    nlohmann::json start; ///< the scene from before the lesson began
    nlohmann::json shown; ///< the scene the current step set (R / "Back to this step")
    // The glide: from → to over kStepGlideSeconds.
    double glide_elapsed = kStepGlideSeconds;
    double from_pos_a = 0, from_pos_b = 0, from_base = 0, from_pair = 0, from_shift = 0;
    double to_pos_a = 0, to_pos_b = 0, to_base = 0, to_pair = 0, to_shift = 0;
    /// The locked fields a change was snapped back on, for the lesson bar ("" = none lately).
    std::string lock_note;

    bool Active() const { return step >= 0 && !lesson.steps.empty(); }
    int StepCount() const { return static_cast<int>(lesson.steps.size()); }
};

/// Starts lesson (already checked by ParseLesson) at its first step.
void StartLesson(App& app, Lesson lesson);
/// Shows step k (clamped to the lesson): the scene before the lesson, then steps 1 … k applied
/// in order, so that going back restores exactly what that step showed; pos A, pos B and the
/// base glide there from where they were.
void GoToStep(App& app, int k);
/// Moves the glide on by seconds (called once per frame).
void AdvanceGlide(App& app, double seconds);

/// Puts the step's locked fields back to the step's values if anything changed them (called once
/// a frame, after the panels; not during a glide). Says so in the lesson bar.
void HoldLockedFields(App& app);
/// Height of the lesson bar at the current text size (0 without a lesson).
float LessonBarHeight(const App& app);
/// The bar, in the rectangle at the bottom of the window above the status bar.
void DrawLessonBar(App& app, ImVec2 pos, ImVec2 size);
/// Outlines the step's highlighted widgets (from the widget recorder) over everything.
void DrawLessonHighlights(App& app);
/// Outlines the named widgets drawn this frame (from the widget recorder) over everything.
void DrawWidgetOutlines(App& app, const std::vector<std::string>& names);
/// The black screen of B, over everything.
void DrawBlankScreen();
/// A caption with *emphasis*: words between stars in the accent colour, wrapped at spaces.
void DrawCaption(const std::string& caption, ImU32 emphasis);

/// The lesson's state for readouts: {"title", "path", "step" (1-based), "steps", "blank"}.
nlohmann::json LessonReadout(const LessonPlayer& player);

} // namespace pelab
