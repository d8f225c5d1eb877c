#include "shell/chooser_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ; // the environment the chooser inherits

namespace pelab {

namespace {
constexpr std::size_t kMaxChooserOutput = 64 * 1024;
} // namespace

ChooserProcess::~ChooserProcess() {
    Stop();
}

std::string ChooserProcess::Start(const std::vector<std::string>& args) {
    Stop();
    output_.clear();
    if (args.empty()) return "no program to start";
    std::vector<std::string> owned = args;
    std::vector<char*> argv;
    for (std::string& arg : owned)
        argv.push_back(arg.data());
    argv.push_back(nullptr);

    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return std::strerror(errno);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    // Its own process group, so that Stop ends the chooser and anything it started.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid = -1;
#ifdef __EMSCRIPTEN__
    const int spawned = ENOSYS; // a page starts no programs (ChooserName says "browser" there)
#else
    const int spawned =
        posix_spawnp(&pid, owned[0].c_str(), &actions, &attributes, argv.data(), environ);
#endif
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    if (spawned != 0) {
        ::close(pipe_fds[0]);
        return std::strerror(spawned);
    }
    ::fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
    pid_ = pid;
    pipe_ = pipe_fds[0];
    return {};
}

void ChooserProcess::Read() {
    char buffer[4096];
    for (;;) {
        const ssize_t got = ::read(pipe_, buffer, sizeof buffer);
        if (got > 0) {
            if (output_.size() < kMaxChooserOutput)
                output_.append(buffer, static_cast<std::size_t>(got));
            continue;
        }
        if (got < 0 && errno == EINTR) continue;
        break;
    }
}

bool ChooserProcess::Poll(int* status) {
    if (pid_ <= 0) return false;
    Read();
    const pid_t done = ::waitpid(pid_, status, WNOHANG);
    if (done == 0) return false;
    if (done < 0) *status = -1;
    // Whatever it wrote before exiting is in the pipe still.
    Read();
    ::close(pipe_);
    pipe_ = -1;
    pid_ = -1;
    return true;
}

void ChooserProcess::Stop() {
    if (pid_ > 0) {
        ::kill(-pid_, SIGTERM);
        int status = 0;
        bool gone = false;
        for (int k = 0; k < 20 && !gone; ++k) {
            gone = ::waitpid(pid_, &status, WNOHANG) != 0;
            if (!gone) ::usleep(10000);
        }
        if (!gone) {
            ::kill(-pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
        }
    }
    if (pipe_ >= 0) ::close(pipe_);
    pid_ = -1;
    pipe_ = -1;
}

bool OnPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::string list = path;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t end = std::min(list.find(':', start), list.size());
        const std::string folder = list.substr(start, end - start);
        if (!folder.empty() && ::access((folder + "/" + program).c_str(), X_OK) == 0) return true;
        start = end + 1;
    }
    return false;
}

} // namespace pelab
