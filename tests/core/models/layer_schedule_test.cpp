// The layer-by-layer plan of a config (pelab/models/layer_schedule.h). Each expected plan is the
// family's rule in transformers applied by hand to the config written here (the rule is quoted
// beside each test); none is read back from PE Lab's code.
#include "pelab/models/layer_schedule.h"
#include "pelab/models/model_positions.h"
#include "pelab/models/rope_analysis.h"
#include "status_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace pelab;
using nlohmann::json;

namespace {

CheckpointConfig Parsed(const std::string& text) {
    CheckpointConfig config;
    const Status status = ReadModelConfig(json::parse(text), &config);
    EXPECT_EQ(status, "") << text;
    return config;
}

std::string RefusalOf(const std::string& text) {
    CheckpointConfig config;
    return ReadModelConfig(json::parse(text), &config).message();
}

bool Says(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Whether one of notes says part.
bool AnyNoteSays(const std::vector<std::string>& notes, const std::string& part) {
    for (const std::string& note : notes)
        if (Says(note, part)) return true;
    return false;
}

// The indices of the layers for which keep(plan) holds.
template <typename Keep> std::vector<int> Layers(const LayerSchedule& schedule, Keep keep) {
    std::vector<int> out;
    for (const LayerPlan& plan : schedule.layers)
        if (keep(plan)) out.push_back(plan.index);
    return out;
}

} // namespace

TEST(LayerSchedule, Llama4LeavesEveryFourthLayerWithoutRope) {
    // configuration_llama4.py: no_rope_layers = [int((i + 1) % no_rope_layer_interval != 0)],
    // interval 4; use_rope = no_rope_layers[i]; the rotary layers are chunked.
    const CheckpointConfig config = Parsed(R"({"model_type": "llama4_text", "num_hidden_layers": 48,
        "hidden_size": 5120, "num_attention_heads": 40, "head_dim": 128, "rope_theta": 500000,
        "attention_chunk_size": 8192, "max_position_embeddings": 10485760})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    ASSERT_EQ(schedule.layers.size(), 48u);
    const std::vector<int> nope = Layers(schedule, [](const LayerPlan& p) { return !p.rope; });
    ASSERT_EQ(nope.size(), 12u);
    for (std::size_t i = 0; i < nope.size(); ++i)
        EXPECT_EQ(nope[i], static_cast<int>(4 * i + 3));
    for (const LayerPlan& plan : schedule.layers) {
        EXPECT_EQ(plan.attention, plan.rope ? LayerAttention::Chunked : LayerAttention::Full);
        EXPECT_EQ(plan.span, plan.rope ? 8192 : 0);
        EXPECT_EQ(plan.temperature_tuned, !plan.rope) << plan.index; // tuning is on by default
        if (plan.rope) {
            EXPECT_EQ(plan.pairing, RotaryPairing::Interleaved);
        }
    }
    EXPECT_EQ(schedule.shown_layer, 0);
    const std::string summary = ScheduleSummary(schedule);
    EXPECT_EQ(summary, "48 layers: 12 no positions, global, tuned (every 4th: 3, 7, 11, …, 47); "
                       "36 RoPE base 500000, chunked 8192 (the others)");
}

TEST(LayerSchedule, NoRopeLayersListedWinOverTheInterval) {
    const CheckpointConfig config = Parsed(R"({"model_type": "smollm3", "num_hidden_layers": 4,
        "hidden_size": 64, "num_attention_heads": 4, "no_rope_layers": [1, 0, 0, 1],
        "no_rope_layer_interval": 4})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    EXPECT_EQ(Layers(schedule, [](const LayerPlan& p) { return p.rope; }),
              (std::vector<int>{0, 3}));
    EXPECT_EQ(schedule.rule, "no_rope_layers");
    EXPECT_FALSE(schedule.layers[1].temperature_tuned); // Llama 4's tuning only
}

