// plot.h — PE Lab's own small plotting helper on ImDrawList (ImPlot is not packaged in Debian).
// Written once, used by every panel.
//
// Usage order (as in ImPlot):
//     plot::Plot p;
//     if (p.Begin("##waves", view, ImVec2(-1, 300), config)) {
//         p.Line("sin", xs, ys, n, palette::kBlue);
//         p.VLine(cursor_x, palette::kVermillion, "pos A");
//         p.End();                       // only when Begin returned true
//     }
// Data contract (as ImPlot's): the caller owns every array and passes pointer + count; the
// helper reads them during the call (Line, Markers, Bars) and, for the hover readout, again in
// End(), so they must live until End(). A series' xs are ascending (the hover readout
// bisects them); NaN or infinite points break a line instead of drawing to infinity. The helper
// never copies or frees caller data; its own scratch buffers live in the Plot object.
// Interaction: Ctrl + mouse wheel zooms around the cursor (the plain wheel scrolls the page, as
// maps and simulations on the web do; the first plain wheel over a plot says how to zoom),
// left-drag pans, double-click resets the view to its home range; hovering shows a crosshair and
// each line's value under the cursor. Every zoom and pan is bounded (ClampView), whatever the
// input. Images: Image() draws a texture (e.g. a GPU-computed heatmap) stretched over data bounds.
#pragma once

#include <imgui.h>

#include <vector>

namespace pelab::plot {

struct Range {
    double min = 0.0;
    double max = 1.0;
    double Size() const { return max - min; }
};

/// Plot-wide options, combined with |.
enum PlotFlags {
    PlotFlags_None = 0,
    PlotFlags_NoLegend = 1 << 0,       ///< no legend box
    PlotFlags_NoHoverReadout = 1 << 1, ///< no crosshair and value tooltip on hover
    PlotFlags_NoYTicks = 1 << 2,       ///< no y tick labels (e.g. stacked lanes label themselves)
    PlotFlags_EqualAspect = 1 << 3,    ///< one unit is as many pixels on x as on y (round circles)
};

/// Marker shapes: where two series share a colour family, the shape tells them apart too.
/// Ring: hollow, so a smaller marker at the same point stays visible inside it.
enum class Marker { Circle, Square, Ring };

enum AxisFlags {
    AxisFlags_None = 0,
    AxisFlags_Log = 1 << 0,     ///< logarithmic (values must be > 0)
    AxisFlags_NoZoom = 1 << 1,  ///< wheel and drag leave this axis alone
    AxisFlags_Integer = 1 << 2, ///< the axis counts things (pair index): whole-number ticks only
};

/// Caller-owned view state of one plot: the range shown and the "home" range that a
/// double-click or Reset() returns to.
struct PlotView {
    Range x, y;
    Range home_x, home_y;
    bool has_home = false;
    /// Rows the legend took last frame (it wraps when the plot is narrow); Begin keeps room.
    int legend_rows = 1;
    /// The first plain wheel over the plot (which scrolls the page, and may carry the plot away
    /// from under the mouse): "Ctrl + wheel zooms" shows until this ImGui time, once per view.
    double wheel_hint_until = -1.0;
    bool hovered = false; ///< the mouse was over the data last frame
    /// PlotFlags_EqualAspect: the x range Begin last fitted the home into; while x is still it
    /// (no zoom or pan since), the fit is redone each frame, as the plot's size settles.
    Range fitted_x{0, 0};

