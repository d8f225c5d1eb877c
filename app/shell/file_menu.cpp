#include "shell/file_menu.h"
#include "widgets/shortcuts.h"

#include "io/json_input.h"
#include "io/png_scene.h"
#include "io/train_run.h"
#include "pelab/export/export.h"
#include "shell/app.h"
#include "shell/browser_files.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace pelab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kNoticePopup = "PE Lab###notice";

// A lesson is a JSON object with "steps" (or says it is one), a quiz one with "questions",
// "cards" or "teach_back" (or says so); anything else is read as a scene.
enum class Holds { Scene, Lesson, Quiz, TrainRun };
Holds WhatItHolds(const JsonFile& file) {
    const json& doc = file.doc;
    if (file.png || !doc.is_object()) return Holds::Scene;
    const std::string format =
        doc.contains("format") && doc["format"].is_string() ? doc["format"].get<std::string>() : "";
    if (format == "pelab-lesson" || (format.empty() && doc.contains("steps"))) return Holds::Lesson;
    if (IsTrainRunDocument(doc)) return Holds::TrainRun;
    if (format == "pelab-quiz" ||
        (format.empty() &&
         (doc.contains("questions") || doc.contains("cards") || doc.contains("teach_back"))))
        return Holds::Quiz;
    return Holds::Scene;
}

std::string Quoted(const std::string& path) {
    return Excerpt(json(path), 200);
}

// "" when path may be written from the app: a new file or a regular one. Writing to a pipe
// would wait for a reader with the window frozen, and a device is not a file to keep.
std::string CheckSaveTarget(const std::string& path) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status) || fs::is_regular_file(status)) return {};
    return Quoted(path) + " is not a regular file (a folder, a device or a pipe): choose a file";
}

// Where a dialog starts: the folder of the newest recent file that still exists.
std::string StartFolder(const ViewSettings& view) {
    for (const std::string& recent : view.recent_files) {
        std::error_code error;
        const fs::path folder = fs::path(recent).parent_path();
        if (!folder.empty() && fs::is_directory(folder, error)) return folder.string();
    }
    return {};
}

// The export's size in pixels: the panel's window as it is on screen, a projector's or a full HD
// screen's, or the custom one.
void ExportSize(const App& app, int* width, int* height) {
    const App::ExportChoice& choice = app.export_choice;
    if (choice.size == 1) {
        *width = 1024, *height = 768;
    } else if (choice.size == 2) {
        *width = 1920, *height = 1080;
    } else if (choice.size == 3) {
        *width = choice.width, *height = choice.height;
    } else {
        const PanelEntry* entry = app.panels.Find(app.file_task_panel);
        const ImGuiWindow* window =
            entry ? ImGui::FindWindowByName(entry->window_name.c_str()) : nullptr;
        const ImVec2 size = window ? window->Size : ImGui::GetIO().DisplaySize;
        *width = std::max(64, static_cast<int>(size.x));
        *height = std::max(64, static_cast<int>(size.y));
    }
}

FrameContext Frame(App& app) {
    return FrameContext{app.state, app.pending, app.recorder, app.stats, GetTheme(app.view.theme),
                        true,      app.gpu,     false};
}

// Does what the dialog was opened for with the chosen path; "" or why not.
std::string CarryOut(App& app, const std::string& path) {
    switch (app.file_task) {
    case FileTask::Open:
        return OpenFile(app, path);
    case FileTask::OpenLesson:
        return OpenFile(app, path, true);
    case FileTask::SaveScene:
        if (std::string error = CheckSaveTarget(path); !error.empty()) return error;
        return SaveSceneFile(app, path);
    case FileTask::ExportPng: {
        if (std::string error = CheckSaveTarget(path); !error.empty()) return error;
        if (std::string error = check_writable(path).message(); !error.empty()) return error;
        app.pending.export_png = path;
        app.pending.export_png_panel = app.file_task_panel;
        app.pending.export_png_teach_back = app.export_choice.teach_back;
        ExportSize(app, &app.pending.export_png_width, &app.pending.export_png_height);
        // The dialog is still on screen this frame; the picture is taken once it has gone.
        app.pending.export_png_frames = 3;
        return {};
    }
    case FileTask::ExportCsv:
        if (std::string error = CheckSaveTarget(path); !error.empty()) return error;
        return ExportTableCsv(app, app.file_task_panel, path);
    case FileTask::None:
        break;
    }
    return {};
}

} // namespace

