#include "pelab/models/checkpoint.h"

#include "base/format.h"
#include "models/checkpoint_shard.h"
#include "models/tensor_values.h"
#include "pelab/models/gguf.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>
#include <utility>

namespace pelab {

namespace fs = std::filesystem;

namespace {

using detail::byte_count_text;
using detail::read_little;
using detail::shown_name;

// Where transformers' row r of a permuted q or k weight is stored: LlamaModel.permute reshapes
// each head's d rows to (2, d/2), swaps the two axes and flattens, so the row s·d/2 + j of a
// head (s = 0, 1) is stored at 2j + s.
std::vector<std::size_t> StoredRows(const TensorInfo& tensor) {
    const auto rows = static_cast<std::size_t>(tensor.shape[0]);
    const auto heads = static_cast<std::size_t>(tensor.permuted_heads);
    const std::size_t width = rows / heads, half = width / 2;
    std::vector<std::size_t> order(rows);
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t s = 0; s < 2; ++s)
            for (std::size_t j = 0; j < half; ++j)
                order[h * width + s * half + j] = h * width + 2 * j + s;
    return order;
}

} // namespace

std::int64_t TensorInfo::Elements() const {
    std::int64_t elements = 1;
    for (std::int64_t extent : shape)
        elements *= extent;
    return elements;
}

// ---- Checkpoint ----

Checkpoint::Checkpoint() = default;
Checkpoint::~Checkpoint() = default;
Checkpoint::Checkpoint(Checkpoint&&) noexcept = default;
Checkpoint& Checkpoint::operator=(Checkpoint&&) noexcept = default;

std::string Checkpoint::FormatName() const {
    if (format_ == "index") return "safetensors (" + std::to_string(shards_.size()) + " shards)";
    if (format_ == "gguf")
        return "GGUF v" + std::to_string(gguf_->version) +
               (shards_.size() > 1 ? " (" + std::to_string(shards_.size()) + " files)" : "");
    return format_;
}

bool Checkpoint::Has(const std::string& name) const {
    return shard_of_.count(name) > 0;
}

std::size_t Checkpoint::FilesOpened() const {
    std::size_t opened = 0;
    for (const auto& shard : shards_)
        opened += shard->loaded ? 1 : 0;
    return opened;
}

std::vector<std::string> Checkpoint::FilePaths() const {
    std::vector<std::string> paths;
    if (format_ == "index") paths.push_back(path_);
    for (const auto& shard : shards_)
        paths.push_back(shard->path);
    return paths;
}

Status Checkpoint::Open(const std::string& path) {
    Checkpoint fresh;
    Status error;
    std::error_code status;
    std::string target = path;
    if (fs::is_directory(path, status)) {
        const fs::path single = fs::path(path) / "model.safetensors";
        const fs::path index = fs::path(path) / "model.safetensors.index.json";
        if (fs::exists(single, status))
            target = single.string();
        else if (fs::exists(index, status))
            target = index.string();
        else
            return "the folder " + shown_name(path) +
                   " holds neither model.safetensors nor "
                   "model.safetensors.index.json";
    }
    fresh.path_ = target;
    // What the file holds decides, not its name, except for the index (JSON text).
    ByteFile probe;
    if (error = probe.Open(target); !error.ok()) return error;
    char magic[6] = {};
    const bool npy = probe.Size() >= 6 && probe.Read(0, 6, magic).ok() &&
                     std::memcmp(magic, "\x93NUMPY", 6) == 0;
    const bool json = target.size() >= 5 && target.compare(target.size() - 5, 5, ".json") == 0;
    // Named .npy but not one: said as such, not read as safetensors ("its header claims …").
    if (!npy && target.size() >= 4 && target.compare(target.size() - 4, 4, ".npy") == 0)
        return shown_name(target) +
               (probe.Size() == 0 ? " is empty (a .npy file starts with \\x93NUMPY and a header)"
                                  : " is not a NumPy .npy file: it does not start with \\x93NUMPY");
    const bool gguf =
        probe.Size() >= 4 && probe.Read(0, 4, magic).ok() && std::memcmp(magic, "GGUF", 4) == 0;
    if (npy)
        error = fresh.OpenNpy(target);
    else if (gguf)
        error = fresh.OpenGguf(target);
    else if (json)
        error = fresh.OpenIndex(target);
    else
        error = fresh.OpenSafetensors(target);
    if (!error.ok()) return error;
    *this = std::move(fresh);
    return {};
}

