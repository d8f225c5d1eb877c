#include "io/lesson.h"

#include "io/json_input.h"
#include "io/panel_catalog.h"
#include "io/scene.h"
#include "io/train_run.h"
#include "pelab/models/llama.h"

#include <algorithm>
#include <string>

namespace pelab {

using nlohmann::json;

std::vector<std::string> ReadLessonStepProblems(const json& item, const PanelCatalog& panels,
                                                bool needs_caption, LessonStep* step) {
    std::vector<std::string> problems;
    const auto note = [&problems](std::string error) {
        if (!error.empty()) problems.push_back(std::move(error));
    };
    const FieldReader fields(item);
    // A lesson step (needs_caption) also has notes and fresh; a quiz's "show" object does not.
    note(needs_caption
             ? fields.OnlyFields(
                   {"caption", "notes", "scene", "present", "open", "highlight", "lock", "fresh"},
                   "a step")
             : fields.OnlyFields({"caption", "scene", "present", "open", "highlight", "lock"},
                                 "a step"));
    if (!item.is_object()) return problems;
    note(fields.Text("caption", needs_caption, 1, kMaxCaptionBytes, &step->caption));
    if (needs_caption) {
        if (const std::size_t characters = CaptionCharacters(step->caption);
            characters > kMaxCaptionCharacters)
            note("field \"caption\": " + std::to_string(characters) +
                 " characters; the lesson bar shows at most " +
                 std::to_string(kMaxCaptionCharacters) +
                 " (three lines at 1024x768, text x2): move the rest to the step's \"notes\"");
        note(fields.Text("notes", false, 0, kMaxNotesBytes, &step->notes));
        if (fields.Has("fresh")) {
            if (!item["fresh"].is_boolean())
                note("field \"fresh\": must be true or false (got " + Excerpt(item["fresh"]) + ")");
            else
                step->fresh = item["fresh"].get<bool>();
        }
    }
    const json* scene = nullptr;
    if (std::string error = fields.Object("scene", &scene); !error.empty())
        note(error + " (an object of scene fields)");
    step->scene = scene ? *scene : json::object();
    // "present" and "open" are the scene's presented_panel and open_panels, said plainly.
    std::string present;
    if (std::string error = fields.Text("present", false, 0, 100, &present); !error.empty())
        note(error);
    else if (fields.Has("present") && !panels.IsKnown(present))
        note("field \"present\": must be one panel id (" + panels.IdList() + "), got " +
             Excerpt(json(present)));
    else if (fields.Has("present"))
        step->scene["presented_panel"] = present;
    std::vector<std::string> open;
    if (std::string error = fields.TextList("open", 0, 100, 1, 100, &open); !error.empty()) {
        note(error);
    } else if (fields.Has("open")) {
        for (const std::string& id : open)
            if (!panels.IsKnown(id))
                note("field \"open\": unknown panel " + Excerpt(json(id)) +
                     " (panels: " + panels.IdList() + ")");
        step->scene["open_panels"] = open;
        if (!fields.Has("present")) step->scene["presented_panel"] = "";
    }
    if (std::string error = fields.TextList("highlight", 0, 100, 1, 100, &step->highlight);
        !error.empty())
        note(error);
    // A misspelt name would outline nothing, silently: only names a panel declares.
    for (const std::string& name : step->highlight)
        if (std::string error = panels.CheckWidgetName(name); !error.empty())
            note("field \"highlight\": " + error);
    note(fields.TextList("lock", 0, 100, 1, 100, &step->lock));
    return problems;
}

std::string ReadLessonStep(const json& item, const PanelCatalog& panels, bool needs_caption,
                           LessonStep* step) {
    const std::vector<std::string> problems =
        ReadLessonStepProblems(item, panels, needs_caption, step);
    return problems.empty() ? "" : problems.front();
}

std::size_t CaptionCharacters(const std::string& caption) {
    std::size_t characters = 0;
    for (const char c : caption)
        // A code point starts at every byte that is not a continuation byte (10xxxxxx).
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && c != '*') ++characters;
    return characters;
}

