// A GGUF file opened as a checkpoint (pelab/models/checkpoint.h): its tensor table in PE Lab's
// terms (row-major shapes, the ggml type), the files of a split model, and which q and k rows
// llama.cpp's converter permuted.
#include "base/format.h"
#include "models/checkpoint_shard.h"
#include "pelab/models/checkpoint.h"
#include "pelab/models/gguf.h"
#include "pelab/models/model_config.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <regex>

namespace pelab {

namespace {

namespace fs = std::filesystem;
using detail::shown_name;

// "Model-00001-of-00003.gguf" (llama.cpp's gguf-split names): the part and the count, or 0.
int SplitPart(const std::string& file_name, int* count, std::string* stem) {
    static const std::regex kSplit(R"((.*)-(\d{5})-of-(\d{5})\.gguf)");
    std::smatch match;
    if (!std::regex_match(file_name, match, kSplit)) return 0;
    *stem = match[1];
    *count = std::stoi(match[3]);
    return std::stoi(match[2]);
}

// The q and k projections of a layer ("blk.N.attn_q.weight"), whose rows the converter permutes
// for the architectures that derive from its LlamaModel (pelab/models/gguf.h).
int PermutedHeads(const GgufFile& file, const std::string& name) {
    const std::string arch = file.Text("general.architecture");
    if (!gguf_rope_order(arch).permuted) return 0;
    const bool query =
        name.size() > 14 && name.compare(name.size() - 14, 14, ".attn_q.weight") == 0;
    const bool key = name.size() > 14 && name.compare(name.size() - 14, 14, ".attn_k.weight") == 0;
    if (!query && !key) return 0;
    const GgufValue* heads =
        file.Find(arch + (query ? ".attention.head_count" : ".attention.head_count_kv"));
    if (key && heads == nullptr) heads = file.Find(arch + ".attention.head_count");
    if (heads == nullptr) return 0;
    double count = heads->IsNumber()                                   ? heads->number
                   : heads->IsNumberArray() && !heads->numbers.empty() ? heads->numbers[0]
                                                                       : 0;
    return count >= 1 && count <= 65536 ? static_cast<int>(count) : 0;
}

TensorInfo InfoOf(const GgufFile& file, const GgufTensor& tensor, int shard) {
    TensorInfo info;
    info.name = tensor.name;
    info.ggml = tensor.type;
    info.dtype = tensor.type ? tensor.type->name : "type " + std::to_string(tensor.type_id);
    // The plain float types are read as safetensors' are; the block types through ggml's.
    switch (tensor.type_id) {
    case 0:
        info.type = TensorType::F32;
        break;
    case 1:
        info.type = TensorType::F16;
        break;
    case 28:
        info.type = TensorType::F64;
        break;
    case 30:
        info.type = TensorType::BF16;
        break;
    default:
        info.type = tensor.type && tensor.type->readable ? TensorType::Ggml : TensorType::Other;
    }
    // ne is innermost first: a [rows, columns] weight is written (columns, rows).
    for (auto extent = tensor.ne.rbegin(); extent != tensor.ne.rend(); ++extent)
        info.shape.push_back(static_cast<std::int64_t>(*extent));
    info.begin = tensor.begin;
    info.end = tensor.end;
    info.file = shard;
    if (info.shape.size() == 2) {
        info.permuted_heads = PermutedHeads(file, tensor.name);
        if (info.permuted_heads > 0 &&
            info.shape[0] % (2 * static_cast<std::int64_t>(info.permuted_heads)) != 0)
            info.permuted_heads = 0;
    }
    return info;
}

} // namespace

Status Checkpoint::AddGgufFile(const std::string& path, std::size_t index) {
    auto shard = std::make_unique<Shard>();
    shard->path = path;
    const std::string where = shown_name(path);
    if (Status error = shard->file.Open(path); !error.ok()) return error;
    auto file = std::make_shared<GgufFile>();
    const ByteFile& bytes = shard->file;
    const GgufReadAt read_at = [&bytes](std::uint64_t offset, std::size_t count, void* out) {
        return bytes.Read(offset, count, out);
    };
    if (Status error = ParseGguf(read_at, bytes.Size(), file.get()); !error.ok())
        return where + ": " + error.message();
    for (const GgufTensor& tensor : file->tensors) {
        if (shard_of_.count(tensor.name))
            return where + " holds tensor " + shown_name(tensor.name) +
                   ", which an earlier file of the split model holds too";
        shard->tensors.emplace(
            tensor.name, InfoOf(index == 0 ? *file : *gguf_, tensor, static_cast<int>(index)));
        shard_of_[tensor.name] = index;
        names_.push_back(tensor.name);
    }
    shard->loaded = true;
    shards_.push_back(std::move(shard));
    if (index == 0) gguf_ = std::move(file);
    return {};
}

Status Checkpoint::OpenGguf(const std::string& path) {
    format_ = "gguf";
    int count = 0;
    std::string stem;
    const int part = SplitPart(fs::path(path).filename().string(), &count, &stem);
    if (part == 0 || count <= 1) return AddGgufFile(path, 0);
    if (part != 1) {
        char first[48];
        std::snprintf(first, sizeof first, "-00001-of-%05d.gguf", count);
        return shown_name(path) + " is part " + std::to_string(part) + " of " +
               std::to_string(count) + " of a split model: open its first file, " +
               shown_name(stem + first);
    }
    if (count > static_cast<int>(kMaxShards))
        return shown_name(path) + " names " + std::to_string(count) + " files";
    const fs::path folder = fs::path(path).parent_path();
    for (int k = 1; k <= count; ++k) {
        char suffix[32];
        std::snprintf(suffix, sizeof suffix, "-%05d-of-%05d.gguf", k, count);
        const std::string file = (folder / (stem + suffix)).string();
        if (Status error = AddGgufFile(file, static_cast<std::size_t>(k - 1)); !error.ok())
            return "split model " + shown_name(path) + ", file " + std::to_string(k) + " of " +
                   std::to_string(count) + ": " + error.message();
    }
    return {};
}

Status ReadGgufModelConfig(Checkpoint& checkpoint, CheckpointConfig* out,
                           std::vector<std::string>* notes, nlohmann::json* settings) {
    const GgufFile* file = checkpoint.Gguf();
    if (file == nullptr) return std::string("not a GGUF file");
    GgufFactorTensors factors;
    const std::pair<const char*, std::vector<float>*> wanted[] = {
        {"rope_freqs.weight", &factors.freq_factors},
        {"rope_factors_long.weight", &factors.long_factors},
        {"rope_factors_short.weight", &factors.short_factors}};
    for (const auto& [name, values] : wanted) {
        Status error;
        const TensorInfo* info = checkpoint.Find(name, &error);
        if (!error.ok()) return error;
        if (info == nullptr) continue;
        if (info->Elements() > 65536)
            return "tensor " + shown_name(name) + " holds " + std::to_string(info->Elements()) +
                   " numbers; one per rotary pair was expected";
        if (Status read = checkpoint.ReadFloats(*info, values); !read.ok()) return read;
    }
    nlohmann::json config;
    if (Status error = GgufConfig(*file, factors, &config, notes); !error.ok()) return error;
    if (Status error = ReadModelConfig(config, out); !error.ok())
        return "its metadata read as a config: " + error.message();
    if (settings) *settings = config;
    const std::string arch = file->Text("general.architecture");
    const GgufRopeOrder order = gguf_rope_order(arch);
    if (order.rope_type == "NORM" || order.rope_type == "NEOX")
        notes->push_back(
            "llama.cpp rotates " + arch + "'s pairs " +
            (order.rope_type == "NORM" ? "(2i, 2i + 1) (NORM)" : "(i, i + d/2) (NEOX)") +
            (order.permuted ? "; its converter permuted the q and k rows from transformers' "
                              "half-split order, and PE Lab reads them back: pair i is "
                              "transformers' pair i"
                            : "; the rows are stored as transformers has them"));
    for (const std::string& name : checkpoint.Names()) {
        Status error;
        const TensorInfo* info = checkpoint.Find(name, &error);
        if (info == nullptr || info->ggml == nullptr ||
            (name.find(".attn_q") == std::string::npos &&
             name.find(".attn_k") == std::string::npos))
            continue;
        if (info->type == TensorType::Ggml) {
            notes->push_back("the q and k weights are " + info->dtype + " (" + info->ggml->about +
                             "): the usage view shows the quantized weights' norms");
        } else if (info->type == TensorType::Other) {
            notes->push_back(shown_name(name) + " is " + info->dtype +
                             ": not read; the usage view needs q and k");
        } else {
            continue;
        }
        break;
    }
    return {};
}

} // namespace pelab