Status Checkpoint::LoadShard(std::size_t index) {
    Shard& shard = *shards_[index];
    if (shard.loaded || !shard.error.ok()) return shard.error;
    Status& error = shard.error;
    const std::string where = shown_name(shard.path);
    if (error = shard.file.Open(shard.path); !error.ok()) return error;
    unsigned char length_bytes[8] = {};
    if (shard.file.Size() < 8)
        return error = where + " is not a safetensors file (shorter than its 8 length bytes)";
    if (error = shard.file.Read(0, 8, length_bytes); !error.ok()) return error;
    const std::uint64_t header_length = read_little(length_bytes, 8);
    if (header_length == 0) return error = where + ": its header is empty (length 0)";
    if (header_length > kMaxSafetensorsHeaderBytes)
        return error = where + ": its header claims " + std::to_string(header_length) +
                       " bytes, more than the " + byte_count_text(kMaxSafetensorsHeaderBytes) +
                       " read (is it a safetensors file?)";
    if (header_length > shard.file.Size() - 8)
        return error = where + ": its header claims " + std::to_string(header_length) +
                       " bytes, the file holds " + std::to_string(shard.file.Size() - 8) +
                       " after the length";
    std::string header(static_cast<std::size_t>(header_length), '\0');
    if (error = shard.file.Read(8, header.size(), header.data()); !error.ok()) return error;
    std::vector<TensorInfo> tensors;
    const std::uint64_t data_start = 8 + header_length;
    if (Status problem =
            ParseSafetensorsHeader(header, data_start, shard.file.Size() - data_start, &tensors);
        !problem.ok())
        return error = where + ": " + problem.message();
    for (TensorInfo& tensor : tensors) {
        tensor.file = static_cast<int>(index);
        std::string name = tensor.name;
        shard.tensors.emplace(std::move(name), std::move(tensor));
    }
    // Every name the index places in this shard must be there.
    for (const auto& [name, shard_index] : shard_of_)
        if (shard_index == index && shard.tensors.count(name) == 0)
            return error = "the index places tensor " + shown_name(name) + " in " + where +
                           ", which does not hold it";
    shard.loaded = true;
    return {};
}

Status Checkpoint::OpenSafetensors(const std::string& path) {
    format_ = "safetensors";
    auto shard = std::make_unique<Shard>();
    shard->path = path;
    shards_.push_back(std::move(shard));
    if (Status error = LoadShard(0); !error.ok()) return error;
    std::vector<const TensorInfo*> in_order;
    for (const auto& [name, tensor] : shards_[0]->tensors)
        in_order.push_back(&tensor);
    // The file's own order is the data's order.
    std::sort(in_order.begin(), in_order.end(), [](const TensorInfo* a, const TensorInfo* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->name < b->name;
    });
    for (const TensorInfo* tensor : in_order) {
        names_.push_back(tensor->name);
        shard_of_[tensor->name] = 0;
    }
    return {};
}

