// layout.h — responsive placement for control rows: a row of widgets wraps to the next line
// when the window is too narrow for it (1024×768 at text scale 2 must lose nothing), and
// widths are given in text heights (em) so that they grow with the text, capped by the room
// there is.
#pragma once

#include <imgui.h>

namespace pelab {

/// Width of a label's visible text (up to "##"), 0 for none.
float LabelWidth(const char* label);
/// Width of a framed widget of frame width item_width followed by its label.
float LabelledWidth(float item_width, const char* label);
/// Width of ImGui::Button(label) / SmallButton(label) / Checkbox(label) / RadioButton(label).
float ButtonWidth(const char* label);
float SmallButtonWidth(const char* label);
float CheckboxWidth(const char* label);
/// Width of HelpMarker's "(?)".
float HelpMarkerWidth();

/// A frame width of `ems` text heights, reduced (to at least 3 em) so that the frame and its
/// label fit in the width available on a new row.
float FitWidth(float ems, const char* label = nullptr);

/// Call before an item of the given total width that should follow the previous item on its
/// row: stays on the row (SameLine) when the item fits before the content region's right
/// edge, else lets it start a new row. Works in windows, child windows and table cells.
/// spacing: the gap before the item when it stays on the row (default: the style's).
void SameLineIfFits(float width, float spacing = -1.0f);

/// The right edge of the current content region, in screen coordinates.
float ContentRight();

/// Before Begin of a floating window (help, glossary, a dialog): centred in the viewport when
/// it appears, at `size` (0 on an axis: fit the content) shrunk to 95 % of the viewport.
void PlaceFloatingWindow(ImVec2 size);
/// After Begin of a floating window: moves it (and shrinks it when larger) so that it lies
/// inside the viewport, whatever was saved or dragged; a 1024×768 screen at text ×2 keeps it.
void KeepWindowInViewport();

/// A row of controls that wraps: call Item(width) before each item (or group kept together,
/// such as a slider and its "(?)"), with the group's whole width.
class FlowRow {
public:
    void Item(float width, float spacing = -1.0f) {
        if (started_) SameLineIfFits(width + extra_, spacing);
        started_ = true;
        extra_ = 0;
    }
    /// The next item comes with something after it on its line (a help marker), extra wide:
    /// both move to the next line together.
    void ReserveNext(float extra) { extra_ = extra; }
    /// Width of `count` items' spacing, to add up a group's width.
    static float Spacing(int count = 1) { return ImGui::GetStyle().ItemSpacing.x * count; }

private:
    bool started_ = false;
    float extra_ = 0;
};

} // namespace pelab
