// cli_rope.h — `pelab rope table` and `pelab rope check`: the reference RoPE tables of any
// config.json's layer, and another engine's tables checked against them (docs/command-line.md,
// docs/models.md "Checking another engine's RoPE").
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace pelab {

struct RopeOptions {
    std::string config;       ///< a config.json or the folder holding one
    int layer = -1;           ///< −1: the first global layer with RoPE
    std::string positions;    ///< "A:B" ("": table 0:min(4096, context); check: the dump's)
    std::string what = "cos"; ///< table: inv_freq, cos, sin, angles, attention_factor
    std::string reference = "ideal";
    std::string dtype;             ///< "": ideal f64, transformers the model's dtype
    std::string pairing = "model"; ///< model, interleaved, half-split
    std::string format = "npy";
    std::string out;
    // check
    std::string cos, sin, inv_freq, angles; ///< the dumps
    bool json = false;
};

struct RopeCommands {
    CLI::App* table = nullptr;
    CLI::App* check = nullptr;
};
RopeCommands AddRopeCommands(CLI::App& app, RopeOptions& options);
/// Exit 0; 2 for a bad config or option (one line); 1 when --out cannot be written.
int RunRopeTable(const RopeOptions& options);
/// Exit 0 when the dump agrees with a reference, 1 when it differs, 2 for bad input.
int RunRopeCheck(const RopeOptions& options);

} // namespace pelab