Status Checkpoint::OpenIndex(const std::string& path) {
    format_ = "index";
    ByteFile file;
    if (Status error = file.Open(path); !error.ok()) return error;
    if (file.Size() > kMaxShardIndexBytes)
        return shown_name(path) + " is larger than " + byte_count_text(kMaxShardIndexBytes) +
               " (a shard index is a few KiB)";
    std::string text(static_cast<std::size_t>(file.Size()), '\0');
    if (Status error = file.Read(0, text.size(), text.data()); !error.ok()) return error;
    std::vector<std::pair<std::string, std::string>> entries;
    if (Status error = ParseShardIndex(text, &entries); !error.ok())
        return "shard index " + shown_name(path) + ": " + error.message();
    if (entries.empty())
        return shown_name(path) + " is not a shard index (it has no weight_map naming the tensors' "
                                  "files): open the folder, its model.safetensors, or its "
                                  "model.safetensors.index.json";
    const fs::path folder = fs::path(path).parent_path();
    std::map<std::string, std::size_t> shard_by_file;
    for (const auto& [name, file_name] : entries) {
        if (file_name.empty() || file_name.find('/') != std::string::npos ||
            file_name.find('\0') != std::string::npos ||
            file_name.find('\\') != std::string::npos || file_name == "." || file_name == "..")
            return "shard index " + shown_name(path) + ": tensor " + shown_name(name) + "'s file " +
                   shown_name(file_name) + " must be a file name in the index's folder";
        auto [at, added] = shard_by_file.emplace(file_name, shards_.size());
        if (added) {
            if (shards_.size() >= kMaxShards)
                return "shard index " + shown_name(path) + " names more than " +
                       std::to_string(kMaxShards) + " files";
            auto shard = std::make_unique<Shard>();
            shard->path = (folder / file_name).string();
            shards_.push_back(std::move(shard));
        }
        shard_of_[name] = at->second;
        names_.push_back(name);
    }
    std::sort(names_.begin(), names_.end());
    return {};
}

Status Checkpoint::OpenNpy(const std::string& path) {
    format_ = "npy";
    auto shard = std::make_unique<Shard>();
    shard->path = path;
    if (Status error = shard->file.Open(path); !error.ok()) return error;
    const std::uint64_t size = shard->file.Size();
    std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(size, 12)), '\0');
    if (Status error = shard->file.Read(0, head.size(), head.data()); !error.ok()) return error;
    // The header's length decides how much more to read.
    std::uint64_t wanted = head.size();
    if (head.size() >= 12 && head.compare(0, 6, "\x93NUMPY", 6) == 0) {
        const auto* raw = reinterpret_cast<const unsigned char*>(head.data());
        const std::uint64_t length = read_little(raw + 8, raw[6] == 1 ? 2 : 4);
        wanted = std::min<std::uint64_t>(size, 12 + std::min(length, kMaxNpyHeaderBytes + 1));
    }
    std::string bytes(static_cast<std::size_t>(wanted), '\0');
    if (Status error = shard->file.Read(0, bytes.size(), bytes.data()); !error.ok()) return error;
    TensorInfo tensor;
    if (Status error = ParseNpyHeader(bytes, size, &tensor); !error.ok())
        return shown_name(path) + ": " + error.message();
    tensor.name = fs::path(path).stem().string();
    names_.push_back(tensor.name);
    shard_of_[tensor.name] = 0;
    shard->tensors.emplace(tensor.name, std::move(tensor));
    shard->loaded = true;
    shards_.push_back(std::move(shard));
    return {};
}

const TensorInfo* Checkpoint::Find(const std::string& name, Status* error) {
    *error = Status();
    const auto at = shard_of_.find(name);
    if (at == shard_of_.end()) return nullptr;
    if (Status problem = LoadShard(at->second); !problem.ok()) {
        *error = problem;
        return nullptr;
    }
    const auto& tensors = shards_[at->second]->tensors;
    const auto found = tensors.find(name);
    return found == tensors.end() ? nullptr : &found->second;
}

