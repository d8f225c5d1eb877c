// app_state.h — the one shared state of PE Lab, owned by main() and passed by reference to
// every panel. Panels keep only view state (zoom, hover) of their own; everything a user would
// expect to be linked across panels lives here.
#pragma once

#include <string>

namespace pelab {

struct AppState {
    // Encoding parameters shared by every panel. Invariants (kept by Clamp()): d_model even in
    // [2, 4096], base in [10, 1e6], 0 ≤ pair < d_model/2, positions in [0, 1e6].
    int d_model = 512;
    double base = 10000.0;
    double pos_a = 3.0;
    double pos_b = 50.0;
    int pair = 0;

    // Order demo (document 001/002).
    bool pe_enabled = true;
    double pe_scale = 1.0;
    bool scale_embeddings = false;
    std::string sentence_a = "dog bites man";
    std::string sentence_b = "man bites dog";

    // Animation of pos A (positions per second; independent of the frame rate).
    bool playing = false;
    double play_speed = 2.0;

    // Window and presentation.
    bool show_waves = true;
    bool show_about = false;
    float font_scale = 1.0f;         ///< user's zoom on top of the monitor's content scale
    bool fonts_need_rebuild = false; ///< set when font_scale changes; main() rebuilds the atlas
    bool fullscreen = false;
    bool quit_requested = false;

    // Last message shown in the status bar (e.g. "d_model must be even: using 8").
    std::string status_message;

    /// Restores the invariants above after any edit.
    void Clamp();
};

constexpr int kUiMaxDModel = 4096;
constexpr double kUiMinBase = 10.0;
constexpr double kUiMaxBase = 1e6;
constexpr double kUiMaxPosition = 1e6;

} // namespace pelab
