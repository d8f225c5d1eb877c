// input.h — key presses as the platform layer hands them to the UI.
#pragma once

namespace pelab {

/// One key press (or auto-repeat) as the platform saw it. Key codes are GLFW's, which the ImGui
/// GLFW backend also uses for io.KeysDown. Presses are queued by the platform because ImGui
/// 1.86 has no input queue: a press and release inside one frame would otherwise be lost (a
/// presenter's clicker or a fast typist does exactly that).
struct KeyPress {
    int key = 0;
    bool shift = false;
    bool ctrl = false;
};
namespace keys {
constexpr int kSpace = 32, kMinus = 45, kSlash = 47, kDigit1 = 49, kDigit9 = 57, kEqual = 61,
              kB = 66, kE = 69, kH = 72, kN = 78, kO = 79, kP = 80, kQ = 81, kR = 82, kS = 83,
              kT = 84;
constexpr int kPageUp = 266, kPageDown = 267, kHome = 268;
constexpr int kEscape = 256, kEnter = 257, kRight = 262, kLeft = 263, kDown = 264, kUp = 265,
              kF1 = 290, kF5 = 294, kF11 = 300;
constexpr int kKeypad1 = 321, kKeypad9 = 329, kKeypadSubtract = 333, kKeypadAdd = 334,
              kKeypadEnter = 335;
} // namespace keys

} // namespace pelab