template <typename Take>
Status Checkpoint::ForEachChunk(const TensorInfo& tensor, Take&& take) const {
    const std::string where = "tensor " + shown_name(tensor.name) + " of " + shown_name(path_);
    if (!tensor.Readable())
        return where + " holds " + tensor.dtype + " numbers, not floating point ones";
    if (tensor.file < 0 || static_cast<std::size_t>(tensor.file) >= shards_.size() ||
        !shards_[static_cast<std::size_t>(tensor.file)]->loaded)
        return where + " is not in an opened file";
    const ByteFile& file = shards_[static_cast<std::size_t>(tensor.file)]->file;
    const auto count = static_cast<std::uint64_t>(tensor.Elements());
    if (count == 0) return {};
    // ggml's types come in blocks (Q4_K: 256 numbers in 144 bytes), read whole.
    const std::uint64_t block = tensor.type == TensorType::Ggml ? tensor.ggml->block : 1;
    const std::uint64_t item =
        tensor.type == TensorType::Ggml ? tensor.ggml->bytes : (tensor.end - tensor.begin) / count;
    // In chunks of 1 MiB, so a large tensor is never held as bytes and floats at once.
    constexpr std::size_t kChunk = 1u << 20;
    const std::uint64_t per_chunk = std::max<std::uint64_t>(kChunk / item, 1);
    const std::uint64_t blocks = count / block;
    std::vector<unsigned char> buffer(
        static_cast<std::size_t>(std::min<std::uint64_t>(per_chunk, blocks) * item));
    std::vector<float> values(
        static_cast<std::size_t>(std::min<std::uint64_t>(per_chunk, blocks) * block));
    std::uint64_t done = 0; // blocks
    while (done < blocks) {
        const std::uint64_t batch = std::min<std::uint64_t>(blocks - done, per_chunk);
        if (Status error = file.Read(tensor.begin + done * item,
                                     static_cast<std::size_t>(batch * item), buffer.data());
            !error.ok())
            return where + ": " + error.message();
        if (tensor.type == TensorType::Ggml)
            dequantize_blocks(*tensor.ggml, buffer.data(), batch, values.data());
        else if (Status error =
                     detail::WidenElements(buffer.data(), batch, tensor.type, values.data());
                 !error.ok())
            return where + ": " + error.message();
        const std::uint64_t numbers = batch * block;
        if (const std::uint64_t bad = detail::FirstNotFinite(values.data(), numbers); bad < numbers)
            return where + ": element " + std::to_string(done * block + bad) + " is " +
                   (std::isnan(values[bad]) ? "NaN" : "infinite") +
                   " (finite numbers were expected)";
        take(done * block, values.data(), numbers);
        done += batch;
    }
    return {};
}

Status Checkpoint::ReadFloats(const TensorInfo& tensor, std::vector<float>* out) const {
    std::vector<float> values;
    Status status = ReadFloatsReusing(tensor, &values);
    if (status.ok()) *out = std::move(values);
    return status;
}

Status Checkpoint::ReadFloatsReusing(const TensorInfo& tensor, std::vector<float>* out) const {
    const auto count = static_cast<std::uint64_t>(tensor.Elements());
    if (count > kMaxTensorReadElements)
        return "tensor " + shown_name(tensor.name) + " of " + shown_name(path_) + " holds " +
               std::to_string(count) + " numbers; PE Lab reads at most " +
               std::to_string(kMaxTensorReadElements) + " of one tensor";
    std::vector<float>& values = *out;
    values.resize(static_cast<std::size_t>(count));
    if (Status error = ForEachChunk(tensor,
                                    [&](std::uint64_t first, const float* chunk, std::uint64_t n) {
                                        std::copy(chunk, chunk + n, values.begin() + first);
                                    });
        !error.ok())
        return error;
    if (tensor.fortran_order && tensor.shape.size() == 2) {
        const auto rows = static_cast<std::size_t>(tensor.shape[0]);
        const auto cols = static_cast<std::size_t>(tensor.shape[1]);
        std::vector<float> transposed(values.size());
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                transposed[r * cols + c] = values[c * rows + r];
        values.swap(transposed);
    }
    if (tensor.permuted_heads > 0) {
        const auto cols = static_cast<std::size_t>(tensor.Elements() / tensor.shape[0]);
        const std::vector<std::size_t> order = StoredRows(tensor);
        std::vector<float> reordered(values.size());
        for (std::size_t row = 0; row < order.size(); ++row)
            std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(order[row] * cols), cols,
                        reordered.begin() + static_cast<std::ptrdiff_t>(row * cols));
        values.swap(reordered);
    }
    return {};
}

