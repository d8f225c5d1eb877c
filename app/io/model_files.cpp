#include "io/model_files.h"

#include "io/json_input.h"
#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/encodings/sinusoidal.h"
#include "pelab/models/layer_schedule.h"
#include "pelab/models/rope_analysis.h"
#include "pelab/models/table_analysis.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <sstream>

namespace pelab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// config.json: the one named, else the one beside the weights (none there is not an error).
std::string ReadConfig(const ModelRequest& request, ModelReport* report) {
    std::string path = request.config_path;
    // A GGUF file carries its settings (a config.json beside it belongs to another download).
    if (path.empty() && LooksLikeGguf(request.path)) return {};
    if (path.empty()) {
        std::error_code error;
        const fs::path weights(request.path);
        const fs::path folder = fs::is_directory(weights, error) ? weights : weights.parent_path();
        const fs::path beside = (folder.empty() ? fs::path(".") : folder) / "config.json";
        // Anything of that name counts (a folder, a FIFO, a link to nowhere): read as --config
        // would be, so that it is refused with the same message rather than silently ignored.
        if (!fs::exists(fs::symlink_status(beside, error))) return {};
        path = beside.string();
    }
    std::string text;
    if (std::string error = ReadInputFile(path, kMaxConfigBytes, &text); !error.empty())
        return "config " + error;
    json doc;
    if (std::string error = ParseJsonInput(text, &doc); !error.empty())
        return "config " + Excerpt(json(path), 200) + ": " + error;
    if (std::string error = ReadModelConfig(doc, &report->config).message(); !error.empty())
        return Excerpt(json(path), 200) + ": " + error;
    report->has_config = true;
    report->config_path = path;
    return {};
}

std::string OpenConfigAlone(const ModelRequest& request, ModelReport* out);

} // namespace

std::string ReadModelConfigFile(const std::string& path, CheckpointConfig* out, std::string* dtype,
                                std::string* config_path) {
    std::error_code error;
    ModelRequest request;
    request.path = path;
    request.config_path =
        fs::is_directory(path, error) ? (fs::path(path) / "config.json").string() : path;
    ModelReport report;
    if (std::string problem = ReadConfig(request, &report); !problem.empty()) return problem;
    // The dtype the weights were saved in: transformers 5 names it "dtype", 4 "torch_dtype"; a
    // multimodal model's text_config may hold its own.
    std::string text;
    json doc;
    dtype->clear();
    if (ReadInputFile(request.config_path, kMaxConfigBytes, &text).empty() &&
        ParseJsonInput(text, &doc).empty() && doc.is_object()) {
        for (const json* level :
             {doc.contains("text_config") && doc["text_config"].is_object() ? &doc["text_config"]
                                                                            : &doc,
              &doc})
            for (const char* key : {"dtype", "torch_dtype"})
                if (dtype->empty() && level->contains(key) && (*level)[key].is_string())
                    *dtype = (*level)[key].get<std::string>();
    }
    *out = report.config;
    *config_path = request.config_path;
    return {};
}

OffsetCosines TableOffsets(const std::vector<float>& table, int rows, int cols,
                           const AnalysisControl& control) {
    const long long offsets = std::min(rows - 1, kMaxMeasuredOffset) + 1;
    const long long budget = 1000000000LL / (offsets * std::max(cols, 1));
    return offset_cosines(table, rows, cols, kMaxMeasuredOffset,
                          static_cast<int>(std::clamp(budget, 2LL, static_cast<long long>(rows))),
                          control);
}

std::string CheckModel(const ModelRequest& asked) {
    ModelRequest request = asked;
    if (std::string error = ResolveModelPath(asked.path, &request.path); !error.empty())
        return error;
    if (LooksLikeModelConfig(request.path)) {
        ModelReport alone;
        return OpenConfigAlone(request, &alone);
    }
    ModelReport report;
    if (std::string error = ReadConfig(request, &report); !error.empty()) return error;
    Checkpoint checkpoint;
    if (std::string error = checkpoint.Open(request.path).message(); !error.empty()) return error;
    std::vector<std::string> gguf_notes;
    if (std::string error = ReadGgufSettings(checkpoint, &report, &gguf_notes); !error.empty())
        return error;
    FoundPositions found;
    if (std::string problem =
            FindPositions(checkpoint, report.has_config ? &report.config : nullptr, request.table,
                          &found)
                .message();
        !problem.empty())
        return Excerpt(json(checkpoint.Path()), 200) + ": " + problem;
    return {};
}

