// The panel registry is the one list of panels: every registered panel draws headless under a
// sweep of the shared state in every theme, is in the View menu, round-trips through
// open_panels and presented_panel, and reports its readouts. A panel added to the registry is
// covered by these tests without a line of its own here.
#include "headless_fixture.h"
#include "test_paths.h"

#include "panels/alternatives/panel_alternatives.h"
#include "panels/methods.h"
#include "widgets/shortcuts.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace pelab;

namespace {

class Registry : public HeadlessApp {
protected:
    Registry() : HeadlessApp(ImVec2(1280, 800)) {}

    static ImVec2 Centre(const WidgetRect& r) {
        return ImVec2(0.5f * (r.x0 + r.x1), 0.5f * (r.y0 + r.y1));
    }
};

} // namespace

TEST_F(Registry, HasTheFourDesignCardPanelsOpenByDefault) {
    std::vector<std::string> open;
    for (const PanelEntry& entry : app.panels.Entries())
        if (entry.open) open.push_back(entry.id);
    EXPECT_EQ(open, (std::vector<std::string>{"waves", "compare", "clocks", "order"}));
    for (const PanelEntry& entry : app.panels.Entries()) {
        EXPECT_FALSE(entry.title.empty()) << entry.id;
        EXPECT_FALSE(entry.description.empty()) << entry.id;
        EXPECT_EQ(entry.window_name, entry.title + "###" + entry.id);
    }
}

// Each panel alone for 300 frames under a sweep of d_model, base, positions, themes and mouse
// input: one test per registered panel, so that CTest spreads them over the cores (under the
// sanitizers the whole sweep in one test took 2.5 minutes on one core, the suite's long pole).
namespace {
class RegistrySweep : public Registry, public ::testing::WithParamInterface<std::string> {};
} // namespace

TEST_P(RegistrySweep, PanelDrawsAloneForThreeHundredFrames) {
    const PanelEntry* entry = app.panels.Find(GetParam());
    ASSERT_NE(entry, nullptr) << GetParam();
    const int d_models[] = {2, 4, 6, 16, 128, 512, 1000, 4096};
    const double bases[] = {10, 100, 10000, 123456.7, 1e6};
    FrameOptions options;
    options.solo_panel = entry->id;
    for (int frame = 0; frame < 300; ++frame) {
        state.d_model = d_models[frame % 8];
        state.base = bases[(frame / 8) % 5];
        state.pair = (frame * 37) % (state.d_model / 2);
        state.pos_a = frame % 3 == 0 ? 0.0 : frame * 3333.3;
        state.pos_b = kUiMaxPosition - frame;
        state.shift_k = (frame % 41) * 50 - kUiMaxShift;
        app.view.theme = kThemes[frame % 3];
        ImGui::GetIO().MousePos =
            ImVec2(static_cast<float>((frame * 53) % 1280), static_cast<float>((frame * 29) % 800));
        ImGui::GetIO().MouseWheel = frame % 7 == 0 ? 1.0f : (frame % 11 == 0 ? -2.0f : 0.0f);
        ImGui::GetIO().MouseDown[0] = frame % 13 < 4;
        Frame(options);
        if (HasFatalFailure()) return;
    }
}

namespace {
// Ids are letters and underscores, as gtest's test names must be.
std::vector<std::string> RegisteredPanelIds() {
    std::vector<std::string> ids;
    for (const PanelInfo& info : PanelInfos())
        ids.emplace_back(info.id);
    return ids;
}
} // namespace

INSTANTIATE_TEST_SUITE_P(EveryPanel, RegistrySweep, ::testing::ValuesIn(RegisteredPanelIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             return info.param;
                         });

