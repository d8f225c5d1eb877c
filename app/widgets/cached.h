// cached.h — a result computed from the inputs it depends on, kept until they change. A panel
// computes once (Compute(inputs) → a plain result struct) and both draws and reports that result,
// so its picture and its readouts cannot disagree, and a heavy computation runs once per change
// of its inputs, not once per frame.
#pragma once

#include <utility>

namespace pelab {

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

} // namespace pelab
