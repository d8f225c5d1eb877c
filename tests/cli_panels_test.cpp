// CLI tests of the commands about the panels: readouts without a display, `pelab panels`,
// `pelab train`, and the pictures of the documents.
#include "cli_fixture.h"

// `pelab readouts`: the scene and every panel's numbers, with no display at all. The dot
// product of positions 3 and 50 at d_model 128 is the published value 30.59.
TEST_F(Cli, ReadoutsPrintEveryPanelsNumbersWithoutADisplay) {
    const std::string scene =
        std::string(pelab_test::SourceDir()) + "/assets/scenes/compare-3-vs-50.json";
    const Result r = Run({"readouts", "--scene", scene}, {"DISPLAY", "WAYLAND_DISPLAY"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["d_model"], 128);
    const double dot = doc["readouts"]["compare"]["dot_product"].get<double>();
    EXPECT_NEAR(dot, 30.59, 0.005);
    long double expected = 0;
    for (int dim = 0; dim < 128; ++dim)
        expected += reference::pe(3, dim, 128, 10000) * reference::pe(50, dim, 128, 10000);
    EXPECT_NEAR(dot, static_cast<double>(expected), 1e-9);
    for (const char* panel : {"waves", "compare", "clocks", "order"})
        EXPECT_TRUE(doc["readouts"].contains(panel)) << panel;
    // The waves readouts at the scene's pair, against the formula.
    const int pair = doc["pair"].get<int>();
    EXPECT_NEAR(doc["readouts"]["waves"]["wavelength"].get<double>(),
                static_cast<double>(2 * M_PIl / reference::omega(pair, 128, 10000)), 1e-9);
    // To a file, and a bad scene is exit 2 naming the field.
    const fs::path out = dir / "readouts.json";
    ASSERT_EQ(Run({"readouts", "--out", out.string()}).exit_code, 0);
    EXPECT_EQ(nlohmann::json::parse(ReadAll(out))["d_model"], 512);
    const fs::path bad = dir / "bad.json";
    std::ofstream(bad) << "{\"d_model\": 7}";
    const Result refused = Run({"readouts", "--scene", bad.string()});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("\"d_model\""), std::string::npos) << refused.err;
}

// `pelab panels` lists every panel from the registry, with no display: as text (id, title,
// summary) and as JSON with what each declares; the README's pictures are taken from the JSON.
TEST_F(Cli, PanelsListsTheRegistry) {
    const Result text = Run({"panels"}, {"DISPLAY", "WAYLAND_DISPLAY"});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("compare  Compare two positions\n"), std::string::npos) << text.out;
    const Result json = Run({"panels", "--json"}, {"DISPLAY", "WAYLAND_DISPLAY"});
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const nlohmann::json panels = nlohmann::json::parse(json.out);
    ASSERT_GE(panels.size(), 13u);
    std::set<std::string> ids;
    for (const nlohmann::json& panel : panels) {
        ids.insert(panel["id"].get<std::string>());
        EXPECT_TRUE(panel["figure_scene"].is_object()) << panel["id"];
        EXPECT_FALSE(panel["widgets"].empty()) << panel["id"];
        // Each name with what it outlines and the readouts it shows.
        for (const auto& name : panel["widgets"]) {
            ASSERT_TRUE(panel["widget_info"].contains(name.get<std::string>())) << name;
            EXPECT_TRUE(panel["widget_info"][name.get<std::string>()]["what"].is_string());
            EXPECT_TRUE(panel["widget_info"][name.get<std::string>()]["shows"].is_array());
        }
        // The picture a layout test keeps in view is one of the panel's widgets.
        const auto& widgets = panel["widgets"];
        EXPECT_NE(std::find(widgets.begin(), widgets.end(), panel["picture"]), widgets.end())
            << panel["id"];
    }
    EXPECT_EQ(ids.size(), panels.size()) << "ids are unique";
    EXPECT_TRUE(ids.count("waves") && ids.count("quiz") && ids.count("start"));
    // The quiz's own keys, worded as the keyboard help words them.
    for (const nlohmann::json& panel : panels) {
        if (panel["id"] != "quiz") {
            EXPECT_TRUE(panel["keys"].empty()) << panel["id"];
            continue;
        }
        ASSERT_EQ(panel["keys"].size(), 3u) << panel["keys"].dump();
        EXPECT_EQ(panel["keys"][0]["keys"], "1 … 9");
    }
    // The compare panel reads both positions; the order demo reads neither.
    for (const nlohmann::json& panel : panels) {
        const auto& fields = panel["scene_fields"];
        const bool reads_b = std::find(fields.begin(), fields.end(), "pos_b") != fields.end();
        if (panel["id"] == "compare") {
            EXPECT_TRUE(reads_b);
        }
        if (panel["id"] == "order") {
            EXPECT_FALSE(reads_b);
        }
    }
}

