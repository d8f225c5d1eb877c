#include "shell/lesson_player.h"

#include "shell/app.h"
#include "shell/step_fit.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

// 0 → 1 with zero speed at both ends (the glide starts and lands softly).
double Ease(double t) {
    t = std::clamp(t, 0.0, 1.0);
    return t * t * (3 - 2 * t);
}

} // namespace

nlohmann::json LessonStart(const App& app) {
    nlohmann::json start = app.defaults;
    // The theme, text size, mode and hidden controls are the room's (a step may still set them);
    // the teach-back text is the student's work, typed during the lesson: a step never takes it
    // back (and asks before replacing it).
    for (const char* room : {"theme", "font_scale", "mode", "hide_controls", "teach_back_text"})
        start.erase(room);
    return start;
}

void StartLesson(App& app, Lesson lesson) {
    app.lesson.lesson = std::move(lesson);
    app.lesson.start = LessonStart(app);
    app.lesson.blank = false;
    app.lesson.step = -1;
    app.view.slide_mode = true;
    // Highlights need the widgets' rectangles.
    app.recorder.enabled = true;
    GoToStep(app, 0);
}

void GoToStep(App& app, int k) {
    LessonPlayer& player = app.lesson;
    if (player.lesson.steps.empty()) return;
    k = std::clamp(k, 0, player.StepCount() - 1);
    const double pos_a = app.state.pos_a, pos_b = app.state.pos_b, base = app.state.base;
    const double pair = app.state.pair, shift = app.state.shift_k;
    // Every step was checked in this order when the lesson was read, so none of these fails.
    // A step is the lesson's own scene: the steps up to it applied to the start (the defaults),
    // or from the start again at a fresh step; what the students changed is undone.
    app.scene.ApplyDocument(player.start);
    for (int s = 0; s <= k; ++s) {
        if (player.lesson.steps[s].fresh) app.scene.ApplyDocument(player.start);
        app.scene.ApplyDocument(app.GuardStudentWork(player.lesson.steps[s].scene));
    }
    player.shown = app.scene.Document();
    const bool had_step = player.step >= 0;
    player.step = k;
    app.pending.arrange = true;
    // Glide the numbers that changed from where they were (not on the first step: there is
    // nothing on screen to glide from).
    player.to_pos_a = app.state.pos_a, player.to_pos_b = app.state.pos_b;
    player.to_base = app.state.base;
    player.from_pos_a = pos_a, player.from_pos_b = pos_b, player.from_base = base;
    player.to_pair = app.state.pair, player.to_shift = app.state.shift_k;
    player.from_pair = pair, player.from_shift = shift;
    player.lock_note.clear();
    player.glide_elapsed = had_step ? 0.0 : kStepGlideSeconds;
    const std::vector<std::string>& outlined = player.lesson.steps[k].highlight;
    app.recorder.scroll_to = outlined.empty() ? std::string() : outlined.front();
    app.recorder.focus_frames = kFocusFrames;
    player.all_controls = false;
    RefitStep(player);
    AdvanceGlide(app, 0.0);
}

void EndLesson(App& app) {
    LessonPlayer& player = app.lesson;
    player.lesson = Lesson{};
    player.step = -1;
    player.blank = false;
    player.show_notes = false;
    player.all_controls = false;
    player.lock_note.clear();
    app.view.slide_mode = false;
    app.pending.arrange = true;
    app.home_fit.done = false; // the panels the lesson left, fitted to the window again
}

void RefitStep(LessonPlayer& player) {
    player.fit_scale = 1.0f;
    player.fit_done = false;
    player.fit_wait = 1;
}

void FitStepToRoom(App& app, float bar_top) {
    LessonPlayer& player = app.lesson;
    if (!player.Active() || player.blank || player.fit_done) return;
    app.stats.settling = true;
    if (player.fit_wait > 0) {
        --player.fit_wait;
        return;
    }
    const std::vector<std::string>& names = player.lesson.steps[player.step].highlight;
    bool whole = true;
    for (const std::string& name : names) {
        const float share =
            HighlightVisibleShare(app.recorder, name, ImGui::GetIO().DisplaySize.x, bar_top);
        if (share >= 0.0f && share < kMinVisibleShare) whole = false;
    }
    if (whole || player.fit_scale <= kMinFitScale + 1e-4f) {
        player.fit_done = true;
        app.stats.settling = false;
        return;
    }
    player.fit_scale = std::max(kMinFitScale, player.fit_scale - kFitScaleStep);
    // Two frames for ImGui to size the windows at the new scale, then measure again; the
    // outlined widgets are scrolled into view meanwhile.
    player.fit_wait = 2;
    app.recorder.focus_frames = kFocusFrames;
    app.recorder.scroll_to = names.empty() ? std::string() : names.front();
}

