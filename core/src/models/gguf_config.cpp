// A GGUF file's metadata read as the config.json it was converted from (pelab/models/gguf.h):
// the keys llama.cpp's converter (convert_hf_to_gguf.py, gguf-py's constants.py Keys) writes,
// mapped back onto transformers' names so that one reader (model_config.h) and one schedule
// (layer_schedule.h) serve both formats.
#include "pelab/models/gguf.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace pelab {

namespace {

using json = nlohmann::json;

// general.architecture → transformers' model_type (the families PE Lab knows). Architectures
// that llama.cpp names like the model_type are not listed.
struct Architecture {
    const char* gguf;
    const char* model_type;
};
constexpr Architecture kArchitectures[] = {
    {"gemma3", "gemma3_text"},   {"gpt-oss", "gpt_oss"},    {"deepseek2", "deepseek_v3"},
    {"qwen3moe", "qwen3_moe"},   {"qwen2moe", "qwen2_moe"}, {"qwen2vl", "qwen2_vl"},
    {"qwen3next", "qwen3_next"}, {"phi2", "phi"},           {"llama4", "llama4_text"},
    {"mistral3", "ministral3"},  {"command-r", "cohere"},   {"chatglm", "glm"},
};

// llama_model_rope_type() of src/llama-model.cpp at ggml-org/llama.cpp 00342301: the
// architectures rotating pairs (2i, 2i + 1), and those rotating (i, i + d/2). MISTRAL3 joined
// the first list after that commit (its converter class derives from LlamaModel, below).
const std::set<std::string> kNorm = {
    "llama",     "llada",      "llama4",        "deci",         "baichuan",   "starcoder",
    "internlm2", "minicpm",    "xverse",        "command-r",    "cohere2",    "olmo",
    "arctic",    "deepseek",   "deepseek2",     "plm",          "chatglm",    "glm4",
    "granite",   "granitemoe", "granitehybrid", "chameleon",    "bailingmoe", "neo-bert",
    "smollm3",   "arcee",      "ernie4_5",      "ernie4_5-moe", "mistral3"};
const std::set<std::string> kNeox = {
    "falcon",     "falcon-h1",      "grok",     "dbrx",        "bert",         "jina-bert-v3",
    "nomic-bert", "nomic-bert-moe", "stablelm", "bitnet",      "qwen",         "qwen2",
    "dream",      "qwen2moe",       "qwen3",    "qwen3moe",    "qwen3next",    "llada-moe",
    "olmo2",      "olmoe",          "phi2",     "phi3",        "phimoe",       "plamo",
    "plamo2",     "gemma",          "gemma2",   "gemma3",      "gemma3n",      "gemma-embedding",
    "starcoder2", "openelm",        "gptneox",  "codeshell",   "orion",        "nemotron",
    "exaone",     "exaone4",        "minicpm3", "bailingmoe2", "dots1",        "hunyuan-moe",
    "gpt-oss",    "hunyuan-dense",  "lfm2",     "lfm2moe",     "smallthinker", "glm4moe",
    "seed_oss",   "grovemoe",       "apertus"};
const std::set<std::string> kNone = {
    "clip",      "gpt2",   "gptj",       "mpt",          "refact", "bloom",
    "mamba",     "mamba2", "jamba",      "jina-bert-v2", "t5",     "t5encoder",
    "jais",      "rwkv6",  "rwkv6qwen2", "rwkv7",        "arwkv7", "wavtokenizer-dec",
    "nemotron_h"};
// The converter's classes that derive from LlamaModel and keep undo_permute = True (Llama 4's,
// Apertus's and native-format Mistral's set it False): their q and k rows are permuted.
const std::set<std::string> kPermuted = {"llama", "smollm3", "mistral3", "granite", "granitemoe",
                                         "arcee", "deci",    "llada",    "plm"};

std::string ModelType(const std::string& architecture) {
    for (const Architecture& row : kArchitectures)
        if (architecture == row.gguf) return row.model_type;
    return architecture;
}

// The first value of a number or a per-layer array (and whether the layers differ).
bool FirstNumber(const GgufValue* value, double* out, bool* per_layer_differs = nullptr) {
    if (value == nullptr) return false;
    if (value->IsNumber()) {
        *out = value->number;
        return true;
    }
    if (!value->IsNumberArray() || value->numbers.empty()) return false;
    // A hybrid's layers without attention write 0 heads: the first non-zero one counts.
    double first = 0;
    for (double number : value->numbers)
        if (number > 0) {
            first = number;
            break;
        }
    if (per_layer_differs)
        *per_layer_differs = std::any_of(value->numbers.begin(), value->numbers.end(),
                                         [&](double n) { return n > 0 && n != first; });
    *out = first;
    return first > 0;
}

// Llama 3's scaling as the converter turns it into rope_freqs.weight
// (LlamaModel.generate_extra_tensors): each pair's factor 1 when its wavelength is below
// original ÷ high_freq_factor, `factor` above original ÷ low_freq_factor, and between them
// 1 / ((1 − smooth) / factor + smooth). Which llama3 parameters give the file's factors (to
// float32's rounding), or false.
bool RecogniseLlama3(const std::vector<float>& factors, double base, int rotary_dims,
                     double context, json* scaling) {
    if (factors.empty() || static_cast<int>(factors.size()) * 2 != rotary_dims) return false;
    const double factor = *std::max_element(factors.begin(), factors.end());
    if (!(factor > 1)) return false;
    std::vector<double> originals = {8192, std::round(context / factor), 4096, 2048, 16384, 32768};
    for (double original : originals) {
        for (double low : {1.0, 2.0}) {
            for (double high : {4.0, 8.0}) {
                if (original < 1 || low >= high) continue;
                bool same = true;
                for (std::size_t i = 0; i < factors.size() && same; ++i) {
                    const double inv_freq =
                        1.0 / std::pow(base, 2.0 * static_cast<double>(i) / rotary_dims);
                    const double wavelength = 2 * M_PI / inv_freq;
                    double want = factor;
                    if (wavelength < original / high)
                        want = 1;
                    else if (wavelength <= original / low) {
                        const double smooth = (original / wavelength - low) / (high - low);
                        want = 1 / ((1 - smooth) / factor + smooth);
                    }
                    same = std::fabs(want - factors[i]) <= 1e-5 * want;
                }
                if (same) {
                    *scaling = {{"rope_type", "llama3"},
                                {"factor", factor},
                                {"low_freq_factor", low},
                                {"high_freq_factor", high},
                                {"original_max_position_embeddings", original}};
                    return true;
                }
            }
        }
    }
    return false;
}

struct Reader {
    const GgufFile& file;
    std::string arch;
    std::vector<std::string>* notes;