// Opening View → Panels with the mouse shows one item per registered panel, and clicking one
// closes that panel.
TEST_F(Registry, EveryPanelIsInTheViewMenu) {
    app.recorder.enabled = true;
    Frame();
    Frame();
    ASSERT_TRUE(app.recorder.rects.count("menu.view"));
    ClickAt(Centre(app.recorder.rects["menu.view"]));
    ASSERT_TRUE(app.recorder.rects.count("menu.panels"));
    ClickAt(Centre(app.recorder.rects["menu.panels"]));
    for (const PanelEntry& entry : app.panels.Entries())
        EXPECT_TRUE(app.recorder.rects.count("view." + entry.id)) << entry.id;
    ASSERT_TRUE(app.recorder.rects.count("view.clocks"));
    ClickAt(Centre(app.recorder.rects["view.clocks"]));
    EXPECT_FALSE(app.panels.Find("clocks")->open);
    EXPECT_TRUE(app.panels.Find("waves")->open);
}

TEST_F(Registry, EveryPanelRoundTripsThroughScenes) {
    for (const PanelEntry& entry : app.panels.Entries()) {
        App other;
        ASSERT_EQ(other.scene.Apply("{\"open_panels\": [\"" + entry.id + "\"], " +
                                    "\"presented_panel\": \"" + entry.id + "\"}"),
                  "");
        const nlohmann::json doc = other.Document(false);
        EXPECT_EQ(doc["open_panels"], nlohmann::json::array({entry.id}));
        EXPECT_EQ(doc["presented_panel"], entry.id);
        App again;
        ASSERT_EQ(again.scene.Apply(doc.dump()), "");
        EXPECT_EQ(again.Document(false), doc) << entry.id;
    }
}

TEST_F(Registry, EveryPanelReportsReadouts) {
    const nlohmann::json doc = app.Document(true);
    for (const PanelEntry& entry : app.panels.Entries()) {
        ASSERT_TRUE(doc["readouts"].contains(entry.id)) << entry.id;
        EXPECT_TRUE(doc["readouts"][entry.id].is_object()) << entry.id;
        EXPECT_FALSE(doc["readouts"][entry.id].empty()) << entry.id;
        EXPECT_FALSE(doc["readouts"][entry.id].contains("error")) << entry.id;
    }
}

namespace {
// A generated block of a file in the source tree (docs or the fuzz dictionary): from its opening
// marker to the end of its closing one it must be exactly `expected`, which is printed to paste
// (scripts/update_scene_fields.sh pastes the scene fields' blocks) when it is not.
void ExpectGeneratedBlock(const std::string& path, const std::string& opening,
                          const std::string& closing, const std::string& expected) {
    std::ifstream in(std::string(pelab_test::SourceDir()) + "/" + path);
    std::stringstream file;
    file << in.rdbuf();
    const std::string text = file.str();
    const std::size_t begin = text.find(opening);
    const std::size_t end = text.find(closing);
    ASSERT_NE(begin, std::string::npos) << path << " needs this block:\n" << expected;
    ASSERT_NE(end, std::string::npos) << path << " has no " << closing;
    EXPECT_EQ(text.substr(begin, end + closing.size() - begin), expected)
        << path << "'s generated list is out of date; replace it with:\n"
        << expected;
}
} // namespace

// docs/file-formats.md lists the scene fields between two markers; the list must be exactly the
// table's (the test prints the block to paste when a field is added or changed;
// scripts/update_scene_fields.sh pastes it).
TEST(SceneFields, DocsListEveryFieldOfTheTable) {
    App app;
    std::string expected = "<!-- scene-fields: generated from the scene table; "
                           "tests/registry_test.cpp checks it -->\n| field | value | panels that "
                           "read it |\n|---|---|---|\n";
    for (const SceneField& field : app.scene.Fields()) {
        std::string readers;
        for (const PanelInfo& info : PanelInfos())
            for (const char* name : info.scene_fields)
                if (field.name == name)
                    readers += std::string(readers.empty() ? "" : ", ") + info.id;
        for (const char* name : WindowSceneFields())
            if (field.name == name) readers = "all (the window)";
        expected += "| `" + field.name + "` | " + field.doc + " | " + readers + " |\n";
    }
    expected += "<!-- /scene-fields -->";
    ExpectGeneratedBlock("docs/file-formats.md", "<!-- scene-fields", "<!-- /scene-fields -->",
                         expected);
}

