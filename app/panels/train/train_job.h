// train_job.h — a training run on worker threads, for the Train panel: one worker per core (at
// most one per variant), the variants dealt round them, and each worker steps its variants in
// turn, one step each, so that every curve grows while the class watches; after each step a
// worker publishes the snapshot (a TrainRun with the curves so far) that the frame copies when
// it changed. Cancel stops it within one step; destroying the job cancels and joins. The result
// equals `pelab train`'s for the same settings (each variant has its own deterministic trainer).
// The browser edition has no threads: there Start only prepares the run, and Advance, called by
// the frame, takes steps until its time slice is spent (the same steps, so the same result).
#pragma once

#include "io/train_run.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace pelab {

class TrainJob {
public:
    TrainJob();
    TrainJob(const TrainJob&) = delete;
    TrainJob& operator=(const TrainJob&) = delete;
    ~TrainJob();

    /// Starts a run of settings (validated by the caller), stopping one that runs.
    void Start(const TrainSettings& settings);
    /// Where there are no threads (the browser): takes steps of the run until budget_seconds
    /// have passed or it ends (at least one). Elsewhere the worker does that and this returns
    /// at once.
    void Advance(double budget_seconds);
    /// Asks the worker to stop after its current step; the snapshot keeps what was done.
    void Cancel() { cancel_.store(true); }
    /// Cancels and waits for the worker.
    void Stop();
    bool Running() const { return running_.load(); }
    /// The job was cancelled before it finished.
    bool Cancelled() const { return cancel_.load() && !running_.load() && !finished_.load(); }
    /// Copies the latest snapshot into *run when it is newer than *version (which it updates);
    /// true when it copied.
    bool Latest(TrainRun* run, long* version) const;
    /// The work done over the work to do (training and measurements, Trainer::Progress), in
    /// [0, 1], and the seconds since Start.
    double Progress() const { return progress_.load(); }
    double Seconds() const;
    /// Seconds left at the pace so far; -1 (no estimate) before the first step is done.
    double SecondsLeft() const;
    /// The worker threads a run of this many variants takes: one per core, at most one per
    /// variant (at least one).
    static int WorkersFor(std::size_t variants);
    /// Whether a run is stepped between frames (the browser build, which has no threads)
    /// rather than on worker threads.
#ifdef __EMSCRIPTEN__
    static constexpr bool kBetweenFrames = true;
#else
    static constexpr bool kBetweenFrames = false;
#endif

private:
    struct Work; ///< one worker's share of the run: a trainer per variant it trains
    /// One step of the work's next variant not done (its variants take turns), then the
    /// snapshot. False once its variants are done or the job was cancelled (the last work to
    /// end marks the job stopped).
    bool StepNext(Work& work);
    /// A worker thread's whole share of the run (indices into settings.variants).
    void RunOnWorker(const TrainSettings& settings, std::vector<std::size_t> indices);
    /// Under mutex_: the totals from each variant's progress, and a new snapshot version.
    void Publish();
    std::vector<std::thread> threads_;
    std::unique_ptr<Work> sliced_; ///< the run Advance steps, where there are no threads
    mutable std::mutex mutex_;
    TrainRun snapshot_;
    std::vector<double> progress_of_, steps_of_; ///< each variant's, under mutex_
    long version_ = 0;
    std::atomic<int> workers_left_{0};
    std::atomic<bool> cancel_{false}, running_{false}, finished_{false};
    std::atomic<double> progress_{0};
    std::chrono::steady_clock::time_point start_;
};

} // namespace pelab