// --seeds 3 trains each variant from seeds s, s + 1 and s + 2: the first seed's run is the run
// of --seeds 1 bit for bit, and each further seed's accuracies are those of a run from that seed.
TEST_F(Cli, TrainSeedsAreRunsFromTheNextSeeds) {
    const std::vector<std::string> args = {
        "train",       "--task",  "shift",      "--pe",    "none,rope", "--vocab", "6",
        "--train-len", "6",       "--test-len", "12",      "--d-model", "16",      "--heads",
        "2",           "--steps", "6",          "--batch", "4"};
    const auto run = [&](const std::vector<std::string>& more, const std::string& name) {
        std::vector<std::string> all = args;
        all.insert(all.end(), more.begin(), more.end());
        const std::string path = (dir / name).string();
        all.insert(all.end(), {"--out", path});
        const Result r = Run(all);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        std::ifstream in(path);
        return nlohmann::json::parse(in);
    };
    const nlohmann::json three = run({"--seeds", "3", "--seed", "5"}, "three.json");
    const nlohmann::json five = run({"--seed", "5"}, "five.json");
    const nlohmann::json six = run({"--seed", "6"}, "six.json");
    const nlohmann::json seven = run({"--seed", "7"}, "seven.json");
    for (std::size_t v = 0; v < 2; ++v) {
        EXPECT_EQ(three["variants"][v]["loss"], five["variants"][v]["loss"]);
        EXPECT_EQ(three["variants"][v]["accuracy_by_length"],
                  five["variants"][v]["accuracy_by_length"]);
        ASSERT_EQ(three["variants"][v]["more_seeds"].size(), 2u);
        EXPECT_EQ(three["variants"][v]["more_seeds"][0], six["variants"][v]["accuracy_by_length"]);
        EXPECT_EQ(three["variants"][v]["more_seeds"][1],
                  seven["variants"][v]["accuracy_by_length"]);
        EXPECT_FALSE(five["variants"][v].contains("more_seeds"));
    }
}

