#include "gl/termination_watch.h"

#include <pthread.h>

namespace pelab {

TerminationWatch::TerminationWatch() {
    sigemptyset(&watched_);
    sigaddset(&watched_, SIGTERM);
    sigaddset(&watched_, SIGINT);
    sigaddset(&watched_, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &watched_, &previous_);
    watcher_ = std::thread([this] { Watch(); });
}

TerminationWatch::~TerminationWatch() {
    stopping_ = true;
    // A signal sent to the watcher itself ends its sigwait.
    pthread_kill(watcher_.native_handle(), SIGTERM);
    watcher_.join();
    SetWake({});
    // A signal that arrived after the loop ended is still pending: it keeps its default
    // action once unblocked, so the process ends as the sender asked.
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

void TerminationWatch::SetWake(std::function<void()> wake) {
    const std::lock_guard<std::mutex> lock(wake_mutex_);
    wake_ = std::move(wake);
}

void TerminationWatch::Watch() {
    for (;;) {
        int received = 0;
        if (sigwait(&watched_, &received) != 0) continue;
        if (stopping_) return;
        int expected = 0;
        signal_.compare_exchange_strong(expected, received); // the first one counts
        const std::lock_guard<std::mutex> lock(wake_mutex_);
        if (wake_) wake_();
    }
}

} // namespace pelab
