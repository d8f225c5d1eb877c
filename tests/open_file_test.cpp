// File → Open, Open lesson…, Open recent and a drop on the window all go through OpenFile: a file
// with a value of the wrong type, a repeated key or a NUL in a text is a message, and the class's
// session goes on with nothing changed (it once quit the app and lost --state-out).
#include "headless_fixture.h"
#include "io/json_input.h"
#include "io/model_files.h"
#include "shell/app_ui.h"
#include "shell/file_menu.h"
#include "temp_folder.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace pelab;

namespace {
class OpenFileTest : public HeadlessApp {};
} // namespace

TEST_F(OpenFileTest, WrongTypesAreAMessageAndChangeNothing) {
    TempFolder folder;
    // A lesson under way, with a student's changes: all of it must survive the bad files.
    ASSERT_EQ(OpenFile(app, folder.Write("good.json", R"({"title": "t", "steps": [
        {"caption": "a", "scene": {"pos_a": 7}}, {"caption": "b"}]})")),
              "");
    ASSERT_TRUE(app.lesson.Active());
    app.state.pos_b = 33;
    Frame();
    const nlohmann::json before = app.scene.Document();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"title":"t","steps":[{"caption":"x","scene":{"playing":1}}]})",
         "step 1: field \"playing\": must be true or false (got 1)"},
        {R"({"title":"t","steps":[{"caption":"x","scene":{"playing":"yes"}}]})",
         "step 1: field \"playing\""},
        {R"({"title":"t","steps":[{"caption":"x","scene":{"playing":null}}]})",
         "step 1: field \"playing\""},
        {R"({"title":"t","steps":[{"caption":"x","caption":"y"}]})",
         "step 1: field \"caption\" appears twice"},
        {R"({"title":"t","steps":[{"caption":"x\u0000y"}]})", "NUL"},
        {R"({"format":"pelab-quiz","title":"q","questions":[{"question":"q","choices":["a","b"],
            "answer":"1","explanation":"e"}]})",
         "question 1: field \"answer\": must be a whole number from 0 to 1 (got \"1\")"},
        {R"({"title":"q","cards":[{"front":"f","back":7}]})", "card 1: field \"back\""},
        // No control character but tab and line feed in a quiz's texts either.
        {R"({"format":"pelab-quiz","title":"q","questions":[{"question":"q","choices":["a","b\u001b"],
            "answer":1,"explanation":"e"}]})",
         "question 1: field \"choices\": item 1: holds the control character U+001B"},
        {R"({"title":"q","cards":[{"front":"f","back":"b","show":{"scene":{"pair":"3"}}}]})",
         "card 1: field \"show\""},
        {R"({"pos_a": "12"})", "field \"pos_a\": must be a number"},
        {R"({"pos_a": 1, "pos_a": 2})", "field \"pos_a\" appears twice"},
    };
    for (std::size_t k = 0; k < cases.size(); ++k) {
        const std::string path = folder.Write("bad" + std::to_string(k) + ".json", cases[k].first);
        const std::string error = OpenFile(app, path);
        EXPECT_NE(error.find(cases[k].second), std::string::npos) << cases[k].first << "\n"
                                                                  << error;
        EXPECT_NE(error.find("bad" + std::to_string(k) + ".json"), std::string::npos) << error;
        EXPECT_EQ(app.scene.Document(), before) << cases[k].first;
        EXPECT_TRUE(app.lesson.Active());
        Frame();
    }
}

// A quiz (or lesson) over 1 MiB is named as what it is not: not "a scene".
TEST_F(OpenFileTest, OversizedFilesAreNotCalledScenes) {
    TempFolder folder;
    const std::string quiz =
        folder.Write("big_quiz.json", R"({"format":"pelab-quiz","title":")" +
                                          std::string(kMaxInputBytes, 'q') + R"(","cards":[]})");
    const std::string error = OpenFile(app, quiz);
    EXPECT_NE(error.find("larger than 1024 KiB"), std::string::npos) << error;
    EXPECT_EQ(error.find("scene \""), std::string::npos) << error;
    EXPECT_NE(error.find("big_quiz.json"), std::string::npos) << error;
}

// File → Open lesson… refuses what is not a lesson, whatever it holds.
TEST_F(OpenFileTest, OpenLessonRefusesOtherKinds) {
    TempFolder folder;
    const std::string scene = folder.Write("s.json", R"({"pos_a": 12})");
    const nlohmann::json before = app.scene.Document();
    const std::string error = OpenFile(app, scene, true);
    EXPECT_NE(error.find("is not a lesson"), std::string::npos) << error;
    EXPECT_EQ(app.scene.Document(), before);
}

