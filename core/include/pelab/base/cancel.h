// pelab/base/cancel.h — stopping a long analysis from another thread: a flag it checks between two
// pieces of work (at least every ~0.1 s), and a time cap for iterative methods.
#pragma once

#include <atomic>
#include <stdexcept>

namespace pelab {

/// Thrown by a long analysis whose AnalysisControl::cancel was set (a window closing, a newer
/// file opened): nothing is returned, nothing is left half written.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

/// How a long analysis may be stopped: a flag another thread sets (checked at least every
/// ~0.1 s of work), and a time after which an iterative method stops with what it has.
struct AnalysisControl {
    const std::atomic<bool>* cancel = nullptr;
    double time_cap_seconds = 10;
    /// Throws Cancelled when the flag is set.
    void Check() const {
        if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    }
};

} // namespace pelab
