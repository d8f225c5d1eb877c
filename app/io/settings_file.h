// settings_file.h — the file PE Lab keeps its layout and view settings in
// ($XDG_CONFIG_HOME/pelab/imgui.ini), read and written by PE Lab itself rather than by ImGui
// (io.IniFilename stays null), so that nothing at that path can freeze, truncate or destroy
// anything:
//   - only a regular file of at most kMaxSettingsBytes that is empty or already holds ImGui /
//     PE Lab settings is read and written; a symbolic link to such a file is followed and its
//     target replaced atomically (dotfile setups keep working);
//   - a FIFO, a device, a folder, a dangling link, a larger file or one that holds anything
//     else is left untouched: one warning line, and the session runs on defaults;
//   - writing is atomic (pelab/export/export.h): a full disk leaves the old file as it was.
// Nothing here blocks: the path is examined with stat before any open.
#pragma once

#include <cstddef>
#include <string>

namespace pelab {

constexpr std::size_t kMaxSettingsBytes = 1u << 20;

/// True when text is empty or reads as ImGui settings: "[Type][Name]" section headers and
/// "Key=Value" lines (blank lines allowed), with at least one header.
bool LooksLikeSettings(const std::string& text);

class SettingsFile {
public:
    /// path: where the settings live ("" = nowhere: nothing is read or written).
    explicit SettingsFile(std::string path);

    /// Reads the settings into *text ("" when there is no file yet). Returns false, with
    /// Warning() saying why in one line, when the file must be left alone; the session then
    /// runs on defaults and Save() writes nothing.
    bool Load(std::string* text);
    /// Writes text atomically, if the path may be written (checked again now: the file may have
    /// changed since Load). Returns "" or why not.
    std::string Save(const std::string& text);

    const std::string& Path() const { return path_; }
    const std::string& Warning() const { return warning_; }
    bool Usable() const { return usable_; }

private:
    /// "" when path_ may be read and written, else why not (one line, for the warning).
    std::string Check(std::string* text) const;

    std::string path_;
    std::string warning_;
    bool usable_ = true;
};

} // namespace pelab