// A lesson with many problems opened in the window lists every one (a teacher fixes the file
// once), in a box that scrolls on a 1024×768 projector at text ×2 while OK stays in view.
TEST_F(OpenFileTest, ABadLessonListsEveryProblemWithOKInView) {
    TempFolder folder;
    std::string steps;
    for (int k = 0; k < 30; ++k)
        steps += std::string(k ? "," : "") + R"({"caption": "c", "scene": {"pos_a": -)" +
                 std::to_string(k + 1) + "}}";
    const std::string path =
        folder.Write("bad.json", R"({"title": "t", "steps": [)" + steps + "]}");
    const std::string error = OpenFile(app, path, true);
    EXPECT_NE(error.find("30 problems"), std::string::npos) << error;
    for (int k = 1; k <= 30; ++k)
        EXPECT_NE(error.find("step " + std::to_string(k) + ": "), std::string::npos) << k;
    EXPECT_FALSE(app.lesson.Active());
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    app.view.font_scale = 2.0f;
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    app.recorder.enabled = true;
    // Dropped on the window: the message box lists them, a line each.
    FrameInput drop;
    drop.dropped_paths = {path};
    drop.delta_seconds = 1.0f / 60.0f;
    RunFrame(app, {}, drop);
    EXPECT_NE(app.notice.find("30 problems:\n- step 1: "), std::string::npos) << app.notice;
    EXPECT_EQ(app.notice.find("\\x0A"), std::string::npos) << "line breaks written out";
    for (int frame = 0; frame < 4; ++frame)
        Frame();
    ASSERT_TRUE(app.recorder.rects.count("notice.ok"));
    const WidgetRect ok = app.recorder.rects["notice.ok"];
    const WidgetRect text = app.recorder.rects["notice.text"];
    EXPECT_GE(ok.y0, 0.0f);
    EXPECT_LE(ok.y1, 768.0f) << "OK is below the window";
    EXPECT_LE(text.y1 - text.y0, 768.0f * 0.5f + 1.0f) << "the list scrolls in its box";
    Click("notice.ok");
    Frame();
    EXPECT_EQ(app.notice, "");
}

// File → Open lesson… starts in the lessons PE Lab ships: beside an installed program
// (<prefix>/bin/pelab → <prefix>/share/pelab/lessons) and in the source tree of a built one
// (build/bin/pelab → assets/lessons); nowhere when neither exists.
TEST(ShippedLessons, FoundBesideTheInstalledOrTheBuiltProgram) {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(::testing::TempDir()) / "pelab_shipped_lessons";
    fs::remove_all(root);
    fs::create_directories(root / "usr/bin");
    fs::create_directories(root / "usr/share/pelab/lessons");
    EXPECT_EQ(pelab::ShippedLessonsFolder((root / "usr/bin/pelab").string()),
              fs::canonical(root / "usr/share/pelab/lessons").string());
    fs::create_directories(root / "src/build/bin");
    fs::create_directories(root / "src/assets/lessons");
    EXPECT_EQ(pelab::ShippedLessonsFolder((root / "src/build/bin/pelab").string()),
              fs::canonical(root / "src/assets/lessons").string());
    fs::create_directories(root / "elsewhere/bin");
    EXPECT_EQ(pelab::ShippedLessonsFolder((root / "elsewhere/bin/pelab").string()), "");
    EXPECT_EQ(pelab::ShippedLessonsFolder(""), "");
    fs::remove_all(root);
}

// File → Models on this computer: an Ollama store (OLLAMA_MODELS) and LM Studio's folder under
// HOME, laid out as they lay them out; each model listed once and opened in the Your model panel.
TEST_F(OpenFileTest, ModelsOnThisComputerAreListedAndOpen) {
    TempFolder store, home;
    const std::string gguf = std::string("GGUF") + std::string("\3\0\0\0", 4) +
                             std::string(8, '\0') + std::string("\1\0\0\0\0\0\0\0", 8) +
                             std::string("\24\0\0\0\0\0\0\0", 8) + "general.architecture" +
                             std::string("\10\0\0\0", 4) + std::string("\5\0\0\0\0\0\0\0", 8) +
                             "llama";
    const std::string hex(64, 'a');
    std::filesystem::create_directories(store.path / "blobs");
    store.Write("blobs/sha256-" + hex, gguf);
    std::filesystem::create_directories(store.path / "manifests/registry.ollama.ai/library/tiny");
    store.Write(
        "manifests/registry.ollama.ai/library/tiny/latest",
        R"({"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:)" + hex +
            R"("}]})");
    std::filesystem::create_directories(home.path / ".lmstudio/models/pub/m");
    home.Write(".lmstudio/models/pub/m/m-Q4_K_M.gguf", gguf);
    home.Write(".lmstudio/models/pub/m/big-00002-of-00002.gguf", gguf);
    const char* old_home = std::getenv("HOME");
    const std::string kept_home = old_home ? old_home : "";
    setenv("OLLAMA_MODELS", store.path.c_str(), 1);
    setenv("HOME", home.path.c_str(), 1);
    const std::vector<LocalModel> found = FindLocalModels();
    unsetenv("OLLAMA_MODELS");
    if (old_home) setenv("HOME", kept_home.c_str(), 1);
    std::vector<std::string> labels;
    for (const LocalModel& model : found)
        labels.push_back(model.runner + ": " + model.folder + " " + model.name);
    EXPECT_EQ(labels,
              (std::vector<std::string>{"LM Studio: pub/m m-Q4_K_M.gguf",
                                        "Ollama: " + store.path.string() + " tiny:latest"}));
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].bytes, gguf.size());
    EXPECT_EQ(found[1].path, (store.path / ("blobs/sha256-" + hex)).string());
    EXPECT_TRUE(LooksLikeCheckpoint(found[1].path)); // a blob without .gguf, by its magic
}
