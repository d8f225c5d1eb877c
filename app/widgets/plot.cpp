#include "widgets/plot.h"

#include "widgets/widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pelab::plot {

double Plot::ToAxisX(double x) const {
    return (config_.x_flags & AxisFlags_Log) ? std::log10(std::max(x, 1e-300)) : x;
}
double Plot::ToAxisY(double y) const {
    return (config_.y_flags & AxisFlags_Log) ? std::log10(std::max(y, 1e-300)) : y;
}

ImVec2 Plot::ToPixels(double x, double y) const {
    const double x0 = ToAxisX(view_->x.min), x1 = ToAxisX(view_->x.max);
    const double y0 = ToAxisY(view_->y.min), y1 = ToAxisY(view_->y.max);
    const double tx = (ToAxisX(x) - x0) / (x1 - x0);
    const double ty = (ToAxisY(y) - y0) / (y1 - y0);
    // Clamp far-away points so float pixel coordinates never overflow.
    return ImVec2(
        static_cast<float>(plot_min_.x + std::clamp(tx, -10.0, 11.0) * (plot_max_.x - plot_min_.x)),
        static_cast<float>(plot_max_.y -
                           std::clamp(ty, -10.0, 11.0) * (plot_max_.y - plot_min_.y)));
}

double Plot::PixelToX(float px) const {
    const double x0 = ToAxisX(view_->x.min), x1 = ToAxisX(view_->x.max);
    const double axis = x0 + (px - plot_min_.x) / (plot_max_.x - plot_min_.x) * (x1 - x0);
    return (config_.x_flags & AxisFlags_Log) ? std::pow(10.0, axis) : axis;
}

double Plot::PixelToY(float py) const {
    const double y0 = ToAxisY(view_->y.min), y1 = ToAxisY(view_->y.max);
    const double axis = y0 + (plot_max_.y - py) / (plot_max_.y - plot_min_.y) * (y1 - y0);
    return (config_.y_flags & AxisFlags_Log) ? std::pow(10.0, axis) : axis;
}

float Plot::PixelsPerUnitX() const {
    return static_cast<float>((plot_max_.x - plot_min_.x) / std::max(view_->x.Size(), 1e-300));
}

namespace {

// Zooms `range` by factor around `anchor` (in axis space when log).
void ZoomRange(Range& range, double anchor, double factor, bool log) {
    if (log) {
        const double a = std::log10(anchor), lo = std::log10(range.min), hi = std::log10(range.max);
        range.min = std::pow(10.0, a + (lo - a) * factor);
        range.max = std::pow(10.0, a + (hi - a) * factor);
    } else {
        range.min = anchor + (range.min - anchor) * factor;
        range.max = anchor + (range.max - anchor) * factor;
    }
}

void PanRange(Range& range, double fraction, bool log) {
    if (log) {
        const double lo = std::log10(range.min), hi = std::log10(range.max);
        const double shift = (hi - lo) * fraction;
        range.min = std::pow(10.0, lo + shift);
        range.max = std::pow(10.0, hi + shift);
    } else {
        const double shift = range.Size() * fraction;
        range.min += shift;
        range.max += shift;
    }
}

} // namespace

