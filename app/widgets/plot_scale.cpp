// plot_scale.cpp — the plot helper's scales: the view's home and bounds (ClampView), tick
// positions and labels, and the colour maps. Plot (plot.cpp) draws with them.
#include "widgets/plot.h"

#include "widgets/number_text.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab::plot {

bool PlotView::WheelHintShown() const {
    return wheel_hint_until >= 0 && ImGui::GetTime() < wheel_hint_until;
}

void PlotView::Refit(Range new_x, Range new_y) {
    has_home = false;
    SetHome(new_x, new_y);
}

void PlotView::SetHome(Range new_x, Range new_y) {
    home_x = new_x;
    home_y = new_y;
    if (!has_home) {
        x = new_x;
        y = new_y;
        has_home = true;
    }
}

namespace {
struct Rgb {
    float r, g, b;
};
Rgb Mix(Rgb a, Rgb b, float t) {
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}
Rgb FromU32(ImU32 c) {
    return {static_cast<float>((c >> IM_COL32_R_SHIFT) & 0xFF) / 255.0f,
            static_cast<float>((c >> IM_COL32_G_SHIFT) & 0xFF) / 255.0f,
            static_cast<float>((c >> IM_COL32_B_SHIFT) & 0xFF) / 255.0f};
}
ImU32 ToU32(Rgb c) {
    return IM_COL32(c.r * 255.0f + 0.5f, c.g * 255.0f + 0.5f, c.b * 255.0f + 0.5f, 255);
}
} // namespace

ImU32 Diverging(double t, const DivergingMap& map) {
    const float x = static_cast<float>(std::clamp(std::isfinite(t) ? t : 0.0, -1.0, 1.0));
    const Rgb middle = FromU32(map.middle);
    return ToU32(x < 0 ? Mix(middle, FromU32(map.negative), -x)
                       : Mix(middle, FromU32(map.positive), x));
}

ImU32 Sequential(double t) {
    const float x = static_cast<float>(std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0));
    const Rgb stops[] = {{0.267f, 0.005f, 0.329f},
                         {0.231f, 0.322f, 0.545f},
                         {0.129f, 0.569f, 0.549f},
                         {0.369f, 0.788f, 0.384f},
                         {0.992f, 0.906f, 0.145f}};
    const float scaled = x * 4.0f;
    const int index = std::min(3, static_cast<int>(scaled));
    return ToU32(Mix(stops[index], stops[index + 1], scaled - static_cast<float>(index)));
}