// The scene fuzzer's dictionary (tests/fuzz/fuzz_scene.dict) names every field of the scene table
// and every panel id between two markers, so that libFuzzer builds scenes from the real field
// names; the test prints the block to paste (scripts/update_scene_fields.sh does) when the table
// changes. The hand-written entries around the block (values at the edges) stay as they are.
TEST(SceneFields, FuzzDictionaryNamesEveryFieldOfTheTable) {
    App app;
    std::string expected = "# scene-fields: generated from the scene table and the panel "
                           "registry; tests/registry_test.cpp checks it\n";
    for (const SceneField& field : app.scene.Fields())
        expected += "\"" + field.name + "\"\n";
    for (const PanelInfo& info : PanelInfos())
        expected += "\"" + std::string(info.id) + "\"\n";
    expected += "# /scene-fields";
    ExpectGeneratedBlock("tests/fuzz/fuzz_scene.dict", "# scene-fields", "# /scene-fields",
                         expected);
}

// docs/teaching.md lists every key of the key table (widgets/shortcuts.h) between two markers,
// as the keyboard help words them; the test prints the block to paste when a key changes.
TEST(Shortcuts, DocsListEveryKeyOfTheTable) {
    std::string expected = "<!-- keys: generated from the key table; tests/registry_test.cpp "
                           "checks it -->\n| keys | what they do | when |\n|---|---|---|\n";
    for (const ShortcutRow& row : ShortcutTable())
        expected += "| " + KeysText(row) + " | " + row.action + " | " +
                    SectionHeading(row.section) + " |\n";
    expected += "<!-- /keys -->";
    ExpectGeneratedBlock("docs/teaching.md", "<!-- keys:", "<!-- /keys -->", expected);
}

// Each field's documented range is the range its value is checked against: both bounds are
// accepted and a value just outside either is refused, for every integer and number field of
// the table (read back from the doc text the field list shows).
TEST(SceneFields, DocumentedRangeIsTheCheckedRange) {
    App app;
    int checked = 0;
    for (const SceneField& field : app.scene.Fields()) {
        // "<kind> in [<low>, <high>]: <meaning>", kind: even integer, integer or number.
        // (Read by hand: std::regex trips GCC 12's -Wmaybe-uninitialized under the sanitizers.)
        const std::size_t open = field.doc.find(" in [");
        const std::size_t comma = field.doc.find(", ", open);
        const std::size_t close = field.doc.find("]: ", comma);
        if (open == std::string::npos || comma == std::string::npos || close == std::string::npos)
            continue;
        const std::string kind = field.doc.substr(0, open);
        if (kind != "even integer" && kind != "integer" && kind != "number") continue;
        // Both bounds numbers (pair's "[0, d_model/2)" is not such a range).
        const auto number = [](const std::string& text, double* value) {
            char* end = nullptr;
            *value = std::strtod(text.c_str(), &end);
            return !text.empty() && end == text.c_str() + text.size();
        };
        double low = 0, high = 0;
        if (!number(field.doc.substr(open + 5, comma - open - 5), &low) ||
            !number(field.doc.substr(comma + 2, close - comma - 2), &high))
            continue;
        SCOPED_TRACE(field.name + ": " + field.doc);
        const bool integer = kind != "number";
        const double outside = integer ? 1.0 : std::max(1e-6, 1e-6 * std::abs(high));
        const auto apply = [&](double value) {
            App fresh;
            nlohmann::json doc = nlohmann::json::object();
            if (integer)
                doc[field.name] = static_cast<long long>(value);
            else
                doc[field.name] = value;
            return fresh.scene.Apply(doc.dump());
        };
        EXPECT_EQ(apply(low), "");
        EXPECT_EQ(apply(high), "");
        EXPECT_NE(apply(low - outside), "");
        EXPECT_NE(apply(high + outside), "");
        ++checked;
    }
    EXPECT_GE(checked, 40);
}

