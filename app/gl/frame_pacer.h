// frame_pacer.h — render on demand. At rest PE Lab waits for events instead of redrawing (0%
// CPU); after any input it draws a few frames so ImGui's own transitions (hover, a click's
// release, a new font size) finish; while something animates (Play) it draws continuously but
// no faster than a cap, so a renderer that ignores vsync (Mesa llvmpipe, many VMs and remote
// desktops) is not driven flat out. Pure logic, no GLFW: the session asks it what to do.
#pragma once

#include <algorithm>

namespace pelab {

/// While animating: at most this many frames per second (for renderers that ignore vsync)…
constexpr double kMaxFps = 60.0;
/// …and at most this share of one core on average, whatever a frame costs. A GPU frame costs
/// ~1 ms of CPU and runs at the cap; a software renderer (Mesa llvmpipe rasterises every frame
/// on the CPU, on all cores: ~50 ms of CPU per frame here) is slowed to fit the budget instead of
/// taking the machine.
constexpr double kAnimationCpuBudget = 0.6;

class FramePacer {
public:
    /// Frames drawn after the last input (ImGui resolves hover, clicks and releases over the
    /// next frames; the atlas of a new text size appears one frame after the request).
    static constexpr int kFramesAfterInput = 5;
    /// Longest wait for events at rest; no timer of PE Lab needs a wake-up sooner.
    static constexpr double kIdleWaitSeconds = 5.0;
    /// Longest rest between two animated frames, however slow the frames were: input waits at
    /// most this long, and a slow frame is not paid back by slower ones after.
    static constexpr double kMaxRestSeconds = 0.25;

    explicit FramePacer(double max_fps = 60.0) : min_frame_seconds_(1.0 / max_fps) {}

    /// True when the loop should block in WaitEvents (nothing animates, no frame is owed).
    bool ShouldWait() const { return !animating_ && frames_owed_ <= 0; }
    /// How long to block when ShouldWait().
    double WaitSeconds() const { return kIdleWaitSeconds; }
    /// After polling or waiting: whether to draw a frame now. activity = any input or window
    /// event arrived since the last call.
    bool ShouldDraw(bool activity) {
        if (activity) frames_owed_ = kFramesAfterInput;
        return animating_ || frames_owed_ > 0;
    }
    /// After a frame: animating = something moves by itself (Play, a pending re-layout);
    /// wall_seconds and cpu_seconds = what the frame took (CPU of the whole process, the
    /// renderer's threads included). Returns how long to sleep before the next frame so that
    /// neither the frame-rate cap nor the CPU budget is exceeded.
    double FrameDone(bool animating, double wall_seconds, double cpu_seconds) {
        animating_ = animating;
        if (frames_owed_ > 0) --frames_owed_;
        // A smoothed cost: one slow frame (a font rebuild, a freeze) must not stall the next
        // ones, so a sample counts for at most kMaxRestSeconds of CPU.
        const double sample = std::min(cpu_seconds, kMaxRestSeconds);
        cpu_per_frame_ = cpu_per_frame_ < 0 ? sample : 0.8 * cpu_per_frame_ + 0.2 * sample;
        const double interval = std::min(
            kMaxRestSeconds, std::max(min_frame_seconds_, cpu_per_frame_ / kAnimationCpuBudget));
        return std::max(0.0, interval - wall_seconds);
    }
    void SetMaxFps(double max_fps) { min_frame_seconds_ = 1.0 / max_fps; }

private:
    double min_frame_seconds_;
    double cpu_per_frame_ = -1.0; ///< smoothed CPU seconds per frame (< 0: none measured yet)
    bool animating_ = true;       // the first frames are drawn without waiting
    int frames_owed_ = kFramesAfterInput;
};

} // namespace pelab