namespace {

// A forward pass's model (GPT-2's or a rotary family's) from its checkpoint and config.json.
template <typename Model>
std::string OpenPass(const ModelRequest& request, const char* needs, Model* out, double* seconds) {
    const auto start = std::chrono::steady_clock::now();
    ModelReport report;
    if (std::string error = ReadConfig(request, &report); !error.empty()) return error;
    Checkpoint checkpoint;
    if (std::string error = checkpoint.Open(request.path).message(); !error.empty()) return error;
    if (!report.has_config)
        return Excerpt(json(checkpoint.Path()), 200) + ": " + needs +
               " beside the weights, or --config";
    Model model;
    try {
        if (std::string error = Model::Load(checkpoint, report.config, &model).message();
            !error.empty()) {
            // The core says "config.json's n_layer …": a --config of another name is named.
            const std::string name = fs::path(report.config_path).filename().string();
            const std::string shown = Excerpt(json(report.config_path), 120);
            for (std::size_t at = 0;
                 name != "config.json" && (at = error.find("config.json", at)) != std::string::npos;
                 at += shown.size())
                error.replace(at, std::string("config.json").size(), shown);
            return Excerpt(json(checkpoint.Path()), 200) + ": " + error;
        }
    } catch (const std::bad_alloc&) {
        return Excerpt(json(checkpoint.Path()), 200) +
               ": not enough memory to hold the model's weights";
    }
    *out = std::move(model);
    if (seconds)
        *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {};
}

} // namespace

std::string FamilyOfRequest(const ModelRequest& request) {
    ModelReport report;
    if (!ReadConfig(request, &report).empty() || !report.has_config) return {};
    const ModelFamily* family = family_of_model_type(report.config.model_type);
    return family ? family->id : "";
}

std::string OpenGpt2(const ModelRequest& request, Gpt2Model* out, double* seconds) {
    return OpenPass(request, "GPT-2 needs its config.json (n_layer, n_head)", out, seconds);
}

std::string OpenLlama(const ModelRequest& request, LlamaModel* out, double* seconds) {
    return OpenPass(request, "a rotary model needs its config.json (its layers, heads and RoPE)",
                    out, seconds);
}

std::string OpenTokenizerJson(const std::string& path, BpeTokenizer* out) {
    std::string text;
    if (std::string error = ReadInputFile(path, kMaxVocabularyBytes, &text); !error.empty())
        return "tokenizer " + error;
    BpeTokenizer tokenizer;
    if (std::string error = BpeTokenizer::LoadTokenizerJson(text, &tokenizer).message();
        !error.empty())
        return Excerpt(json(path), 200) +
               (error.rfind("tokenizer.json", 0) == 0 ? error.substr(14) : ": " + error);
    *out = std::move(tokenizer);
    return {};
}