void AddRecentFile(ViewSettings& view, const std::string& path) {
    if (path.empty() || path.find_first_of("\n\r") != std::string::npos) return;
    std::error_code error;
    if (!fs::is_regular_file(path, error)) return; // /dev/null is not a file to come back to
    fs::path absolute = fs::absolute(path, error);
    const std::string entry = error ? path : absolute.lexically_normal().string();
    auto& recent = view.recent_files;
    recent.erase(std::remove(recent.begin(), recent.end(), entry), recent.end());
    recent.insert(recent.begin(), entry);
    if (recent.size() > kMaxRecentFiles) recent.resize(kMaxRecentFiles);
    if (ImGui::GetCurrentContext()) ImGui::MarkIniSettingsDirty();
}

namespace {

std::string OpenFileUnguarded(App& app, const std::string& path, bool only_lesson) {
    // A data file a panel reads as it stands (another engine's RoPE tables while a RoPE model is
    // open: Your model › Check) goes to that panel.
    for (PanelEntry& each : app.panels.Entries()) {
        if (only_lesson || !each.panel->TakesDataFile(path, app.state)) continue;
        if (std::string error = each.panel->OpenDataFile(path, app.state); !error.empty())
            return error;
        if (app.view.presented_panel.empty())
            each.open = true;
        else
            app.view.presented_panel = each.id;
        app.status_note = "checking " + fs::path(path).filename().string();
        return {};
    }
    // A checkpoint (weights, not JSON) goes to the model service; Your model shows it.
    if (!only_lesson && LooksLikeCheckpoint(path)) {
        if (std::string error = app.models.Open(ModelRequest{path, "", ""}); !error.empty())
            return error;
        if (PanelEntry* model = app.panels.Find("model")) {
            if (app.view.presented_panel.empty())
                model->open = true;
            else
                app.view.presented_panel = model->id;
        }
        app.pending.arrange = true;
        AddRecentFile(app.view, path);
        app.status_note = "reading " + fs::path(path).filename().string();
        return {};
    }
    // Read and parsed once, whatever it holds.
    JsonFile file;
    if (std::string error = ReadJsonFile(path, &file); !error.empty()) return error;
    const Holds holds = WhatItHolds(file);
    if (only_lesson && holds != Holds::Lesson)
        return Quoted(path) + " is not a lesson (a lesson is a JSON object with \"steps\")";
    if (holds == Holds::Quiz || holds == Holds::TrainRun) {
        // The panel that owns the kind reads and shows it (Panel::OpenDocument).
        const bool quiz = holds == Holds::Quiz;
        const char* kind = quiz ? "quiz" : "train";
        const char* what = quiz ? "quiz " : "training run ";
        PanelEntry* entry = nullptr;
        for (PanelEntry& each : app.panels.Entries())
            if (each.panel->DocumentKind() == kind) entry = &each;
        if (entry == nullptr) return std::string("this PE Lab has no ") + kind + " panel";
        if (std::string error = entry->panel->OpenDocument(file.doc, path, app.scene, app.panels);
            !error.empty())
            return what + Quoted(path) + ": " + error;
        if (app.view.presented_panel.empty())
            entry->open = true;
        else
            app.view.presented_panel = entry->id;
        app.pending.arrange = true;
    } else if (holds == Holds::Lesson) {
        Lesson lesson;
        // Every problem, one per line, as `pelab lesson check` lists them: a teacher fixes the
        // file once, not once per problem.
        const std::vector<std::string> problems =
            CheckLesson(file.doc, app.scene, app.panels, LessonStart(app), &lesson);
        if (problems.size() == 1)
            return "lesson " + Quoted(path) + ": " + problems.front(); // "…: step 7: …"
        if (!problems.empty()) {
            std::string message =
                "lesson " + Quoted(path) + " has " + std::to_string(problems.size()) + " problems:";
            for (const std::string& problem : problems)
                message += "\n- " + problem;
            return message;
        }
        lesson.path = path;
        StartLesson(app, std::move(lesson));
    } else {
        // Checked whole first (a bad file changes nothing), then applied with the student's
        // teach-back text guarded.
        if (std::string error = app.scene.Check(file.doc); !error.empty())
            return "scene " + Quoted(path) + ": " + error;
        if (std::string error = app.scene.ApplyDocument(app.GuardStudentWork(file.doc));
            !error.empty())
            return "scene " + Quoted(path) + ": " + error;
        app.lesson = LessonPlayer{}; // a scene of one's own: the lesson's steps no longer apply
        app.pending.arrange = true;
    }
    AddRecentFile(app.view, path);
    app.status_note = "opened " + fs::path(path).filename().string();
    return {};
}

} // namespace

