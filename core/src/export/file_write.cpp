// Files written whole or not at all, through a temporary in the same folder
// (pelab/export/export.h).
#include "pelab/export/export.h"

#include "base/format.h"
#include "pelab/base/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <streambuf>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace pelab {

using detail::concat;

namespace {

std::string folder_of(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// A symbolic link is followed, so that the link stays a link and its target is replaced.
std::string resolve_links(const std::string& path) {
    char resolved[PATH_MAX];
    struct stat link_info {};
    if (::lstat(path.c_str(), &link_info) == 0 && S_ISLNK(link_info.st_mode) &&
        ::realpath(path.c_str(), resolved))
        return resolved;
    return path;
}

// An output stream buffer over a file descriptor that keeps the cause of the first write(2)
// that failed: a stream only knows that it failed, and errno may have changed by the time
// anyone asks, so "No space left on device" became "write failed (disk full?)".
class DescriptorBuffer : public std::streambuf {
public:
    explicit DescriptorBuffer(int descriptor) : descriptor_(descriptor) {
        setp(buffer_.data(), buffer_.data() + buffer_.size());
    }
    /// 0, or the errno of the first write that failed.
    int Error() const { return error_; }

protected:
    int_type overflow(int_type c) override {
        if (!Drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return Drain() ? 0 : -1; }

private:
    bool Drain() {
        const char* at = pbase();
        while (error_ == 0 && at < pptr()) {
            const ssize_t wrote = ::write(descriptor_, at, static_cast<std::size_t>(pptr() - at));
            if (wrote < 0 && errno == EINTR) continue;
            if (wrote <= 0)
                error_ = wrote < 0 ? errno : EIO;
            else
                at += wrote;
        }
        setp(buffer_.data(), buffer_.data() + buffer_.size());
        return error_ == 0;
    }

    int descriptor_;
    int error_ = 0;
    std::array<char, 1 << 16> buffer_{};
};

} // namespace

void write_to_descriptor(int descriptor, const std::string& name,
                         const std::function<void(std::ostream&)>& writer) {
    DescriptorBuffer buffer(descriptor);
    std::ostream out(&buffer);
    const auto failed = [&](const std::string& why) {
        return IoError(concat("cannot write ", name, ": ", why));
    };
    try {
        writer(out);
    } catch (const IoError& e) {
        // A write that failed is the cause, whatever the writer made of it ("writing failed").
        if (buffer.Error() != 0) throw failed(std::strerror(buffer.Error()));
        const std::string message = e.what();
        if (message.find(name) != std::string::npos) throw;
        throw failed(message);
    }
    out.flush();
    if (buffer.Error() != 0) throw failed(std::strerror(buffer.Error()));
    if (!out) throw failed("the write failed");
}

namespace {

// write_to_descriptor for a file of ours: the name in messages is the quoted path.
void run_writer(int descriptor, const std::string& path,
                const std::function<void(std::ostream&)>& writer) {
    write_to_descriptor(descriptor, concat("\"", path, "\""), writer);
}

} // namespace

// "" or why a symbolic link cannot be written through (it points nowhere, or in a loop): writing
// would otherwise replace the link itself with a regular file.
Status broken_link(const std::string& path) {
    struct stat link_info {
    }, info{};
    if (::lstat(path.c_str(), &link_info) != 0 || !S_ISLNK(link_info.st_mode)) return {};
    if (::stat(path.c_str(), &info) == 0) return {};
    return concat("cannot write \"", path, "\": it is a symbolic link to ",
                  errno == ELOOP ? "itself (a loop)" : "a file that does not exist");
}

Status check_writable(const std::string& path) {
    if (path.empty()) return "output path is empty";
    if (Status why = broken_link(path); !why.ok()) return why;
    const std::string target = resolve_links(path);
    struct stat info {};
    if (::stat(target.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode)) return concat("cannot write \"", path, "\": it is a folder");
        if (!S_ISREG(info.st_mode)) // a device or FIFO is written in place
            return ::access(target.c_str(), W_OK) == 0
                       ? std::string()
                       : concat("cannot write \"", path, "\": ", std::strerror(errno));
    }
    const std::string folder = folder_of(target);
    struct stat folder_info {};
    if (::stat(folder.c_str(), &folder_info) != 0)
        return errno == ENOENT
                   ? concat("cannot write \"", path, "\": folder \"", folder, "\" does not exist")
                   : concat("cannot write \"", path, "\": folder \"", folder,
                            "\": ", std::strerror(errno));
    if (!S_ISDIR(folder_info.st_mode))
        return concat("cannot write \"", path, "\": \"", folder, "\" is a file, not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        return concat("cannot write \"", path, "\": folder \"", folder, "\" is not writable");
    return {};
}

namespace {

// The temporary file being written, for the signal handler: a signal that would end the
// process during a long export removes it first, then ends the process as the signal would
// have. Static storage because a signal handler can reach nothing else; one write is in
// progress at a time.
char g_temporary_path[PATH_MAX + 1];
volatile std::sig_atomic_t g_has_temporary = 0;

extern "C" void remove_temporary_and_reraise(int signal_number) {
    if (g_has_temporary) ::unlink(g_temporary_path);
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

// Every catchable signal whose default action ends the process, except the crashes (SIGSEGV,
// SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT: the sanitizers report those, and the unnamed
// temporary file below leaves nothing behind anyway), plus the real-time signals.
std::vector<int> TerminatingSignals() {
    std::vector<int> signals = {SIGHUP,  SIGINT,  SIGQUIT, SIGPIPE,  SIGALRM,   SIGTERM,
                                SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ,  SIGVTALRM, SIGPROF,
                                SIGIO,   SIGPWR,  SIGSYS,  SIGSTKFLT};
    for (int real_time = SIGRTMIN; real_time <= SIGRTMAX; ++real_time)
        signals.push_back(real_time);
    return signals;
}

// Installs the handler for the lifetime of one named temporary file (a handler the program set
// itself, or SIG_IGN, is kept: only default actions would end the process).
class TemporaryFileGuard {
public:
    explicit TemporaryFileGuard(const std::string& path) {
        if (path.size() > PATH_MAX) return;
        std::memcpy(g_temporary_path, path.c_str(), path.size() + 1);
        g_has_temporary = 1;
        struct sigaction action {};
        action.sa_handler = remove_temporary_and_reraise;
        sigemptyset(&action.sa_mask);
        for (const int signal_number : TerminatingSignals()) {
            struct sigaction previous {};
            if (sigaction(signal_number, nullptr, &previous) != 0 ||
                previous.sa_handler != SIG_DFL || (previous.sa_flags & SA_SIGINFO))
                continue;
            if (sigaction(signal_number, &action, nullptr) == 0) replaced_.push_back(signal_number);
        }
    }
    ~TemporaryFileGuard() {
        for (const int signal_number : replaced_)
            std::signal(signal_number, SIG_DFL);
        g_has_temporary = 0;
    }
    TemporaryFileGuard(const TemporaryFileGuard&) = delete;
    TemporaryFileGuard& operator=(const TemporaryFileGuard&) = delete;

private:
    std::vector<int> replaced_;
};

// The permissions of the file written: the replaced file's, or what a plain create gives.
mode_t NewFileMode(bool exists, const struct stat& existing) {
#ifdef __EMSCRIPTEN__
    const mode_t mask = 022; // the browser edition's umask() is a stub that answers 0777
#else
    const mode_t mask = umask(0);
    umask(mask);
#endif
    return exists ? (existing.st_mode & 07777) : (0666 & ~mask);
}

// Removes the temporary files that writers which no longer run left in folder: the
// ".pelab-<pid>-<n>" names below exist only between linkat and rename, so one is left only when
// its process was killed in between (about one in a thousand kills during a write). Only
// regular files of this user whose process is gone are removed.
void RemoveStaleTemporaries(const std::string& folder) {
    DIR* listing = ::opendir(folder.c_str());
    if (listing == nullptr) return;
    while (const dirent* entry = ::readdir(listing)) {
        // Exactly the names written below: a pid and an attempt (0 to 99), each in plain
        // digits without a leading zero, the pid at most 4194304 (Linux's largest pid_max).
        const std::string name = entry->d_name;
        if (name.rfind(".pelab-", 0) != 0) continue;
        const std::size_t dash = name.find('-', 7);
        if (dash == std::string::npos || dash == 7 || dash > 7 + 7 || dash + 1 == name.size() ||
            name.size() - dash - 1 > 2 || name.find_first_not_of("0123456789", 7) != dash ||
            name.find_first_not_of("0123456789", dash + 1) != std::string::npos || name[7] == '0' ||
            (name[dash + 1] == '0' && name.size() - dash - 1 > 1))
            continue;
        long long pid = 0;
        if (std::from_chars(name.data() + 7, name.data() + dash, pid).ec != std::errc() ||
            pid <= 0 || pid > 4194304 || pid == ::getpid())
            continue;
        if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue; // still there
        const std::string path = concat(folder, "/", name);
        struct stat info {};
        if (::lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
            info.st_uid == ::geteuid())
            ::unlink(path.c_str());
    }
    ::closedir(listing);
}

// Writes through an unnamed temporary file (O_TMPFILE) in the target's folder: until it is
// complete it has no name, so SIGKILL or a power cut leaves nothing behind. Then it is linked
// under a short temporary name and renamed over the target (the only moment a name exists).
// Returns false, having written nothing, when the file system does not offer O_TMPFILE.
bool WriteThroughUnnamedFile(const std::string& path, const std::string& target, mode_t mode,
                             const std::function<void(std::ostream&)>& writer) {
    // The browser edition's file system lives in memory and has no link(): a named temporary
    // file is as safe there.
#if defined(O_TMPFILE) && !defined(__EMSCRIPTEN__)
    // linkat names the unnamed file through /proc: without /proc, the named temporary instead.
    if (::access("/proc/self/fd", X_OK) != 0) return false;
    const std::string folder = folder_of(target);
    const int descriptor = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    if (descriptor < 0) return false;
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{descriptor};
    fchmod(descriptor, mode);
    run_writer(descriptor, path, writer);
    fsync(descriptor);
    // linkat needs the unnamed file by a path: /proc's link to the descriptor.
    const std::string self = "/proc/self/fd/" + std::to_string(descriptor);
    RemoveStaleTemporaries(folder);
    // A name next to the target, unique among concurrent writers.
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string temporary = concat(folder, "/.pelab-", ::getpid(), "-", attempt);
        const TemporaryFileGuard guard(temporary);
        if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temporary.c_str(), AT_SYMLINK_FOLLOW) != 0) {
            if (errno == EEXIST) continue;
            throw IoError(concat("cannot write \"", path, "\": ", std::strerror(errno)));
        }
        // The test hook of the leftover temporary (Cli.AStaleTemporaryIsRemovedByTheNextWrite):
        // stop here, where a kill would leave the linked name behind.
        if (std::getenv("PELAB_TEST_STOP_BEFORE_RENAME") != nullptr) ::raise(SIGSTOP);
        if (std::rename(temporary.c_str(), target.c_str()) != 0) {
            const int cause = errno;
            ::unlink(temporary.c_str());
            throw IoError(concat("cannot write \"", path, "\": ", std::strerror(cause)));
        }
        return true;
    }
    throw IoError(concat("cannot write \"", path, "\": no free temporary name in its folder"));
#else
    static_cast<void>(path), static_cast<void>(target), static_cast<void>(mode);
    static_cast<void>(writer);
    return false;
#endif
}

