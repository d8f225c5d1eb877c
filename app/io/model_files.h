// model_files.h — opening a checkpoint someone brings (its weights, config.json beside them) and
// computing every number the "Your model" panel and `pelab model inspect` show, once.
#pragma once

#include "pelab/models/bpe_tokenizer.h"
#include "pelab/models/checkpoint.h"
#include "pelab/models/gpt2.h"
#include "pelab/models/layer_schedule.h"
#include "pelab/models/llama.h"
#include "pelab/models/model_config.h"
#include "pelab/models/model_positions.h"
#include "pelab/models/rope_analysis.h"
#include "pelab/models/table_analysis.h"
#include "pelab/models/table_offsets.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace pelab {

/// Largest config.json read (real ones are 1–10 KiB; a multimodal one up to ~50 KiB).
constexpr std::size_t kMaxConfigBytes = 1u << 20;
/// Rows × columns of a learned table analysed (GPT-2 medium's 1024 × 1024 is 2²⁰; a larger
/// table is refused with this limit named).
constexpr long long kMaxTableElements = 1LL << 24;
/// Rows of a learned table analysed (the longest learned tables are a few thousand rows; the
/// wavelength finder's FFT of 8 × rows points stays at 16 MiB).
constexpr long long kMaxTableRows = 1LL << 17;

struct ModelRequest {
    std::string path;        ///< the weights: .safetensors, an index, .npy, or a folder
    std::string config_path; ///< "": config.json beside the weights, when there is one
    std::string table;       ///< "": the family's own; else a 2-D tensor read as a position table
};

/// Everything computed from one checkpoint (Compute → result): the panel draws it, the command
/// line prints it.
struct ModelReport {
    std::string path, format, config_path;
    bool config_only = false; ///< a config.json opened alone: no weights, no tensor views
    std::size_t tensor_count = 0;
    std::vector<std::string> tensors_2d; ///< the 2-D float tensors, for choosing a table
    bool has_config = false;
    CheckpointConfig config;
    /// A GGUF file's header as read (version, alignment, each metadata key with its value or an
    /// array's type, count and first elements, each tensor's name, ggml type, extents and
    /// offset); null for the other formats. Its settings stand in for config.json.
    nlohmann::json gguf;
    LayerSchedule schedule; ///< each layer's positions (empty without config.json)
    FoundPositions found;
    // Learned table: its values (rows from found.first_row on) and the same views of the
    // sinusoidal table of the same size (base 10 000).
    std::vector<float> table;
    bool has_table = false;
    TableReport table_report, sinusoid_report;
    std::vector<float> sinusoid;
    OffsetCosines offsets; ///< the table's cos(row p, row p + k) over starts (TableOffsets)
    bool has_rope = false;
    RopeReport rope;
    std::vector<BucketReport> buckets;
    std::vector<double> alibi_slopes;
    /// Wall-clock seconds: the files opened and the position parts found (headers only), the
    /// position tensors read, the numbers computed.
    double seconds_open = 0, seconds_read = 0, seconds_analyse = 0;
};

/// Offsets up to this many positions are measured in a table's offset cosines.
constexpr int kMaxMeasuredOffset = 4096;
/// cos(row p, row p + k) of a table over its starts, for k up to kMaxMeasuredOffset: every start
/// while the work stays under 10⁹ multiply-adds (GPT-2's 1 024 × 768 table: all of them, 0.4 ×
/// 10⁹), else starts spread evenly.
OffsetCosines TableOffsets(const std::vector<float>& table, int rows, int cols,
                           const AnalysisControl& control = {});
/// How long the iterative solver of a large table (pelab/models/top_eigen.h) may run before its
/// values are shown as approximate, with their error bounds: the table's and its sinusoidal twin's,
/// side by side.
constexpr double kTableTimeCapSeconds = 2.5;