std::string OpenFile(App& app, const std::string& path, bool only_lesson) {
    // Every reader returns its refusals as messages; should one still throw, the class keeps
    // its session: the scene as it was, and a message instead of an exit.
    const json before = app.scene.Document();
    try {
        return OpenFileUnguarded(app, path, only_lesson);
    } catch (const std::exception& e) {
        app.scene.ApplyDocument(before);
        return Quoted(path) + " could not be opened (" + PrintableLine(e.what()) +
               "); nothing was changed";
    }
}

std::string SaveSceneFile(App& app, const std::string& path) {
    if (std::string error = SaveTextFile(
            path, app.Document(false).dump(2, ' ', false, json::error_handler_t::replace) + "\n");
        !error.empty())
        return error;
    AddRecentFile(app.view, path);
    app.status_note = "saved " + fs::path(path).filename().string();
    return {};
}

std::string ExportTableCsv(App& app, const std::string& panel_id, const std::string& path) {
    const PanelEntry* entry = app.panels.Find(panel_id);
    if (entry == nullptr || !entry->panel->HasTable())
        return "the panel \"" + panel_id + "\" has no table to export";
    if (std::string error = SaveTextFile(path, entry->panel->TableCsv(app.state)); !error.empty())
        return error;
    app.status_note = "exported " + fs::path(path).filename().string();
    return {};
}

std::string ExportPanel(const App& app) {
    if (!app.view.presented_panel.empty()) return app.view.presented_panel;
    if (const PanelEntry* focused = app.panels.Find(app.focused_panel); focused && focused->open)
        return focused->id;
    for (const PanelEntry& entry : app.panels.Entries())
        if (entry.open) return entry.id;
    return {};
}

void BeginFileTask(App& app, FileTask task, const std::string& panel_id) {
    FileDialogRequest request;
    request.folder = StartFolder(app.view);
    switch (task) {
    case FileTask::Open:
        request.title = "Open a scene, figure, lesson, quiz, training run or model";
        request.extensions = {".json", ".png", ".safetensors", ".npy", ".gguf"};
        break;
    case FileTask::OpenLesson:
        request.title = "Open lesson";
        request.extensions = {".json"};
        // In the lessons PE Lab ships (File → Open… starts where the last file was).
        if (std::string shipped = ShippedLessonsFolder(RunningExecutable()); !shipped.empty())
            request.folder = shipped;
        break;
    case FileTask::SaveScene:
        request.title = "Save scene as";
        request.save = true;
        request.extensions = {".json"};
        request.suggested_name = "pelab-scene.json";
        break;
    case FileTask::ExportPng:
        request.title = "Export panel as PNG";
        request.save = true;
        request.extensions = {".png"};
        request.suggested_name = "pelab-" + panel_id + ".png";
        break;
    case FileTask::ExportCsv:
        request.title = "Export table as CSV";
        request.save = true;
        request.extensions = {".csv"};
        request.suggested_name = "pelab-" + panel_id + ".csv";
        break;
    case FileTask::None:
        return;
    }
    app.file_task = task;
    app.file_task_panel = panel_id;
    app.file_dialog.Open(request);
}

