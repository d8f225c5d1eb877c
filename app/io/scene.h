// scene.h — scenes as a table. A scene is a JSON object of named fields; every field is one row
// of a SceneTable (name, one-line doc, a validating reader, a writer), bound to the variable it
// sets. The shared parameters, the view settings and each panel contribute their own rows, so
// reading, writing, the README's list and the tests all come from one table.
//
// Reading is all or nothing: every present field is validated first (type and range, with a
// message naming the field), and only when all pass are they committed. Absent fields keep
// their values; unknown fields are refused (a typo must not pass silently). Written scenes
// carry "format": "pelab-scene" and "version": 1; `--state-out` and `pelab readouts` add a
// "readouts" object that reading ignores.
#pragma once

#include "pelab/base/existing_name.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace pelab {

/// Thrown by a field's reader: the message says what the value must be (without the field's
/// name, which the table adds).
struct SceneFieldError {
    std::string message;
};

struct SceneField {
    std::string name;
    std::string doc; ///< one line: type and range, e.g. "even integer in [2, 4096]"
    /// Validates value (doc is the whole scene, for fields whose range depends on another) and
    /// returns the commit that assigns it; throws SceneFieldError when the value is bad.
    std::function<std::function<void()>(const nlohmann::json& value, const nlohmann::json& doc)>
        read;
    std::function<nlohmann::json()> write;
};

/// A scene number and the slider that sets it, declared once: the field's name, what it means and
/// its bounds (checked when a scene is read, kept when the slider is dragged), its first value,
/// and the slider's label, number format, scale, tooltip and widget name. A tab or panel holds
/// one constant of these per control; SceneTable::Number registers the field from it and
/// SceneSlider (panels/scene_controls.h) draws it, so no bound or name is written twice.
struct NumberControl {
    const char* field;   ///< the scene field, "fire_c"
    const char* doc;     ///< what it means (the field list's line; the widget's description)
    double min, max;     ///< the bounds, inclusive
    double initial;      ///< the first value (a panel's member starts at it)
    const char* label;   ///< the slider's label, "c"
    const char* format;  ///< printf format of the number shown, "%.2f"
    bool logarithmic;    ///< a logarithmic slider (bounds > 0)
    const char* tooltip; ///< the formula the number sits in, shown on hover
    const char* widget;  ///< the recorded widget name, "alternatives.fire_c"
    bool even = false;   ///< a whole number that must be even (T5's buckets)
    /// The slider reaches only ±slider_span (0: the bounds): a wide field (a shift of ±1000)
    /// keeps a slider fine enough to drag, and a value typed with Ctrl+click may still go to
    /// the bounds.
    double slider_span = 0;
    /// A typed box's − and + buttons move the value by step (by step_fast with Ctrl); 0: no
    /// buttons.
    double step = 0, step_fast = 0;
};

/// row with − and + buttons of step and step_fast (a typed box's).
constexpr NumberControl Stepped(NumberControl row, double step, double step_fast) {
    row.step = step;
    row.step_fast = step_fast;
    return row;
}

class SceneTable {
public:
    void Add(SceneField field);
    /// Binds a field to a variable (which must outlive the table). doc says what the field
    /// means; its type and range are written in front of it from the bounds the value is
    /// checked against ("integer in [0, 1000]: " + doc), so the field list cannot disagree with
    /// the validation.
    void Integer(const char* name, const char* doc, int* target, int min, int max,
                 bool even = false);
    void Number(const char* name, const char* doc, double* target, double min, double max);
    void Number(const char* name, const char* doc, float* target, double min, double max);
    /// The field of a control: its name, doc line and bounds.
    void Number(const NumberControl& control, double* target) {
        Number(control.field, control.doc, target, control.min, control.max);
    }
    void Number(const NumberControl& control, float* target) {
        Number(control.field, control.doc, target, control.min, control.max);
    }
    /// The field of a whole-number control (its bounds whole numbers).
    void Integer(const NumberControl& control, int* target) {
        Integer(control.field, control.doc, target, static_cast<int>(control.min),
                static_cast<int>(control.max), control.even);
    }
    void Bool(const char* name, const char* doc, bool* target);
    /// check returns "" when the text is acceptable, else why not.
    void Text(const char* name, const char* doc, std::string* target,
              const std::function<std::string(const std::string&)>& check);

    const std::vector<SceneField>& Fields() const { return fields_; }
    const SceneField* Find(const std::string& name) const;

    /// Applies the scene in json_text. Returns "" on success, else a one-line message naming
    /// the field (or the JSON problem); on error nothing is changed.
    std::string Apply(const std::string& json_text) const;
    /// The same for a parsed document.
    std::string ApplyDocument(const nlohmann::json& doc) const;
    /// Checks doc as Apply would, changing nothing: "" or the same message.
    std::string Check(const nlohmann::json& doc) const;
    /// Reads a scene file (JSON of at most 1 MiB, or a PNG figure written by PE Lab, which
    /// carries its scene in a text chunk; a regular file either way) and applies it.
    std::string Load(const std::string& path) const;
    /// Every field's current value, with "format" and "version".
    nlohmann::json Document() const;

private:
    /// Validates doc; on success appends each field's commit to *commits (when given).
    std::string Read(const nlohmann::json& doc, std::vector<std::function<void()>>* commits) const;
    std::vector<SceneField> fields_;
};

// Validators shared by the rows, for fields with their own reader. Each throws SceneFieldError.
int SceneInteger(const nlohmann::json& value, long long min, long long max);
double SceneNumber(const nlohmann::json& value, double min, double max);

/// Writes text to path atomically (existing: what is done with a link or special file at the
/// name, pelab/export/export.h). Returns "" or the error message.
std::string SaveTextFile(const std::string& path, const std::string& text,
                         ExistingName existing = ExistingName::kFollow);

} // namespace pelab
