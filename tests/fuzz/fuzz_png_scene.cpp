// libFuzzer target: the PNG text-chunk reader behind `--scene FIGURE.png`, then the scene parser
// on whatever text it finds.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::PngScene(data, size);
}
