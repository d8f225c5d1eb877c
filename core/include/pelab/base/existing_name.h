// existing_name.h — what a writer does with what already sits at the name it writes
// (write_file_atomically in pelab/export/export.h). Its own header so that the app's file helpers
// (io/scene.h, io/png_scene.h) can take it without bringing in the whole export interface.
#pragma once

namespace pelab {

enum class ExistingName {
    /// The user's own path (`--out`, File → Save): a link is followed and its target replaced, a
    /// FIFO or device is written in place.
    kFollow,
    /// A name PE Lab chose itself (a handout's step-NN.png and index.html): nothing found there
    /// is followed or written through. A link at the name is replaced by the new file (its target
    /// untouched); a folder, FIFO, device or socket there is refused.
    kReplace,
};

} // namespace pelab
