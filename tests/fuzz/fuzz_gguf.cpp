// libFuzzer target: a GGUF header and its metadata read as a config (pelab/models/gguf.h).
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::GgufHeader(data, size);
}