void AdvanceGlide(App& app, double seconds) {
    LessonPlayer& player = app.lesson;
    if (!player.Active() || player.glide_elapsed >= kStepGlideSeconds) return;
    player.glide_elapsed = std::min(kStepGlideSeconds, player.glide_elapsed + seconds);
    const double t = Ease(player.glide_elapsed / kStepGlideSeconds);
    AppState& state = app.state;
    state.pos_a = player.from_pos_a + (player.to_pos_a - player.from_pos_a) * t;
    state.pos_b = player.from_pos_b + (player.to_pos_b - player.from_pos_b) * t;
    // The base on a log scale, as its slider is.
    state.base = std::exp(std::log(player.from_base) +
                          (std::log(player.to_base) - std::log(player.from_base)) * t);
    // The pair and k are whole numbers: they count through the ones between.
    state.pair =
        static_cast<int>(std::lround(player.from_pair + (player.to_pair - player.from_pair) * t));
    state.shift_k = static_cast<int>(
        std::lround(player.from_shift + (player.to_shift - player.from_shift) * t));
    if (player.glide_elapsed >= kStepGlideSeconds) {
        // Land exactly on the step's values.
        state.pos_a = player.to_pos_a, state.pos_b = player.to_pos_b, state.base = player.to_base;
        state.pair = static_cast<int>(player.to_pair);
        state.shift_k = static_cast<int>(player.to_shift);
    }
    state.Clamp();
}

void HoldLockedFields(App& app) {
    LessonPlayer& player = app.lesson;
    if (!player.Active() || player.glide_elapsed < kStepGlideSeconds) return;
    const std::vector<std::string>& locked = player.lesson.steps[player.step].lock;
    if (locked.empty()) return;
    nlohmann::json restore = nlohmann::json::object();
    for (const std::string& name : locked) {
        const SceneField* field = app.scene.Find(name);
        if (field == nullptr || !player.shown.contains(name)) continue;
        if (field->write() != player.shown[name]) restore[name] = player.shown[name];
    }
    if (restore.empty()) return;
    // The step's own values were valid when it was shown; a locked pair may need the step's
    // d_model back with it (the student changed d_model, which is not locked).
    if (!app.scene.ApplyDocument(restore).empty()) {
        restore["d_model"] = player.shown.value("d_model", nlohmann::json(app.state.d_model));
        if (!app.scene.ApplyDocument(restore).empty()) {
            player.lock_note = "This step's locked values no longer fit the settings; Back to "
                               "this step (R) restores them.";
            return;
        }
    }
    std::string names;
    for (const auto& item : restore.items())
        names += (names.empty() ? "" : ", ") + item.key();
    player.lock_note = names + (restore.size() == 1 ? " is" : " are") +
                       " locked in this step: the lesson keeps " +
                       (restore.size() == 1 ? "it" : "them") + " where the step set " +
                       (restore.size() == 1 ? "it" : "them") + ".";
}

namespace {

// The bar's right-hand column: "Step n of N" over the ◀ ▶ ↺ buttons.
constexpr const char* kPrevLabel = "◀##prev";
constexpr const char* kNextLabel = "▶##next";
constexpr const char* kRestoreLabel = "↺##restore";

float StepColumnWidth(const LessonPlayer& player) {
    char widest[64];
    std::snprintf(widest, sizeof widest, "Step %d of %d", player.StepCount(), player.StepCount());
    return std::max(ImGui::CalcTextSize(widest).x,
                    ButtonWidth(kPrevLabel) + ButtonWidth(kNextLabel) + ButtonWidth(kRestoreLabel) +
                        FlowRow::Spacing(2));
}

float BarPadding() {
    return ImGui::GetFontSize() * 0.3f;
}

// The caption without its stars, and the lock note, as the lines they wrap to at this width
// and text scale.
int CaptionLines(const LessonPlayer& player, float width, float scale) {
    std::string caption = player.lesson.steps[player.step].caption;
    caption.erase(std::remove(caption.begin(), caption.end(), '*'), caption.end());
    const auto measure = [scale](const std::string& text) {
        return ImGui::CalcTextSize(text.c_str()).x * scale;
    };
    int lines = static_cast<int>(
        std::max<std::size_t>(WrapAtSpaces(caption, width, width, measure).size(), 1));
    if (!player.lock_note.empty())
        lines += static_cast<int>(WrapAtSpaces(player.lock_note, width, width, measure).size());
    return lines;
}

float CaptionWidth(const LessonPlayer& player, float bar_width) {
    return std::max(bar_width - BarPadding() * 2 - StepColumnWidth(player) -
                        ImGui::GetStyle().ItemSpacing.x * 2,
                    ImGui::GetFontSize() * 4);
}

} // namespace

