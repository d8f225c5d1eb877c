// json_input.h — reading JSON that a person or another program handed us (scenes, lessons):
// bounded in size and nesting, with messages that name the field and never echo more than a
// short, escaped excerpt of what was read.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace pelab {

/// Largest scene or lesson file we read; larger input is refused before it is parsed.
constexpr std::size_t kMaxInputBytes = 1u << 20;
/// Largest PNG figure read for the scene it carries (a 4K screenshot is a few MiB).
constexpr std::size_t kMaxFigureBytes = 64u << 20;
/// Deepest nesting of arrays and objects accepted (real scenes use 2 or 3 levels). The limit
/// is checked while parsing, so a 10 000-deep document is refused before it is built.
constexpr int kMaxJsonDepth = 32;

/// Parses text as one JSON document into *doc. Returns "" on success, else a one-line message:
/// not JSON (with the byte offset), trailing bytes or a NUL byte, nesting deeper than
/// kMaxJsonDepth, or a number that does not fit a double; the last two name the top-level
/// field they occurred in.
std::string ParseJsonInput(const std::string& text, nlohmann::json* doc);

/// Reads at most max_bytes of the regular file at path into *text. Returns "" or a message
/// (missing, unreadable, not a regular file — a FIFO, a device like /dev/zero, a folder — or
/// larger than max_bytes). Never reads more than max_bytes + 1 bytes.
std::string ReadInputFile(const std::string& path, std::size_t max_bytes, std::string* text);

/// message with every control byte (newline, ESC, …) written as \xNN, so that whatever a path
/// or an option value contained, the message is one line and reaches the terminal harmless.
std::string PrintableLine(const std::string& message);

/// A JSON value or text for an error message: escaped (control and non-ASCII characters as
/// \uXXXX, so nothing reaches the terminal raw) and cut to about max_chars with "…".
std::string Excerpt(const nlohmann::json& value, std::size_t max_chars = 60);

} // namespace pelab
