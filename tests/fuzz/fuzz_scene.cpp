// libFuzzer target: the scene parser (every field of the scene table, all or nothing). Any input
// must give "" or a one-line message, never a crash, a sanitizer report, a hang or a leak.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::Scene(data, size);
}
