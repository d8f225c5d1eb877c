// widgets.h — small ImGui helpers shared by the panels: the formula tooltip, readout rows,
// refused-input text.
#pragma once

#include "widgets/frame.h"

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

namespace pelab {

/// "(?)" marker whose tooltip shows text (the formula behind the number next to it).
void HelpMarker(const char* text);

/// Shows a tooltip with text when the previous item is hovered.
void FormulaTooltip(const char* text);

/// A tooltip now (the caller checked the hover), printf-formatted, wrapped at spaces to at most
/// 32 text heights and never wider than the window less two: ImGui keeps a tooltip inside the
/// window only when it fits, so an unwrapped line at text ×2 ran past the right edge.
void Tooltip(const char* format, ...) IM_FMTARGS(1);

/// One row of a two-column readout table ("name", "value"); hovering either cell shows the
/// formula. Call inside BeginTable(…, 2).
void ReadoutRow(const char* name, const char* formula, const char* value_format, ...) IM_FMTARGS(3);

/// Text wrapped to the available width at spaces (and '\n') only. ImGui 1.86's own wrapping
/// also breaks after '.' and ',', splitting numbers across lines ("1.↵819"); this never does.
/// Starts at the cursor (after SameLine, the first line gets the rest of that line).
void WrappedText(const char* text);
/// A caption with *emphasis*: words between stars in the emphasis colour, wrapped at spaces
/// (a lesson step's caption, a quiz answer's explanation).
void DrawCaption(const std::string& caption, ImU32 emphasis);

/// A caption's pieces as DrawCaption draws them: each word, whether it is between stars, and
/// whether it joins the piece before it without a space (the punctuation right after a closing
/// star: "*off*," is "off" emphasised, then "," plain).
struct CaptionPiece {
    std::string text;
    bool emphasised = false;
    bool joined = false;
};
std::vector<CaptionPiece> CaptionPieces(const std::string& caption);
/// WrappedText in the style's dimmed text colour.
void MutedWrappedText(const char* text);
/// The lines WrappedText draws: text split at spaces so that each line's width (measured by
/// measure) stays within first_width for the first line and width after, unless one word alone
/// is wider; such a word is broken after its slashes (a path), else left whole. Exposed for
/// tests.
std::vector<std::string> WrapAtSpaces(const std::string& text, float first_width, float width,
                                      const std::function<float(const std::string&)>& measure);

/// text shortened to width (measured by measure) by a "…" in its middle, cut at whole UTF-8
/// characters; text itself when it fits. A long file name keeps its start and its ending.
std::string ElideMiddle(const std::string& text, float width,
                        const std::function<float(const std::string&)>& measure);

class FlowRow;

/// Wraps a panel's control rows: `if (BeginControls(frame)) { …controls…; EndControls(frame); }`.
/// False under View → Hide controls (draw none). A presented panel in a short window (under
/// kShortWindowEms text heights: 1024×768 at text scale 2), or a tiled one under kShortTileEms,
/// gets its controls in a strip of at
/// most a fifth of the height (two rows on a projector) that scrolls, so the pictures stay in
/// view; otherwise the controls are drawn as they are.
bool BeginControls(FrameContext& frame);
/// Scrolls the current window so that the outlined widgets of the panel drawn in it (or in its
/// children) are in view: all of them when they fit, else the top of the first. Called at the
/// end of each scrolling part: the control strip, the body, the panel's window, and a panel's
/// own scrolling child (compare's words beside its plot).
/// How far an outline reaches out of the widget it surrounds, in text heights: its pad (0.25)
/// and its line (0.18). KeepOutlinedInView keeps that much room around the widgets.
constexpr float kOutlineMarginEms = 0.45f;
/// row > 0 (the control strip: whole rows of that height): the scroll lands on a whole row,
/// so no row of controls shows cut at the strip's top or bottom.
void KeepOutlinedInView(const WidgetRecorder& recorder, const std::vector<std::string>& names,
                        const std::string& panel_id, float row = 0);
/// The same for the current window, from a panel's Draw: a no-op unless outlines just changed.
void KeepOutlinedInView(const FrameContext& frame);
/// Ends the control rows; after a strip it opens the panel's body (see FrameContext::
/// body_in_child), which EndPanelBody closes.
void EndControls(FrameContext& frame);
/// Closes the body EndControls opened (no-op without one), first scrolling it to the outlined
/// widgets. The shell calls it after Draw; a panel whose controls sit inside a scope of its own
/// (a tab item) calls it before closing that scope.
void EndPanelBody(FrameContext& frame);
constexpr float kShortWindowEms = 30.0f;
constexpr float kShortTileEms = 16.0f;

/// The header row of the current table with a tooltip per column (nullptr: none), for short
/// headers whose full meaning is in the tooltip. Each header is recorded as
/// "<record_prefix>.header<column>" with the width its text needs.
void TableHeadersWithTooltips(FrameContext& frame, const char* const* tooltips,
                              const char* record_prefix);

/// A readout as a small block: the name (dimmed) over the value, both with the formula as
/// tooltip, recorded as name_id. Place blocks with a FlowRow; ReadoutBlockWidth gives the width.
float ReadoutBlockWidth(const char* name, const char* value);
void ReadoutBlock(FrameContext& frame, const char* name, const char* value, const char* formula,
                  const char* record_name);

/// The Play/Pause button (Space) and the positions-per-second slider, shared by the panels that
/// animate pos A; placed on a wrapping row and recorded as "<panel_id>.play" / ".speed".
void PlayControls(FrameContext& frame, FlowRow& row, const char* panel_id);

/// ImGui::InputText over a std::string that never holds more than max_bytes: typing or pasting
/// past it keeps what fits, cut at a character's boundary (so the field never holds a text its
/// scene field would refuse, and a link stays the scene's). Returns what ImGui::InputText does.
bool LimitedInputText(const char* label, std::string* text, std::size_t max_bytes,
                      ImGuiInputTextFlags flags = 0);
/// The same for ImGui::InputTextMultiline.
bool LimitedInputTextMultiline(const char* label, std::string* text, std::size_t max_bytes,
                               const ImVec2& size, ImGuiInputTextFlags flags = 0);

/// Text for an input that was refused, saying why, in the theme's error colour.
void ErrorText(const FrameContext& frame, const char* message);

} // namespace pelab
