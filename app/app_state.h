// app_state.h — the one shared state of PE Lab, owned by main() and passed by reference to
// every panel. Panels keep only view state (zoom, hover) of their own; everything a user would
// expect to be linked across panels lives here.
#pragma once

#include <map>
#include <string>

namespace pelab {

/// Screen rectangle of a named widget (see AppState::widget_rects).
struct WidgetRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool operator==(const WidgetRect& o) const {
        return x0 == o.x0 && y0 == o.y0 && x1 == o.x1 && y1 == o.y1;
    }
};

struct AppState {
    // Encoding parameters shared by every panel. Invariants (kept by Clamp()): d_model even in
    // [2, 4096], base in [10, 1e6], 0 ≤ pair < d_model/2, positions in [0, 1e6].
    int d_model = 512;
    double base = 10000.0;
    double pos_a = 3.0;
    double pos_b = 50.0;
    int pair = 0;

    // Shift both positions by k (compare panel) / turn every clock hand by ω_i·k (clocks).
    int shift_k = 5;

    // Order demo (documents 001/002/003). It has its own small width so that one-hot rows,
    // X rows and score matrices stay readable: PE is added to order_d_model-wide embeddings.
    bool pe_enabled = true;
    double pe_scale = 1.0;
    bool scale_embeddings = false;
    std::string sentence_a = "dog bites man";
    std::string sentence_b = "man bites dog";
    int order_d_model = 16;
    bool random_embeddings = false; ///< false: one-hot over the vocabulary (document 002)
    int embedding_seed = 42;

    // Animation of pos A (positions per second; independent of the frame rate).
    bool playing = false;
    double play_speed = 2.0;

    // Window and presentation.
    bool show_waves = true;
    bool show_compare = true;
    bool show_clocks = true;
    bool show_order = true;
    bool show_about = false;
    /// A panel name (see kPanelNames) shown alone, filling the window, for a room; "" = tiled.
    std::string presented_panel;
    /// User's text zoom on top of the monitor's content scale; the session re-rasterises the
    /// font atlas whenever the pixel size this implies changes.
    float font_scale = 1.0f;
    bool fullscreen = false;
    bool quit_requested = false;
    /// Set for one frame to tile the open panels again (menu View > Arrange panels, or the
    /// display changed size, e.g. on entering fullscreen).
    bool arrange_panels = false;

    // Test hook (`--widget-rects FILE`): when record_widgets is set, panels store the screen
    // rectangle of each named widget here so end-to-end tests can click it with xdotool.
    bool record_widgets = false;
    std::map<std::string, WidgetRect> widget_rects;

    // Seconds spent inside pelab_core during the current frame (--bench-frames reports it).
    double core_seconds = 0.0;

    /// Restores the invariants above after any edit.
    void Clamp();
    /// Multiplies the text size by factor (Ctrl+= / Ctrl+- and the View menu), within [0.5, 4].
    void ScaleText(float factor);
};

constexpr int kUiMaxDModel = 4096;
constexpr int kUiMaxOrderDModel = 64;
constexpr int kUiMaxShift = 1000;
constexpr double kUiMinBase = 10.0;
constexpr double kUiMaxBase = 1e6;
constexpr double kUiMaxPosition = 1e6;

} // namespace pelab
