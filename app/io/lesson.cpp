#include "lesson.h"

#include "json_input.h"
#include "panel_registry.h"
#include "scene.h"

#include <string>

namespace pelab {

namespace {

using nlohmann::json;

// "" or why the step's "field" is not a list of short strings.
std::string StringList(const json& value, std::vector<std::string>* out) {
    if (!value.is_array()) return "must be a list of names";
    for (const json& item : value) {
        if (!item.is_string() || item.get<std::string>().empty() ||
            item.get<std::string>().size() > 100)
            return "must hold names (text of 1 to 100 characters), got " + Excerpt(item);
        out->push_back(item.get<std::string>());
    }
    return "";
}

} // namespace

std::string ReadLessonStep(const json& item, const PanelRegistry& panels, bool needs_caption,
                           LessonStep* step) {
    if (!item.is_object()) return "must be an object {\"caption\": …}";
    for (const auto& field : item.items()) {
        const std::string& key = field.key();
        if (key != "caption" && key != "scene" && key != "present" && key != "open" &&
            key != "highlight" && key != "lock")
            return "unknown field " + Excerpt(json(key)) +
                   " (a step has caption, scene, present, open, highlight and lock)";
    }
    if (needs_caption || item.contains("caption")) {
        if (!item.contains("caption") || !item["caption"].is_string() ||
            item["caption"].get<std::string>().empty())
            return "field \"caption\": a step needs its text";
        step->caption = item["caption"].get<std::string>();
    }
    if (step->caption.size() > kMaxCaptionBytes)
        return "field \"caption\": at most " + std::to_string(kMaxCaptionBytes) + " bytes";
    step->scene = item.contains("scene") ? item["scene"] : json::object();
    if (!step->scene.is_object()) return "field \"scene\": must be an object of scene fields";
    // "present" and "open" are the scene's presented_panel and open_panels, said plainly.
    if (item.contains("present")) {
        if (!item["present"].is_string() || !panels.Find(item["present"].get<std::string>()))
            return "field \"present\": must be one panel id (" + panels.IdList() + "), got " +
                   Excerpt(item["present"]);
        step->scene["presented_panel"] = item["present"];
    }
    if (item.contains("open")) {
        std::vector<std::string> ids;
        if (std::string error = StringList(item["open"], &ids); !error.empty())
            return "field \"open\": " + error;
        step->scene["open_panels"] = item["open"];
        if (!item.contains("present")) step->scene["presented_panel"] = "";
    }
    if (item.contains("highlight"))
        if (std::string error = StringList(item["highlight"], &step->highlight); !error.empty())
            return "field \"highlight\": " + error;
    if (item.contains("lock"))
        if (std::string error = StringList(item["lock"], &step->lock); !error.empty())
            return "field \"lock\": " + error;
    return "";
}

std::string ParseLesson(const std::string& text, const SceneTable& table,
                        const PanelRegistry& panels, Lesson* out) {
    json doc;
    if (std::string error = ParseJsonInput(text, &doc); !error.empty()) return error;
    if (!doc.is_object()) return "a lesson must be a JSON object {\"title\": …, \"steps\": […]}";
    for (const auto& item : doc.items()) {
        const std::string& key = item.key();
        if (key != "format" && key != "version" && key != "title" && key != "steps")
            return "unknown field " + Excerpt(json(key)) +
                   " (a lesson has format, version, title and steps)";
    }
    if (doc.contains("format") && doc["format"] != "pelab-lesson")
        return "field \"format\": must be \"pelab-lesson\" (got " + Excerpt(doc["format"]) + ")";
    if (doc.contains("version") && doc["version"] != 1)
        return "field \"version\": this PE Lab reads lesson version 1 (got " +
               Excerpt(doc["version"]) + ")";
    if (!doc.contains("title") || !doc["title"].is_string() ||
        doc["title"].get<std::string>().empty() || doc["title"].get<std::string>().size() > 200)
        return "field \"title\": a lesson needs a title (text of 1 to 200 bytes)";
    if (!doc.contains("steps") || !doc["steps"].is_array() || doc["steps"].empty() ||
        doc["steps"].size() > static_cast<std::size_t>(kMaxLessonSteps))
        return "field \"steps\": must be a list of 1 to " + std::to_string(kMaxLessonSteps) +
               " steps";
    Lesson lesson;
    lesson.title = doc["title"].get<std::string>();
    for (std::size_t k = 0; k < doc["steps"].size(); ++k) {
        LessonStep step;
        // Steps are counted from 1, as the lesson bar shows them.
        if (std::string error = ReadLessonStep(doc["steps"][k], panels, true, &step);
            !error.empty())
            return "step " + std::to_string(k + 1) + ": " + error;
        const bool plays = step.scene.value("playing", false) == true;
        for (const std::string& name : step.lock) {
            if (name == "pos_a" && plays)
                return "step " + std::to_string(k + 1) +
                       ": field \"lock\": pos A cannot be locked in a step that plays it";
            if (table.Find(name) == nullptr || name == "playing")
                return "step " + std::to_string(k + 1) +
                       ": field \"lock\": " + Excerpt(json(name)) +
                       " is not a scene field that can be locked";
        }
        lesson.steps.push_back(std::move(step));
    }
    // Each step's scene is checked where it will be applied: after the steps before it (a pair
    // that needs the d_model an earlier step set). The steps are applied in turn to the live
    // table, then the scene from before is put back, whatever happened.
    const json before = table.Document();
    std::string error;
    for (std::size_t k = 0; k < lesson.steps.size() && error.empty(); ++k)
        if (std::string why = table.ApplyDocument(lesson.steps[k].scene); !why.empty())
            error = "step " + std::to_string(k + 1) + ": " +
                    (why.rfind("field ", 0) == 0 ? why : "field \"scene\": " + why);
    table.ApplyDocument(before);
    if (!error.empty()) return error;
    *out = std::move(lesson);
    return "";
}

std::string LoadLesson(const std::string& path, const SceneTable& table,
                       const PanelRegistry& panels, Lesson* out) {
    std::string text;
    if (std::string error = ReadInputFile(path, kMaxInputBytes, &text); !error.empty())
        return "lesson " + error;
    Lesson lesson;
    if (std::string error = ParseLesson(text, table, panels, &lesson); !error.empty())
        return "lesson " + Excerpt(json(path), 200) + ": " + error;
    lesson.path = path;
    *out = std::move(lesson);
    return "";
}

} // namespace pelab