// Writes a complete new file and renames it to target (path is the name for messages).
void ReplaceFile(const std::string& path, const std::string& target, mode_t mode,
                 const std::function<void(std::ostream&)>& writer) {
    if (WriteThroughUnnamedFile(path, target, mode, writer)) return;
    // No O_TMPFILE here: a short temporary name in the same folder (same filesystem, so rename
    // is atomic), removed by the signal handler if the process is told to end meanwhile.
    std::string temporary = folder_of(target) + "/.pelab-XXXXXX";
    const int descriptor = mkstemp(temporary.data());
    if (descriptor < 0)
        throw IoError(concat("cannot write \"", path, "\": ", std::strerror(errno)));
    fchmod(descriptor, mode);
    const TemporaryFileGuard guard(temporary);
    bool open = true;
    try {
        run_writer(descriptor, path, writer);
        fsync(descriptor);
        open = false;
        if (::close(descriptor) != 0)
            throw IoError(concat("cannot write \"", path, "\": ", std::strerror(errno)));
        if (std::rename(temporary.c_str(), target.c_str()) != 0)
            throw IoError(concat("cannot write \"", path, "\": ", std::strerror(errno)));
    } catch (...) {
        if (open) ::close(descriptor);
        std::remove(temporary.c_str());
        throw;
    }
}