std::string OpenTokenizer(const std::string& vocab_path, const std::string& merges_path,
                          BpeTokenizer* out) {
    std::error_code status;
    fs::path vocab(vocab_path), merges(merges_path);
    // A folder (or a file in it, such as model.safetensors): its vocab.json and merges.txt.
    if (merges.empty()) {
        const fs::path folder = fs::is_directory(vocab, status) ? vocab : vocab.parent_path();
        vocab = folder / "vocab.json";
        merges = folder / "merges.txt";
        const bool has_vocab = fs::is_regular_file(vocab, status),
                   has_merges = fs::is_regular_file(merges, status);
        // No vocab.json and merges.txt but a tokenizer.json (Llama 3's folders): that one.
        if (!has_vocab && !has_merges && fs::is_regular_file(folder / "tokenizer.json", status))
            return OpenTokenizerJson((folder / "tokenizer.json").string(), out);
        if (!has_vocab || !has_merges)
            return Excerpt(json(folder.string()), 200) + " holds no " +
                   (has_vocab    ? "merges.txt"
                    : has_merges ? "vocab.json"
                                 : "tokenizer.json, nor vocab.json and merges.txt") +
                   " (a tokenizer is tokenizer.json, or vocab.json and merges.txt, published "
                   "beside the weights)";
    }
    std::string vocab_text, merges_text;
    if (std::string error = ReadInputFile(vocab.string(), kMaxVocabularyBytes, &vocab_text);
        !error.empty())
        return "vocabulary " + error;
    if (std::string error = ReadInputFile(merges.string(), kMaxVocabularyBytes, &merges_text);
        !error.empty())
        return "merges " + error;
    BpeTokenizer tokenizer;
    if (std::string error = BpeTokenizer::Load(vocab_text, merges_text, &tokenizer).message();
        !error.empty()) {
        // The core names the file by its role ("vocab.json …", "merges.txt line 6 …"): here by
        // the path it was read from.
        const bool about_merges = error.rfind("merges.txt", 0) == 0;
        const std::size_t role = std::string("vocab.json").size();
        if (about_merges || error.rfind("vocab.json", 0) == 0)
            return Excerpt(json((about_merges ? merges : vocab).string()), 200) +
                   error.substr(role);
        return error;
    }
    *out = std::move(tokenizer);
    return {};
}

std::vector<FileRead> FilesOfCheckpoint(const std::string& asked) {
    std::string path;
    (void)ResolveModelPath(asked, &path); // unresolved: listed as named, the open says why
    std::vector<FileRead> files{{path, "the checkpoint"}};
    std::error_code status;
    const bool folder = fs::is_directory(path, status);
    Checkpoint checkpoint;
    if (checkpoint.Open(path).ok()) {
        const std::vector<std::string> paths = checkpoint.FilePaths();
        for (std::size_t i = 0; i < paths.size(); ++i)
            files.push_back({paths[i], checkpoint.FormatName() == "npy" ? "the table"
                                       : checkpoint.Gguf() != nullptr   ? "the GGUF file"
                                       : i == 0 && paths.size() > 1     ? "the shard index"
                                       : paths.size() > 1               ? "a shard the index names"
                                                                        : "the weights"});
    } else if (folder) {
        // Unreadable weights: still never written over (the open reports them).
        files.push_back({(fs::path(path) / "model.safetensors").string(), "the weights"});
        files.push_back(
            {(fs::path(path) / "model.safetensors.index.json").string(), "the shard index"});
    }
    const fs::path beside = folder ? fs::path(path) : fs::path(path).parent_path();
    const fs::path base = beside.empty() ? fs::path(".") : beside;
    for (const char* name : {"config.json", "vocab.json", "merges.txt", "tokenizer.json"})
        files.push_back({(base / name).string(), std::string(name) + " beside the weights"});
    // Every other file of the model there, whatever its format (a folder holds a few dozen):
    // weights, indexes, configs and the tokenizer's files.
    for (const fs::directory_entry& entry : fs::directory_iterator(base, status)) {
        const std::string name = entry.path().filename().string();
        const auto ends = [&](const char* ending) {
            const std::size_t size = std::strlen(ending);
            return name.size() >= size && name.compare(name.size() - size, size, ending) == 0;
        };
        bool model_file = ends(".index.json") || ends("config.json") || ends("tokenizer.json") ||
                          name == "special_tokens_map.json" || name == "added_tokens.json";
        for (const char* ending : {".safetensors", ".bin", ".gguf", ".pt", ".pth", ".ckpt",
                                   ".model", ".msgpack", ".h5", ".onnx", ".tiktoken"})
            model_file = model_file || ends(ending);
        if (model_file && entry.is_regular_file(status))
            files.push_back({entry.path().string(), "a file of the model"});
    }
    return files;
}

