// pelab/models/checkpoint.h — reading the tensors of a model someone brings: safetensors files
// (one, or the shards a model.safetensors.index.json names) and NumPy .npy arrays.
//
// safetensors (the format of Hugging Face's `safetensors` library): 8 bytes, the header's length
// n as a little-endian unsigned 64-bit number; n bytes of JSON, an object mapping each tensor's
// name to {"dtype", "shape", "data_offsets": [begin, end]} (offsets into the data that follows
// the header) and an optional "__metadata__" object of texts; then the raw little-endian data.
// .npy (NumPy's format, versions 1 to 3): the magic "\x93NUMPY", a version, the header's length
// (2 bytes in version 1, 4 in 2 and 3), a Python dict literal with 'descr', 'fortran_order' and
// 'shape', then the data.
//
// Contracts: every reader returns a Status (ok, or one line that names the file, the tensor and
// what is wrong), and leaves its output as it was on failure; nothing throws for a malformed file.
// Files are read with pread into PE Lab's own buffers, so opening a 500 MB checkpoint reads its
// header and then only the tensors asked for, and a file that shrinks while it is read (a download
// still running, a sync client, a file deleted and replaced) gives a message naming the file and
// the tensor: a mapped file would kill the process with SIGBUS instead. The data may be unaligned:
// it is copied, never cast in place.
#pragma once