int CaptionLinesAt(const LessonPlayer& player, float bar_width, float scale) {
    if (!player.Active()) return 0;
    return CaptionLines(player, CaptionWidth(player, bar_width), scale);
}

float CaptionScale(const LessonPlayer& player, float bar_width) {
    if (!player.Active()) return 1.0f;
    const float width = CaptionWidth(player, bar_width);
    for (const float scale : {1.0f, 0.9f, kMinCaptionScale})
        if (CaptionLines(player, width, scale) <= kCaptionLines) return scale;
    return kMinCaptionScale;
}

float LessonBarHeight(const App& app) {
    if (!app.lesson.Active()) return 0.0f;
    // Three caption lines (the caption shrinks, down to kMinCaptionScale, rather than grow the
    // bar), or the step column, whichever is taller.
    const float line = ImGui::GetTextLineHeight();
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float caption = line * kCaptionLines + spacing * (kCaptionLines - 1);
    const float column = line + spacing + ImGui::GetFrameHeight();
    return std::max(caption, column) + BarPadding() * 2;
}

void DrawLessonBar(App& app, ImVec2 pos, ImVec2 size) {
    LessonPlayer& player = app.lesson;
    if (!player.Active()) return;
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(BarPadding(), BarPadding()));
    const bool visible = ImGui::Begin("##lesson", nullptr, flags);
    ImGui::PopStyleVar();
    if (visible) {
        app.recorder.RecordLastItem("lesson.bar");
        const Theme& theme = GetTheme(app.view.theme);
        const int step = player.step + 1, steps = player.StepCount();
        // The caption on the left, as large as three lines allow.
        const float scale = CaptionScale(player, size.x);
        const float column = StepColumnWidth(player);
        // A caption that fits its three lines needs no scrollbar (the last line's spacing would
        // otherwise show one); a longer one (lesson check refuses it) can still be scrolled.
        const float caption_width = CaptionWidth(player, size.x);
        const bool fits = CaptionLines(player, caption_width, scale) <= kCaptionLines;
        ImGui::BeginChild("##caption", ImVec2(caption_width, 0), false,
                          fits ? ImGuiWindowFlags_NoScrollbar : ImGuiWindowFlags_None);
        ImGui::SetWindowFontScale(scale);
        if (!player.lock_note.empty()) {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextColored(theme.ColorVec(Role::Warning), "%s", player.lock_note.c_str());
            ImGui::PopTextWrapPos();
            app.recorder.RecordLastItem("lesson.lock_note");
        }
        DrawCaption(player.lesson.steps[player.step].caption, theme.Color(Role::Accent));
        ImGui::EndChild();
        app.recorder.RecordLastItem("lesson.caption");
        // The step and the buttons on the right.
        ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - column);
        ImGui::BeginGroup();
        ImGui::TextDisabled("Step %d of %d", step, steps);
        app.recorder.RecordLastItem("lesson.heading");
        if (ImGui::IsItemHovered())
            Tooltip("%s\n\nF5: %s.", player.lesson.title.c_str(),
                    app.view.slide_mode ? "the menus and the status bar"
                                        : "slides (the lesson without the menus)");
        ImGui::BeginDisabled(step == 1);
        if (ImGui::Button(kPrevLabel)) GoToStep(app, player.step - 1);
        ImGui::EndDisabled();
        FormulaTooltip("The step before (PageUp or P).");
        app.recorder.RecordLastItem("lesson.prev");
        ImGui::SameLine();
        ImGui::BeginDisabled(step == steps);
        if (ImGui::Button(kNextLabel)) GoToStep(app, player.step + 1);
        ImGui::EndDisabled();
        FormulaTooltip("The next step (PageDown, N, or a presentation clicker).");
        app.recorder.RecordLastItem("lesson.next");
        ImGui::SameLine();
        if (ImGui::Button(kRestoreLabel)) GoToStep(app, player.step);
        FormulaTooltip("Back to this step: undo what was changed since it began (R).");
        app.recorder.RecordLastItem("lesson.restore");
        ImGui::EndGroup();
    }
    ImGui::End();
}

void DrawLessonHighlights(App& app, float top) {
    const LessonPlayer& player = app.lesson;
    if (!player.Active() || player.blank) return;
    DrawWidgetOutlines(app, player.lesson.steps[player.step].highlight, top);
}

