// panel_rotation.h — relative position as a rotation (as the published articles derive it). For the
// selected pair: the unit circle with PE_i(pos A) and PE_i(pos A + k), the arc between them and
// the 2×2 matrix R_k that turns one into the other, with the measured residual over all pairs.
// Then "depends only on k" shown rather than told: PE(p)·PE(p + k) against k for several starts
// p on one set of axes (the curves coincide; their largest spread is printed), and the
// positions × positions similarity heatmap, whose diagonal stripes are the same fact.
#pragma once

#include "panels/panel.h"
#include "widgets/cached.h"
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
    /// What the curves show, computed once per change of their inputs (Draw and Readouts both
    /// read it, so the picture and the numbers cannot disagree).
    struct Curve {
        double start = 0;
        std::vector<double> ks, dots;
    };
    struct CurvesInputs {
        double pos_a = 0, base = 0;
        int d_model = 0, max_k = 0;
        bool operator==(const CurvesInputs& o) const {
            return pos_a == o.pos_a && base == o.base && d_model == o.d_model && max_k == o.max_k;
        }
    };
    struct CurvesResult {
        std::vector<Curve> curves; ///< one per start (Starts)
        double spread = 0;         ///< max over k of (largest − smallest) over the curves
    };
    static CurvesResult ComputeCurves(const CurvesInputs& inputs);
    /// The curves for this state and K, from the cache (computed now when an input changed).
    const CurvesResult& Curves(const AppState& state) const;
    /// Whether the curves drawn are for this frame's inputs (drawn through GetForFrame: off the
    /// frame in the window, the last ones meanwhile).
    bool curves_current = true;
    mutable BackgroundCached<CurvesInputs, CurvesResult> curves_cache;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();

    /// The starting positions of the curves: pos A, pos A + 100, + 1000, + 10 000 (kept within
    /// the positions that exist).
    static std::vector<double> Starts(double pos_a);

private:
    void DrawControls(FrameContext& frame);
    void DrawCircle(FrameContext& frame, float size);
    void DrawMatrix(FrameContext& frame);
    void DrawCurves(FrameContext& frame, ImVec2 size, const CurvesResult& result);
};

} // namespace pelab
