// The Train panel: its live run equals the trainer's, it cancels, a bad file or bad settings are
// a message that changes nothing, and its table's CSV is the run shown.
#include "train_fixture.h"

class TrainPanelTest : public HeadlessApp {
protected:
    bool Recorded(const std::string& name) const { return app.recorder.rects.count(name) > 0; }
};

// The live run is the trainer's, bit for bit, however the workers interleave the variants; the
// panel's readouts report it, and the verdict is built from it.
TEST_F(TrainPanelTest, LiveRunEqualsTheTrainer) {
    auto& panel = Get<TrainPanel>("train");
    app.view.presented_panel = "train";
    panel.edit = Tiny();
    ASSERT_TRUE(panel.StartTraining());
    EXPECT_EQ(panel.result_name, "");
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (panel.job.Running() && std::chrono::steady_clock::now() < give_up) {
        Frame();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_FALSE(panel.job.Running());
    Frame();
    const TrainRun expected = TrainedTiny();
    ASSERT_TRUE(panel.own_run.Complete());
    for (std::size_t v = 0; v < 2; ++v) {
        EXPECT_EQ(panel.own_run.variants[v].loss, expected.variants[v].loss);
        EXPECT_EQ(panel.own_run.variants[v].accuracy_by_length,
                  expected.variants[v].accuracy_by_length);
        EXPECT_EQ(panel.own_run.variants[v].attention, expected.variants[v].attention);
    }
    const nlohmann::json readouts = panel.Readouts(state);
    EXPECT_EQ(readouts["source"], "your run");
    EXPECT_EQ(readouts["verdict"], TrainVerdict(expected).text);
    EXPECT_EQ(readouts["variants"][1]["accuracy_by_length"],
              nlohmann::json(expected.variants[1].accuracy_by_length));
}

// Cancel stops the worker within a step; the curves so far stay on screen.
TEST_F(TrainPanelTest, CancelStopsTheRunAndKeepsItsCurves) {
    auto& panel = Get<TrainPanel>("train");
    app.view.presented_panel = "train";
    panel.edit = Tiny();
    panel.edit.steps = 20000;
    ASSERT_TRUE(panel.StartTraining());
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (panel.job.Progress() == 0 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    Frame();
    panel.job.Cancel();
    const auto stopping = std::chrono::steady_clock::now();
    while (panel.job.Running() &&
           std::chrono::steady_clock::now() - stopping < std::chrono::seconds(5))
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_FALSE(panel.job.Running());
    EXPECT_TRUE(panel.job.Cancelled());
    Frame();
    ASSERT_EQ(panel.own_run.variants.size(), 2u);
    EXPECT_FALSE(panel.own_run.Complete());
    EXPECT_GT(panel.own_run.variants[0].loss.size(), 0u);
    EXPECT_LT(panel.job.Progress(), 1.0);
    // No variant finished: the verdict is the provisional one, of the curves so far.
    EXPECT_EQ(panel.Readouts(state)["verdict"], TrainVerdict(panel.own_run).text);
    EXPECT_NE(panel.Readouts(state)["verdict"].get<std::string>().find(
                  "The verdict needs every variant to finish."),
              std::string::npos);
}

// The Quick demo button trains the Quick demo's settings, on as many workers as the variants
// and the cores allow (two variants: two workers on a machine of two cores or more).
TEST_F(TrainPanelTest, QuickDemoStartsTheQuickDemo) {
    auto& panel = Get<TrainPanel>("train");
    app.view.presented_panel = "train";
    app.recorder.enabled = true;
    Frame();
    Frame();
    ASSERT_TRUE(app.recorder.rects.count("train.quick_demo"));
    Click("train.quick_demo");
    EXPECT_TRUE(panel.job.Running() || panel.job.Progress() > 0);
    const TrainSettings quick = quick_demo_settings();
    EXPECT_EQ(panel.edit.variants, quick.variants);
    EXPECT_EQ(panel.edit.steps, quick.steps);
    EXPECT_EQ(panel.edit.test_len, quick.test_len);
    EXPECT_EQ(panel.edit.task.task, quick.task.task);
    EXPECT_EQ(TrainJob::WorkersFor(2),
              std::min(2u, std::max(1u, std::thread::hardware_concurrency())));
    EXPECT_EQ(TrainJob::WorkersFor(6),
              static_cast<int>(std::min(6u, std::max(1u, std::thread::hardware_concurrency()))));
    panel.job.Stop();
}

// Bad settings are a message and start nothing.
TEST_F(TrainPanelTest, BadSettingsAreAMessage) {
    auto& panel = Get<TrainPanel>("train");
    panel.edit = Tiny();
    panel.edit.variants.clear();
    EXPECT_FALSE(panel.StartTraining());
    EXPECT_NE(panel.edit_error.find("variant"), std::string::npos);
    EXPECT_FALSE(panel.job.Running());
    EXPECT_EQ(panel.result_name, kDefaultTrainRun);
}

// File → Open: a good run file is shown; a damaged one is a message and the run shown stays.
TEST_F(TrainPanelTest, OpenRunFileOrRefuseItChangingNothing) {
    auto& panel = Get<TrainPanel>("train");
    TempFolder folder;
    nlohmann::json bad = TrainRunJson(TrainedTiny());
    bad["variants"][0]["loss"][0] = "x";
    const std::string error = OpenFile(app, folder.Write("bad.json", bad.dump()));
    EXPECT_NE(error.find("training run"), std::string::npos) << error;
    EXPECT_NE(error.find("variant 0 (none): field \"loss\""), std::string::npos) << error;
    EXPECT_EQ(panel.result_name, kDefaultTrainRun);
    const std::string good = folder.Write("good.json", TrainRunJson(TrainedTiny()).dump(1));
    ASSERT_EQ(OpenFile(app, good), "");
    EXPECT_EQ(panel.result_name, "");
    EXPECT_EQ(panel.own_source, good);
    EXPECT_EQ(panel.edit.train_len, 4); // Start would train it again
    Frame();
    EXPECT_EQ(panel.Readouts(state)["source"], "run file " + good);
}

// The scene fields take only what the panel can show.
TEST_F(TrainPanelTest, SceneFieldsRefuseWhatThePanelCannotShow) {
    EXPECT_NE(
        app.scene.Apply(R"({"train_result": "nope"})").find("reverse, rope-pairings, shift-causal"),
        std::string::npos);
    EXPECT_NE(app.scene.Apply(R"({"train_view": "loss"})"), "");
    EXPECT_NE(app.scene.Apply(R"({"train_layer": 4})"), "");
    EXPECT_EQ(app.scene.Apply(R"({"train_result": "majority", "train_view": "attention"})"), "");
    auto& panel = Get<TrainPanel>("train");
    EXPECT_EQ(panel.Readouts(state)["source"], "built-in run \"majority\"");
    EXPECT_EQ(panel.Readouts(state)["claims"]["learned_count"], 0); // docs/train.md
}

// File → Export table as CSV: each variant's accuracy per test length and last loss, as the
// built-in file holds them.
TEST_F(TrainPanelTest, TableCsvIsTheRunShown) {
    auto& panel = Get<TrainPanel>("train");
    ASSERT_TRUE(panel.HasTable());
    const std::string csv = panel.TableCsv(state);
    const std::string header = csv.substr(0, csv.find('\n'));
    EXPECT_EQ(header, "variant,accuracy at 8,accuracy at 16,accuracy at 32,accuracy at 48,"
                      "accuracy at 64,last loss");
    // sinusoidal's row: 1 at the trained length (docs/train.md's table).
    const std::size_t row = csv.find("\nsinusoidal,");
    ASSERT_NE(row, std::string::npos);
    std::string line = csv.substr(row + 1, csv.find('\n', row + 1) - row - 1);
    std::vector<double> cells;
    for (std::size_t at = line.find(','); at != std::string::npos; at = line.find(',', at + 1))
        cells.push_back(std::stod(line.substr(at + 1)));
    ASSERT_EQ(cells.size(), 6u);
    EXPECT_EQ(cells[1], 1.0);
    EXPECT_NEAR(cells[0], 0.0625, 5e-4); // seed 1's, the accuracy the file holds first
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7); // header and six variants
    ASSERT_EQ(app.scene.Apply(R"({"train_result": ""})"), "");
    EXPECT_FALSE(panel.HasTable()); // no run of its own yet
}

// One rule for a layer or head the run's model does not have: the panel shows the model's last,
// holds that (so the scene and the readouts say what is drawn), and says so until the teacher
// picks another. The seed field keeps any seed pelab train takes (it clamped 999999999 to
// 1000000 without a word).
TEST_F(TrainPanelTest, ALayerPastTheModelIsClampedAndSaid) {
    auto& panel = Get<TrainPanel>("train");
    app.view.presented_panel = "train";
    ASSERT_EQ(app.scene.Apply(R"({"train_result": "reverse", "train_view": "attention",
                                  "train_layer": 3, "train_head": 3})"),
              "");
    nlohmann::json readouts = panel.Readouts(state);
    EXPECT_EQ(readouts["attention"]["layer"], 1); // reverse's model: 2 layers, 4 heads
    EXPECT_EQ(readouts["attention"]["head"], 3);
    EXPECT_NE(readouts["attention"].value("note", std::string()).find("layer 3"), std::string::npos)
        << readouts["attention"];
    Frame(); // the attention tab selected
    Frame(); // and drawn
    EXPECT_EQ(panel.layer, 1);
    EXPECT_EQ(app.Document(false)["train_layer"], 1);
    readouts = panel.Readouts(state);
    EXPECT_EQ(readouts["attention"]["layer"], 1);
    EXPECT_NE(readouts["attention"].value("note", std::string()).find("has 2 layers"),
              std::string::npos)
        << readouts["attention"];
    panel.edit.seed = 999999999;
    Frame();
    EXPECT_EQ(panel.edit.seed, 999999999u);
}

