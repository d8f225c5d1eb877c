// bench_report.h — what `pelab --bench-frames N` measured (gl/session.cpp runs the frames) and
// the report it prints, as docs/performance.md quotes it.
#pragma once

#include <string>
#include <vector>

namespace pelab {

struct App;

/// The frames' times (one value per frame), then the rest after them.
struct BenchTimes {
    /// Room for the frames to come (none: 0).
    explicit BenchTimes(int frames);
    std::vector<double> frame_ms, wall_ms, core_ms, gpu_ms;
    double idle_seconds = 0, idle_cpu = 0; ///< the rest's length and the CPU it used
    int idle_frames = 0;                   ///< frames drawn while at rest
};

/// The value below which `fraction` of the values lie (0 for none).
double Percentile(std::vector<double> values, double fraction);

/// Prints the report on stdout: medians and 99th percentiles, the core's share, the rest's CPU.
void PrintBench(const BenchTimes& times, const App& app, const std::string& renderer);

} // namespace pelab