Status Checkpoint::RowSquares(const TensorInfo& tensor, std::vector<double>* out) const {
    return RowSquares(tensor, BlockScales{}, out);
}

Status Checkpoint::RowSquares(const TensorInfo& tensor, const BlockScales& scales,
                              std::vector<double>* out) const {
    const std::string where = "tensor " + shown_name(tensor.name) + " of " + shown_name(path_);
    if (tensor.shape.empty() || tensor.shape[0] < 1 || tensor.fortran_order)
        return where + " is not a row-major table of rows";
    const auto rows = static_cast<std::uint64_t>(tensor.shape[0]);
    const std::uint64_t width = static_cast<std::uint64_t>(tensor.Elements()) / rows;
    if (rows > kMaxTensorReadElements)
        return where + " has more than " + std::to_string(kMaxTensorReadElements) + " rows";
    // The block scales, read whole (a 128 × 128 grid of a 7168 × 18432 weight is 56 × 144).
    std::vector<float> scale;
    std::uint64_t block_rows = rows, block_cols = std::max<std::uint64_t>(width, 1), scale_cols = 1;
    if (scales.scale != nullptr) {
        const TensorInfo& info = *scales.scale;
        if (scales.block_rows < 1 || scales.block_cols < 1)
            return where + ": its block scales need a block size (quantization_config's "
                           "weight_block_size)";
        block_rows = static_cast<std::uint64_t>(scales.block_rows);
        block_cols = static_cast<std::uint64_t>(scales.block_cols);
        const std::uint64_t want_rows = (rows + block_rows - 1) / block_rows;
        scale_cols = (width + block_cols - 1) / block_cols;
        if (tensor.shape.size() != 2 || info.shape.size() != 2 ||
            static_cast<std::uint64_t>(info.shape[0]) != want_rows ||
            static_cast<std::uint64_t>(info.shape[1]) != scale_cols)
            return "tensor " + shown_name(info.name) + " should be " + std::to_string(want_rows) +
                   " × " + std::to_string(scale_cols) + " (one scale per " +
                   std::to_string(block_rows) + " × " + std::to_string(block_cols) + " block of " +
                   shown_name(tensor.name) + ")";
        if (Status error = ReadFloats(info, &scale); !error.ok()) return error;
    }
    std::vector<double> sums(static_cast<std::size_t>(rows), 0.0);
    if (Status error =
            ForEachChunk(tensor,
                         [&](std::uint64_t first, const float* values, std::uint64_t n) {
                             std::uint64_t k = 0;
                             while (k < n) {
                                 const std::uint64_t row = (first + k) / width;
                                 const std::uint64_t col = (first + k) % width;
                                 // A run within one row and one block of columns: one scale.
                                 const std::uint64_t run =
                                     std::min({n - k, width - col, block_cols - col % block_cols});
                                 double square = detail::SumOfSquares(values + k, run);
                                 if (!scale.empty()) {
                                     const double s =
                                         scale[(row / block_rows) * scale_cols + col / block_cols];
                                     square *= s * s;
                                 }
                                 sums[static_cast<std::size_t>(row)] += square;
                                 k += run;
                             }
                         });
        !error.ok())
        return error;
    if (tensor.permuted_heads > 0) {
        const std::vector<std::size_t> order = StoredRows(tensor);
        std::vector<double> reordered(sums.size());
        for (std::size_t row = 0; row < order.size(); ++row)
            reordered[row] = sums[order[row]];
        sums.swap(reordered);
    }
    *out = std::move(sums);
    return {};
}

} // namespace pelab