bool Plot::Begin(const char* id, PlotView& view, ImVec2 size, const PlotConfig& config) {
    view_ = &view;
    config_ = config;
    legend_.clear();
    legend_rect_ = ImVec4(0, 0, 0, 0);
    line_labels_.clear();
    hline_label_rects_.clear();
    hover_series_.clear();
    hovered_ = clicked_ = false;
    draw_list_ = ImGui::GetWindowDrawList();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float font = ImGui::GetFontSize();
    const ImVec2 frame_size(size.x > 0 ? size.x : std::max(avail.x, 4 * font),
                            size.y > 0 ? size.y : std::max(avail.y, 4 * font));
    frame_min_ = ImGui::GetCursorScreenPos();
    frame_max_ = ImVec2(frame_min_.x + frame_size.x, frame_min_.y + frame_size.y);
    ImGui::InvisibleButton(id, frame_size);
    const bool item_hovered = ImGui::IsItemHovered();
    const bool item_active = ImGui::IsItemActive();
    const bool released = ImGui::IsItemDeactivated();
    if (!ImGui::IsItemVisible()) return false;

    // Margins: room for the widest y tick label on the left and the x labels below.
    const float left = config.left_margin > 0 ? config.left_margin
                                              : ImGui::CalcTextSize("-0.000k").x + font * 0.6f;
    const float bottom = font * 1.5f + (config.x_label ? font * 1.2f : 0.0f);
    // The top margin holds the y label and a row for the legend and line labels, so that
    // neither covers the data.
    const bool label_row = !(config.flags & PlotFlags_NoLegend);
    const float top = font * 0.4f + (config.y_label ? font * 1.2f : 0.0f) +
                      (label_row ? font * 1.3f * std::max(1, view.legend_rows) : 0.0f);
    plot_min_ = ImVec2(frame_min_.x + left, frame_min_.y + top);
    plot_max_ = ImVec2(frame_max_.x - font * 0.6f, frame_max_.y - bottom);
    if (plot_max_.x - plot_min_.x < 8 || plot_max_.y - plot_min_.y < 8) return false;

    const bool x_log = config.x_flags & AxisFlags_Log, y_log = config.y_flags & AxisFlags_Log;
    ImGuiIO& io = ImGui::GetIO();
    const ImVec2 mouse = io.MousePos;
    const bool inside = mouse.x >= plot_min_.x && mouse.x <= plot_max_.x &&
                        mouse.y >= plot_min_.y && mouse.y <= plot_max_.y;
    hovered_ = item_hovered && inside;
    // The plain wheel scrolls the page (ImGui scrolls the window under the mouse); Ctrl + wheel
    // zooms (and ImGui leaves the window alone then).
    if ((hovered_ || view.hovered) && io.MouseWheel != 0.0f && !io.KeyCtrl &&
        view.wheel_hint_until < 0)
        view.wheel_hint_until = ImGui::GetTime() + kWheelHintSeconds;
    view.hovered = hovered_;
    if (hovered_ && io.MouseWheel != 0.0f && io.KeyCtrl) {
        const double factor = std::pow(0.85, static_cast<double>(io.MouseWheel));
        if (!(config.x_flags & AxisFlags_NoZoom))
            ZoomRange(view.x, PixelToX(mouse.x), factor, x_log);
        if (!(config.y_flags & AxisFlags_NoZoom) && !(config.flags & PlotFlags_EqualAspect))
            ZoomRange(view.y, PixelToY(mouse.y), factor, y_log);
    }
    if (item_active && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) &&
        ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f)) {
        if (!(config.x_flags & AxisFlags_NoZoom))
            PanRange(view.x, -io.MouseDelta.x / (plot_max_.x - plot_min_.x), x_log);
        if (!(config.y_flags & AxisFlags_NoZoom))
            PanRange(view.y, io.MouseDelta.y / (plot_max_.y - plot_min_.y), y_log);
    }
    if (item_hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) view.Reset();
    ClampView(view.x, view.home_x, config.x_limits, x_log);
    ClampView(view.y, view.home_y, config.y_limits, y_log);
    // Equal to rounding: ClampView recentres the range each frame, moving its last bits.
    const auto same = [](Range a, Range b) {
        const double tolerance = 1e-9 * std::max(std::fabs(a.Size()), 1e-300);
        return std::fabs(a.min - b.min) <= tolerance && std::fabs(a.max - b.max) <= tolerance;
    };
    if ((config.flags & PlotFlags_EqualAspect) &&
        (same(view.x, view.home_x) || same(view.x, view.fitted_x))) {
        // At home: the scale at which both home ranges fit, each axis widened about its centre
        // (x decided alone cut a tall picture at the top and bottom, or drew it squashed).
        const double width = plot_max_.x - plot_min_.x, height = plot_max_.y - plot_min_.y;
        const double units_per_pixel =
            std::max(view.home_x.Size() / width, view.home_y.Size() / height);
        const double x_centre = 0.5 * (view.home_x.min + view.home_x.max);
        const double y_centre = 0.5 * (view.home_y.min + view.home_y.max);
        view.x = Range{x_centre - 0.5 * units_per_pixel * width,
                       x_centre + 0.5 * units_per_pixel * width};
        view.y = Range{y_centre - 0.5 * units_per_pixel * height,
                       y_centre + 0.5 * units_per_pixel * height};
        view.fitted_x = view.x;
    } else if ((config.flags & PlotFlags_EqualAspect)) {
        const double units_per_pixel = view.x.Size() / (plot_max_.x - plot_min_.x);
        const double centre = 0.5 * (view.y.min + view.y.max);
        const double half = 0.5 * units_per_pixel * (plot_max_.y - plot_min_.y);
        view.y = Range{centre - half, centre + half};
    }
    clicked_ = released && inside && io.MouseDragMaxDistanceSqr[0] < 16.0f;
    if (hovered_ || clicked_) {
        mouse_x_ = PixelToX(mouse.x);
        mouse_y_ = PixelToY(mouse.y);
    }
    DrawAxes();
    draw_list_->PushClipRect(plot_min_, plot_max_, true);
    return true;
}

