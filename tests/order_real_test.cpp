// The order panel's Real model view (panels/order/order_real.h) on a whole GPT-2 fixture
// (model_fixtures.h): its tokens from the fixture's own merges, the causal property measured
// (positions removed: the tokens that see the same multiset up to them leave block 1 the same),
// the distances and losses against passes run and measured here, the sentence's claims over a
// sweep of sentence pairs, the view drawn at the projector's size in every theme, and what it
// says with no checkpoint, another family, a missing tokenizer, bad sentences and the page's limit.
#include "headless_fixture.h"
#include "io/lesson.h"
#include "model_fixtures.h"
#include "panels/model/panel_model.h"
#include "panels/order/panel_order.h"
#include "pelab/models/gpt2_order.h"
#include "shell/lesson_player.h"
#include "status_text.h"
#include "test_paths.h"
#include "widgets/fonts.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

namespace pelab {
namespace {

namespace fs = std::filesystem;

// The fixture's ids: byte b is id b; the k-th merge (from 0) makes id 256 + k (model_fixtures.h).
constexpr int kThe = 258, kSpaceThe = 259, kDog = 262, kMan = 265, kBites = 270, kDot = 271;

// ‖x − y‖ / ((‖x‖ + ‖y‖)/2) of two states, written out here.
double Distance(const Gpt2Pass& a, int ta, const Gpt2Pass& b, int tb, int state, int d) {
    double dd = 0, xx = 0, yy = 0;
    for (int c = 0; c < d; ++c) {
        const double x = a.states[(static_cast<std::size_t>(state) * a.tokens + ta) * d + c];
        const double y = b.states[(static_cast<std::size_t>(state) * b.tokens + tb) * d + c];
        dd += (x - y) * (x - y), xx += x * x, yy += y * y;
    }
    const double scale = (std::sqrt(xx) + std::sqrt(yy)) / 2;
    return scale > 0 ? std::sqrt(dd) / scale : 0;
}

class OrderRealTest : public HeadlessApp {
protected:
    void SetUp() override {
        HeadlessApp::SetUp();
        folder_ = fs::temp_directory_path() /
                  ("pelab-order-real-" + std::to_string(getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
        pelab_test::WriteGpt2RunFixture(folder_ / "gpt2-run");
        pelab_test::WriteModelFixtures(folder_);
    }
    void TearDown() override {
        fs::remove_all(folder_);
        HeadlessApp::TearDown();
    }
    OrderPanel& Order() { return Get<OrderPanel>("order"); }
    void OpenModel(const std::string& name) {
        ASSERT_EQ(app.models.Open(pelab::ModelRequest{(folder_ / name).string(), "", ""}), "");
        app.models.Finish();
        app.ShareModel();
    }
    nlohmann::json Real(const nlohmann::json& scene) {
        nlohmann::json with = scene;
        with["order_view"] = "real";
        EXPECT_EQ(app.scene.Apply(with.dump()), "");
        return Order().Readouts(state)["real"];
    }
    Gpt2Model LoadFixture() {
        Gpt2Model model;
        ModelRequest request;
        request.path = (folder_ / "gpt2-run").string();
        EXPECT_EQ(OpenGpt2(request, &model), "");
        return model;
    }
    fs::path folder_;
};

TEST(SamePrefixTokens, TheTokensWhosePrefixesHoldTheSameMultiset) {
    // "the dog bites the man ." and "the man bites the dog .": the first and the last token.
    EXPECT_EQ(SamePrefixTokens({1, 2, 3, 1, 4, 5}, {1, 4, 3, 1, 2, 5}), (std::vector<int>{0, 5}));
    // The same sentence: every token. Nothing in common at 0: none until the sets meet again.
    EXPECT_EQ(SamePrefixTokens({7, 8, 9}, {7, 8, 9}), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(SamePrefixTokens({1, 2, 3}, {2, 1, 3}), (std::vector<int>{2}));
    EXPECT_EQ(SamePrefixTokens({1, 2, 3}, {2, 1, 4}), (std::vector<int>{}));
    // Lengths differ: only the common prefix counts.
    EXPECT_EQ(SamePrefixTokens({1, 1}, {1}), (std::vector<int>{0}));
    EXPECT_TRUE(PositionFree(PositionChoice{PositionSwitch::Zeroed}));
    EXPECT_TRUE(PositionFree(PositionChoice{PositionSwitch::MeanRow}));
    EXPECT_FALSE(PositionFree(PositionChoice{PositionSwitch::Shuffled}));
}

// The note under the guesses: said exactly when a guess is shown with a \xNN escape, with the
// count of such guesses (counted here from the bytes: a lone lead or continuation byte, or a
// control byte), and not for a token holding the text "\x" itself.
TEST(ByteGuessNote, CountsTheGuessesShownWithALoneByte) {
    const auto lone_byte = [](const std::string& token) {
        for (std::size_t at = 0; at < token.size(); ++at) {
            const auto byte = static_cast<unsigned char>(token[at]);
            if (byte < 0x20 || byte == 0x7F) return true;
            if (byte < 0x80) continue;
            const std::size_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0;
            if (length == 0 || at + length > token.size()) return true;
            for (std::size_t k = 1; k < length; ++k)
                if ((static_cast<unsigned char>(token[at + k]) & 0xC0) != 0x80) return true;
            at += length - 1;
        }
        return false;
    };
    // Bytes: a lone lead byte, the text \x, a whole é, a control byte, half an emoji, the
    // text \x41.
    const std::vector<std::string> pool = {" the", "\xD0",     "\\x", "\xC3\xA9", "\x13",
                                           ";",    "\xF0\x9F", "dog", "\\x41"};
    std::uint64_t seed = 7;
    for (int round = 0; round < 200; ++round) {
        std::vector<std::vector<std::string>> rows(1 + round % 6);
        std::size_t expected = 0, shown = 0;
        for (auto& row : rows)
            for (int k = 0; k < 5; ++k) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                const std::string& bytes = pool[(seed >> 33) % pool.size()];
                row.push_back(bytes);
                ++shown;
                expected += lone_byte(bytes);
            }
        const std::string note = ByteGuessNote(rows);
        if (expected == 0) {
            EXPECT_EQ(note, "") << round;
            continue;
        }
        EXPECT_NE(note.find(std::to_string(expected) + " of the " + std::to_string(shown) +
                            " guesses shown"),
                  std::string::npos)
            << note;
        EXPECT_EQ(note.rfind("\\xNN", 0), 0u);
    }
}

// The issue's property, measured on the fixture: with positions zeroed (and with the mean row),
// the first and last tokens leave block 1 equal across the two sentences (1e-5); block 2 and the
// trained positions make the last tokens differ.
TEST_F(OrderRealTest, WithoutPositionsTheFirstAndLastTokensLeaveBlockOneTheSame) {
    const Gpt2Model model = LoadFixture();
    const std::vector<int> a = {kThe, kDog, kBites, kSpaceThe, kMan, kDot},
                           b = {kThe, kMan, kBites, kSpaceThe, kDog, kDot};
    const int d = model.Sizes().width;
    Gpt2Options options;
    options.all_logits = true;
    for (const PositionSwitch kind : {PositionSwitch::Zeroed, PositionSwitch::MeanRow}) {
        PositionChoice choice;
        choice.kind = kind;
        const Gpt2Pass pa = model.Run(a, choice, options), pb = model.Run(b, choice, options);
        for (int token : {0, 5})
            EXPECT_LT(Distance(pa, token, pb, token, 1, d), 1e-5) << "token " << token;
        // Token 3 ("the" after different words) and the last token after block 2 differ.
        EXPECT_GT(Distance(pa, 3, pb, 3, 1, d), 1e-3);
        EXPECT_GT(Distance(pa, 5, pb, 5, 2, d), 1e-4);
    }
    const Gpt2Pass ta = model.Run(a, PositionChoice{}, options),
                   tb = model.Run(b, PositionChoice{}, options);
    EXPECT_GT(Distance(ta, 5, tb, 5, 1, d), 1e-3) << "with positions, block 1 differs";

    // RunOrderOnGpt2 reports the same numbers as the passes measured here.
    const std::vector<PositionChoice> switches = RealSwitches(3, 7);
    const OrderResult result = RunOrderOnGpt2(model, a, b, switches, 5, 1);
    ASSERT_EQ(result.runs.size(), 6u);
    EXPECT_EQ(result.same_prefix, (std::vector<int>{0, 5}));
    for (std::size_t k = 0; k < switches.size(); ++k) {
        const OrderRun& run = result.runs[k];
        const Gpt2Pass pa = model.Run(a, switches[k], options),
                       pb = model.Run(b, switches[k], options);
        ASSERT_EQ(run.last_distances.size(), 3u);
        for (int state = 0; state < 3; ++state)
            EXPECT_NEAR(run.last_distances[state], Distance(pa, 5, pb, 5, state, d), 1e-12);
        EXPECT_DOUBLE_EQ(run.loss_a, pa.loss);
        EXPECT_DOUBLE_EQ(run.loss_b, pb.loss);
        ASSERT_EQ(run.same_prefix_block1.size(), 2u);
        EXPECT_NEAR(run.same_prefix_block1[1], Distance(pa, 5, pb, 5, 1, d), 1e-12);
        // The top guess is the largest of the last token's logits.
        const float* last = pa.logits.data() + pa.logits.size() - model.Sizes().vocab;
        EXPECT_EQ(run.top_a[0].id, std::max_element(last, last + model.Sizes().vocab) - last);
        ASSERT_EQ(run.attention_a.size(), static_cast<std::size_t>(2 * 4 * 6 * 6));
    }
}

TEST_F(OrderRealTest, TheViewTokenizesRunsAndSaysWhatTheNumbersShow) {
    OpenModel("gpt2-run");
    const nlohmann::json real = Real({});
    ASSERT_FALSE(real.contains("error")) << real.dump();
    ASSERT_FALSE(real.contains("needs")) << real.dump();
    EXPECT_EQ(real["tokens_a"], (std::vector<int>{kThe, kDog, kBites, kSpaceThe, kMan, kDot}));
    EXPECT_EQ(real["tokens_b"], (std::vector<int>{kThe, kMan, kBites, kSpaceThe, kDog, kDot}));
    EXPECT_EQ(real["token_texts_a"][1], " dog");
    EXPECT_EQ(real["blocks"], 2);
    EXPECT_EQ(real["heads"], 4);
    // The shift asked (100) leaves the 64-row table: lowered to 64 − 6.
    EXPECT_EQ(real["shift_used"], 58);
    ASSERT_EQ(real["switches"].size(), 6u);
    std::vector<std::string> names;
    for (const auto& run : real["switches"])
        names.push_back(run["positions"]);
    EXPECT_EQ(names, (std::vector<std::string>{"trained", "zero", "mean", "shuffle", "shift:58",
                                               "sinusoidal"}));
    const nlohmann::json& claims = real["claims"];
    EXPECT_EQ(claims["same_prefix_tokens"], 2);
    EXPECT_LT(claims["same_prefix_block1_max"].get<double>(), 1e-5);
    EXPECT_EQ(claims["reordering"], 1);
    EXPECT_EQ(claims["same_last_token"], 1);
    EXPECT_EQ(claims["order_left_without_positions"], 1);
    const std::string sentence = real["sentence"];
    // The tokens as their boxes show them: the space before "." as "·".
    EXPECT_NE(sentence.find("\"the\" (1st) and \"·.\" (6th) see the same tokens"),
              std::string::npos)
        << sentence;
    EXPECT_NE(sentence.find("ablation"), std::string::npos);
    // Two clauses joined, not spliced with a comma.
    EXPECT_NE(sentence.find(" and giving every token the mean row "), std::string::npos)
        << sentence;
    // Shuffled with the seed asked, shifted by what the table allows: the readouts follow.
    const nlohmann::json seeded = Real({{"real_shuffle_seed", 9}, {"real_shift", 3}});
    EXPECT_EQ(seeded["switches"][3]["positions"], "shuffle:9");
    EXPECT_EQ(seeded["switches"][4]["positions"], "shift:3");
}

// Each claim of the sentence against numbers computed here, over pairs of sentences: a
// re-ordering with the same ends, with different ends, different words, the same sentence, one
// token, and sentences of different lengths.
TEST_F(OrderRealTest, TheSentenceSaysWhatItsClaimsSayOverASweep) {
    OpenModel("gpt2-run");
    const Gpt2Model model = LoadFixture();
    BpeTokenizer tokenizer;
    ASSERT_EQ(OpenTokenizer((folder_ / "gpt2-run").string(), "", &tokenizer), "");
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"the dog bites the man .", "the man bites the dog ."},
        {"dog bites man", "man bites dog"},
        {"the dog bites", "the man bites"},
        {"the dog .", "the dog ."},
        {"dog", "man"},
        {"the", "the dog bites the man ."},
        {"a b c d", "d c b a"},
        {"the dog bites the man . the dog", "the man bites the dog . the dog"}};
    for (const auto& [text_a, text_b] : pairs) {
        SCOPED_TRACE(text_a + " / " + text_b);
        const nlohmann::json real = Real({{"real_text_a", text_a}, {"real_text_b", text_b}});
        ASSERT_FALSE(real.contains("error")) << real.dump();
        std::vector<int> a, b;
        ASSERT_EQ(tokenizer.Encode(text_a, &a), "");
        ASSERT_EQ(tokenizer.Encode(text_b, &b), "");
        const nlohmann::json& claims = real["claims"];
        const std::string sentence = real["sentence"];
        // Same sentence / re-ordering, from sorted ids.
        std::vector<int> sa = a, sb = b;
        std::sort(sa.begin(), sa.end()), std::sort(sb.begin(), sb.end());
        EXPECT_EQ(claims["same_sentence"], a == b ? 1 : 0);
        EXPECT_EQ(claims["reordering"], sa == sb ? 1 : 0);
        EXPECT_EQ(sentence.find("different tokens, so they differ") != std::string::npos, sa != sb);
        // Same-prefix tokens, counted here by brute force.
        int same = 0;
        for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
            std::vector<int> pa(a.begin(), a.begin() + i + 1), pb(b.begin(), b.begin() + i + 1);
            std::sort(pa.begin(), pa.end()), std::sort(pb.begin(), pb.end());
            same += a[i] == b[i] && pa == pb;
        }
        EXPECT_EQ(claims["same_prefix_tokens"], same);
        EXPECT_EQ(sentence.find("leave block 1 the same") != std::string::npos ||
                      sentence.find("leaves block 1 the same") != std::string::npos,
                  same > 0 && a != b);
        // The loss words: "raises" when zeroing raises sentence A's loss.
        Gpt2Options options;
        options.all_logits = true;
        PositionChoice zero;
        zero.kind = PositionSwitch::Zeroed;
        const Gpt2Pass ta = model.Run(a, PositionChoice{}, options),
                       za = model.Run(a, zero, options),
                       tb = model.Run(b, PositionChoice{}, options),
                       zb = model.Run(b, zero, options);
        if (a.size() >= 2) {
            EXPECT_NEAR(claims["loss_trained_a"].get<double>(), ta.loss, 1e-9);
            EXPECT_NEAR(claims["loss_zeroed_a"].get<double>(), za.loss, 1e-9);
            const bool rises = za.loss > ta.loss;
            EXPECT_NE(sentence.find(rises ? "zeroing its positions raises"
                                          : "zeroing its positions lowers"),
                      std::string::npos)
                << sentence;
        } else {
            EXPECT_NE(sentence.find("one token"), std::string::npos) << sentence;
        }
        // The last tokens' distance after the last block, and whether order is left.
        if (a != b) {
            const int last = 2;
            const double without = Distance(za, za.tokens - 1, zb, zb.tokens - 1, last, 32),
                         with = Distance(ta, ta.tokens - 1, tb, tb.tokens - 1, last, 32);
            EXPECT_NEAR(claims["last_distance_zeroed"].get<double>(), without, 1e-12);
            EXPECT_NEAR(claims["last_distance_trained"].get<double>(), with, 1e-12);
            const bool same_end = sa == sb && a.back() == b.back();
            EXPECT_EQ(claims.contains("order_left_without_positions"), same_end);
            EXPECT_EQ(sentence.find("still tells the orders apart") != std::string::npos,
                      same_end && without > 1e-4);
        }
    }
}

TEST_F(OrderRealTest, WithoutAModelItRunsTheViewSaysWhatToBringAndShowsTheToyDemo) {
    nlohmann::json real = Real({});
    ASSERT_TRUE(real.contains("needs")) << real.dump();
    const std::string needs = real["needs"];
    for (const char* file :
         {"model.safetensors", "config.json", "vocab.json", "merges.txt", "tokenizer.json",
          "openai-community/gpt2", "SmolLM2-135M", "File → Open"})
        EXPECT_NE(needs.find(file), std::string::npos) << needs;
    app.recorder.rects.clear();
    Present("order", 3);
    EXPECT_TRUE(app.recorder.rects.count("order.real_needs"));
    EXPECT_TRUE(app.recorder.rects.count("order.scores_a")) << "the toy demo below";
    // A Llama that holds only its attention's projections: the rotary loader names what is
    // missing.
    OpenModel("llama");
    real = Real({});
    ASSERT_TRUE(real.contains("error")) << real.dump();
    EXPECT_NE(real["error"].get<std::string>().find("has no mlp.gate_proj.weight"),
              std::string::npos)
        << real.dump();
    fs::create_directories(folder_ / "bert");
    pelab_test::WriteSafetensors(
        folder_ / "bert" / "model.safetensors",
        {{"bert.embeddings.position_embeddings.weight", {16, 8}, pelab_test::Normal(128, 5)}});
    std::ofstream(folder_ / "bert" / "config.json") << R"({"model_type": "bert"})";
    OpenModel("bert");
    EXPECT_NE(
        Real({})["needs"].get<std::string>().find("is BERT's, a family this view does not run"),
        std::string::npos);
    OpenModel("gpt2");
    // A GPT-2 table without the rest of the model: the loader names what is missing.
    real = Real({});
    ASSERT_TRUE(real.contains("error")) << real.dump();
    EXPECT_NE(real["error"].get<std::string>().find("has no tensor"), std::string::npos)
        << real.dump();
    // … and what the view needs, with the toy demo below, as with no GPT-2 at all.
    ASSERT_TRUE(real.contains("needs")) << real.dump();
    for (const char* file : {"model.safetensors", "config.json", "vocab.json", "merges.txt"})
        EXPECT_NE(real["needs"].get<std::string>().find(file), std::string::npos);
    app.recorder.rects.clear();
    Present("order", 3);
    EXPECT_TRUE(app.recorder.rects.count("order.real_error"));
    EXPECT_TRUE(app.recorder.rects.count("order.real_needs"));
    EXPECT_TRUE(app.recorder.rects.count("order.scores_a")) << "the toy demo below";
}

// --model in the window: the checkpoint is read off the frame while only the order panel is
// drawn (Your model closed), and still reaches the order panel (App::ShareModel collects
// it each frame; it once waited for Your model to be drawn, forever).
TEST_F(OrderRealTest, ACheckpointReadOffTheFrameReachesTheOrderPanelWithYourModelClosed) {
    ASSERT_EQ(app.scene.Apply(R"({"order_view": "real"})"), "");
    ASSERT_EQ(app.OpenModel((folder_ / "gpt2-run").string(), false), "");
    app.panels.Find("model")->open = false;
    app.view.presented_panel = "order";
    bool arrived = false;
    for (int k = 0; k < 600 && !arrived; ++k) {
        Frame();
        arrived = state.model_table != nullptr;
        if (!arrived) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(arrived) << "the checkpoint never reached the other panels";
    EXPECT_EQ(state.model_table->family, "GPT-2");
    EXPECT_FALSE(Order().Readouts(state)["real"].contains("needs"));
}

TEST_F(OrderRealTest, BadSentencesAndAMissingTokenizerAreSaidNotRun) {
    OpenModel("gpt2-run");
    EXPECT_NE(Real({{"real_text_a", ""}})["error"].get<std::string>().find("sentence A is empty"),
              std::string::npos);
    std::string many;
    for (int k = 0; k < 40; ++k)
        many += " dog";
    const std::string long_error =
        Real({{"real_text_a", "the dog"}, {"real_text_b", many}})["error"];
    EXPECT_NE(long_error.find("sentence B is 40 tokens; the view takes up to 32"),
              std::string::npos)
        << long_error;
    EXPECT_NE(app.scene.Apply(R"({"real_switch": "sideways"})"), "");
    EXPECT_NE(app.scene.Apply(R"({"order_view": "bigger"})"), "");
    // Without vocab.json: what to bring.
    fs::remove(folder_ / "gpt2-run" / "vocab.json");
    OpenModel("gpt2-run");
    const std::string tokenizer = Real({{"real_text_a", "the dog"}})["error"];
    EXPECT_NE(tokenizer.find("vocab.json and merges.txt"), std::string::npos) << tokenizer;
    // The page's limit: a checkpoint above it is refused with both sizes.
    RealSource source;
    source.checkpoint_path = (folder_ / "gpt2-run" / "model.safetensors").string();
    source.family_id = "gpt2";
    source.max_bytes = 1000;
    const LoadedModel loaded = LoadRealSource(source);
    EXPECT_FALSE(loaded.Runs());
    EXPECT_NE(loaded.error.find("up to 0.001 MB"), std::string::npos) << loaded.error;
    EXPECT_NE(loaded.error.find("desktop app"), std::string::npos) << loaded.error;
}

// The whole view drawn headless at the projector's size (1024×768, text ×2) in every theme and
// at 1920×1080: the tokens, both attention matrices, the table and the distance plot whole.
TEST_F(OrderRealTest, TheViewIsDrawnWholeAtTheProjectorsSizeInEveryTheme) {
    OpenModel("gpt2-run");
    struct Room {
        ImVec2 size;
        float scale;
    };
    for (const Room& room : {Room{ImVec2(1024, 768), 2.0f}, Room{ImVec2(1920, 1080), 1.0f}}) {
        ImGui::GetIO().DisplaySize = room.size;
        app.view.font_scale = room.scale;
        BuildFonts(fonts, kBaseFontPixels * room.scale);
        for (const char* theme : {"dark", "light", "high-contrast"}) {
            SCOPED_TRACE(std::string(theme) + " " + std::to_string(room.size.x));
            ASSERT_EQ(app.scene.Apply(nlohmann::json{{"order_view", "real"},
                                                     {"theme", theme},
                                                     {"real_block", 2},
                                                     {"real_head", 3},
                                                     {"real_switch", "zero"}}
                                          .dump()),
                      "");
            app.recorder.rects.clear();
            Present("order", 4);
            for (const char* widget :
                 {"order.real_tokens_a", "order.real_tokens_b", "order.real_attention_a",
                  "order.real_attention_b", "order.tab_real"}) {
                const auto at = app.recorder.rects.find(widget);
                std::string recorded;
                for (const auto& [name, rect] : app.recorder.rects)
                    recorded += name + " ";
                ASSERT_NE(at, app.recorder.rects.end()) << widget << ": only " << recorded;
                EXPECT_GE(at->second.visible, 0.99f) << widget;
            }
            // At 1920×1080 the rest too; a projector scrolls to them (the lesson's steps do).
            if (room.scale == 1.0f)
                for (const char* widget :
                     {"order.real_guesses", "order.real_distances", "order.real_sentence"}) {
                    const auto at = app.recorder.rects.find(widget);
                    ASSERT_NE(at, app.recorder.rects.end()) << widget;
                    EXPECT_GE(at->second.visible, 0.99f) << widget;
                }
        }
    }
    EXPECT_EQ(Order().real_block, 2);
    // 32 tokens each at the projector's size: every column in the window's width (the cells
    // shrink; a long sentence's matrix once ran a third past the right edge).
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    std::string long_a = "the", long_b = "the";
    for (int k = 0; k < 15; ++k)
        long_a += " dog the", long_b += k == 7 ? " the dog" : " dog the";
    long_a += " man", long_b += " man";
    ASSERT_EQ(
        app.scene.Apply(nlohmann::json{
            {"real_text_a", long_a}, {"real_text_b", long_b}, {"real_block", 1}, {"theme", "dark"}}
                            .dump()),
        "");
    ASSERT_EQ(Order().Readouts(state)["real"]["tokens_a"].size(), 32u);
    app.recorder.rects.clear();
    Present("order", 4);
    for (const char* widget : {"order.real_attention_a", "order.real_attention_b"}) {
        const auto at = app.recorder.layout.find(widget);
        ASSERT_NE(at, app.recorder.layout.end()) << widget;
        EXPECT_LE(at->second.item.x1, at->second.right_edge + 1.0f) << widget;
    }
}

} // namespace

// The lesson's step 3 on the projector: the controls sit in a strip of whole rows, scrolled to
// the switch it outlines. Every control drawn there is whole or not drawn: the "block / head"
// row was cut at the strip's top and "shift by" at its bottom. And the numbers the chosen
// switch does not use (the shuffle seed beside "zeroed") take no row of it.
TEST_F(OrderRealTest, TheLessonsControlStripShowsWholeRows) {
    OpenModel("gpt2-run");
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    Lesson lesson;
    ASSERT_EQ(
        LoadLesson((fs::path(pelab_test::SourceDir()) / "assets/lessons/gpt2-order.json").string(),
                   app.scene, app.panels, &lesson),
        "");
    StartLesson(app, lesson);
    GoToStep(app, 2);
    ImGui::GetIO().DeltaTime = 0.1f;
    for (int frame = 0; frame < 30; ++frame) {
        app.recorder.rects.clear();
        Frame();
    }
    ASSERT_TRUE(app.recorder.rects.count("order.real_switch"));
    EXPECT_GE(app.recorder.rects["order.real_switch"].visible, 0.99f);
    int controls = 0;
    for (const std::string& name : app.recorder.control_names) {
        const auto at = app.recorder.rects.find(name);
        if (at == app.recorder.rects.end() || name.rfind("order.", 0) != 0) continue;
        ++controls;
        EXPECT_GE(at->second.visible, 0.99f) << name << " is cut";
    }
    EXPECT_GE(controls, 2);
    EXPECT_FALSE(app.recorder.rects.count("order.real_seed")) << "not used by \"zeroed\"";
    EXPECT_FALSE(app.recorder.rects.count("order.real_shift"));
    app.lesson = LessonPlayer{};
}

// Steps 1 to 3 of the lesson at 1024×768 ×2: both attention matrices and their colour key are
// whole above the lesson bar (the key's labels hung below the window's edge).
TEST_F(OrderRealTest, TheLessonsFirstStepsShowTheAttentionAndItsKeyWhole) {
    OpenModel("gpt2-run");
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    Lesson lesson;
    ASSERT_EQ(
        LoadLesson((fs::path(pelab_test::SourceDir()) / "assets/lessons/gpt2-order.json").string(),
                   app.scene, app.panels, &lesson),
        "");
    StartLesson(app, lesson);
    ImGui::GetIO().DeltaTime = 0.1f;
    for (int step = 0; step < 3; ++step) {
        GoToStep(app, step);
        for (int frame = 0; frame < 30; ++frame) {
            app.recorder.rects.clear();
            Frame();
        }
        for (const char* name :
             {"order.real_attention_a", "order.real_attention_b", "order.real_attention_key"}) {
            ASSERT_TRUE(app.recorder.rects.count(name)) << name << " at step " << step + 1;
            EXPECT_GE(app.recorder.rects[name].visible, 0.99f) << name << " at step " << step + 1;
        }
    }
    app.lesson = LessonPlayer{};
}

} // namespace pelab
