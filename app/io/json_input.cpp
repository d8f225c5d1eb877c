#include "io/json_input.h"

#include "io/png_scene.h"
#include "io/suggest.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sys/stat.h>
#include <vector>

namespace pelab {

using nlohmann::json;

namespace {

std::string InField(const std::string& field) {
    return field.empty() ? std::string() : " in field " + Excerpt(json(field));
}

// Whether text holds a C1 control character (U+0080 to U+009F, UTF-8 C2 80 to C2 9F) at at.
bool IsC1At(const std::string& text, std::size_t at) {
    return at + 1 < text.size() && static_cast<unsigned char>(text[at]) == 0xC2 &&
           static_cast<unsigned char>(text[at + 1]) >= 0x80 &&
           static_cast<unsigned char>(text[at + 1]) <= 0x9F;
}

// Control bytes and C1 control characters (and, unless keep_utf8, every byte ≥ 0x7F) as \xNN;
// the bytes in keep (a line break, a tab) as they are.
std::string EscapeBytes(const std::string& text, bool keep_utf8, const char* keep = "") {
    std::string escaped_text;
    escaped_text.reserve(text.size());
    for (std::size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        const auto byte = static_cast<unsigned char>(c);
        const bool kept = c != '\0' && std::strchr(keep, c) != nullptr;
        const bool c1 = keep_utf8 && IsC1At(text, at);
        if (!kept && (byte < 0x20 || byte == 0x7F || (!keep_utf8 && byte > 0x7F) || c1)) {
            char escaped[16];
            if (c1)
                std::snprintf(escaped, sizeof escaped, "\\u%04X",
                              static_cast<unsigned char>(text[++at]));
            else
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

// Builds the document through nlohmann's own DOM builder while enforcing the limits at each
// event, so a refused input stops at the first violation, before more is built, and the whole
// parse stays linear (the callback parser of nlohmann 3.11 rescans a parent's members after each
// child, which made 1 MiB of `{},{},…` take half a minute).
class LimitedBuilder {
public:
    using Json = json;
    using number_integer_t = json::number_integer_t;
    using number_unsigned_t = json::number_unsigned_t;
    using number_float_t = json::number_float_t;
    using string_t = json::string_t;
    using binary_t = json::binary_t;

    LimitedBuilder(json& root, std::size_t max_values)
        : dom_(root, false), max_values_(max_values) {}

    std::size_t Values() const { return values_; }

    /// "" while nothing was refused, else the one-line reason.
    const std::string& Refusal() const { return refusal_; }

    bool null() { return Value() && dom_.null(); }
    bool boolean(bool value) { return Value() && dom_.boolean(value); }
    bool number_integer(number_integer_t value) { return Value() && dom_.number_integer(value); }
    bool number_unsigned(number_unsigned_t value) { return Value() && dom_.number_unsigned(value); }
    bool number_float(number_float_t value, const string_t& text) {
        return Value() && dom_.number_float(value, text);
    }
    bool string(string_t& value) {
        if (value.find('\0') != std::string::npos)
            return Refuse("text holds a NUL character (\\u0000), which no text field may hold");
        return Value() && dom_.string(value);
    }
    bool binary(binary_t& value) { return Value() && dom_.binary(value); }
    bool start_object(std::size_t size) {
        if (!Value() || !Open()) return false;
        frames_.push_back(Frame{true, {}, 0, {}});
        return dom_.start_object(size);
    }
    bool key(string_t& name) {
        if (name.find('\0') != std::string::npos)
            return Refuse("a field name holds a NUL character (\\u0000)");
        Frame& frame = frames_.back();
        frame.key = name;
        // JSON allows a repeated key, and the parser would keep the last one silently.
        if (!frame.keys.insert(name).second)
            return Refuse("field " + Excerpt(json(name)) + " appears twice", true);
        return dom_.key(name);
    }
    bool end_object() {
        frames_.pop_back();
        return dom_.end_object();
    }
    bool start_array(std::size_t size) {
        if (!Value() || !Open()) return false;
        frames_.push_back(Frame{false, {}, 0, {}});
        return dom_.start_array(size);
    }
    bool end_array() {
        frames_.pop_back();
        return dom_.end_array();
    }
    bool parse_error(std::size_t position, const std::string& token,
                     const nlohmann::detail::exception& error) {
        if (error.id == 406) // a number such as 1e999 that does not fit a double
            return Stop("a number does not fit a double" + InField(TopField()) +
                        " (numbers must be finite, at most ~1.8e308)");
        static_cast<void>(position); // the message holds both
        static_cast<void>(token);
        return Stop("not valid JSON (" + ShortParseMessage(error.what()) + ")");
    }

private:
    struct Frame {
        bool is_object;
        std::string key;            ///< object: the field being read
        std::size_t index;          ///< array: the element being read
        std::set<std::string> keys; ///< object: the fields read so far
    };

    // Every value: counts it, and moves an enclosing array on to its next element.
    bool Value() {
        if (++values_ > max_values_)
            return Stop("holds more than " + std::to_string(max_values_) +
                        " values (numbers, texts, lists, objects)" + InField(TopField()));
        if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
        return true;
    }
    bool Open() {
        if (frames_.size() + 1 > static_cast<std::size_t>(kMaxJsonDepth))
            return Stop("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels" +
                        InField(TopField()));
        return true;
    }
    // reason, placed where it happened: "step 3: field "scene": field "pair" appears twice".
    bool Refuse(const std::string& reason, bool at_key = false) {
        refusal_ = Where(at_key) + reason;
        return false;
    }
    std::string Where(bool at_key) const;
    // reason as it is (it names the top-level field itself).
    bool Stop(std::string reason) {
        refusal_ = std::move(reason);
        return false;
    }
    std::string TopField() const {
        return !frames_.empty() && frames_[0].is_object ? frames_[0].key : std::string();
    }

    nlohmann::detail::json_sax_dom_parser<json> dom_;
    std::vector<Frame> frames_;
    std::size_t values_ = 0;
    std::size_t max_values_;
    std::string refusal_;
};

// The name of element k of a list called key, as a person counts them ("step 3").
std::string ItemName(const std::string& key) {
    if (key == "steps") return "step";
    if (key == "questions") return "question";
    if (key == "cards") return "card";
    if (key == "rubric") return "rubric idea";
    if (key == "choices") return "choice";
    if (key == "keywords") return "keyword";
    return "";
}

std::string LimitedBuilder::Where(bool at_key) const {
    std::string where;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
        const Frame& frame = frames_[i];
        const bool innermost = i + 1 == frames_.size();
        if (frame.is_object) {
            if ((innermost && at_key) || frame.key.empty()) break;
            // A list with a name of its own ("step 3") says the field's name already.
            if (!innermost && !frames_[i + 1].is_object && !ItemName(frame.key).empty()) continue;
            where += "field " + Excerpt(json(frame.key)) + ": ";
        } else {
            if (frame.index == 0) break;
            const std::string item =
                i > 0 && frames_[i - 1].is_object ? ItemName(frames_[i - 1].key) : "";
            where += (item.empty() ? std::string("item") : item) + " " +
                     std::to_string(frame.index) + ": ";
        }
    }
    return where;
}

} // namespace

std::string PrintableLine(const std::string& message) {
    return EscapeBytes(message, true);
}

std::string PrintableText(const std::string& text) {
    return EscapeBytes(text, true, "\n\t");
}

std::string WithLineFeeds(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size(); ++at) {
        if (text[at] != '\r') {
            out += text[at];
        } else {
            out += '\n';
            if (at + 1 < text.size() && text[at + 1] == '\n') ++at;
        }
    }
    return out;
}

std::string ControlCharacterProblem(const std::string& text) {
    for (std::size_t at = 0; at < text.size(); ++at) {
        const auto byte = static_cast<unsigned char>(text[at]);
        if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7F || IsC1At(text, at)) {
            char code[16];
            std::snprintf(code, sizeof code, "U+%04X",
                          IsC1At(text, at) ? static_cast<unsigned char>(text[at + 1]) : byte);
            return std::string("holds the control character ") + code + " at byte " +
                   std::to_string(at) +
                   "; text may hold tabs and line breaks, no other control characters";
        }
    }
    return {};
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

std::string ParseJsonInput(const std::string& text, json* doc, std::size_t max_values,
                           std::size_t* values) {
    // nlohmann's lexer takes a NUL byte for the end of input: without this check a valid
    // document followed by a NUL and anything at all would be accepted.
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        return "contains a NUL byte at offset " + std::to_string(nul) +
               " (PE Lab reads JSON text, or a PNG figure written by PE Lab)";
    json parsed;
    LimitedBuilder builder(parsed, max_values);
    try {
        if (!json::sax_parse(text, &builder, json::input_format_t::json, true))
            return builder.Refusal().empty() ? "not valid JSON" : builder.Refusal();
    } catch (const json::exception& e) {
        return "not valid JSON (" + ShortParseMessage(e.what()) + ")";
    }
    *doc = std::move(parsed);
    if (values) *values = builder.Values();
    return {};
}

std::string SizeText(std::size_t bytes) {
    return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB"
                             : std::to_string(bytes) + " bytes";
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
    if (!in) return "cannot open " + quoted + ": " + std::strerror(errno);
    // Read at most max_bytes + 1: enough to know the file is too large, whatever it claims.
    text->assign(max_bytes + 1, '\0');
    in.read(text->data(), static_cast<std::streamsize>(max_bytes + 1));
    text->resize(static_cast<std::size_t>(in.gcount()));
    if (in.bad()) return "reading " + quoted + " failed";
    if (text->size() > max_bytes) return quoted + " is larger than " + SizeText(max_bytes);
    return {};
}

std::string ReadJsonFile(const std::string& path, JsonFile* out) {
    static_assert(kMaxRunBytes <= kMaxFigureBytes, "one read bounds both");
    std::string bytes;
    const std::string quoted = Excerpt(json(path), 200);
    if (std::string error = ReadInputFile(path, kMaxFigureBytes, &bytes); !error.empty())
        return error.find(" is larger than ") != std::string::npos
                   ? quoted + " is larger than " + SizeText(kMaxFigureBytes) +
                         " (the largest PNG figure PE Lab reads; a training run is at most " +
                         SizeText(kMaxRunBytes) + ", a scene, lesson or quiz " +
                         SizeText(kMaxInputBytes) + ")"
                   : error;
    JsonFile file;
    std::string text;
    if (LooksLikePng(bytes)) {
        // A figure made by PE Lab: its scene is in a text chunk.
        if (std::string error = ReadPngTextChunk(bytes, kSceneChunkKeyword, kMaxInputBytes, &text);
            !error.empty())
            return quoted + ": " + error;
        file.png = true;
    } else if (bytes.size() > kMaxRunBytes) {
        return quoted + " is larger than " + SizeText(kMaxRunBytes) +
               " (the largest training run PE Lab writes; a scene, lesson or quiz is at most " +
               SizeText(kMaxInputBytes) + ")";
    } else {
        text = std::move(bytes);
    }
    // Parsed within a training run's limits; anything else must then keep to its own.
    std::size_t values = 0;
    if (std::string error =
            ParseJsonInput(text, &file.doc, file.png ? kMaxJsonValues : kMaxRunValues, &values);
        !error.empty())
        return quoted + ": " + error;
    const bool run =
        file.doc.is_object() && file.doc.contains("format") && file.doc["format"] == "pelab-train";
    if (!run && text.size() > kMaxInputBytes)
        return quoted + " is larger than " + SizeText(kMaxInputBytes) +
               " (a scene, lesson or quiz is at most that; only a training run may be larger)";
    if (!run && values > kMaxJsonValues)
        return quoted + ": holds more than " + std::to_string(kMaxJsonValues) +
               " values (numbers, texts, lists, objects; only a training run may hold more)";
    *out = std::move(file);
    return {};
}

namespace {

std::string FieldName(const char* key) {
    return "field " + Excerpt(json(key)) + ": ";
}

std::string Got(const json& value) {
    return " (got " + Excerpt(value) + ")";
}

} // namespace

std::string FieldReader::OnlyFields(std::initializer_list<const char*> known,
                                    const char* what) const {
    if (!object_.is_object()) return std::string("must be an object (") + what + ")" + Got(object_);
    for (const auto& field : object_.items()) {
        bool found = false;
        std::string list;
        std::size_t k = 0;
        for (const char* name : known) {
            found = found || field.key() == name;
            list += (k == 0 ? "" : k + 1 == known.size() ? " and " : ", ") + std::string(name);
            ++k;
        }
        if (!found) {
            // The closest names first, as for a misspelt widget or scene field.
            const std::string closest =
                ClosestNames(field.key(), std::vector<std::string>(known.begin(), known.end()));
            return "unknown field " + Excerpt(json(field.key())) + " (" +
                   (closest.empty() ? std::string() : "did you mean " + closest + "? ") + what +
                   " has " + list + ")";
        }
    }
    return {};
}

std::string FieldReader::Text(const char* key, bool required, std::size_t min_bytes,
                              std::size_t max_bytes, std::string* out) const {
    if (!Has(key)) return required ? FieldName(key) + "missing (it is required)" : "";
    const json& value = object_[key];
    if (!value.is_string() || value.get_ref<const std::string&>().size() < min_bytes ||
        value.get_ref<const std::string&>().size() > max_bytes)
        return FieldName(key) + "must be text of " + std::to_string(min_bytes) + " to " +
               std::to_string(max_bytes) + " bytes" + Got(value);
    // Line breaks written on Windows (CR LF) or old Macs (CR) read as LF; no other control
    // character reaches a caption, a note or a terminal.
    std::string text = WithLineFeeds(value.get<std::string>());
    if (std::string problem = ControlCharacterProblem(text); !problem.empty())
        return FieldName(key) + problem;
    *out = std::move(text);
    return {};
}

std::string FieldReader::TextList(const char* key, std::size_t min_items, std::size_t max_items,
                                  std::size_t min_bytes, std::size_t max_bytes,
                                  std::vector<std::string>* out) const {
    const json* list = nullptr;
    if (std::string error = List(key, min_items > 0, min_items, max_items, &list); !error.empty())
        return error;
    if (list == nullptr) return {};
    std::vector<std::string> texts;
    for (const json& item : *list) {
        if (!item.is_string() || item.get_ref<const std::string&>().size() < min_bytes ||
            item.get_ref<const std::string&>().size() > max_bytes)
            return FieldName(key) + "each item must be text of " + std::to_string(min_bytes) +
                   " to " + std::to_string(max_bytes) + " bytes" + Got(item);
        std::string text = WithLineFeeds(item.get<std::string>());
        if (std::string problem = ControlCharacterProblem(text); !problem.empty())
            return FieldName(key) + "item " + std::to_string(texts.size()) + ": " + problem;
        texts.push_back(std::move(text));
    }
    out->insert(out->end(), texts.begin(), texts.end());
    return {};
}

std::string FieldReader::Index(const char* key, std::size_t count, int* out) const {
    const std::string range =
        "must be a whole number from 0 to " +
        (count == 0 ? std::string("(none: the list is empty)") : std::to_string(count - 1));
    if (!Has(key)) return FieldName(key) + "missing (it " + range + ")";
    const json& value = object_[key];
    if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<long long>() >= 0))
        return FieldName(key) + range + Got(value);
    const auto index = value.get<unsigned long long>();
    if (index >= count) return FieldName(key) + range + Got(value);
    *out = static_cast<int>(index);
    return {};
}

