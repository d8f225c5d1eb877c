#include "json_input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sys/stat.h>

namespace pelab {

using nlohmann::json;

namespace {

// Thrown from the parser callback to stop at the first violation, before more is built.
struct InputRefused {
    std::string message;
};

std::string InField(const std::string& field) {
    return field.empty() ? std::string() : " in field " + Excerpt(json(field));
}

// Control bytes (and, unless keep_utf8, every byte ≥ 0x7F) as \xNN.
std::string EscapeBytes(const std::string& text, bool keep_utf8) {
    std::string escaped_text;
    escaped_text.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F || (!keep_utf8 && byte > 0x7F)) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
            escaped_text += escaped;
        } else {
            escaped_text += c;
        }
    }
    return escaped_text;
}

// Every byte outside printable ASCII: the text may be cut inside a UTF-8 sequence.
std::string AsciiOnly(const std::string& text) {
    return EscapeBytes(text, false);
}

// nlohmann's message quotes everything read of the bad token ("last read: '…'"), which can be
// the whole file and hold invalid UTF-8. Keep the position and the reason, and only the last
// 40 bytes of the token (where the error is).
std::string ShortParseMessage(std::string message) {
    if (message.rfind("[json.exception.", 0) == 0) {
        const std::size_t end = message.find("] ");
        if (end != std::string::npos) message.erase(0, end + 2);
    }
    const std::string marker = "; last read: '";
    const std::size_t at = message.find(marker);
    if (at == std::string::npos) return AsciiOnly(message);
    // The token ends at the last "'; " (more text follows) or at the final "'".
    const std::size_t begin = at + marker.size();
    std::size_t close = message.rfind("'; ");
    if (close == std::string::npos || close < begin) close = message.rfind('\'');
    if (close == std::string::npos || close < begin) close = message.size();
    std::string token = message.substr(begin, close - begin);
    const std::string rest = close < message.size() ? message.substr(close) : "'";
    constexpr std::size_t kKeep = 40;
    const bool cut = token.size() > kKeep;
    if (cut) token.erase(0, token.size() - kKeep);
    return AsciiOnly(message.substr(0, begin)) + (cut ? "…" : "") + AsciiOnly(token) +
           AsciiOnly(rest);
}

} // namespace

std::string PrintableLine(const std::string& message) {
    return EscapeBytes(message, true);
}

std::string Excerpt(const json& value, std::size_t max_chars) {
    // ensure_ascii escapes every control and non-ASCII character; "replace" keeps invalid
    // UTF-8 from throwing.
    std::string text = value.dump(-1, ' ', true, json::error_handler_t::replace);
    if (text.size() > max_chars) {
        text.resize(max_chars);
        text += "…";
    }
    return text;
}

std::string ParseJsonInput(const std::string& text, json* doc) {
    // nlohmann's lexer takes a NUL byte for the end of input: without this check a valid
    // document followed by a NUL and anything at all would be accepted.
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        return "contains a NUL byte at offset " + std::to_string(nul) +
               " (a scene is JSON text, or a PNG figure written by PE Lab)";
    std::string field; // the top-level field being read, for messages
    std::set<std::string> fields_seen;
    const auto guard = [&](int depth, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::key && depth == 1) {
            field = parsed.get<std::string>();
            // JSON allows a repeated key, and the parser would keep the last one silently.
            if (!fields_seen.insert(field).second)
                throw InputRefused{"field " + Excerpt(json(field)) + " appears twice"};
        }
        if ((event == json::parse_event_t::object_start ||
             event == json::parse_event_t::array_start) &&
            depth + 1 > kMaxJsonDepth)
            throw InputRefused{"nested deeper than " + std::to_string(kMaxJsonDepth) + " levels" +
                               InField(field)};
        return true;
    };
    try {
        *doc = json::parse(text, guard);
    } catch (const InputRefused& e) {
        return e.message;
    } catch (const json::out_of_range&) {
        // 406: a number such as 1e999 that does not fit a double.
        return "a number does not fit a double" + InField(field) +
               " (numbers must be finite, at most ~1.8e308)";
    } catch (const json::exception& e) {
        return "not valid JSON (" + ShortParseMessage(e.what()) + ")";
    }
    return {};
}

std::string ReadInputFile(const std::string& path, std::size_t max_bytes, std::string* text) {
    const std::string quoted = Excerpt(json(path), 200);
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return "cannot open " + quoted + ": " + std::strerror(errno);
    if (S_ISDIR(info.st_mode)) return quoted + " is a folder, not a file";
    if (!S_ISREG(info.st_mode))
        return quoted + " is not a regular file (a device, FIFO or socket cannot be read as one)";
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open " + quoted + " (unreadable)";
    // Read at most max_bytes + 1: enough to know the file is too large, whatever it claims.
    text->assign(max_bytes + 1, '\0');
    in.read(text->data(), static_cast<std::streamsize>(max_bytes + 1));
    text->resize(static_cast<std::size_t>(in.gcount()));
    if (in.bad()) return "reading " + quoted + " failed";
    if (text->size() > max_bytes)
        return quoted + " is larger than " + std::to_string(max_bytes / 1024) + " KiB";
    return {};
}

} // namespace pelab