// On the projector (1024×768, text ×2, the panel presented): Start, the run list and every
// variant's box are in view together, while idle and while a run goes; the pictures keep their
// place and height when the run starts (Cancel and the progress bar take Start's room).
TEST_F(TrainPanelTest, OnTheProjectorStartAndTheVariantsAreInViewTogether) {
    auto& panel = Get<TrainPanel>("train");
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    panel.view = "curves";
    Present("train", 4);
    std::vector<std::string> names = {"train.run", "train.start", "train.quick_demo",
                                      "train.more_methods"};
    for (const PositionalKind kind : default_positional_kinds())
        names.push_back(std::string("train.variant_") + positional_kind_name(kind));
    const auto in_view = [&](const std::string& name) {
        const auto found = app.recorder.rects.find(name);
        return found != app.recorder.rects.end() && found->second.visible >= 0.98f;
    };
    const auto where = [&](const std::string& name) {
        const auto found = app.recorder.rects.find(name);
        if (found == app.recorder.rects.end()) return std::string("not drawn");
        const WidgetRect& r = found->second;
        return "at " + std::to_string(r.x0) + ", " + std::to_string(r.y0) + " to " +
               std::to_string(r.x1) + ", " + std::to_string(r.y1) + ", " +
               std::to_string(r.visible) + " of it in view";
    };
    for (const std::string& name : names)
        EXPECT_TRUE(in_view(name)) << name << " is not whole while idle: " << where(name);
    ASSERT_TRUE(app.recorder.layout.count("train.loss_plot"));
    const WidgetRect idle_plot = app.recorder.layout["train.loss_plot"].item;
    panel.edit = Tiny();
    panel.edit.steps = 20000;
    ASSERT_TRUE(panel.StartTraining());
    Present("train", 4);
    ASSERT_TRUE(panel.job.Running());
    for (const std::string& name : names) {
        if (name == "train.quick_demo") continue; // Cancel and the bar stand in its place
        EXPECT_TRUE(in_view(name))
            << name << " is not whole while training: " << where(name) << " (t5 "
            << where("train.variant_t5") << ", none " << where("train.variant_none") << ")";
    }
    ASSERT_TRUE(app.recorder.layout.count("train.loss_plot"));
    const WidgetRect running_plot = app.recorder.layout["train.loss_plot"].item;
    EXPECT_EQ(running_plot.y0, idle_plot.y0);
    EXPECT_EQ(running_plot.y1 - running_plot.y0, idle_plot.y1 - idle_plot.y0);
    panel.job.Stop();
}

