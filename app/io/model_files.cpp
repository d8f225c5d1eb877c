#include "io/model_files.h"

#include "io/json_input.h"
#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/encodings/sinusoidal.h"
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

json Numbers(const std::vector<double>& values) {
    return json(values);
}

json TableJson(const TableReport& report) {
    return {{"rows", report.rows},
            {"cols", report.cols},
            {"singular_values", Numbers(report.singular_values)},
            {"explained", Numbers(report.explained)},
            {"iterative", report.iterative},
            {"approximate", report.approximate},
            {"singular_value_error", Numbers(report.singular_value_error)},
            {"explained_error", explained_error(report)},
            {"components", report.components},
            {"wavelengths", Numbers(report.wavelengths)},
            {"norms", Numbers(report.norms)},
            {"neighbour_cosine", Numbers(report.neighbour_cosine)},
            {"median_norm", report.median_norm},
            {"edge_norm_ratio", report.edge_norm_ratio}};
}

std::string Number(double value) {
    std::ostringstream out;
    out.precision(value >= 1000 && value < 1e7 ? 7 : 4);
    out << value;
    return out.str();
}

// "components 1-3" of the first three shown, "component 1" of a one-column table.
std::string ComponentRange(std::size_t count) {
    const std::size_t shown = std::min<std::size_t>(3, count);
    return shown == 1 ? "component 1" : "components 1-" + std::to_string(shown);
}

// After a share of variance: " (approximate: ± x%)" when the iterative solver ran out of time.
std::string ApproximationNote(const TableReport& report) {
    if (!report.approximate) return {};
    return " (approximate: each within ± " + Number(100 * explained_error(report)) +
           "%, the solver stopped after " + Number(kTableTimeCapSeconds) + " s)";
}

} // namespace

OffsetCosines TableOffsets(const std::vector<float>& table, int rows, int cols,
                           const AnalysisControl& control) {
    const long long offsets = std::min(rows - 1, kMaxMeasuredOffset) + 1;
    const long long budget = 1000000000LL / (offsets * std::max(cols, 1));
    return offset_cosines(table, rows, cols, kMaxMeasuredOffset,
                          static_cast<int>(std::clamp(budget, 2LL, static_cast<long long>(rows))),
                          control);
}

std::string CheckModel(const ModelRequest& request) {
    ModelReport report;
    if (std::string error = ReadConfig(request, &report); !error.empty()) return error;
    Checkpoint checkpoint;
    if (std::string error = checkpoint.Open(request.path).message(); !error.empty()) return error;
    FoundPositions found;
    if (std::string problem =
            FindPositions(checkpoint, report.has_config ? &report.config : nullptr, request.table,
                          &found)
                .message();
        !problem.empty())
        return Excerpt(json(checkpoint.Path()), 200) + ": " + problem;
    return {};
}

