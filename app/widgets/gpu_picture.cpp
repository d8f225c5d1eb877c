#include "widgets/gpu_picture.h"

#include "pelab/encodings/similarity.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace pelab {

void DrawGpuPicture(FrameContext& frame, plot::Plot& p, const plot::PlotView& shown, int slot,
                    HeatmapRequest request, bool grey, std::string& gpu_error,
                    const char* record_prefix) {
    // The window of the matrix in view, at the plot area's size in framebuffer pixels.
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    request.d_model = frame.state.d_model;
    request.base = frame.state.base;
    request.dim_min = shown.x.min, request.dim_max = shown.x.max;
    request.pos_min = shown.y.min, request.pos_max = shown.y.max;
    request.width = std::max(1, static_cast<int>((p.PlotMax().x - p.PlotMin().x) * scale.x));
    request.height = std::max(1, static_cast<int>((p.PlotMax().y - p.PlotMin().y) * scale.y));
    request.grey = grey;
    request.negative = frame.Color(Role::MapNegative);
    request.middle = frame.Color(Role::MapMiddle);
    request.positive = frame.Color(Role::MapPositive);
    ImTextureID texture = nullptr;
    bool pending = false;
    if (frame.gpu != nullptr) {
        gpu_error.clear();
        texture = frame.gpu->RenderHeatmap(slot, request, &gpu_error);
        pending = frame.gpu->LastPending();
    } else {
        gpu_error = "no GPU here (this is a test without OpenGL)";
    }
    if (texture != nullptr) // its first row is the bottom one (the lowest positions in view)
        p.Image(texture, shown.x, shown.y, ImVec2(0, 1), ImVec2(1, 0));
    if (pending) {
        // The data of the new settings is being computed off the frame: say so, on a backdrop,
        // over the previous picture (or in its place), instead of freezing the window.
        const char* note = texture != nullptr ? "updating…" : gpu_error.c_str();
        const float margin = ImGui::GetFontSize() * 0.5f;
        const ImVec2 at(p.PlotMin().x + margin, p.PlotMin().y + margin);
        const ImVec2 size = ImGui::CalcTextSize(note);
        p.DrawList()->AddRectFilled(ImVec2(at.x - 3, at.y - 2),
                                    ImVec2(at.x + size.x + 3, at.y + size.y + 2),
                                    ImGui::GetColorU32(ImGuiCol_PopupBg, 0.9f), 3.0f);
        p.DrawList()->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), note);
        frame.Record((std::string(record_prefix) + ".pending_note").c_str());
        return;
    }
    if (texture == nullptr) DrawGpuError(frame, p, gpu_error);
}

void DrawGpuError(FrameContext& frame, plot::Plot& p, const std::string& gpu_error) {
    // In the picture's place, wrapped to its width.
    const std::string message = "The heatmap cannot be drawn: " + gpu_error;
    const float margin = ImGui::GetFontSize() * 0.5f;
    p.DrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                          ImVec2(p.PlotMin().x + margin, p.PlotMin().y + margin),
                          frame.Color(Role::Error), message.c_str(), nullptr,
                          p.PlotMax().x - p.PlotMin().x - 2 * margin);
}

void DrawSimilarityPlot(FrameContext& frame, const char* id, plot::PlotView& view, int max_len,
                        int slot, ImVec2 size, bool grey, std::string& gpu_error,
                        const char* record_name, SimilarityColumn column, bool fit_values) {
    AppState& state = frame.state;
    const bool shift = column == SimilarityColumn::ShiftK;
    const double column_pos = shift ? state.pos_a + state.shift_k : state.pos_b;
    plot::PlotConfig config;
    config.x_label = "position q";
    config.y_label = "position p";
    config.flags = plot::PlotFlags_NoHoverReadout | plot::PlotFlags_NoLegend;
    config.x_flags = config.y_flags = plot::AxisFlags_Integer; // positions: whole-number ticks
    config.x_limits = config.y_limits = plot::Range{0.0, static_cast<double>(max_len)};
    plot::Plot p;
    if (!p.Begin(id, view, size, config)) return;
    frame.Record(record_name);
    HeatmapRequest request;
    request.picture = HeatmapRequest::Picture::Similarity;
    request.max_len = max_len;
    request.fit_values = fit_values;
    const std::string name = record_name;
    DrawGpuPicture(frame, p, view, slot, request, grey, gpu_error,
                   name.substr(0, name.find('.')).c_str());
    // pos A as a row, pos B (or pos A + k) as a column: their crossing is the cell of the dot
    // product of the two.
    if (state.pos_a < max_len)
        p.HLine(std::floor(state.pos_a) + 0.5, frame.Color(Role::PosA), "pos A", frame.Px(2.0f));
    if (column_pos >= 0 && column_pos < max_len)
        p.VLine(std::floor(column_pos) + 0.5, frame.Color(Role::PosB),
                shift ? "pos A + k" : "pos B", frame.Px(2.0f));
    const double q = std::floor(p.MouseX()), row = std::floor(p.MouseY());
    if (p.IsHovered() && q >= 0 && q < max_len && row >= 0 && row < max_len) {
        const PositionComparison c = compare_positions(row, q, state.d_model, state.base);
        ImGui::BeginTooltip();
        ImGui::Text("p = %.0f, q = %.0f: offset p − q = %.0f", row, q, row - q);
        ImGui::Text("PE(p)·PE(q) = Σ_i cos(ω_i (p − q)) = %.6f", c.dot_product);
        ImGui::Text("divided by d_model/2 = %d: %+.6f (the colour)", state.d_model / 2,
                    c.dot_product / (state.d_model / 2.0));
        ImGui::TextDisabled("Every cell on this diagonal (same p − q) has the same value. Click: "
                            "pos A = %.0f, %s = %.0f.",
                            row, shift ? "k" : "pos B", shift ? q - row : q);
        ImGui::EndTooltip();
        if (p.Clicked()) {
            state.pos_a = row;
            if (shift)
                state.shift_k =
                    static_cast<int>(std::clamp(q - row, -1.0 * kUiMaxShift, 1.0 * kUiMaxShift));
            else
                state.pos_b = q;
        }
    }
    p.End();
}

} // namespace pelab