TEST(LayerSchedule, Gemma3SlidingLayersKeepTheLocalBaseUnscaled) {
    // configuration_gemma3.py: "sliding_attention" if (i + 1) % sliding_window_pattern else
    // "full_attention"; the sliding layers rotate with rope_local_base_freq and no scaling.
    const CheckpointConfig config = Parsed(R"({"model_type": "gemma3_text", "num_hidden_layers": 26,
        "hidden_size": 1152, "num_attention_heads": 4, "head_dim": 256, "rope_theta": 1000000,
        "rope_local_base_freq": 10000, "sliding_window": 512, "sliding_window_pattern": 6,
        "rope_scaling": {"rope_type": "linear", "factor": 8.0}, "max_position_embeddings": 32768})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    EXPECT_EQ(
        Layers(schedule, [](const LayerPlan& p) { return p.attention == LayerAttention::Full; }),
        (std::vector<int>{5, 11, 17, 23}));
    for (const LayerPlan& plan : schedule.layers) {
        ASSERT_TRUE(plan.rope);
        const bool global = plan.attention == LayerAttention::Full;
        EXPECT_EQ(plan.rope_theta, global ? 1e6 : 1e4) << plan.index;
        EXPECT_EQ(plan.scaling.type, global ? "linear" : "") << plan.index;
        EXPECT_EQ(plan.span, global ? 0 : 512);
        EXPECT_EQ(plan.rotary_dims, 256);
    }
    EXPECT_EQ(schedule.shown_layer, 5);
    EXPECT_EQ(config.rope_theta, 1e6); // the views show a global layer
    EXPECT_EQ(schedule.groups.size(), 2u);
}

TEST(LayerSchedule, Gemma3InTransformers5FormReadsTheSame) {
    const CheckpointConfig config = Parsed(R"({"model_type": "gemma3_text", "num_hidden_layers": 6,
        "hidden_size": 64, "num_attention_heads": 4, "head_dim": 16, "sliding_window": 512,
        "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention",
                        "sliding_attention", "sliding_attention", "full_attention"],
        "rope_parameters": {
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
            "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0}}})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    EXPECT_EQ(schedule.rule, "layer_types");
    EXPECT_EQ(schedule.layers[0].rope_theta, 1e4);
    EXPECT_EQ(schedule.layers[0].scaling.type, "default");
    EXPECT_EQ(schedule.layers[5].rope_theta, 1e6);
    EXPECT_EQ(schedule.layers[5].scaling.type, "linear");
    EXPECT_EQ(schedule.shown_layer, 5);
}

TEST(LayerSchedule, Cohere2RotatesOnlyOnItsSlidingLayers) {
    // modeling_cohere2.py applies the rotary embedding only when the layer has a sliding window.
    const CheckpointConfig config = Parsed(R"({"model_type": "cohere2", "num_hidden_layers": 8,
        "hidden_size": 64, "num_attention_heads": 4, "sliding_window": 4096,
        "sliding_window_pattern": 4, "rope_theta": 50000})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    EXPECT_EQ(Layers(schedule, [](const LayerPlan& p) { return !p.rope; }),
              (std::vector<int>{3, 7}));
    EXPECT_EQ(schedule.shown_layer, 0); // no global layer rotates: the first rotary one
}

TEST(LayerSchedule, ModernBertGlobalLayersUseTheGlobalBase) {
    // modeling_modernbert.py: layer_id % global_attn_every_n_layers == 0 is global, with
    // global_rope_theta; the others attend within local_attention with local_rope_theta.
    const CheckpointConfig config = Parsed(R"({"model_type": "modernbert", "num_hidden_layers": 22,
        "hidden_size": 768, "num_attention_heads": 12, "global_rope_theta": 160000.0,
        "local_rope_theta": 10000.0, "global_attn_every_n_layers": 3, "local_attention": 128})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    const std::vector<int> global =
        Layers(schedule, [](const LayerPlan& p) { return p.attention == LayerAttention::Full; });
    EXPECT_EQ(global, (std::vector<int>{0, 3, 6, 9, 12, 15, 18, 21}));
    EXPECT_EQ(schedule.layers[0].rope_theta, 160000);
    EXPECT_EQ(schedule.layers[1].rope_theta, 10000);
    EXPECT_EQ(schedule.layers[1].span, 128);
    EXPECT_EQ(config.rope_theta, 160000); // shown: the global layers
}

TEST(LayerSchedule, Qwen3NextLinearLayersHaveNoPositions) {
    // configuration_qwen3_next.py: "linear_attention" if (i + 1) % full_attention_interval.
    const CheckpointConfig config = Parsed(R"({"model_type": "qwen3_next", "num_hidden_layers": 48,
        "hidden_size": 2048, "num_attention_heads": 16, "head_dim": 256,
        "partial_rotary_factor": 0.25, "rope_theta": 10000000, "full_attention_interval": 4})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    const std::vector<int> rope = Layers(schedule, [](const LayerPlan& p) { return p.rope; });
    ASSERT_EQ(rope.size(), 12u);
    EXPECT_EQ(rope.front(), 3);
    EXPECT_EQ(schedule.layers[3].rotary_dims, 64);
    EXPECT_EQ(schedule.layers[0].attention, LayerAttention::Linear);
    EXPECT_TRUE(Says(ScheduleSummary(schedule), "36 linear attention, no positions"));
}

