// frame.h — what one frame hands to a panel: the shared parameters, the requests a panel may
// make of the frame, the services of the session (widget recorder for tests, core timing), and
// the active theme. New services are added here, so a later one never changes every panel's
// signature.
#pragma once

#include "widgets/app_state.h"
#include "widgets/clipboard.h"
#include "widgets/gpu.h"
#include "widgets/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pelab {

/// One-frame commands, made while drawing a frame and consumed when it ends: by ActOnRequests
/// (app_ui.h) where no platform is needed, by the Runner (gl/runner.h) for quit and the PNG
/// export; arrange is read by the next frame's layout, which is where tiling happens.
struct FrameRequests {
    bool quit = false;    ///< Ctrl+Q, File → Quit
    bool arrange = false; ///< tile the open panels again (View → Arrange, Esc, a resize)
    /// File → Export as PNG: the session captures this panel to this path once
    /// export_png_frames more frames are drawn (the dialog that asked must be gone first).
    std::string export_png;
    std::string export_png_panel;
    int export_png_frames = 0;
    /// The picture's size in pixels (the panel drawn alone, offscreen, at that size) and
    /// whether the student's teach-back text may be in it (and in the scene it carries).
    int export_png_width = 0, export_png_height = 0;
    bool export_png_teach_back = false;
    /// A panel's "Save CSV…" button: the frame opens the file dialog for that panel's table.
    std::string export_csv;
    /// Scene fields to apply at the start of the next frame (null: none), e.g. the panel that
    /// shows a quiz answer; and, when set_highlight, the widgets to outline from then on.
    nlohmann::json apply_scene;
    bool set_highlight = false;
    std::vector<std::string> highlight;
};

/// Frame statistics that --bench-frames reports.
struct FrameStats {
    double core_seconds = 0.0; ///< time spent inside pelab_core during the current frame
    /// A panel shows an older result while a new one is computed off the frame: the session
    /// keeps drawing frames until it is ready.
    bool computing = false;
    /// A lesson step is still being fitted to the window (its panels drawn smaller until what it
    /// highlights is whole, see FitStepToRoom): frames go on until it is.
    bool settling = false;
};

/// Screen rectangle of a named widget (see WidgetRecorder), and the fraction of the widget's
/// whole area that it is (1: all of it is in view; less: the rest is scrolled or clipped away).
struct WidgetRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float visible = 1.0f;
    bool operator==(const WidgetRect& o) const {
        return x0 == o.x0 && y0 == o.y0 && x1 == o.x1 && y1 == o.y1 && visible == o.visible;
    }
};

/// The fraction of whole that shown covers (shown is whole's visible part); 1 for an empty
/// whole, which has nothing hidden.
inline float VisibleFraction(const WidgetRect& whole, const WidgetRect& shown) {
    const float area = (whole.x1 - whole.x0) * (whole.y1 - whole.y0);
    if (!(area > 0.0f)) return 1.0f;
    const float seen = std::max(0.0f, shown.x1 - shown.x0) * std::max(0.0f, shown.y1 - shown.y0);
    return std::min(1.0f, seen / area);
}

/// The rectangles as `--widget-rects` writes them: {"name": [x0, y0, x1, y1, visible], …},
/// coordinates to a tenth of a pixel and visible to three decimals; a value that is not
/// finite (a collapsed window can give one) is null.
nlohmann::json WidgetRectsJson(const std::map<std::string, WidgetRect>& rects);

/// Whether a recorder name is one of this panel's ("compare.table" is compare's).
inline bool WidgetBelongsTo(const std::string& name, const std::string& panel_id) {
    return name.size() > panel_id.size() && name.compare(0, panel_id.size(), panel_id) == 0 &&
           name[panel_id.size()] == '.';
}

/// Test hook (`--widget-rects FILE`): when enabled, panels store the visible screen rectangle
/// of each named widget, so end-to-end tests can click it with xdotool.
struct WidgetRecorder {
    bool enabled = false;
    std::map<std::string, WidgetRect> rects;
    /// The inside of the window each named widget was drawn in (the panel's, not a child's):
    /// its outline is clipped to it, never drawn over a neighbouring window or bar.
    std::map<std::string, WidgetRect> clips;
    /// The whole rectangle of each named widget (clipped or not) and the right edge of the
    /// content region it was laid out in: the layout test checks the one against the other.
    struct Placement {
        WidgetRect item;
        float right_edge = 0;
        unsigned window_id = 0; ///< the ImGui window (or child) it was drawn in
    };
    std::map<std::string, Placement> layout;
    /// Names recorded between BeginControls and EndControls (a panel's control rows), learned
    /// as they are drawn: slides show a panel's controls only when the step highlights one.
    std::set<std::string> control_names;
    /// Every name recorded so far (a highlighted name never seen may be a control).
    std::set<std::string> seen_names;
    bool in_controls = false; ///< between BeginControls and EndControls
    /// Frames left in which each panel scrolls so that its outlined widgets are in view (set
    /// when a step or a quiz answer outlines them, and when the window changes size); after
    /// that the student may scroll away.
    int focus_frames = 0;
    /// A widget to scroll into view the next time it is drawn (the first outlined widget of a
    /// lesson step or a quiz answer, which may sit below the fold of its panel); "" = none.
    std::string scroll_to;