namespace {

// "needs_model": a family id or a list of them, each one the order panel's Real model view runs
// ("GPT-2", its display name, is read as "gpt2"). "" or the problem.
std::string NeedsModel(const json& doc, std::vector<std::string>* out) {
    if (!doc.is_object() || !doc.contains("needs_model")) return {};
    const json& field = doc["needs_model"];
    const char* what = "field \"needs_model\": a family id (\"gpt2\", \"llama\", …) or a list of "
                       "1 to 16 of them";
    std::vector<json> ids;
    if (field.is_string())
        ids.push_back(field);
    else if (field.is_array() && !field.empty() && field.size() <= 16)
        ids = field.get<std::vector<json>>();
    else
        return what;
    for (const json& id : ids) {
        if (!id.is_string() || id.get<std::string>().empty() || id.get<std::string>().size() > 20)
            return what;
        std::string family = id.get<std::string>();
        if (family == "GPT-2") family = "gpt2";
        if (family != "gpt2" && !LlamaPassRuns(family))
            return "field \"needs_model\": \"" + PrintableLine(family) +
                   "\" is not a family the order panel runs (gpt2, llama, mistral, ministral, "
                   "qwen2, qwen3, olmo2, smollm3)";
        out->push_back(family);
    }
    return {};
}

} // namespace

std::vector<std::string> CheckLesson(const json& doc, const SceneTable& table,
                                     const PanelCatalog& panels, const json& start, Lesson* out) {
    std::vector<std::string> problems;
    const FieldReader fields(doc);
    if (std::string error =
            fields.OnlyFields({"format", "version", "title", "needs_model", "steps"}, "a lesson");
        !error.empty()) {
        problems.push_back(error);
        if (!doc.is_object()) return problems;
    }
    if (std::string error = fields.Exactly("format", "pelab-lesson", "must be \"pelab-lesson\"");
        !error.empty())
        problems.push_back(error);
    if (std::string error = fields.Exactly("version", 1, "this PE Lab reads lesson version 1");
        !error.empty())
        problems.push_back(error);
    Lesson lesson;
    if (std::string error = fields.Text("title", true, 1, 200, &lesson.title); !error.empty())
        problems.push_back(error);
    if (std::string error = NeedsModel(doc, &lesson.needs_model); !error.empty())
        problems.push_back(error);
    const json* steps = nullptr;
    if (std::string error =
            fields.List("steps", true, 1, static_cast<std::size_t>(kMaxLessonSteps), &steps);
        !error.empty()) {
        problems.push_back(error);
        return problems;
    }
    // Steps are counted from 1, as the lesson bar shows them.
    const auto where = [](std::size_t k) { return "step " + std::to_string(k + 1) + ": "; };
    // Each step's problems, listed in step order after the lesson's own.
    std::vector<std::vector<std::string>> step_problems(steps->size());
    for (std::size_t k = 0; k < steps->size(); ++k) {
        LessonStep step;
        for (const std::string& error : ReadLessonStepProblems((*steps)[k], panels, true, &step))
            step_problems[k].push_back(where(k) + error);
        lesson.steps.push_back(std::move(step));
    }
    // Each step's scene is checked where it will be applied: after the steps before it (a pair
    // that needs the d_model an earlier step set), or from the start when it is fresh. The
    // steps are applied in turn to the live table, then the scene from before is put back,
    // whatever happened. Locks are checked once the step's scene has passed, so every value
    // read there has its type. Of a step that could not be read only the scene is checked.
    const json before = table.Document();
    table.ApplyDocument(start);
    for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
        std::vector<std::string>& found = step_problems[k];
        const auto scene_problem = [&](const std::string& why) {
            found.push_back(where(k) +
                            (why.rfind("field ", 0) == 0 ? why : "field \"scene\": " + why));
        };
        if (!found.empty()) {
            const json& item = (*steps)[k];
            if (item.is_object() && item.contains("scene") && item["scene"].is_object())
                if (std::string why = table.ApplyDocument(item["scene"]); !why.empty())
                    scene_problem(why);
            continue;
        }
        const LessonStep& step = lesson.steps[k];
        if (step.fresh) table.ApplyDocument(start);
        if (std::string why = table.ApplyDocument(step.scene); !why.empty()) {
            scene_problem(why);
            continue;
        }
        // An outline needs its widget on screen: in the panel presented, or in an open one.
        if (!step.highlight.empty()) {
            const json shown = table.Document();
            const std::string presented = shown.value("presented_panel", std::string());
            const json open = shown.value("open_panels", json::array());
            for (const std::string& name : step.highlight) {
                const std::string panel = name.substr(0, name.find('.'));
                const bool on_screen = presented.empty() ? std::find(open.begin(), open.end(),
                                                                     json(panel)) != open.end()
                                                         : presented == panel;
                if (!on_screen)
                    found.push_back(where(k) + "field \"highlight\": " + Excerpt(json(name)) +
                                    " is in the " + panel +
                                    " panel, which this step does not show (" +
                                    (presented.empty() ? "it shows the open panels"
                                                       : "it presents " + presented) +
                                    ")");
            }
        }
        // What the presented panel cannot show on a slide (the order panel: long sentences).
        if (const json shown = table.Document(); !shown.value("presented_panel", "").empty())
            for (const std::string& problem :
                 panels.SlideSceneProblems(shown.value("presented_panel", ""), shown))
                found.push_back(where(k) + "field \"scene\": " + problem);
        const bool plays = step.scene.contains("playing") && step.scene["playing"] == true;
        for (const std::string& name : step.lock) {
            if (name == "pos_a" && plays)
                found.push_back(where(k) +
                                "field \"lock\": pos A cannot be locked in a step that plays it");
            else if (table.Find(name) == nullptr || name == "playing")
                found.push_back(where(k) + "field \"lock\": " + Excerpt(json(name)) +
                                " is not a scene field that can be locked");
        }
    }
    table.ApplyDocument(before);
    for (const std::vector<std::string>& found : step_problems)
        problems.insert(problems.end(), found.begin(), found.end());
    if (problems.empty()) *out = std::move(lesson);
    return problems;
}