// README.md's panel table is the registry's (PanelInfos: title, id, summary), between two
// markers; the test prints the block to paste when a panel is added or changed. docs/panels.md
// describes every panel in detail: each id has its row there.
TEST(PanelInfos, ReadmeAndDocsListEveryPanel) {
    std::string expected = "<!-- panels: generated from the panel registry; "
                           "tests/registry_test.cpp checks it -->\n| panel | id | what it shows "
                           "|\n|---|---|---|\n";
    for (const PanelInfo& info : PanelInfos())
        expected +=
            std::string("| **") + info.title + "** | `" + info.id + "` | " + info.summary + " |\n";
    expected += "<!-- /panels -->";
    const auto read = [](const char* page) {
        std::ifstream in(std::string(pelab_test::SourceDir()) + "/" + page);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    const std::string readme = read("README.md");
    const std::size_t begin = readme.find("<!-- panels:");
    const std::size_t end = readme.find("<!-- /panels -->");
    ASSERT_NE(begin, std::string::npos) << "README.md needs this block:\n" << expected;
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(readme.substr(begin, end + 16 - begin), expected)
        << "README.md's panel table is out of date; replace it with:\n"
        << expected;
    const std::string panels_page = read("docs/panels.md");
    for (const PanelInfo& info : PanelInfos())
        EXPECT_NE(panels_page.find(std::string("(`") + info.id + "`"), std::string::npos)
            << "docs/panels.md has no row for the panel " << info.id;
    // Listing builds no panel: the list and the registry agree, in order.
    const PanelRegistry registry;
    ASSERT_EQ(registry.Entries().size(), PanelInfos().size());
    for (std::size_t k = 0; k < PanelInfos().size(); ++k)
        EXPECT_EQ(registry.Entries()[k].id, PanelInfos()[k].id);
    EXPECT_EQ(PanelIdList(), registry.IdList());
    EXPECT_TRUE(IsPanelId("compare"));
    EXPECT_FALSE(IsPanelId("comparee"));
}

namespace {

// A hash of everything a panel's window (and its child windows: tables, plots) drew in the
// last frame: vertex positions, texture coordinates and colours.
std::uint64_t DrawingOf(ImGuiWindow* panel_window) {
    std::uint64_t hash = 1469598103934665603ull;
    const auto mix = [&hash](const void* data, std::size_t bytes) {
        const auto* byte = static_cast<const unsigned char*>(data);
        for (std::size_t k = 0; k < bytes; ++k)
            hash = (hash ^ byte[k]) * 1099511628211ull;
    };
    for (ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
        if (window->RootWindow != panel_window || !window->WasActive) continue;
        const ImDrawList& list = *window->DrawList;
        mix(list.VtxBuffer.Data,
            sizeof(ImDrawVert) * static_cast<std::size_t>(list.VtxBuffer.Size));
    }
    return hash;
}

// Another value the field accepts, found by trying candidates of the value's own type; null
// when none is accepted.
nlohmann::json OtherValue(const SceneTable& table, const std::string& name) {
    const nlohmann::json now = table.Find(name)->write();
    std::vector<nlohmann::json> candidates;
    if (now.is_boolean()) {
        candidates = {!now.get<bool>()};
    } else if (now.is_number_integer()) {
        const long long v = now.get<long long>();
        candidates = {v + 2, v - 2, v + 1, v - 1, 2 * v + 2, v / 2};
    } else if (now.is_number()) {
        const double v = now.get<double>();
        candidates = {v + 1.5, v * 2 + 1, v / 2, v - 1.5};
    } else if (now.is_string()) {
        for (const char* text : {"man bites dog", "sin", "fixed", "concatenated", "cards", "binary",
                                 "alibi", "0.5 -1 2 0.25", "a dog", "learned", "majority",
                                 "attention", "norms", "model", "real", "zero"})
            candidates.push_back(text);
    } else if (now.is_array()) {
        candidates = {nlohmann::json::array({1}), nlohmann::json::array({0}),
                      nlohmann::json::array()};
    } else if (now.is_object()) {
        candidates = {{{"cat", {1, 2, 3, 4}}}, {{"The", {0.5, -1, 2, 3}}}};
    }
    for (const nlohmann::json& value : candidates)
        if (value != now && table.Check({{name, value}}).empty()) return value;
    return nullptr;
}

} // namespace

// Each panel declares the scene fields it reads (PanelInfo::scene_fields); every other field
// (beside the window's) is changed to another accepted value, one at a time, and neither the
// panel's readouts nor anything its window draws may change. docs/file-formats.md's "panels"
// column is written from the declarations.
TEST_F(Registry, EachPanelDependsOnlyOnTheSceneFieldsItDeclares) {
    const nlohmann::json defaults = app.scene.Document();
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX); // no hover
    const auto declared = [](const std::vector<const char*>& list, const std::string& name) {
        return std::any_of(list.begin(), list.end(), [&](const char* f) { return name == f; });
    };
    for (const PanelInfo& info : PanelInfos()) {
        const auto look = [&] {
            for (int frame = 0; frame < 3; ++frame)
                Frame();
            return std::make_pair(app.panels.Find(info.id)->panel->Readouts(state),
                                  DrawingOf(WindowOf(info.id)));
        };
        // Presented for a few frames first: a window's size and scrollbars settle.
        ASSERT_EQ(app.scene.ApplyDocument(defaults), "");
        app.view.presented_panel = info.id;
        for (int frame = 0; frame < 6; ++frame)
            Frame();
        for (const SceneField& field : app.scene.Fields()) {
            if (declared(WindowSceneFields(), field.name) ||
                declared(info.scene_fields, field.name))
                continue;
            ASSERT_EQ(app.scene.ApplyDocument(defaults), "");
            app.view.presented_panel = info.id;
            const auto before = look();
            const nlohmann::json other = OtherValue(app.scene, field.name);
            ASSERT_FALSE(other.is_null()) << "no other value found for " << field.name;
            ASSERT_EQ(app.scene.ApplyDocument({{field.name, other}}), "") << field.name;
            const auto after = look();
            EXPECT_EQ(before.first, after.first)
                << info.id << "'s readouts change with " << field.name << " = " << other.dump()
                << ", which it does not declare";
            EXPECT_EQ(before.second, after.second)
                << info.id << "'s drawing changes with " << field.name << " = " << other.dump()
                << ", which it does not declare";
        }
    }
    for (const PanelInfo& info : PanelInfos())
        for (const char* name : info.scene_fields)
            EXPECT_NE(app.scene.Find(name), nullptr) << info.id << " declares no field " << name;
    for (const char* name : WindowSceneFields())
        EXPECT_NE(app.scene.Find(name), nullptr) << name;
}