    /// Sets the home range; the first call also shows it.
    void SetHome(Range new_x, Range new_y);
    /// Sets the home range and shows it now (new axes, e.g. after d_model changed).
    void Refit(Range new_x, Range new_y);
    /// Shows the home range again (what a double-click does).
    void Reset() { x = home_x, y = home_y; }
    /// Whether the wheel hint is on screen now.
    bool WheelHintShown() const;
};

/// Seconds the wheel hint stays.
constexpr double kWheelHintSeconds = 3.0;

struct PlotConfig {
    const char* x_label = nullptr;
    const char* y_label = nullptr;
    int flags = PlotFlags_None; ///< PlotFlags
    int x_flags = AxisFlags_None;
    int y_flags = AxisFlags_None;
    /// Width of the left margin in pixels (0: room for the y tick labels), e.g. for labels
    /// drawn there after End.
    float left_margin = 0.0f;
    Range x_limits{-1e300, 1e300}; ///< panning and zooming never leave these
    Range y_limits{-1e300, 1e300}; ///< (on a log axis also never below kLogAxisMin)
};

class Plot {
public:
    /// Lays out the plot (size.x ≤ 0: full width; size.y ≤ 0: full height) and handles input.
    bool Begin(const char* id, PlotView& view, ImVec2 size, const PlotConfig& config);
    void End();

    /// The series' labels (and VLine/HLine labels) are kept as pointers for the legend, drawn
    /// by End: the text must live until End returns.
    void Line(const char* label, const double* xs, const double* ys, int count, ImU32 color,
              float thickness = 2.0f);
    void Markers(const char* label, const double* xs, const double* ys, int count, ImU32 color,
                 float radius = 3.0f, Marker shape = Marker::Circle);
    /// A line with a marker on every `every`-th point (and the last), its legend entry the line
    /// swatch with the marker on it: series of one colour tell apart by their shape.
    void LineMarkers(const char* label, const double* xs, const double* ys, int count, ImU32 color,
                     float thickness, float radius, Marker shape, int every = 1);
    /// Vertical bars from y = 0 to ys[k], each width data units wide, centred on xs[k].
    void Bars(const char* label, const double* xs, const double* ys, int count, double width,
              ImU32 color);
    /// A texture stretched over the data rectangle x × y (uv0 at (x.min, y.max), the top left).
    void Image(ImTextureID texture, Range x, Range y, ImVec2 uv0 = ImVec2(0, 0),
               ImVec2 uv1 = ImVec2(1, 1));
    void VLine(double x, ImU32 color, const char* label = nullptr, float thickness = 1.5f);
    void HLine(double y, ImU32 color, const char* label = nullptr, float thickness = 1.0f);
    void Text(double x, double y, const char* text, ImU32 color, ImVec2 pixel_offset = {0, 0});

    ImVec2 ToPixels(double x, double y) const;
    double PixelToX(float px) const;
    double PixelToY(float py) const;
    bool IsHovered() const { return hovered_; }
    double MouseX() const { return mouse_x_; }
    double MouseY() const { return mouse_y_; }
    /// A left click that did not drag (e.g. to pick the nearest point).
    bool Clicked() const { return clicked_; }
    ImDrawList* DrawList() const { return draw_list_; }
    ImVec2 PlotMin() const { return plot_min_; }
    ImVec2 PlotMax() const { return plot_max_; }
    /// Pixels per unit on x (how dense integer markers would be).
    float PixelsPerUnitX() const;
    /// After End: where the legend row and each VLine label were drawn (screen rectangles, as
    /// min.x, min.y, max.x, max.y), for tests that check nothing overlaps.
    ImVec4 LegendRect() const { return legend_rect_; }
    const std::vector<ImVec4>& LineLabelRects() const { return line_label_rects_; }
    /// Where each HLine's label was drawn, in the order of the calls.
    const std::vector<ImVec4>& HLineLabelRects() const { return hline_label_rects_; }

private:
    void DrawFittedLabel(const char* label, ImU32 color);
    struct LegendEntry {
        const char* label;
        ImU32 color;
        bool marker; ///< drawn as a marker instead of a line swatch
        Marker shape;
        bool line_and_marker = false; ///< the line swatch with the marker on it
    };
    struct LineLabel {
        const char* label;
        ImU32 color;
        float px;
    };
    struct HoverSeries {
        const char* label;
        const double* xs;
        const double* ys;
        int count;
        ImU32 color;
    };
    double ToAxisX(double x) const;
    double ToAxisY(double y) const;
    void DrawAxes();

