// cli_train.h — `pelab train`: the training lab's experiment at a terminal, without a window:
// one tiny transformer per positional variant on a task, the curves and the accuracy per test
// length written as JSON (docs/command-line.md), progress on stderr.
#pragma once

#include <CLI/CLI.hpp>

#include <map>
#include <string>

namespace pelab {

struct TrainOptions {
    std::string task = "reverse";
    std::string pe = "none,sinusoidal,learned,rope,alibi,t5";
    bool causal = false;
    int layers = 2, d_model = 64, heads = 4, vocab = 16, k = 2;
    int train_len = 16, min_train_len = 0, test_len = 64; ///< min_train_len 0: train_len
    int steps = 300, batch = 64, threads = 2;
    /// The methods' options given (--nope-every …), by key (MethodOption::key); 0: not given.
    std::map<std::string, int> method_options;
    int seeds = 1; ///< each variant trained from seed, seed + 1, … (the first gives the curves)
    std::string seed = "1";
    std::string out;  ///< "" or "-": stdout
    std::string plot; ///< "": none; else a PNG of the Train panel showing the run (no display)
    bool quick_demo = false; ///< the settings of quick_demo_settings() (no other setting given)
};

/// Adds `train` and its options to app.
CLI::App* AddTrainCommand(CLI::App& app, TrainOptions& options);
/// Runs it: exit 0, 2 for bad settings (named), 1 when the output cannot be written.
int RunTrain(const TrainOptions& options);

} // namespace pelab
