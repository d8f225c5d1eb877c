// Internal helper: build error messages that name the value and the allowed range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

namespace pelab::detail {

template <typename... Parts> std::string concat(const Parts&... parts) {
    std::ostringstream stream;
    stream.precision(10);
    (stream << ... << parts);
    return stream.str();
}

/// A byte count for a message: "16 MiB" when whole mebibytes, else "1234 bytes".
inline std::string byte_count_text(std::uint64_t bytes) {
    if (bytes % (1u << 20) == 0 && bytes >= (1u << 20)) return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

/// The little-endian unsigned number in bytes[0, count).
inline std::uint64_t read_little(const unsigned char* bytes, int count) {
    std::uint64_t value = 0;
    for (int i = count - 1; i >= 0; --i)
        value = (value << 8) | bytes[i];
    return value;
}

/// A name or path for a message: control and non-ASCII bytes as \xNN, in quotes, so that whatever
/// a file holds, the message is one harmless line; a long one keeps its end (the file's or the
/// tensor's own name) after "…".
inline std::string shown_name(const std::string& text) {
    constexpr std::size_t kKept = 100;
    const std::size_t start = text.size() > kKept ? text.size() - kKept : 0;
    std::string out = start > 0 ? "\"…" : "\"";
    for (std::size_t i = start; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x20 || byte >= 0x7f || byte == '"' || byte == '\\') {
            constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        } else {
            out += static_cast<char>(byte);
        }
    }
    return out + "\"";
}

} // namespace pelab::detail