void Plot::DrawAxes() {
    const ImU32 background = ImGui::GetColorU32(ImGuiCol_FrameBg);
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border, 0.55f);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const float font = ImGui::GetFontSize();
    draw_list_->AddRectFilled(plot_min_, plot_max_, background);
    char label[32];
    const auto axis_ticks = [](Range range, int flags, int count) {
        return (flags & AxisFlags_Log)       ? LogTicks(range, count)
               : (flags & AxisFlags_Integer) ? IntegerTicks(range, count)
                                             : NiceTicks(range, count);
    };
    const int x_count = std::max(2, static_cast<int>((plot_max_.x - plot_min_.x) / (font * 5)));
    for (double tick : axis_ticks(view_->x, config_.x_flags, x_count)) {
        const float px = ToPixels(tick, view_->y.min).x;
        draw_list_->AddLine(ImVec2(px, plot_min_.y), ImVec2(px, plot_max_.y), grid);
        FormatTick(tick, label, sizeof label, (config_.x_flags & AxisFlags_Log) != 0);
        const float w = ImGui::CalcTextSize(label).x;
        draw_list_->AddText(ImVec2(px - w * 0.5f, plot_max_.y + font * 0.2f), text, label);
    }
    // A log axis's labels are single short numbers a decade apart: a line and a third each.
    const bool y_log = (config_.y_flags & AxisFlags_Log) != 0;
    const int y_count = std::max(
        2, static_cast<int>((plot_max_.y - plot_min_.y) / (font * (y_log ? 1.35f : 2.5f))));
    // Labels every few decades when they do not fit at each: a fainter line at every power of
    // ten between them, so the decades can still be counted.
    if (y_log && !(config_.flags & PlotFlags_NoYTicks))
        for (double tick : LogTicks(view_->y, 1000)) {
            const float py = ToPixels(view_->x.min, tick).y;
            draw_list_->AddLine(ImVec2(plot_min_.x, py), ImVec2(plot_max_.x, py),
                                ImGui::GetColorU32(ImGuiCol_Border, 0.3f));
        }
    if (!(config_.flags & PlotFlags_NoYTicks))
        for (double tick : axis_ticks(view_->y, config_.y_flags, y_count)) {
            const float py = ToPixels(view_->x.min, tick).y;
            draw_list_->AddLine(ImVec2(plot_min_.x, py), ImVec2(plot_max_.x, py), grid);
            FormatTick(tick, label, sizeof label, (config_.y_flags & AxisFlags_Log) != 0);
            const ImVec2 sz = ImGui::CalcTextSize(label);
            draw_list_->AddText(ImVec2(plot_min_.x - sz.x - font * 0.3f, py - sz.y * 0.5f), text,
                                label);
        }
    if (config_.x_label) {
        const float w = ImGui::CalcTextSize(config_.x_label).x;
        draw_list_->AddText(
            ImVec2(0.5f * (plot_min_.x + plot_max_.x) - w * 0.5f, plot_max_.y + font * 1.4f), text,
            config_.x_label);
    }
    if (config_.y_label) DrawFittedLabel(config_.y_label, text);
}

