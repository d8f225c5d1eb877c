// cached.h — a result computed from the inputs it depends on, kept until they change. A panel
// computes once (Compute(inputs) → a plain result struct) and both draws and reports that result,
// so its picture and its readouts cannot disagree, and a heavy computation runs once per change
// of its inputs, not once per frame.
#pragma once

#include <chrono>
#include <future>
#include <utility>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#endif

namespace pelab {

#ifdef __EMSCRIPTEN__
namespace detail {

/// The browser edition's stand-in for std::async's future: the page has one thread, so the task
/// runs between two frames (a task of the browser's event loop after the current one,
/// emscripten_async_call with no delay), and the frame that started it draws the last result, as
/// a desktop frame does while its thread computes. The same few calls as std::future; wait() runs
/// the task now if it has not run. A task dropped before it ran (the owner was destroyed) never
/// runs: the event loop's callback holds only a weak reference.
template <typename Result> class BetweenFramesTask {
public:
    template <typename Compute, typename Key>
    static BetweenFramesTask Start(Compute compute, const Key& key) {
        BetweenFramesTask task;
        task.state_ = std::make_shared<State>();
        task.state_->run = [compute, key] { return compute(key); };
        emscripten_async_call(
            [](void* handle) {
                const std::unique_ptr<std::weak_ptr<State>> owned(
                    static_cast<std::weak_ptr<State>*>(handle));
                if (const std::shared_ptr<State> state = owned->lock()) state->Run();
            },
            new std::weak_ptr<State>(task.state_), 0);
        return task;
    }
    bool valid() const { return state_ != nullptr; }
    bool ready() const { return state_ != nullptr && state_->done; }
    void wait() {
        if (state_) state_->Run();
    }
    /// The result (or the task's exception, thrown here as std::future::get does).
    Result get() {
        wait();
        const std::shared_ptr<State> state = std::move(state_);
        if (state->error) std::rethrow_exception(state->error);
        return std::move(*state->result);
    }

private:
    struct State {
        std::function<Result()> run;
        std::optional<Result> result;
        std::exception_ptr error;
        bool done = false;
        void Run() {
            if (done) return;
            done = true;
            // An exception must not leave the event loop's callback (it would stop the page).
            try {
                result = run();
            } catch (...) {
                error = std::current_exception();
            }
        }
    };
    std::shared_ptr<State> state_;
};

} // namespace detail
#endif

/// Key: the inputs (a struct with ==, holding every field the computation reads). Result: what
/// it gives. Get(key, compute) calls compute(key) only when key differs from the last one.
template <typename Key, typename Result> class Cached {
public:
    /// The result for key: the kept one when key equals the last key, else compute(key), kept.
    template <typename Compute> const Result& Get(const Key& key, Compute&& compute) {
        if (!has_result_ || !(key == key_)) {
            result_ = std::forward<Compute>(compute)(key);
            key_ = key;
            has_result_ = true;
            ++computations_;
        }
        return result_;
    }
    /// The last result computed (nullptr before the first): for tests and reports.
    const Result* Last() const { return has_result_ ? &result_ : nullptr; }
    /// How many times compute ran: a test checks that a still frame computes nothing.
    long Computations() const { return computations_; }
    /// Forgets the result: the next Get computes.
    void Clear() { has_result_ = false; }

private:
    Key key_{};
    Result result_{};
    bool has_result_ = false;
    long computations_ = 0;
};

/// The same, computed on a background thread when asked from a frame: the frames go on while a
/// heavy result (the rotation curves at d 4 096 and K 500: ~70 ms) is computed, and the last
/// result stays on screen until the new one is ready. The latest request wins: at most one
/// task runs, and the one after it is for whatever was asked last. compute must be a pure
/// function of the key (it runs on another thread). Readouts and pictures ask GetNow. In the
/// browser edition the task runs between two frames instead (detail::BetweenFramesTask).
template <typename Key, typename Result> class BackgroundCached {
public:
    BackgroundCached() = default;
    BackgroundCached(const BackgroundCached&) = delete;
    BackgroundCached& operator=(const BackgroundCached&) = delete;
    /// Waits for a running task (its result is dropped); in the page a task not yet run is
    /// dropped.
    ~BackgroundCached() {
#ifndef __EMSCRIPTEN__
        if (running_.valid()) running_.wait();
#endif
    }

    /// Never blocks. The result for key when it is ready (*current = true); else the last
    /// result computed, for an older key (*current = false; nullptr before the first), having
    /// started key's computation unless another is running.
    template <typename Compute> const Result* Get(const Key& key, Compute compute, bool* current) {
        Collect();
        *current = has_ready_ && ready_key_ == key;
        if (*current) return &ready_;
        if (!running_.valid()) {
            running_key_ = key;
#ifdef __EMSCRIPTEN__
            running_ = detail::BetweenFramesTask<Result>::Start(compute, key);
#else
            running_ = std::async(std::launch::async, compute, key);
#endif
        }
        return has_ready_ ? &ready_ : nullptr;
    }
    /// The result for key, computed now on this thread when it is not ready (after waiting for
    /// a running task, which may be for this very key).
    template <typename Compute> const Result& GetNow(const Key& key, Compute compute) {
        if (running_.valid()) running_.wait();
        Collect();
        if (!(has_ready_ && ready_key_ == key)) {
            ready_ = compute(key);
            ready_key_ = key;
            has_ready_ = true;
            ++computations_;
        }
        return ready_;
    }
    /// For a frame: in the background when background is true (the last result meanwhile,
    /// *current false and *computing set, so that the frames go on until the new one is in), on
    /// the spot otherwise, and the first time (there is nothing to show meanwhile).
    template <typename Compute>
    const Result& GetForFrame(const Key& key, Compute compute, bool background, bool* current,
                              bool* computing) {
        *current = true;
        if (!background) return GetNow(key, compute);
        const Result* shown = Get(key, compute, current);
        if (shown == nullptr) {
            *current = true;
            return GetNow(key, compute);
        }
        if (!*current) *computing = true;
        return *shown;
    }
    /// A task is running: the frames should go on until it is collected.
    bool Busy() const {
        return running_.valid();
    }
    const Result* Last() const {
        return has_ready_ ? &ready_ : nullptr;
    }
    long Computations() const {
        return computations_;
    }

private:
    void Collect() {
#ifdef __EMSCRIPTEN__
        if (!running_.ready()) return;
#else
        if (!running_.valid() ||
            running_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            return;
#endif
        ready_ = running_.get();
        ready_key_ = running_key_;
        has_ready_ = true;
        ++computations_;
    }

#ifdef __EMSCRIPTEN__
    detail::BetweenFramesTask<Result> running_;
#else
    std::future<Result> running_;
#endif
    Key running_key_{};
    Key ready_key_{};
    Result ready_{};
    bool has_ready_ = false;
    long computations_ = 0;
};

} // namespace pelab
