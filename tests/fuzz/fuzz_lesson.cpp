// libFuzzer target: the lesson reader (format, steps, each step's scene checked where it
// applies). Any input must give "" or a one-line message, never a crash, a report, a hang or a
// leak; a refused lesson must leave the scene as it was.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::Lesson(data, size);
}