void Plot::Line(const char* label, const double* xs, const double* ys, int count, ImU32 color,
                float thickness) {
    if (count <= 0) return;
    // Split into visible runs: skip NaNs, draw each run as one polyline.
    std::vector<ImVec2>& points = points_;
    points.clear();
    const auto flush = [&] {
        // ImGui joins a polyline's segments by averaging their normals; at a sharp turn (a
        // spike of q·k up and down within a few pixels) the average is nearly along the line,
        // and a steep segment between two such turns folds to zero width: the curve showed in
        // fragments. So the polyline is cut at every turn sharper than 90° (each piece keeps
        // its own normals) and the pieces meet at that point.
        const int n = static_cast<int>(points.size());
        int start = 0;
        for (int k = 1; k + 1 < n; ++k) {
            const ImVec2 in(points[k].x - points[k - 1].x, points[k].y - points[k - 1].y);
            const ImVec2 out(points[k + 1].x - points[k].x, points[k + 1].y - points[k].y);
            if (in.x * out.x + in.y * out.y < 0) {
                draw_list_->AddPolyline(points.data() + start, k - start + 1, color, 0, thickness);
                start = k;
            }
        }
        if (n - start >= 2)
            draw_list_->AddPolyline(points.data() + start, n - start, color, 0, thickness);
        points.clear();
    };
    for (int k = 0; k < count; ++k) {
        if (!std::isfinite(xs[k]) || !std::isfinite(ys[k])) {
            flush();
            continue;
        }
        points.push_back(ToPixels(xs[k], ys[k]));
    }
    flush();
    if (label && label[0] != '#') {
        legend_.push_back({label, color, false, Marker::Circle});
        hover_series_.push_back({label, xs, ys, count, color});
    }
}

namespace {
void DrawMarker(ImDrawList* draw, ImVec2 centre, float radius, ImU32 color, Marker shape) {
    if (shape == Marker::Square)
        draw->AddRectFilled(ImVec2(centre.x - radius, centre.y - radius),
                            ImVec2(centre.x + radius, centre.y + radius), color);
    else if (shape == Marker::Ring) // a third of the radius thick: reads at any size
        draw->AddCircle(centre, radius * 0.85f, color, 24, radius * 0.3f);
    else
        draw->AddCircleFilled(centre, radius, color, 12);
}
} // namespace

void Plot::Markers(const char* label, const double* xs, const double* ys, int count, ImU32 color,
                   float radius, Marker shape) {
    for (int k = 0; k < count; ++k) {
        if (!std::isfinite(xs[k]) || !std::isfinite(ys[k])) continue;
        DrawMarker(draw_list_, ToPixels(xs[k], ys[k]), radius, color, shape);
    }
    if (label && label[0] != '#') legend_.push_back({label, color, true, shape});
}

void Plot::LineMarkers(const char* label, const double* xs, const double* ys, int count,
                       ImU32 color, float thickness, float radius, Marker shape, int every) {
    if (count <= 0) return; // no point: no legend entry either (as Line)
    Line(label, xs, ys, count, color, thickness);
    every = std::max(1, every);
    for (int k = 0; k < count; ++k) {
        if ((k % every != 0 && k + 1 != count) || !std::isfinite(xs[k]) || !std::isfinite(ys[k]))
            continue;
        DrawMarker(draw_list_, ToPixels(xs[k], ys[k]), radius, color, shape);
    }
    if (label && label[0] != '#') {
        legend_.back().shape = shape;
        legend_.back().line_and_marker = true;
    }
}

void Plot::Bars(const char* label, const double* xs, const double* ys, int count, double width,
                ImU32 color) {
    for (int k = 0; k < count; ++k) {
        if (!std::isfinite(xs[k]) || !std::isfinite(ys[k])) continue;
        const ImVec2 a = ToPixels(xs[k] - 0.5 * width, ys[k]);
        const ImVec2 b = ToPixels(xs[k] + 0.5 * width, 0.0);
        draw_list_->AddRectFilled(ImVec2(std::min(a.x, b.x), std::min(a.y, b.y)),
                                  ImVec2(std::max(a.x, b.x), std::max(a.y, b.y)), color);
    }
    if (label && label[0] != '#') legend_.push_back({label, color, true, Marker::Square});
}

