// libFuzzer target: a checkpoint (safetensors or .npy) opened and analysed as File → Open does.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::ModelFile(data, size);
}
