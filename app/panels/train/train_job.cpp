#include "panels/train/train_job.h"

#include <memory>
#include <vector>

namespace pelab {

struct TrainJob::Work {
    explicit Work(const TrainSettings& settings) {
        // One trainer per variant, as `pelab train` runs them: the result does not depend on
        // the order the steps are taken in.
        for (const PositionalKind kind : settings.variants) {
            TrainSettings one = settings;
            one.variants = {kind};
            trainers.push_back(std::make_unique<Trainer>(one));
        }
        run.settings = settings;
        run.example = train_example(settings);
        run.variants.resize(trainers.size());
    }
    std::vector<std::unique_ptr<Trainer>> trainers;
    TrainRun run;
    std::size_t next = 0; ///< the variant whose turn it is
};

TrainJob::TrainJob() = default;

TrainJob::~TrainJob() {
    Stop();
}

void TrainJob::Start(const TrainSettings& settings) {
    Stop();
    cancel_.store(false);
    finished_.store(false);
    progress_.store(0);
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        snapshot_ = TrainRun{};
        snapshot_.settings = settings;
        ++version_;
    }
    start_ = std::chrono::steady_clock::now();
    running_.store(true);
#ifdef __EMSCRIPTEN__
    sliced_ = std::make_unique<Work>(settings);
#else
    thread_ = std::thread(&TrainJob::RunOnWorker, this, settings);
#endif
}

void TrainJob::Stop() {
    cancel_.store(true);
    if (thread_.joinable()) thread_.join();
    if (sliced_) {
        sliced_.reset();
        running_.store(false);
    }
}

void TrainJob::Advance(double budget_seconds) {
    if (!sliced_) return;
    const auto give_back = std::chrono::steady_clock::now() +
                           std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(budget_seconds));
    // At least one step per frame, however short the slice, so a run always moves on.
    while (StepNext(*sliced_))
        if (std::chrono::steady_clock::now() >= give_back) return;
    sliced_.reset();
}

bool TrainJob::Latest(TrainRun* run, long* version) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (*version == version_) return false;
    *run = snapshot_;
    *version = version_;
    return true;
}

double TrainJob::Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double TrainJob::SecondsLeft() const {
    const double progress = Progress();
    return progress > 0 ? Seconds() * (1 - progress) / progress : -1;
}

void TrainJob::RunOnWorker(const TrainSettings& settings) {
    Work work(settings);
    while (StepNext(work)) {
    }
}

bool TrainJob::StepNext(Work& work) {
    if (cancel_.load()) {
        running_.store(false);
        return false;
    }
    const TrainSettings& settings = work.run.settings;
    TrainRun& run = work.run;
    // The next variant not done, in turn: every curve grows together.
    const std::size_t count = work.trainers.size();
    for (std::size_t tried = 0; tried < count && work.trainers[work.next]->Done(); ++tried)
        work.next = (work.next + 1) % count;
    const std::size_t v = work.next;
    work.next = (work.next + 1) % count;
    Trainer& trainer = *work.trainers[v];
    if (!trainer.Done()) {
        trainer.Step(1);
        // Done variants keep their result (the attention is computed once).
        run.variants[v] = VariantResultOf(trainer, 0, run.example);
    }
    bool all_done = true;
    for (const auto& each : work.trainers)
        all_done = all_done && each->Done();
    // Counted over every variant (a cancel may have cut the round short); the progress counts
    // the measurements too (Trainer::Progress), the speed only the training steps.
    double progress = 0, steps_done = 0;
    for (const auto& trainer : work.trainers) {
        progress += trainer->Progress();
        steps_done += trainer->StepsTrained();
    }
    progress_.store(progress / static_cast<double>(work.trainers.size()));
    run.seconds = Seconds();
    double token_seconds = 0;
    for (const VariantResult& v : run.variants)
        token_seconds += v.seconds;
    const double tokens =
        steps_done * settings.batch * (settings.min_train_len + settings.train_len) / 2.0;
    run.tokens_per_second_per_thread = token_seconds > 0 ? tokens / token_seconds : 0;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        snapshot_ = run;
        ++version_;
    }
    const bool go_on = !all_done && !cancel_.load();
    if (!go_on) {
        finished_.store(!cancel_.load());
        running_.store(false);
    }
    return go_on;
}

} // namespace pelab
