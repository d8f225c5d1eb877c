// libFuzzer target: the command-line parser. The input is split at NUL bytes into arguments;
// parsing must end in a command or an exit code, never a crash. Nothing is run.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::CommandLine(data, size);
}
