// chooser_process.h — the desktop's own file chooser (zenity or kdialog) as a child process:
// started in a process group of its own with its standard output on a pipe, polled each frame
// without blocking, and ended (with whatever it started) when the user cancels or the app quits.
// What the chooser is asked and what its answer means is file_dialog.h's.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace pelab {

class ChooserProcess {
public:
    ChooserProcess() = default;
    ~ChooserProcess();
    ChooserProcess(const ChooserProcess&) = delete;
    ChooserProcess& operator=(const ChooserProcess&) = delete;

    /// Starts args[0] (looked up on PATH) with args. Empty on success, else why it could not
    /// start. A running chooser is stopped first.
    std::string Start(const std::vector<std::string>& args);
    /// The chooser was started and has not been seen to exit.
    bool Running() const { return pid_ > 0; }
    /// Reads what the chooser printed so far (at most 64 KiB is kept); once it has exited,
    /// returns true and its wait status in *status (-1 when it could not be waited for).
    bool Poll(int* status);
    /// Ends it: SIGTERM to its process group, SIGKILL after 0.2 s if it is still there, so that a
    /// chooser that ignores SIGTERM cannot freeze the window. Nothing when none runs.
    void Stop();
    /// What the chooser printed (its answer, once Poll returned true).
    const std::string& Output() const { return output_; }

private:
    void Read();

    pid_t pid_ = -1;
    int pipe_ = -1;
    std::string output_;
};

/// Whether program is an executable file in one of the folders of $PATH.
bool OnPath(const std::string& program);

} // namespace pelab
