// RoPE's settings in transformers 5's form: rope_parameters flat or keyed by layer type, read
// as its RotaryEmbeddingConfigMixin.standardize_rope_params combines them with the top level
// (src/transformers/modeling_rope_utils.py, v5). The expected values are the rules of that
// function applied by hand to each config; the v4 form of the same model must read the same.
#include "pelab/models/model_config.h"
#include "status_text.h"

#include <gtest/gtest.h>

#include <string>

using namespace pelab;
using nlohmann::json;

namespace {

CheckpointConfig Read(const std::string& text) {
    CheckpointConfig config;
    const Status status = ReadModelConfig(json::parse(text), &config);
    EXPECT_EQ(status, "") << text;
    return config;
}

std::string Refusal(const std::string& text) {
    CheckpointConfig config;
    return ReadModelConfig(json::parse(text), &config).message();
}

bool Mentions(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST(RopeParameters, FlatV5ReadsAsItsV4Form) {
    // Ministral-3's numbers (issue 58): YaRN ×16 from 16 384, base 10⁶, 262 144 positions.
    const CheckpointConfig v4 = Read(R"({"model_type": "ministral3", "rope_theta": 1000000,
        "max_position_embeddings": 262144, "rope_scaling": {"rope_type": "yarn", "factor": 16.0,
        "original_max_position_embeddings": 16384, "beta_fast": 32.0, "beta_slow": 1.0}})");
    const CheckpointConfig v5 = Read(R"({"model_type": "ministral3",
        "max_position_embeddings": 262144, "rope_parameters": {"rope_type": "yarn",
        "rope_theta": 1000000, "factor": 16.0, "original_max_position_embeddings": 16384,
        "beta_fast": 32.0, "beta_slow": 1.0, "llama_4_scaling_beta": 0.1}})");
    for (const CheckpointConfig* config : {&v4, &v5}) {
        EXPECT_EQ(config->rope_theta, 1e6);
        EXPECT_EQ(config->rope_scaling.type, "yarn");
        EXPECT_EQ(config->rope_scaling.factor, 16);
        EXPECT_EQ(config->rope_scaling.original_context, 16384);
        EXPECT_TRUE(config->rope_layer_kinds.empty());
    }
    EXPECT_EQ(v4.rope_source, "rope_scaling");
    EXPECT_EQ(v5.rope_source, "rope_parameters");
}

TEST(RopeParameters, EntryAndTopLevelCombineAsStandardizeDoes) {
    // The entry's rope_theta before the top level's; the top level's partial_rotary_factor
    // before the entry's.
    CheckpointConfig config = Read(R"({"rope_theta": 10000, "partial_rotary_factor": 0.5,
        "rope_parameters": {"rope_theta": 500000, "partial_rotary_factor": 0.25}})");
    EXPECT_EQ(config.rope_theta, 500000);
    EXPECT_EQ(config.partial_rotary, 0.5);
    EXPECT_EQ(config.rope_scaling.type, ""); // no type: "default", unscaled
    // No rope_theta inside: the top level's.
    config = Read(R"({"rope_theta": 20000, "rope_parameters": {"rope_type": "default"}})");
    EXPECT_EQ(config.rope_theta, 20000);
    // The entry's partial_rotary_factor when the top level gives none (Qwen3.5's 0.25).
    config = Read(R"({"rope_parameters": {"rope_theta": 10000000, "partial_rotary_factor": 0.25,
        "mrope_section": [11, 11, 10], "mrope_interleaved": true}})");
    EXPECT_EQ(config.partial_rotary, 0.25);
    EXPECT_TRUE(config.partial_rotary_given);
    // Phi-3 keeps its pretraining length at the top level: it wins for longrope (and llama3 and
    // yarn), in either form.
    for (const char* key : {"rope_scaling", "rope_parameters"}) {
        config = Read(std::string(R"({"max_position_embeddings": 131072,
            "original_max_position_embeddings": 4096, ")") +
                      key + R"(": {"type": "longrope", "short_factor": [1.0, 1.0],
            "long_factor": [2.0, 3.0]}})");
        EXPECT_EQ(config.rope_scaling.type, "longrope") << key;
        EXPECT_EQ(config.rope_scaling.original_context, 4096) << key;
    }
    // Not for a type that has no pretraining length (linear).
    config = Read(R"({"original_max_position_embeddings": 4096,
        "rope_parameters": {"rope_type": "linear", "factor": 2.0}})");
    EXPECT_EQ(config.rope_scaling.original_context, 0);
}