TEST(LayerSchedule, QwenSlidesOnlyWhenAskedAndFromMaxWindowLayers) {
    const std::string base = R"("model_type": "qwen2", "num_hidden_layers": 28, "hidden_size": 64,
        "num_attention_heads": 4, "sliding_window": 4096, "max_window_layers": 20)";
    const LayerSchedule off =
        BuildLayerSchedule(Parsed("{" + base + R"(, "use_sliding_window": false})"));
    EXPECT_EQ(off.groups.size(), 1u);
    const LayerSchedule on =
        BuildLayerSchedule(Parsed("{" + base + R"(, "use_sliding_window": true})"));
    EXPECT_EQ(Layers(on, [](const LayerPlan& p) { return p.attention == LayerAttention::Sliding; })
                  .front(),
              20);
}

TEST(LayerSchedule, DeepSeekRotatesItsRopePartInterleaved) {
    // MLA: only qk_rope_head_dim of each query head rotates; rope_interleave (default true)
    // pairs 2i with 2i + 1.
    const std::string base = R"("model_type": "deepseek_v3", "num_hidden_layers": 2,
        "hidden_size": 7168, "num_attention_heads": 128, "qk_rope_head_dim": 64,
        "qk_nope_head_dim": 128, "v_head_dim": 128, "kv_lora_rank": 512, "q_lora_rank": 1536)";
    const CheckpointConfig config = Parsed("{" + base + "}");
    EXPECT_EQ(config.HeadWidth(), 192);
    EXPECT_EQ(config.RotaryWidth(), 64);
    EXPECT_EQ(BuildLayerSchedule(config).layers[0].pairing, RotaryPairing::Interleaved);
    const CheckpointConfig split = Parsed("{" + base + R"(, "rope_interleave": false})");
    EXPECT_EQ(BuildLayerSchedule(split).layers[0].pairing, RotaryPairing::HalfSplit);
}

TEST(LayerSchedule, WrongLayerKeysAreNamed) {
    EXPECT_TRUE(Says(RefusalOf(R"({"num_hidden_layers": 3, "layer_types": ["full_attention"]})"),
                     "\"layer_types\": names 1 layer types for 3 layers"));
    EXPECT_TRUE(Says(RefusalOf(R"({"num_hidden_layers": 2, "no_rope_layers": [1, 2]})"),
                     "\"no_rope_layers\": must be a list of at most 100000 whole numbers in "
                     "[0, 1] (got 2 in it)"));
    EXPECT_TRUE(Says(RefusalOf(R"({"attn_temperature_tuning": "yes"})"),
                     "\"attn_temperature_tuning\": must be true or false"));
    EXPECT_TRUE(Says(RefusalOf(R"({"rotary_dim": 31})"), "\"rotary_dim\": must be even"));
    EXPECT_TRUE(
        Says(RefusalOf(R"({"layer_types": "full_attention"})"), "\"layer_types\": must be a list"));
    // An unknown layer type is read as global attention, and said.
    const LayerSchedule odd = BuildLayerSchedule(
        Parsed(R"({"num_hidden_layers": 1, "layer_types": ["hybrid_attention"]})"));
    ASSERT_EQ(odd.notes.size(), 1u);
    EXPECT_TRUE(Says(odd.notes[0], "\"hybrid_attention\" is not one PE Lab knows"));
}

TEST(LayerSchedule, QueryScalesFollowTheirFormulas) {
    LayerSchedule schedule;
    // Llama 4: 1 + 0.1 · ln(⌊(p + 1) / 8192⌋ + 1): 1 up to p = 8190, 1 + 0.1 ln 2 at 8191.
    EXPECT_EQ(TemperatureScale(schedule, 8190), 1.0);
    EXPECT_NEAR(TemperatureScale(schedule, 8191), 1 + 0.1 * std::log(2.0), 1e-15);
    EXPECT_NEAR(TemperatureScale(schedule, 3 * 8192 - 1), 1 + 0.1 * std::log(4.0), 1e-15);
    schedule.llama4_beta = 0.1;
    schedule.llama4_original = 16384;
    EXPECT_EQ(Llama4BetaScale(schedule, 16383), 1.0);
    EXPECT_NEAR(Llama4BetaScale(schedule, 16384), 1 + 0.1 * std::log(2.0), 1e-15);
}

