// panel_waves.h — the wave-frequency explorer: sin and cos of one pair against position,
// with the numbers that explain its speed (exponent, denominator, ω, wavelength).
#pragma once

#include "panels/panel.h"
#include "widgets/cached.h"
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
    /// The selected pair's numbers, computed once per change of d_model, base, the pair or
    /// pos A: the readouts table, the pictures and Readouts all show this one result.
    struct Inputs {
        int d_model = 0, pair = 0;
        double base = 0, pos_a = 0;
        bool operator==(const Inputs& o) const {
            return d_model == o.d_model && pair == o.pair && base == o.base && pos_a == o.pos_a;
        }
    };
    struct Result {
        double exponent = 0, denominator = 0, omega = 0, wavelength = 0;
        double angle = 0, sin_at_pos_a = 0, cos_at_pos_a = 0; ///< at pos A
        int slowest_pair = 0;                                 ///< d_model/2 − 1
        double slowest_wavelength = 0;
    };
    static Result Compute(const Inputs& inputs);
    const Result& ResultFor(const AppState& state) const;
    mutable Cached<Inputs, Result> result_cache;
    /// ω of every pair (the spectrum and the many-waves lanes), once per d_model and base.
    struct SpectrumInputs {
        int d_model = 0;
        double base = 0;
        bool operator==(const SpectrumInputs& o) const {
            return d_model == o.d_model && base == o.base;
        }
    };
    struct Spectrum {
        std::vector<double> pair, omega; ///< pair index k as a number, ω_k
    };
    static Spectrum ComputeSpectrum(const SpectrumInputs& inputs);
    const Spectrum& SpectrumFor(const AppState& state);
    Cached<SpectrumInputs, Spectrum> spectrum_cache;
    long spectrum_fitted = -1;  ///< the spectrum computation the view was last fitted to
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
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();

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
