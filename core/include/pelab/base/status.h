// pelab/base/status.h — what a reader of outside input returns: it worked, or why not.
//
// PE Lab's core has one convention for each kind of failure (docs/architecture.md, "Errors"):
//  - input from outside (a file, a config.json, a tokenizer's files, text a person typed) may be
//    wrong in ways no caller can rule out, so its readers return a Status: ok, or one line that
//    names the file, the entry and what is wrong, for the person to read. Never a throw: a bad
//    file is an expected outcome, and every caller must look (the type is [[nodiscard]]);
//  - a value a caller passes outside a documented range (d_model 7, a pair past d/2) throws
//    InvalidArgument (pelab/base/error.h), which the command line and the panels turn into the
//    message they show; a file that cannot be written throws IoError.
#pragma once

#include <string>
#include <utility>

namespace pelab {

class [[nodiscard]] Status {
public:
    /// Ok.
    Status() = default;
    /// Not ok, for this reason ("" is ok: return {} or "" for success). Implicit, so that a
    /// reader returns its message as it writes it: return "not a safetensors file".
    Status(std::string message)
        : message_(std::move(message)) {}              // NOLINT(google-explicit-constructor)
    Status(const char* message) : message_(message) {} // NOLINT(google-explicit-constructor)

    bool ok() const { return message_.empty(); }
    /// Why not ("" when ok).
    const std::string& message() const { return message_; }

private:
    std::string message_;
};

} // namespace pelab