std::string ReadLesson(const json& doc, const SceneTable& table, const PanelCatalog& panels,
                       Lesson* out, const json& start) {
    const std::vector<std::string> problems = CheckLesson(doc, table, panels, start, out);
    return problems.empty() ? "" : problems.front();
}

std::string ParseLesson(const std::string& text, const SceneTable& table,
                        const PanelCatalog& panels, Lesson* out, const json& start) {
    json doc;
    if (std::string error = ParseJsonInput(text, &doc); !error.empty()) return error;
    return ReadLesson(doc, table, panels, out, start);
}

std::vector<std::string> LoadLessonProblems(const std::string& path, const SceneTable& table,
                                            const PanelCatalog& panels, Lesson* out,
                                            const json& start) {
    JsonFile file;
    if (std::string error = ReadJsonFile(path, &file); !error.empty()) return {"lesson " + error};
    if (file.png)
        return {"lesson " + Excerpt(json(path), 200) +
                " is a PNG figure: open it as a scene (--scene); a lesson is a JSON file"};
    if (IsTrainRunDocument(file.doc)) return {NotARunReaderMessage("lesson", path)};
    Lesson lesson;
    std::vector<std::string> problems = CheckLesson(file.doc, table, panels, start, &lesson);
    if (!problems.empty()) {
        for (std::string& problem : problems)
            problem = "lesson " + Excerpt(json(path), 200) + ": " + problem;
        return problems;
    }
    lesson.path = path;
    *out = std::move(lesson);
    return {};
}

std::string LoadLesson(const std::string& path, const SceneTable& table, const PanelCatalog& panels,
                       Lesson* out, const json& start) {
    const std::vector<std::string> problems = LoadLessonProblems(path, table, panels, out, start);
    return problems.empty() ? std::string() : problems.front();
}

} // namespace pelab
