// gpu.h — what the panels may ask of the GPU, without knowing GL: render a PE heatmap into a
// texture they then draw with ImGui. The window's session provides the OpenGL implementation
// (gl/gpu_heatmap.cpp); headless tests run with none (FrameContext::gpu is null) and the
// panels say so in place of the picture.
#pragma once

#include <imgui.h>

#include <string>

namespace pelab {

/// One heatmap, as seen through a window of its matrix, rendered at width × height pixels:
/// - PeMatrix: PE(pos, dim) for the shared d_model and base; x = dimension, y = position;
/// - Similarity: PE(p)·PE(q) / (d/2) over max_len positions; x = q, y = p.
struct HeatmapRequest {
    enum class Picture { PeMatrix, Similarity };
    Picture picture = Picture::PeMatrix;
    int max_len = 128; ///< Similarity: positions of the matrix
    int d_model = 512;
    double base = 10000.0;
    bool concatenated = false;         ///< sin half then cos half, instead of sin/cos alternating
    double dim_min = 0, dim_max = 512; ///< the visible columns, left to right (Similarity: q)
    double pos_min = 0, pos_max = 128; ///< the visible rows, bottom to top (Similarity: p)
    int width = 256, height = 256;     ///< pixels
    bool grey = false;                 ///< grey levels (v + 1)/2 instead of the diverging map
    /// Similarity: the map's ends at the lowest and highest value of the matrix shown (its
    /// middle colour then marks their midpoint, not 0) instead of at −1 and +1.
    bool fit_values = false;
    ImU32 negative = 0, middle = 0, positive = 0; ///< the diverging map's colours
};

class GpuRenderer {
public:
    virtual ~GpuRenderer() = default;
    /// Renders the heatmap into the texture of `slot` (one per picture on screen) and returns it
    /// for ImGui::Image / plot::Plot::Image, its first row being the bottom one. On failure
    /// (a shader that does not compile, no framebuffer) returns nullptr and a one-line reason.
    virtual ImTextureID RenderHeatmap(int slot, const HeatmapRequest& request,
                                      std::string* error) = 0;
    /// Whether the last RenderHeatmap waits for data being computed off the frame (the
    /// similarity table of a new d_model, base or size): its picture is the previous data's,
    /// or, returning nullptr, there is none yet (error then says so). Not a failure.
    virtual bool LastPending() const { return false; }
    /// A matrix computed on the CPU (rows × cols values in [−1, 1], row-major, row 0 first) as a
    /// texture of one texel per value, coloured by the diverging map from negative (−1) through
    /// middle (0) to positive (+1): uploaded when version changes, else the slot's texture again.
    /// Its first row is the top one. nullptr, with a reason, when there is no GPU.
    virtual ImTextureID MatrixTexture(int slot, const float* values, int rows, int cols,
                                      unsigned long long version, ImU32 negative, ImU32 middle,
                                      ImU32 positive, std::string* error) {
        (void)slot, (void)values, (void)rows, (void)cols, (void)version, (void)negative,
            (void)middle, (void)positive;
        *error = "no GPU";
        return nullptr;
    }
    /// The values the last RenderHeatmap's colour map ends at (−1 and +1, or the fitted lowest
    /// and highest value); false when it drew nothing.
    virtual bool LastValueRange(double* low, double* high) const {
        (void)low, (void)high;
        return false;
    }
};

} // namespace pelab
