// panel_heatmap.h — the PE matrix as a heatmap: positions (rows) × dimensions (columns),
// computed per pixel on the GPU (shaders/pe_heatmap.frag) for whatever window of the matrix is
// in view, up to 65 536 positions × 4 096 dimensions. Zoom, pan, hover for the exact value,
// click to pick pos A and the pair; interleaved or concatenated layout, side by side on request.
// Or the similarity matrix PE(p)·PE(q) over positions × positions
// (shaders/similarity_heatmap.frag), which depends only on p − q: click to pick pos A and pos B.
#pragma once

#include "io/scene.h"

#include "panels/panel.h"
#include "widgets/cached.h"
#include "widgets/plot.h"

#include <string>

namespace pelab {

constexpr int kHeatmapMaxLen = 65536;
/// The matrix's rows (scene field heatmap_max_len).
inline constexpr NumberControl kHeatmapPositions{
    "heatmap_max_len",
    "how many rows (positions) the matrix has",
    1,
    kHeatmapMaxLen,
    128,
    "positions",
    "%d",
    true,
    "How many positions (rows) the whole matrix has: 1 to 65 536. The picture is computed per "
    "pixel on the GPU, so a larger matrix costs nothing more.",
    "heatmap.max_len"};

struct HeatmapPanel : Panel {
    // Own settings (scene fields).
    int max_len = static_cast<int>(kHeatmapPositions.initial); ///< positions when the view is reset
    bool concatenated = false; ///< sin half then cos half, instead of sin/cos alternating
    bool both_layouts = false; ///< the two conventions side by side
    bool grey = false;         ///< grey levels instead of the diverging map
    bool similarity = false;   ///< show PE(p)·PE(q) over positions × positions instead
    /// The similarity's colours span the matrix's own lowest to highest value (at a few hundred
    /// positions every value is close to 1 and a −1 … 1 scale shows one colour); false: −1 … 1.
    bool fitted_colours = true;
    /// The values the similarity picture's colour map ends at, as the GPU last drew it.
    double colour_low = -1.0, colour_high = 1.0;
    // View state: x = dimension, y = position, shared by both pictures.
    plot::PlotView view;
    plot::PlotView similarity_view;         ///< x = q, y = p
    int view_d_model = 0, view_max_len = 0; ///< what the home view was fitted to
    std::string gpu_error;                  ///< why the picture is missing, if it is

    /// The CPU's numbers beside the GPU's picture: the cell of pos A's row in the selected pair,
    /// its columns in both layouts, computed once per change; the marked columns and Readouts
    /// show this one result (hovered cells are computed as they are hovered).
    struct Inputs {
        int d_model = 0, pair = 0;
        double base = 0, pos_a = 0;
        bool operator==(const Inputs& o) const {
            return d_model == o.d_model && pair == o.pair && base == o.base && pos_a == o.pos_a;
        }
    };
    struct Result {
        int pos_a_row = 0;
        int sin_column[2] = {0, 0}, cos_column[2] = {0, 0}; ///< [0] interleaved, [1] concatenated
        double sin_value = 0, cos_value = 0;
    };
    static Result Compute(const Inputs& inputs);
    const Result& ResultFor(const AppState& state) const;
    mutable Cached<Inputs, Result> result_cache;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();

private:
    void DrawControls(FrameContext& frame);
    void DrawHeatmap(FrameContext& frame, const char* id, bool concatenated_layout, int slot,
                     ImVec2 size);
    void DrawSimilarity(FrameContext& frame, ImVec2 size);
    void DrawLegend(FrameContext& frame);
};

/// The dimension that holds pair `pair`'s sin (is_cos false) or cos in a layout.
int LayoutDimension(int pair, bool is_cos, int d_model, bool concatenated);

} // namespace pelab
