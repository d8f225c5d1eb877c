// lesson.h — a guided lesson a teacher can write: a JSON file with a title and steps, each step
// a caption, a partial scene (any scene fields, applied all or nothing through the scene
// table), the panel to present or the panels to open, and the widgets to highlight.
//
//   {"format": "pelab-lesson", "version": 1, "title": "Why transformers need positions",
//    "steps": [{"caption": "…", "present": "order", "scene": {"pe_enabled": false},
//               "highlight": ["order.pe_enabled"], "lock": ["pe_enabled"]}, …]}
//
// A lesson is checked whole when it is read: a bad field in step 7 refuses the file with
// "step 7: field …", before anything is applied.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pelab {

class SceneTable;
class PanelRegistry;

struct LessonStep {
    std::string caption;                ///< a few sentences; *stars* mark emphasis
    nlohmann::json scene;               ///< the step's scene fields (present/open folded in)
    std::vector<std::string> highlight; ///< widget names, as the widget recorder knows them
    /// Scene fields held at the step's values while it is on screen (a change snaps back).
    std::vector<std::string> lock;
};

struct Lesson {
    std::string title;
    std::string path; ///< where it was read from ("" for text)
    std::vector<LessonStep> steps;
};

constexpr int kMaxLessonSteps = 200;
constexpr std::size_t kMaxCaptionBytes = 2000;

/// Parses and checks a lesson: "" or one line saying what is wrong and where ("step 7: field
/// \"pos_a\": must be in [0, 1e6] (got -3)"); *out is only written on success.
std::string ParseLesson(const std::string& text, const SceneTable& table,
                        const PanelRegistry& panels, Lesson* out);
/// The same for a document already parsed (File → Open reads and parses a file once).
std::string ReadLesson(const nlohmann::json& doc, const SceneTable& table,
                       const PanelRegistry& panels, Lesson* out);
/// Reads one step (caption, scene, present, open, highlight, lock) without applying its scene:
/// "" or what is wrong ("field \"present\": …"). The quiz's "show" objects are steps whose
/// caption is optional (needs_caption false).
std::string ReadLessonStep(const nlohmann::json& item, const PanelRegistry& panels,
                           bool needs_caption, LessonStep* step);
/// Reads the file (a regular file of at most 1 MiB) and parses it.
std::string LoadLesson(const std::string& path, const SceneTable& table,
                       const PanelRegistry& panels, Lesson* out);

} // namespace pelab
