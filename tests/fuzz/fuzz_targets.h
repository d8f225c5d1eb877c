// The bodies of the libFuzzer targets, shared with tests/corpus_test.cpp, which replays every
// saved input (tests/corpus/<target>/) in the normal test run. Each returns 0 and traps
// (__builtin_trap) on a broken promise; a crash or sanitizer report is a failure too.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pelab::fuzz {

int Scene(const std::uint8_t* data, std::size_t size);        ///< the scene parser
int PngScene(const std::uint8_t* data, std::size_t size);     ///< PNG text chunk, then the scene
int Tokenize(const std::uint8_t* data, std::size_t size);     ///< order demo tokenizer + demo
int CommandLine(const std::uint8_t* data, std::size_t size);  ///< argv split at NUL bytes
int Lesson(const std::uint8_t* data, std::size_t size);       ///< the lesson reader, then its steps
int Quiz(const std::uint8_t* data, std::size_t size);         ///< the quiz reader, then its shows
int TrainRunFile(const std::uint8_t* data, std::size_t size); ///< a training run, then the panel
/// A checkpoint's bytes (safetensors or .npy, decided by its content) opened as File → Open does,
/// then every number of `model inspect` computed.
int ModelFile(const std::uint8_t* data, std::size_t size);
int ModelConfigFile(const std::uint8_t* data, std::size_t size); ///< config.json's reader
/// A GGUF header parsed in memory, then its metadata read as a config (pelab/models/gguf.h).
int GgufHeader(const std::uint8_t* data, std::size_t size);

/// Every value of doc below its root (object members and list items, at any depth), as JSON
/// pointers in document order, at most `limit` of them: the places the typed-value mutations
/// replace, and the places a test puts every other type into.
std::vector<nlohmann::json::json_pointer> ValuePointers(const nlohmann::json& doc,
                                                        std::size_t limit);

} // namespace pelab::fuzz
