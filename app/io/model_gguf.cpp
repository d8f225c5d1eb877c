// model_gguf.cpp — a GGUF file opened in the Your model panel and by `pelab model inspect`: its
// metadata in place of config.json (pelab/models/gguf.h).
#include "io/model_files.h"

#include "io/json_input.h"
#include "pelab/models/gguf.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <tuple>

namespace pelab {

namespace {

nlohmann::json ValueJson(const GgufValue& value) {
    using nlohmann::json;
    if (value.type == GgufValueType::String) return value.text;
    if (value.type == GgufValueType::Bool) return value.integer != 0;
    if (value.type == GgufValueType::F32 || value.type == GgufValueType::F64) return value.number;
    if (value.type == GgufValueType::U64) return value.unsigned_value;
    if (value.type != GgufValueType::Array) return value.integer;
    json first = json::array();
    constexpr std::size_t kShown = 8;
    for (std::size_t k = 0; k < value.strings.size() && k < kShown; ++k)
        first.push_back(value.strings[k]);
    if (value.element != GgufValueType::String)
        for (std::size_t k = 0; k < value.numbers.size() && k < kShown; ++k)
            first.push_back(value.numbers[k]);
    return {
        {"array", gguf_value_type_name(value.element)}, {"count", value.count}, {"first", first}};
}

} // namespace

nlohmann::json GgufSummary(const GgufFile& file) {
    using nlohmann::json;
    json metadata = json::object(), tensors = json::array();
    for (const auto& [key, value] : file.metadata)
        metadata[key] = ValueJson(value);
    for (const GgufTensor& tensor : file.tensors)
        tensors.push_back({{"name", tensor.name},
                           {"type", tensor.type ? std::string(tensor.type->name)
                                                : "type " + std::to_string(tensor.type_id)},
                           {"ne", tensor.ne},
                           {"offset", tensor.offset}});
    return {{"version", file.version},
            {"alignment", file.alignment},
            {"metadata", metadata},
            {"tensors", tensors}};
}

namespace {

// Ollama's stores (docs/models.md): OLLAMA_MODELS, the user's, a service install's.
std::vector<std::filesystem::path> OllamaStores() {
    std::vector<std::filesystem::path> stores;
    if (const char* chosen = std::getenv("OLLAMA_MODELS"); chosen && *chosen)
        stores.emplace_back(chosen);
    if (const char* home = std::getenv("HOME"); home && *home)
        stores.push_back(std::filesystem::path(home) / ".ollama" / "models");
    stores.emplace_back("/usr/share/ollama/.ollama/models");
    return stores;
}

// The model layer's blob in one manifest: "" with *blob set, or why not.
std::string BlobOfManifest(const std::filesystem::path& store, const std::string& manifest,
                           const std::string& shown, std::string* blob) {
    std::string text;
    nlohmann::json doc;
    if (std::string error = ReadInputFile(manifest, 1u << 20, &text); !error.empty())
        return "ollama:" + shown + ": its manifest " + error;
    if (std::string error = ParseJsonInput(text, &doc); !error.empty())
        return "ollama:" + shown + ": its manifest " + Excerpt(nlohmann::json(manifest), 200) +
               ": " + error;
    const auto layers = doc.find("layers");
    if (!doc.is_object() || layers == doc.end() || !layers->is_array())
        return "ollama:" + shown + ": its manifest has no layers";
    int tensors = 0;
    for (const nlohmann::json& layer : *layers) {
        if (!layer.is_object()) continue;
        const std::string type = layer.value("mediaType", "");
        if (type == "application/vnd.ollama.image.tensor") ++tensors;
        if (type != "application/vnd.ollama.image.model") continue;
        const std::string digest = layer.value("digest", "");
        const std::string prefix = "sha256:";
        if (digest.compare(0, prefix.size(), prefix) != 0 || digest.size() != prefix.size() + 64 ||
            digest.find_first_not_of("0123456789abcdef", prefix.size()) != std::string::npos)
            return "ollama:" + shown + ": its model layer's digest " +
                   Excerpt(nlohmann::json(digest), 80) + " is not sha256:<64 hex digits>";
        *blob = (store / "blobs" / ("sha256-" + digest.substr(prefix.size()))).string();
        return {};
    }
    if (tensors > 0)
        return "ollama:" + shown + ": its manifest stores the model as " + std::to_string(tensors) +
               " separate tensor layers, not one GGUF file; PE Lab reads a model's single GGUF "
               "blob";
    return "ollama:" + shown +
           ": its manifest has no model layer "
           "(application/vnd.ollama.image.model)";
}

} // namespace

std::string ResolveModelPath(const std::string& path, std::string* resolved) {
    *resolved = path;
    const std::string scheme = "ollama:";
    if (path.compare(0, scheme.size(), scheme) != 0) return {};
    std::string name = path.substr(scheme.size()), tag = "latest";
    if (const std::size_t colon = name.rfind(':'); colon != std::string::npos) {
        tag = name.substr(colon + 1);
        name = name.substr(0, colon);
    }
    const auto plain = [](const std::string& part) {
        return !part.empty() && part != "." && part != ".." &&
               part.find_first_of("/\\:") == std::string::npos &&
               part.find('\0') == std::string::npos;
    };
    // "llama3.2" is library/llama3.2; "user/model" its own namespace.
    std::string space = "library";
    if (const std::size_t slash = name.find('/'); slash != std::string::npos) {
        space = name.substr(0, slash);
        name = name.substr(slash + 1);
    }
    if (!plain(name) || !plain(tag) || !plain(space))
        return "ollama:NAME[:TAG] (e.g. ollama:llama3.2 or ollama:qwen3:8b): got " +
               Excerpt(nlohmann::json(path), 100);
    const std::string shown = (space == "library" ? "" : space + "/") + name + ":" + tag;
    std::vector<std::string> looked;
    for (const std::filesystem::path& store : OllamaStores()) {
        const std::filesystem::path manifest =
            store / "manifests" / "registry.ollama.ai" / space / name / tag;
        std::error_code status;
        looked.push_back(manifest.string());
        if (!std::filesystem::is_regular_file(manifest, status)) continue;
        return BlobOfManifest(store, manifest.string(), shown, resolved);
    }
    std::string where;
    for (const std::string& folder : looked)
        where += (where.empty() ? "" : ", ") + folder;
    return "ollama:" + shown + ": no such model in Ollama's stores (looked for " + where +
           "; `ollama pull " + shown + "` fetches it)";
}

namespace {

std::uintmax_t SizeOf(const std::filesystem::path& file) {
    std::error_code status;
    const std::uintmax_t bytes = std::filesystem::file_size(file, status);
    return status ? 0 : bytes;
}

} // namespace

std::vector<LocalModel> FindLocalModels(std::size_t limit) {
    namespace fs = std::filesystem;
    std::vector<LocalModel> found;
    std::error_code status;
    // Ollama: manifests/registry.ollama.ai/NAMESPACE/NAME/TAG.
    for (const fs::path& store : OllamaStores()) {
        const fs::path registry = store / "manifests" / "registry.ollama.ai";
        for (const auto& space : fs::directory_iterator(registry, status)) {
            for (const auto& name : fs::directory_iterator(space.path(), status)) {
                for (const auto& tag : fs::directory_iterator(name.path(), status)) {
                    if (found.size() >= limit) break;
                    const std::string space_name = space.path().filename().string();
                    const std::string shown = (space_name == "library" ? "" : space_name + "/") +
                                              name.path().filename().string() + ":" +
                                              tag.path().filename().string();
                    std::string blob;
                    if (BlobOfManifest(store, tag.path().string(), shown, &blob).empty() &&
                        fs::is_regular_file(blob, status))
                        found.push_back({"Ollama", shown, store.string(), blob, SizeOf(blob)});
                }
            }
        }
    }
    // LM Studio: PUBLISHER/MODEL/FILE.gguf.
    if (const char* home = std::getenv("HOME"); home && *home) {
        for (const fs::path& root : {fs::path(home) / ".lmstudio" / "models",
                                     fs::path(home) / ".cache" / "lm-studio" / "models"}) {
            fs::recursive_directory_iterator walk(
                root, fs::directory_options::skip_permission_denied, status),
                end;
            for (; walk != end && found.size() < limit; walk.increment(status)) {
                if (walk.depth() > 3) walk.disable_recursion_pending();
                const std::string file = walk->path().filename().string();
                const bool gguf = file.size() > 5 && file.compare(file.size() - 5, 5, ".gguf") == 0;
                const bool later_part = file.find("-of-") != std::string::npos &&
                                        file.find("-00001-of-") == std::string::npos;
                if (gguf && !later_part && walk->is_regular_file(status))
                    found.push_back(
                        {"LM Studio", file,
                         fs::relative(walk->path().parent_path(), root, status).string(),
                         walk->path().string(), SizeOf(walk->path())});
            }
        }
    }
    std::sort(found.begin(), found.end(), [](const LocalModel& a, const LocalModel& b) {
        return std::tie(a.runner, a.name, a.folder) < std::tie(b.runner, b.name, b.folder);
    });
    return found;
}

void NameGgufMetadata(ModelReport* report) {
    // The settings' notes speak of config.json; a GGUF file's are its metadata.
    const auto rename = [](std::vector<std::string>* notes) {
        for (std::string& note : *notes)
            for (std::size_t at = note.find("config.json"); at != std::string::npos;
                 at = note.find("config.json", at))
                note.replace(at, 11, "the file's metadata");
    };
    rename(&report->found.notes);
    rename(&report->schedule.notes);
}

bool LooksLikeGguf(const std::string& path) {
    const std::string suffix = ".gguf";
    if (path.size() >= suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
        return true;
    ByteFile file;
    char magic[4] = {};
    return file.Open(path).ok() && file.Size() >= 4 && file.Read(0, 4, magic).ok() &&
           std::memcmp(magic, "GGUF", 4) == 0;
}

std::string ReadGgufSettings(Checkpoint& checkpoint, ModelReport* report,
                             std::vector<std::string>* notes) {
    if (checkpoint.Gguf() == nullptr || report->has_config) return {};
    nlohmann::json settings;
    if (Status error = ReadGgufModelConfig(checkpoint, &report->config, notes, &settings);
        !error.ok())
        return Excerpt(nlohmann::json(checkpoint.Path()), 200) + ": " + error.message();
    report->has_config = true;
    report->config_path.clear();
    report->gguf = GgufSummary(*checkpoint.Gguf());
    // The config.json the metadata was read as, for an engineer comparing with the original.
    report->gguf["config"] = std::move(settings);
    return {};
}

} // namespace pelab
