// PE Lab entry point: parse the command line, then export, screenshot, or open the window.
#include "cli/cli.h"
#include "cli/cli_lesson.h"
#include "cli/cli_panels.h"
#include "gl/session.h"
#include "io/json_input.h"

#include <csignal>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <exception>
#include <iostream>
#include <new>

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    // A reader that went away (`pelab export pe … | head`) makes writes fail with EPIPE, which
    // the writers report with the file's name, instead of ending the process without a word.
    std::signal(SIGPIPE, SIG_IGN);
#ifdef M_TRIM_THRESHOLD
    // A training step allocates and frees the same few megabytes of matrices; glibc would hand
    // them back to the kernel and fault them in again each step (a tenth of a step's time).
    // Kept, up to these sizes, they are reused.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    try {
        const pelab::CommandLine command = pelab::ParseCommandLine(argc, argv);
        switch (command.command) {
        case pelab::Subcommand::Exit:
            // --help and --version print to stdout: a full disk or closed pipe is a failure.
            if (!(std::cout << std::flush)) {
                std::cerr << "pelab: writing to standard output failed\n";
                return pelab::kExitRuntimeFailure;
            }
            return command.exit_code;
        case pelab::Subcommand::ExportPe:
            return pelab::RunExportPe(command.export_pe);
        case pelab::Subcommand::ExportAttention:
            return pelab::RunExportAttention(command.export_attention);
        case pelab::Subcommand::Readouts:
            return pelab::RunReadouts(command.readouts);
        case pelab::Subcommand::Render:
            return pelab::RunRender(command.render);
        case pelab::Subcommand::LessonCheck:
            return pelab::RunLessonCheck(command.lesson);
        case pelab::Subcommand::LessonNotes:
            return pelab::RunLessonNotes(command.lesson);
        case pelab::Subcommand::LessonWidgets:
            return pelab::RunLessonWidgets(command.lesson);
        case pelab::Subcommand::LessonHandout:
            return pelab::RunLessonHandout(command.lesson);
        case pelab::Subcommand::Train:
            return pelab::RunTrain(command.train);
        case pelab::Subcommand::ModelInspect:
            return pelab::RunModelInspect(command.model);
        case pelab::Subcommand::ModelRun:
            return pelab::RunModelRun(command.model);
        case pelab::Subcommand::ModelTokenize:
            return pelab::RunModelTokenize(command.model);
        case pelab::Subcommand::RopeTable:
            return pelab::RunRopeTable(command.rope);
        case pelab::Subcommand::RopeCheck:
            return pelab::RunRopeCheck(command.rope);
        case pelab::Subcommand::Panels:
            return pelab::RunPanels(command.panels_json);
        case pelab::Subcommand::Screenshot:
            return pelab::RunScreenshot(command.screenshot);
        case pelab::Subcommand::Gui:
            return pelab::RunGui(command.gui);
        }
    } catch (const std::bad_alloc&) {
        // Out of memory on an input too large for this machine: what to do, exit 2.
        std::cerr << "pelab: not enough memory for this input on this machine (ask for less: "
                     "fewer tokens, switches or rows, or leave out --full)\n";
        return pelab::kExitBadUsage;
    } catch (const std::exception& e) {
        // Last line of defence: a message and exit 1, never an unexplained abort.
        std::cerr << "pelab: unexpected error: " << pelab::PrintableLine(e.what()) << "\n";
        return pelab::kExitRuntimeFailure;
    }
    return pelab::kExitOk;
}
