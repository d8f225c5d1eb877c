// The CPU time of the calling thread, for tests that bound how long a piece of work takes: the
// suite runs other work beside its tests (scripts/test.sh's two lanes), and a wall clock would
// count the time the thread waited for a core.
#pragma once

#include <time.h>

inline double ThreadCpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}
