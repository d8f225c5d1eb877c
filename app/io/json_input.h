// json_input.h — reading JSON that a person or another program handed us (scenes, lessons):
// bounded in size and nesting, with messages that name the field and never echo more than a
// short, escaped excerpt of what was read.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace pelab {

/// Largest scene or lesson file we read; larger input is refused before it is parsed.
constexpr std::size_t kMaxInputBytes = 1u << 20;
/// Largest PNG figure read for the scene it carries (a 4K screenshot is a few MiB).
constexpr std::size_t kMaxFigureBytes = 64u << 20;
/// Deepest nesting of arrays and objects accepted (real scenes use 2 or 3 levels). The limit
/// is checked while parsing, so a 10 000-deep document is refused before it is built.
constexpr int kMaxJsonDepth = 32;

/// Most values (numbers, texts, lists, objects, each counted) in one document: a lesson of 200
/// steps holds a few thousand; a 1 MiB list of empty objects would hold 350 000.
constexpr std::size_t kMaxJsonValues = 100000;

/// A training run (format "pelab-train", io/train_run.h) may be larger: whatever `pelab train`
/// accepts, it writes a file PE Lab opens. The largest run its options allow (six variants,
/// 4 layers × 4 heads of attention over a 65-token example, 1 000 loss and accuracy points
/// each) holds about 425 000 values in about 3.2 MB; tests/train_run_limits_test.cpp writes the
/// corner shapes of the options and checks that each stays under these limits and reads back.
constexpr std::size_t kMaxRunBytes = 8u << 20;
constexpr std::size_t kMaxRunValues = 500000;

/// A size for a message about a limit: "N KiB" when that is exact, else "N bytes" (so that
/// 1 MiB + 1 byte is not "1024 KiB … at most 1024 KiB").
std::string SizeText(std::size_t bytes);

/// Parses text as one JSON document into *doc, in time linear in its size; the limits are
/// checked while parsing, so a refused document stops at the first violation. Returns "" on
/// success, else a one-line message: not JSON (with the byte offset), trailing bytes or a NUL byte,
/// nesting deeper than kMaxJsonDepth or more than kMaxJsonValues values, a number that does not fit
/// a double (these name the top-level field they occurred in), a key that appears twice in one
/// object or a text holding a NUL character (these say where: "step 3: field \"scene\": field
/// \"pair\" appears twice").
/// max_values replaces kMaxJsonValues (a training run's kMaxRunValues); *values, when given,
/// receives how many values the document holds.
std::string ParseJsonInput(const std::string& text, nlohmann::json* doc,
                           std::size_t max_values = kMaxJsonValues, std::size_t* values = nullptr);

/// Reads at most max_bytes of the regular file at path into *text. Returns "" or a message
/// (missing, unreadable, not a regular file — a FIFO, a device like /dev/zero, a folder — or
/// larger than max_bytes). Never reads more than max_bytes + 1 bytes.
std::string ReadInputFile(const std::string& path, std::size_t max_bytes, std::string* text);

/// A file a person handed us (a scene, a lesson, a quiz, a PNG figure), read once and parsed
/// once.
struct JsonFile {
    nlohmann::json doc;
    bool png = false; ///< doc is the scene that a PNG figure carries
};

/// Reads path and parses it: JSON text of at most kMaxInputBytes and kMaxJsonValues (a training
/// run: kMaxRunBytes and kMaxRunValues), or a PNG figure of at most kMaxFigureBytes whose
/// "pelab-scene" chunk holds at most kMaxInputBytes. Returns "" or a message that names the file,
/// the real cause and the limit that applies ("cannot open \"f\": Permission denied", "\"f\" is
/// larger than 1024 KiB …", "\"f\": not valid JSON (…)"); the caller puts what kind of file it
/// wanted in front ("lesson …").
std::string ReadJsonFile(const std::string& path, JsonFile* out);

/// Typed reading of one JSON object of a file (a lesson and its steps, a quiz and its questions,
/// cards and rubric ideas). Each call checks one field's presence, type and range and returns ""
/// or a message naming it: "field \"caption\": must be text of 1 to 2000 bytes (got 3)". Every
/// field of every file kind except scene fields (SceneTable reads those) is read this way, so a
/// value of the wrong type is a message, never an exception. *out is written only on success.
class FieldReader {
public:
    /// object must outlive the reader; when it is not an JSON object, every field is absent.
    explicit FieldReader(const nlohmann::json& object) : object_(object) {}

    bool Has(const char* key) const { return object_.is_object() && object_.contains(key); }
    /// "" when the object is a JSON object whose fields are all in known, else "must be an
    /// object (what)" or "unknown field \"x\" (did you mean \"y\"? what has a, b and c)" (the
    /// closest names only when one is close).
    std::string OnlyFields(std::initializer_list<const char*> known, const char* what) const;
    /// Text of min_bytes to max_bytes bytes; absent is "" (and *out untouched) unless required.
    std::string Text(const char* key, bool required, std::size_t min_bytes, std::size_t max_bytes,
                     std::string* out) const;
    /// A list of at most max_items texts of min_bytes to max_bytes bytes each (appended to *out).
    std::string TextList(const char* key, std::size_t min_items, std::size_t max_items,
                         std::size_t min_bytes, std::size_t max_bytes,
                         std::vector<std::string>* out) const;
    /// A whole number in [0, count): an index into a list of count items.
    std::string Index(const char* key, std::size_t count, int* out) const;
    /// A finite number in [min, max].
    std::string Number(const char* key, bool required, double min, double max, double* out) const;
    /// An object (any fields; its reader checks them).
    std::string Object(const char* key, const nlohmann::json** out) const;
    /// A list of 1 to max_items items (their reader checks them).
    std::string List(const char* key, bool required, std::size_t min_items, std::size_t max_items,
                     const nlohmann::json** out) const;
    /// Absent, or exactly expected ("format": "pelab-lesson", "version": 1); why is the message.
    std::string Exactly(const char* key, const nlohmann::json& expected, const char* why) const;

private:
    const nlohmann::json& object_;
};

/// message with every control byte (newline, ESC, …) written as \xNN and every C1 control
/// character as \u00NN, so that whatever a path or an option value contained, the message is one
/// line and reaches the terminal harmless.
std::string PrintableLine(const std::string& message);
/// PrintableLine that keeps line breaks and tabs: a lesson's notes printed on a terminal.
std::string PrintableText(const std::string& text);
/// text with each CR LF and each lone CR turned into LF.
std::string WithLineFeeds(const std::string& text);
/// "" unless text holds a control character other than tab and line feed (C0, DEL or C1); then
/// which one, where, and what text may hold. FieldReader's Text and TextList refuse such text
/// after turning CR LF and CR into LF.
std::string ControlCharacterProblem(const std::string& text);

/// A JSON value or text for an error message: escaped (control and non-ASCII characters as
/// \uXXXX, so nothing reaches the terminal raw) and cut to about max_chars with "…".
std::string Excerpt(const nlohmann::json& value, std::size_t max_chars = 60);

} // namespace pelab
