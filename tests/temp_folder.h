// A folder of its own for one test, removed with everything in it when the test ends.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

struct TempFolder {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("pelab_files_" + std::to_string(::getpid()) + "_" +
                                  std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    TempFolder() { std::filesystem::create_directories(path); }
    ~TempFolder() { std::filesystem::remove_all(path); }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    /// Writes text (any bytes) to name in the folder; returns its path.
    std::string Write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name, std::ios::binary) << text;
        return (path / name).string();
    }
};
