// software_picture.h — a panel's picture without a display or a GPU: the panel is drawn alone in
// an ImGui context of its own, exactly as the window draws it, and the draw lists are filled
// in software (triangles with the font atlas, blended in order). For pictures made where there
// is no window at all (`pelab train --plot` on a server or in CI). Pictures that need the GPU
// (the heatmaps) show the message a window without GL shows instead.
#pragma once

#include <string>
#include <vector>

namespace pelab {

struct App;
struct FrameOptions;

/// The frame that options describe (a handout's slide, a panel alone) at width × height pixels
/// with text of font_pixels, after a few frames (sizes and scrollbars settle): RGBA rows, top
/// first. The caller's ImGui context, if any, is left as it was.
std::vector<unsigned char> SoftwarePicture(App& app, const FrameOptions& options, int width,
                                           int height, float font_pixels);
/// The panel presented alone.
std::vector<unsigned char> SoftwarePicture(App& app, const std::string& panel, int width,
                                           int height, float font_pixels);

} // namespace pelab