void Plot::Image(ImTextureID texture, Range x, Range y, ImVec2 uv0, ImVec2 uv1) {
    const ImVec2 top_left = ToPixels(x.min, y.max), bottom_right = ToPixels(x.max, y.min);
    draw_list_->AddImage(texture, top_left, bottom_right, uv0, uv1);
}

void Plot::VLine(double x, ImU32 color, const char* label, float thickness) {
    const float px = ToPixels(x, view_->y.min).x;
    draw_list_->AddLine(ImVec2(px, plot_min_.y), ImVec2(px, plot_max_.y), color, thickness);
    // The label goes above the data (in the top margin, drawn by End), never on the curves;
    // only while the line is in view.
    if (label && px >= plot_min_.x && px <= plot_max_.x) line_labels_.push_back({label, color, px});
}

void Plot::HLine(double y, ImU32 color, const char* label, float thickness) {
    const float py = ToPixels(view_->x.min, y).y;
    draw_list_->AddLine(ImVec2(plot_min_.x, py), ImVec2(plot_max_.x, py), color, thickness);
    if (!label) return;
    // On a backdrop: the label sits over the data (heatmaps, curves). Above the line at the
    // left, else below it, else the same at the right: the first place inside the plot that no
    // other line's label holds (two lines a few pixels apart, "trained context 32" and
    // "stretched to 128", covered each other).
    const ImVec2 size = ImGui::CalcTextSize(label);
    const float above = py - size.y - 1, below = py + 1;
    const float left = plot_min_.x + 4, right = plot_max_.x - size.x - 4;
    const ImVec2 places[] = {{left, above}, {left, below}, {right, above}, {right, below}};
    const auto free = [&](ImVec2 at) {
        if (at.y < plot_min_.y || at.y + size.y > plot_max_.y) return false;
        for (const ImVec4& taken : hline_label_rects_)
            if (at.x - 2 < taken.z && at.x + size.x + 2 > taken.x && at.y < taken.w &&
                at.y + size.y > taken.y)
                return false;
        return true;
    };
    ImVec2 at(left, above >= plot_min_.y ? above : below);
    for (const ImVec2& place : places)
        if (free(place)) {
            at = place;
            break;
        }
    hline_label_rects_.push_back(ImVec4(at.x - 2, at.y, at.x + size.x + 2, at.y + size.y));
    draw_list_->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + size.x + 2, at.y + size.y),
                              ImGui::GetColorU32(ImGuiCol_PopupBg, 0.85f), 2.0f);
    draw_list_->AddText(at, color, label);
}

void Plot::Text(double x, double y, const char* text, ImU32 color, ImVec2 pixel_offset) {
    const ImVec2 p = ToPixels(x, y);
    draw_list_->AddText(ImVec2(p.x + pixel_offset.x, p.y + pixel_offset.y), color, text);
}

void Plot::DrawFittedLabel(const char* label, ImU32 color) {
    // The label over the frame's width: smaller when it is wider (down to 0.7 of the text
    // size), and beyond that cut at a character with "…" (the whole label in a tooltip).
    const float font = ImGui::GetFontSize(), room = frame_max_.x - frame_min_.x;
    const float natural = ImGui::CalcTextSize(label).x;
    const float scale = natural > room ? std::max(0.7f, room / natural) : 1.0f;
    std::string shown = label;
    if (natural * scale > room) {
        const float ellipsis = ImGui::CalcTextSize("…").x;
        while (!shown.empty() && (ImGui::CalcTextSize(shown.c_str()).x + ellipsis) * scale > room) {
            // A whole UTF-8 character at a time: its continuation bytes, then its first byte.
            while (!shown.empty() && (static_cast<unsigned char>(shown.back()) & 0xC0) == 0x80)
                shown.pop_back();
            if (!shown.empty()) shown.pop_back();
        }
        shown += "…";
        if (ImGui::IsMouseHoveringRect(frame_min_, ImVec2(frame_max_.x, frame_min_.y + font)))
            Tooltip("%s", label);
    }
    draw_list_->AddText(ImGui::GetFont(), font * scale,
                        ImVec2(frame_min_.x, frame_min_.y + font * (1.0f - scale) * 0.5f), color,
                        shown.c_str());
}

