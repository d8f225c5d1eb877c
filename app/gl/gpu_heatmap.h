// gpu_heatmap.h — the OpenGL side of the PE heatmap: compiles shaders/pe_heatmap.frag (embedded
// in the binary), uploads the pairs' frequencies as a small texture, and renders into
// framebuffer textures the panels draw (GpuRenderer) or into pixels for `pelab render`.
#pragma once

#include "widgets/gpu.h"

#include <memory>
#include <string>
#include <vector>

namespace pelab {

class GlHeatmaps : public GpuRenderer {
public:
    GlHeatmaps();
    ~GlHeatmaps() override;
    GlHeatmaps(const GlHeatmaps&) = delete;
    GlHeatmaps& operator=(const GlHeatmaps&) = delete;

    ImTextureID RenderHeatmap(int slot, const HeatmapRequest& request, std::string* error) override;
    bool LastPending() const override;
    ImTextureID MatrixTexture(int slot, const float* values, int rows, int cols,
                              unsigned long long version, ImU32 negative, ImU32 middle,
                              ImU32 positive, std::string* error) override;
    bool LastValueRange(double* low, double* high) const override;
    /// Whether any render since the last call waited for data computed off the frame: the
    /// session keeps drawing frames until it arrives (render on demand would otherwise wait).
    bool TakeFramePending();

    /// The render command's picture of the whole matrix, width × height pixels, RGBA rows, top
    /// row first. PE matrix: column x shows dimension ⌊x·D/W⌋ and row y (from the top) position
    /// ⌊y·L/H⌋. Similarity: column x shows q = ⌊x·L/W⌋, row y position p = ⌊y·L/H⌋.
    bool RenderGrid(const HeatmapRequest& request, int max_len, std::vector<unsigned char>* rgba,
                    std::string* error);

    /// Frees every GL object; call while the context is still current.
    void Release();

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

/// For tests: when the environment variable PELAB_TEST_BROKEN_SHADER is set, the heatmap's
/// fragment shader is compiled with a syntax error added, to exercise the failure path.
constexpr const char* kBrokenShaderVariable = "PELAB_TEST_BROKEN_SHADER";
/// For measurements: when set, the heatmaps are drawn again every frame even when the picture
/// has not changed (normally a frame that asks for the same picture reuses its texture).
constexpr const char* kRedrawVariable = "PELAB_HEATMAP_REDRAW";

} // namespace pelab
