// Render on demand: the pacer's decisions, independent of any window.
#include "gl/frame_pacer.h"

#include <gtest/gtest.h>

#include <algorithm>

using pelab::FramePacer;

TEST(FramePacer, DrawsAFewFramesAfterInputThenWaits) {
    FramePacer pacer;
    // Start-up: the first frames are drawn without waiting, then it rests.
    int drawn = 0;
    for (int k = 0; k < 20 && !pacer.ShouldWait(); ++k) {
        ASSERT_TRUE(pacer.ShouldDraw(false));
        pacer.FrameDone(false, 0.001, 0.001);
        ++drawn;
    }
    EXPECT_TRUE(pacer.ShouldWait());
    EXPECT_LE(drawn, FramePacer::kFramesAfterInput + 1);
    EXPECT_FALSE(pacer.ShouldDraw(false)); // a timeout with no event draws nothing
    // One event: exactly kFramesAfterInput frames, then rest again.
    ASSERT_TRUE(pacer.ShouldDraw(true));
    for (int k = 0; k < FramePacer::kFramesAfterInput; ++k) {
        EXPECT_FALSE(pacer.ShouldWait());
        EXPECT_TRUE(pacer.ShouldDraw(false));
        pacer.FrameDone(false, 0.001, 0.001);
    }
    EXPECT_TRUE(pacer.ShouldWait());
}

TEST(FramePacer, AnimationNeverWaitsButKeepsTheCapAndTheCpuBudget) {
    FramePacer pacer(60.0);
    pacer.ShouldDraw(true);
    // A cheap frame (GPU): sleep to the 60 fps cap.
    EXPECT_NEAR(pacer.FrameDone(true, 0.002, 0.001), 1.0 / 60 - 0.002, 1e-9);
    EXPECT_FALSE(pacer.ShouldWait());
    EXPECT_TRUE(pacer.ShouldDraw(false));
    // An expensive frame (software renderer, 50 ms of CPU): paced to the CPU budget, so the
    // average use stays at kAnimationCpuBudget of a core however the frame is spread.
    FramePacer software(60.0);
    double rest = 0;
    for (int k = 0; k < 50; ++k)
        rest = software.FrameDone(true, 0.030, 0.050);
    EXPECT_NEAR(rest, 0.050 / pelab::kAnimationCpuBudget - 0.030, 1e-6);
    EXPECT_LE(0.050 / (0.030 + rest), pelab::kAnimationCpuBudget + 1e-9);
    // Animation stops: the pacer rests after the owed frames.
    for (int k = 0; k <= FramePacer::kFramesAfterInput; ++k)
        software.FrameDone(false, 0.030, 0.050);
    EXPECT_TRUE(software.ShouldWait());
}

// One long frame (a freeze, a 10 s stall) is not paid back by sleeping: no rest after it is
// longer than kMaxRestSeconds, and the pace is back to normal within a few frames. Once a
// 10 s frame made the pacer sleep for seconds per frame and ignore input for about 2 minutes.
TEST(FramePacer, ALongFrameIsNotPaidBackBySleeping) {
    FramePacer pacer(60.0);
    pacer.ShouldDraw(true);
    for (int k = 0; k < 20; ++k)
        pacer.FrameDone(true, 0.002, 0.001);
    double longest = pacer.FrameDone(true, 10.0, 10.0); // the stall itself
    double total = 0;
    for (int k = 0; k < 60; ++k) {
        const double rest = pacer.FrameDone(true, 0.002, 0.001);
        longest = std::max(longest, rest);
        total += rest;
    }
    EXPECT_LE(longest, FramePacer::kMaxRestSeconds);
    // The next second of frames rests about as much as 60 fps does, not seconds more.
    EXPECT_LT(total, 2.0);
    // A software renderer that really costs 0.5 s of CPU a frame still rests at most the bound.
    FramePacer slow(60.0);
    for (int k = 0; k < 50; ++k)
        EXPECT_LE(slow.FrameDone(true, 0.1, 0.5), FramePacer::kMaxRestSeconds);
}
