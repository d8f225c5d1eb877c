// GPT-2's forward pass (pelab/models/gpt2.h): what it refuses and how the switches place the rows.
// Its numbers are checked against PyTorch in tests/reference/gpt2_torch.py
// (models.gpt2_against_torch).
#include "model_fixtures.h"
#include "pelab/base/error.h"
#include "pelab/models/gpt2.h"
#include "status_text.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

namespace pelab {
namespace {

namespace fs = std::filesystem;

// A GPT-2 of width 8, 2 heads, 1 layer, 6 positions and 5 words; c_proj optionally of a wrong
// shape.
std::vector<pelab_test::FixtureTensor> TinyGpt2(bool wrong_attention = false) {
    const std::int64_t d = 8;
    std::vector<pelab_test::FixtureTensor> tensors = {
        {"wte.weight", {5, d}, pelab_test::Normal(5 * d, 1, 0.5f)},
        {"wpe.weight", {6, d}, pelab_test::Normal(6 * d, 2, 0.5f)},
        {"ln_f.weight", {d}, std::vector<float>(d, 1.0f)},
        {"ln_f.bias", {d}, std::vector<float>(d, 0.0f)}};
    const auto add = [&](const std::string& name, const std::vector<std::int64_t>& shape,
                         unsigned seed) {
        std::int64_t count = 1;
        for (std::int64_t extent : shape)
            count *= extent;
        tensors.push_back({"h.0." + name, shape, pelab_test::Normal(count, seed, 0.3f)});
    };
    add("ln_1.weight", {d}, 3), add("ln_1.bias", {d}, 4);
    add("attn.c_attn.weight",
        wrong_attention ? std::vector<std::int64_t>{3 * d, d} : std::vector<std::int64_t>{d, 3 * d},
        5);
    add("attn.c_attn.bias", {3 * d}, 6), add("attn.c_proj.weight", {d, d}, 7);
    add("attn.c_proj.bias", {d}, 8), add("ln_2.weight", {d}, 9), add("ln_2.bias", {d}, 10);
    add("mlp.c_fc.weight", {d, 4 * d}, 11), add("mlp.c_fc.bias", {4 * d}, 12);
    add("mlp.c_proj.weight", {4 * d, d}, 13), add("mlp.c_proj.bias", {d}, 14);
    return tensors;
}

class Gpt2Files : public ::testing::Test {
protected:
    void SetUp() override {
        folder_ = fs::temp_directory_path() /
                  ("pelab-gpt2-" + std::to_string(getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(folder_);
        config_.layers = 1;
        config_.heads = 2;
    }
    void TearDown() override { fs::remove_all(folder_); }
    std::string Load(const std::vector<pelab_test::FixtureTensor>& tensors, Gpt2Model* model) {
        pelab_test::WriteSafetensors(folder_ / "model.safetensors", tensors);
        Checkpoint checkpoint;
        EXPECT_EQ(checkpoint.Open((folder_ / "model.safetensors").string()), "");
        return Gpt2Model::Load(checkpoint, config_, model).message();
    }
    fs::path folder_;
    CheckpointConfig config_;
};

TEST_F(Gpt2Files, LoadsTheTensorsAndRefusesWhatIsNotGpt2ByName) {
    Gpt2Model model;
    ASSERT_EQ(Load(TinyGpt2(), &model), "");
    EXPECT_EQ(model.Sizes().width, 8);
    EXPECT_EQ(model.Sizes().context, 6);
    EXPECT_EQ(model.Sizes().vocab, 5);
    // c_attn stored out × in (a Linear's layout): refused with the tensor and both shapes named.
    const std::string wrong = Load(TinyGpt2(true), &model);
    EXPECT_NE(wrong.find("h.0.attn.c_attn.weight"), std::string::npos) << wrong;
    EXPECT_NE(wrong.find("[24, 8]"), std::string::npos) << wrong;
    EXPECT_NE(wrong.find("[8, 24]"), std::string::npos) << wrong;
    // A tensor missing, and a config without its head count.
    std::vector<pelab_test::FixtureTensor> missing = TinyGpt2();
    missing.erase(missing.begin() + 3); // ln_f.bias
    EXPECT_NE(Load(missing, &model).find("ln_f.bias"), std::string::npos);
    config_.heads = 0;
    EXPECT_NE(Load(TinyGpt2(), &model).find("n_head"), std::string::npos);
    config_.heads = 3; // 8 does not split into 3 heads
    EXPECT_NE(Load(TinyGpt2(), &model).find("3 heads"), std::string::npos);
    config_.heads = 2;
    config_.hidden = 16;
    EXPECT_NE(Load(TinyGpt2(), &model).find("n_embd"), std::string::npos);
    // Not GPT-2 at all.
    EXPECT_NE(Load({{"embed.weight", {2, 2}, {1, 2, 3, 4}}}, &model).find("not a GPT-2"),
              std::string::npos);
}

TEST_F(Gpt2Files, EachSwitchGivesTheRowsItNames) {
    Gpt2Model model;
    ASSERT_EQ(Load(TinyGpt2(), &model), "");
    const std::vector<float>& table = model.PositionTable();
    const auto row = [&](const std::vector<float>& rows, int t) {
        return std::vector<float>(rows.begin() + t * 8, rows.begin() + (t + 1) * 8);
    };
    const auto table_row = [&](int r) { return row(table, r); };
    const int n = 4;
    PositionChoice choice;
    choice.kind = PositionSwitch::Shifted;
    choice.shift = 2;
    std::vector<float> rows = model.PositionRows(choice, n);
    for (int t = 0; t < n; ++t)
        EXPECT_EQ(row(rows, t), table_row(t + 2));
    choice.shift = 3; // 3 + 4 > 6 rows
    EXPECT_THROW(model.PositionRows(choice, n), InvalidArgument);
    choice.kind = PositionSwitch::Same;
    choice.same_row = 5;
    rows = model.PositionRows(choice, n);
    EXPECT_EQ(row(rows, 3), table_row(5));
    choice.kind = PositionSwitch::Shuffled;
    rows = model.PositionRows(choice, n);
    std::set<std::vector<float>> shuffled, first;
    for (int t = 0; t < n; ++t)
        shuffled.insert(row(rows, t)), first.insert(table_row(t));
    EXPECT_EQ(shuffled, first); // the same rows, in another order
    choice.kind = PositionSwitch::Zeroed;
    rows = model.PositionRows(choice, n);
    EXPECT_TRUE(std::all_of(rows.begin(), rows.end(), [](float v) { return v == 0.0f; }));
    // Sinusoidal rows scaled to the table's mean row norm.
    choice.kind = PositionSwitch::Sinusoidal;
    rows = model.PositionRows(choice, n);
    double mean_norm = 0;
    for (int r = 0; r < 6; ++r) {
        double squares = 0;
        for (float v : table_row(r))
            squares += static_cast<double>(v) * v;
        mean_norm += std::sqrt(squares) / 6;
    }
    for (int t = 0; t < n; ++t) {
        double squares = 0;
        for (float v : row(rows, t))
            squares += static_cast<double>(v) * v;
        EXPECT_NEAR(std::sqrt(squares), mean_norm, 1e-5);
    }
    EXPECT_NEAR(rows[1], std::cos(0.0) * mean_norm / 2, 1e-6); // PE(0, 1) = cos 0, √(8/2) = 2
    // Tokens outside the vocabulary, or more than the context.
    EXPECT_THROW(model.Run({1, 5}, PositionChoice{}), InvalidArgument);
    EXPECT_THROW(model.Run(std::vector<int>(7, 1), PositionChoice{}), InvalidArgument);
    EXPECT_THROW(model.Run({}, PositionChoice{}), InvalidArgument);
    // Attention rows are distributions over the keys up to the query.
    const Gpt2Pass pass = model.Run({1, 2, 3}, PositionChoice{}, {true, 1});
    ASSERT_EQ(pass.attention.size(), 1u * 2 * 3 * 3);
    for (int head = 0; head < 2; ++head)
        for (int i = 0; i < 3; ++i) {
            double sum = 0;
            for (int j = 0; j < 3; ++j) {
                const float w = pass.attention[((head * 3) + i) * 3 + j];
                if (j > i) {
                    EXPECT_EQ(w, 0.0f);
                }
                sum += w;
            }
            EXPECT_NEAR(sum, 1.0, 1e-6);
        }
    // Threads change nothing.
    const Gpt2Pass two = model.Run({1, 2, 3}, PositionChoice{}, {true, 2});
    EXPECT_EQ(pass.logits, two.logits);
}

TEST(PositionChoices, NamesReadBackAndBadOnesAreRefused) {
    for (const char* name :
         {"trained", "zero", "shuffle", "shuffle:7", "shift:3", "same:0", "mean", "sinusoidal"}) {
        PositionChoice choice;
        ASSERT_EQ(ParsePositionChoice(name, &choice), "") << name;
        EXPECT_EQ(PositionChoiceName(choice), name);
    }
    PositionChoice choice;
    for (const char* bad : {"", "shift", "shift:", "shift:-1", "shift:x", "same:1e3", "zero:1",
                            "random", "shuffle:99999999999999999999", "shift:2000000"}) {
        const std::string error = ParsePositionChoice(bad, &choice).message();
        EXPECT_NE(error, "") << bad;
        EXPECT_EQ(error.find('\n'), std::string::npos);
    }
    // The permutation: every index once, fixed by the seed, different for another seed.
    const std::vector<int> order = ShuffleOrder(50, 1);
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 50; ++i)
        EXPECT_EQ(sorted[i], i);
    EXPECT_EQ(ShuffleOrder(50, 1), order);
    EXPECT_NE(ShuffleOrder(50, 2), order);
}

} // namespace
} // namespace pelab