#include "pelab/base/status.h"
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pelab {

/// Largest safetensors header read (real checkpoints' headers are 10–200 KiB; the 1 MiB limit of
/// scene files would refuse a model of many thousand tensors).
constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 16u << 20;
/// Largest model.safetensors.index.json read (Llama 3.1 405B's is about 90 KiB).
constexpr std::uint64_t kMaxShardIndexBytes = 16u << 20;
/// Largest .npy header read (NumPy writes a few hundred bytes).
constexpr std::uint64_t kMaxNpyHeaderBytes = 1u << 20;
/// Most numbers of one tensor read as floats (1 GiB of float32).
constexpr std::uint64_t kMaxTensorReadElements = std::uint64_t{1} << 28;
/// Most tensors one checkpoint may name, most dimensions of one tensor, longest name, most shards.
constexpr std::size_t kMaxTensors = 1000000;
constexpr int kMaxTensorRank = 8;
constexpr std::size_t kMaxTensorNameBytes = 4096;
constexpr std::size_t kMaxShards = 10000;

/// The element types read as numbers; every other dtype of the format is listed and skipped.
/// The 8-bit floats are the OCP 8-bit floating point formats (OFP8, 2023) safetensors names:
/// F8_E4M3 (E4M3FN: bias 7, no infinities, S.1111.111 is NaN, largest 448), F8_E5M2 (bias 15,
/// IEEE-like with infinities), and F8_E8M0 (the exponent alone, 2^(e − 127), 0xFF NaN), the
/// scales of DeepSeek's `scale_fmt: ue8m0`.
/// Ggml: one of ggml's block types a GGUF file holds (Q4_K, Q8_0, …; pelab/models/gguf.h),
/// widened to float block by block.
enum class TensorType { F32, F16, BF16, F64, F8E4M3, F8E5M2, F8E8M0, Ggml, Other };

struct GgmlType;
struct GgufFile;

struct TensorInfo {
    std::string name;  ///< as stored in the file
    std::string dtype; ///< as stored: "F32", "BF16", "I64", …
    TensorType type = TensorType::Other;
    std::vector<std::int64_t> shape;  ///< row-major; empty for a scalar
    std::uint64_t begin = 0, end = 0; ///< the data's bytes within its file (absolute offsets)
    int file = 0;                     ///< which of the checkpoint's files holds it
    bool fortran_order = false;       ///< .npy only: stored column-major (read transposed)
    const GgmlType* ggml = nullptr;   ///< GGUF only: the ggml type (nullptr: an unknown id)
    /// GGUF only: the rows are in llama.cpp's converter's permuted order over this many heads
    /// (LlamaModel.permute: head h's rows i and i + d/2 stored as 2i and 2i + 1); ReadFloats
    /// and RowSquares give them back in transformers' order. 0: as stored.
    int permuted_heads = 0;

    std::int64_t Elements() const; ///< product of shape (1 for a scalar)
    bool Readable() const { return type != TensorType::Other; }
};

/// A read-only file, read with pread (never mapped: see the header's contract).
class ByteFile {
public:
    ByteFile() = default;
    ~ByteFile();
    ByteFile(const ByteFile&) = delete;
    ByteFile& operator=(const ByteFile&) = delete;

    /// Ok or why the file cannot be read (missing, a folder, a device, a pipe, permission).
    Status Open(const std::string& path);
    const std::string& Path() const { return path_; }
    std::uint64_t Size() const { return size_; }
    /// Copies bytes [offset, offset + count) to out; ok or why not (past the end, a read error).
    Status Read(std::uint64_t offset, std::size_t count, void* out) const;

private:
    std::string path_;
    std::uint64_t size_ = 0;
    int descriptor_ = -1;
};

/// float16 bits → float, subnormals kept (exact: every float16 is a float).
float HalfToFloat(std::uint16_t bits);
/// bfloat16 bits → float: the bits are a float's upper half.
float BfloatToFloat(std::uint16_t bits);
/// An 8-bit float of the given type → float (exact); NaN for the NaN codes, ±∞ for E5M2's.
float Float8ToFloat(std::uint8_t bits, TensorType type);

/// The scales of a block-quantized weight (fine-grained FP8: w = q · s, the scale of each
/// block_rows × block_cols block of the weight multiplied in, whatever the tensor is called;
/// DeepSeek V3 and Qwen3-FP8 name it `weight_scale_inv` and use 128 × 128 blocks). scale is
/// ceil(rows / block_rows) × ceil(cols / block_cols); edge blocks are partial.
struct BlockScales {
    const TensorInfo* scale = nullptr;
    std::int64_t block_rows = 0, block_cols = 0;
};

/// An opened checkpoint: its tensor table and the files holding the data. Shards are opened when
/// a tensor in them is first asked for.
class Checkpoint {
public:
    Checkpoint();
    ~Checkpoint();
    Checkpoint(Checkpoint&&) noexcept;
    Checkpoint& operator=(Checkpoint&&) noexcept;

    /// Opens path: a .safetensors file, a model.safetensors.index.json (the shards it names are
    /// looked for in its folder), a .npy file (one tensor, named after the file without ".npy"),
    /// a GGUF file (the first of a split model's files opens them all), or a folder holding
    /// model.safetensors or model.safetensors.index.json. ok or a message.
    Status Open(const std::string& path);

    const std::string& Path() const { return path_; }
    /// "safetensors", "safetensors (N shards)", "npy", "GGUF v3" or "GGUF v3 (N files)".
    std::string FormatName() const;
    /// Every tensor name, in the order the file or index lists them (sorted for an index).
    const std::vector<std::string>& Names() const { return names_; }
    bool Has(const std::string& name) const;
    /// The tensor called name (opening its shard if needed); nullptr, with *error set when the
    /// shard is malformed or missing (and left ok when there is simply no such tensor).
    const TensorInfo* Find(const std::string& name, Status* error);
    /// Reads a tensor as float32, row-major (a Fortran-order .npy is transposed). F16 and BF16 are
    /// widened exactly; F64 is rounded, and refused beyond float's range. NaN and Inf are refused
    /// with the element's index. ok or a message (*out untouched).
    Status ReadFloats(const TensorInfo& tensor, std::vector<float>* out) const;
    /// The same into *out's own storage (reused when large enough): a caller reading tensor
    /// after tensor into one buffer (a pass's load) touches its pages once, not per tensor, which
    /// was a third of a 1B model's load. On an error *out holds what was read so far.
    Status ReadFloatsReusing(const TensorInfo& tensor, std::vector<float>* out) const;
    /// The sum of squares of each row of a tensor of at least one dimension (its first dimension
    /// the rows), read in chunks: a 4096 × 4096 projection costs 4096 doubles, not 64 MiB. The same
    /// checks as ReadFloats. ok or a message.
    Status RowSquares(const TensorInfo& tensor, std::vector<double>* out) const;
    /// The same for a block-quantized weight: each element multiplied by its block's scale
    /// before it is squared. The scale tensor's shape must match the weight's and the blocks.
    Status RowSquares(const TensorInfo& tensor, const BlockScales& scales,
                      std::vector<double>* out) const;
    /// A GGUF file's header (metadata and tensor table; the first file's for a split model), or
    /// nullptr for the other formats.
    const GgufFile* Gguf() const { return gguf_.get(); }
    /// How many files (the index, shards) have been opened so far.
    std::size_t FilesOpened() const;
    /// Every file the checkpoint reads: the file opened, and for an index every shard it names
    /// (opened or not). A command checks its outputs against these before it writes anything.
    std::vector<std::string> FilePaths() const;

private:
    struct Shard;
    Status OpenSafetensors(const std::string& path);
    Status OpenIndex(const std::string& path);
    Status OpenNpy(const std::string& path);
    Status OpenGguf(const std::string& path);
    Status AddGgufFile(const std::string& path, std::size_t index);
    Status LoadShard(std::size_t index);
    /// Calls take(first, values, count) for consecutive runs of elements in storage order
    /// (values[k] is element first + k, widened to float and checked finite); ok or a message.
    template <typename Take> Status ForEachChunk(const TensorInfo& tensor, Take&& take) const;

    std::string path_;
    std::string format_;
    std::vector<std::string> names_;
    std::map<std::string, std::size_t> shard_of_; ///< name → shard
    std::vector<std::unique_ptr<Shard>> shards_;
    std::shared_ptr<const GgufFile> gguf_;
};

/// Parses a safetensors header (the JSON text after the 8 length bytes) whose data section holds
/// data_bytes bytes, appending the tensors to *out with offsets made absolute by adding
/// data_start; used by Checkpoint and by the fuzz target. ok or a message (without the file name).
Status ParseSafetensorsHeader(const std::string& header, std::uint64_t data_start,
                              std::uint64_t data_bytes, std::vector<TensorInfo>* out);

/// Parses an .npy file's leading bytes (at least the whole header; `bytes` may hold the data too),
/// for a file of file_size bytes. ok or a message.
Status ParseNpyHeader(const std::string& bytes, std::uint64_t file_size, TensorInfo* out);

/// Parses a model.safetensors.index.json's text: *entries = its weight_map's (tensor, file) pairs
/// in the file's order (left empty when the object has no weight_map). ok or a message (without
/// the file name): not JSON, not an object, nesting past 8 levels, a repeated name, too many.
Status ParseShardIndex(const std::string& text,
                       std::vector<std::pair<std::string, std::string>>* entries);

} // namespace pelab
