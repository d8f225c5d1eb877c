// pelab/export/export.h — the file formats `pelab export` writes, and the atomic file writer.
//
// Writers take a std::ostream so that stdout and files share one code path. Files are written
// through write_file_atomically: to a temporary file in the same folder, flushed and fsync'd,
// then renamed over the target, so a reader never sees a partial file and a failure leaves
// the old file (or no file) in place.
#pragma once

#include "pelab/base/existing_name.h"
#include "pelab/base/status.h"
#include "pelab/encodings/attention.h"
#include "pelab/encodings/sinusoidal.h"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace pelab {

struct PeExportInfo {
    int max_len = 0;
    int d_model = 0;
    double base = 10000.0;
    Layout layout = Layout::Interleaved;
};

/// CSV: a header "pos,d0,d1,…", then one line per position: the position, then d_model values
/// with 9 significant digits (enough for every float32 to read back bit-exact).
void write_pe_csv(std::ostream& out, const PeExportInfo& info, const float* values);
/// JSON object: {"encoding":"sinusoidal","max_len","d_model","base","layout","values":[[…]]}.
void write_pe_json(std::ostream& out, const PeExportInfo& info, const float* values);
/// The header of a NumPy .npy v1.0 file of C-order numbers of type descr ('<f8', '<u2', …) and
/// the given shape ({} for one number), padded so that the data starts at a multiple of 64 bytes;
/// the little-endian data follows.
void write_npy_header(std::ostream& out, const std::string& descr,
                      const std::vector<long long>& shape);
/// NumPy .npy v1.0: '<f4', C order, shape (max_len, d_model), header padded to 64 bytes.
void write_pe_npy(std::ostream& out, const PeExportInfo& info, const float* values);

/// Ok when write_file_atomically(path, …) can be expected to succeed, else the message it
/// would give (folder missing or not writable, path is a folder, device not writable). Lets a
/// command refuse before doing any work or opening a window.
Status check_writable(const std::string& path);

/// Runs writer into the open file descriptor (1 for standard output), called `name` in messages
/// ("\"run.json\"", "standard output"). Throws IoError "cannot write NAME: CAUSE", where the
/// cause of a write that failed is its own ("No space left on device", "Broken pipe") whatever
/// the writer made of it. Does not close the descriptor.
void write_to_descriptor(int descriptor, const std::string& name,
                         const std::function<void(std::ostream&)>& writer);

/// Ok unless path is a symbolic link that points nowhere or in a loop; then the message saying so.
Status broken_link(const std::string& path);

/// The attention export (`pelab export attention`, docs/command-line.md) as pretty-printed JSON
/// text.
std::string attention_json(const OrderDemoResult& result, const OrderDemoOptions& options);

/// Runs writer on a temporary file beside path, then renames it to path, keeping the replaced
/// file's permissions. The temporary file has no name while it is written (O_TMPFILE, where
/// the file system offers it), so even SIGKILL or a power cut leaves nothing behind; where it
/// must have a name (.pelab-XXXXXX), every catchable signal that would end the process removes
/// it first. Throws IoError (the target untouched, the temporary removed) if the
/// folder is not writable, the writer throws, or any write fails. Special files (/dev/null,
/// /dev/full, FIFOs, terminals) are written directly, never replaced; a FIFO with no reader
/// makes the write wait for one, as a shell's `> fifo` does (probing for a reader would itself
/// connect to, and then fail, a reader that is waiting). A symbolic link is followed and its
/// target replaced; one that points nowhere or in a loop is refused. That is the kFollow
/// treatment of what sits at the name, right for a path the user typed; see ExistingName.
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& writer,
                           ExistingName existing = ExistingName::kFollow);

} // namespace pelab
