// widgets.h — small ImGui helpers shared by the panels: the formula tooltip, readout rows,
// the colour palette.
#pragma once

#include <imgui.h>

#include <chrono>

namespace pelab {

/// Okabe–Ito colour-blind-safe palette. Sin is blue and cos is orange, as in the documents.
namespace palette {
constexpr ImU32 kBlue = IM_COL32(0x00, 0x72, 0xB2, 0xFF);   // sin
constexpr ImU32 kOrange = IM_COL32(0xE6, 0x9F, 0x00, 0xFF); // cos
constexpr ImU32 kSkyBlue = IM_COL32(0x56, 0xB4, 0xE9, 0xFF);
constexpr ImU32 kGreen = IM_COL32(0x00, 0x9E, 0x73, 0xFF);      // pos B
constexpr ImU32 kVermillion = IM_COL32(0xD5, 0x5E, 0x00, 0xFF); // pos A cursor
constexpr ImU32 kPurple = IM_COL32(0xCC, 0x79, 0xA7, 0xFF);
constexpr ImU32 kYellow = IM_COL32(0xF0, 0xE4, 0x42, 0xFF);
/// A lighter tint of the blue for sin lines on dark backgrounds (same hue, legible contrast).
constexpr ImU32 kSinOnDark = IM_COL32(0x3D, 0x9B, 0xE0, 0xFF);
} // namespace palette

/// "(?)" marker whose tooltip shows text (the formula behind the number next to it).
void HelpMarker(const char* text);

/// Shows a tooltip with text when the previous item is hovered.
void FormulaTooltip(const char* text);

/// One row of a two-column readout table ("name", "value"); hovering either cell shows the
/// formula. Call inside BeginTable(…, 2).
void ReadoutRow(const char* name, const char* formula, const char* value_format, ...) IM_FMTARGS(3);

/// SetNextWindowPos/Size(…, FirstUseEver) unless the caller already placed the next window
/// (the solo-panel layout of `pelab screenshot --panel` does).
void DefaultWindowPlacement(ImVec2 pos, ImVec2 size, bool force = false);

/// Placement of panel `quadrant` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) in
/// the area between the menu bar and the status bar: on first use, or always when `force` (the
/// display changed size, or the user asked to arrange the panels).
void QuadrantPlacement(int quadrant, bool force);

/// Records the last item's screen rectangle under name when state.record_widgets is set.
struct AppState;
void RecordWidget(AppState& state, const char* name);

/// Adds the time of its scope to state.core_seconds: wrap the core calls of a panel in it.
class CoreTimer {
public:
    explicit CoreTimer(AppState& state);
    ~CoreTimer();
    CoreTimer(const CoreTimer&) = delete;
    CoreTimer& operator=(const CoreTimer&) = delete;

private:
    AppState& state_;
    std::chrono::steady_clock::time_point start_;
};

/// Red text for an input that was refused, saying why.
void ErrorText(const char* message);

} // namespace pelab
