// pelab/models/gguf.h — GGUF, the file format of llama.cpp, Ollama and LM Studio: its header,
// typed metadata and tensor table, ggml's block-quantized tensor types widened to float, and the
// metadata read as the settings of a config.json.
//
// The format (docs/gguf.md of the ggml repository): the magic "GGUF"; a little-endian uint32
// version (2 or 3 read; 1 and a big-endian file are named and refused); uint64 tensor and
// key/value counts; the key/value pairs (a string key — uint64 length, bytes — a uint32 value
// type and the value: u8 i8 u16 i16 u32 i32 f32 bool string array u64 i64 f64, an array being an
// element type, a uint64 count and the elements); the tensor infos (name, uint32 n_dims, n_dims
// uint64 extents innermost first — ne[0] is the number of columns, so a [out, in] weight is
// written (in, out) —, uint32 ggml type, uint64 offset into the data section); padding to
// general.alignment (a power of two, default 32); the data section.
//
// Contracts: the parser never trusts a count or a length: each is checked against the limits
// below and against the bytes the file still holds before anything is allocated; nothing
// throws for a malformed file; every message names what is wrong ("key 12 (\"llama.rope…\"):
// string of 9 GiB past the end of the file").
#pragma once

#include "pelab/base/status.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pelab {

/// Most key/value pairs, most elements of one array, longest key and string, deepest nesting of
/// arrays, most dimensions of a tensor (ggml's GGML_MAX_DIMS) read from a GGUF file.
constexpr std::uint64_t kMaxGgufKeys = 1u << 16;
constexpr std::uint64_t kMaxGgufArrayElements = 1u << 24;
constexpr std::uint64_t kMaxGgufKeyBytes = 1u << 16;
constexpr std::uint64_t kMaxGgufStringBytes = 64u << 20;
constexpr int kMaxGgufArrayDepth = 3;
constexpr int kMaxGgufDims = 4;
/// Array elements kept for showing and mapping (longer arrays — a tokenizer's 128 256 tokens and
/// 280 147 merges — are checked, counted and skipped).
constexpr std::uint64_t kMaxGgufKeptNumbers = 1u << 20;
constexpr std::uint64_t kMaxGgufKeptStrings = 4096;

enum class GgufValueType : std::uint32_t {
    U8 = 0,
    I8 = 1,
    U16 = 2,
    I16 = 3,
    U32 = 4,
    I32 = 5,
    F32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    U64 = 10,
    I64 = 11,
    F64 = 12
};
const char* gguf_value_type_name(GgufValueType type); ///< "u32", "string", "array", …

/// One metadata value. Numbers (every integer type, f32, f64, bool) are held as a double — GGUF's
/// counts and lengths are far below 2⁵³ — and integers also exactly.
struct GgufValue {
    GgufValueType type = GgufValueType::U8;
    double number = 0;
    std::int64_t integer = 0; ///< integers and bools (a u64 above 2⁶³ − 1: see unsigned_value)
    std::uint64_t unsigned_value = 0; ///< a u64's value, exactly
    std::string text;                 ///< strings
    // Arrays: the element type, how many, and the elements when kept (see the limits above);
    // an array of arrays keeps its elements' counts only.
    GgufValueType element = GgufValueType::U8;
    std::uint64_t count = 0;
    bool kept = false;
    std::vector<double> numbers;
    std::vector<std::string> strings;

    bool IsNumber() const; ///< a scalar integer, float or bool
    bool IsNumberArray() const;
};

/// ggml's tensor types (ggml.h's enum ggml_type). Ids not listed are "type N".
struct GgmlType {
    int id = -1;
    const char* name = "";   ///< "Q4_K"
    std::uint32_t block = 0; ///< elements per block (1 for the plain types)
    std::uint32_t bytes = 0; ///< bytes per block
    bool readable = false;   ///< widened to float by DequantizeBlocks
    const char* about = "";  ///< what it is, for the views' notes
};
/// The type with this id, or nullptr for an id ggml does not define (or no longer reads).
const GgmlType* ggml_type_of(int id);
/// Widens `blocks` whole blocks of a readable type to floats, exactly as ggml's reference
/// dequantize_row_* functions compute them (float32 arithmetic, the same order of operations).
void dequantize_blocks(const GgmlType& type, const unsigned char* bytes, std::uint64_t blocks,
                       float* out);