// `pelab train` trains one model per variant without a display and writes the run as JSON:
// the settings, a loss per step, the accuracy curve and the accuracy at each test length; the
// same seed gives the same run whatever the number of threads; bad settings exit 2 naming them.
TEST_F(Cli, TrainWritesTheRunAndRefusesBadSettings) {
    const std::string one = (dir / "one.json").string(), two = (dir / "two.json").string();
    const std::vector<std::string> args = {
        "train",       "--task",  "shift",      "--pe",    "none,rope", "--vocab", "6",
        "--train-len", "6",       "--test-len", "12",      "--d-model", "16",      "--heads",
        "2",           "--steps", "12",         "--batch", "8"};
    std::vector<std::string> first = args, second = args;
    first.insert(first.end(), {"--threads", "1", "--out", one});
    const std::string plot = (dir / "run.png").string();
    second.insert(second.end(), {"--threads", "2", "--out", two, "--plot", plot});
    const Result a = Run(first, {"DISPLAY", "WAYLAND_DISPLAY"});
    ASSERT_EQ(a.exit_code, 0) << a.err;
    EXPECT_NE(a.err.find("train: 100.0%"), std::string::npos) << a.err;
    // --plot draws the Train panel in software: no display is needed.
    const Result b = Run(second, {"DISPLAY", "WAYLAND_DISPLAY"});
    ASSERT_EQ(b.exit_code, 0) << b.err;
    {
        std::ifstream in(plot, std::ios::binary);
        const std::string png((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
        ASSERT_GT(png.size(), 24u);
        EXPECT_EQ(png.substr(1, 3), "PNG");
        const auto be32 = [&](std::size_t at) {
            return (static_cast<unsigned>(static_cast<unsigned char>(png[at])) << 24) |
                   (static_cast<unsigned>(static_cast<unsigned char>(png[at + 1])) << 16) |
                   (static_cast<unsigned>(static_cast<unsigned char>(png[at + 2])) << 8) |
                   static_cast<unsigned>(static_cast<unsigned char>(png[at + 3]));
        };
        EXPECT_EQ(be32(16), 1400u); // IHDR width and height
        EXPECT_EQ(be32(20), 900u);
        EXPECT_GT(png.size(), 30000u); // text, axes and curves, not a blank picture
        EXPECT_NE(b.err.find("wrote " + plot), std::string::npos) << b.err;
    }
    const Result same = Run({"train", "--steps", "1", "--out", two, "--plot", two});
    EXPECT_EQ(same.exit_code, 2) << same.err;
    EXPECT_NE(same.err.find("--plot"), std::string::npos) << same.err;
    const auto read = [](const std::string& path) {
        std::ifstream in(path);
        return nlohmann::json::parse(in);
    };
    const nlohmann::json run = read(one), again = read(two);
    EXPECT_EQ(run["format"], "pelab-train");
    EXPECT_EQ(run["settings"]["task"], "shift");
    EXPECT_EQ(run["test_lengths"], nlohmann::json({3, 6, 12}));
    ASSERT_EQ(run["variants"].size(), 2u);
    EXPECT_EQ(run["variants"][1]["pe"], "rope");
    EXPECT_EQ(run["variants"][0]["loss"].size(), 12u);
    EXPECT_EQ(run["variants"][0]["accuracy_by_length"].size(), 3u);
    for (std::size_t v = 0; v < 2; ++v) {
        EXPECT_EQ(run["variants"][v]["loss"], again["variants"][v]["loss"]);
        EXPECT_EQ(run["variants"][v]["accuracy_by_length"],
                  again["variants"][v]["accuracy_by_length"]);
    }
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"train", "--pe", "rotary"},
          std::vector<std::string>{"train", "--task", "copy"},
          std::vector<std::string>{"train", "--d-model", "100", "--heads", "3"},
          std::vector<std::string>{"train", "--test-len", "8", "--train-len", "16"},
          std::vector<std::string>{"train", "--steps", "0x10"},
          std::vector<std::string>{"train", "--pe", "rope,rope"},
          std::vector<std::string>{"train", "--pe", "irope", "--layers", "1"},
          std::vector<std::string>{"train", "--pe", "irope", "--nope-every", "5"},
          std::vector<std::string>{"train", "--pe", "irope", "--nope-every", "3"},
          std::vector<std::string>{"train", "--pe", "rope", "--nope-every", "2"},
          std::vector<std::string>{"train", "--task", "word_back", "--vocab", "2"},
          std::vector<std::string>{"train", "--task", "word_back", "--k", "17"}}) {
        const Result refused = Run(bad);
        EXPECT_EQ(refused.exit_code, 2) << bad[1] << ": " << refused.err;
        EXPECT_NE(refused.err.find("pelab: "), std::string::npos);
        if (bad[2] == "irope" || std::count(bad.begin(), bad.end(), "--nope-every") > 0) {
            EXPECT_NE(refused.err.find("nope"), std::string::npos) << refused.err;
        }
        if (bad[2] == "word_back") {
            EXPECT_NE(refused.err.find("word_back"), std::string::npos) << refused.err;
        }
    }
}

