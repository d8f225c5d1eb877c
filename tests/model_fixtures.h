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
inline void WriteGpt2RunFixture(const std::filesystem::path& folder) {
    namespace fs = std::filesystem;
    fs::create_directories(folder);
    const std::vector<std::pair<std::string, std::string>> merges = {
        {"h", "e"},   {"Ġ", "t"},   {"t", "he"},    {"Ġt", "he"}, {"Ġ", "d"}, {"o", "g"},
        {"Ġd", "og"}, {"Ġ", "m"},   {"a", "n"},     {"Ġm", "an"}, {"Ġ", "b"}, {"i", "t"},
        {"e", "s"},   {"Ġb", "it"}, {"Ġbit", "es"}, {"Ġ", "."}};
    nlohmann::json vocab = nlohmann::json::object();
    for (int byte = 0; byte < 256; ++byte)
        vocab[Gpt2StandIn(byte)] = byte;
    std::string merges_text = "#version: 0.2\n";
    for (const auto& [left, right] : merges) {
        vocab[left + right] = static_cast<int>(vocab.size());
        merges_text += left + " " + right + "\n";
    }
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

} // namespace pelab_test
