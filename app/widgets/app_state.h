// app_state.h — the parameters every panel shares, owned by main() (through App) and handed to
// each panel every frame. Only what a user expects to be linked across panels lives here;
// a panel's own settings live in the panel, one-frame requests in FrameRequests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pelab {

// The checkpoint open in this PE Lab and its learned table (io/model_service.h): owned by the
// shell, read by the panels through these pointers.
class ModelService;
struct ModelTable;
struct OpenedModel;

struct AppState {
    // Invariants (kept by Clamp()): d_model even in [2, 4096], base in [10, 1e6],
    // 0 ≤ pair < d_model/2, positions in [0, 1e6], shift_k in [-1000, 1000].
    int d_model = 512;
    double base = 10000.0;
    double pos_a = 3.0;
    double pos_b = 50.0;
    int pair = 0;
    /// Shift both positions by k (compare) / turn every clock hand by ω_i·k (clocks).
    int shift_k = 5;
    /// Animation of pos A, in positions per second (independent of the frame rate).
    bool playing = false;
    double play_speed = 2.0;
    /// Play moves pos A a whole position at a time (every position a number of its own); smooth
    /// glides through the fractions between them.
    bool play_smooth = false;
    /// The part of a position Play has accumulated towards the next whole step (not saved).
    double play_carry = 0.0;

    /// The checkpoint open (the shell's App::models; null in a bare AppState, as a test's), what
    /// it read (opened_model: null when none), and its learned table (null when none), handed
    /// over every frame (App::ShareModel). None is saved in scenes.
    ModelService* models = nullptr;
    std::shared_ptr<const OpenedModel> opened_model;
    std::shared_ptr<const ModelTable> model_table;

    /// Restores the invariants above after any edit.
    void Clamp();
};

constexpr int kUiMaxDModel = 4096;
constexpr int kUiMaxShift = 1000;
constexpr double kUiMinBase = 10.0;
constexpr double kUiMaxBase = 1e6;
constexpr double kUiMaxPosition = 1e6;
constexpr double kUiMinPlaySpeed = 0.1, kUiMaxPlaySpeed = 1000.0;

} // namespace pelab
