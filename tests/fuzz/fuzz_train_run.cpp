// libFuzzer target: the training-run reader (a `pelab train` file opened with File → Open), then
// the Train panel showing what it accepted.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::TrainRunFile(data, size);
}