float DrawLessonNotes(App& app) {
    const LessonPlayer& player = app.lesson;
    if (!player.Active() || player.blank) return -1e30f;
    const std::string& notes = player.lesson.steps[player.step].notes;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float pad = BarPadding();
    ImGui::SetNextWindowPos(viewport->Pos);
    ImGui::SetNextWindowSizeConstraints(ImVec2(viewport->Size.x, 0),
                                        ImVec2(viewport->Size.x, viewport->Size.y * 0.4f));
    ImGui::SetNextWindowBgAlpha(1.0f); // read over the busy picture below
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
    float bottom = -1e30f;
    if (ImGui::Begin("##lesson_notes", nullptr, flags)) {
        bottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
        // Over the panels, which come to the front when clicked.
        ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
        app.recorder.RecordLastItem("lesson.notes");
        ImGui::TextDisabled("Notes, step %d of %d (S hides them)", player.step + 1,
                            player.StepCount());
        if (notes.empty())
            ImGui::TextUnformatted("This step has no notes.");
        else
            WrappedText(notes.c_str());
    }
    ImGui::End();
    ImGui::PopStyleVar();
    return bottom;
}

void DrawWidgetOutlines(App& app, const std::vector<std::string>& names, float top) {
    const ImU32 colour = GetTheme(app.view.theme).Color(Role::Outline);
    const float pad = ImGui::GetFontSize() * 0.25f;
    // In a window of their own over the panels, placed just above the frontmost panel: the
    // menus, popups and the windows floating over the panels (help, glossary) stay on top of
    // the outlines, which never cross them.
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->Pos);
    ImGui::SetNextWindowSize(viewport->Size);
    ImGui::Begin("##outlines", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                     ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoNav);
    ImGuiWindow* overlay = ImGui::GetCurrentWindow();
    // A still outline (a pulse would keep the window redrawing, and the laptop's fan running).
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRectFullScreen();
    for (const std::string& name : names) {
        const auto found = app.recorder.rects.find(name);
        if (found == app.recorder.rects.end()) continue;
        const WidgetRect& r = found->second;
        // Within the window the widget is in (the outline's pad would reach over a neighbour).
        const auto clip = app.recorder.clips.find(name);
        const float thickness = std::max(2.0f, ImGui::GetFontSize() * 0.18f);
        // Above and below, no further than the gap to the next line: the stroke sat on the
        // line above the widget and cut through its letters.
        const float pad_y =
            std::max(0.0f, std::min(pad, ImGui::GetStyle().ItemSpacing.y - thickness * 0.5f));
        ImVec2 min(r.x0 - pad, r.y0 - pad_y), max(r.x1 + pad, r.y1 + pad_y);
        if (clip != app.recorder.clips.end()) {
            const ImVec2 clip_min(clip->second.x0, std::max(clip->second.y0, top)),
                clip_max(clip->second.x1, clip->second.y1);
            draw->PushClipRect(clip_min, clip_max, false);
            // Drawn inside the clip: a control in a strip as tall as its rows gets its outline's
            // bottom edge too (the pad below reached past the strip, and only three sides
            // showed).
            const float inset = thickness * 0.5f;
            min = ImVec2(std::max(min.x, clip_min.x + inset), std::max(min.y, clip_min.y + inset));
            max = ImVec2(std::min(max.x, clip_max.x - inset), std::min(max.y, clip_max.y - inset));
        }
        if (max.x > min.x && max.y > min.y) draw->AddRect(min, max, colour, pad, 0, thickness);
        if (clip != app.recorder.clips.end()) draw->PopClipRect();
    }
    draw->PopClipRect();
    ImGui::End();
    // Just in front of the frontmost panel window (the rest of the windows stay in front).
    ImGuiWindow* frontmost_panel = nullptr;
    for (ImGuiWindow* window : ImGui::GetCurrentContext()->Windows)
        if (window->Active && window->ParentWindow == nullptr)
            for (const PanelEntry& entry : app.panels.Entries())
                if (window->Name == entry.window_name) frontmost_panel = window;
    ImGuiWindow* next = nullptr;
    bool after = frontmost_panel == nullptr;
    for (ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
        if (window == frontmost_panel) {
            after = true;
            continue;
        }
        if (after && window != overlay && window->Active && window->ParentWindow == nullptr) {
            next = window;
            break;
        }
    }
    if (next != nullptr)
        ImGui::BringWindowToDisplayBehind(overlay, next);
    else
        ImGui::BringWindowToDisplayFront(overlay);
}

void DrawBlankScreen() {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::GetForegroundDrawList()->AddRectFilled(
        viewport->Pos,
        ImVec2(viewport->Pos.x + viewport->Size.x, viewport->Pos.y + viewport->Size.y),
        IM_COL32(0, 0, 0, 255));
}

nlohmann::json LessonReadout(const LessonPlayer& player) {
    if (!player.Active()) return nullptr;
    return {{"title", player.lesson.title},
            {"path", player.lesson.path},
            {"step", player.step + 1},
            {"steps", player.StepCount()},
            {"blank", player.blank},
            {"highlight", player.lesson.steps[player.step].highlight},
            {"lock", player.lesson.steps[player.step].lock}};
}

} // namespace pelab
