#include "panels/train/train_job.h"

#include <memory>
#include <vector>

namespace pelab {

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
    thread_ = std::thread(&TrainJob::Work, this, settings);
}

void TrainJob::Stop() {
    cancel_.store(true);
    if (thread_.joinable()) thread_.join();
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
    return progress > 0 ? Seconds() * (1 - progress) / progress : 0;
}

void TrainJob::Work(const TrainSettings& settings) {
    // One trainer per variant, as `pelab train` runs them: the result does not depend on the
    // order the steps are taken in.
    std::vector<std::unique_ptr<Trainer>> trainers;
    for (const PositionalKind kind : settings.variants) {
        TrainSettings one = settings;
        one.variants = {kind};
        trainers.push_back(std::make_unique<Trainer>(one));
    }
    TrainRun run;
    run.settings = settings;
    run.example = train_example(settings);
    run.variants.resize(trainers.size());
    const double total = static_cast<double>(settings.steps) * static_cast<double>(trainers.size());
    for (bool all_done = false; !all_done && !cancel_.load();) {
        all_done = true;
        for (std::size_t v = 0; v < trainers.size() && !cancel_.load(); ++v) {
            Trainer& trainer = *trainers[v];
            if (!trainer.Done()) {
                trainer.Step(1);
                // Done variants keep their result (the attention is computed once).
                run.variants[v] = VariantResultOf(trainer, 0, run.example);
            }
            all_done = all_done && trainer.Done();
        }
        // Counted over every variant (a cancel may have cut the round short).
        double steps_done = 0;
        for (const auto& trainer : trainers)
            steps_done += trainer->Progress() * settings.steps;
        progress_.store(steps_done / total);
        run.seconds = Seconds();
        double token_seconds = 0;
        for (const VariantResult& v : run.variants)
            token_seconds += v.seconds;
        const double tokens =
            steps_done * settings.batch * (settings.min_train_len + settings.train_len) / 2.0;
        run.tokens_per_second_per_thread = token_seconds > 0 ? tokens / token_seconds : 0;
        const std::lock_guard<std::mutex> lock(mutex_);
        snapshot_ = run;
        ++version_;
    }
    finished_.store(!cancel_.load());
    running_.store(false);
}

} // namespace pelab