TEST(LayerSchedule, WithoutALayerCountThereIsNoPlan) {
    const LayerSchedule schedule = BuildLayerSchedule(Parsed(R"({"hidden_size": 64})"));
    EXPECT_TRUE(schedule.layers.empty());
    EXPECT_EQ(schedule.shown_layer, -1);
    EXPECT_TRUE(Says(ScheduleSummary(schedule), "no layer plan"));
    EXPECT_EQ(LayerList({0, 1, 2, 3, 4, 5, 6, 7, 8}), "0, 1, 2, …, 8");
    EXPECT_EQ(LayerList({3}), "3");
}

TEST(AttentionFactor, FollowsTransformersRopeFunctions) {
    // _compute_yarn_parameters: attention_factor given, else get_mscale(s, mscale) /
    // get_mscale(s, mscale_all_dim) when both are set, else 0.1 ln s + 1 (GPT-OSS: s = 32).
    RopeScalingConfig yarn;
    yarn.type = "yarn";
    yarn.factor = 32;
    yarn.factor_given = true;
    yarn.original_context = 4096;
    std::string rule;
    EXPECT_NEAR(rope_attention_factor(yarn, 131072, &rule), 1 + 0.1 * std::log(32.0), 1e-15);
    yarn.mscale = 1, yarn.mscale_all_dim = 0.707; // DeepSeek-V2-Lite's mscale pair, s = 40
    yarn.factor = 40;
    EXPECT_NEAR(rope_attention_factor(yarn, 163840, &rule),
                (0.1 * std::log(40.0) + 1) / (0.1 * 0.707 * std::log(40.0) + 1), 1e-15);
    yarn.attention_factor = 1.25;
    EXPECT_EQ(rope_attention_factor(yarn, 163840, &rule), 1.25);
    EXPECT_TRUE(Says(rule, "as config.json gives it"));
    // _compute_longrope_parameters: no factor given, s = max / original (Phi-3.5: 131072 / 4096).
    RopeScalingConfig longrope;
    longrope.type = "longrope";
    longrope.original_context = 4096;
    EXPECT_NEAR(rope_attention_factor(longrope, 131072, &rule),
                std::sqrt(1 + std::log(32.0) / std::log(4096.0)), 1e-15);
    // Every other type, and a factor of at most 1: none.
    RopeScalingConfig llama3;
    llama3.type = "llama3";
    llama3.factor = 8;
    EXPECT_EQ(rope_attention_factor(llama3, 131072, &rule), 1.0);
    EXPECT_TRUE(rule.empty());
    yarn.attention_factor = 0;
    yarn.factor = 1;
    EXPECT_EQ(rope_attention_factor(yarn, 4096, &rule), 1.0);
}

TEST(LayerSchedule, AModelWhoseLayersAllGoWithoutRopeHasNoPositions) {
    // Llama 4 with no_rope_layers all 0: no layer rotates, so none of the RoPE views applies.
    FoundPositions found;
    ASSERT_EQ(FindPositionsFromConfig(Parsed(R"({"model_type": "llama4_text", "hidden_size": 64,
                                                "num_attention_heads": 4, "num_hidden_layers": 3,
                                                "no_rope_layers": [0, 0, 0]})"),
                                      &found),
              "");
    EXPECT_EQ(found.kind, PositionKind::None);
    bool said = false, asks_for_weights = false;
    for (const std::string& note : found.notes) {
        said = said || Says(note, "none of the 3 layers rotates");
        asks_for_weights = asks_for_weights || Says(note, "pairs' use");
    }
    EXPECT_TRUE(said);
    EXPECT_FALSE(asks_for_weights);
    // One rotating layer is enough for RoPE.
    ASSERT_EQ(FindPositionsFromConfig(Parsed(R"({"model_type": "llama4_text", "hidden_size": 64,
                                                "num_attention_heads": 4, "num_hidden_layers": 3,
                                                "no_rope_layers": [0, 1, 0]})"),
                                      &found),
              "");
    EXPECT_EQ(found.kind, PositionKind::Rope);
}

TEST(LayerSchedule, Gemma4GlobalLayersHaveTheirOwnWidthAndKeyHeads) {
    const LayerSchedule schedule = BuildLayerSchedule(Parsed(R"({"model_type": "gemma4_text",
        "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 4, "head_dim": 16,
        "global_head_dim": 32, "num_global_key_value_heads": 1, "attention_k_eq_v": true,
        "num_hidden_layers": 6})"));
    ASSERT_EQ(schedule.layers.size(), 6u);
    EXPECT_EQ(schedule.layers[0].head_dim, 16);
    EXPECT_EQ(schedule.layers[0].kv_heads, 4);
    EXPECT_EQ(schedule.layers[5].head_dim, 32);
    EXPECT_EQ(schedule.layers[5].kv_heads, 1);
    // attention_k_eq_v left out (Gemma4TextConfig's default, false): the global layers keep
    // num_key_value_heads.
    const LayerSchedule separate = BuildLayerSchedule(Parsed(R"({"model_type": "gemma4_text",
        "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 4, "head_dim": 16,
        "global_head_dim": 32, "num_global_key_value_heads": 1, "num_hidden_layers": 6})"));
    EXPECT_EQ(separate.layers[5].kv_heads, 4);
}