void Plot::End() {
    draw_list_->PopClipRect();
    const float font = ImGui::GetFontSize();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    if (view_->WheelHintShown()) {
        // One line over the data's top left corner, on the window's colour so that it reads
        // over any line.
        const char* hint = "Ctrl + wheel zooms; the wheel alone scrolls";
        const ImVec2 at(plot_min_.x + font * 0.3f, plot_min_.y + font * 0.2f);
        const ImVec2 size = ImGui::CalcTextSize(hint);
        draw_list_->AddRectFilled(ImVec2(at.x - font * 0.2f, at.y - font * 0.1f),
                                  ImVec2(at.x + size.x + font * 0.2f, at.y + size.y + font * 0.1f),
                                  ImGui::GetColorU32(ImGuiCol_WindowBg), font * 0.2f);
        draw_list_->AddText(at, text, hint);
    }
    float legend_left = plot_max_.x + font;
    if (!(config_.flags & PlotFlags_NoLegend) && !legend_.empty()) {
        // Rows above the data, right-aligned: [swatch] label  [swatch] label … Entries that do
        // not fit the frame's width wrap onto more rows (the top margin keeps as many rows as
        // the legend needed last frame: PlotView::legend_rows), so no entry is ever cut.
        const float swatch = font * 1.2f, gap = font * 0.9f;
        const float room = frame_max_.x - frame_min_.x + gap;
        std::vector<std::pair<std::size_t, float>> rows; // first entry, width of the row
        for (std::size_t e = 0; e < legend_.size(); ++e) {
            const float width =
                swatch + font * 0.3f + ImGui::CalcTextSize(legend_[e].label).x + gap;
            if (rows.empty() || rows.back().second + width > room) rows.emplace_back(e, 0.0f);
            rows.back().second += width;
        }
        const int row_count = static_cast<int>(rows.size());
        view_->legend_rows = row_count;
        for (int r = 0; r < row_count; ++r) {
            const std::size_t end = r + 1 < row_count ? rows[r + 1].first : legend_.size();
            float x = std::max(frame_min_.x, plot_max_.x - rows[r].second + gap);
            const float y = plot_min_.y - font * 1.25f - font * 1.3f * (row_count - 1 - r);
            if (r == 0) legend_rect_ = ImVec4(x, y, plot_max_.x, y + font);
            legend_rect_.x = std::min(legend_rect_.x, x);
            legend_rect_.w = y + font;
            legend_left = x; // the last row is the one beside the line labels
            for (std::size_t e = rows[r].first; e < end; ++e) {
                const LegendEntry& entry = legend_[e];
                const ImVec2 mid(x + swatch * 0.5f, y + font * 0.5f);
                if (entry.marker)
                    DrawMarker(draw_list_, mid, font * 0.3f, entry.color, entry.shape);
                else
                    draw_list_->AddLine(ImVec2(x, mid.y), ImVec2(x + swatch, mid.y), entry.color,
                                        std::max(2.0f, font * 0.15f));
                if (entry.line_and_marker)
                    DrawMarker(draw_list_, mid, font * 0.32f, entry.color, entry.shape);
                x += swatch + font * 0.3f;
                draw_list_->AddText(ImVec2(x, y), text, entry.label);
                x += ImGui::CalcTextSize(entry.label).x + gap;
            }
        }
    }
    line_label_rects_.clear();
    for (const LineLabel& line : line_labels_) {
        // Right of its line, or left of it when that would run into the legend.
        const float width = ImGui::CalcTextSize(line.label).x;
        float x = line.px + font * 0.2f;
        if (x + width > legend_left - font * 0.5f) x = line.px - font * 0.2f - width;
        x = std::max(frame_min_.x, x);
        // In the row above the data, or inside its top edge (on a backdrop) when the plot has
        // no such row or the legend holds that part of it (a line under the legend).
        const bool row_free = x + width <= legend_left - font * 0.25f;
        const bool above = !(config_.flags & PlotFlags_NoLegend) && row_free;
        if (!above) x = std::clamp(line.px + font * 0.2f, plot_min_.x, plot_max_.x - width - 2);
        const ImVec2 at(x, above ? plot_min_.y - font * 1.25f : plot_min_.y + 2.0f);
        line_label_rects_.push_back(ImVec4(at.x, at.y, at.x + width, at.y + font));
        if (!above)
            draw_list_->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + width + 2, at.y + font),
                                      ImGui::GetColorU32(ImGuiCol_PopupBg, 0.85f), 2.0f);
        draw_list_->AddText(at, line.color, line.label);
    }
    if (hovered_ && !(config_.flags & PlotFlags_NoHoverReadout)) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const ImU32 cross = ImGui::GetColorU32(ImGuiCol_Text, 0.35f);
        draw_list_->AddLine(ImVec2(mouse.x, plot_min_.y), ImVec2(mouse.x, plot_max_.y), cross);
        draw_list_->AddLine(ImVec2(plot_min_.x, mouse.y), ImVec2(plot_max_.x, mouse.y), cross);
        // Each value is shown with the x it belongs to (the nearest sample), never beside the
        // mouse's x: sin(32.92) is not sin(32.90).
        const auto nearest = [&](const HoverSeries& series) {
            const double* found = std::lower_bound(series.xs, series.xs + series.count, mouse_x_);
            int index = static_cast<int>(found - series.xs);
            if (index >= series.count) index = series.count - 1;
            if (index > 0 &&
                std::fabs(series.xs[index - 1] - mouse_x_) < std::fabs(series.xs[index] - mouse_x_))
                --index;
            return index;
        };
        const double header_x =
            hover_series_.empty() ? mouse_x_ : hover_series_[0].xs[nearest(hover_series_[0])];
        ImGui::BeginTooltip();
        ImGui::Text("x = %.9g", header_x);
        for (const HoverSeries& series : hover_series_) {
            const int index = nearest(series);
            ImGui::PushStyleColor(ImGuiCol_Text, series.color);
            ImGui::Bullet();
            ImGui::PopStyleColor();
            ImGui::SameLine();
            // A log axis spans decades: significant digits, not six decimals (3e-8 is not 0).
            const bool log_y = (config_.y_flags & AxisFlags_Log) != 0;
            if (series.xs[index] == header_x)
                ImGui::Text(log_y ? "%s: %.4g" : "%s: %.6f", series.label, series.ys[index]);
            else
                ImGui::Text(log_y ? "%s: %.4g (at x = %.9g)" : "%s: %.6f (at x = %.9g)",
                            series.label, series.ys[index], series.xs[index]);
        }
        ImGui::EndTooltip();
    }
    draw_list_->AddRect(plot_min_, plot_max_, ImGui::GetColorU32(ImGuiCol_Border));
}

