// Where the tests find the source tree and the pelab binary: found at run time (CTest sets
// PELAB_SOURCE_DIR in each test's environment, tests/CMakeLists.txt; pelab sits beside the test
// program), not compiled in, so that a test object is the same in every clone and a compiler cache
// can reuse it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace pelab_test {

/// The value of an environment variable that a test cannot run without; ends the program with
/// a message naming it when it is missing (the test binary was run outside CTest).
inline const char* RequiredEnvironment(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        std::fprintf(stderr,
                     "%s is not set: run the tests through ctest, or set it by hand "
                     "(PELAB_SOURCE_DIR: the source tree)\n",
                     name);
        std::exit(2);
    }
    return value;
}

/// The source tree (the folder holding assets/, docs/ and tests/).
inline const char* SourceDir() {
    return RequiredEnvironment("PELAB_SOURCE_DIR");
}

/// The pelab binary under test: PELAB_BINARY when set, otherwise the pelab beside this test
/// program (the build puts every program in its bin/ folder).
inline const char* PelabBinary() {
    static const std::string binary = [] {
        const char* value = std::getenv("PELAB_BINARY");
        if (value != nullptr && *value != '\0') return std::string(value);
        return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "pelab").string();
    }();
    return binary.c_str();
}

} // namespace pelab_test
