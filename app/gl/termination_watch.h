// termination_watch.h — SIGTERM, SIGINT and SIGHUP end a window session the way Ctrl+Q does
// (state written, settings saved, exit status 128 + the signal), instead of killing it and
// losing the class's work.
//
// The three signals are blocked in every thread, and one watcher thread takes them with
// sigwait: no code runs inside a signal handler, so the watcher may record the signal and wake
// the frame loop (glfwPostEmptyEvent may be called from any thread) however long the loop
// waits for events. Construct it before any other thread starts (the GL driver's, the offset
// table worker), so that every thread inherits the blocked mask.
#pragma once

#include <atomic>
#include <csignal>
#include <functional>
#include <mutex>
#include <thread>

namespace pelab {

class TerminationWatch {
public:
    TerminationWatch();
    /// Stops the watcher and restores the signal mask the thread had.
    ~TerminationWatch();
    TerminationWatch(const TerminationWatch&) = delete;
    TerminationWatch& operator=(const TerminationWatch&) = delete;

    /// 0 while no terminating signal arrived, else the signal (SIGTERM, SIGINT or SIGHUP).
    int Signal() const { return signal_.load(); }
    /// Called from the watcher thread when a signal arrives (wakes the frame loop); replaces
    /// the one before. Pass {} before what it calls goes away.
    void SetWake(std::function<void()> wake);

private:
    void Watch();

    sigset_t watched_{}, previous_{};
    std::atomic<int> signal_{0};
    std::atomic<bool> stopping_{false};
    std::mutex wake_mutex_;
    std::function<void()> wake_;
    std::thread watcher_;
};

} // namespace pelab
