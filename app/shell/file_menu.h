// file_menu.h — the File menu and what it does: open a scene, a PNG figure or a lesson (by what
// the file holds, so a dropped file or a recent one opens the same way), save the scene, export
// a panel as a PNG that reopens as its scene, export a panel's table as CSV, and the recent files
// kept with the settings.
#pragma once

#include <string>
#include <vector>

namespace pelab {

struct App;
struct ViewSettings;

/// What the file dialog was opened for.
enum class FileTask { None, Open, SaveScene, OpenLesson, ExportPng, ExportCsv };

constexpr std::size_t kMaxRecentFiles = 10;

/// Opens path by its contents: a PNG written by PE Lab or a scene (the scene, all or nothing;
/// any lesson ends), or a lesson (JSON with "steps": it starts). Returns "" or why not, with
/// nothing changed; a file that opened goes to the top of the recent files. only_lesson (File →
/// Open lesson…) refuses anything but a lesson. The file is read and parsed once.
std::string OpenFile(App& app, const std::string& path, bool only_lesson = false);
/// Writes the current scene to path as JSON (atomically); "" or why not.
std::string SaveSceneFile(App& app, const std::string& path);
/// Writes the panel's table (Panel::TableCsv) to path; "" or why not.
std::string ExportTableCsv(App& app, const std::string& panel_id, const std::string& path);
/// Puts path (made absolute) first in the recent files, without duplicates, at most
/// kMaxRecentFiles.
void AddRecentFile(ViewSettings& view, const std::string& path);

/// Where the lessons shipped with PE Lab are, from the path of the running program: beside an
/// installed one (<prefix>/share/pelab/lessons) or in the source tree of a built one
/// (<source>/assets/lessons); "" when neither is a folder. File → Open lesson… starts there.
std::string ShippedLessonsFolder(const std::string& executable);
/// The running program's path (Linux: /proc/self/exe); "" where there is none (the browser).
std::string RunningExecutable();

/// The panel the export items act on: the presented one, else the last one clicked or typed in,
/// else the first open one; "" when none is open.
std::string ExportPanel(const App& app);
/// Starts a task: opens the file dialog for it (panel_id for the exports).
void BeginFileTask(App& app, FileTask task, const std::string& panel_id = {});
/// The File menu's items (between BeginMenu("File") and EndMenu).
void DrawFileMenuItems(App& app);
/// The file dialog, and the message of a file that could not be used (a modal with OK).
void DrawFileWindows(App& app);

} // namespace pelab