TEST(LayerSchedule, ModelsWithoutRopeSayWhatGivesTheirLayersPositions) {
    // BLOOM and MPT add the ALiBi bias in every layer (modeling_bloom.py, alibi passed to each
    // block); GPT-2 adds its table to the embeddings once; T5's first layer's bucket table is
    // passed on to the others. None of their layers is "without positions".
    struct Case {
        const char* config;
        PositionKind kind;
        const char* said;
    };
    const Case cases[] = {
        {R"({"model_type": "bloom", "n_layer": 3, "n_head": 4, "hidden_size": 32})",
         PositionKind::Alibi, "ALiBi bias"},
        {R"({"model_type": "mpt", "n_layers": 2, "n_heads": 4, "d_model": 32,
             "attn_config": {"alibi": true}})",
         PositionKind::Alibi, "ALiBi bias"},
        {R"({"model_type": "gpt2", "n_layer": 2, "n_head": 2, "n_embd": 16, "n_positions": 64})",
         PositionKind::LearnedTable, "positions in its input"},
        {R"({"model_type": "t5", "num_layers": 2, "num_heads": 2, "d_model": 16})",
         PositionKind::RelativeBuckets, "T5 bucket bias"}};
    for (const Case& c : cases) {
        const LayerSchedule schedule = BuildLayerSchedule(Parsed(c.config));
        ASSERT_FALSE(schedule.layers.empty()) << c.config;
        for (const LayerPlan& plan : schedule.layers) {
            EXPECT_EQ(plan.positions, c.kind) << c.config;
            EXPECT_FALSE(plan.rope);
        }
        const std::string summary = ScheduleSummary(schedule);
        EXPECT_TRUE(Says(summary, c.said)) << summary;
        EXPECT_FALSE(Says(summary, "no positions")) << summary;
    }
    // A rotary model's NoPE layers are the ones without.
    const LayerSchedule llama4 = BuildLayerSchedule(Parsed(R"({"model_type": "llama4_text",
        "num_hidden_layers": 8, "hidden_size": 64, "num_attention_heads": 4})"));
    EXPECT_EQ(Layers(llama4, [](const LayerPlan& p) { return p.positions == PositionKind::None; }),
              (std::vector<int>{3, 7}));
}

TEST(LayerSchedule, ASlidingLayersPairsAreCountedAgainstItsWindow) {
    // Gemma 3: the sliding layers (base 10 000, window 1024) see 1024 positions whatever the
    // context: pair i (of 128 dimensions) turns within them when 2π·10000^(2i/128) ≤ 1024.
    const CheckpointConfig config = Parsed(R"({"model_type": "gemma3_text",
        "num_hidden_layers": 6, "hidden_size": 64, "num_attention_heads": 4, "head_dim": 128,
        "num_key_value_heads": 2, "sliding_window": 1024, "max_position_embeddings": 131072})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    ASSERT_EQ(schedule.layers[0].attention, LayerAttention::Sliding);
    FoundPositions found;
    UseLayerPositions(config, schedule.layers[0], &found);
    EXPECT_EQ(found.window, 1024);
    RopeReport report;
    rope_frequencies(found, ConfigOfLayer(config, schedule.layers[0]), &report);
    int beyond = 0;
    for (int i = 0; i < 64; ++i)
        beyond += 2 * M_PI * std::pow(10000.0, 2.0 * i / 128) > 1024 ? 1 : 0;
    EXPECT_EQ(report.window, 1024);
    EXPECT_EQ(report.pairs_without_turn_in_window, beyond);
    EXPECT_GT(beyond, report.pairs_without_turn); // the window hides more than the context
    // The global layer (layer 5) sees the whole context: no window.
    FoundPositions global;
    UseLayerPositions(config, schedule.layers[5], &global);
    EXPECT_EQ(global.window, 0);
}