std::string FieldReader::Number(const char* key, bool required, double min, double max,
                                double* out) const {
    if (!Has(key)) return required ? FieldName(key) + "missing (it is required)" : "";
    const json& value = object_[key];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < min ||
        value.get<double>() > max)
        return FieldName(key) + "must be a number from " + Excerpt(json(min)) + " to " +
               Excerpt(json(max)) + Got(value);
    *out = value.get<double>();
    return {};
}

std::string FieldReader::Object(const char* key, const json** out) const {
    if (!Has(key)) return {};
    if (!object_[key].is_object())
        return FieldName(key) + "must be an object { … }" + Got(object_[key]);
    *out = &object_[key];
    return {};
}

std::string FieldReader::List(const char* key, bool required, std::size_t min_items,
                              std::size_t max_items, const json** out) const {
    const std::string range = "must be a list of " + std::to_string(min_items) + " to " +
                              std::to_string(max_items) + " items";
    if (!Has(key)) return required ? FieldName(key) + "missing (it " + range + ")" : "";
    const json& value = object_[key];
    if (!value.is_array() || value.size() < min_items || value.size() > max_items)
        return FieldName(key) + range +
               (value.is_array() ? " (got " + std::to_string(value.size()) + ")" : Got(value));
    *out = &value;
    return {};
}

std::string FieldReader::Exactly(const char* key, const json& expected, const char* why) const {
    if (!Has(key) || object_[key] == expected) return {};
    return FieldName(key) + why + Got(object_[key]);
}

} // namespace pelab