std::vector<FileRead> FilesOfTokenizer(const std::string& path) {
    std::error_code status;
    const fs::path folder =
        fs::is_directory(path, status) ? fs::path(path) : fs::path(path).parent_path();
    const fs::path base = folder.empty() ? fs::path(".") : folder;
    return {{path, "the tokenizer's folder"},
            {(base / "vocab.json").string(), "the tokenizer's vocab.json"},
            {(base / "merges.txt").string(), "the tokenizer's merges.txt"}};
}

bool LooksLikeModelConfig(const std::string& path) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
        const fs::path folder(path);
        return !fs::exists(folder / "model.safetensors", error) &&
               !fs::exists(folder / "model.safetensors.index.json", error) &&
               fs::is_regular_file(folder / "config.json", error);
    }
    const std::string name = fs::path(path).filename().string();
    const auto ends = [&](const std::string& suffix) {
        return name.size() >= suffix.size() &&
               name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (!ends(".json") || ends(".safetensors.index.json")) return false;
    std::string text;
    json doc;
    if (!ReadInputFile(path, kMaxConfigBytes, &text).empty() || !ParseJsonInput(text, &doc).empty())
        return false;
    return doc.is_object() && (doc.contains("model_type") || doc.contains("architectures"));
}

bool LooksLikeCheckpoint(const std::string& path) {
    std::error_code error;
    if (LooksLikeModelConfig(path)) return true;
    if (fs::is_directory(path, error))
        return fs::exists(fs::path(path) / "model.safetensors", error) ||
               fs::exists(fs::path(path) / "model.safetensors.index.json", error);
    const auto ends_with = [&](const char* suffix) {
        const std::size_t length = std::char_traits<char>::length(suffix);
        return path.size() >= length && path.compare(path.size() - length, length, suffix) == 0;
    };
    if (ends_with(".safetensors") || ends_with(".npy") || ends_with(".safetensors.index.json") ||
        LooksLikeGguf(path))
        return true;
    // By content: a .npy magic, or a safetensors length (below 2⁴⁰) followed by '{'.
    ByteFile file;
    unsigned char bytes[9] = {};
    if (!file.Open(path).ok() || file.Size() < 9 || !file.Read(0, 9, bytes).ok()) return false;
    return std::memcmp(bytes, "\x93NUMPY", 6) == 0 ||
           (bytes[8] == '{' && bytes[5] == 0 && bytes[6] == 0 && bytes[7] == 0);
}

