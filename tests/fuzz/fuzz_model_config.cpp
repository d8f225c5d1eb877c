// libFuzzer target: config.json's position settings (pelab/models/model_config.h).
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::ModelConfigFile(data, size);
}
