// train_job.h — a training run on one worker thread, for the Train panel: the variants train in
// turn, one step each, so that every curve grows while the class watches; after each round the
// worker publishes a snapshot (a TrainRun with the curves so far) that the frame copies when it
// changed. Cancel stops it within one step; destroying the job cancels and joins. The result
// equals `pelab train`'s for the same settings (each variant has its own deterministic trainer).
#pragma once

#include "io/train_run.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace pelab {

class TrainJob {
public:
    TrainJob() = default;
    TrainJob(const TrainJob&) = delete;
    TrainJob& operator=(const TrainJob&) = delete;
    ~TrainJob() { Stop(); }

    /// Starts a run of settings (validated by the caller), stopping one that runs.
    void Start(const TrainSettings& settings);
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
    /// Steps done over steps to do, in [0, 1], and the seconds since Start.
    double Progress() const { return progress_.load(); }
    double Seconds() const;
    /// Seconds left at the pace so far (0 before the first step).
    double SecondsLeft() const;

private:
    void Work(const TrainSettings& settings); ///< runs on the worker (its own copy of them)
    std::thread thread_;
    mutable std::mutex mutex_;
    TrainRun snapshot_;
    long version_ = 0;
    std::atomic<bool> cancel_{false}, running_{false}, finished_{false};
    std::atomic<double> progress_{0};
    std::chrono::steady_clock::time_point start_;
};

} // namespace pelab