TEST(RopeParameters, KeyedByLayerTypeShowsTheGlobalLayers) {
    // Gemma 3's pattern: five sliding layers (base 10 000, unscaled) to one global one (base
    // 10⁶, linear ×8).
    const CheckpointConfig config = Read(R"({"model_type": "gemma3_text", "num_hidden_layers": 6,
        "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention",
                        "sliding_attention", "sliding_attention", "full_attention"],
        "rope_parameters": {
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
            "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0}}})");
    ASSERT_EQ(config.rope_layer_kinds.size(), 2u);
    EXPECT_EQ(config.rope_layer_kinds[0].name, "sliding_attention");
    EXPECT_EQ(config.rope_layer_kinds[0].layers, 5);
    EXPECT_EQ(config.rope_layer_kinds[0].rope_theta, 10000);
    EXPECT_EQ(config.rope_layer_kinds[0].scaling.type, "default");
    EXPECT_EQ(config.rope_layer_kinds[1].name, "full_attention");
    EXPECT_EQ(config.rope_layer_kinds[1].layers, 1);
    EXPECT_EQ(config.rope_kind_shown, "full_attention");
    EXPECT_EQ(config.rope_theta, 1e6);
    EXPECT_EQ(config.rope_scaling.type, "linear");
    EXPECT_EQ(config.rope_scaling.factor, 8);
}

TEST(RopeParameters, NullEntriesAreLayersWithoutRope) {
    // Cohere2 rotates only its sliding layers: the full ones' entry is null.
    CheckpointConfig config = Read(R"({"rope_theta": 50000,
        "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention",
                        "full_attention"],
        "rope_parameters": {"sliding_attention": {"rope_type": "default"},
                            "full_attention": null}})");
    ASSERT_EQ(config.rope_layer_kinds.size(), 2u);
    EXPECT_TRUE(config.rope_layer_kinds[0].rotary);
    EXPECT_FALSE(config.rope_layer_kinds[1].rotary);
    EXPECT_EQ(config.rope_kind_shown, "sliding_attention");
    EXPECT_EQ(config.rope_theta, 50000); // the top level's, no rope_theta inside
    // No layer rotates: none shown.
    config = Read(R"({"layer_types": ["full_attention"], "rope_parameters": {
        "full_attention": null}})");
    EXPECT_EQ(config.rope_kind_shown, "");
    EXPECT_EQ(config.rope_theta, 0);
}

TEST(RopeParameters, KeysThatAreNotLayerTypesMakeOneFlatEntry) {
    // layer_types given, but rope_parameters' keys are RoPE's own: one entry for every layer.
    const CheckpointConfig config = Read(R"({"layer_types": ["full_attention", "full_attention"],
        "rope_parameters": {"rope_type": "default", "rope_theta": 1000000}})");
    EXPECT_TRUE(config.rope_layer_kinds.empty());
    EXPECT_EQ(config.rope_theta, 1e6);
    // An empty rope_scaling counts as absent: rope_parameters is read.
    EXPECT_EQ(Read(R"({"rope_scaling": {}, "rope_parameters": {"rope_theta": 3000}})").rope_theta,
              3000);
    // A non-empty rope_scaling is taken before rope_parameters (transformers' order).
    const CheckpointConfig both = Read(R"({"rope_theta": 10000,
        "rope_scaling": {"type": "linear", "factor": 2.0},
        "rope_parameters": {"rope_type": "linear", "factor": 4.0}})");
    EXPECT_EQ(both.rope_scaling.factor, 2);
    EXPECT_EQ(both.rope_source, "rope_scaling");
}