namespace {

// A model file's size as the runners list theirs: "1.3 GB", "812 MB", "87 kB" (decimal).
std::string GigabytesText(std::uintmax_t bytes) {
    char text[32];
    if (bytes >= 1000000000)
        std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
    else if (bytes >= 1000000)
        std::snprintf(text, sizeof text, "%.0f MB", static_cast<double>(bytes) / 1e6);
    else
        std::snprintf(text, sizeof text, "%.0f kB", static_cast<double>(bytes) / 1e3);
    return text;
}

// The GGUF models Ollama and LM Studio keep (FindLocalModels), one item each.
void DrawLocalModels(App& app) {
    const bool open = ImGui::BeginMenu("Models on this computer");
    app.recorder.RecordLastItem("file.local_models");
    FormulaTooltip("The GGUF models Ollama and LM Studio keep on this computer (Ollama's store "
                   "under ~/.ollama/models or OLLAMA_MODELS; LM Studio's ~/.lmstudio/models).");
    if (!open) {
        app.local_models_listed = false;
        return;
    }
    if (!app.local_models_listed) {
        app.local_models = FindLocalModels();
        app.local_models_listed = true;
    }
    std::string chosen;
    if (app.local_models.empty())
        ImGui::TextDisabled("none found (Ollama's and LM Studio's folders hold no GGUF model)");
    // Each runner's models under its name; a name too wide for the window (at text ×2 on a
    // projector) loses its middle, its size on the right as Ollama lists it.
    const float font = ImGui::GetFontSize();
    const float widest =
        std::max(font * 8, std::min(font * 30, ImGui::GetMainViewport()->Size.x - font * 10));
    const auto measure = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
    std::string runner;
    for (std::size_t k = 0; k < app.local_models.size(); ++k) {
        const LocalModel& model = app.local_models[k];
        if (model.runner != runner) {
            runner = model.runner;
            if (k > 0) ImGui::Separator();
            ImGui::TextDisabled("%s", runner.c_str());
        }
        ImGui::PushID(static_cast<int>(k));
        const std::string name = ElideMiddle(PrintableText(model.name), widest, measure);
        if (ImGui::MenuItem(name.c_str(), GigabytesText(model.bytes).c_str())) chosen = model.path;
        app.recorder.RecordLastItem(("file.local_models." + std::to_string(k)).c_str());
        // The path, its folders one per line where it is long; a file name wider than the
        // tooltip (an Ollama blob's sha256-<64 hex>) loses its middle.
        const std::string where = model.runner == "LM Studio" ? model.folder + "/" : "";
        const fs::path file(model.path);
        const std::string file_name = ElideMiddle(PrintableText(file.filename().string()),
                                                  std::min(font * 28, widest), measure);
        FormulaTooltip((PrintableText(where + model.name) + "\n" +
                        PrintableText(file.parent_path().string()) + "/" + file_name)
                           .c_str());
        ImGui::PopID();
    }
    ImGui::EndMenu();
    if (!chosen.empty())
        if (std::string error = OpenFile(app, chosen); !error.empty())
            app.notice = PrintableText(error);
}

} // namespace