TEST(LayerSchedule, LinearScalingCountsTheStretchedWavelengths) {
    // Linear (position interpolation) divides positions by the factor and names no original
    // context: max_position_embeddings is the context the stretched model runs at, so a pair
    // turns within it when 8 · 2π·base^(2i/d) ≤ 131072.
    const CheckpointConfig config = Parsed(R"({"model_type": "llama", "num_hidden_layers": 2,
        "hidden_size": 512, "num_attention_heads": 4, "rope_theta": 1000000,
        "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "linear", "factor": 8}})");
    FoundPositions found;
    ASSERT_EQ(FindPositionsFromConfig(config, &found), "");
    RopeReport report;
    rope_frequencies(found, config, &report);
    int beyond = 0;
    for (int i = 0; i < 64; ++i)
        beyond += 8 * 2 * M_PI * std::pow(1e6, 2.0 * i / 128) > 131072 ? 1 : 0;
    EXPECT_TRUE(report.without_turn_scaled);
    EXPECT_EQ(report.pairs_without_turn, beyond);
    EXPECT_FALSE(Says(report.scaling_note, "original context")) << report.scaling_note;
}

TEST(LayerSchedule, LatentAttentionRotatesTheLastDimensionsOfEachHead) {
    // DeepSeek V3: each query head is [qk_nope_head_dim | qk_rope_head_dim] (modeling_deepseek_v3
    // splits q_pass, q_rot in that order): the rotating dimensions are the last 64 of 192.
    const CheckpointConfig config = Parsed(R"({"model_type": "deepseek_v3",
        "num_hidden_layers": 2, "hidden_size": 512, "num_attention_heads": 4,
        "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
        "kv_lora_rank": 64})");
    FoundPositions found;
    ASSERT_EQ(FindPositionsFromConfig(config, &found), "");
    EXPECT_EQ(found.head_dim, 192);
    EXPECT_EQ(found.rotary_dims, 64);
    EXPECT_EQ(found.rotary_first, 128);
}

TEST(LayerSchedule, AGivenGlobalBaseIsNotCalledADefault) {
    // ModernBERT gives global_rope_theta, not rope_theta: no "no rope_theta" note.
    const CheckpointConfig given = Parsed(R"({"model_type": "modernbert", "num_hidden_layers": 3,
        "hidden_size": 64, "num_attention_heads": 4, "global_rope_theta": 160000,
        "local_rope_theta": 10000, "max_position_embeddings": 8192})");
    FoundPositions found;
    ASSERT_EQ(FindPositionsFromConfig(given, &found), "");
    for (const std::string& note : found.notes)
        EXPECT_FALSE(Says(note, "no rope_theta")) << note;
    // Left out, it is the family's default, and said so.
    const CheckpointConfig left_out = Parsed(R"({"model_type": "modernbert",
        "num_hidden_layers": 3, "hidden_size": 64, "num_attention_heads": 4})");
    ASSERT_EQ(FindPositionsFromConfig(left_out, &found), "");
    EXPECT_TRUE(AnyNoteSays(found.notes, "no rope_theta"));
}

TEST(LayerSchedule, AWindowAsLongAsTheContextIsSaidToHideNothing) {
    const LayerSchedule schedule = BuildLayerSchedule(Parsed(R"({"model_type": "phi3",
        "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
        "max_position_embeddings": 131072, "sliding_window": 262144})"));
    EXPECT_TRUE(AnyNoteSays(schedule.notes, "not shorter than the context"));
}

TEST(LayerSchedule, GptOssWithoutRopeSettingsTakesItsClassesYarn) {
    // configuration_gpt_oss.py: rope_parameters None → yarn, factor 32, beta_fast 32, beta_slow
    // 1, truncate False, original 4096 (and default_theta 150 000).
    const CheckpointConfig bare = Parsed(R"({"model_type": "gpt_oss", "num_hidden_layers": 2,
        "hidden_size": 256, "num_attention_heads": 4, "head_dim": 64})");
    EXPECT_EQ(bare.rope_scaling.type, "yarn");
    EXPECT_EQ(bare.rope_scaling.factor, 32);
    EXPECT_EQ(bare.rope_scaling.beta_slow, 1);
    EXPECT_FALSE(bare.rope_scaling.truncate);
    EXPECT_EQ(bare.rope_scaling.original_context, 4096);
    FoundPositions found;
    ASSERT_EQ(FindPositionsFromConfig(bare, &found), "");
    bool named = false; // one note names the key left out and the default put in
    for (const std::string& note : found.notes)
        named = named || (Says(note, "leaves out") && Says(note, "rope_parameters {"));
    EXPECT_TRUE(named);
    // Its own rope_scaling (v4) is read, and no rope_parameters default is claimed.
    const CheckpointConfig own = Parsed(R"({"model_type": "gpt_oss", "num_hidden_layers": 2,
        "hidden_size": 256, "num_attention_heads": 4, "head_dim": 64,
        "rope_scaling": {"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 1024}})");
    EXPECT_EQ(own.rope_scaling.factor, 4);
    ASSERT_EQ(FindPositionsFromConfig(own, &found), "");
    for (const std::string& note : found.notes)
        EXPECT_FALSE(Says(note, "rope_parameters")) << note;
}