// Each panel takes through TakeKey exactly the commands it declares (PanelInfo::keys): every
// chord of the key table is pressed at every panel, the quiz in each of its tabs; a chord of an
// undeclared command is never taken, and each declared command is taken somewhere.
TEST_F(Registry, EachPanelTakesOnlyTheKeysItDeclares) {
    for (const PanelInfo& info : PanelInfos()) {
        Panel& panel = *app.panels.Find(info.id)->panel;
        std::set<Command> taken;
        for (int tab = 0; tab < 3; ++tab) {
            if (info.id == std::string("quiz")) {
                ASSERT_EQ(app.scene.Apply(tab == 0   ? R"({"quiz_mode": "questions"})"
                                          : tab == 1 ? R"({"quiz_mode": "cards"})"
                                                     : R"({"quiz_mode": "teach-back"})"),
                          "");
            }
            // The quiz's first questions (a number question takes no digit) and the other
            // panels once.
            for (int question = 0; question < (tab == 0 ? 4 : 1); ++question) {
                if (tab == 0 && info.id == std::string("quiz")) {
                    ASSERT_EQ(app.scene.ApplyDocument({{"quiz_question", question}}), "");
                }
                for (const ShortcutRow& row : ShortcutTable())
                    for (std::size_t c = 0; c < row.commands.size(); ++c)
                        for (const Chord& chord : row.chords[c]) {
                            FrameRequests requests;
                            const KeyPress press{chord.key, chord.shift == Modifier::Down,
                                                 chord.ctrl == Modifier::Down};
                            if (!panel.TakeKey(press, requests)) continue;
                            taken.insert(row.commands[c]);
                            // A chord two commands share counts as the declared one's.
                            EXPECT_TRUE(std::any_of(info.keys.begin(), info.keys.end(),
                                                    [&](Command own) { return Is(press, own); }))
                                << info.id << " takes " << ChordName(chord) << " (" << row.action
                                << ") but does not declare it";
                        }
            }
        }
        for (const Command command : info.keys)
            EXPECT_TRUE(taken.count(command))
                << info.id << " declares a key it never takes: " << KeysFor(command);
    }
}

