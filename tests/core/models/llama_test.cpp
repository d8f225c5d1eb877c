// The rotary pass's switches and refusals (pelab/models/llama.h). Its numbers are checked
// against PyTorch by tests/models/check_llama_pass.py.
#include "pelab/models/llama.h"
#include "status_text.h"

#include <gtest/gtest.h>

#include <string>

namespace pelab {
namespace {

TEST(RotarySwitches, NamesReadBackAndBadOnesAreRefused) {
    for (const std::string name : {"trained", "none", "pairing", "base:4", "base:0.25",
                                   "shift:1000", "scaling-off", "nope-from:3"}) {
        RotaryChoice choice;
        ASSERT_EQ(ParseRotaryChoice(name, &choice), "") << name;
        EXPECT_EQ(RotaryChoiceName(choice), name);
    }
    RotaryChoice choice;
    ASSERT_EQ(ParseRotaryChoice("base:2", &choice), "");
    EXPECT_EQ(choice.kind, RotarySwitch::Base);
    EXPECT_EQ(choice.base_factor, 2);
    const struct {
        const char* text;
        const char* says;
    } refused[] = {{"base:0", "in [1e-6, 1e6]"},   {"base:-1", "in [1e-6, 1e6]"},
                   {"base:nan", "not one of"},     {"base:", "not one of"},
                   {"shift:-1", "whole number"},   {"shift:1.5", "whole number"},
                   {"shift:2e9", "whole number"},  {"nope-from:-2", "layer index"},
                   {"zero", "not one of trained"}, {"", "not one of"}};
    for (const auto& each : refused) {
        const Status status = ParseRotaryChoice(each.text, &choice);
        EXPECT_NE(status.message().find(each.says), std::string::npos)
            << each.text << ": " << status.message();
    }
}

TEST(RotarySwitches, OnlyTheFamiliesThePassComputesRun) {
    for (const char* id : {"llama", "mistral", "ministral", "qwen2", "qwen3", "olmo2", "smollm3"})
        EXPECT_TRUE(LlamaPassRuns(id)) << id;
    for (const char* id : {"gemma3", "llama4", "deepseek", "gpt2", "qwen3_next", ""})
        EXPECT_FALSE(LlamaPassRuns(id)) << id;
}

TEST(RotarySwitches, ANoteSaysWhenASwitchChangesNothingOrFloat32Fails) {
    LlamaSizes sizes;
    sizes.layers = 2;
    LayerPlan plan;
    plan.rope = true;
    sizes.schedule.layers = {plan, plan};
    RotaryChoice choice;
    ASSERT_EQ(ParseRotaryChoice("nope-from:2", &choice), "");
    EXPECT_NE(RotaryChoiceNote(sizes, choice, 5).find("layers are 0 to 1"), std::string::npos);
    ASSERT_EQ(ParseRotaryChoice("scaling-off", &choice), "");
    EXPECT_NE(RotaryChoiceNote(sizes, choice, 5).find("no layer's RoPE is scaled"),
              std::string::npos);
    // float32 holds every whole number up to 2²⁴; from 2²⁶ to 2²⁷ one in 8.
    ASSERT_EQ(ParseRotaryChoice("shift:16777211", &choice), "");
    EXPECT_EQ(RotaryChoiceNote(sizes, choice, 5), "");
    EXPECT_NE(RotaryChoiceNote(sizes, choice, 6).find("one position in 2,"), std::string::npos);
    ASSERT_EQ(ParseRotaryChoice("shift:100000000", &choice), "");
    EXPECT_NE(RotaryChoiceNote(sizes, choice, 5).find("one position in 8,"), std::string::npos);
    ASSERT_EQ(ParseRotaryChoice("base:2", &choice), "");
    EXPECT_EQ(RotaryChoiceNote(sizes, choice, 5), "");
}

} // namespace
} // namespace pelab
