// panel_waves.h — the wave-frequency explorer: sin and cos of one pair against position,
// with the numbers that explain its speed (exponent, denominator, ω, wavelength).
#pragma once

#include "panels/panel.h"
#include "widgets/plot.h"

#include <string>
#include <vector>

namespace pelab {

/// How far the ω spectrum's log axis may be zoomed out.
constexpr double kSpectrumMinOmega = 1e-9, kSpectrumMaxOmega = 1e3;

struct WavesPanel : Panel {
    // View state and own settings; every shared parameter lives in AppState.
    plot::PlotView wave_view;
    plot::PlotView spectrum_view;
    std::vector<double> sample_x, sample_sin, sample_cos;
    std::vector<double> marker_x, marker_sin, marker_cos;
    std::vector<double> spectrum_pair, spectrum_omega;
    int spectrum_d_model = 0; ///< parameters the spectrum view was fitted to
    double spectrum_base = 0.0;
    std::string d_model_note;   ///< why a typed d_model was changed, shown under the slider
    bool pin_view = false;      ///< the wave plots stay put when pos A leaves them
    double followed_pos_a = -1; ///< pos A when the view last followed it
    /// The wave plot shows positions 0 to two wavelengths of the selected pair, refitted when
    /// the pair, d_model or the base changes (Fit 2 wavelengths turns it on, Reset view off).
    bool fit_wavelengths = false;
    std::string fitted_for;  ///< the pair, d_model and base the view was last fitted to
    bool many_waves = false; ///< stack several dimensions and sweep a cursor across them
    int lane_count = 8;
    std::vector<double> lane_y;
    /// The many-waves lane labels of this frame, drawn in the plot's left margin.
    struct LaneLabel {
        std::string text;
        float y; ///< screen y of the lane's centre line
        ImU32 colour;
    };
    std::vector<LaneLabel> lane_labels;

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    std::vector<std::string> WidgetNames() const override;

private:
    void DrawControls(FrameContext& frame);
    void FollowPosA(FrameContext& frame);
    void FitWavelengths(const AppState& state);
    void DrawViewButtons(FrameContext& frame, bool fit_button);
    void DrawReadouts(FrameContext& frame);
    void DrawWavePlot(FrameContext& frame, float height);
    void DrawSpectrum(FrameContext& frame, float height);
    void DrawManyWaves(FrameContext& frame, float height);
};

} // namespace pelab