struct GgufTensor {
    std::string name;
    std::vector<std::uint64_t> ne; ///< extents, innermost first (ne[0]: the columns)
    int type_id = 0;
    const GgmlType* type = nullptr;   ///< nullptr: an id ggml does not define
    std::uint64_t offset = 0;         ///< from the data section's start
    std::uint64_t begin = 0, end = 0; ///< the data's bytes within the file (absolute)
    std::uint64_t Elements() const;
};

/// A parsed header: what the file says, and where its data lies.
struct GgufFile {
    std::uint32_t version = 0;
    std::vector<std::pair<std::string, GgufValue>> metadata; ///< in the file's order
    std::vector<GgufTensor> tensors;                         ///< in the file's order
    std::uint64_t alignment = 32;
    std::uint64_t data_start = 0; ///< the data section's first byte
    std::uint64_t header_bytes = 0;

    const GgufValue* Find(const std::string& key) const;
    /// The string value of key, or "" when absent or not a string.
    std::string Text(const std::string& key) const;
};

/// Reads `count` bytes at `offset` into out; ok, or why not (the file ended, a read error).
using GgufReadAt = std::function<Status(std::uint64_t offset, std::size_t count, void* out)>;

/// Parses a GGUF file of file_size bytes through read_at (buffered: the header is read in 1 MiB
/// pieces, never whole). The tensors' sizes must match their types and extents, their data must
/// lie in the file, aligned and without overlap; a tensor of an unknown type id is kept (its
/// size is then up to the next tensor's offset, or the file's end) and never read. ok or a
/// message (without the file name).
Status ParseGguf(const GgufReadAt& read_at, std::uint64_t file_size, GgufFile* out);

/// What llama.cpp does to a model's rotary pairs, per architecture (general.architecture):
/// llama_model_rope_type() of src/llama-model.cpp (ggml-org/llama.cpp 00342301) says whether it
/// rotates pairs (2i, 2i + 1) ("NORM"), pairs (i, i + d/2) ("NEOX"), or none; the converter
/// (convert_hf_to_gguf.py, LlamaModel.permute) says whether it permuted the q and k rows of
/// transformers' half-split layout into interleaved pairs.
struct GgufRopeOrder {
    std::string rope_type; ///< "NORM", "NEOX", "MROPE", "NONE", or "" (an architecture not known)
    bool permuted = false; ///< q/k rows permuted by the converter (read back before any view)
};
GgufRopeOrder gguf_rope_order(const std::string& architecture);

/// The metadata read as a config.json: model_type, widths, heads, context, RoPE's base, rotating
/// width, scaling (rope.scaling.*, Llama 3's rope_freqs.weight factors recognised as its llama3
/// parameters, longrope's rope_factors_long/short), sliding windows, layer types. freq_factors
/// holds the values of rope_freqs.weight when the file has it (empty otherwise);
/// long_factors/short_factors those of rope_factors_long/short. *notes receives what could not
/// be mapped. ok or a message naming the key.
struct GgufFactorTensors {
    std::vector<float> freq_factors, long_factors, short_factors;
};
Status GgufConfig(const GgufFile& file, const GgufFactorTensors& factors, nlohmann::json* config,
                  std::vector<std::string>* notes);

class Checkpoint;
struct CheckpointConfig;
/// An opened GGUF checkpoint's settings: GgufConfig over its metadata and factor tensors, read
/// by ReadModelConfig; *notes receives what a reader should know (what was not mapped, the
/// order of its rotary pairs, what its quantized q and k mean for the views). ok or a message.
/// *settings, when given, receives the config.json the metadata was read as.
Status ReadGgufModelConfig(Checkpoint& checkpoint, CheckpointConfig* out,
                           std::vector<std::string>* notes, nlohmann::json* settings = nullptr);

} // namespace pelab