// ExistingName::kReplace: the name itself is replaced (rename() replaces a link, not its target).
void ReplaceOwnName(const std::string& path, const std::function<void(std::ostream&)>& writer) {
    struct stat found {};
    const bool present = ::lstat(path.c_str(), &found) == 0;
    if (present && S_ISDIR(found.st_mode))
        throw IoError(concat("cannot write \"", path, "\": it is a folder"));
    if (present && !S_ISREG(found.st_mode) && !S_ISLNK(found.st_mode))
        throw IoError(concat("cannot write \"", path,
                             "\": a FIFO, device or socket has that name, and PE Lab does not "
                             "write through one it did not make (remove it and try again)"));
    const bool regular = present && S_ISREG(found.st_mode);
    ReplaceFile(path, path, NewFileMode(regular, found), writer);
}

} // namespace

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& writer,
                           ExistingName existing_name) {
    if (path.empty()) throw IoError("output path is empty");
    if (existing_name == ExistingName::kReplace) {
        ReplaceOwnName(path, writer);
        return;
    }
    if (Status why = broken_link(path); !why.ok()) throw IoError(why.message());
    const std::string target = resolve_links(path);
    struct stat existing {};
    const bool exists = ::stat(target.c_str(), &existing) == 0;
    if (exists && S_ISDIR(existing.st_mode))
        throw IoError(concat("cannot write \"", path, "\": it is a folder"));
    if (exists && !S_ISREG(existing.st_mode)) {
        // /dev/null, /dev/full, a FIFO, a terminal: write in place. Renaming a temporary file
        // over one would replace the device node itself (as root it can).
        const int descriptor = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
        if (descriptor < 0)
            throw IoError(concat("cannot write \"", path, "\": ", std::strerror(errno)));
        struct Closer {
            int fd;
            ~Closer() { ::close(fd); }
        } closer{descriptor};
        run_writer(descriptor, path, writer);
        return;
    }
    ReplaceFile(path, target, NewFileMode(exists, existing), writer);
}

} // namespace pelab
