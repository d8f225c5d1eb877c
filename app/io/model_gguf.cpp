// model_gguf.cpp — a GGUF file opened in the Your model panel and by `pelab model inspect`: its
// metadata in place of config.json (pelab/models/gguf.h).
#include "io/model_files.h"

#include "io/json_input.h"
#include "pelab/models/gguf.h"

#include <cstring>

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
    if (Status error = ReadGgufModelConfig(checkpoint, &report->config, notes); !error.ok())
        return Excerpt(nlohmann::json(checkpoint.Path()), 200) + ": " + error.message();
    report->has_config = true;
    report->config_path.clear();
    report->gguf = GgufSummary(*checkpoint.Gguf());
    return {};
}

} // namespace pelab
