#include "io/settings_file.h"

#include "io/json_input.h"
#include "pelab/base/error.h"
#include "pelab/export/export.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace pelab {

bool LooksLikeSettings(const std::string& text) {
    if (text.empty()) return true;
    if (text.find('\0') != std::string::npos) return false;
    bool header = false;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        start = end + 1;
        if (line.empty()) continue;
        if (line.front() == '[') {
            // "[Window][Name]", "[PELab][View]", "[Table][0x12345678,4]"
            const std::size_t middle = line.find("][");
            if (middle == std::string::npos || line.back() != ']') return false;
            header = true;
        } else if (line.find('=') == std::string::npos || !header) {
            return false; // a line before any section, or one that is not Key=Value
        }
    }
    return header;
}

SettingsFile::SettingsFile(std::string path) : path_(std::move(path)) {
    usable_ = !path_.empty();
}

std::string SettingsFile::Check(std::string* text) const {
    const std::string quoted = Excerpt(nlohmann::json(path_), 200);
    struct stat link_info {
    }, info{};
    if (::lstat(path_.c_str(), &link_info) != 0) {
        if (errno == ENOENT) return {}; // a first run: written at the end
        return quoted + ": " + std::strerror(errno);
    }
    // stat follows a symbolic link: its target is what would be read and replaced.
    if (::stat(path_.c_str(), &info) != 0)
        return quoted + " is a symbolic link to a file that does not exist";
    if (S_ISDIR(info.st_mode)) return quoted + " is a folder";
    if (!S_ISREG(info.st_mode))
        return quoted + " is not a regular file (a FIFO, a device or a socket)";
    if (static_cast<std::size_t>(info.st_size) > kMaxSettingsBytes)
        return quoted + " is larger than " + std::to_string(kMaxSettingsBytes / 1024) +
               " KiB, too large to be PE Lab's settings";
    std::string content;
    if (std::string error = ReadInputFile(path_, kMaxSettingsBytes, &content); !error.empty())
        return error;
    if (!LooksLikeSettings(content)) return quoted + " does not hold PE Lab settings";
    if (text) *text = std::move(content);
    return {};
}

bool SettingsFile::Load(std::string* text) {
    text->clear();
    if (path_.empty()) return false;
    const std::string why = Check(text);
    if (why.empty()) return true;
    usable_ = false;
    text->clear();
    warning_ = "leaving the settings file alone: " + why +
               "; this session runs on default settings and saves none";
    return false;
}

std::string SettingsFile::Save(const std::string& text) {
    if (!usable_) return warning_;
    if (std::string why = Check(nullptr); !why.empty()) {
        usable_ = false;
        warning_ = "leaving the settings file alone: " + why;
        return warning_;
    }
    try {
        write_file_atomically(path_, [&](std::ostream& out) { out << text; });
    } catch (const IoError& e) {
        return std::string("saving settings: ") + e.what();
    }
    return {};
}

} // namespace pelab