    const GgufValue* Key(const std::string& rest) const { return file.Find(arch + "." + rest); }
    bool Number(const std::string& rest, double* out) const {
        bool differs = false;
        const bool found = FirstNumber(Key(rest), out, &differs);
        if (found && differs)
            notes->push_back(arch + "." + rest + " differs from layer to layer; PE Lab shows the " +
                             "first attention layer's");
        return found;
    }
};

// The per-layer widths of a hybrid as its layer kinds. LFM2: the layers with key heads attend
// (as transformers' load_gguf_checkpoint sets full_attn_idxs), the others are convolutions.
// Nemotron-H: as llama.cpp's loader tells them apart, a layer with key heads attends, one with
// neither key heads nor a feed-forward width is Mamba-2, the rest are MLPs.
void MapLayerKinds(const Reader& read, json* config) {
    const GgufValue* kv = read.Key("attention.head_count_kv");
    if (kv == nullptr || !kv->IsNumberArray()) return;
    if (read.arch != "lfm2" && read.arch != "nemotron_h") return;
    double blocks = 0;
    if (read.Number("block_count", &blocks) && blocks != static_cast<double>(kv->numbers.size()))
        read.notes->push_back(read.arch + ".attention.head_count_kv holds " +
                              std::to_string(kv->numbers.size()) + " layers' heads for " +
                              read.arch + ".block_count " +
                              std::to_string(static_cast<long long>(blocks)) +
                              ": the layer kinds are read from the list");
    if (read.arch == "lfm2") {
        std::vector<int> attending;
        for (std::size_t i = 0; i < kv->numbers.size(); ++i)
            if (kv->numbers[i] > 0) attending.push_back(static_cast<int>(i));
        (*config)["full_attn_idxs"] = attending;
    }
    if (read.arch == "nemotron_h") {
        const GgufValue* ff = read.Key("feed_forward_length");
        const bool per_layer_ff =
            ff && ff->IsNumberArray() && ff->numbers.size() == kv->numbers.size();
        std::string pattern;
        for (std::size_t i = 0; i < kv->numbers.size(); ++i)
            pattern += kv->numbers[i] > 0 ? '*' : per_layer_ff && ff->numbers[i] > 0 ? '-' : 'M';
        (*config)["hybrid_override_pattern"] = pattern;
    }
}

void MapWidths(const Reader& read, json* config) {
    double value = 0;
    if (read.Number("context_length", &value)) (*config)["max_position_embeddings"] = value;
    if (read.Number("embedding_length", &value)) (*config)["hidden_size"] = value;
    if (read.Number("block_count", &value)) (*config)["num_hidden_layers"] = value;
    if (read.Number("attention.head_count", &value)) (*config)["num_attention_heads"] = value;
    if (read.Number("attention.head_count_kv", &value)) (*config)["num_key_value_heads"] = value;
    if (read.Number("attention.key_length", &value)) (*config)["head_dim"] = value;
    if (read.Number("attention.sliding_window", &value) && value > 0)
        (*config)["sliding_window"] = value;
    if (read.Number("attention.layer_norm_epsilon", &value)) (*config)["layer_norm_eps"] = value;
    if (const GgufValue* tokens = read.file.Find("tokenizer.ggml.tokens");
        tokens && tokens->type == GgufValueType::Array)
        (*config)["vocab_size"] = tokens->count;
    if (read.arch == "gpt2") {
        for (const auto& [from, to] :
             {std::pair<const char*, const char*>{"max_position_embeddings", "n_positions"},
              {"hidden_size", "n_embd"},
              {"num_hidden_layers", "n_layer"},
              {"num_attention_heads", "n_head"}})
            if (config->contains(from)) (*config)[to] = (*config)[from];
    }
    MapLayerKinds(read, config);
    if (read.arch == "mpt") (*config)["attn_config"] = {{"alibi", true}};
    if (read.arch == "falcon") (*config)["alibi"] = false;
}

// MLA (deepseek2): the rotating part of each head, the rest, and the latent ranks.
void MapLatent(const Reader& read, double rotary, json* config) {
    double value = 0;
    (*config)["qk_rope_head_dim"] = rotary;
    double key = 0;
    if (read.Number("attention.key_length_mla", &key) || read.Number("attention.key_length", &key))
        (*config)["qk_nope_head_dim"] = key - rotary;
    if (read.Number("attention.value_length_mla", &value) ||
        read.Number("attention.value_length", &value))
        (*config)["v_head_dim"] = value;
    if (read.Number("attention.kv_lora_rank", &value)) (*config)["kv_lora_rank"] = value;
    if (read.Number("attention.q_lora_rank", &value) && value > 0) (*config)["q_lora_rank"] = value;
    config->erase("head_dim");
}

Status MapScaling(const Reader& read, const GgufFactorTensors& factors, double base,
                  int rotary_dims, json* config) {
    const GgufValue* type_value = read.Key("rope.scaling.type");
    const std::string type =
        type_value && type_value->type == GgufValueType::String ? type_value->text : std::string();
    json scaling;
    double value = 0;
    if (type == "linear" || type == "yarn") {
        scaling["rope_type"] = type;
        if (!read.Number("rope.scaling.factor", &value))
            return read.arch + ".rope.scaling.type is " + type + " but no rope.scaling.factor";
        scaling["factor"] = value;
        if (type == "yarn") {
            if (read.Number("rope.scaling.original_context_length", &value))
                scaling["original_max_position_embeddings"] = value;
            if (read.Number("rope.scaling.yarn_beta_fast", &value)) scaling["beta_fast"] = value;
            if (read.Number("rope.scaling.yarn_beta_slow", &value)) scaling["beta_slow"] = value;
            if (read.Number("rope.scaling.attn_factor", &value))
                scaling["attention_factor"] = value;
            // DeepSeek's mscale_all_dim, written as 0.1 · mscale_all_dim.
            if (read.Number("rope.scaling.yarn_log_multiplier", &value) && value > 0) {
                scaling["mscale"] = value / 0.1;
                scaling["mscale_all_dim"] = value / 0.1;
                read.notes->push_back("GGUF keeps DeepSeek's yarn mscale_all_dim only "
                                      "(rope.scaling.yarn_log_multiplier); mscale is taken equal");
            }
        }
    } else if (!factors.long_factors.empty() || !factors.short_factors.empty()) {
        scaling = {{"rope_type", "longrope"},
                   {"long_factor", factors.long_factors},
                   {"short_factor", factors.short_factors}};
        if (read.Number("rope.scaling.original_context_length", &value))
            (*config)["original_max_position_embeddings"] = value;
        if (read.Number("rope.scaling.attn_factor", &value)) scaling["attention_factor"] = value;
    } else if (!factors.freq_factors.empty()) {
        const double context = config->value("max_position_embeddings", 0.0);
        if (!RecogniseLlama3(factors.freq_factors, base, rotary_dims, context, &scaling))
            read.notes->push_back("rope_freqs.weight holds per-pair frequency factors that are "
                                  "not Llama 3's scaling of any usual parameters: not applied");
    } else if (!type.empty() && type != "none") {
        read.notes->push_back(read.arch + ".rope.scaling.type \"" + type +
                              "\" is not one PE Lab maps: not applied");
    }
    if (!scaling.is_null()) (*config)["rope_scaling"] = scaling;
    return {};
}

} // namespace

