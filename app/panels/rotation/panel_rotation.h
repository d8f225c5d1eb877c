// panel_rotation.h — relative position as a rotation (as the published articles derive it). For the
// selected pair: the unit circle with PE_i(pos A) and PE_i(pos A + k), the arc between them and
// the 2×2 matrix R_k that turns one into the other, with the measured residual over all pairs.
// Then "depends only on k" shown rather than told: PE(p)·PE(p + k) against k for several starts
// p on one set of axes (the curves coincide; their largest spread is printed), and the
// positions × positions similarity heatmap, whose diagonal stripes are the same fact.
#pragma once

#include "panels/panel.h"
#include "widgets/plot.h"

#include <string>
#include <vector>

namespace pelab {

constexpr int kRotationMaxK = 500;
constexpr int kRotationMaxLen = 4096;
constexpr int kRotationStarts = 4;

struct RotationPanel : Panel {
    // Own settings (scene fields).
    int curve_max_k = 40;     ///< the curves run over k = −K … K
    int similarity_len = 256; ///< positions of the similarity heatmap
    // View state.
    plot::PlotView circle_view, curve_view, similarity_view;
    int curve_view_k = 0, curve_view_d_model = 0, similarity_view_len = 0;
    double curve_view_base = 0;
    std::string gpu_error;
    /// The curves, cached for (pos A, d_model, base, K): one per start.
    struct Curve {
        double start = 0;
        std::vector<double> ks, dots;
    };
    std::vector<Curve> curves;
    double curves_pos = -1, curves_base = 0;
    int curves_d_model = 0, curves_k = 0;
    double spread = 0; ///< max over k of (largest − smallest) over the curves

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    std::vector<std::string> WidgetNames() const override;

    /// The starting positions of the curves: pos A, pos A + 100, + 1000, + 10 000 (kept within
    /// the positions that exist).
    static std::vector<double> Starts(double pos_a);
    /// Recomputes the curves and their spread when an input changed.
    void UpdateCurves(const AppState& state);

private:
    void DrawControls(FrameContext& frame);
    void DrawCircle(FrameContext& frame, float size);
    void DrawMatrix(FrameContext& frame);
    void DrawCurves(FrameContext& frame, ImVec2 size);
};

/// The curves' spread computed from scratch: max over k (where every start has PE(p + k)) of the
/// difference between the largest and smallest PE(p)·PE(p + k) over the starts.
double CurveSpread(const std::vector<double>& starts, int max_k, int d_model, double base);

} // namespace pelab
