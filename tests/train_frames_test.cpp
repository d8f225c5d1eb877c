// The Train panel's frames while it trains: the worker thread takes one core, and the frame
// (drawn on the other) costs what it costs idle. Medians of the frame's CPU time, idle (a
// built-in run's curves) and while the default experiment trains live (its curves growing),
// measured in one run side by side. Timing: the Release pass only (pelab_room_tests is "slow").
#include "headless_fixture.h"
#include "panels/train/panel_train.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

using namespace pelab;

namespace {

class TrainFrames : public HeadlessApp {
protected:
    // Frames for `seconds`, 8 ms apart as a window at 120 Hz would draw them.
    double MedianFrameMs(double seconds) {
        std::vector<double> times;
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < end) {
            const auto start = std::chrono::steady_clock::now();
            Frame();
            times.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
            std::this_thread::sleep_for(std::chrono::milliseconds(8));
        }
        const std::size_t middle = times.size() / 2;
        std::nth_element(times.begin(), times.begin() + static_cast<long>(middle), times.end());
        return times[middle];
    }
};

} // namespace

TEST_F(TrainFrames, TrainingLeavesTheFrameTimeAsItWas) {
    auto& panel = Get<TrainPanel>("train");
    ASSERT_EQ(app.scene.Apply(R"({"presented_panel": "train", "train_view": "curves"})"), "");
    for (int k = 0; k < 10; ++k)
        Frame();
    const double idle = MedianFrameMs(4.0);
    ASSERT_TRUE(panel.StartTraining()); // the default experiment: six variants, 300 steps each
    for (int k = 0; k < 10; ++k)
        Frame();
    const double training = MedianFrameMs(4.0);
    EXPECT_TRUE(panel.job.Running());
    const double progress = panel.job.Progress();
    panel.job.Stop();
    std::printf("Train panel frame (median over 4 s): idle %.3f ms, training %.3f ms (%.2fx), "
                "%.1f%% trained meanwhile\n",
                idle, training, training / idle, 100 * progress);
    // The promise is 1.2×; the bound leaves room for a busy test machine.
    EXPECT_LT(training, 1.5 * idle + 0.2);
    EXPECT_GT(progress, 0.0);
}
