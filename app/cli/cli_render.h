// cli_render.h — `pelab render pe-heatmap`: its options (CLI11) and their checks.
#pragma once

#include "cli/cli.h"

#include <CLI/CLI.hpp>

#include <string>

namespace pelab {

struct RenderCommand {
    CLI::App* render = nullptr;
    CLI::App* pe_heatmap = nullptr;
    CLI::App* similarity = nullptr;
};

/// Adds `render` and its subcommands to app, filling options (and size_text for --size).
RenderCommand AddRenderCommand(CLI::App& app, RenderOptions& options, std::string& size_text);

/// After parsing: "" or a one-line message naming the option (exit 2).
std::string CheckRenderOptions(RenderOptions& options, const std::string& size_text);

} // namespace pelab