namespace {
// The shipped lessons (assets/lessons/*.json, by file name) as the docs list them: each one's
// file, title, step count and the panels its steps present, runs of one panel counted
// ("candidates ×4").
struct ShippedLesson {
    std::string file, title, needs_model;
    std::size_t steps = 0;
    std::string panels;
};

std::vector<ShippedLesson> ShippedLessons() {
    namespace fs = std::filesystem;
    std::vector<ShippedLesson> lessons;
    for (const fs::directory_entry& entry :
         fs::directory_iterator(std::string(pelab_test::SourceDir()) + "/assets/lessons")) {
        if (entry.path().extension() != ".json") continue;
        std::ifstream in(entry.path());
        const nlohmann::json doc = nlohmann::json::parse(in);
        ShippedLesson lesson;
        lesson.file = entry.path().filename().string();
        lesson.title = doc.at("title").get<std::string>();
        lesson.steps = doc.at("steps").size();
        // needs_model: a family id or a list of them; the first names the folder to bring.
        const nlohmann::json needs = doc.value("needs_model", nlohmann::json());
        lesson.needs_model = needs.is_string()  ? needs.get<std::string>()
                             : needs.is_array() ? needs.at(0).get<std::string>()
                                                : "";
        std::string previous;
        int run = 0;
        const auto close_run = [&] {
            if (run == 0) return;
            lesson.panels += std::string(lesson.panels.empty() ? "" : ", ") + previous +
                             (run > 1 ? " ×" + std::to_string(run) : "");
        };
        for (const nlohmann::json& step : doc.at("steps")) {
            const std::string present = step.value("present", previous);
            if (present == previous) {
                ++run;
                continue;
            }
            close_run();
            previous = present;
            run = 1;
        }
        close_run();
        lessons.push_back(lesson);
    }
    std::sort(lessons.begin(), lessons.end(),
              [](const ShippedLesson& a, const ShippedLesson& b) { return a.file < b.file; });
    return lessons;
}
} // namespace

// Every count and step list of the lessons in the docs is generated from the lesson files (the
// docs once said 14 steps for a lesson of 18): docs/teaching.md's table, and the commands that
// open them in README.md and docs/lessons.md. The test prints the block to paste
// (scripts/update_scene_fields.sh pastes it) when a lesson changes.
TEST(LessonDocs, CountWhatTheFilesHold) {
    const std::vector<ShippedLesson> lessons = ShippedLessons();
    ASSERT_EQ(lessons.size(), 5u);
    std::string table = "<!-- lessons: generated from assets/lessons/; tests/registry_test.cpp "
                        "checks it -->\n| lesson | title | steps | panels, step by step |\n"
                        "|---|---|---|---|\n";
    std::string commands =
        "# lessons: generated from assets/lessons/; tests/registry_test.cpp checks it\n";
    for (const ShippedLesson& lesson : lessons) {
        table += "| `" + lesson.file + "` | " + lesson.title + " | " +
                 std::to_string(lesson.steps) + " | " + lesson.panels + " |\n";
        // A lesson that runs on a checkpoint is opened with it (docs/models.md: what to bring).
        commands += "build/bin/pelab " +
                    std::string(lesson.needs_model.empty()     ? ""
                                : lesson.needs_model == "gpt2" ? "--model ~/models/gpt2 "
                                                               : "--model ~/models/SmolLM2-135M ") +
                    "--lesson assets/lessons/" + lesson.file + "  # " +
                    std::to_string(lesson.steps) + " steps: " + lesson.panels + "\n";
    }
    table += "<!-- /lessons -->";
    commands += "# /lessons";
    ExpectGeneratedBlock("docs/teaching.md", "<!-- lessons:", "<!-- /lessons -->", table);
    ExpectGeneratedBlock("README.md", "# lessons:", "# /lessons", commands);
    ExpectGeneratedBlock("docs/lessons.md", "# lessons:", "# /lessons", commands);
}

