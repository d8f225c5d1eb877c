// model_fixtures.h — small checkpoints for the panel's tests, written byte by byte in the real
// families' tensor names and config.json keys (tests/models/make_fixtures.py writes the larger set
// the NumPy comparison uses): a GPT-2 learned table (exactly sinusoidal pairs of decreasing
// amplitude), a Llama with grouped-query attention, T5's two bias tables, a BLOOM config.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace pelab_test {

struct FixtureTensor {
    FixtureTensor(std::string name_, std::vector<std::int64_t> shape_, std::vector<float> values_)
        : name(std::move(name_)), shape(std::move(shape_)), values(std::move(values_)) {}
    /// Another stored type: its name ("F8_E4M3") and the stored bytes.
    FixtureTensor(std::string name_, std::vector<std::int64_t> shape_, std::string dtype_,
                  std::string bytes_)
        : name(std::move(name_)), shape(std::move(shape_)), dtype(std::move(dtype_)),
          bytes(std::move(bytes_)) {}
    std::string name;
    std::vector<std::int64_t> shape;
    std::vector<float> values;
    std::string dtype = "F32";
    std::string bytes;
};

inline void WriteSafetensors(const std::filesystem::path& path,
                             const std::vector<FixtureTensor>& tensors) {
    nlohmann::json header = nlohmann::json::object();
    std::string data;
    for (const FixtureTensor& tensor : tensors) {
        const std::size_t begin = data.size();
        if (tensor.bytes.empty())
            data.append(reinterpret_cast<const char*>(tensor.values.data()),
                        tensor.values.size() * 4);
        data += tensor.bytes;
        header[tensor.name] = {{"dtype", tensor.dtype},
                               {"shape", tensor.shape},
                               {"data_offsets", {begin, data.size()}}};
    }
    const std::string text = header.dump();
    std::string length(8, '\0');
    for (int i = 0; i < 8; ++i)
        length[i] = static_cast<char>((static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xff);
    std::ofstream(path, std::ios::binary) << length << text << data;
}

inline std::vector<float> Normal(std::size_t count, std::uint32_t seed, float scale = 0.02f) {
    std::mt19937 generator(seed);
    std::normal_distribution<float> normal(0.0f, scale);
    std::vector<float> values(count);
    for (float& value : values)
        value = normal(generator);
    return values;
}

/// Writes the fixtures under folder (gpt2/, llama/, t5/, bloom/), each with config.json.
inline void WriteModelFixtures(const std::filesystem::path& folder) {
    namespace fs = std::filesystem;
    const auto config = [](const fs::path& where, const nlohmann::json& doc) {
        std::ofstream(where / "config.json") << doc.dump();
    };
    fs::create_directories(folder / "gpt2");
    const int rows = 128, width = 16;
    std::vector<float> table(static_cast<std::size_t>(rows) * width);
    for (int p = 0; p < rows; ++p)
        for (int i = 0; i < width / 2; ++i) {
            const double omega = std::pow(10000.0, -2.0 * i / width), amplitude = 1.0 / (i + 1);
            table[static_cast<std::size_t>(p) * width + 2 * i] =
                static_cast<float>(amplitude * std::sin(p * omega));
            table[static_cast<std::size_t>(p) * width + 2 * i + 1] =
                static_cast<float>(amplitude * std::cos(p * omega));
        }
    WriteSafetensors(folder / "gpt2" / "model.safetensors",
                     {{"wte.weight", {20, width}, Normal(20 * width, 1)},
                      {"wpe.weight", {rows, width}, table},
                      {"h.0.attn.bias", {1, 1, 4, 4}, std::vector<float>(16, 1.0f)}});
    config(folder / "gpt2", {{"model_type", "gpt2"},
                             {"n_positions", rows},
                             {"n_embd", width},
                             {"n_head", 2},
                             {"n_layer", 1}});

    fs::create_directories(folder / "llama");
    const int hidden = 32, heads = 4, kv = 2, head_dim = 8;
    std::vector<FixtureTensor> llama = {
        {"model.embed_tokens.weight", {20, hidden}, Normal(20 * hidden, 2)}};
    for (int layer = 0; layer < 3; ++layer) {
        const std::string prefix = "model.layers." + std::to_string(layer) + ".self_attn.";
        llama.push_back({prefix + "q_proj.weight",
                         {heads * head_dim, hidden},
                         Normal(heads * head_dim * hidden, 10 + layer)});
        llama.push_back({prefix + "k_proj.weight",
                         {kv * head_dim, hidden},
                         Normal(kv * head_dim * hidden, 20 + layer)});
    }
    WriteSafetensors(folder / "llama" / "model.safetensors", llama);
    config(folder / "llama", {{"model_type", "llama"},
                              {"hidden_size", hidden},
                              {"num_attention_heads", heads},
                              {"num_key_value_heads", kv},
                              {"num_hidden_layers", 3},
                              {"max_position_embeddings", 256},
                              {"rope_theta", 10000.0},
                              {"rope_scaling",
                               {{"rope_type", "llama3"},
                                {"factor", 8.0},
                                {"low_freq_factor", 1.0},
                                {"high_freq_factor", 4.0},
                                {"original_max_position_embeddings", 64}}}});

    fs::create_directories(folder / "t5");
    WriteSafetensors(folder / "t5" / "model.safetensors",
                     {{"encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                       {32, 3},
                       Normal(96, 3, 1.0f)},
                      {"decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                       {32, 3},
                       Normal(96, 4, 1.0f)}});
    config(folder / "t5", {{"model_type", "t5"},
                           {"num_heads", 3},
                           {"d_model", 24},
                           {"relative_attention_num_buckets", 32},
                           {"relative_attention_max_distance", 128}});

    fs::create_directories(folder / "bloom");
    WriteSafetensors(folder / "bloom" / "model.safetensors",
                     {{"word_embeddings.weight", {10, 8}, Normal(80, 5)}});
    config(folder / "bloom", {{"model_type", "bloom"}, {"n_head", 12}, {"hidden_size", 48}});
}

/// GPT-2's stand-in character for a byte, in UTF-8: bytes that print as themselves (33–126,
/// 161–172, 174–255) keep their character, the others take U+0100 on in byte order.
inline std::string Gpt2StandIn(int byte) {
    const auto prints = [](int b) {
        return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    };
    int code = byte;
    if (!prints(byte)) {
        code = 256;
        for (int b = 0; b < byte; ++b)
            code += prints(b) ? 0 : 1;
    }
    std::string out;
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
    return out;
}

/// A whole GPT-2 that runs (pelab/models/gpt2.h): 2 blocks of 4 heads, width 32, 64 positions,
/// seeded weights, with a vocabulary of the 256 bytes and the merges that make " dog", " bites", "
/// man", "the", " the" and " ." one token each (vocab.json and merges.txt beside it): the order
/// panel's Real model view and its lesson run on it.
/// The run fixtures' merges: " dog", " bites", " man", "the", " the" and " ." one token each.
inline const std::vector<std::pair<std::string, std::string>>& RunFixtureMerges() {
    static const std::vector<std::pair<std::string, std::string>> merges = {
        {"h", "e"},   {"Ġ", "t"},   {"t", "he"},    {"Ġt", "he"}, {"Ġ", "d"}, {"o", "g"},
        {"Ġd", "og"}, {"Ġ", "m"},   {"a", "n"},     {"Ġm", "an"}, {"Ġ", "b"}, {"i", "t"},
        {"e", "s"},   {"Ġb", "it"}, {"Ġbit", "es"}, {"Ġ", "."}};
    return merges;
}

/// The 256 bytes' stand-ins, then one symbol per merge.
inline nlohmann::json RunFixtureVocab() {
    nlohmann::json vocab = nlohmann::json::object();
    for (int byte = 0; byte < 256; ++byte)
        vocab[Gpt2StandIn(byte)] = byte;
    for (const auto& [left, right] : RunFixtureMerges())
        vocab[left + right] = static_cast<int>(vocab.size());
    return vocab;
}

inline void WriteGpt2RunFixture(const std::filesystem::path& folder) {
    namespace fs = std::filesystem;
    fs::create_directories(folder);
    const nlohmann::json vocab = RunFixtureVocab();
    std::string merges_text = "#version: 0.2\n";
    for (const auto& [left, right] : RunFixtureMerges())
        merges_text += left + " " + right + "\n";
    std::ofstream(folder / "vocab.json") << vocab.dump();
    std::ofstream(folder / "merges.txt") << merges_text;
    const std::int64_t d = 32, context = 64, words = static_cast<std::int64_t>(vocab.size());
    const int layers = 2;
    std::vector<FixtureTensor> tensors = {
        {"wte.weight", {words, d}, Normal(words * d, 31, 0.5f)},
        {"wpe.weight", {context, d}, Normal(context * d, 32, 0.5f)},
        {"ln_f.weight", {d}, std::vector<float>(d, 1.0f)},
        {"ln_f.bias", {d}, std::vector<float>(d, 0.0f)}};
    unsigned seed = 40;
    for (int layer = 0; layer < layers; ++layer) {
        const std::string block = "h." + std::to_string(layer) + ".";
        const auto add = [&](const std::string& name, const std::vector<std::int64_t>& shape,
                             float scale, float offset = 0.0f) {
            std::int64_t count = 1;
            for (std::int64_t extent : shape)
                count *= extent;
            std::vector<float> values = Normal(count, seed++, scale);
            for (float& value : values)
                value += offset;
            tensors.push_back({block + name, shape, values});
        };
        add("ln_1.weight", {d}, 0.1f, 1.0f), add("ln_1.bias", {d}, 0.02f);
        add("attn.c_attn.weight", {d, 3 * d}, 0.2f), add("attn.c_attn.bias", {3 * d}, 0.02f);
        add("attn.c_proj.weight", {d, d}, 0.2f), add("attn.c_proj.bias", {d}, 0.02f);
        add("ln_2.weight", {d}, 0.1f, 1.0f), add("ln_2.bias", {d}, 0.02f);
        add("mlp.c_fc.weight", {d, 4 * d}, 0.2f), add("mlp.c_fc.bias", {4 * d}, 0.02f);
        add("mlp.c_proj.weight", {4 * d, d}, 0.1f), add("mlp.c_proj.bias", {d}, 0.02f);
        // GPT-2's saved causal mask, not a weight.
        tensors.push_back({block + "attn.bias", {1, 1, 4, 4}, std::vector<float>(16, 1.0f)});
    }
    WriteSafetensors(folder / "model.safetensors", tensors);
    std::ofstream(folder / "config.json") << nlohmann::json{
        {"model_type", "gpt2"},
        {"architectures", {"GPT2LMHeadModel"}},
        {"n_positions", context},
        {"n_ctx", context},
        {"n_embd", d},
        {"n_head", 4},
        {"n_layer", layers},
        {"vocab_size", words},
        {"layer_norm_epsilon", 1e-5}}.dump();
}

/// A whole Llama that the rotary pass runs (pelab/models/llama.h): 2 layers of 4 query heads over
/// 2 key-value heads, head_dim 8, width 32, llama3-scaled RoPE (base 10 000, factor 8 over an
/// original context of 64: pair 0 unscaled, pair 1 smoothed, pairs 2 and 3 divided by 8), seeded
/// weights, separate lm_head; tokenizer.json with Llama 3's split pattern, the run fixtures'
/// merges, and a BOS (<|begin_of_text|>, the last id) that its TemplateProcessing puts first.
inline void WriteLlamaRunFixture(const std::filesystem::path& folder) {
    namespace fs = std::filesystem;
    fs::create_directories(folder);
    nlohmann::json vocab = RunFixtureVocab();
    const int bos = static_cast<int>(vocab.size());
    vocab["<|begin_of_text|>"] = bos;
    nlohmann::json merges = nlohmann::json::array();
    for (const auto& [left, right] : RunFixtureMerges())
        merges.push_back({left, right});
    const std::string pattern =
        R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
    const nlohmann::json tokenizer = {
        {"version", "1.0"},
        {"normalizer", nullptr},
        {"added_tokens", {{{"id", bos}, {"content", "<|begin_of_text|>"}, {"special", true}}}},
        {"pre_tokenizer",
         {{"type", "Sequence"},
          {"pretokenizers",
           {{{"type", "Split"},
             {"pattern", {{"Regex", pattern}}},
             {"behavior", "Isolated"},
             {"invert", false}},
            {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}}},
        {"post_processor",
         {{"type", "TemplateProcessing"},
          {"single",
           {{{"SpecialToken", {{"id", "<|begin_of_text|>"}}}}, {{"Sequence", {{"id", "A"}}}}}},
          {"special_tokens",
           {{"<|begin_of_text|>", {{"id", "<|begin_of_text|>"}, {"ids", {bos}}}}}}}},
        {"model",
         {{"type", "BPE"}, {"ignore_merges", true}, {"vocab", vocab}, {"merges", merges}}}};
    std::ofstream(folder / "tokenizer.json") << tokenizer.dump();
    const std::int64_t d = 32, heads = 4, kv = 2, hd = 8, inner = 64;
    const std::int64_t words = bos + 1;
    const int layers = 2;
    std::vector<FixtureTensor> tensors = {
        {"model.embed_tokens.weight", {words, d}, Normal(words * d, 71, 1.0f)},
        {"model.norm.weight", {d}, std::vector<float>(d, 1.0f)},
        {"lm_head.weight", {words, d}, Normal(words * d, 72, 0.3f)}};
    unsigned seed = 80;
    for (int layer = 0; layer < layers; ++layer) {
        const std::string prefix = "model.layers." + std::to_string(layer) + ".";
        const auto add = [&](const std::string& name, std::int64_t rows, std::int64_t cols,
                             float scale, float offset = 0.0f) {
            std::vector<float> values = Normal(rows * cols, seed++, scale);
            for (float& value : values)
                value += offset;
            if (cols == 1)
                tensors.push_back({prefix + name, {rows}, values});
            else
                tensors.push_back({prefix + name, {rows, cols}, values});
        };
        add("input_layernorm.weight", d, 1, 0.1f, 1.0f);
        add("self_attn.q_proj.weight", heads * hd, d, 0.35f);
        add("self_attn.k_proj.weight", kv * hd, d, 0.35f);
        add("self_attn.v_proj.weight", kv * hd, d, 0.3f);
        add("self_attn.o_proj.weight", d, heads * hd, 0.2f);
        add("post_attention_layernorm.weight", d, 1, 0.1f, 1.0f);
        add("mlp.gate_proj.weight", inner, d, 0.2f);
        add("mlp.up_proj.weight", inner, d, 0.2f);
        add("mlp.down_proj.weight", d, inner, 0.15f);
    }
    WriteSafetensors(folder / "model.safetensors", tensors);
    std::ofstream(folder / "config.json") << nlohmann::json{
        {"model_type", "llama"},
        {"architectures", {"LlamaForCausalLM"}},
        {"hidden_size", d},
        {"intermediate_size", inner},
        {"num_attention_heads", heads},
        {"num_key_value_heads", kv},
        {"head_dim", hd},
        {"num_hidden_layers", layers},
        {"vocab_size", words},
        {"max_position_embeddings", 512},
        {"rms_norm_eps", 1e-5},
        {"rope_theta", 10000.0},
        {"rope_scaling",
         {{"rope_type", "llama3"},
          {"factor", 8.0},
          {"low_freq_factor", 1.0},
          {"high_freq_factor", 4.0},
          {"original_max_position_embeddings", 64}}},
        {"tie_word_embeddings", false},
        {"bos_token_id", bos}}.dump();
}

} // namespace pelab_test