// The methods the default run does not train sit in the more methods list: clicking the list
// opens it with each such method's box, clicking a box adds that method to the run (in the
// table's order) and the list's label counts it; the default run's boxes stay outside.
TEST_F(TrainPanelTest, MoreMethodsListAddsAMethodTheDefaultRunLeavesOut) {
    auto& panel = Get<TrainPanel>("train");
    panel.edit.variants = default_positional_kinds();
    Present("train", 3);
    app.recorder.rects.clear();
    Frame();
    ASSERT_TRUE(Recorded("train.more_methods"));
    EXPECT_FALSE(Recorded("train.variant_rope_crossed")) << "inside the closed list";
    EXPECT_TRUE(Recorded("train.variant_rope"));
    Click("train.more_methods");
    app.recorder.rects.clear();
    Frame();
    ASSERT_TRUE(Recorded("train.variant_rope_crossed")) << "the list opens with its boxes";
    Click("train.variant_rope_crossed");
    std::vector<PositionalKind> expected = default_positional_kinds();
    expected.push_back(PositionalKind::RopeCrossed);
    std::vector<PositionalKind> in_order;
    for (const PositionalKind kind : positional_kinds())
        if (std::find(expected.begin(), expected.end(), kind) != expected.end())
            in_order.push_back(kind);
    EXPECT_EQ(panel.edit.variants, in_order);
}