GgufRopeOrder gguf_rope_order(const std::string& architecture) {
    GgufRopeOrder order;
    if (kNorm.count(architecture)) order.rope_type = "NORM";
    if (kNeox.count(architecture)) order.rope_type = "NEOX";
    if (kNone.count(architecture)) order.rope_type = "NONE";
    if (architecture == "qwen2vl") order.rope_type = "MROPE";
    order.permuted = kPermuted.count(architecture) > 0;
    return order;
}

Status GgufConfig(const GgufFile& file, const GgufFactorTensors& factors, json* config,
                  std::vector<std::string>* notes) {
    const std::string arch = file.Text("general.architecture");
    if (arch.empty())
        return std::string("the file has no general.architecture (every GGUF model names one)");
    Reader read{file, arch, notes};
    json out = json::object();
    out["model_type"] = ModelType(arch);
    MapWidths(read, &out);
    const double heads = out.value("num_attention_heads", 0.0);
    const double hidden = out.value("hidden_size", 0.0);
    const double head_dim = out.value("head_dim", heads > 0 ? hidden / heads : 0.0);
    double base = 10000, rotary = head_dim, value = 0;
    if (read.Number("rope.freq_base", &value)) out["rope_theta"] = base = value;
    if (read.Number("rope.freq_base_swa", &value)) out["rope_local_base_freq"] = value;
    if (read.Number("rope.dimension_count", &value)) rotary = value;
    if (arch == "deepseek2") {
        MapLatent(read, rotary, &out);
    } else if (head_dim > 0 && rotary > 0 && rotary < head_dim) {
        out["partial_rotary_factor"] = rotary / head_dim;
    }
    if (const GgufValue* sections = read.Key("rope.dimension_sections");
        sections && sections->IsNumberArray() && sections->numbers.size() >= 3)
        out["rope_scaling"] = {
            {"rope_type", "default"},
            {"mrope_section",
             std::vector<double>(sections->numbers.begin(), sections->numbers.begin() + 3)}};
    // Any number a file holds (a u32 of 3·10⁹, NaN): a width only when it can be one (the
    // config reader refuses the rest with the key's name).
    const int rotary_dims = rotary >= 0 && rotary <= 65536 ? static_cast<int>(rotary) : 0;
    if (Status error = MapScaling(read, factors, base, rotary_dims, &out); !error.ok())
        return error;
    for (const char* key : {"no_rope_layer_step", "no_rope_layer_interval"})
        if (read.Number(key, &value)) out["no_rope_layer_interval"] = value;
    if (read.Number("full_attention_interval", &value)) out["full_attention_interval"] = value;
    if (read.Number("attention.chunk_size", &value)) out["attention_chunk_size"] = value;
    if (out.value("model_type", "") == arch && gguf_rope_order(arch).rope_type.empty())
        notes->push_back("general.architecture \"" + arch +
                         "\" is not one PE Lab maps onto transformers' settings");
    *config = std::move(out);
    return {};
}

} // namespace pelab