/// The quick part of OpenModel: config.json read, the files' headers read, the position parts
/// found; no tensor data read. "" or the message OpenModel would give for these.
std::string CheckModel(const ModelRequest& asked);
/// Whether path looks like a checkpoint (by its name, or a safetensors / .npy start, or a folder
/// holding model.safetensors or its index): what File → Open hands to the Your model panel.
bool LooksLikeCheckpoint(const std::string& path);
/// path itself, or for "ollama:NAME[:TAG]" the GGUF blob Ollama's manifest names (in
/// OLLAMA_MODELS, ~/.ollama/models or /usr/share/ollama/.ollama/models). "" or the message.
std::string ResolveModelPath(const std::string& path, std::string* resolved);
struct GgufFile;
/// ModelReport::gguf of a parsed GGUF header.
nlohmann::json GgufSummary(const GgufFile& file);
/// A model file found where the local runners keep theirs.
struct LocalModel {
    std::string runner;       ///< "LM Studio" or "Ollama"
    std::string name;         ///< "llama3.2:latest"; LM Studio: the file's name ("x-Q4_K_M.gguf")
    std::string folder;       ///< LM Studio: PUBLISHER/MODEL; Ollama: the store
    std::string path;         ///< the GGUF file (Ollama's blob) to open
    std::uintmax_t bytes = 0; ///< the file's size
};
/// The GGUF models of this computer (docs/models.md): each Ollama store's manifests whose model
/// blob is there, and the .gguf files of LM Studio's folders (~/.lmstudio/models,
/// ~/.cache/lm-studio/models; a split model by its first file), at most `limit`, sorted by runner,
/// then name.
std::vector<LocalModel> FindLocalModels(std::size_t limit = 200);
/// A GGUF report's notes name its metadata where the readers' say config.json.
void NameGgufMetadata(ModelReport* report);
/// Whether path is a GGUF file: named .gguf, or starting with the magic "GGUF".
bool LooksLikeGguf(const std::string& path);
/// For a GGUF checkpoint without a config.json named: its metadata read as one into
/// report->config (has_config set, config_path "" — the settings are the file's), and *notes
/// what a reader should know of it. "" (also for other formats) or one message naming the file.
std::string ReadGgufSettings(Checkpoint& checkpoint, ModelReport* report,
                             std::vector<std::string>* notes);
/// Whether path is a model's config.json to open alone: a .json file holding an object with
/// model_type or architectures, or a folder holding config.json and no weights.
bool LooksLikeModelConfig(const std::string& path);

/// A file a command reads, and what it is to the command ("the weights", "a shard the index
/// names", "config.json beside the weights").
struct FileRead {
    std::string path, what;
};
/// Every file that opening path as a checkpoint may read: the weights (for a folder, its
/// model.safetensors or index; for an index, every shard it names) and the config.json,
/// vocab.json, merges.txt and tokenizer.json beside them. Cheap (headers and the index only);
/// a file that cannot be opened is listed as named, for the open to report. Commands refuse an
/// output that is one of these (cli_checks.h, CheckNoInputIsWritten).
std::vector<FileRead> FilesOfCheckpoint(const std::string& asked);
/// The files a tokenizer folder (or a file in it) gives: its vocab.json and merges.txt.
std::vector<FileRead> FilesOfTokenizer(const std::string& path);

/// Reads a config.json (or the one in the folder path): "" or the message naming the file. *dtype
/// receives its "dtype" / "torch_dtype" ("bfloat16", …; "" when absent), *config_path the file
/// read.
std::string ReadModelConfigFile(const std::string& path, CheckpointConfig* out, std::string* dtype,
                                std::string* config_path);

/// Opens, finds and analyses. "" or one message naming the file and what is wrong; *out is
/// written only on success. When cancel is set (by another thread) the analysis stops within
/// about 0.1 s and throws Cancelled (pelab/base/cancel.h).
std::string OpenModel(const ModelRequest& asked, ModelReport* out,
                      const std::atomic<bool>* cancel = nullptr);

/// Opens a GPT-2 checkpoint whole for its forward pass (pelab/models/gpt2.h): the weights and the
/// config.json beside them (or request.config_path; GPT-2 needs its n_layer and n_head). "" or one
/// message naming the file. *seconds (when given) receives the time it took.
std::string OpenGpt2(const ModelRequest& request, Gpt2Model* out, double* seconds = nullptr);
/// A tokenizer.json (Hugging Face's tokenizers format: Llama 3's, GPT-2's; the patterns and
/// parts BpeTokenizer::LoadTokenizerJson reads). "" or one message naming the file.
std::string OpenTokenizerJson(const std::string& path, BpeTokenizer* out);
/// The family id (families.h) of the config.json the request reads: "" when there is none, or
/// it cannot be read, or its model_type is not a family PE Lab knows.
std::string FamilyOfRequest(const ModelRequest& request);
/// The same as OpenGpt2 for a rotary model of the families LlamaPassRuns names
/// (pelab/models/llama.h).
std::string OpenLlama(const ModelRequest& request, LlamaModel* out, double* seconds = nullptr);

/// GPT-2's tokenizer from vocab.json and merges.txt: both named, or found in the folder given as
/// vocab_path (or beside the file it names), as Hugging Face lays them out. "" or one message.
std::string OpenTokenizer(const std::string& vocab_path, const std::string& merges_path,
                          BpeTokenizer* out);

/// Every number, as `pelab model inspect --json` prints it. full adds the cosine matrices.
nlohmann::json ModelReportJson(const ModelReport& report, bool full);
/// The same, as lines for a terminal.
std::string ModelReportText(const ModelReport& report);

} // namespace pelab
