// The bodies of the libFuzzer targets, shared with tests/corpus_test.cpp, which replays every
// saved input (tests/corpus/<target>/) in the normal test run. Each returns 0 and traps
// (__builtin_trap) on a broken promise; a crash or sanitizer report is a failure too.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pelab::fuzz {

int Scene(const std::uint8_t* data, std::size_t size);       ///< the scene parser
int PngScene(const std::uint8_t* data, std::size_t size);    ///< PNG text chunk, then the scene
int Tokenize(const std::uint8_t* data, std::size_t size);    ///< order demo tokenizer + demo
int CommandLine(const std::uint8_t* data, std::size_t size); ///< argv split at NUL bytes
int Lesson(const std::uint8_t* data, std::size_t size);      ///< the lesson reader, then its steps
int Quiz(const std::uint8_t* data, std::size_t size);        ///< the quiz reader, then its shows
int TrainRunFile(const std::uint8_t* data, std::size_t size); ///< a training run, then the panel

} // namespace pelab::fuzz
