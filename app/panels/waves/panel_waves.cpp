#include "panels/waves/panel_waves.h"
#include "widgets/number_text.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {
constexpr double kDefaultVisibleSpan = 64.0; // positions shown at first: pair 0 turns ~10 times

constexpr NumberControl kWavesPair = Drawn(kPair, "pair i", "waves.pair_slider");
constexpr NumberControl kWavesDModel = Drawn(kDModel, "d_model", "waves.d_model");
constexpr NumberControl kWavesBase = Drawn(kBase, "base", "waves.base");
constexpr NumberControl kWavesPosA = Drawn(kPosA, "pos A", "waves.pos_a");
constexpr NumberControl kWavesLanes{
    "many_waves_lanes", "dimensions stacked by many_waves", 2, 16, 8, "lanes", "%d", false, nullptr,
    "waves.lanes"};
} // namespace

void WavesPanel::Draw(FrameContext& frame) {
    if (BeginControls(frame)) {
        DrawControls(frame);
        EndControls(frame);
        ImGui::Separator();
    }
    const float font = ImGui::GetFontSize();
    // The readouts take a third of a narrow window and at most 19 em of a wide one.
    const float readout_width =
        std::clamp(ImGui::GetContentRegionAvail().x * 0.33f, font * 12.0f, font * 19.0f);
    // Side by side when the plots keep at least 22 em; else stacked, the pictures first (the
    // panel scrolls to the readouts).
    const bool side_by_side = ImGui::GetContentRegionAvail().x - readout_width >= font * 22.0f;
    if (side_by_side) {
        ImGui::BeginChild("##wave_readouts", ImVec2(readout_width, 0), false);
        DrawReadouts(frame);
        ImGui::EndChild();
        ImGui::SameLine();
    }
    ImGui::BeginGroup();
    // The two plots share what is left of the window, so a presented panel shows both without
    // scrolling. The spectrum keeps at least 9 em (its axes take 4), the wave plot (its buttons
    // included) the rest, at least 10 em; stacked in a short window it keeps 13 em and the
    // spectrum goes below the fold.
    const float left = ImGui::GetContentRegionAvail().y;
    // Halves narrower than 9 em hold no plot (the axes alone take 4): then stacked, at full width.
    const bool halves_fit =
        (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f >= font * 9.0f;
    if (frame.pictures_first && !side_by_side && halves_fit) {
        // A short window (a projector at text ×2): the waves and the spectrum side by side,
        // sharing the width and each the whole height left, so that the room sees both.
        const float height = std::max(font * 10.0f, left);
        // The stacked waves carry a label column of their own, so they take the larger share.
        const float share = many_waves ? 0.62f : 0.5f;
        const float half =
            (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * share;
        const ImGuiWindowFlags flags =
            ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
        ImGui::BeginChild("##wave_half", ImVec2(half, height), false, flags);
        DrawWavePlot(frame, height);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##spectrum_half", ImVec2(0, height), false, flags);
        DrawSpectrum(frame, height);
        ImGui::EndChild();
        ImGui::EndGroup();
        DrawReadouts(frame);
        return;
    }
    const float available = side_by_side ? left : std::clamp(left, font * 12.0f, font * 34.0f);
    const float spectrum = std::max(font * 9, available * (many_waves ? 0.2f : 0.36f));
    DrawWavePlot(frame, std::max(font * (side_by_side ? 10.0f : 13.0f),
                                 available - spectrum - ImGui::GetStyle().ItemSpacing.y));
    DrawSpectrum(frame,
                 side_by_side ? std::max(spectrum, ImGui::GetContentRegionAvail().y) : spectrum);
    ImGui::EndGroup();
    if (!side_by_side) DrawReadouts(frame);
}

void WavesPanel::DrawControls(FrameContext& frame) {
    AppState& state = frame.state;
    const float slider = FitWidth(12.0f, "d_model") - HelpMarkerRoom();
    FlowRow row;
    const auto pair_slider = [&] {
        WithHelp(row,
                 "Which (sin, cos) pair to plot: dimensions 2i (sin) and 2i+1 (cos).\n"
                 "Up/Down arrows change it from anywhere.",
                 [&] {
                     return SceneSlider(frame, row, kWavesPair, &state.pair, slider,
                                        state.d_model / 2 - 1);
                 });
    };
    const auto d_model_slider = [&] {
        WithHelp(row,
                 "Model width: the number of dimensions, d_model/2 (sin, cos) pairs.\n"
                 "Ctrl+click to type a value; odd values are rounded up to the next even one.",
                 [&] { return DModelSlider(frame, row, kWavesDModel, slider, &d_model_note); });
    };
    const auto base_slider = [&] {
        if (!frame.ShowsAdvanced(kWavesBase.widget)) return; // an advanced setting
        // Computed for the current d_model and base: the slowest pair is i = d/2 − 1, so its
        // wavelength is 2π·base^((d−2)/d), not 2π·base (that would be i = d/2).
        const Result& result = ResultFor(state);
        const int slowest = result.slowest_pair;
        char help[256];
        std::snprintf(help, sizeof help,
                      "ω_i = 1 / base^(2i/d_model); the paper uses base 10000.\nHere the slowest "
                      "pair, i = %d, needs 2π·%s^(%d/%d) = %s positions for one turn.",
                      slowest, ShownNumber(state.base).c_str(), 2 * slowest, state.d_model,
                      ShownNumber(result.slowest_wavelength).c_str());
        WithHelp(row, help,
                 [&] { return SceneSlider(frame, row, kWavesBase, &state.base, slider); });
    };
    // In a strip (a short window) the base comes second: it is what sets the spectrum.
    pair_slider();
    if (frame.controls_in_strip) {
        base_slider();
        d_model_slider();
    } else {
        d_model_slider();
        base_slider();
    }
    WithHelp(row, "The cursor position. Left/Right arrows move it by 1 (Shift: 10).", [&] {
        return SceneDrag(frame, row, kWavesPosA, &state.pos_a, slider, 0.05f,
                         PositionFormat(state.pos_a));
    });
    row.ReserveNext(HelpMarkerRoom());
    row.Item(CheckboxWidth("many waves"));
    ImGui::Checkbox("many waves", &many_waves);
    frame.Record("waves.many_waves");
    HelpAfter("Stack several dimensions, fast at the top and slow at the bottom, and watch one "
              "position cursor sweep across them (Play or Space). The dots at the cursor are that "
              "position's fingerprint.");
    if (many_waves) SceneSlider(frame, row, kWavesLanes, &lane_count, FitWidth(6.0f, "lanes"));
    PlayControls(frame, row, "waves");
    if (!d_model_note.empty()) ErrorText(frame, d_model_note.c_str());
}

void WavesPanel::DrawReadouts(FrameContext& frame) {
    AppState& state = frame.state;
    const int i = state.pair, d = state.d_model;
    const Result& result = ResultFor(state);
    const double exp = result.exponent, denom = result.denominator, w = result.omega;
    const double lambda = result.wavelength, angle = result.angle;
    const double visible = wave_view.has_home ? wave_view.x.Size() : kDefaultVisibleSpan;
    char formula[256];
    char dims[96];
    std::snprintf(dims, sizeof dims, "pair %d: dims %d (sin), %d (cos)", i, 2 * i, 2 * i + 1);
    MutedWrappedText(dims);
    if (!ImGui::BeginTable("##readouts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV))
        return;
    ImGui::TableSetupColumn("quantity", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    std::snprintf(formula, sizeof formula, "exponent = 2i / d_model = 2·%d / %d = %.6f", i, d, exp);
    ReadoutRow("exponent 2i/d", formula, "%.4f", exp);
    std::snprintf(formula, sizeof formula,
                  "denominator = base^(2i/d) = %.6g^%.6f = %.6f\npos is divided by this before "
                  "taking sin and cos.",
                  state.base, exp, denom);
    ReadoutRow("denominator", formula, "%.4f", denom);
    std::snprintf(formula, sizeof formula, "ω_i = 1 / denominator = %.8g radians per position", w);
    ReadoutRow("ω (rad/pos)", formula, w >= 1e-3 ? "%.6f" : "%.4e", w);
    std::snprintf(formula, sizeof formula,
                  "wavelength = 2π · denominator = 2π · %.6f = %.6f positions per full turn", denom,
                  lambda);
    ReadoutRow("wavelength", formula, lambda < 1e4 ? "%.2f" : "%.0f", lambda);
    std::snprintf(formula, sizeof formula,
                  "cycles in view = visible span / wavelength = %.6g / %.6g", visible, lambda);
    ReadoutRow("cycles in view", formula, "%.3f", visible / lambda);
    std::snprintf(formula, sizeof formula, "angle = ω_i · pos A = %.8g · %.6g = %.8g rad", w,
                  state.pos_a, angle);
    ReadoutRow("angle at pos A", formula, "%.4f rad", angle);
    std::snprintf(formula, sizeof formula, "PE(pos A, %d) = sin(ω_i · pos A) = sin(%.8g)", 2 * i,
                  angle);
    ReadoutRow("sin at pos A", formula, "%+.6f", result.sin_at_pos_a);
    std::snprintf(formula, sizeof formula, "PE(pos A, %d) = cos(ω_i · pos A) = cos(%.8g)",
                  2 * i + 1, angle);
    ReadoutRow("cos at pos A", formula, "%+.6f", result.cos_at_pos_a);
    ImGui::EndTable();
    frame.Record("waves.readouts");
    ImGui::Spacing();
    WrappedText("Small i: a fast wave that tells neighbouring positions apart. Large i: a "
                "slow wave that says roughly where in a long sequence you are.");
}

void WavesPanel::FitWavelengths(const AppState& state) {
    if (!fit_wavelengths) {
        // Turned off (by a scene or a lesson step): back to the usual positions 0 to 64.
        if (!fitted_for.empty()) wave_view.Reset();
        fitted_for.clear();
        return;
    }
    const std::string key = std::to_string(state.pair) + "|" + std::to_string(state.d_model) + "|" +
                            ShownNumber(state.base, 17);
    if (key == fitted_for) return; // fitted already: a zoom or pan since then stays
    fitted_for = key;
    const double span = std::min(2.0 * ResultFor(state).wavelength, kUiMaxPosition);
    wave_view.x = plot::Range{0.0, span};
    followed_pos_a = state.pos_a;
}

void WavesPanel::FollowPosA(FrameContext& frame) {
    // When pos A moves out of the view (typed, arrow keys, played), the view pans to keep it in
    // sight, unless pinned; panning away from a pos A that stays put is left alone.
    const double pos_a = frame.state.pos_a;
    if (!pin_view && pos_a != followed_pos_a &&
        (pos_a > wave_view.x.max || pos_a < wave_view.x.min)) {
        const double span = wave_view.x.Size();
        const double start =
            pos_a > wave_view.x.max ? pos_a - 0.9 * span : std::max(0.0, pos_a - 0.1 * span);
        wave_view.x = plot::Range{std::max(0.0, start), std::max(0.0, start) + span};
    }
    followed_pos_a = pos_a;
}

void WavesPanel::DrawViewButtons(FrameContext& frame, bool fit_button) {
    if (!frame.show_controls) return; // View → Hide controls: the plots alone
    AppState& state = frame.state;
    FlowRow row;
    row.Item(SmallButtonWidth("Reset view"));
    if (ImGui::SmallButton("Reset view")) {
        wave_view.Reset();
        fit_wavelengths = false;
    }
    FormulaTooltip("Back to positions 0 to 64 (also: double-click the plot).");
    frame.Record("waves.reset_view");
    if (fit_button) {
        row.Item(SmallButtonWidth("Fit 2 wavelengths"));
        if (ImGui::SmallButton("Fit 2 wavelengths")) {
            fit_wavelengths = true;
            fitted_for.clear();
            FitWavelengths(state);
        }
        FormulaTooltip("Show positions 0 to 2 wavelengths of the selected pair, and again "
                       "whenever the pair, d_model or the base changes (Reset view stops it).");
        frame.Record("waves.fit");
    }
    row.Item(CheckboxWidth("pin view"));
    ImGui::Checkbox("pin view", &pin_view);
    FormulaTooltip("Unticked, the view pans to keep pos A in sight when it moves out.");
    frame.Record("waves.pin_view");
    // The mouse hint takes a line a short window (a projector) cannot spare.
    if (frame.pictures_first) return;
    const char* hint = "wheel: zoom  drag: pan  double-click: reset";
    row.Item(ImGui::CalcTextSize(hint).x);
    ImGui::TextDisabled("%s", hint);
}

void WavesPanel::DrawWavePlot(FrameContext& frame, float height) {
    AppState& state = frame.state;
    if (many_waves) {
        DrawManyWaves(frame, height);
        return;
    }
    const Result& result = ResultFor(state);
    const double w = result.omega;
    wave_view.SetHome(plot::Range{0.0, kDefaultVisibleSpan}, plot::Range{-1.25, 1.25});
    FitWavelengths(state);
    FollowPosA(frame);
    const float top = ImGui::GetCursorPosY();
    DrawViewButtons(frame, true);
    // height is the whole picture's, the buttons above the plot included.
    height = std::max(ImGui::GetFontSize() * 10, height - (ImGui::GetCursorPosY() - top));
    plot::PlotConfig config;
    config.x_label = "position";
    config.y_flags = plot::AxisFlags_NoZoom;
    config.x_limits = plot::Range{0.0, kUiMaxPosition};
    plot::Plot p;
    if (!p.Begin("##waves", wave_view, ImVec2(-1, height), config)) return;
    frame.Record("waves.wave_plot");
    const int samples = std::clamp(static_cast<int>((p.PlotMax().x - p.PlotMin().x) * 2), 64, 8192);
    sample_x.resize(samples);
    sample_sin.resize(samples);
    sample_cos.resize(samples);
    {
        CoreTimer core_time(frame.stats);
        sample_pair(state.pair, state.d_model, state.base, wave_view.x.min, wave_view.x.max,
                    samples, sample_x.data(), sample_sin.data(), sample_cos.data());
    }
    char sin_label[48], cos_label[48];
    std::snprintf(sin_label, sizeof sin_label, "sin  (dim %d)", 2 * state.pair);
    std::snprintf(cos_label, sizeof cos_label, "cos  (dim %d)", 2 * state.pair + 1);
    p.Line(sin_label, sample_x.data(), sample_sin.data(), samples, frame.Color(Role::Sin),
           frame.Px(2.5f));
    p.Line(cos_label, sample_x.data(), sample_cos.data(), samples, frame.Color(Role::Cos),
           frame.Px(2.5f));
    // Integer positions are the only ones a model ever sees: mark them while they are apart.
    marker_x.clear(), marker_sin.clear(), marker_cos.clear();
    if (p.PixelsPerUnitX() >= 6.0f) {
        for (double x = std::ceil(wave_view.x.min); x <= wave_view.x.max; x += 1.0) {
            marker_x.push_back(x);
            marker_sin.push_back(std::sin(w * x));
            marker_cos.push_back(std::cos(w * x));
        }
        p.Markers("##sin markers", marker_x.data(), marker_sin.data(),
                  static_cast<int>(marker_x.size()), frame.Color(Role::Sin), frame.Px(3.5f));
        p.Markers("##cos markers", marker_x.data(), marker_cos.data(),
                  static_cast<int>(marker_x.size()), frame.Color(Role::Cos), frame.Px(3.0f),
                  plot::Marker::Square);
    }
    p.HLine(0.0, ImGui::GetColorU32(ImGuiCol_Text, 0.4f));
    p.VLine(state.pos_a, frame.Color(Role::PosA), "pos A", frame.Px(2.0f));
    const double cursor_x[] = {state.pos_a}, cursor_sin[] = {result.sin_at_pos_a},
                 cursor_cos[] = {result.cos_at_pos_a};
    p.Markers("##cursor sin", cursor_x, cursor_sin, 1, frame.Color(Role::Sin), frame.Px(6.0f));
    p.Markers("##cursor cos", cursor_x, cursor_cos, 1, frame.Color(Role::Cos), frame.Px(5.5f),
              plot::Marker::Square);
    if (p.Clicked()) state.pos_a = std::clamp(std::round(p.MouseX()), 0.0, kUiMaxPosition);
    p.End();
}

void WavesPanel::DrawSpectrum(FrameContext& frame, float height) {
    AppState& state = frame.state;
    const int pairs = state.d_model / 2;
    const Spectrum& spectrum = SpectrumFor(state);
    const std::vector<double>& omegas = spectrum.omega;
    const double slowest = omegas.back();
    if (spectrum_fitted != spectrum_cache.Computations()) {
        spectrum_view.Refit(plot::Range{-0.5, pairs - 0.5}, plot::Range{slowest / 2, 2.0});
        spectrum_fitted = spectrum_cache.Computations();
    }
    spectrum_view.SetHome(plot::Range{-0.5, pairs - 0.5}, plot::Range{slowest / 2, 2.0});
    plot::PlotConfig config;
    config.x_label = "pair index i  (click to select)";
    config.y_label = "ω_i, radians per position (log scale)";
    config.x_flags = plot::AxisFlags_Integer;
    config.y_flags = plot::AxisFlags_Log;
    config.x_limits = plot::Range{-0.5, pairs - 0.5};
    // ω_i lies in [1/base, 1] ⊂ [1e-6, 1]: three decades of room either side are plenty.
    config.y_limits = plot::Range{kSpectrumMinOmega, kSpectrumMaxOmega};
    plot::Plot p;
    if (!p.Begin("##spectrum", spectrum_view, ImVec2(-1, height), config)) return;
    frame.Record("waves.spectrum");
    p.Line("ω_i", spectrum.pair.data(), omegas.data(), pairs, frame.Color(Role::Accent),
           frame.Px(2.0f));
    const double chosen_x[] = {static_cast<double>(state.pair)}, chosen_y[] = {omegas[state.pair]};
    p.VLine(state.pair, frame.Color(Role::PosA), nullptr, frame.Px(1.0f));
    p.Markers("selected pair", chosen_x, chosen_y, 1, frame.Color(Role::PosA), frame.Px(6.0f));
    if (p.Clicked())
        state.pair = std::clamp(static_cast<int>(std::lround(p.MouseX())), 0, pairs - 1);
    p.End();
}

} // namespace pelab

namespace pelab {

void WavesPanel::DrawManyWaves(FrameContext& frame, float height) {
    AppState& state = frame.state;
    const int pairs = state.d_model / 2;
    const int lanes = std::min(lane_count, pairs);
    wave_view.SetHome(plot::Range{0.0, kDefaultVisibleSpan}, plot::Range{-1.25, 1.25});
    FollowPosA(frame);
    const float top = ImGui::GetCursorPosY();
    DrawViewButtons(frame, false);
    char note[128];
    std::snprintf(note, sizeof note,
                  "%d of %d pairs, fastest at the top; the dots at pos A are its fingerprint.",
                  lanes, pairs);
    MutedWrappedText(note);
    height = std::max(ImGui::GetFontSize() * 8, height - (ImGui::GetCursorPosY() - top));
    plot::PlotView lanes_view = wave_view;
    lanes_view.y = plot::Range{-0.6, lanes - 0.4};
    // Each lane's label ("dim 438: +0.001", its value at pos A) sits in the left margin, level
    // with its lane, never on the curves; the lanes are at least a text line apart (the panel
    // scrolls when that is taller than the room).
    const float font = ImGui::GetFontSize();
    char label[48];
    std::snprintf(label, sizeof label, "dim %d: +0.000", 2 * (pairs - 1));
    plot::PlotConfig config;
    config.x_label = "position";
    config.y_flags = plot::AxisFlags_NoZoom;
    config.x_limits = plot::Range{0.0, kUiMaxPosition};
    config.left_margin = ImGui::CalcTextSize(label).x + font * 0.8f;
    config.flags = plot::PlotFlags_NoHoverReadout | plot::PlotFlags_NoYTicks;
    const float overhead = font * (0.4f + 1.3f + 1.5f + 1.2f); // label row, ticks, x label
    height = std::max(height, overhead + lanes * font * 1.25f);
    plot::Plot p;
    if (!p.Begin("##many_waves", lanes_view, ImVec2(-1, height), config)) return;
    frame.Record("waves.many_waves_plot");
    wave_view.x = lanes_view.x; // zoom and pan act on the shared position range
    const int samples = std::clamp(static_cast<int>((p.PlotMax().x - p.PlotMin().x) * 2), 64, 8192);
    sample_x.resize(samples);
    sample_sin.resize(samples);
    sample_cos.resize(samples);
    lane_y.resize(samples);
    lane_labels.clear();
    for (int lane = 0; lane < lanes; ++lane) {
        const int pair = lanes == 1 ? 0
                                    : static_cast<int>(std::lround(static_cast<double>(lane) *
                                                                   (pairs - 1) / (lanes - 1)));
        const double centre = lanes - 1 - lane; // pair 0 on top
        {
            CoreTimer core_time(frame.stats);
            sample_pair(pair, state.d_model, state.base, lanes_view.x.min, lanes_view.x.max,
                        samples, sample_x.data(), sample_sin.data(), sample_cos.data());
        }
        for (int k = 0; k < samples; ++k)
            lane_y[k] = centre + 0.42 * sample_sin[k];
        const ImU32 colour =
            pair == state.pair ? frame.Color(Role::Highlight) : frame.Color(Role::Sin);
        p.HLine(centre, ImGui::GetColorU32(ImGuiCol_Text, 0.15f));
        p.Line("##lane", sample_x.data(), lane_y.data(), samples, colour, frame.Px(2.0f));
        const double w = SpectrumFor(state).omega[pair];
        const double dot_x[] = {state.pos_a}, dot_y[] = {centre + 0.42 * std::sin(w * state.pos_a)};
        p.Markers("##dot", dot_x, dot_y, 1, frame.Color(Role::PosA), frame.Px(5.0f));
        std::snprintf(label, sizeof label, "dim %d: %+.3f", 2 * pair, std::sin(w * state.pos_a));
        lane_labels.push_back({label, p.ToPixels(lanes_view.x.min, centre).y,
                               pair == state.pair ? colour : ImGui::GetColorU32(ImGuiCol_Text)});
    }
    p.VLine(state.pos_a, frame.Color(Role::PosA), "pos A", frame.Px(2.0f));
    if (p.Clicked()) state.pos_a = std::clamp(std::round(p.MouseX()), 0.0, kUiMaxPosition);
    p.End();
    // The labels, right-aligned in the margin (after End: outside the data's clipping).
    for (const LaneLabel& lane : lane_labels) {
        const ImVec2 size = ImGui::CalcTextSize(lane.text.c_str());
        p.DrawList()->AddText(ImVec2(p.PlotMin().x - font * 0.4f - size.x, lane.y - size.y * 0.5f),
                              lane.colour, lane.text.c_str());
    }
}

} // namespace pelab

namespace pelab {

void WavesPanel::AddSceneFields(SceneTable& table) {
    table.Bool("many_waves", "waves panel stacks several dimensions", &many_waves);
    table.Integer(kWavesLanes, &lane_count);
    table.Bool("waves_fit",
               "the wave plot spans two wavelengths of the selected pair, following it",
               &fit_wavelengths);
}

WavesPanel::Result WavesPanel::Compute(const Inputs& inputs) {
    const int i = inputs.pair, d = inputs.d_model;
    Result result;
    result.exponent = exponent(i, d);
    result.denominator = denominator(i, d, inputs.base);
    result.omega = omega(i, d, inputs.base);
    result.wavelength = wavelength(i, d, inputs.base);
    result.angle = result.omega * inputs.pos_a;
    result.sin_at_pos_a = std::sin(result.angle);
    result.cos_at_pos_a = std::cos(result.angle);
    result.slowest_pair = d / 2 - 1;
    result.slowest_wavelength = wavelength(result.slowest_pair, d, inputs.base);
    return result;
}

const WavesPanel::Result& WavesPanel::ResultFor(const AppState& state) const {
    return result_cache.Get(Inputs{state.d_model, state.pair, state.base, state.pos_a}, Compute);
}

WavesPanel::Spectrum WavesPanel::ComputeSpectrum(const SpectrumInputs& inputs) {
    Spectrum spectrum;
    spectrum.omega = frequencies(inputs.d_model, inputs.base);
    for (std::size_t k = 0; k < spectrum.omega.size(); ++k)
        spectrum.pair.push_back(static_cast<double>(k));
    return spectrum;
}

const WavesPanel::Spectrum& WavesPanel::SpectrumFor(const AppState& state) {
    return spectrum_cache.Get(SpectrumInputs{state.d_model, state.base}, ComputeSpectrum);
}

nlohmann::json WavesPanel::Readouts(const AppState& state) const {
    const Result& result = ResultFor(state);
    const int i = state.pair;
    return {{"pair", i},
            {"dims", {2 * i, 2 * i + 1}},
            {"exponent", result.exponent},
            {"denominator", result.denominator},
            {"omega", result.omega},
            {"wavelength", result.wavelength},
            {"angle_at_pos_a", result.angle},
            {"sin_at_pos_a", result.sin_at_pos_a},
            {"cos_at_pos_a", result.cos_at_pos_a},
            {"slowest_wavelength", result.slowest_wavelength}};
}

std::vector<WidgetName> WavesPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        ControlWidget(kWavesBase),
        ControlWidget(kWavesDModel),
        {"waves.fit", "the Fit 2 wavelengths button: zooms to two turns of the pair"},
        ControlWidget(kWavesLanes),
        {"waves.many_waves", "the many waves tick box: stack several dimensions"},
        {"waves.many_waves_plot", "the stacked waves, fastest on top, with pos A's dots"},
        ControlWidget(kWavesPair),
        {"waves.pin_view", "the pin view tick box: the view stays when pos A leaves it"},
        {"waves.play", "the Play/Pause button that moves pos A along by itself"},
        ControlWidget(kWavesPosA, "field"),
        {"waves.reset_view", "the Reset view button: back to positions 0 to 64"},
        {"waves.spectrum", "the spectrum: each pair's ω_i on a log scale (click picks)"},
        {"waves.smooth", "the smooth tick box: Play glides between whole positions"},
        {"waves.speed", "the positions/s slider: how fast Play moves pos A"},
        {"waves.wave_plot", "the wave plot: the chosen pair's sin and cos by position", {"dims"}},
        {"waves.readouts",
         "the readout table: ω, wavelength, angle, sin and cos at pos A",
         {"exponent", "denominator", "omega", "wavelength", "angle_at_pos_a", "sin_at_pos_a",
          "cos_at_pos_a"}},
    };
}

} // namespace pelab