// Under each attention map, its first-token share (the attention sink) and an even spread's,
// as the readouts report them: recomputed here from the run file's maps (the mean of column 0
// over rows 1 … n − 1; even: 1/(i + 1) for a causal model).
TEST_F(TrainPanelTest, EachMapSaysItsFirstTokenShare) {
    auto& panel = Get<TrainPanel>("train");
    ASSERT_EQ(app.scene.Apply(R"({"train_result": "shift-causal", "train_view": "attention",
                                  "train_layer": 1, "train_head": 2})"),
              "");
    Present("train", 3);
    app.recorder.rects.clear();
    Frame();
    const TrainRun run = BuiltIn("shift-causal");
    const nlohmann::json shares = panel.Readouts(state)["attention"]["first_token"];
    const int n = run.example.length;
    ASSERT_GE(n, 2);
    ASSERT_EQ(shares.size(), run.variants.size());
    for (const VariantResult& v : run.variants) {
        const std::string name = positional_kind_name(v.variant);
        EXPECT_TRUE(Recorded("train.first_token_" + name)) << name;
        const std::vector<double>& map = v.attention[1][2];
        double share = 0, even = 0;
        for (int i = 1; i < n; ++i) {
            share += map[static_cast<std::size_t>(i) * n];
            even += 1.0 / (i + 1);
        }
        EXPECT_NEAR(shares[name]["share"].get<double>(), share / (n - 1), 1e-12) << name;
        EXPECT_NEAR(shares[name]["even"].get<double>(), even / (n - 1), 1e-12) << name;
    }
}

// The bar's text: the share and the time left while both fit, then the time left alone (a room
// waiting wants it most; it was dropped first on a projector), then the share; no estimate
// before a step is measured. Widths here: 10 px a character.
TEST(TrainProgressText, TheTimeLeftIsTheLastToGo) {
    const auto width = [](const std::string& text) { return 10.0f * text.size(); };
    EXPECT_EQ(ProgressText(0.43, 12, 1000, width), "43%, 12 s left");
    EXPECT_EQ(ProgressText(0.43, 12, 100, width), "12 s left");
    EXPECT_EQ(ProgressText(0.43, 12, 50, width), "43%");
    EXPECT_EQ(ProgressText(0.43, 150, 1000, width), "43%, 2 min 30 s left");
    EXPECT_EQ(ProgressText(0.0, -1, 1000, width), "0%, timing a step");
    EXPECT_EQ(ProgressText(0.0, -1, 60, width), "0%");
}