// The positional methods: each of the core's table has exactly one app row (colour, marker,
// what it changes), the Train panel tells them apart (no two share both colour and marker),
// and docs/train.md's table is generated from the rows.
// One panel shows the checkpoint the model service opened, and the shell finds it by that row
// (PanelRegistry::ModelViewer), not by its id.
TEST(PanelInfos, OnePanelShowsTheOpenedModel) {
    int viewers = 0;
    for (const PanelInfo& info : PanelInfos())
        viewers += info.shows_opened_model ? 1 : 0;
    EXPECT_EQ(viewers, 1);
    PanelRegistry registry;
    ASSERT_NE(registry.ModelViewer(), nullptr);
    EXPECT_TRUE(FindPanelInfo(registry.ModelViewer()->id)->shows_opened_model);
}

TEST(MethodLooks, EveryMethodHasOneRow) {
    ASSERT_EQ(MethodLooks().size(), positional_kinds().size());
    for (std::size_t k = 0; k < positional_kinds().size(); ++k) {
        EXPECT_EQ(MethodLooks()[k].kind, positional_kinds()[k]) << "in the core table's order";
        EXPECT_STRNE(MethodLooks()[k].changes, "");
        for (std::size_t j = 0; j < k; ++j)
            EXPECT_FALSE(MethodLooks()[j].role == MethodLooks()[k].role &&
                         MethodLooks()[j].marker == MethodLooks()[k].marker)
                << positional_kind_name(positional_kinds()[j]) << " and "
                << positional_kind_name(positional_kinds()[k]) << " look the same";
    }
    EXPECT_EQ(LookOf(PositionalKind::None).role, Role::Muted) << "the baseline in grey";
    // Each names a tab that exists ("" only for sinusoidal, taught before the alternatives).
    for (const MethodLook& look : MethodLooks()) {
        bool found = std::string(look.tab).empty() && look.kind == PositionalKind::Sinusoidal;
        for (const AlternativesTabInfo& tab : AlternativesTabs())
            found = found || std::string(look.tab) == tab.id;
        EXPECT_TRUE(found) << positional_kind_name(look.kind) << " names the tab \"" << look.tab
                           << "\"";
    }
}

TEST(MethodLooks, DocsListEveryMethodOfTheTable) {
    std::string expected =
        "<!-- methods: generated from the method table (core/src/training/positional/) and "
        "app/panels/methods.cpp; tests/registry_test.cpp checks it -->\n"
        "| variant | method | options | what it changes | taught in |\n|---|---|---|---|---|\n";
    for (const MethodLook& look : MethodLooks()) {
        const PositionalMethodInfo& info = positional_method_info(look.kind);
        std::string options;
        for (const MethodOption& option : info.options)
            options += (options.empty() ? "`" : ", `") + method_option_flag(option) + " N` (" +
                       std::to_string(option.min_value) + "–" + std::to_string(option.max_value) +
                       ", default " + std::to_string(MethodOptions{}.*option.field) + ")";
        std::string taught = "the first panels (Waves, Clocks, …)";
        for (const AlternativesTabInfo& tab : AlternativesTabs())
            if (std::string(look.tab) == tab.id)
                taught = std::string("Alternatives › ") + tab.title;
        expected += std::string("| `") + positional_kind_name(look.kind) + "` | " +
                    info.display_name + (*info.paper ? std::string(", ") + info.paper : "") +
                    " | " + (options.empty() ? "—" : options) + " | " + look.changes + " | " +
                    taught + " |\n";
    }
    expected += "<!-- /methods -->";
    ExpectGeneratedBlock("docs/train.md", "<!-- methods:", "<!-- /methods -->", expected);
}
