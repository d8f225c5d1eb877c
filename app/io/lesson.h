// lesson.h — a guided lesson a teacher can write: a JSON file with a title and steps, each step
// a caption, a partial scene (any scene fields, applied all or nothing through the scene
// table), the panel to present or the panels to open, and the widgets to highlight.
//
//   {"format": "pelab-lesson", "version": 1, "title": "Why transformers need positions",
//    "needs_model": "gpt2",    (optional: the steps run on a checkpoint the teacher opens; a
//                                family id, or a list of them: ["llama", "qwen2", …])
//    "steps": [{"caption": "…", "notes": "…", "present": "order", "fresh": true,
//               "scene": {"pe_enabled": false}, "highlight": ["order.pe_enabled"],
//               "lock": ["pe_enabled"]}, …]}
//
// A lesson is checked whole when it is read: a bad field in step 7 refuses the file with
// "step 7: field …", before anything is applied; `pelab lesson check` lists every problem.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pelab {

class SceneTable;
class PanelCatalog;

struct LessonStep {
    std::string caption; ///< a few sentences; *stars* mark emphasis
    std::string notes;   ///< the presenter's notes: S shows them; "" = none
    /// The step's scene starts from the app's defaults, not from the steps before it.
    bool fresh = false;
    nlohmann::json scene;               ///< the step's scene fields (present/open folded in)
    std::vector<std::string> highlight; ///< widget names, as the widget recorder knows them
    /// Scene fields held at the step's values while it is on screen (a change snaps back).
    std::vector<std::string> lock;
};

struct Lesson {
    std::string title;
    /// The families (families.h's ids) whose checkpoint, opened in the Your model panel, the
    /// steps show (the order panel's Real model view): "gpt2", or rotary families the pass runs
    /// ("llama", "qwen2", …); `lesson check` then needs --model. Empty for none.
    std::vector<std::string> needs_model;
    std::string path; ///< where it was read from ("" for text)
    std::vector<LessonStep> steps;
};

constexpr int kMaxLessonSteps = 200;
constexpr std::size_t kMaxCaptionBytes = 2000;
constexpr std::size_t kMaxNotesBytes = 8000;
/// A caption fits the lesson bar's three lines at 1024×768, text ×2 (the room a lesson is made
/// for), counted in characters without the emphasis stars; what is longer goes in the notes.
constexpr std::size_t kMaxCaptionCharacters = 160;
/// The fields a lesson step may have, as an error message lists them.
constexpr const char* kLessonStepFields =
    "caption, notes, scene, present, open, highlight, lock and fresh";

/// Characters (UTF-8 code points) of a caption as the lesson bar draws it: stars not counted.
std::size_t CaptionCharacters(const std::string& caption);

/// Every problem of a lesson, each one line saying what and where ("step 7: field \"pos_a\":
/// must be in [0, 1e6] (got -3)"), in file order; empty when it is good. Each step's scene is
/// checked where it is applied: from `start` (the app's defaults; an empty object: the table's
/// scene as it is), after the steps before it, or from `start` again when it is fresh. The
/// table is left as it was. *out is only written when there is no problem.
std::vector<std::string> CheckLesson(const nlohmann::json& doc, const SceneTable& table,
                                     const PanelCatalog& panels, const nlohmann::json& start,
                                     Lesson* out);
/// Parses and checks a lesson: "" or its first problem (as CheckLesson); *out is only written
/// on success.
std::string ParseLesson(const std::string& text, const SceneTable& table,
                        const PanelCatalog& panels, Lesson* out,
                        const nlohmann::json& start = nlohmann::json::object());
/// The same for a document already parsed (File → Open reads and parses a file once).
std::string ReadLesson(const nlohmann::json& doc, const SceneTable& table,
                       const PanelCatalog& panels, Lesson* out,
                       const nlohmann::json& start = nlohmann::json::object());
/// Reads one step (kLessonStepFields) without applying its scene: "" or what is wrong ("field
/// \"present\": …"). The quiz's "show" objects are steps whose caption is optional
/// (needs_caption false), without notes or fresh and without the caption's length limit.
std::string ReadLessonStep(const nlohmann::json& item, const PanelCatalog& panels,
                           bool needs_caption, LessonStep* step);
/// The same, with every problem of the step (for `pelab lesson check`), in field order.
std::vector<std::string> ReadLessonStepProblems(const nlohmann::json& item,
                                                const PanelCatalog& panels, bool needs_caption,
                                                LessonStep* step);
/// Reads the file (a regular file of at most 1 MiB) and parses it.
std::string LoadLesson(const std::string& path, const SceneTable& table, const PanelCatalog& panels,
                       Lesson* out, const nlohmann::json& start = nlohmann::json::object());
/// The same with every problem of the file ("lesson \"path\": step 2: …", in step order), as
/// `pelab lesson check` lists them; empty on success.
std::vector<std::string> LoadLessonProblems(const std::string& path, const SceneTable& table,
                                            const PanelCatalog& panels, Lesson* out,
                                            const nlohmann::json& start = nlohmann::json::object());

} // namespace pelab
