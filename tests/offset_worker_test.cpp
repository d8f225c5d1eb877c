// The similarity heatmap's offset table is computed off the frame: asking never blocks, the
// table that arrives is the core's, and the latest request wins.
#include "gl/offset_table_worker.h"
#include "pelab/encodings/similarity.h"
#include "thread_cpu_time.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace pelab {
namespace {

// Asks every 5 ms until the table is there (at most 60 s: sanitizer builds are slow).
const std::vector<double>* WaitFor(OffsetTableWorker& worker, const OffsetTableWorker::Key& key) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < give_up) {
        if (const std::vector<double>* table = worker.Get(key)) return table;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return nullptr;
}

TEST(OffsetTableWorker, AskingNeverBlocksAndDeliversTheCoresTable) {
    OffsetTableWorker worker;
    const OffsetTableWorker::Key key{16384, 1024, 10000.0}; // 8 M rotations
    // The asking thread's CPU time: computed on the spot, the table costs it 27 ms in the Release
    // build here (more under the sanitizers); handing it to the worker, well under 5 ms. The wall
    // clock would also count the time the thread waited for a core while the suite runs beside.
    const double start = ThreadCpuSeconds();
    EXPECT_EQ(worker.Get(key), nullptr);
    const double asked_ms = 1000.0 * (ThreadCpuSeconds() - start);
    EXPECT_LT(asked_ms, 5.0); // the frame is not held up by the computation
    EXPECT_TRUE(worker.Busy());
    const std::vector<double>* table = WaitFor(worker, key);
    ASSERT_NE(table, nullptr);
    EXPECT_FALSE(worker.Busy());
    EXPECT_EQ(*table, dot_product_by_offset_range(16384, 1024, 10000.0));
    EXPECT_EQ(worker.Get(key), table); // kept until something else is asked for
}

TEST(OffsetTableWorker, TheLatestRequestWins) {
    OffsetTableWorker worker;
    const OffsetTableWorker::Key first{8192, 512, 10000.0}, second{8192, 512, 500.0};
    EXPECT_EQ(worker.Get(first), nullptr);
    EXPECT_EQ(worker.Get(second), nullptr); // queued behind the running one, not dropped
    const std::vector<double>* table = WaitFor(worker, second);
    ASSERT_NE(table, nullptr);
    // f(0) = d/2 for any base; f(1) = Σ cos ω_i depends on it: this is base 500's table.
    EXPECT_DOUBLE_EQ((*table)[0], 256.0);
    EXPECT_EQ(*table, dot_product_by_offset_range(8192, 512, 500.0));
}

TEST(OffsetTableWorker, GetNowComputesOnTheSpotAndABadKeyGivesNothing) {
    OffsetTableWorker worker;
    EXPECT_EQ(worker.GetNow({64, 16, 10000.0}), dot_product_by_offset_range(64, 16, 10000.0));
    EXPECT_TRUE(worker.GetNow({64, 3, 10000.0}).empty()); // odd d_model: refused by the core
}

} // namespace
} // namespace pelab
