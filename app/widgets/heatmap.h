// heatmap.h — an annotated matrix heatmap (rows × columns of cells, each coloured by value
// and optionally printing it) with row/column labels, (colour maps: plot.h). Written once, used by
// the order demo (and later the PE heatmap legend).
#pragma once

#include "widgets/plot.h"

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

namespace pelab {

struct HeatmapStyle {
    /// plot::Diverging over [−range, range], else Sequential over [range_min, range]
    bool diverging = true;
    double range_min = 0.0;
    plot::DivergingMap map;           ///< the theme's diverging colours
    ImU32 highlight = IM_COL32_WHITE; ///< outline of the highlighted cell
    double range = 1.0;               ///< value that gets the strongest colour
    const char* value_format = "%.2f";
    float cell_size = 0.0f;  ///< cell height (and width); 0: chosen from the font size
    float cell_width = 0.0f; ///< 0: square cells
    int highlight_row = -1;  ///< a cell to outline (e.g. the largest difference)
    int highlight_col = -1;
};

/// A column label ("1 bites") that fits width as measured: whole, else the word ("bites"), else
/// the index ("1"); never clipped mid-word. The hover tooltip names the whole cell.
std::string FitColumnLabel(const std::string& label, float width,
                           const std::function<float(const std::string&)>& measure);

/// Draws a labelled heatmap of a row-major matrix (rows × cols). Hovering a cell shows
/// "row → col: value" and tooltip_note.
void AnnotatedHeatmap(const char* id, const double* values, int rows, int cols,
                      const std::vector<std::string>& row_labels,
                      const std::vector<std::string>& col_labels, const HeatmapStyle& style,
                      const char* tooltip_note = nullptr);

/// Width of the row-label column and of the whole heatmap for cells of the given size.
float HeatmapLabelWidth(const std::vector<std::string>& row_labels);
float HeatmapWidth(const std::vector<std::string>& row_labels, int cols, float cell_size);
/// Height of the heatmap (column labels and rows).
float HeatmapHeight(int rows, float cell_size);

/// A horizontal colour bar `width` wide with min / max labels, as a legend for a heatmap: the
/// labels under its ends, or beside them on one text line (labels_beside: where height counts).
void ColorLegend(const HeatmapStyle& style, float width, bool labels_beside = false);
/// Height of ColorLegend's bar and labels (a line is not enough when the labels hang below).
float ColorLegendHeight(bool labels_beside = false);
/// A colour bar for a map fitted to the data: map's −1 end at low, +1 end at high, labelled
/// low, the midpoint (which the middle colour marks: not 0) and high, each to 3 significant
/// digits (more where two labels would read alike).
void FittedColorLegend(const plot::DivergingMap& map, double low, double high, float width);

} // namespace pelab