TEST(RopeParameters, BadEntriesAreNamedByTheirPlace) {
    EXPECT_TRUE(Mentions(Refusal(R"({"rope_parameters": 5})"), "\"rope_parameters\": must be an "
                                                               "object"));
    EXPECT_TRUE(Mentions(Refusal(R"({"rope_parameters": {"rope_theta": "big"}})"),
                         "\"rope_parameters.rope_theta\""));
    const std::string nested = Refusal(R"({"layer_types": ["full_attention"],
        "rope_parameters": {"full_attention": {"rope_type": "yarn", "rope_theta": -1}}})");
    EXPECT_TRUE(Mentions(nested, "\"rope_parameters.full_attention.rope_theta\"")) << nested;
    const std::string missing = Refusal(R"({"layer_types": ["full_attention"],
        "rope_parameters": {"full_attention": {"rope_type": "linear"}}})");
    EXPECT_TRUE(Mentions(missing, "rope_parameters.full_attention")) << missing;
    EXPECT_TRUE(Mentions(missing, "needs \"factor\"")) << missing;
    // A layer type that layer_types names and the dict lacks: transformers fails on it.
    const std::string lacking = Refusal(R"({"layer_types": ["full_attention", "sliding_attention"],
        "rope_parameters": {"full_attention": {"rope_type": "default"}}})");
    EXPECT_TRUE(Mentions(lacking, "no entry for the layer type \"sliding_attention\"")) << lacking;
    EXPECT_TRUE(Mentions(Refusal(R"({"layer_types": "full", "rope_parameters": {}})"),
                         "\"layer_types\": must be a list"));
    // A v4 rope_scaling still names its type (transformers 4 fails without one); a v5 entry
    // without one is "default".
    EXPECT_TRUE(Mentions(Refusal(R"({"rope_scaling": {"factor": 2.0}})"), "names no type"));
    EXPECT_EQ(Read(R"({"rope_parameters": {"factor": 2.0}})").rope_scaling.type, "");
}

TEST(ConfigWidths, RotatingWidthsThatCannotBeAreRefusedByName) {
    // rotate_half needs pairs; a rotary_dim wider than the head has nothing to rotate in.
    EXPECT_NE(Refusal(R"({"model_type": "deepseek_v3", "num_attention_heads": 4,
                          "hidden_size": 64, "qk_rope_head_dim": 7, "kv_lora_rank": 16})")
                  .find("\"qk_rope_head_dim\": must be even"),
              std::string::npos);
    EXPECT_NE(Refusal(R"({"model_type": "phi", "num_attention_heads": 4, "hidden_size": 64,
                          "rotary_dim": 9})")
                  .find("\"rotary_dim\": must be even"),
              std::string::npos);
    EXPECT_NE(Refusal(R"({"model_type": "phi", "num_attention_heads": 4, "hidden_size": 64,
                          "rotary_dim": 40})")
                  .find("40 rotating dimensions in a head of 16"),
              std::string::npos);
    EXPECT_EQ(Refusal(R"({"model_type": "phi", "num_attention_heads": 4, "hidden_size": 64,
                          "rotary_dim": 16})"),
              "");
}

TEST(ConfigWidths, AWrongKeyInsideTextConfigIsNamedThere) {
    EXPECT_NE(Refusal(R"({"model_type": "gemma3", "text_config": {"hidden_size": "x"}})")
                  .find("config field \"text_config.hidden_size\""),
              std::string::npos);
    // A top-level key keeps its own name.
    const std::string top =
        Refusal(R"({"architectures": 3, "model_type": "gemma3", "text_config": {}})");
    EXPECT_NE(top.find("config field \"architectures\""), std::string::npos) << top;
}

TEST(ConfigWidths, FineGrainedFp8BlocksAreReadFromTheTopLevel) {
    const CheckpointConfig config =
        Read(R"({"model_type": "qwen3_vl", "quantization_config": {"weight_block_size": [128, 64]},
                 "text_config": {"model_type": "qwen3_vl_text"}})");
    EXPECT_EQ(config.weight_block, (std::vector<long long>{128, 64}));
    EXPECT_NE(Refusal(R"({"quantization_config": {"weight_block_size": [128]}})").find("got one"),
              std::string::npos);
    EXPECT_NE(Refusal(R"({"quantization_config": {"weight_block_size": [0, 128]}})")
                  .find("quantization_config.weight_block_size"),
              std::string::npos);
}