ImVec2 SharedLegend(const std::vector<LegendItem>& items, float trailing_width) {
    const float font = ImGui::GetFontSize();
    const float swatch = font * 1.2f, gap = font * 0.9f;
    const float width = ImGui::GetContentRegionAvail().x;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    float x = 0, y = 0;
    for (const LegendItem& item : items) {
        const float entry = swatch + font * 0.3f + ImGui::CalcTextSize(item.label).x;
        if (x > 0 && x + entry > width) x = 0, y += font * 1.3f;
        const float mid = origin.y + y + font * 0.5f;
        draw->AddLine(ImVec2(origin.x + x, mid), ImVec2(origin.x + x + swatch, mid), item.color,
                      std::max(2.0f, font * 0.15f));
        draw->AddText(ImVec2(origin.x + x + swatch + font * 0.3f, origin.y + y),
                      ImGui::GetColorU32(ImGuiCol_Text), item.label);
        x += entry + gap;
    }
    ImVec2 trailing(origin.x, origin.y + y + font * 1.3f);
    float height = y + font * 1.3f;
    if (trailing_width > 0) {
        // A frame may be taller than a legend row: the row grows to hold it.
        const float frame = ImGui::GetFrameHeight();
        if (x > 0 && x + trailing_width > width) x = 0, y += font * 1.3f;
        trailing = ImVec2(origin.x + x, origin.y + y);
        height = std::max(height, y + std::max(font * 1.3f, frame));
    }
    ImGui::Dummy(ImVec2(width, height));
    return trailing_width > 0 ? trailing : ImGui::GetCursorScreenPos();
}

} // namespace pelab::plot
