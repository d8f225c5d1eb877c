// `pelab lesson …`: check a lesson, print its notes, list the widget names it may highlight, and
// the options of its handout (drawn in gl/session.cpp: it needs a GL context).
#include "cli/cli_lesson.h"

#include "cli/cli_checks.h"
#include "io/json_input.h"
#include "io/lesson.h"
#include "pelab/export/export.h"
#include "shell/app.h"
#include "shell/lesson_player.h"
#include "shell/step_fit.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace pelab {

namespace {

// A terminal's width for the notes: 78 characters, wrapped at spaces.
constexpr float kTerminalColumns = 78.0f;

float CodePoints(const std::string& text) {
    return static_cast<float>(CaptionCharacters(text)) +
           static_cast<float>(std::count(text.begin(), text.end(), '*'));
}

void PrintWrapped(std::ostream& out, const std::string& text, const char* indent) {
    for (const std::string& line :
         WrapAtSpaces(text, kTerminalColumns - 4, kTerminalColumns - 4, CodePoints))
        out << indent << line << "\n";
}

// Reads the file and checks it as the app does (from the app's defaults): every problem.
std::vector<std::string> ReadAndCheck(App& app, const std::string& path, Lesson* lesson) {
    JsonFile file;
    if (std::string error = ReadJsonFile(path, &file); !error.empty()) {
        // The file's name leads each line already: not twice.
        const std::string named = Excerpt(nlohmann::json(path), 200) + ": ";
        if (error.rfind(named, 0) == 0) error.erase(0, named.size());
        return {error};
    }
    if (file.png) return {"a PNG figure is a scene, not a lesson (open it with --scene)"};
    return CheckLesson(file.doc, app.scene, app.panels, LessonStart(app), lesson);
}

int LessonUsageError(const std::string& message) {
    std::cerr << "pelab: " << PrintableLine(message) << "\n";
    return kExitBadUsage;
}

} // namespace

LessonCommand AddLessonCommand(CLI::App& app, LessonOptions& options, std::string& size_text) {
    LessonCommand command;
    command.lesson = app.add_subcommand("lesson", "Check a lesson file, print its speaker notes, "
                                                  "list the widgets it may highlight, make a "
                                                  "handout");
    command.lesson->require_subcommand(1);
    command.check = command.lesson->add_subcommand(
        "check", "List every problem of a lesson file (exit 2 if there is any, 0 if none): the "
                 "checks of opening it in the app");
    command.notes = command.lesson->add_subcommand(
        "notes", "Print each step's caption and speaker notes, for the presenter's terminal");
    command.handout = command.lesson->add_subcommand(
        "handout", "One PNG per step (the slide without its bar) and index.html with the "
                   "captions and notes, ready to print");
    for (CLI::App* sub : {command.check, command.notes, command.handout})
        sub->add_option("file", options.file, "The lesson file (JSON)")
            ->check(FileName())
            ->required();
    command.widgets = command.lesson->add_subcommand(
        "widgets", "List the widget names a lesson step may highlight (all panels, or one)");
    // An empty name would read as no name and list every panel.
    for (CLI::App* sub : {command.check, command.handout})
        sub->add_option("--model", options.model,
                        "A checkpoint folder opened in the Your model panel first (a lesson "
                        "with needs_model runs on it)")
            ->check(FileName());
    command.widgets->add_option("panel", options.panel, "Only this panel's names")
        ->check(CLI::Validator(
            [](std::string& text) {
                return text.empty() ? std::string("needs a panel id (got nothing): pelab panels "
                                                  "lists them")
                                    : std::string();
            },
            "PANEL"));
    command.handout->add_option("--out", options.out, "The folder to write (created if missing)")
        ->check(FileName())
        ->required();
    command.handout->add_option("--theme", options.theme, "dark, light or high-contrast")
        ->capture_default_str();
    command.handout->add_option("--size", size_text, "Picture size WIDTHxHEIGHT")
        ->capture_default_str();
    command.handout
        ->add_flag("--notes", options.notes,
                   "Put the speaker notes in the page too (the teacher's copy; students' "
                   "handouts leave them out)")
        ->disable_flag_override();
    command.handout->add_option("--font-scale", options.font_scale, "Text size factor, 0.5 to 4")
        ->check(PlainNumber())
        ->check(CLI::Range(0.5f, 4.0f))
        ->capture_default_str();
    return command;
}