namespace {

using Clock = std::chrono::steady_clock;
double SecondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// What a reader should know about the folder and the config beside the weights.
void NoteFolderAndConfig(const ModelRequest& request, ModelReport* report) {
    std::error_code status;
    if (fs::is_directory(request.path, status) &&
        fs::exists(fs::path(request.path) / "model.safetensors", status) &&
        fs::exists(fs::path(request.path) / "model.safetensors.index.json", status))
        report->found.notes.push_back("the folder holds model.safetensors and "
                                      "model.safetensors.index.json: model.safetensors was read");
    const std::string& type = report->config.model_type;
    const std::string& family = report->found.family;
    const std::string& id = report->found.family_id;
    if (report->has_config && !type.empty() &&
        ((id == "gpt2" && type != "gpt2") || (id == "opt" && type != "opt")))
        report->found.notes.push_back("config.json says model_type \"" + PrintableLine(type) +
                                      "\", but the weights' names are " + family + "'s");
}

// The learned table read into the report (the rows before first_row dropped in place: the table
// is held once), analysed beside its sinusoidal twin and its offset cosines: "" or why not.
std::string AnalyseLearnedTable(Checkpoint& checkpoint, const AnalysisControl& control,
                                ModelReport* out) {
    ModelReport& report = *out;
    const FoundPositions& found = report.found;
    Status error;
    const TensorInfo* info = checkpoint.Find(found.table, &error);
    if (info == nullptr) return error.message();
    const long long rows = info->shape[0] - found.first_row, cols = info->shape[1];
    if (cols > kMaxDModel)
        return Excerpt(json(report.path), 200) + ": tensor \"" + found.table + "\" has " +
               std::to_string(cols) + " columns; PE Lab analyses tables of at most " +
               std::to_string(kMaxDModel);
    if (rows * cols > kMaxTableElements)
        return Excerpt(json(report.path), 200) + ": tensor \"" + found.table + "\" is " +
               std::to_string(info->shape[0]) + " × " + std::to_string(cols) +
               "; PE Lab analyses tables of at most " + std::to_string(kMaxTableElements) +
               " numbers";
    if (rows < 2)
        return Excerpt(json(report.path), 200) + ": tensor \"" + found.table +
               "\" has fewer than 2 position rows";
    if (rows > kMaxTableRows)
        return Excerpt(json(report.path), 200) + ": tensor \"" + found.table + "\" has " +
               std::to_string(rows) + " position rows; PE Lab analyses tables of at most " +
               std::to_string(kMaxTableRows);
    const Clock::time_point read = Clock::now();
    // Read straight into the report, the rows before first_row dropped in place: the
    // table is held once.
    if (std::string problem = checkpoint.ReadFloats(*info, &report.table).message();
        !problem.empty())
        return problem;
    report.table.erase(report.table.begin(),
                       report.table.begin() + static_cast<std::ptrdiff_t>(found.first_row * cols));
    report.table.shrink_to_fit();
    report.seconds_read = SecondsSince(read);
    control.Check();
    // The sinusoidal table of the same size (an even width: a column fewer when odd),
    // its analysis and the table's offset cosines run beside the table's own analysis
    // (two cores: a 4096 × 4096 table's open takes about half as long).
    const int width = std::max(2, static_cast<int>(cols) - static_cast<int>(cols % 2));
    report.sinusoid.resize(static_cast<std::size_t>(rows) * static_cast<std::size_t>(width));
    pe_matrix_into(static_cast<int>(rows), width, 10000.0, Layout::Interleaved,
                   report.sinusoid.data());
#ifdef __EMSCRIPTEN__
    constexpr std::launch kBeside = std::launch::deferred; // no threads in the page
#else
    constexpr std::launch kBeside = std::launch::async;
#endif
    std::future<void> beside = std::async(kBeside, [&] {
        report.sinusoid_report =
            analyse_table(report.sinusoid, static_cast<int>(rows), width, control);
        report.offsets =
            TableOffsets(report.table, static_cast<int>(rows), static_cast<int>(cols), control);
    });
    try {
        report.table_report =
            analyse_table(report.table, static_cast<int>(rows), static_cast<int>(cols), control);
    } catch (...) {
        beside.wait(); // it reads the table: never left running past this frame
        throw;
    }
    beside.get();
    report.has_table = true;
    return {};
}

} // namespace

namespace {

// A config.json opened alone (or a folder holding only one): every number that needs no weights.
std::string OpenConfigAlone(const ModelRequest& request, ModelReport* out) {
    ModelRequest alone = request;
    std::error_code status;
    if (alone.config_path.empty())
        alone.config_path = fs::is_directory(request.path, status)
                                ? (fs::path(request.path) / "config.json").string()
                                : request.path;
    ModelReport report;
    if (std::string error = ReadConfig(alone, &report); !error.empty()) return error;
    if (!request.table.empty())
        return "--table: a config.json alone holds no tensors (open the weights to choose one)";
    report.path = report.config_path;
    report.format = "config.json";
    report.config_only = true;
    report.schedule = BuildLayerSchedule(report.config);
    if (std::string problem = FindPositionsFromConfig(report.config, &report.found).message();
        !problem.empty())
        return Excerpt(json(report.path), 200) + ": " + problem;
    if (report.found.kind == PositionKind::Rope) {
        rope_frequencies(report.found, report.config, &report.rope);
        report.has_rope = true;
    } else if (report.found.kind == PositionKind::Alibi) {
        if (report.found.alibi_heads > kMaxAlibiHeads)
            return Excerpt(json(report.path), 200) + ": " +
                   std::to_string(report.found.alibi_heads) +
                   " heads; ALiBi's slopes are computed for at most " +
                   std::to_string(kMaxAlibiHeads);
        report.alibi_slopes = alibi_slopes(report.found.alibi_heads);
    }
    *out = std::move(report);
    return {};
}

} // namespace

