// libFuzzer target: the order demo's tokenizer and UTF-8 checker, and the demo itself on what
// it accepts (sentence A = the input, sentence B = the input reversed word by word).
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return pelab::fuzz::Tokenize(data, size);
}
