// train_step_time.cpp — the time of one training step at the Train panel's default settings,
// pelab_core alone: scripts/web_report.sh builds it natively and with Emscripten (run in
// Node.js) to compare WebAssembly's speed with the desktop's on the same work (docs/web.md).
#include "pelab/training/train.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
    pelab::Trainer trainer(pelab::TrainSettings{});
    std::vector<double> step_ms;
    for (int step = 0; step < 15 && !trainer.Done(); ++step) {
        const auto start = std::chrono::steady_clock::now();
        trainer.Step(1);
        step_ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    std::sort(step_ms.begin(), step_ms.end());
    std::printf("training step (ms): median %.1f of %zu\n", step_ms[step_ms.size() / 2],
                step_ms.size());
    return 0;
}
