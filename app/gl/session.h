// session.h — the two ways PE Lab runs with a window: interactively, and offscreen for
// `pelab screenshot` (and `--bench-frames`).
#pragma once

#include "cli/cli.h"

namespace pelab {

/// Opens the window and runs until it is closed or Ctrl+Q. Returns an exit code.
int RunGui(const GuiOptions& options);

/// Renders offscreen (hidden window, real GL context) and writes a PNG atomically.
int RunScreenshot(const ScreenshotOptions& options);

/// `pelab lesson handout FILE --out DIR`: each step drawn offscreen as its slide without the
/// lesson bar (step-01.png, …), and DIR/index.html with the pictures, captions and notes.
int RunLessonHandout(const LessonOptions& options);

/// `pelab render pe-heatmap`: the shader's picture alone, offscreen, to a PNG.
int RunRender(const RenderOptions& options);

} // namespace pelab
