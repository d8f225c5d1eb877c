// cli_model.h — `pelab model inspect`: what a checkpoint keeps of positions, and every number the
// "Your model" panel shows of it, at a terminal (docs/models.md).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace pelab {

struct ModelOptions {
    std::string path;   ///< the weights: .safetensors, model.safetensors.index.json, .npy, a folder
    std::string config; ///< "": config.json beside the weights
    std::string table;  ///< a 2-D tensor to read as a position table
    bool json = false;
    bool full = false; ///< with --json: the cosine matrices too
    std::string out;   ///< "" or "-": stdout
};

/// Adds `model inspect` to app; returns the inspect subcommand.
CLI::App* AddModelCommand(CLI::App& app, ModelOptions& options);
/// Exit 0; 2 for a malformed or unreadable file (one line naming it); 1 when --out cannot be
/// written.
int RunModelInspect(const ModelOptions& options);

} // namespace pelab
