// `pelab render …`: the options of the GPU picture commands and their checks (the rendering
// itself needs a GL context: gl/session.cpp).
#include "cli/cli_render.h"

#include "cli/cli_checks.h"
#include "pelab/base/error.h"
#include "pelab/encodings/sinusoidal.h"

namespace pelab {

RenderCommand AddRenderCommand(CLI::App& app, RenderOptions& options, std::string& size_text) {
    RenderCommand command;
    command.render = app.add_subcommand(
        "render", "Render a GPU picture alone (no UI) to a PNG, for figures and pixel checks");
    command.render->require_subcommand(1);
    command.pe_heatmap = command.render->add_subcommand(
        "pe-heatmap", "The PE matrix computed per pixel by the shader: pixel column x shows "
                      "dimension floor(x*D/W), row y (from the top) position floor(y*L/H)");
    command.similarity = command.render->add_subcommand(
        "similarity", "PE(p).PE(q) over positions x positions, from the offset function on the "
                      "GPU: pixel column x shows q = floor(x*L/W), row y (from the top) "
                      "p = floor(y*L/H); grey level round((s/(D/2)+1)/2*255)");
    for (CLI::App* picture : {command.pe_heatmap, command.similarity}) {
        picture->add_option("--max-len", options.max_len, "Positions L, 1 to 65536")
            ->check(PlainNumber())
            ->required();
        picture->add_option("--d-model", options.d_model, "Model width D, even, 2 to 4096")
            ->check(PlainNumber())
            ->required();
        picture->add_option("--base", options.base, "Frequency base (> 1)")
            ->check(PlainNumber())
            ->capture_default_str();
        picture
            ->add_option("--colormap", options.colormap,
                         "grey: level round((v+1)/2*255); diverging: blue - white - orange")
            ->check(CLI::IsMember({"grey", "diverging"}))
            ->capture_default_str();
        picture->add_option("--size", size_text, "Image size WIDTHxHEIGHT")->capture_default_str();
        picture->add_option("--out", options.out, "PNG file to write")
            ->check(FileName())
            ->required();
    }
    command.pe_heatmap
        ->add_option("--layout", options.layout,
                     "interleaved: dim 2i = sin, 2i+1 = cos; concat: sin half then cos half")
        ->check(CLI::IsMember({"interleaved", "concat", "concatenated"}))
        ->capture_default_str();
    return command;
}

std::string CheckRenderOptions(RenderOptions& options, const std::string& size_text) {
    if (std::string error = ParseSize(size_text, &options.width, &options.height); !error.empty())
        return error;
    if (options.max_len < 1 || options.max_len > kRenderMaxLen)
        return "--max-len: must be in [1, 65536] (got " + std::to_string(options.max_len) + ")";
    if (options.d_model < 2 || options.d_model > kRenderMaxDModel || options.d_model % 2 != 0)
        return "--d-model: must be an even number in [2, 4096] (got " +
               std::to_string(options.d_model) + ")";
    try {
        validate_base(options.base);
    } catch (const InvalidArgument& e) {
        return std::string("--base: ") + e.what();
    }
    if (options.out.empty() || options.out == "-")
        return "--out: a PNG file name is required (not stdout)";
    return {};
}

} // namespace pelab
