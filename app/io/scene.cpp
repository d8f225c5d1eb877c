#include "io/scene.h"

#include "io/json_input.h"
#include "io/suggest.h"
#include "io/train_run.h"
#include "pelab/base/error.h"
#include "pelab/export/export.h"

#include <cmath>
#include <cstdio>

namespace pelab {

using nlohmann::json;

namespace {

// A bound as the field list writes it: an integer field's in full (1000000, 2147483647), a
// number's as 0.5, 4096 or 1e6 (a power of ten from 10⁵ up).
std::string BoundText(double value, bool integer) {
    if (integer) return std::to_string(static_cast<long long>(value));
    const double exponent = std::log10(std::abs(value));
    if (std::abs(value) >= 1e5 && exponent == std::floor(exponent) && exponent < 16)
        return (value < 0 ? "-1e" : "1e") + std::to_string(static_cast<int>(exponent));
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

// A number field's range in a message, written as its doc line writes it ("[0, 1e6]", not the
// stream's "[0, 1e+06]").
std::string RangeText(double min, double max) {
    return "[" + BoundText(min, false) + ", " + BoundText(max, false) + "]";
}

} // namespace

int SceneInteger(const json& value, long long min, long long max) {
    // 128.0 or 1e2 is a whole number written as a float: take it, within the range.
    if (value.is_number_float()) {
        const double x = value.get<double>();
        if (std::isfinite(x) && std::floor(x) == x && x >= static_cast<double>(min) &&
            x <= static_cast<double>(max))
            return static_cast<int>(x);
    }
    if (!value.is_number())
        throw SceneFieldError{"must be a whole number (got " + Excerpt(value) + ")"};
    if (!value.is_number_integer()) {
        const double x = value.get<double>();
        if (std::floor(x) != x)
            throw SceneFieldError{"must be a whole number (got " + Excerpt(value) + ")"};
        throw SceneFieldError{"must be in [" + std::to_string(min) + ", " + std::to_string(max) +
                              "] (got " + Excerpt(value) + ")"};
    }
    // Unsigned first: 2^64 − 1 must be reported as itself, not wrapped to −1.
    bool in_range = false;
    if (value.is_number_unsigned()) {
        const unsigned long long x = value.get<unsigned long long>();
        in_range = max >= 0 && x <= static_cast<unsigned long long>(max) &&
                   (min <= 0 || x >= static_cast<unsigned long long>(min));
    } else {
        const long long x = value.get<long long>();
        in_range = x >= min && x <= max;
    }
    if (!in_range)
        throw SceneFieldError{"must be in [" + std::to_string(min) + ", " + std::to_string(max) +
                              "] (got " + Excerpt(value) + ")"};
    return static_cast<int>(value.get<long long>());
}

double SceneNumber(const json& value, double min, double max) {
    if (!value.is_number()) throw SceneFieldError{"must be a number (got " + Excerpt(value) + ")"};
    const double x = value.get<double>();
    if (!std::isfinite(x) || x < min || x > max)
        throw SceneFieldError{"must be in " + RangeText(min, max) + " (got " + Excerpt(value) +
                              ")"};
    return x;
}

void SceneTable::Add(SceneField field) {
    fields_.push_back(std::move(field));
}

namespace {

// The field's kind and range, written from the very bounds its value is checked against, then
// what it means: "integer in [0, 1000]: that other position".
std::string RangeDoc(const char* kind, double min, double max, const char* meaning) {
    const bool integer = std::string(kind).find("integer") != std::string::npos;
    return std::string(kind) + " in [" + BoundText(min, integer) + ", " + BoundText(max, integer) +
           "]: " + meaning;
}

} // namespace

void SceneTable::Integer(const char* name, const char* doc, int* target, int min, int max,
                         bool even) {
    Add({name, RangeDoc(even ? "even integer" : "integer", min, max, doc),
         [=](const json& value, const json&) -> std::function<void()> {
             const int x = SceneInteger(value, min, max);
             if (even && x % 2 != 0)
                 throw SceneFieldError{"must be even (got " + std::to_string(x) + ")"};
             return [=] { *target = x; };
         },
         [=] { return json(*target); }});
}

void SceneTable::Number(const char* name, const char* doc, double* target, double min, double max) {
    Add({name, RangeDoc("number", min, max, doc),
         [=](const json& value, const json&) -> std::function<void()> {
             const double x = SceneNumber(value, min, max);
             return [=] { *target = x; };
         },
         [=] { return json(*target); }});
}

void SceneTable::Number(const char* name, const char* doc, float* target, double min, double max) {
    Add({name, RangeDoc("number", min, max, doc),
         [=](const json& value, const json&) -> std::function<void()> {
             const float x = static_cast<float>(SceneNumber(value, min, max));
             return [=] { *target = x; };
         },
         [=] { return json(*target); }});
}

void SceneTable::Bool(const char* name, const char* doc, bool* target) {
    Add({name, std::string("true or false: ") + doc,
         [=](const json& value, const json&) -> std::function<void()> {
             if (!value.is_boolean())
                 throw SceneFieldError{"must be true or false (got " + Excerpt(value) + ")"};
             const bool x = value.get<bool>();
             return [=] { *target = x; };
         },
         [=] { return json(*target); }});
}

void SceneTable::Text(const char* name, const char* doc, std::string* target,
                      const std::function<std::string(const std::string&)>& check) {
    Add({name, doc,
         [=](const json& value, const json&) -> std::function<void()> {
             if (!value.is_string())
                 throw SceneFieldError{"must be text (got " + Excerpt(value) + ")"};
             std::string text = value.get<std::string>();
             if (std::string why = check(text); !why.empty()) throw SceneFieldError{why};
             return [=] { *target = text; };
         },
         [=] { return json(*target); }});
}

const SceneField* SceneTable::Find(const std::string& name) const {
    for (const SceneField& field : fields_)
        if (field.name == name) return &field;
    return nullptr;
}

std::string SceneTable::Apply(const std::string& json_text) const {
    json doc;
    if (std::string error = ParseJsonInput(json_text, &doc); !error.empty()) return error;
    return ApplyDocument(doc);
}

std::string SceneTable::Check(const nlohmann::json& doc) const {
    return Read(doc, nullptr);
}

std::string SceneTable::ApplyDocument(const nlohmann::json& doc) const {
    std::vector<std::function<void()>> commits;
    if (std::string error = Read(doc, &commits); !error.empty()) return error;
    for (const auto& commit : commits)
        commit();
    return {};
}

std::string SceneTable::Read(const nlohmann::json& doc,
                             std::vector<std::function<void()>>* commits) const {
    if (!doc.is_object()) return "a scene must be a JSON object { … }";
    for (const auto& item : doc.items()) {
        const std::string& key = item.key();
        if (key == "format" || key == "version" || key == "readouts" || Find(key)) continue;
        // The closest names and where the whole list is: the message stays one short line.
        std::vector<std::string> names;
        for (const SceneField& field : fields_)
            names.push_back(field.name);
        const std::string closest = ClosestNames(key, names);
        return "unknown field " + Excerpt(json(key)) +
               (closest.empty() ? std::string() : " (did you mean " + closest + "?)") +
               "; `pelab readouts` prints every field, docs/file-formats.md says what each holds";
    }
    if (doc.contains("format") && doc["format"] != "pelab-scene")
        return "field \"format\": must be \"pelab-scene\" (got " + Excerpt(doc["format"]) + ")";
    if (doc.contains("version") && doc["version"] != 1)
        return "field \"version\": this PE Lab reads scene version 1 (got " +
               Excerpt(doc["version"]) + ")";
    // Validate everything, in table order (so a field that depends on another, like pair on
    // d_model, sees that one checked first); the caller commits everything or nothing.
    for (const SceneField& field : fields_) {
        if (!doc.contains(field.name)) continue;
        try {
            std::function<void()> commit = field.read(doc[field.name], doc);
            if (commits) commits->push_back(std::move(commit));
        } catch (const SceneFieldError& e) {
            return "field \"" + field.name + "\": " + e.message;
        }
    }
    return {};
}

std::string SceneTable::Load(const std::string& path) const {
    JsonFile file;
    if (std::string error = ReadJsonFile(path, &file); !error.empty()) return "scene " + error;
    if (IsTrainRunDocument(file.doc)) return NotARunReaderMessage("scene", path);
    const std::string error = ApplyDocument(file.doc);
    return error.empty() ? error : "scene " + Excerpt(json(path), 200) + ": " + error;
}

json SceneTable::Document() const {
    json doc;
    doc["format"] = "pelab-scene";
    doc["version"] = 1;
    for (const SceneField& field : fields_)
        doc[field.name] = field.write();
    return doc;
}

std::string SaveTextFile(const std::string& path, const std::string& text, ExistingName existing) {
    try {
        write_file_atomically(
            path, [&](std::ostream& out) { out << text; }, existing);
    } catch (const IoError& e) {
        return e.what();
    }
    return {};
}

} // namespace pelab