TEST(LayerSchedule, MisfitFactorListsAndSectionsAreSaid) {
    // A longrope short_factor that is not one per pair, and mrope sections that do not add up to
    // the pairs, break transformers' own computation: named, never applied silently.
    std::string factors48, factors10;
    for (int i = 0; i < 48; ++i)
        factors48 += (i ? ", " : "") + std::string("1.5");
    for (int i = 0; i < 10; ++i)
        factors10 += (i ? ", " : "") + std::string("1.5");
    const CheckpointConfig phi = Parsed(
        R"({"model_type": "phi3", "num_hidden_layers": 2, "hidden_size": 384,
            "num_attention_heads": 4, "max_position_embeddings": 131072,
            "original_max_position_embeddings": 4096, "rope_scaling": {"type": "longrope",
            "long_factor": [)" +
        factors48 + R"(], "short_factor": [)" + factors10 + "]}}");
    FoundPositions found;
    ASSERT_EQ(FindPositionsFromConfig(phi, &found), "");
    RopeReport report;
    rope_frequencies(found, phi, &report);
    EXPECT_TRUE(report.short_wavelength.empty());
    EXPECT_TRUE(Says(report.scaling_note, "short_factor has 10 numbers")) << report.scaling_note;
    const CheckpointConfig vl = Parsed(R"({"model_type": "qwen2_vl", "num_hidden_layers": 2,
        "hidden_size": 512, "num_attention_heads": 4,
        "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 40]}})");
    ASSERT_EQ(FindPositionsFromConfig(vl, &found), "");
    EXPECT_TRUE(AnyNoteSays(found.notes, "add up to 80, not the 64 pairs"));
}

TEST(LayerSchedule, RopeParametersMixingLayerTypesWithFlatKeysIsSaid) {
    // transformers keys rope_parameters by layer type only when every key is one: this one is
    // flat (rope_theta 5e5 for all), its full_attention entry unused.
    const CheckpointConfig config = Parsed(R"({"model_type": "gemma3_text",
        "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "head_dim": 16,
        "layer_types": ["sliding_attention", "full_attention"],
        "rope_parameters": {"rope_theta": 500000, "rope_type": "default",
                            "full_attention": {"rope_theta": 1000000}}})");
    EXPECT_EQ(config.rope_theta, 500000);
    EXPECT_TRUE(
        AnyNoteSays(config.positions_not_shown, "mixes layer-type entries (full_attention)"));
}

TEST(LayerSchedule, Lfm2AttendsOnlyOnFullAttnIdxs) {
    // configuration_lfm2.py: layer_types "full_attention" if i in full_attn_idxs else "conv";
    // default_theta 10⁶; a short convolution has no attention and no positions.
    const CheckpointConfig config = Parsed(R"({"model_type": "lfm2", "num_hidden_layers": 4,
        "hidden_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2,
        "full_attn_idxs": [1, 3]})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    ASSERT_EQ(schedule.layers.size(), 4u);
    EXPECT_EQ(schedule.layers[0].attention, LayerAttention::Conv);
    EXPECT_FALSE(schedule.layers[0].rope);
    EXPECT_EQ(schedule.layers[0].positions, PositionKind::None);
    EXPECT_TRUE(schedule.layers[1].rope);
    EXPECT_EQ(schedule.layers[1].rope_theta, 1e6);
    EXPECT_EQ(schedule.layers[1].rotary_dims, 64);
    EXPECT_EQ(schedule.shown_layer, 1);
    EXPECT_EQ(schedule.rule, "full_attn_idxs");
    EXPECT_TRUE(Says(ScheduleSummary(schedule), "2 short convolution, no positions"));
    // Without the key every layer attends; an index past the layers is said.
    const std::string small = R"("model_type": "lfm2", "num_hidden_layers": 3,
        "hidden_size": 64, "num_attention_heads": 2, "num_key_value_heads": 2)";
    EXPECT_TRUE(BuildLayerSchedule(Parsed("{" + small + "}")).layers[2].rope);
    const CheckpointConfig past = Parsed("{" + small + R"(, "full_attn_idxs": [0, 7]})");
    EXPECT_TRUE(AnyNoteSays(past.positions_not_shown, "full_attn_idxs names layer 7"));
    // An empty list: every layer a convolution (transformers tests `is not None`); a
    // layer_types list: every type but full_attention a convolution.
    for (const LayerPlan& plan :
         BuildLayerSchedule(Parsed("{" + small + R"(, "full_attn_idxs": []})")).layers)
        EXPECT_EQ(plan.attention, LayerAttention::Conv);
    EXPECT_EQ(BuildLayerSchedule(Parsed("{" + small + R"(, "layer_types": ["full_attention",
        "sliding_attention", "attention"]})"))
                  .layers[1]
                  .attention,
              LayerAttention::Conv);
}