void DrawFileMenuItems(App& app) {
    if (ImGui::MenuItem("Open…", KeysFor(Command::Open).c_str()))
        BeginFileTask(app, FileTask::Open);
    app.recorder.RecordLastItem("file.open");
    FormulaTooltip("A scene (.json), a PNG figure PE Lab exported (it carries its scene), a lesson "
                   "or a quiz. Dropping a file on the window does the same.");
    if (ImGui::MenuItem("Open lesson…")) BeginFileTask(app, FileTask::OpenLesson);
    app.recorder.RecordLastItem("file.open_lesson");
    const bool recent_menu = ImGui::BeginMenu("Open recent", !app.view.recent_files.empty());
    app.recorder.RecordLastItem("file.recent");
    if (recent_menu) {
        std::string chosen;
        for (std::size_t k = 0; k < app.view.recent_files.size(); ++k) {
            const std::string& path = app.view.recent_files[k];
            ImGui::PushID(static_cast<int>(k));
            if (ImGui::MenuItem(fs::path(path).filename().string().c_str())) chosen = path;
            app.recorder.RecordLastItem(("file.recent." + std::to_string(k)).c_str());
            FormulaTooltip(path.c_str());
            ImGui::PopID();
        }
        ImGui::Separator();
        if (ImGui::MenuItem("Clear the list")) {
            app.view.recent_files.clear();
            ImGui::MarkIniSettingsDirty();
        }
        ImGui::EndMenu();
        if (!chosen.empty()) {
            if (std::string error = OpenFile(app, chosen); !error.empty()) {
                app.notice = PrintableText(error);
                std::error_code missing;
                if (!fs::exists(chosen, missing)) {
                    auto& recent = app.view.recent_files;
                    recent.erase(std::remove(recent.begin(), recent.end(), chosen), recent.end());
                }
            }
        }
    }
    DrawLocalModels(app);
    if (ImGui::MenuItem("Save scene as…", KeysFor(Command::SaveScene).c_str()))
        BeginFileTask(app, FileTask::SaveScene);
    app.recorder.RecordLastItem("file.save_scene");
    FormulaTooltip("Every setting of every panel, as JSON: `pelab --scene FILE` or Open… "
                   "brings it back.");
    ImGui::Separator();
    const std::string panel_id = ExportPanel(app);
    const PanelEntry* panel = app.panels.Find(panel_id);
    const std::string title = panel ? panel->title : std::string("a panel");
    if (ImGui::MenuItem(("Export \"" + title + "\" as PNG…").c_str(), nullptr, false,
                        panel != nullptr)) {
        // The size and what goes in first, then the file name.
        app.file_task_panel = panel_id;
        app.export_choice.asking = true;
    }
    app.recorder.RecordLastItem("file.export_png");
    FormulaTooltip("The panel drawn alone at the size you choose (its window's, 1024×768, "
                   "1920×1080 or your own). The PNG carries the scene: open it to get this exact "
                   "view back. Click in another panel first to export that one.");
    const bool has_table = panel && panel->panel->HasTable();
    if (ImGui::MenuItem(("Export \"" + title + "\" table as CSV…").c_str(), nullptr, false,
                        has_table))
        BeginFileTask(app, FileTask::ExportCsv, panel_id);
    app.recorder.RecordLastItem("file.export_csv");
    FormulaTooltip(has_table ? "The table's rows with every digit, for a spreadsheet."
                             : "Compare, Calculator and Why the obvious ideas fail have tables: "
                               "click in one of them first.");
    // A page is closed with its tab: the browser edition has no Quit.
    if (kInBrowser) return;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", KeysFor(Command::Quit).c_str())) app.pending.quit = true;
}

namespace {

// File → Export as PNG's options: the size and the teach-back text, then "Choose file…".
void DrawExportChoice(App& app) {
    constexpr const char* kPopup = "Export as PNG###export_png";
    App::ExportChoice& choice = app.export_choice;
    if (!choice.asking) return;
    if (!ImGui::IsPopupOpen(kPopup)) ImGui::OpenPopup(kPopup);
    PlaceFloatingWindow(ImVec2(ImGui::GetFontSize() * 26, 0));
    if (!ImGui::BeginPopupModal(kPopup, nullptr,
                                ImGuiWindowFlags_NoSavedSettings |
                                    ImGuiWindowFlags_AlwaysAutoResize)) {
        choice.asking = false;
        return;
    }
    KeepWindowInViewport();
    const PanelEntry* entry = app.panels.Find(app.file_task_panel);
    ImGui::Text("\"%s\", drawn alone:", entry ? entry->title.c_str() : "the panel");
    int window_width = 0, window_height = 0;
    const int chosen = choice.size;
    choice.size = 0;
    ExportSize(app, &window_width, &window_height);
    choice.size = chosen;
    char label[64];
    std::snprintf(label, sizeof label, "as its window, %d × %d", window_width, window_height);
    const char* sizes[] = {label, "1024 × 768 (a projector)", "1920 × 1080", "custom"};
    for (int k = 0; k < 4; ++k) {
        ImGui::RadioButton(sizes[k], &choice.size, k);
        app.recorder.RecordLastItem(("export.size" + std::to_string(k)).c_str());
    }
    if (choice.size == 3) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
        ImGui::InputInt("width", &choice.width, 0);
        app.recorder.RecordLastItem("export.width");
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
        ImGui::InputInt("height", &choice.height, 0);
        app.recorder.RecordLastItem("export.height");
        // A picture the GPU can hold and a person can read.
        choice.width = std::clamp(choice.width, 200, 8192);
        choice.height = std::clamp(choice.height, 150, 8192);
        ImGui::TextDisabled("200 to 8192 pixels a side");
    }
    const bool has_text = !app.scene.Document()["teach_back_text"].get<std::string>().empty();
    ImGui::BeginDisabled(!has_text);
    ImGui::Checkbox("include the teach-back text", &choice.teach_back);
    ImGui::EndDisabled();
    app.recorder.RecordLastItem("export.teach_back");
    FormulaTooltip(has_text ? "The student's explanation is theirs: it goes into the picture and "
                              "its scene only when ticked."
                            : "There is no teach-back text to include.");
    if (!has_text) choice.teach_back = false;
    if (ImGui::Button("Choose file…")) {
        choice.asking = false;
        ImGui::CloseCurrentPopup();
        BeginFileTask(app, FileTask::ExportPng, app.file_task_panel);
    }
    app.recorder.RecordLastItem("export.choose");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        choice.asking = false;
        ImGui::CloseCurrentPopup();
    }
    app.recorder.RecordLastItem("export.cancel");
    ImGui::EndPopup();
}

} // namespace

