// gpu_picture.h — a GPU heatmap inside a plot: the request for the window of the matrix in
// view, the "updating…" note while its data is computed off the frame, and the reason in the
// picture's place when there is no picture. Used by the heatmap panel and the rotation panel.
#pragma once

#include "widgets/frame.h"
#include "widgets/gpu.h"
#include "widgets/plot.h"

#include <string>

namespace pelab {

/// Renders request (the shared d_model and base, the view's window, the plot's pixel size, the
/// theme's map or grey) into slot and draws it over the plot's data area. gpu_error keeps the
/// reason when there is no picture; the pending note is recorded as "<record_prefix>.pending_note".
void DrawGpuPicture(FrameContext& frame, plot::Plot& p, const plot::PlotView& shown, int slot,
                    HeatmapRequest request, bool grey, std::string& gpu_error,
                    const char* record_prefix);

/// The reason there is no picture, written in the picture's place.
void DrawGpuError(FrameContext& frame, plot::Plot& p, const std::string& gpu_error);

/// Which position the similarity plot's marked column is: pos B (a click sets pos A and pos B),
/// or pos A + k (a click sets pos A and k).
enum class SimilarityColumn { PosB, ShiftK };

/// The similarity matrix PE(p)·PE(q) / (d/2) over max_len positions as a plot (x = q, y = p),
/// with the pos A row and the column's position marked and labelled; hover names the cell and
/// its offset. Recorded as record_name.
/// fit_values: the colour map's ends at the matrix's lowest and highest value (see
/// HeatmapRequest::fit_values); GpuRenderer::LastValueRange then says which they were.
void DrawSimilarityPlot(FrameContext& frame, const char* id, plot::PlotView& view, int max_len,
                        int slot, ImVec2 size, bool grey, std::string& gpu_error,
                        const char* record_name, SimilarityColumn column, bool fit_values = false);

} // namespace pelab