ImU32 TextColorOn(ImU32 background) {
    const Rgb c = FromU32(background);
    const float luminance = 0.299f * c.r + 0.587f * c.g + 0.114f * c.b;
    return luminance > 0.55f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

std::vector<double> IntegerTicks(Range range, int target_count) {
    std::vector<double> ticks = NiceTicks(range, target_count);
    ticks.erase(std::remove_if(ticks.begin(), ticks.end(),
                               [](double t) { return std::fabs(t - std::round(t)) > 1e-9; }),
                ticks.end());
    return ticks;
}

std::vector<double> NiceTicks(Range range, int target_count) {
    std::vector<double> ticks;
    const double span = range.Size();
    if (!(span > 0) || !std::isfinite(span) || target_count < 1) return ticks;
    const double raw_step = span / target_count;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
    const double fraction = raw_step / magnitude;
    const double step = (fraction < 1.5   ? 1.0
                         : fraction < 3.5 ? 2.0
                         : fraction < 7.5 ? 5.0
                                          : 10.0) *
                        magnitude;
    const double first = std::ceil(range.min / step) * step;
    if (!std::isfinite(first) || !(step > 0) || first + step == first) return ticks;
    for (int k = 0; k < 64; ++k) {
        const double tick = first + k * step;
        if (tick > range.max + step * 1e-9) break;
        ticks.push_back(std::fabs(tick) < step * 1e-9 ? 0.0 : tick);
    }
    // One tick says nothing of the scale (a narrow plot from −4.9 to 4.9 showed only "0"): a
    // finer step, as many times as it takes (at most five: the step halves or more each time).
    if (ticks.size() < 2 && target_count < 64) return NiceTicks(range, target_count * 2);
    return ticks;
}

std::vector<double> LogTicks(Range range, int target_count) {
    std::vector<double> ticks;
    const double lo_axis = std::log10(range.min), hi_axis = std::log10(range.max);
    if (!std::isfinite(lo_axis) || !std::isfinite(hi_axis) || !(hi_axis >= lo_axis) ||
        target_count < 1)
        return ticks;
    // Exponents are at most ±324 for finite doubles, so this loop runs at most ~650 times and
    // keeps at most ~target_count ticks.
    const double lo = std::ceil(lo_axis - 1e-9), hi = std::floor(hi_axis + 1e-9);
    // A decade or two, or room for three ticks a decade: 1, 2 and 5 of each (two powers of ten
    // alone, or none, say little of a span).
    if (hi - lo < 1 || (hi - lo + 1) * 3 <= target_count) {
        for (double e = std::floor(lo_axis); e <= hi; ++e)
            for (double mantissa : {1.0, 2.0, 5.0}) {
                const double tick = mantissa * std::pow(10.0, e);
                if (tick >= range.min * (1 - 1e-9) && tick <= range.max * (1 + 1e-9))
                    ticks.push_back(tick);
            }
        // Within a factor of 2 or so (no two such ticks): evenly spaced values instead.
        return ticks.size() >= 2 ? ticks : NiceTicks(range, target_count);
    }
    const double stride = std::max(1.0, std::ceil((hi - lo + 1) / target_count));
    for (double e = lo; e <= hi; e += stride)
        ticks.push_back(std::pow(10.0, e));
    return ticks;
}

void FormatTick(double value, char* buffer, int size, bool log) {
    std::snprintf(buffer, size, "%s", (log ? LogTickText(value) : TickText(value)).c_str());
}

namespace {

// Axis space: log10 of the value on a log axis, the value itself otherwise.
double ToAxis(double value, bool log) {
    return log ? std::log10(value) : value;
}
double FromAxis(double axis, bool log) {
    return log ? std::pow(10.0, axis) : axis;
}

} // namespace

void ClampView(Range& range, Range home, Range limits, bool log) {
    // Limits in axis space; a log axis never reaches 0 or overflows.
    const double floor = log ? std::max(limits.min, kLogAxisMin) : limits.min;
    const double ceiling = log ? std::min(limits.max, kLogAxisMax) : limits.max;
    const double limit_lo = ToAxis(floor, log), limit_hi = ToAxis(ceiling, log);
    double home_lo = ToAxis(home.min, log), home_hi = ToAxis(home.max, log);
    if (!(home_hi > home_lo) || !std::isfinite(home_lo) || !std::isfinite(home_hi))
        home_lo = std::clamp(0.0, limit_lo, limit_hi), home_hi = home_lo + 1.0;
    double lo = ToAxis(range.min, log), hi = ToAxis(range.max, log);
    // Anything non-finite or inverted (e.g. log10 of a value that underflowed to 0): go home.
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo)) lo = home_lo, hi = home_hi;
    const double home_span = home_hi - home_lo;
    // Zooming out stops at the limits and at kMaxZoomOut home spans; zooming in stops where a
    // pixel would no longer hold distinct doubles (and at kMaxZoomIn of the home span).
    const double max_span =
        std::min(limit_hi - limit_lo, std::max(home_span * kMaxZoomOut, 1e-300));
    const double magnitude = std::max(std::fabs(lo), std::fabs(hi));
    const double min_span =
        std::min(max_span, std::max({home_span * kMaxZoomIn, magnitude * 1e-12, 1e-300}));
    double span = hi - lo;
    const double centre = lo + 0.5 * span;
    if (!(span <= max_span)) span = max_span;
    if (!(span >= min_span)) span = min_span;
    lo = centre - 0.5 * span, hi = centre + 0.5 * span;
    if (lo < limit_lo) lo = limit_lo, hi = limit_lo + span;
    if (hi > limit_hi) hi = limit_hi, lo = limit_hi - span;
    range.min = FromAxis(lo, log);
    range.max = FromAxis(hi, log);
}

} // namespace pelab::plot