void DrawFileWindows(App& app) {
    // The dialog's field is reported only while a dialog is open: a test waiting for the next
    // dialog must not find the last one's rectangle.
    if (!app.file_dialog.IsOpen()) {
        app.recorder.rects.erase("file.path");
        app.recorder.rects.erase("file.path_typing");
    }
    FrameContext frame = Frame(app);
    DrawExportChoice(app);
    std::string path;
    if (app.file_dialog.Draw(frame, &path)) {
        if (const std::string error = CarryOut(app, path); error.empty()) {
            app.file_dialog.Close();
            app.file_task = FileTask::None;
        } else if (error.find('\n') != std::string::npos) {
            // A list (a lesson's every problem) is longer than the dialog's line for errors:
            // the dialog closes and the list scrolls in the message box, OK in view.
            app.file_dialog.Close();
            app.file_task = FileTask::None;
            app.notice = PrintableText(error);
        } else {
            app.file_dialog.Fail(PrintableLine(error));
        }
    }
    if (app.notice.empty()) return;
    if (!ImGui::IsPopupOpen(kNoticePopup)) ImGui::OpenPopup(kNoticePopup);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(ImGui::GetFontSize() * 32, viewport->Size.x), 0));
    if (ImGui::BeginPopupModal(kNoticePopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        KeepWindowInViewport();
        // A long message (a lesson's every problem) scrolls in a box of at most half the
        // window's height, so OK stays in view.
        const float wrap = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
        const float text_height = ImGui::CalcTextSize(app.notice.c_str(), nullptr, false, wrap).y +
                                  ImGui::GetStyle().WindowPadding.y * 2;
        ImGui::BeginChild("##notice_text",
                          ImVec2(0, std::min(text_height, viewport->Size.y * 0.5f)), false);
        ErrorText(frame, app.notice.c_str());
        ImGui::EndChild();
        app.recorder.RecordLastItem("notice.text");
        if (ImGui::Button("OK") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
            ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
            app.notice.clear();
            ImGui::CloseCurrentPopup();
        }
        app.recorder.RecordLastItem("notice.ok");
        ImGui::EndPopup();
    }
}

std::string ShippedLessonsFolder(const std::string& executable) {
    if (executable.empty()) return {};
    const fs::path bin = fs::path(executable).parent_path();
    // Installed (cmake --install): <prefix>/bin/pelab and <prefix>/share/pelab/lessons; built
    // in the source tree: <source>/build/bin/pelab and <source>/assets/lessons.
    for (const fs::path& folder :
         {bin / ".." / "share" / "pelab" / "lessons", bin / ".." / ".." / "assets" / "lessons"}) {
        std::error_code error;
        if (fs::is_directory(folder, error)) return fs::weakly_canonical(folder, error).string();
    }
    return {};
}

std::string RunningExecutable() {
#ifdef __EMSCRIPTEN__
    return {};
#else
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    return error ? std::string() : self.string();
#endif
}

} // namespace pelab
