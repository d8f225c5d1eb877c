// cli_lesson.h — `pelab lesson check|notes|widgets|handout`: a teacher's tools for lesson files
// at a terminal. The handout renders pictures, so it runs in gl/session.cpp; the rest is here.
#pragma once

#include "cli/cli.h"

#include <CLI/CLI.hpp>

#include <string>

namespace pelab {

struct LessonCommand {
    CLI::App* lesson = nullptr;
    CLI::App* check = nullptr;
    CLI::App* notes = nullptr;
    CLI::App* widgets = nullptr;
    CLI::App* handout = nullptr;
};

/// Adds `lesson` and its subcommands to app, filling options (and size_text for --size).
LessonCommand AddLessonCommand(CLI::App& app, LessonOptions& options, std::string& size_text);

/// After parsing the handout's options: "" or a one-line message naming the option (exit 2).
std::string CheckHandoutOptions(LessonOptions& options, const std::string& size_text);

/// `pelab lesson check FILE`: every problem of the lesson on stdout, one per line ("FILE: step
/// 3: field …"), then how many; exit 2 when there is any, 0 (and "FILE: N steps, no problems")
/// when there is none. The checks are those of opening it in the app.
int RunLessonCheck(const LessonOptions& options);
/// `pelab lesson notes FILE`: each step's caption and speaker notes as plain text, wrapped for
/// a terminal, for the presenter's laptop.
int RunLessonNotes(const LessonOptions& options);
/// `pelab lesson widgets [PANEL]`: the widget names a lesson may highlight, panel by panel
/// (with the panel's title), or only PANEL's, one per line.
int RunLessonWidgets(const LessonOptions& options);

} // namespace pelab
