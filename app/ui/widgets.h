// widgets.h — small ImGui helpers shared by the panels: the formula tooltip, readout rows,
// refused-input text.
#pragma once

#include "frame.h"

#include <imgui.h>

namespace pelab {

/// "(?)" marker whose tooltip shows text (the formula behind the number next to it).
void HelpMarker(const char* text);

/// Shows a tooltip with text when the previous item is hovered.
void FormulaTooltip(const char* text);

/// One row of a two-column readout table ("name", "value"); hovering either cell shows the
/// formula. Call inside BeginTable(…, 2).
void ReadoutRow(const char* name, const char* formula, const char* value_format, ...) IM_FMTARGS(3);

/// Text for an input that was refused, saying why, in the theme's error colour.
void ErrorText(const FrameContext& frame, const char* message);

} // namespace pelab
