// The Your model panel (panels/model/): checkpoints opened through File → Open, a refused file
// changing nothing, every family drawn in every theme at the projector's size, and the sentences'
// claims recomputed from the numbers over a sweep of tables, RoPE settings, buckets and slopes.
#include "headless_fixture.h"
#include "model_fixtures.h"
#include "panels/compare/panel_compare.h"
#include "panels/model/model_sentences.h"
#include "panels/model/model_views.h"
#include "panels/model/panel_model.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/encodings/sinusoidal.h"
#include "pelab/export/export.h"
#include "pelab/models/rope_analysis.h"
#include "pelab/models/rope_tables.h"
#include "pelab/models/table_analysis.h"
#include "shell/file_menu.h"
#include "status_text.h"
#include "test_paths.h"
#include "widgets/number_text.h"
#include "widgets/theme.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

namespace pelab {
namespace {

namespace fs = std::filesystem;

class ModelPanelTest : public HeadlessApp {
protected:
    void SetUp() override {
        HeadlessApp::SetUp();
        folder_ = fs::temp_directory_path() /
                  ("pelab-model-panel-" + std::to_string(getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
        pelab_test::WriteModelFixtures(folder_);
    }
    void TearDown() override {
        fs::remove_all(folder_);
        HeadlessApp::TearDown();
    }
    ModelPanel& Panel() { return Get<ModelPanel>("model"); }
    nlohmann::json Shown() { return Panel().Readouts(state); }

    fs::path folder_;
};

TEST_F(ModelPanelTest, FileOpenHandsACheckpointToThePanelAndARefusalChangesNothing) {
    ASSERT_EQ(OpenFile(app, (folder_ / "gpt2").string()), "");
    app.models.Finish();
    nlohmann::json shown = Shown();
    EXPECT_TRUE(shown["open"].get<bool>());
    EXPECT_EQ(shown["family"], "GPT-2");
    EXPECT_EQ(shown["table"]["rows"], 128);
    // The fixture's pairs have decreasing amplitudes: components 1 and 2 are pair 0 (2π).
    EXPECT_NEAR(shown["table"]["wavelengths"][0].get<double>(), 2 * M_PI, 0.02);
    EXPECT_NEAR(shown["table"]["wavelengths"][2].get<double>(),
                2 * M_PI * std::pow(10000.0, 2.0 / 16), 0.2);

    // A malformed file: one message, the GPT-2 table still shown.
    std::ofstream(folder_ / "broken.safetensors", std::ios::binary) << std::string(8, '\xff');
    const std::string error = OpenFile(app, (folder_ / "broken.safetensors").string());
    EXPECT_NE(error.find("broken.safetensors"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    app.models.Finish();
    EXPECT_EQ(Shown()["family"], "GPT-2");

    // A RoPE model without its config.json: told what to bring.
    fs::create_directories(folder_ / "bare");
    fs::copy_file(folder_ / "llama" / "model.safetensors", folder_ / "bare" / "model.safetensors");
    const std::string bare = OpenFile(app, (folder_ / "bare").string());
    EXPECT_NE(bare.find("config.json"), std::string::npos) << bare;

    // Data refused only when read (a NaN in the table): the panel says why, keeps GPT-2.
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }";
    dict.resize(117, ' ');
    std::ofstream(folder_ / "nan.npy", std::ios::binary)
        << std::string("\x93NUMPY\x01\x00\x76\x00", 10) << dict << '\n'
        << std::string("\x00\x00\xc0\x7f\x00\x00\x80\x3f", 8);
    ASSERT_EQ(OpenFile(app, (folder_ / "nan.npy").string()), "");
    app.models.Finish();
    shown = Shown();
    EXPECT_EQ(shown["family"], "GPT-2");
    EXPECT_NE(shown["open_error"].get<std::string>().find("NaN"), std::string::npos);
}

TEST_F(ModelPanelTest, AnyTwoDimensionalTensorReadsAsThePositionTable) {
    ASSERT_EQ(app.models.Open(ModelRequest{(folder_ / "llama").string(), "", ""}), "");
    app.models.Finish();
    EXPECT_EQ(Shown()["kind"], "RoPE");
    ModelRequest request = app.models.Current()->request;
    request.table = "model.embed_tokens.weight";
    ASSERT_EQ(app.models.Open(request), "");
    app.models.Finish();
    const nlohmann::json shown = Shown();
    EXPECT_EQ(shown["family"], "chosen tensor");
    EXPECT_EQ(shown["table"]["rows"], 20);
    EXPECT_EQ(shown["table"]["cols"], 32);
    // A 1-D or missing tensor is refused and the table stays.
    request.table = "no.such.tensor";
    EXPECT_NE(app.models.Open(request).find("no tensor"), std::string::npos);
    EXPECT_EQ(Shown()["family"], "chosen tensor");
}

TEST_F(ModelPanelTest, TheTableMenuListsTheFilesTablesAndReadsTheOneChosen) {
    ASSERT_EQ(app.models.Open(ModelRequest{(folder_ / "llama").string(), "", ""}), "");
    app.models.Finish();
    // The Llama fixture's 2-D float tensors: the token embedding and 3 layers' q and k.
    EXPECT_EQ(app.models.Current()->report.tensors_2d.size(), 7u);
    ASSERT_EQ(app.scene.Apply(R"({"model_view": "wavelengths"})"), "");
    app.recorder.rects.clear();
    Present("model", 3);
    const auto picker = app.recorder.rects.find("model.table_picker");
    ASSERT_NE(picker, app.recorder.rects.end());
    // Open the menu and click the embedding: under the menu's filter field ("embed" leaves it
    // alone) and the family's own entry.
    Panel().table_filter = "embed";
    Click("model.table_picker");
    const ImGuiStyle& style = ImGui::GetStyle();
    ClickAt(ImVec2((picker->second.x0 + picker->second.x1) / 2,
                   picker->second.y1 + style.WindowPadding.y + ImGui::GetFrameHeightWithSpacing() +
                       ImGui::GetTextLineHeightWithSpacing() + ImGui::GetTextLineHeight() / 2));
    app.models.Finish();
    const nlohmann::json shown = Shown();
    EXPECT_EQ(shown["family"], "chosen tensor");
    EXPECT_EQ(shown["table"]["name"], "model.embed_tokens.weight");
}

TEST_F(ModelPanelTest, TheUsageViewShowsOneQueryHeadOrTheMean) {
    ASSERT_EQ(app.models.Open(ModelRequest{(folder_ / "llama").string(), "", ""}), "");
    app.models.Finish();
    ASSERT_EQ(app.scene.Apply(R"({"model_view": "usage", "model_usage_head": 3})"), "");
    Present("model", 2);
    nlohmann::json rope = Shown()["rope"];
    EXPECT_EQ(rope["usage_head"], 3);
    EXPECT_EQ(rope["usage_claims"]["head"], 3);
    // On screen the heads count from 1: index 3 is the fourth of 4.
    EXPECT_NE(rope["usage_sentence"].get<std::string>().find("query head 4 of 4"),
              std::string::npos);
    EXPECT_NE(app.recorder.rects.find("model.usage_head"), app.recorder.rects.end());
    // A head the model has not (the fixture has 4): the mean, said so.
    ASSERT_EQ(app.scene.Apply(R"({"model_usage_head": 9})"), "");
    rope = Shown()["rope"];
    EXPECT_EQ(rope["usage_head"], -1);
    EXPECT_NE(rope["usage_note"].get<std::string>().find("past the 4 heads"), std::string::npos);
    EXPECT_NE(rope["usage_sentence"].get<std::string>().find("mean over heads"), std::string::npos);
}

TEST_F(ModelPanelTest, EachFamilyIsDrawnInEveryThemeAtTheProjectorsSize) {
    struct Family {
        const char* folder;
        const char* kind;
        std::vector<std::pair<const char*, const char*>> views; // view, its defining picture
    };
    const std::vector<Family> families = {
        {"gpt2",
         "learned table",
         {{"components", "model.components_plot"},
          {"similarity", "model.cosine_plot"},
          {"norms", "model.norms_plot"}}},
        {"llama",
         "RoPE",
         {{"wavelengths", "model.wavelength_plot"},
          {"pairing", "model.pairing_picture"},
          {"usage", "model.usage_picture"}}},
        {"t5", "T5 relative buckets", {{"buckets", "model.bucket_plot"}}},
        {"bloom", "ALiBi", {{"slopes", "model.slope_plot"}}}};
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    for (const Family& family : families) {
        ASSERT_EQ(app.models.Open(ModelRequest{(folder_ / family.folder).string(), "", ""}), "");
        app.models.Finish();
        EXPECT_EQ(Shown()["kind"], family.kind);
        for (const char* theme : {"dark", "light", "high-contrast"})
            for (const auto& [view, picture] : family.views) {
                ASSERT_EQ(
                    app.scene.Apply(nlohmann::json{{"model_view", view}, {"theme", theme}}.dump()),
                    "");
                app.recorder.rects.clear();
                Present("model", 4);
                const auto at = app.recorder.rects.find(picture);
                ASSERT_NE(at, app.recorder.rects.end())
                    << family.folder << " " << view << " " << theme << ": no " << picture;
                // Wholly in view and at least 6 text lines tall at text ×2.
                EXPECT_GE(at->second.visible, 0.99f)
                    << family.folder << " " << view << " " << theme;
                EXPECT_GE(at->second.y1 - at->second.y0, 6 * ImGui::GetFontSize())
                    << family.folder << " " << view << " " << theme;
            }
    }
}

// The fixture's GPT-2 table has rows all as long (exactly sinusoidal pairs), as the sinusoidal
// one does: over their medians both are 1 everywhere, and that line must be in view, not on the
// plot's top frame where it could not be seen.
TEST_F(ModelPanelTest, NormsAllAtTheMedianAreALineInView) {
    ASSERT_EQ(app.models.Open(ModelRequest{(folder_ / "gpt2").string(), "", ""}), "");
    app.models.Finish();
    ASSERT_EQ(app.scene.Apply(R"({"model_view": "norms"})"), "");
    Present("model", 3);
    const plot::Range y = Panel().norms_view.home_y;
    EXPECT_LE(y.min, 0.0);
    EXPECT_GE(y.max, 1.2) << "the median row's line sits under the frame";
}

// A real config.json opened alone (tests/models/configs/, with its SOURCE): the schedule strip
// above the views, and the kind chosen on it is the one the RoPE views show.
TEST_F(ModelPanelTest, TheUsageViewShowsTheLayersOfTheKindChosen) {
    // The llama fixture's three layers read as Gemma 3's: two sliding (base 10⁴), one global.
    fs::create_directories(folder_ / "gemma3");
    fs::copy_file(folder_ / "llama" / "model.safetensors",
                  folder_ / "gemma3" / "model.safetensors");
    std::ofstream(folder_ / "gemma3" / "config.json") << nlohmann::json{
        {"model_type", "gemma3_text"},
        {"hidden_size", 32},
        {"num_attention_heads", 4},
        {"num_key_value_heads", 2},
        {"head_dim", 8},
        {"num_hidden_layers", 3},
        {"max_position_embeddings", 256},
        {"layer_types",
         {"sliding_attention", "sliding_attention",
          "full_attention"}}}.dump();
    ASSERT_EQ(OpenFile(app, (folder_ / "gemma3").string()), "");
    app.models.Finish();
    ASSERT_EQ(app.scene.Apply(R"({"model_view": "usage", "model_layer": -1})"), "");
    app.recorder.rects.clear();
    Present("model", 2);
    nlohmann::json shown = Shown();
    EXPECT_EQ(shown["layers"]["shown"], 2);
    EXPECT_EQ(shown["rope"]["usage_layers"], nlohmann::json::array({2}));
    EXPECT_NE(app.recorder.rects.find("model.usage_picture"), app.recorder.rects.end());
    ASSERT_EQ(app.scene.Apply(R"({"model_layer": 1})"), "");
    app.recorder.rects.clear();
    Present("model", 2);
    shown = Shown();
    EXPECT_EQ(shown["rope"]["usage_layers"], nlohmann::json::array({0, 1}));
    EXPECT_EQ(shown["rope"]["base"], 1e4);
    EXPECT_NE(app.recorder.rects.find("model.usage_picture"), app.recorder.rects.end());
}

TEST_F(ModelPanelTest, TheUsageViewSaysHowEightBitWeightsWereRead) {
    // FP8 projections (E4M3 code 0x38 is 1.0) with one scale per 8 × 8 block, as DeepSeek V3
    // and Qwen3-FP8 store them; float weights (the llama fixture) carry no such line.
    const int hidden = 32, rows = 32;
    std::vector<pelab_test::FixtureTensor> tensors = {
        {"model.embed_tokens.weight", {20, hidden}, pelab_test::Normal(20 * hidden, 2)}};
    for (const char* name : {"q_proj", "k_proj"}) {
        const std::string weight = std::string("model.layers.0.self_attn.") + name + ".weight";
        tensors.push_back({weight, {rows, hidden}, "F8_E4M3", std::string(rows * hidden, '\x38')});
        tensors.push_back({weight + "_scale_inv",
                           {rows / 8, hidden / 8},
                           std::vector<float>(rows / 8 * hidden / 8, 0.5f)});
    }
    fs::create_directories(folder_ / "fp8");
    pelab_test::WriteSafetensors(folder_ / "fp8" / "model.safetensors", tensors);
    std::ofstream(folder_ / "fp8" / "config.json") << nlohmann::json{
        {"model_type", "llama"},
        {"hidden_size", hidden},
        {"num_attention_heads", 4},
        {"num_hidden_layers", 1},
        {"max_position_embeddings", 256},
        {"quantization_config",
         {{"quant_method", "fp8"},
          {"weight_block_size", {8, 8}}}}}.dump();
    for (const char* name : {"fp8", "llama"}) {
        ASSERT_EQ(OpenFile(app, (folder_ / name).string()), "") << name;
        app.models.Finish();
        ASSERT_EQ(app.scene.Apply(R"({"model_view": "usage"})"), "");
        app.recorder.rects.clear();
        Present("model", 2);
        const bool fp8 = std::string(name) == "fp8";
        EXPECT_EQ(app.recorder.rects.count("model.usage_weights_note"), fp8 ? 1u : 0u) << name;
        const std::string note = Shown()["rope"].value("weights_note", "?");
        EXPECT_EQ(note.find("FP8 (F8_E4M3)") != std::string::npos, fp8) << note;
        EXPECT_EQ(note.find("8 × 8 block") != std::string::npos, fp8) << note;
    }
}

TEST_F(ModelPanelTest, TheScheduleStripChoosesTheLayerKindTheViewsShow) {
    const fs::path configs = fs::path(pelab_test::SourceDir()) / "tests" / "models" / "configs";
    ASSERT_EQ(OpenFile(app, (configs / "gemma-3-27b-it-resaved" / "config.json").string()), "");
    app.models.Finish();
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    for (const char* theme : {"dark", "light", "high-contrast"}) {
        ASSERT_EQ(app.scene.Apply(nlohmann::json{
                      {"theme", theme}, {"model_layer", -1}, {"model_view", "wavelengths"}}
                                      .dump()),
                  "");
        app.recorder.rects.clear();
        Present("model", 4);
        // At text ×2 in 768 rows the summary line gives its height to the pictures (the strip's
        // tooltip says it).
        for (const char* part :
             {"model.schedule_strip", "model.schedule_kind", "model.wavelength_plot"}) {
            const auto at = app.recorder.rects.find(part);
            ASSERT_NE(at, app.recorder.rects.end()) << theme << ": no " << part;
            EXPECT_GE(at->second.visible, 0.99f) << theme << " " << part;
        }
        EXPECT_GE(app.recorder.rects["model.wavelength_plot"].y1 -
                      app.recorder.rects["model.wavelength_plot"].y0,
                  6 * ImGui::GetFontSize())
            << theme;
    }
    // Gemma 3 27B: 62 layers, every sixth global (base 10⁶, linear ×8), the rest sliding (10⁴).
    nlohmann::json shown = Shown();
    EXPECT_EQ(shown["layers"]["count"], 62);
    EXPECT_EQ(shown["layers"]["groups"], 2);
    EXPECT_EQ(shown["layers"]["shown"], 5);
    EXPECT_EQ(shown["rope"]["base"], 1e6);
    EXPECT_EQ(shown["rope"]["scaling"], "linear");
    ASSERT_EQ(app.scene.Apply(R"({"model_layer": 0})"), "");
    Present("model", 2);
    shown = Shown();
    EXPECT_EQ(shown["layers"]["shown"], 0);
    EXPECT_NE(shown["layers"]["shown_kind"].get<std::string>().find("sliding window 1024"),
              std::string::npos);
    EXPECT_EQ(shown["rope"]["base"], 1e4);
    EXPECT_EQ(shown["rope"]["scaling"], "");
    // Fewer pairs fail to turn at base 10⁴ than at 10⁶ within the same 131 072 positions.
    EXPECT_LT(shown["rope"]["pairs_without_turn"].get<int>(), 17);
    // The sliding layers see 1024 positions: pair i of 128 dimensions turns within them when
    // 2π·10000^(2i/128) ≤ 1024.
    int beyond_window = 0;
    for (int i = 0; i < 64; ++i)
        beyond_window += 2 * M_PI * std::pow(1e4, 2.0 * i / 128) > 1024 ? 1 : 0;
    EXPECT_EQ(shown["rope"]["window"], 1024);
    EXPECT_EQ(shown["rope"]["pairs_without_turn_in_window"], beyond_window);
    // The usage view of a config alone says it needs the weights.
    ASSERT_EQ(app.scene.Apply(R"({"model_view": "usage"})"), "");
    app.recorder.rects.clear();
    Present("model", 2);
    EXPECT_NE(app.recorder.rects.find("model.usage_needs_weights"), app.recorder.rects.end());

    // Llama 4 Scout: layer 3 has no RoPE; the views say so instead of drawing frequencies.
    ASSERT_EQ(OpenFile(app, (configs / "llama-4-scout-17b-16e" / "config.json").string()), "");
    app.models.Finish();
    ASSERT_EQ(app.scene.Apply(R"({"model_layer": 3, "model_view": "wavelengths"})"), "");
    app.recorder.rects.clear();
    Present("model", 2);
    shown = Shown();
    EXPECT_FALSE(shown["layers"]["shown_rotates"].get<bool>());
    EXPECT_TRUE(shown["rope"].is_null());
    EXPECT_NE(app.recorder.rects.find("model.rope_none"), app.recorder.rects.end());
    // A layer past the model's 48: the schedule's own (layer 0, rotary).
    ASSERT_EQ(app.scene.Apply(R"({"model_layer": 400})"), "");
    EXPECT_EQ(Shown()["layers"]["shown"], 0);
    EXPECT_EQ(Shown()["rope"]["pairing"], "interleaved");

    // LFM2: layer 0 is a short convolution (full_attn_idxs names 2, 5, 8, 10, 12, 14), said as
    // such; layer 2 attends with RoPE.
    ASSERT_EQ(OpenFile(app, (configs / "lfm2-1.2b" / "config.json").string()), "");
    app.models.Finish();
    ASSERT_EQ(app.scene.Apply(R"({"model_layer": 0})"), "");
    Present("model", 2);
    shown = Shown();
    EXPECT_FALSE(shown["layers"]["shown_rotates"].get<bool>());
    EXPECT_NE(
        shown["layers"]["shown_without_positions"].get<std::string>().find("short convolutions"),
        std::string::npos);
    ASSERT_EQ(app.scene.Apply(R"({"model_layer": 2})"), "");
    EXPECT_TRUE(Shown()["layers"]["shown_rotates"].get<bool>());
    EXPECT_EQ(Shown()["rope"]["base"], 1e6);
}

TEST_F(ModelPanelTest, TheComparePanelComparesTwoRowsOfTheOpenTable) {
    ComparePanel& compare = Get<ComparePanel>("compare");
    // Asked for rows with no checkpoint open: the formula's vectors, said so.
    ASSERT_EQ(app.scene.Apply(R"({"compare_source": "model", "pos_a": 3, "pos_b": 50})"), "");
    Frame();
    EXPECT_EQ(compare.Readouts(state)["source"], "sinusoidal");

    ASSERT_EQ(OpenFile(app, (folder_ / "gpt2").string()), "");
    app.models.Finish();
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    app.recorder.rects.clear();
    Present("compare", 4);
    nlohmann::json shown = compare.Readouts(state);
    ASSERT_EQ(shown["source"], "model");
    EXPECT_EQ(shown["row_a"], 3);
    EXPECT_EQ(shown["row_b"], 50);
    // The fixture's row p holds (sin, cos)(p ω_i) / (i + 1): the cosine of rows k apart is
    // Σ cos(ω_i k)/(i + 1)² ÷ Σ 1/(i + 1)², whatever the start (model_fixtures.h).
    const auto fixture_cosine = [](int k) {
        double dot = 0, norm = 0;
        for (int i = 0; i < 8; ++i) {
            const double weight = 1.0 / ((i + 1.0) * (i + 1.0));
            dot += weight * std::cos(k * std::pow(10000.0, -2.0 * i / 16));
            norm += weight;
        }
        return dot / norm;
    };
    EXPECT_NEAR(shown["cosine_similarity"].get<double>(), fixture_cosine(47), 1e-6);
    EXPECT_NEAR(shown["claims"]["spread_least"].get<double>(), fixture_cosine(47), 1e-6);
    EXPECT_NEAR(shown["claims"]["spread_greatest"].get<double>(), fixture_cosine(47), 1e-6);
    EXPECT_EQ(shown["claims"]["starts"], 128 - 47);
    EXPECT_EQ(shown["claims"]["depends_on_start"], 0);
    // The sinusoidal table of the same width at the same positions: Σ cos(ω_i k) / 8.
    double twin = 0;
    for (int i = 0; i < 8; ++i)
        twin += std::cos(47 * std::pow(10000.0, -2.0 * i / 16)) / 8;
    EXPECT_NEAR(shown["twin_cosine"].get<double>(), twin, 1e-12);
    for (const char* widget : {"compare.offset_plot", "compare.rows_source", "compare.cosine"}) {
        const auto at = app.recorder.rects.find(widget);
        ASSERT_NE(at, app.recorder.rects.end()) << widget;
        EXPECT_GE(at->second.visible, 0.99f) << widget;
    }
    // The table's CSV: one line per dimension, row A's values.
    const std::string csv = compare.TableCsv(state);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 17);
    EXPECT_EQ(csv.rfind("dim,row_a,row_b,abs_delta,product\n0,", 0), 0u) << csv.substr(0, 80);

    // A position past the last row: the last row, said so.
    state.pos_b = 500;
    shown = compare.Readouts(state);
    EXPECT_EQ(shown["row_b"], 127);
    EXPECT_NE(shown["note"].get<std::string>().find("row 127"), std::string::npos);
    Present("compare", 2);
    EXPECT_NE(app.recorder.rects.find("compare.rows_note"), app.recorder.rects.end());
    // Unticked: the formula again.
    ASSERT_EQ(app.scene.Apply(R"({"compare_source": "sinusoidal"})"), "");
    EXPECT_EQ(compare.Readouts(state)["source"], "sinusoidal");
}

TEST(CompareRows, SentenceClaimsFollowTheRowsAndTheirStarts) {
    std::mt19937 generator(7);
    std::normal_distribution<float> normal;
    for (const bool shifted : {false, true})
        for (int rows : {2, 3, 40}) {
            ModelTable table;
            table.family = "test", table.name = "table", table.rows = rows, table.cols = 6;
            for (int p = 0; p < rows; ++p)
                for (int c = 0; c < 6; ++c) {
                    const int pair = c / 2;
                    const double speed = 0.3 * (pair + 1); // the pair's angle per position
                    // shifted: a pure rotation per pair (cosines depend on the offset alone).
                    table.values.push_back(shifted ? static_cast<float>(c % 2 ? std::cos(p * speed)
                                                                              : std::sin(p * speed))
                                                   : normal(generator));
                }
            table.offsets = offset_cosines(table.values, rows, 6, 4096, 4096);
            const auto cosine = [&](int a, int b) {
                double dot = 0, xa = 0, xb = 0;
                for (int c = 0; c < 6; ++c) {
                    const double x = table.values[a * 6 + c], y = table.values[b * 6 + c];
                    dot += x * y, xa += x * x, xb += y * y;
                }
                return dot / std::sqrt(xa * xb);
            };
            for (int a = 0; a < rows; ++a)
                for (int b = 0; b < rows; ++b) {
                    const ComparePanel::RowsResult result =
                        ComparePanel::ComputeRows({a, b, 1, &table});
                    const Explanation& sentence = result.explanation;
                    SCOPED_TRACE(sentence.text);
                    EXPECT_NEAR(sentence.Value("cosine"), cosine(a, b), 1e-9);
                    const int k = std::abs(a - b);
                    if (k == 0) {
                        EXPECT_NE(sentence.text.find("Both positions are row"), std::string::npos);
                        continue;
                    }
                    double least = 2, greatest = -2;
                    for (int p = 0; p + k < rows; ++p)
                        least = std::min(least, cosine(p, p + k)),
                        greatest = std::max(greatest, cosine(p, p + k));
                    EXPECT_NEAR(sentence.Value("spread_least"), least, 1e-9);
                    EXPECT_NEAR(sentence.Value("spread_greatest"), greatest, 1e-9);
                    EXPECT_EQ(sentence.Value("starts"), rows - k);
                    const bool depends = greatest - least >= 0.01;
                    EXPECT_EQ(sentence.Value("depends_on_start"), depends ? 1 : 0);
                    EXPECT_EQ(sentence.text.find("depends on where") != std::string::npos,
                              depends && rows - k >= 2);
                    if (shifted) {
                        EXPECT_FALSE(depends);
                    }
                    if (rows - k == 1) {
                        EXPECT_NE(sentence.text.find("only once"), std::string::npos);
                    }
                }
        }
}

TEST(CompareRows, SentencesSayOddWidthsSampledStartsAndZeroRows) {
    ModelTable table;
    table.family = "NumPy table", table.family_id = "numpy_table", table.name = "mine",
    table.rows = 50, table.cols = 7;
    std::mt19937 generator(3);
    std::normal_distribution<float> normal;
    for (int k = 0; k < 50 * 7; ++k)
        table.values.push_back(normal(generator));
    for (int c = 0; c < 7; ++c)
        table.values[4 * 7 + c] = table.values[9 * 7 + c] = 0.0f; // rows 4 and 9 all zeros
    table.offsets = offset_cosines(table.values, 50, 7, 4096, 4); // 4 starts per offset at most
    Explanation sentence = ComparePanel::ComputeRows({1, 3, 1, &table}).explanation;
    EXPECT_NE(sentence.text.find("the NumPy table \"mine\""), std::string::npos) << sentence.text;
    EXPECT_NE(sentence.text.find("sinusoidal table of width 6 (even)"), std::string::npos)
        << sentence.text;
    EXPECT_NE(sentence.text.find("4 of its 48 starts (spread evenly)"), std::string::npos)
        << sentence.text;
    EXPECT_EQ(sentence.Value("all_starts"), 0);
    sentence = ComparePanel::ComputeRows({4, 9, 1, &table}).explanation;
    EXPECT_NE(sentence.text.find("Rows 4 and 9 of the NumPy table \"mine\" are both all zeros"),
              std::string::npos)
        << sentence.text;
    sentence = ComparePanel::ComputeRows({9, 2, 1, &table}).explanation;
    EXPECT_NE(sentence.text.find("Row 9 of"), std::string::npos) << sentence.text;
}

// ---- the sentences, over a sweep ----

TEST(ModelSentences, TableClaimsFollowTheNumbers) {
    std::mt19937 generator(7);
    for (int rows : {2, 3, 16, 17, 64, 300})
        for (int cols : {1, 2, 5, 16})
            for (int shape = 0; shape < 3; ++shape) {
                std::vector<float> table(static_cast<std::size_t>(rows) * cols);
                std::normal_distribution<float> normal(0.0f, 1.0f);
                for (int p = 0; p < rows; ++p)
                    for (int c = 0; c < cols; ++c) {
                        float value = shape == 0 ? normal(generator)
                                                 : static_cast<float>(std::sin(0.3 * p + c));
                        if (shape == 2 && p >= rows - 16) value *= 0.5f; // a short edge
                        table[static_cast<std::size_t>(p) * cols + c] = value;
                    }
                const TableReport report = analyse_table(table, rows, cols);
                FoundPositions found;
                found.family = "X";
                const Explanation sentence = TableSentence(found, report, report);
                SCOPED_TRACE(sentence.text);
                // The edge: recomputed from the norms.
                double median = 0;
                std::vector<double> sorted = report.norms;
                std::sort(sorted.begin(), sorted.end());
                median =
                    rows % 2 ? sorted[rows / 2] : (sorted[rows / 2 - 1] + sorted[rows / 2]) / 2;
                if (rows > 16) {
                    double sum = 0;
                    for (int p = rows - 16; p < rows; ++p)
                        sum += report.norms[p];
                    const double ratio = median > 0 ? sum / 16 / median : 0;
                    EXPECT_NEAR(sentence.Value("edge_ratio"), ratio, 1e-12);
                    EXPECT_EQ(sentence.Value("edge_lower"), ratio < 0.95 ? 1 : 0);
                    EXPECT_EQ(sentence.Value("edge_higher"), ratio > 1.05 ? 1 : 0);
                    EXPECT_EQ(sentence.text.find("shorter") != std::string::npos, ratio < 0.95);
                    EXPECT_EQ(sentence.text.find("longer") != std::string::npos, ratio > 1.05);
                    if (shape == 2 && rows >= 64) {
                        EXPECT_EQ(sentence.Value("edge_lower"), 1);
                    }
                } else {
                    EXPECT_EQ(sentence.Value("edge_rows"), 0);
                    EXPECT_EQ(sentence.text.find("last 16"), std::string::npos);
                }
                // The wave's share recomputed: the least-squares fit c + a·cos ωp + b·sin ωp of
                // component 1 at the stated wavelength, by Cramer's rule in long double.
                const double wavelength = sentence.Value("wavelength_1");
                long double share = 0;
                if (wavelength > 0) {
                    const std::vector<double>& component = report.components.front();
                    const long double omega = 2 * 3.14159265358979323846L / wavelength;
                    long double mean = 0;
                    for (double v : component)
                        mean += v;
                    mean /= rows;
                    long double m[3][3] = {}, y[3] = {}, total = 0;
                    for (int p = 0; p < rows; ++p) {
                        const long double x[3] = {1, std::cos(omega * p), std::sin(omega * p)};
                        const long double v = component[p] - mean;
                        for (int i = 0; i < 3; ++i) {
                            y[i] += x[i] * v;
                            for (int j = 0; j < 3; ++j)
                                m[i][j] += x[i] * x[j];
                        }
                        total += v * v;
                    }
                    const auto det = [](const long double a[3][3]) {
                        return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                               a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                               a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
                    };
                    const long double whole = det(m);
                    long double explained = 0;
                    for (int k = 0; k < 3; ++k) {
                        long double replaced[3][3];
                        for (int i = 0; i < 3; ++i)
                            for (int j = 0; j < 3; ++j)
                                replaced[i][j] = j == k ? y[i] : m[i][j];
                        explained += det(replaced) / whole * y[k];
                    }
                    share = explained / total;
                    // Compared where the system is well posed: det ÷ (n·Σc'²·Σs'²) is how far
                    // from collinear the intercept, cosine and sine columns are (near ω = π the
                    // sine is nearly zero and Cramer's rule divides by rounding).
                    const long double cc = m[1][1] - m[0][1] * m[0][1] / rows,
                                      ss = m[2][2] - m[0][2] * m[0][2] / rows;
                    if (cc > 0 && ss > 0 && whole / (rows * cc * ss) > 1e-6L && ss > 1e-6L * rows) {
                        EXPECT_NEAR(sentence.Value("wave_share_1"), static_cast<double>(share),
                                    1e-6);
                    } else {
                        share = sentence.Value("wave_share_1");
                    }
                    EXPECT_GE(sentence.Value("wave_share_1"), 0);
                    EXPECT_LE(sentence.Value("wave_share_1"), 1);
                }
                // A period named only when its wave stands out and fits twice in the rows; the
                // wave denied otherwise.
                const bool period =
                    wavelength > 0 && share >= kWaveStandsOut && 2 * wavelength <= rows;
                EXPECT_EQ(sentence.Value("period_1"), period ? 1 : 0);
                EXPECT_EQ(sentence.text.find("repeat about every") != std::string::npos, period);
                EXPECT_EQ(sentence.text.find("no clear period") != std::string::npos,
                          wavelength > 0 && !period);
                if (wavelength > 0 && !period) {
                    EXPECT_EQ(sentence.text.find("does not fit twice") != std::string::npos,
                              2 * wavelength > rows);
                }
                EXPECT_EQ(sentence.text.find("less than one wave") != std::string::npos,
                          wavelength == 0);
                // Noise has no period; the sinusoids repeat every 2π/0.3 positions.
                if (shape == 0 && rows >= 64) {
                    EXPECT_FALSE(period);
                }
                if (shape == 1 && rows >= 64) {
                    EXPECT_TRUE(period);
                    // The periodogram's peak: within 2% of the wave's 2π/0.3 over 3 waves (64
                    // rows), closer as more fit.
                    EXPECT_NEAR(wavelength, 2 * 3.14159265358979 / 0.3, rows >= 300 ? 0.1 : 0.42);
                }
                // "1 position row" only for one row (never: rows ≥ 2).
                EXPECT_NE(sentence.text.find(std::to_string(rows) + " position rows"),
                          std::string::npos);
            }
}

TEST(ModelSentences, RopeClaimsFollowTheWavelengthsAndContext) {
    for (int rotary : {2, 4, 16, 128})
        for (double base : {10.0, 10000.0, 1e6})
            for (long long context : {0LL, 1LL, 64LL, 4096LL, 1000000LL}) {
                RopeReport rope;
                rope.rotary_dims = rotary;
                rope.head_dim = rotary;
                rope.pairs = rotary / 2;
                rope.context = context;
                for (int i = 0; i < rope.pairs; ++i) {
                    rope.wavelength.push_back(2 * M_PI * std::pow(base, 2.0 * i / rotary));
                    if (context > 0 && rope.wavelength.back() > context) ++rope.pairs_without_turn;
                }
                const Explanation sentence = RopeSentence(rope);
                SCOPED_TRACE(sentence.text);
                int without = 0;
                for (double w : rope.wavelength)
                    without += context > 0 && w > static_cast<double>(context);
                if (context == 0) {
                    EXPECT_NE(sentence.text.find("no trained context"), std::string::npos);
                } else if (without == 0) {
                    EXPECT_NE(sentence.text.find("Every pair turns"), std::string::npos);
                } else {
                    EXPECT_EQ(sentence.Value("without_turn"), without);
                    EXPECT_NE(sentence.text.find(std::to_string(without) + " of them"),
                              std::string::npos);
                    EXPECT_NE(sentence.text.find(without == 1 ? "does not" : "do not"),
                              std::string::npos);
                }
                EXPECT_NE(sentence.text.find(rope.pairs == 1 ? "1 pair with" : " pairs with"),
                          std::string::npos);
            }
}

// The config's context beside the original one: "stretches" only when it is longer (a GGUF
// file's llama3 factors may be for 8 192 while its context_length is shorter).
TEST(ModelSentences, TheConfigsContextIsAStretchOnlyWhenLonger) {
    for (long long context : {64LL, 8192LL})
        for (long long extended : {0LL, 128LL, 8192LL, 131072LL}) {
            RopeReport rope;
            rope.rotary_dims = rope.head_dim = 16;
            rope.pairs = 8;
            rope.context = context;
            rope.extended_context = extended;
            for (int i = 0; i < rope.pairs; ++i)
                rope.wavelength.push_back(2 * M_PI * std::pow(10000.0, 2.0 * i / 16));
            const Explanation sentence = RopeSentence(rope);
            SCOPED_TRACE(sentence.text);
            const bool stretch = sentence.text.find("stretches the context") != std::string::npos;
            EXPECT_EQ(stretch, extended > context);
            EXPECT_EQ(sentence.text.find("shorter than that") != std::string::npos,
                      extended > 0 && extended < context);
            EXPECT_EQ(sentence.Value("extended_context"), static_cast<double>(extended));
        }
}

TEST(ModelSentences, AWindowsClaimsCountThePairsItHidesAndOnlyWhenThereIsOne) {
    for (int rotary : {2, 4, 128})
        for (long long window : {0LL, 1LL, 128LL, 1024LL, 8192LL})
            for (bool chunked : {false, true}) {
                RopeReport rope;
                rope.rotary_dims = rotary;
                rope.head_dim = rotary;
                rope.pairs = rotary / 2;
                rope.context = 131072;
                rope.window = window;
                rope.window_chunked = chunked;
                int hidden = 0;
                for (int i = 0; i < rope.pairs; ++i) {
                    rope.wavelength.push_back(2 * M_PI * std::pow(1e4, 2.0 * i / rotary));
                    hidden += window > 0 && rope.wavelength.back() > window ? 1 : 0;
                }
                rope.pairs_without_turn_in_window = hidden;
                const Explanation sentence = RopeSentence(rope);
                SCOPED_TRACE(sentence.text);
                const std::string span = ShownNumber(static_cast<double>(window));
                const bool says_window =
                    sentence.text.find("sliding window sees") != std::string::npos ||
                    sentence.text.find("chunks of") != std::string::npos;
                EXPECT_EQ(says_window, window > 0);
                EXPECT_EQ(sentence.Value("window"), static_cast<double>(window));
                if (window == 0) continue;
                EXPECT_NE(
                    sentence.text.find(chunked ? "chunks of " + span : "sees the last " + span),
                    std::string::npos);
                EXPECT_EQ(sentence.Value("without_turn_in_window"), hidden);
                EXPECT_NE(sentence.text.find(hidden == 0 ? "every pair turns within it"
                                             : hidden == 1
                                                 ? "1 pair does not"
                                                 : std::to_string(hidden) + " pairs do not"),
                          std::string::npos);
            }
}

TEST(ModelSentences, UsageSharesAreTheFastAndSlowQuarters) {
    std::mt19937 generator(3);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int pairs : {1, 2, 3, 8, 64})
        for (int layers : {1, 4}) {
            RopeReport rope;
            rope.pairs = pairs;
            rope.layers = layers;
            for (int i = 0; i < pairs; ++i)
                rope.wavelength.push_back(2 * M_PI * std::pow(10000.0, 2.0 * i / (2 * pairs)));
            for (int k = 0; k < layers * pairs; ++k)
                rope.layer_usage.push_back(uniform(generator));
            const Explanation sentence = UsageSentence(rope);
            SCOPED_TRACE(sentence.text);
            const int quarter = std::max(1, pairs / 4);
            double total = 0, fast = 0, slow = 0;
            std::vector<double> per_pair(pairs, 0.0);
            for (int l = 0; l < layers; ++l)
                for (int i = 0; i < pairs; ++i) {
                    const double v = rope.layer_usage[l * pairs + i];
                    total += v, per_pair[i] += v;
                    if (i < quarter) fast += v;
                    if (i >= pairs - quarter) slow += v;
                }
            EXPECT_NEAR(sentence.Value("fast_share_percent"), 100 * fast / total, 1e-9);
            EXPECT_NEAR(sentence.Value("slow_share_percent"), 100 * slow / total, 1e-9);
            EXPECT_EQ(sentence.Value("top_pair"),
                      std::max_element(per_pair.begin(), per_pair.end()) - per_pair.begin());
            EXPECT_NE(sentence.text.find("proxy"), std::string::npos);
        }
    // One query head's picture and sentence: that head's numbers, not the mean's.
    for (int heads : {2, 3, 8}) {
        RopeReport rope;
        rope.pairs = 6, rope.layers = 4, rope.heads = heads;
        for (int i = 0; i < rope.pairs; ++i)
            rope.wavelength.push_back(2 * M_PI * std::pow(10000.0, i / 6.0));
        std::mt19937 generator(static_cast<unsigned>(heads));
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        for (int k = 0; k < rope.layers * heads * rope.pairs; ++k)
            rope.usage.push_back(uniform(generator));
        rope.layer_usage.assign(static_cast<std::size_t>(rope.layers) * rope.pairs, 0.0);
        for (int l = 0; l < rope.layers; ++l)
            for (int h = 0; h < heads; ++h)
                for (int i = 0; i < rope.pairs; ++i)
                    rope.layer_usage[l * rope.pairs + i] +=
                        rope.usage[(l * heads + h) * rope.pairs + i] / heads;
        for (int head = -1; head <= heads; ++head) {
            const Explanation sentence = UsageSentence(rope, head);
            SCOPED_TRACE(sentence.text);
            const bool one = head >= 0 && head < heads;
            std::vector<double> per_pair(rope.pairs, 0.0);
            for (int l = 0; l < rope.layers; ++l)
                for (int i = 0; i < rope.pairs; ++i)
                    per_pair[i] += one ? rope.usage[(l * heads + head) * rope.pairs + i]
                                       : rope.layer_usage[l * rope.pairs + i];
            EXPECT_EQ(sentence.Value("head"), one ? head : -1);
            EXPECT_EQ(sentence.Value("top_pair"),
                      std::max_element(per_pair.begin(), per_pair.end()) - per_pair.begin());
            EXPECT_EQ(sentence.text.find("query head ") != std::string::npos, one);
            // Counted from 1 on screen (the claim keeps the index from 0, as the JSON does).
            if (one) {
                EXPECT_NE(sentence.text.find("query head " + std::to_string(head + 1) + " of " +
                                             std::to_string(heads)),
                          std::string::npos);
            }
            const std::vector<double> grid = UsageGrid(rope, head);
            ASSERT_EQ(grid.size(), rope.layer_usage.size());
            EXPECT_EQ(grid[rope.pairs + 1], one ? rope.usage[(heads + head) * rope.pairs + 1]
                                                : rope.layer_usage[rope.pairs + 1]);
        }
    }
    RopeReport zero;
    zero.pairs = 2, zero.layers = 1, zero.wavelength = {6.28, 628}, zero.layer_usage = {0, 0};
    EXPECT_NE(UsageSentence(zero).text.find("all zero"), std::string::npos);
}

TEST(ModelSentences, BucketAndSlopeClaimsAreTheLargestValues) {
    for (int buckets : {4, 8, 32})
        for (bool bidirectional : {true, false}) {
            BucketReport report;
            report.stack = bidirectional ? "encoder" : "decoder";
            report.buckets = buckets, report.heads = 3, report.max_distance = 128;
            report.bidirectional = bidirectional;
            for (long long d = -256; d <= (bidirectional ? 256 : 0); ++d)
                report.distances.push_back(d);
            std::mt19937 generator(static_cast<unsigned>(buckets));
            std::normal_distribution<double> normal;
            for (std::size_t k = 0; k < report.distances.size() * 3; ++k)
                report.bias.push_back(normal(generator));
            const Explanation sentence = BucketSentence(report);
            EXPECT_EQ(sentence.Value("top_bias"),
                      *std::max_element(report.bias.begin(), report.bias.end()));
            EXPECT_EQ(sentence.Value("last_bucket_start"),
                      t5_last_bucket_start({buckets, 128, bidirectional}));
        }
    for (int heads : {1, 2, 6, 12, 16, 64}) {
        const std::vector<double> slopes = alibi_slopes(heads);
        const Explanation sentence = AlibiSentence(slopes);
        SCOPED_TRACE(sentence.text);
        // The paper's rule: the steepest slope of H heads (a power of two) is 2^(−8/H).
        if ((heads & (heads - 1)) == 0) {
            EXPECT_NEAR(sentence.Value("steepest"), std::pow(2.0, -8.0 / heads), 1e-15);
        }
        EXPECT_NE(sentence.text.find(heads == 1 ? "1 head with" : " heads with"),
                  std::string::npos);
    }
}

} // namespace

// Item: BERT's norms (median 0.11) and the sinusoidal table's (11.3) on one axis left one a flat
// line on the floor. Each is drawn over its own median, and its legend says the median.
TEST(ModelNorms, EachTableIsDrawnOverItsOwnMedian) {
    const int rows = 101, cols = 8;
    std::vector<float> small(rows * cols);
    for (int p = 0; p < rows; ++p)
        for (int c = 0; c < cols; ++c)
            small[p * cols + c] = 0.01f * static_cast<float>((p >= rows - 16 ? 3 : 1) + c % 3);
    const TableReport table = analyse_table(small, rows, cols);
    const std::vector<double> scaled = NormsOverMedian(table);
    ASSERT_EQ(scaled.size(), table.norms.size());
    std::vector<double> sorted = scaled;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_NEAR(sorted[rows / 2], 1.0, 1e-12); // odd rows: the median row itself
    // The edge stands out at its own scale: its rows (3, 4, 5, … against 1, 2, 3, …) nearly twice
    // the median's length.
    EXPECT_GT(scaled.back(), 1.9);
    for (int p = 0; p < rows; ++p)
        EXPECT_NEAR(scaled[p] * table.median_norm, table.norms[p], 1e-12);
    EXPECT_NE(NormsLegend("BERT", table).find("(median "), std::string::npos);
    // A table whose median row is all zeros is left as it is, and says so.
    TableReport zero = table;
    zero.median_norm = 0;
    EXPECT_EQ(NormsOverMedian(zero), zero.norms);
    EXPECT_NE(NormsLegend("X", zero).find("not scaled"), std::string::npos);
}

// Item 12: the "read as the table" menu was not on the projector's first screen (it gave its
// line to the pictures). A short "table" menu now sits on the summary's line there.
TEST_F(ModelPanelTest, TheTableMenuIsOnTheProjectorsFirstScreen) {
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    ASSERT_EQ(app.models.Open(ModelRequest{(folder_ / "gpt2").string(), "", ""}), "");
    app.models.Finish();
    ASSERT_EQ(app.scene.Apply(R"({"model_view": "components"})"), "");
    app.recorder.rects.clear();
    Present("model", 4);
    const auto picker = app.recorder.rects.find("model.table_picker");
    ASSERT_NE(picker, app.recorder.rects.end()) << "no table menu on the first screen";
    EXPECT_GE(picker->second.visible, 0.99f);
    EXPECT_LE(picker->second.x1, 1024.0f);
    const auto summary = app.recorder.rects.find("model.summary");
    ASSERT_NE(summary, app.recorder.rects.end());
    // Beside the summary or just under it: above the pictures.
    EXPECT_LE(picker->second.y0, summary->second.y1 + 2 * ImGui::GetFontSize());
}

namespace {

// A cos or sin table of the open model's layer 0, as an engine with the given layout would dump
// it (float32 .npy).
void WriteDump(const std::string& path, const CheckpointConfig& config, RopeTableKind kind,
               TableLayout layout, long long rows) {
    RopeTableSpec spec;
    ASSERT_TRUE(rope_table_spec(config, 0, &spec).ok());
    const RopeFrequencies frequencies = rope_inv_freq(spec, rows, RopeReference::Ideal);
    const int width = 2 * static_cast<int>(frequencies.inv_freq.size());
    std::vector<double> values(static_cast<std::size_t>(rows * width));
    rope_table_rows(frequencies, RopeReference::Ideal, kind, 0, rows, layout, TableDtype::F32,
                    values.data());
    std::ofstream out(path, std::ios::binary);
    write_npy_header(out, "<f4", {rows, width});
    for (double value : values) {
        const auto single = static_cast<float>(value);
        out.write(reinterpret_cast<const char*>(&single), sizeof single);
    }
}

TEST_F(ModelPanelTest, TheCheckViewNamesAnEnginesPairingBugAndFitsTheProjector) {
    ASSERT_EQ(OpenFile(app, (folder_ / "llama").string()), "");
    app.models.Finish();
    ASSERT_EQ(Shown()["kind"], "RoPE");
    const CheckpointConfig& config = Panel().service_report->config;
    RopeTableSpec spec;
    ASSERT_TRUE(rope_table_spec(config, 0, &spec).ok());
    // The fixture's Llama pairs half-split: the engine below wrote them interleaved.
    ASSERT_EQ(spec.pairing, RotaryPairing::HalfSplit);
    const std::string cos = (folder_ / "engine_cos.npy").string();
    const std::string sin = (folder_ / "engine_sin.npy").string();
    WriteDump(cos, config, RopeTableKind::Cos, TableLayout::Interleaved, 300);
    WriteDump(sin, config, RopeTableKind::Sin, TableLayout::Interleaved, 300);
    // One table: the view waits for the other; both: the check runs and names the bug.
    ASSERT_EQ(OpenFile(app, cos), "");
    EXPECT_NE(Shown()["check"]["waiting"].get<std::string>().find("sin table"), std::string::npos);
    ASSERT_EQ(OpenFile(app, sin), "");
    nlohmann::json check = Shown()["check"];
    EXPECT_EQ(check["cause"], "pairing_swapped") << check.dump();
    EXPECT_EQ(Shown()["view"], "check");
    // A name that does not say which table it is: refused with what to do, nothing changed.
    const std::string vague = (folder_ / "table.npy").string();
    fs::copy_file(cos, vague);
    const std::string refused = OpenFile(app, vague);
    EXPECT_NE(refused.find("name it cos"), std::string::npos) << refused;
    EXPECT_EQ(Shown()["check"]["cause"], "pairing_swapped");

    // At the projector's size, in every theme: the verdict, the curves and the map wholly in
    // view, each readable, the curves and the map without overlapping.
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    for (const char* theme : {"dark", "light", "high-contrast"}) {
        ASSERT_EQ(app.scene.Apply(nlohmann::json{{"theme", theme}}.dump()), "");
        app.recorder.rects.clear();
        Present("model", 4);
        for (const char* widget : {"model.check_verdict", "model.check_curve", "model.check_map"}) {
            const auto at = app.recorder.rects.find(widget);
            ASSERT_NE(at, app.recorder.rects.end()) << theme << ": no " << widget;
            EXPECT_GE(at->second.visible, 0.99f) << theme << " " << widget;
        }
        const WidgetRect curve = app.recorder.rects.at("model.check_curve");
        const WidgetRect map = app.recorder.rects.at("model.check_map");
        EXPECT_GE(curve.y1 - curve.y0, 6 * ImGui::GetFontSize()) << theme;
        EXPECT_GE(map.y1 - map.y0, 6 * ImGui::GetFontSize()) << theme;
        EXPECT_TRUE(curve.x1 <= map.x0 || map.x1 <= curve.x0 || curve.y1 <= map.y0 ||
                    map.y1 <= curve.y0)
            << theme << ": the curves and the map overlap";
    }

    // The same engine with the pairs as the model lays them out: it agrees.
    WriteDump(cos, config, RopeTableKind::Cos, TableLayout::HalfSplit, 300);
    WriteDump(sin, config, RopeTableKind::Sin, TableLayout::HalfSplit, 300);
    ASSERT_EQ(OpenFile(app, cos), "");
    ASSERT_EQ(OpenFile(app, sin), "");
    check = Shown()["check"];
    EXPECT_TRUE(check["agrees"].get<bool>()) << check.dump();
}

} // namespace

} // namespace pelab