std::string CheckHandoutOptions(LessonOptions& options, const std::string& size_text) {
    if (std::string error = ParseSize(size_text, &options.width, &options.height); !error.empty())
        return error;
    ThemeId theme;
    if (!ThemeFromName(options.theme, &theme))
        return "--theme: must be one of " + ThemeNameList() + " (got " + Excerpt(options.theme) +
               ")";
    if (!(options.font_scale >= 0.5f && options.font_scale <= 4.0f))
        return "--font-scale: must be a number in [0.5, 4]";
    if (options.out == "-")
        return "--out: a handout is a folder of pictures and a page; it cannot go to standard "
               "output (name a folder)";
    // A link to nowhere: creating the folder would fail with a bare "File exists".
    if (std::string why = broken_link(options.out).message(); !why.empty()) return "--out: " + why;
    return "";
}

int RunLessonCheck(const LessonOptions& options) {
    App app;
    if (!options.model.empty())
        if (std::string error = app.OpenModel(options.model, true); !error.empty())
            return LessonUsageError("--model: " + error);
    Lesson lesson;
    std::vector<std::string> problems = ReadAndCheck(app, options.file, &lesson);
    if (problems.empty()) problems = LessonModelProblems(app, lesson);
    const std::string name = PrintableLine(options.file);
    if (problems.empty()) {
        // What does not stop the lesson but would surprise its teacher in front of the class.
        const std::vector<std::string> warnings = LessonWarnings(app, lesson);
        for (const std::string& warning : warnings)
            std::cout << name << ": warning: " << PrintableLine(warning) << "\n";
        std::cout << name << ": " << lesson.steps.size() << " steps, no problems";
        if (!warnings.empty())
            std::cout << ", " << warnings.size()
                      << (warnings.size() == 1 ? " warning" : " warnings");
        std::cout << "\n";
        return FlushStandardOutput();
    }
    for (const std::string& problem : problems)
        std::cout << name << ": " << PrintableLine(problem) << "\n";
    std::cout << name << ": " << problems.size()
              << (problems.size() == 1 ? " problem" : " problems") << "\n";
    std::cout.flush();
    return kExitBadUsage;
}

int RunLessonNotes(const LessonOptions& options) {
    App app;
    Lesson lesson;
    const std::vector<std::string> problems = ReadAndCheck(app, options.file, &lesson);
    if (!problems.empty())
        return LessonUsageError("lesson " + Excerpt(options.file, 200) + ": " + problems.front() +
                                " (pelab lesson check lists every problem)");
    // Escaped when printed as well as refused when read: nothing from a file reaches the
    // terminal raw.
    std::cout << PrintableText(lesson.title) << " (" << lesson.steps.size() << " steps)\n";
    for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
        const LessonStep& step = lesson.steps[k];
        const std::string presented = step.scene.value("presented_panel", std::string());
        std::cout << "\nStep " << k + 1 << " of " << lesson.steps.size()
                  << (presented.empty() ? "" : " (" + presented + ")") << "\n";
        std::string caption = step.caption;
        caption.erase(std::remove(caption.begin(), caption.end(), '*'), caption.end());
        PrintWrapped(std::cout, PrintableText(caption), "  ");
        if (step.notes.empty()) {
            std::cout << "  (no notes)\n";
        } else {
            std::cout << "  Notes:\n";
            PrintWrapped(std::cout, PrintableText(step.notes), "    ");
        }
    }
    return FlushStandardOutput();
}

int RunLessonWidgets(const LessonOptions& options) {
    const PanelInfo* only = options.panel.empty() ? nullptr : FindPanelInfo(options.panel);
    if (!options.panel.empty() && only == nullptr)
        return LessonUsageError("lesson widgets: unknown panel " + Excerpt(options.panel) +
                                "; known panels: " + PanelIdList());
    // One line per name: the name, then what its outline goes around, in a column.
    std::ostringstream out; // written at once: WriteStandardOutput names a failed write
    const auto print = [&out](const PanelInfo& info, const char* indent) {
        const std::vector<WidgetName> widgets = info.widgets();
        std::size_t width = 0;
        for (const WidgetName& widget : widgets)
            width = std::max(width, widget.name.size());
        for (const WidgetName& widget : widgets)
            out << indent << widget.name << std::string(width + 2 - widget.name.size(), ' ')
                << widget.what << "\n";
    };
    if (only != nullptr) {
        print(*only, "");
    } else {
        for (const PanelInfo& info : PanelInfos()) {
            out << info.id << " (" << info.title << ")\n";
            print(info, "  ");
        }
    }
    if (options.panel.empty())
        out << "\n<i> stands for a number (clocks.summary_pair_<i>: clocks.summary_pair_0, "
               "the summary face of pair 0; it must be one the step's scene draws). "
               "A step highlights only widgets of the panels it shows.\n";
    return WriteStandardOutput(out.str());
}

} // namespace pelab
