#include "panels/train/train_job.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace pelab {

struct TrainJob::Work {
    // One trainer per variant, as `pelab train` runs them: the result does not depend on the
    // order the steps are taken in, nor on which worker takes them.
    Work(const TrainSettings& settings, std::vector<std::size_t> indices_in)
        : indices(std::move(indices_in)) {
        for (const std::size_t index : indices) {
            TrainSettings one = settings;
            one.variants = {settings.variants[index]};
            trainers.push_back(std::make_unique<Trainer>(one));
        }
    }
    std::vector<std::size_t> indices; ///< the variants this work trains (into settings.variants)
    std::vector<std::unique_ptr<Trainer>> trainers;
    std::size_t next = 0; ///< the one whose turn it is
    TokenBatch example;
};

TrainJob::TrainJob() = default;

TrainJob::~TrainJob() {
    Stop();
}

int TrainJob::WorkersFor(std::size_t variants) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return static_cast<int>(std::clamp<std::size_t>(variants, 1, cores));
}

void TrainJob::Start(const TrainSettings& settings) {
    Stop();
    cancel_.store(false);
    finished_.store(false);
    progress_.store(0);
    const std::size_t count = settings.variants.size();
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        snapshot_ = TrainRun{};
        snapshot_.settings = settings;
        snapshot_.example = train_example(settings);
        snapshot_.variants.resize(count);
        progress_of_.assign(count, 0.0);
        steps_of_.assign(count, 0.0);
        ++version_;
    }
    start_ = std::chrono::steady_clock::now();
    running_.store(true);
#ifdef __EMSCRIPTEN__
    // No threads: one work of every variant, stepped by Advance from the frame.
    std::vector<std::size_t> all(count);
    for (std::size_t v = 0; v < count; ++v)
        all[v] = v;
    workers_left_.store(1);
    sliced_ = std::make_unique<Work>(settings, all);
#else
    // The variants dealt round the workers (0, 2, 4 to the first of two; 1, 3, 5 to the
    // second), each worker stepping its own in turn: every curve grows together.
    const int workers = WorkersFor(count);
    workers_left_.store(workers);
    for (int w = 0; w < workers; ++w) {
        std::vector<std::size_t> mine;
        for (std::size_t v = static_cast<std::size_t>(w); v < count;
             v += static_cast<std::size_t>(workers))
            mine.push_back(v);
        threads_.emplace_back(&TrainJob::RunOnWorker, this, settings, std::move(mine));
    }
#endif
}

void TrainJob::Stop() {
    cancel_.store(true);
    for (std::thread& thread : threads_)
        if (thread.joinable()) thread.join();
    threads_.clear();
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

void TrainJob::RunOnWorker(const TrainSettings& settings, std::vector<std::size_t> indices) {
    Work work(settings, std::move(indices));
    while (StepNext(work)) {
    }
}

bool TrainJob::StepNext(Work& work) {
    const std::size_t count = work.trainers.size();
    bool mine_done = cancel_.load() || count == 0;
    if (!mine_done) {
        // The next of this work's variants not done, in turn.
        for (std::size_t tried = 0; tried < count && work.trainers[work.next]->Done(); ++tried)
            work.next = (work.next + 1) % count;
        const std::size_t k = work.next;
        work.next = (work.next + 1) % count;
        Trainer& trainer = *work.trainers[k];
        if (!trainer.Done()) {
            trainer.Step(1);
            // Outside the lock: the attention of a finished variant takes a moment.
            TokenBatch example;
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                example = snapshot_.example;
            }
            VariantResult result = VariantResultOf(trainer, 0, example);
            const std::lock_guard<std::mutex> lock(mutex_);
            const std::size_t v = work.indices[k];
            snapshot_.variants[v] = std::move(result);
            progress_of_[v] = trainer.Progress();
            steps_of_[v] = trainer.StepsTrained();
            Publish();
        }
        mine_done = std::all_of(work.trainers.begin(), work.trainers.end(),
                                [](const auto& each) { return each->Done(); });
    }
    if (!mine_done && !cancel_.load()) return true;
    // This work is over: the last one to end says how the job ended.
    if (workers_left_.fetch_sub(1) == 1) {
        finished_.store(!cancel_.load());
        running_.store(false);
    }
    return false;
}

void TrainJob::Publish() {
    // Counted over every variant (a cancel may have cut a round short); the progress counts the
    // measurements too (Trainer::Progress), the speed only the training steps.
    const TrainSettings& settings = snapshot_.settings;
    double progress = 0, steps_done = 0, token_seconds = 0;
    for (std::size_t v = 0; v < progress_of_.size(); ++v) {
        progress += progress_of_[v];
        steps_done += steps_of_[v];
        token_seconds += snapshot_.variants[v].seconds;
    }
    progress_.store(progress_of_.empty() ? 0.0
                                         : progress / static_cast<double>(progress_of_.size()));
    snapshot_.seconds = Seconds();
    const double tokens =
        steps_done * settings.batch * (settings.min_train_len + settings.train_len) / 2.0;
    snapshot_.tokens_per_second_per_thread = token_seconds > 0 ? tokens / token_seconds : 0;
    ++version_;
}

} // namespace pelab
