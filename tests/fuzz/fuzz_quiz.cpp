// libFuzzer target: the quiz reader (questions, cards, teach-back rubric, each show checked
// against the scene table), then every show applied as a reveal applies it.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::Quiz(data, size);
}