    /// Records ImGui's last item under name: its visible part and the fraction of it that is
    /// visible (nothing if hidden).
    void RecordLastItem(const char* name);
};

struct FrameContext {
    FrameContext(AppState& state_in, FrameRequests& requests_in, WidgetRecorder& recorder_in,
                 FrameStats& stats_in, const Theme& theme_in, bool show_controls_in = true,
                 GpuRenderer* gpu_in = nullptr, bool presented_in = false)
        : state(state_in), requests(requests_in), recorder(recorder_in), stats(stats_in),
          theme(theme_in), show_controls(show_controls_in), gpu(gpu_in), presented(presented_in) {}

    AppState& state;
    FrameRequests& requests;
    WidgetRecorder& recorder;
    FrameStats& stats;
    const Theme& theme;
    /// False under View → Hide controls: panels skip their control rows.
    bool show_controls = true;
    /// The GPU pictures; null without a GL context (headless tests): say so instead.
    GpuRenderer* gpu = nullptr;
    /// The clipboard (App::clipboard: ImGui's, or the browser page's asynchronous one); set for
    /// every panel the app draws.
    Clipboard* clipboard = nullptr;
    /// True when this panel fills the window alone (presented to a room, or a screenshot).
    bool presented = false;
    /// Heavy results may be computed off the frame (BackgroundCached), the last one shown
    /// meanwhile: on in the window, off for pictures, readouts and tests, which need this
    /// frame's numbers.
    bool compute_in_background = false;
    /// A short panel (under kShortWindowEms text heights: tiled, or presented on a small
    /// screen): its pictures come before its prose, which follows below them.
    bool pictures_first = false;
    /// Slides: the panel is part of a lesson step shown without the menus; its control rows are
    /// drawn only when slide_controls (the step highlights one of them, or H asked for them).
    bool slides = false;
    bool slide_controls = true;
    /// The widgets outlined now (a lesson step's or a quiz answer's); null: none.
    const std::vector<std::string>* outlined = nullptr;
    /// Whether the slide on screen outlines this widget: a panel then makes room for it whole
    /// (its other pictures take less), since a slide shows its subject whole.
    bool SlideOutlines(const char* name) const {
        return slides && outlined != nullptr &&
               std::find(outlined->begin(), outlined->end(), name) != outlined->end();
    }
    std::string panel_id; ///< the id of the panel being drawn
    /// Set by BeginControls: the controls are in a scrolling strip (see widgets.h).
    bool controls_in_strip = false;
    /// Set by EndControls after a strip: the rest of the panel is in a child window of its own
    /// (the body) that EndPanelBody closes, so the strip and the body scroll side by side and
    /// the panel's window never scrolls around them.
    bool body_in_child = false;
    /// View → Advanced (today's whole app); false: beginner, see ShowsAdvanced.
    bool advanced = true;

    /// Whether an advanced control (recorded as name) is drawn: in advanced mode, or in beginner
    /// mode when the lesson step or quiz answer outlines it.
    bool ShowsAdvanced(const char* name) const {
        if (advanced) return true;
        if (outlined == nullptr) return false;
        for (const std::string& shown : *outlined)
            if (shown == name) return true;
        return false;
    }

    ImU32 Color(Role role) const { return theme.Color(role); }
    ImVec4 ColorVec(Role role) const { return theme.ColorVec(role); }
    /// A line width or marker size given in pixels at the base text size: grows with the text
    /// (Ctrl+=, --font-scale) and with the theme (thicker on the projector theme).
    float Px(float pixels) const;
    void Record(const char* name) { recorder.RecordLastItem(name); }
};

/// Adds the time of its scope to FrameStats::core_seconds: wrap a panel's core calls in it.
class CoreTimer {
public:
    explicit CoreTimer(FrameStats& stats)
        : stats_(stats), start_(std::chrono::steady_clock::now()) {}
    ~CoreTimer() {
        stats_.core_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }
    CoreTimer(const CoreTimer&) = delete;
    CoreTimer& operator=(const CoreTimer&) = delete;

private:
    FrameStats& stats_;
    std::chrono::steady_clock::time_point start_;
};

} // namespace pelab