    PlotView* view_ = nullptr;
    PlotConfig config_;
    ImDrawList* draw_list_ = nullptr;
    ImVec2 frame_min_, frame_max_, plot_min_, plot_max_;
    ImVec4 legend_rect_{0, 0, 0, 0};
    std::vector<ImVec4> line_label_rects_;
    std::vector<ImVec4> hline_label_rects_;
    bool hovered_ = false;
    bool clicked_ = false;
    double mouse_x_ = 0, mouse_y_ = 0;
    std::vector<LegendEntry> legend_;
    std::vector<LineLabel> line_labels_;
    std::vector<HoverSeries> hover_series_;
    std::vector<ImVec2> points_; ///< scratch for Line(), reused across calls
};

/// Colour maps. Diverging: a colour-blind-safe blue (−1) → neutral (0) → vermillion (+1) by
/// default, or the theme's; t outside [−1, 1] is clamped, NaN is neutral.
struct DivergingMap {
    ImU32 negative = IM_COL32(0x00, 0x72, 0xB2, 0xFF);
    ImU32 middle = IM_COL32(0xDB, 0xDB, 0xDB, 0xFF);
    ImU32 positive = IM_COL32(0xD5, 0x5E, 0x00, 0xFF);
};
ImU32 Diverging(double t, const DivergingMap& map = {});
/// Sequential for [0, 1] (five stops of viridis: dark purple → teal → yellow).
ImU32 Sequential(double t);
/// Black or white, whichever reads better on the given background.
ImU32 TextColorOn(ImU32 background);

/// Bounds of any view: a log axis stays inside [kLogAxisMin, kLogAxisMax]; no view is zoomed
/// out beyond kMaxZoomOut home spans (or the axis limits), nor in below kMaxZoomIn of one.
constexpr double kLogAxisMin = 1e-300, kLogAxisMax = 1e300;
constexpr double kMaxZoomOut = 1e6, kMaxZoomIn = 1e-9;

/// Brings range back inside limits and the zoom bounds above (in log10 space when log); a
/// range that is not finite or not increasing is replaced by home. Plot::Begin applies it to
/// both axes after every wheel, drag and reset, so no input can make a view degenerate.
void ClampView(Range& range, Range home, Range limits, bool log);

/// "Nice" tick positions (1, 2, 5 × 10^k steps) covering range, about target_count of them.
std::vector<double> NiceTicks(Range range, int target_count);
/// NiceTicks without the fractional ones (an axis of pair indices has no pair 0.4).
std::vector<double> IntegerTicks(Range range, int target_count);

/// Powers of ten inside range (> 0), thinned to about target_count; over a decade or two (or
/// with room for three a decade) 1, 2 and 5 of each; evenly spaced values within a factor of
/// about 2. Bounded work for any finite range, empty for a range that is not.
std::vector<double> LogTicks(Range range, int target_count);

/// One legend for several plots side by side (each drawn with PlotFlags_NoLegend): a swatch and
/// a name per entry, in rows as wide as the window's content, as a plot's own legend looks. Two
/// half-width plots each wrapping the same legend onto three rows kept a line of data each.
struct LegendItem {
    const char* label;
    ImU32 color;
};
/// trailing_width > 0 keeps room after the entries for a widget of that width (a toggle of what
/// the legend names), on the last row when it fits, else on a row of its own, and returns the
/// screen position to draw it at (SetCursorScreenPos there, draw it, then SetCursorScreenPos
/// back to the position after the legend, which the legend returns otherwise).
ImVec2 SharedLegend(const std::vector<LegendItem>& items, float trailing_width = 0);

/// Compact tick label: 3 significant digits, "k"/"M" suffixes for large values.
void FormatTick(double value, char* buffer, int size, bool log = false);

} // namespace pelab::plot