TEST(LayerSchedule, NemotronHAttentionHasNoRope) {
    // configuration_nemotron_h.py: one layer per character of hybrid_override_pattern (M Mamba-2
    // = linear_attention, * full_attention, E moe, - mlp), num_hidden_layers not read;
    // modeling_nemotron_h.py applies no RoPE in its attention.
    const CheckpointConfig config = Parsed(R"({"model_type": "nemotron_h", "num_hidden_layers": 9,
        "hidden_size": 256, "num_attention_heads": 4, "head_dim": 64, "rope_theta": 10000,
        "hybrid_override_pattern": "M*E-M"})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    ASSERT_EQ(schedule.layers.size(), 5u);
    EXPECT_EQ(schedule.layers[0].attention, LayerAttention::Linear);
    EXPECT_EQ(schedule.layers[1].attention, LayerAttention::Full);
    EXPECT_EQ(schedule.layers[2].attention, LayerAttention::None);
    EXPECT_EQ(schedule.layers[3].attention, LayerAttention::None);
    for (const LayerPlan& plan : schedule.layers) {
        EXPECT_FALSE(plan.rope);
        EXPECT_EQ(plan.positions, PositionKind::None);
    }
    EXPECT_EQ(schedule.shown_layer, -1);
    EXPECT_TRUE(AnyNoteSays(config.positions_not_shown, "num_hidden_layers 9 is not read"));
    FoundPositions found;
    ASSERT_EQ(FindPositionsFromConfig(config, &found), "");
    EXPECT_NE(found.kind, PositionKind::Rope);
    ASSERT_FALSE(found.notes.empty());
    EXPECT_TRUE(Says(found.notes.front(), "Nemotron-H has no position encoding"));
    EXPECT_TRUE(Says(found.notes.front(), "through its 2 layers of linear attention"));
    EXPECT_TRUE(AnyNoteSays(found.notes, "num_hidden_layers 9 is not read"));
    EXPECT_TRUE(AnyNoteSays(found.notes, "rope_theta 10000 is not used"));
    EXPECT_TRUE(Says(RefusalOf(R"({"model_type": "nemotron_h", "hidden_size": 64,
        "num_attention_heads": 2, "hybrid_override_pattern": "M*X"})"),
                     "character 3 is not one of M (Mamba-2)"));
}

TEST(LayerSchedule, MimoKeepsItsClassRope) {
    // configuration_mimo_v2_flash.py: layer_types full at i == 0 or (i + 1) % 6 == 0, else
    // sliding; rope_parameters defaults full {5·10⁶, 0.334}, sliding {10⁴, 0.334}; its
    // convert_rope_params_to_dict returns the keys unchanged, so rope_theta is not read.
    // int(192 · 0.334) = 64 rotating dimensions.
    const CheckpointConfig config = Parsed(R"({"model_type": "mimo_v2_flash",
        "num_hidden_layers": 12, "hidden_size": 4096, "num_attention_heads": 64, "head_dim": 192,
        "sliding_window": 128, "rope_theta": 1000000})");
    const LayerSchedule schedule = BuildLayerSchedule(config);
    ASSERT_EQ(schedule.layers.size(), 12u);
    for (int i : {0, 5, 11}) {
        EXPECT_EQ(schedule.layers[i].attention, LayerAttention::Full) << i;
        EXPECT_EQ(schedule.layers[i].rope_theta, 5e6) << i;
    }
    for (int i : {1, 4, 6, 10}) {
        EXPECT_EQ(schedule.layers[i].attention, LayerAttention::Sliding) << i;
        EXPECT_EQ(schedule.layers[i].span, 128) << i;
        EXPECT_EQ(schedule.layers[i].rope_theta, 10000) << i;
    }
    EXPECT_EQ(schedule.layers[0].rotary_dims, 64);
    EXPECT_EQ(schedule.layers[1].rotary_dims, 64);
    EXPECT_TRUE(AnyNoteSays(config.positions_not_shown, "rope_theta 1000000: not read"));
}