std::string OpenGpt2(const ModelRequest& request, Gpt2Model* out, double* seconds) {
    const auto start = std::chrono::steady_clock::now();
    ModelReport report;
    if (std::string error = ReadConfig(request, &report); !error.empty()) return error;
    Checkpoint checkpoint;
    if (std::string error = checkpoint.Open(request.path).message(); !error.empty()) return error;
    if (!report.has_config)
        return Excerpt(json(checkpoint.Path()), 200) +
               ": GPT-2 needs its config.json (n_layer, n_head) beside the weights, or --config";
    Gpt2Model model;
    try {
        if (std::string error = Gpt2Model::Load(checkpoint, report.config, &model).message();
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
        if (!has_vocab || !has_merges)
            return Excerpt(json(folder.string()), 200) + " holds no " +
                   (has_vocab    ? "merges.txt"
                    : has_merges ? "vocab.json"
                                 : "vocab.json or merges.txt") +
                   " (GPT-2's tokenizer needs vocab.json and merges.txt, published beside its "
                   "weights)";
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

std::vector<FileRead> FilesOfCheckpoint(const std::string& path) {
    std::vector<FileRead> files{{path, "the checkpoint"}};
    std::error_code status;
    const bool folder = fs::is_directory(path, status);
    Checkpoint checkpoint;
    if (checkpoint.Open(path).ok()) {
        const std::vector<std::string> paths = checkpoint.FilePaths();
        for (std::size_t i = 0; i < paths.size(); ++i)
            files.push_back({paths[i], checkpoint.FormatName() == "npy" ? "the table"
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
    for (const char* name : {"config.json", "vocab.json", "merges.txt", "tokenizer.json"})
        files.push_back({((beside.empty() ? fs::path(".") : beside) / name).string(),
                         std::string(name) + " beside the weights"});
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

bool LooksLikeCheckpoint(const std::string& path) {
    std::error_code error;
    if (fs::is_directory(path, error))
        return fs::exists(fs::path(path) / "model.safetensors", error) ||
               fs::exists(fs::path(path) / "model.safetensors.index.json", error);
    const auto ends_with = [&](const char* suffix) {
        const std::size_t length = std::char_traits<char>::length(suffix);
        return path.size() >= length && path.compare(path.size() - length, length, suffix) == 0;
    };
    if (ends_with(".safetensors") || ends_with(".npy") || ends_with(".safetensors.index.json"))
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
    if (report->has_config && !type.empty() &&
        ((family == "GPT-2" && type != "gpt2") || (family == "OPT" && type != "opt")))
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

std::string OpenModel(const ModelRequest& request, ModelReport* out,
                      const std::atomic<bool>* cancel) {
    AnalysisControl control;
    control.cancel = cancel;
    control.time_cap_seconds = kTableTimeCapSeconds;
    const Clock::time_point start = Clock::now();
    ModelReport report;
    if (std::string error = ReadConfig(request, &report); !error.empty()) return error;
    Checkpoint checkpoint;
    if (std::string error = checkpoint.Open(request.path).message(); !error.empty()) return error;
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
    NoteFolderAndConfig(request, &report);
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

json ModelReportJson(const ModelReport& report, bool full) {
    const FoundPositions& found = report.found;
    json doc = {{"file", report.path},
                {"format", report.format},
                {"tensors", report.tensor_count},
                {"family", found.family},
                {"kind", position_kind_name(found.kind)},
                {"context", found.context},
                {"notes", found.notes},
                {"config", report.has_config ? json(report.config_path) : json(nullptr)},
                {"seconds",
                 {{"open", report.seconds_open},
                  {"read", report.seconds_read},
                  {"analyse", report.seconds_analyse}}}};
    if (report.has_table) {
        json table = TableJson(report.table_report);
        table["name"] = found.table;
        table["first_row"] = found.first_row;
        table["padding_row"] = found.padding_row;
        if (full) {
            const int rows = report.table_report.rows;
            const std::vector<float> cosine =
                cosine_matrix(report.table, rows, report.table_report.cols);
            json matrix = json::array();
            for (int p = 0; p < rows; ++p)
                matrix.push_back(
                    std::vector<float>(cosine.begin() + static_cast<std::ptrdiff_t>(p) * rows,
                                       cosine.begin() + static_cast<std::ptrdiff_t>(p + 1) * rows));
            table["cosine"] = std::move(matrix);
            const OffsetCosines& offsets = report.offsets;
            table["offset_cosines"] = {{"mean", offsets.mean},
                                       {"least", offsets.least},
                                       {"greatest", offsets.greatest},
                                       {"starts", offsets.starts},
                                       {"sampled", offsets.sampled}};
        }
        doc["table"] = table;
        doc["sinusoidal"] = TableJson(report.sinusoid_report);
    }
    if (report.has_rope) {
        const RopeReport& rope = report.rope;
        json usage = json::array();
        for (int layer = 0; layer < rope.layers; ++layer) {
            json heads = json::array();
            for (int head = 0; head < rope.heads; ++head) {
                const auto start =
                    rope.usage.begin() +
                    (static_cast<std::ptrdiff_t>(layer) * rope.heads + head) * rope.pairs;
                heads.push_back(std::vector<double>(start, start + rope.pairs));
            }
            usage.push_back(heads);
        }
        doc["rope"] = {
            {"head_dim", rope.head_dim},
            {"rotary_dims", rope.rotary_dims},
            {"pairs", rope.pairs},
            {"pairing", found.pairing == RotaryPairing::HalfSplit ? "half-split" : "interleaved"},
            {"base", rope.base},
            {"base_from_default", found.base_from_default},
            {"heads", found.heads},
            {"kv_heads", found.kv_heads},
            {"layers", rope.layers},
            {"wavelengths", rope.wavelength},
            {"pairs_without_turn", rope.pairs_without_turn},
            {"scaling", rope.scaling},
            {"scaling_note", rope.scaling_note},
            {"scaled_wavelengths", rope.scaled_wavelength},
            {"usage", usage},
            {"layer_usage_flat", rope.layer_usage}};
    }
    if (!report.buckets.empty()) {
        json stacks = json::array();
        for (const BucketReport& bucket : report.buckets) {
            json bias = json::array();
            for (int h = 0; h < bucket.heads; ++h) {
                const auto start =
                    bucket.bias.begin() + static_cast<std::ptrdiff_t>(h) *
                                              static_cast<std::ptrdiff_t>(bucket.distances.size());
                bias.push_back(std::vector<double>(
                    start, start + static_cast<std::ptrdiff_t>(bucket.distances.size())));
            }
            stacks.push_back({{"stack", bucket.stack},
                              {"buckets", bucket.buckets},
                              {"heads", bucket.heads},
                              {"max_distance", bucket.max_distance},
                              {"bidirectional", bucket.bidirectional},
                              {"distances", bucket.distances},
                              {"edges", bucket.edges},
                              {"bias", bias}});
        }
        doc["buckets"] = stacks;
    }
    if (!report.alibi_slopes.empty())
        doc["alibi"] = {{"heads", found.alibi_heads}, {"slopes", report.alibi_slopes}};
    return doc;
}

std::string ModelReportText(const ModelReport& report) {
    const FoundPositions& found = report.found;
    std::ostringstream out;
    out << "file: " << PrintableLine(report.path) << " (" << report.format << ", "
        << report.tensor_count << (report.tensor_count == 1 ? " tensor)\n" : " tensors)\n");
    out << "config: " << (report.has_config ? PrintableLine(report.config_path) : "none") << "\n";
    out << "family: " << PrintableLine(found.family)
        << "; positions: " << position_kind_name(found.kind);
    if (found.context > 0) out << "; context " << found.context;
    out << "\n";
    for (const std::string& note : found.notes)
        out << "note: " << PrintableLine(note) << "\n";
    if (report.has_table) {
        const TableReport& t = report.table_report;
        out << "table: " << PrintableLine(found.table) << ", " << t.rows << " positions × "
            << t.cols << " dimensions (from row " << found.first_row << ")\n";
        out << "  variance explained by " << ComponentRange(t.explained.size()) << ":";
        for (std::size_t k = 0; k < 3 && k < t.explained.size(); ++k)
            out << " " << Number(100 * t.explained[k]) << "%";
        out << ApproximationNote(t);
        out << "\n  dominant wavelengths of components 1-6 (positions; 0 = under one wave):";
        for (double w : t.wavelengths)
            out << " " << Number(w);
        out << "\n  row norms: median " << Number(t.median_norm);
        if (t.median_norm > 0 && t.rows > 16)
            out << ", last 16 rows " << Number(t.edge_norm_ratio) << " × the median";
        out << "\n";
        const TableReport& s = report.sinusoid_report;
        // The twin has an even width: a column fewer (two, for a one-column table) when odd.
        if (s.cols == t.cols)
            out << "  sinusoidal of the same size: " << ComponentRange(s.explained.size())
                << " explain";
        else
            out << "  sinusoidal of " << s.rows << " × " << s.cols
                << " (the nearest even width): " << ComponentRange(s.explained.size())
                << " explain";
        for (std::size_t k = 0; k < 3 && k < s.explained.size(); ++k)
            out << " " << Number(100 * s.explained[k]) << "%";
        out << ApproximationNote(s);
        out << "\n";
    }
    if (report.has_rope) {
        const RopeReport& r = report.rope;
        out << "rope: base " << Number(r.base) << ", " << r.rotary_dims << " of " << r.head_dim
            << " dimensions rotate (" << r.pairs << " pairs, "
            << (found.pairing == RotaryPairing::HalfSplit ? "half-split" : "interleaved") << "), "
            << r.layers << " layers × " << r.heads << " heads\n";
        out << "  wavelengths: " << Number(r.wavelength.front()) << " (fastest) to "
            << Number(r.wavelength.back()) << " (slowest) positions; ";
        if (r.context <= 0)
            out << "the config gives no trained context\n";
        else if (r.pairs_without_turn == 0)
            out << "every pair completes a turn within the " << r.context << " trained\n";
        else
            out << r.pairs_without_turn << " of " << r.pairs
                << (r.pairs_without_turn == 1 ? " pairs never completes" : " pairs never complete")
                << " a turn within the " << r.context << " trained\n";
        if (!r.scaling.empty())
            out << "  rope_scaling " << PrintableLine(r.scaling) << ": "
                << PrintableLine(r.scaling_note) << "\n";
    }
    for (const BucketReport& b : report.buckets)
        out << "buckets (" << b.stack << "): " << b.buckets << " buckets × " << b.heads
            << " heads, max distance " << b.max_distance << ", "
            << (b.bidirectional ? "bidirectional" : "causal") << "\n";
    if (!report.alibi_slopes.empty())
        out << "alibi: " << found.alibi_heads << " heads, slopes "
            << Number(report.alibi_slopes.front()) << " to " << Number(report.alibi_slopes.back())
            << "\n";
    return out.str();
}

} // namespace pelab