// The pictures of the README and of the docs pages are taken at the room's size, 1024×768
// (scripts/readme_screenshots.sh, at text ×2): every one they show exists and is that size.
TEST_F(Cli, DocumentPicturesAreTakenAtTheRoomsSize) {
    int pictures = 0;
    for (const char* page :
         {"README.md", "docs/teaching.md", "docs/panels.md", "docs/lessons.md"}) {
        const fs::path path = fs::path(pelab_test::SourceDir()) / page;
        const std::string text = ReadAll(path);
        for (std::size_t at = text.find("]("); at != std::string::npos;
             at = text.find("](", at + 2)) {
            const std::size_t end = text.find(')', at);
            const std::string link = text.substr(at + 2, end - at - 2);
            if (link.size() < 4 || link.substr(link.size() - 4) != ".png") continue;
            const fs::path picture = path.parent_path() / link;
            const std::string png = ReadAll(picture);
            ASSERT_GE(png.size(), 24u) << page << ": " << link << " is missing";
            // The IHDR chunk: width and height, big-endian, at bytes 16 and 20.
            const auto word = [&](std::size_t offset) {
                return (static_cast<unsigned>(static_cast<unsigned char>(png[offset])) << 24) |
                       (static_cast<unsigned>(static_cast<unsigned char>(png[offset + 1])) << 16) |
                       (static_cast<unsigned>(static_cast<unsigned char>(png[offset + 2])) << 8) |
                       static_cast<unsigned>(static_cast<unsigned char>(png[offset + 3]));
            };
            EXPECT_EQ(word(16), 1024u) << page << ": " << link;
            EXPECT_EQ(word(20), 768u) << page << ": " << link;
            ++pictures;
        }
    }
    EXPECT_GE(pictures, 20);
}

// Every number option of `train` says its range, whatever was typed (CLI11 alone said "Could not
// convert" for 1e12, 2147483648 and 1.5); "1e3" is the whole number it writes. An empty name in
// --pe is refused wherever it is (before, "none," passed and ",none" did not).
// --quick-demo is the panel's Quick demo: a setting beside it would make it another run.
TEST_F(Cli, TheQuickDemoTakesNoOtherSetting) {
    for (const char* setting : {"--steps", "--test-len", "--task", "--pe"}) {
        const Result r = Run({"train", "--quick-demo", setting, "5", "--out", "-"});
        EXPECT_EQ(r.exit_code, 2) << setting << r.err;
        EXPECT_NE(r.err.find("excludes"), std::string::npos) << r.err;
    }
}

TEST_F(Cli, TrainNumbersSayTheirRangeAndEmptyNamesAreRefused) {
    for (const auto& [option, value, range] :
         std::vector<std::tuple<std::string, std::string, std::string>>{
             {"--steps", "1e12", "[1, 1000000]"},
             {"--steps", "2147483648", "[1, 1000000]"},
             {"--steps", "1.5", "[1, 1000000]"},
             {"--steps", "-3", "[1, 1000000]"},
             {"--batch", "99999999999999999999", "[1, 1024]"},
             {"--layers", "5", "[1, 4]"},
             {"--heads", "0.5", "[1, 4]"},
             {"--d-model", "8", "[16, 128]"},
             {"--vocab", "1", "[2, 256]"},
             {"--k", "65", "[0, 64]"},
             {"--train-len", "257", "[1, 256]"},
             {"--min-train-len", "1e9", "[1, 256]"},
             {"--test-len", "1025", "[1, 1024]"},
             {"--threads", "17", "[1, 16]"},
             {"--seeds", "6", "[1, 5]"}}) {
        const Result r = Run({"train", option, value});
        EXPECT_EQ(r.exit_code, 2) << option << " " << value << ": " << r.err;
        EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("must be a whole number in " + range), std::string::npos)
            << option << " " << value << ": " << r.err;
        EXPECT_EQ(r.err.find("Could not convert"), std::string::npos) << r.err;
    }
    for (const std::string pe : {"none,", ",none", "none,,rope", ""}) {
        const Result r = Run({"train", "--pe", pe, "--steps", "1"});
        EXPECT_EQ(r.exit_code, 2) << "--pe \"" << pe << "\": " << r.err;
    }
    const Result thousand = Run({"train", "--steps", "1e0", "--pe", "none", "--batch", "1e0",
                                 "--out", (dir / "run.json").string()});
    EXPECT_EQ(thousand.exit_code, 0) << thousand.err;
}
