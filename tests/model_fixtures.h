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
    std::string name;
    std::vector<std::int64_t> shape;
    std::vector<float> values;
};

inline void WriteSafetensors(const std::filesystem::path& path,
                             const std::vector<FixtureTensor>& tensors) {
    nlohmann::json header = nlohmann::json::object();
    std::string data;
    for (const FixtureTensor& tensor : tensors) {
        const std::size_t begin = data.size();
        data.append(reinterpret_cast<const char*>(tensor.values.data()), tensor.values.size() * 4);
        header[tensor.name] = {
            {"dtype", "F32"}, {"shape", tensor.shape}, {"data_offsets", {begin, data.size()}}};
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

} // namespace pelab_test
