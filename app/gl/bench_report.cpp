#include "gl/bench_report.h"

#include "shell/app.h"

#include <algorithm>
#include <cstdio>

namespace pelab {

namespace {

// The names of the open panels, for the report's first line.
std::string OpenPanelList(const PanelRegistry& panels, const std::string& presented) {
    if (!presented.empty()) return presented + " (presented)";
    std::string list;
    for (const PanelEntry& entry : panels.Entries())
        if (entry.open) list += (list.empty() ? "" : " ") + entry.id;
    return list.empty() ? "none" : list;
}

} // namespace

BenchTimes::BenchTimes(int frames) {
    const std::size_t room = static_cast<std::size_t>(std::max(frames, 0));
    for (std::vector<double>* times : {&frame_ms, &wall_ms, &core_ms, &gpu_ms})
        times->reserve(room);
}

double Percentile(std::vector<double> values, double fraction) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t index =
        std::min(values.size() - 1, static_cast<std::size_t>(fraction * values.size()));
    return values[index];
}

void PrintBench(const BenchTimes& t, const App& app, const std::string& renderer) {
    const double median = Percentile(t.frame_ms, 0.5), core_median = Percentile(t.core_ms, 0.5);
    std::printf("frames: %zu (d_model %d, panels open: %s)\n"
                "CPU time per frame (ms): median %.3f  p99 %.3f\n"
                "wall time per frame, with rendering (ms): median %.3f  p99 %.3f\n"
                "GPU time per frame (ms, GL_TIME_ELAPSED): median %.3f  p99 %.3f\n"
                "core (pelab_core) per frame (ms): median %.3f  p99 %.3f  = %.0f%% of the "
                "median frame\n"
                "at rest for %.0f s: %.1f%% of one core, %d frames drawn\n"
                "renderer: %s\n",
                t.frame_ms.size(), app.state.d_model,
                OpenPanelList(app.panels, app.view.presented_panel).c_str(), median,
                Percentile(t.frame_ms, 0.99), Percentile(t.wall_ms, 0.5),
                Percentile(t.wall_ms, 0.99), Percentile(t.gpu_ms, 0.5), Percentile(t.gpu_ms, 0.99),
                core_median, Percentile(t.core_ms, 0.99),
                median > 0 ? 100.0 * core_median / median : 0.0, t.idle_seconds,
                100.0 * t.idle_cpu / t.idle_seconds, t.idle_frames, renderer.c_str());
}

} // namespace pelab