std::string OpenModel(const ModelRequest& asked, ModelReport* out,
                      const std::atomic<bool>* cancel) {
    ModelRequest request = asked;
    if (std::string error = ResolveModelPath(asked.path, &request.path); !error.empty())
        return error;
    if (LooksLikeModelConfig(request.path)) return OpenConfigAlone(request, out);
    AnalysisControl control;
    control.cancel = cancel;
    control.time_cap_seconds = kTableTimeCapSeconds;
    const Clock::time_point start = Clock::now();
    ModelReport report;
    if (std::string error = ReadConfig(request, &report); !error.empty()) return error;
    Checkpoint checkpoint;
    if (std::string error = checkpoint.Open(request.path).message(); !error.empty()) return error;
    std::vector<std::string> gguf_notes;
    if (std::string error = ReadGgufSettings(checkpoint, &report, &gguf_notes); !error.empty())
        return error;
    report.path = checkpoint.Path();
    report.format = checkpoint.FormatName();
    report.tensor_count = checkpoint.Names().size();
    Status error;
    for (const std::string& name : checkpoint.Names()) {
        // Only tensors of loaded files are listed with shapes (a shard is not opened for this).
        if (checkpoint.FormatName() != "npy" && checkpoint.FilesOpened() == 0) break;
        const TensorInfo* info = checkpoint.Find(name, &error);
        if (info && info->Readable() && info->shape.size() == 2 && info->shape[0] >= 2)
            report.tensors_2d.push_back(name);
        if (report.tensors_2d.size() >= 2000) break;
    }
    if (std::string problem =
            FindPositions(checkpoint, report.has_config ? &report.config : nullptr, request.table,
                          &report.found)
                .message();
        !problem.empty())
        return Excerpt(json(report.path), 200) + ": " + problem;
    if (report.has_config) report.schedule = BuildLayerSchedule(report.config);
    NoteFolderAndConfig(request, &report);
    report.found.notes.insert(report.found.notes.end(), gguf_notes.begin(), gguf_notes.end());
    if (!report.gguf.is_null()) NameGgufMetadata(&report);
    const FoundPositions& found = report.found;
    report.seconds_open = SecondsSince(start);
    try {
        if (found.kind == PositionKind::LearnedTable) {
            if (std::string problem = AnalyseLearnedTable(checkpoint, control, &report);
                !problem.empty())
                return problem;
        } else if (found.kind == PositionKind::Rope) {
            if (std::string problem =
                    analyse_rope(checkpoint, found, report.config, &report.rope).message();
                !problem.empty())
                return Excerpt(json(report.path), 200) + ": " + problem;
            report.has_rope = true;
        } else if (found.kind == PositionKind::RelativeBuckets) {
            if (std::string problem =
                    analyse_buckets(checkpoint, found, report.has_config ? &report.config : nullptr,
                                    &report.buckets)
                        .message();
                !problem.empty())
                return Excerpt(json(report.path), 200) + ": " + problem;
        } else if (found.kind == PositionKind::Alibi) {
            if (found.alibi_heads > kMaxAlibiHeads)
                return Excerpt(json(report.config_path), 200) + ": " +
                       std::to_string(found.alibi_heads) +
                       " heads; ALiBi's slopes are computed for at most " +
                       std::to_string(kMaxAlibiHeads);
            report.alibi_slopes = alibi_slopes(found.alibi_heads);
        }
    } catch (const InvalidArgument& problem) {
        return Excerpt(json(report.path), 200) + ": " + problem.what();
    } catch (const std::bad_alloc&) {
        return Excerpt(json(report.path), 200) +
               ": not enough memory to analyse its position tensors";
    }
    report.seconds_analyse = SecondsSince(start) - report.seconds_open - report.seconds_read;
    *out = std::move(report);
    return {};
}

} // namespace pelab
