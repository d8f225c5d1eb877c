// Guided lessons, headless: the shipped lessons load, every step applies what its file says (read
// here with nlohmann directly, not through the lesson reader) and its highlighted widgets exist
// on screen; bad lesson files are refused naming the step and field with nothing applied; the
// clicker keys, the black screen, "back to this step" and the glide work through real frames.
#include "headless_fixture.h"
#include "io/handout_html.h"
#include "io/lesson.h"
#include "shell/lesson_player.h"
#include "test_paths.h"
#include "widgets/widgets.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace pelab;
namespace fs = std::filesystem;

namespace {

class Lessons : public HeadlessApp {
protected:
    Lessons() : HeadlessApp(ImVec2(1600, 1000), /*record=*/true) {}
    // Frames until the step's glide has landed (0.4 s at 60 frames a second).
    void Settle() {
        for (int frame = 0; frame < 30; ++frame)
            Frame();
    }
    // The shipped lesson "frequencies" started at its first step, settled.
    void StartFrequencies() {
        Lesson lesson;
        ASSERT_EQ(
            LoadLesson(
                (fs::path(pelab_test::SourceDir()) / "assets/lessons/frequencies.json").string(),
                app.scene, app.panels, &lesson),
            "");
        StartLesson(app, lesson);
        Settle();
    }
};

nlohmann::json ReadJson(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
}

std::vector<fs::path> ShippedLessons() {
    std::vector<fs::path> files;
    for (const auto& entry :
         fs::directory_iterator(fs::path(pelab_test::SourceDir()) / "assets/lessons"))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    return files;
}

} // namespace

// Each shipped lesson, stepped through with PageDown as a clicker does: at every step the panel
// presented and each scene field are what the file says, and every highlighted widget is drawn.
TEST_F(Lessons, ShippedLessonsStepThroughWithPageDown) {
    const std::vector<fs::path> files = ShippedLessons();
    ASSERT_GE(files.size(), 2u);
    for (const fs::path& file : files) {
        SCOPED_TRACE(file.filename().string());
        App fresh_defaults;
        ASSERT_EQ(app.scene.ApplyDocument(fresh_defaults.scene.Document()), "");
        Lesson lesson;
        ASSERT_EQ(LoadLesson(file.string(), app.scene, app.panels, &lesson), "");
        if (!lesson.needs_model.empty()) OpenLessonFixture(lesson.needs_model);
        const nlohmann::json doc = ReadJson(file);
        ASSERT_EQ(lesson.steps.size(), doc["steps"].size());
        StartLesson(app, lesson);
        std::string presented;
        for (std::size_t k = 0; k < doc["steps"].size(); ++k) {
            SCOPED_TRACE("step " + std::to_string(k + 1));
            if (k > 0) Press(keys::kPageDown);
            Settle();
            EXPECT_EQ(app.lesson.step, static_cast<int>(k));
            const nlohmann::json& step = doc["steps"][k];
            if (step.contains("present")) presented = step["present"];
            EXPECT_EQ(app.view.presented_panel, presented);
            const nlohmann::json scene = app.scene.Document();
            const nlohmann::json step_scene = step.value("scene", nlohmann::json::object());
            for (const auto& field : step_scene.items()) {
                EXPECT_EQ(scene[field.key()], field.value()) << field.key();
            }
            const nlohmann::json highlight = step.value("highlight", nlohmann::json::array());
            for (const auto& name : highlight) {
                EXPECT_TRUE(app.recorder.rects.count(name.get<std::string>()))
                    << name << " is not on screen";
            }
        }
        // Past the last step PageDown stays there.
        Press(keys::kPageDown);
        EXPECT_EQ(app.lesson.step, static_cast<int>(doc["steps"].size()) - 1);
    }
}

TEST_F(Lessons, BadLessonsNameTheStepAndChangeNothing) {
    const fs::path dir =
        fs::temp_directory_path() / ("pelab_lessons_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const auto write = [&](const char* name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    };
    std::string steps;
    for (int k = 1; k <= 6; ++k)
        steps += R"({"caption": "fine", "scene": {"pos_a": )" + std::to_string(k) + "}},";
    const std::string bad_value =
        write("bad_value.json", R"({"title": "t", "steps": [)" + steps +
                                    R"({"caption": "seven", "scene": {"pos_a": -3}}]})");
    const std::string unknown =
        write("unknown.json", R"({"title": "t", "steps": [)" + steps +
                                  R"({"caption": "seven", "scene": {"pos_z": 1}}]})");
    const std::string bad_panel =
        write("panel.json", R"({"title": "t", "steps": [{"caption": "x", "present": "nope"}]})");
    const std::string corrupt = write("corrupt.json", R"({"title": "t", "steps": [)");
    // A pair that needs the d_model of an earlier step is fine; one beyond it is not.
    const std::string ordered =
        write("ordered.json",
              R"({"title": "t", "steps": [{"caption": "a", "scene": {"d_model": 1024}},
                  {"caption": "b", "scene": {"pair": 400}}]})");
    const std::string too_far =
        write("too_far.json",
              R"({"title": "t", "steps": [{"caption": "a", "scene": {"d_model": 64}},
                  {"caption": "b", "scene": {"pair": 40}}]})");
    state.pos_a = 42;
    const nlohmann::json before = app.scene.Document();
    const struct {
        std::string path, expected;
    } cases[] = {{bad_value, "step 7: field \"pos_a\""},
                 {unknown, "step 7: field \"scene\": unknown field \"pos_z\""},
                 {bad_panel, "step 1: field \"present\""},
                 {corrupt, "not valid JSON"},
                 {(dir / "missing.json").string(), "missing.json"},
                 {too_far, "step 2: field \"pair\""}};
    for (const auto& c : cases) {
        Lesson lesson;
        const std::string error = LoadLesson(c.path, app.scene, app.panels, &lesson);
        EXPECT_NE(error.find(c.expected), std::string::npos) << error;
        EXPECT_TRUE(lesson.steps.empty());
        EXPECT_EQ(app.scene.Document(), before) << "half-applied: " << c.path;
    }
    Lesson lesson;
    EXPECT_EQ(LoadLesson(ordered, app.scene, app.panels, &lesson), "");
    EXPECT_EQ(app.scene.Document(), before);
    fs::remove_all(dir);
}

// N / P / Home move, B blanks until any key (which does nothing else), R and "Back to this step"
// undo what the student changed, and the arrow keys keep moving pos A.
TEST_F(Lessons, ClickerKeysBlankAndBackToThisStep) {
    StartFrequencies();
    if (HasFatalFailure()) return;
    Press(keys::kN);
    Press(keys::kN);
    Settle();
    EXPECT_EQ(app.lesson.step, 2);
    EXPECT_EQ(state.pair, 100);
    Press(keys::kPageUp);
    EXPECT_EQ(app.lesson.step, 1);
    Press(keys::kP);
    Press(keys::kP);
    EXPECT_EQ(app.lesson.step, 0);
    Press(keys::kPageDown);
    Settle();
    EXPECT_EQ(state.pair, 10);
    // The student plays: the arrows still move pos A and the pair.
    Press(keys::kRight);
    Press(keys::kUp);
    EXPECT_EQ(state.pos_a, 4.0);
    EXPECT_EQ(state.pair, 11);
    Press(keys::kR);
    Settle();
    EXPECT_EQ(state.pos_a, 3.0);
    EXPECT_EQ(state.pair, 10);
    Press(keys::kB);
    EXPECT_TRUE(app.lesson.blank);
    Press(keys::kPageDown); // brings the screen back, moves nothing
    EXPECT_FALSE(app.lesson.blank);
    EXPECT_EQ(app.lesson.step, 1);
    Press(keys::kHome);
    EXPECT_EQ(app.lesson.step, 0);
    EXPECT_NE(LessonReadout(app.lesson)["title"], nullptr);
}

// A step glides pos A from where it was to the step's value over 0.4 s, and lands exactly.
TEST_F(Lessons, StepsGlideTheNumbersTheyChange) {
    Lesson lesson;
    ASSERT_EQ(ParseLesson(R"({"title": "glide", "steps": [
                  {"caption": "a", "scene": {"pos_a": 10}},
                  {"caption": "b", "scene": {"pos_a": 110}}]})",
                          app.scene, app.panels, &lesson),
              "");
    StartLesson(app, lesson);
    EXPECT_EQ(state.pos_a, 10.0); // the first step lands at once
    Press(keys::kPageDown);
    Frame();
    EXPECT_GT(state.pos_a, 10.0);
    EXPECT_LT(state.pos_a, 110.0);
    Settle();
    EXPECT_EQ(state.pos_a, 110.0);
    EXPECT_EQ(app.lesson.shown["pos_a"], 110.0);
}

// A step's "lock" holds its fields: the arrow keys and a scene change snap back, and the lesson
// bar says why; the next step without a lock frees them. Unknown fields are refused.
TEST_F(Lessons, LockedFieldsSnapBackAndSaySo) {
    Lesson lesson;
    ASSERT_EQ(ParseLesson(R"({"title": "locks", "steps": [
                  {"caption": "a", "scene": {"pair": 3, "pos_a": 20}, "lock": ["pair", "pos_a"]},
                  {"caption": "b"}]})",
                          app.scene, app.panels, &lesson),
              "");
    StartLesson(app, lesson);
    Settle();
    Press(keys::kUp);
    Press(keys::kRight);
    EXPECT_EQ(state.pair, 3);
    EXPECT_EQ(state.pos_a, 20.0);
    EXPECT_NE(app.lesson.lock_note.find("locked"), std::string::npos);
    Frame();
    EXPECT_TRUE(app.recorder.rects.count("lesson.lock_note"));
    Press(keys::kPageDown);
    Settle();
    EXPECT_TRUE(app.lesson.lock_note.empty());
    Press(keys::kUp);
    EXPECT_EQ(state.pair, 4);
    Lesson bad;
    const std::string error = ParseLesson(
        R"({"title": "t", "steps": [{"caption": "a"}, {"caption": "b", "lock": ["pair_z"]}]})",
        app.scene, app.panels, &bad);
    EXPECT_NE(error.find("step 2: field \"lock\""), std::string::npos) << error;
}

// The pair and k glide too, through the whole numbers between.
TEST_F(Lessons, PairAndShiftGlide) {
    Lesson lesson;
    ASSERT_EQ(ParseLesson(R"({"title": "glide", "steps": [
                  {"caption": "a", "scene": {"pair": 0, "shift_k": 0}},
                  {"caption": "b", "scene": {"pair": 40, "shift_k": 100}}]})",
                          app.scene, app.panels, &lesson),
              "");
    StartLesson(app, lesson);
    Press(keys::kPageDown);
    Frame();
    Frame();
    EXPECT_GT(state.pair, 0);
    EXPECT_LT(state.pair, 40);
    EXPECT_GT(state.shift_k, 0);
    EXPECT_LT(state.shift_k, 100);
    Settle();
    EXPECT_EQ(state.pair, 40);
    EXPECT_EQ(state.shift_k, 100);
}

// A caption's numbers are the screen's: the why-positions step about positions 3 and 5 says two
// thirds of the pairs (the slow ones) still point the same way, and cosine 0.91; computed here
// from the formula at the step's own scene (it once said "almost every pair").
TEST_F(Lessons, CloseNeighboursCaptionMatchesItsScene) {
    Lesson lesson;
    ASSERT_EQ(
        LoadLesson(
            (fs::path(pelab_test::SourceDir()) / "assets/lessons/why-positions.json").string(),
            app.scene, app.panels, &lesson),
        "");
    int step = -1;
    for (std::size_t k = 0; k < lesson.steps.size(); ++k)
        if (lesson.steps[k].caption.rfind("Positions 3 and 5 are close", 0) == 0)
            step = static_cast<int>(k);
    ASSERT_GE(step, 0) << "the step about positions 3 and 5";
    StartLesson(app, lesson);
    GoToStep(app, step);
    Settle();
    ASSERT_EQ(state.pos_a, 3.0);
    ASSERT_EQ(state.pos_b, 5.0);
    const int pairs = state.d_model / 2;
    int still = 0;
    long double dot = 0, norm_a = 0, norm_b = 0;
    for (int i = 0; i < pairs; ++i) {
        const long double w = powl(state.base, -2.0L * i / state.d_model);
        still += w * 2 < 0.1L; // turned less than 0.1 rad between 3 and 5
        for (const bool cosine : {false, true}) {
            const long double a = cosine ? cosl(w * 3) : sinl(w * 3);
            const long double b = cosine ? cosl(w * 5) : sinl(w * 5);
            dot += a * b, norm_a += a * a, norm_b += b * b;
        }
    }
    const double share = static_cast<double>(still) / pairs;
    EXPECT_GT(share, 0.6) << still << " of " << pairs; // "two thirds"
    EXPECT_LT(share, 0.72) << still << " of " << pairs;
    char cosine[16];
    std::snprintf(cosine, sizeof cosine, "%.2f", static_cast<double>(dot / sqrtl(norm_a * norm_b)));
    EXPECT_NE(lesson.steps[step].caption.find(std::string("cosine ") + cosine), std::string::npos)
        << lesson.steps[step].caption;
}

// The speaker notes stay out of the way of the keyboard help (they were drawn over it, and Esc
// closed the help underneath): while the help is open the notes are not drawn; closed, they are.
TEST_F(Lessons, NotesDoNotCoverTheKeyboardHelp) {
    StartFrequencies();
    if (HasFatalFailure()) return;
    // Whether the notes window was drawn in the last frame.
    const auto notes_shown = [] {
        const ImGuiWindow* window = ImGui::FindWindowByName("##lesson_notes");
        return window != nullptr && window->Active;
    };
    Press(keys::kS);
    Frame();
    EXPECT_TRUE(notes_shown());
    Press(keys::kF1);
    Frame();
    EXPECT_TRUE(app.view.show_keys);
    EXPECT_FALSE(notes_shown());
    Press(keys::kEscape);
    EXPECT_FALSE(app.view.show_keys);
    Frame();
    EXPECT_TRUE(notes_shown()) << "the notes come back";
}

// The outline has a colour of its own: far from every data role's colour in each theme, and no
// panel draws with it (each presented alone, nothing outlined); a lesson step's outline does.
TEST_F(Lessons, TheOutlineHasAColourNoDataMarkUses) {
    const auto rgb = [](ImU32 c) { return c & 0x00FFFFFFu; };
    for (const ThemeId theme : kThemes) {
        const Theme& colours = GetTheme(theme);
        const ImVec4 outline = colours.ColorVec(Role::Outline);
        for (int role = 0; role < static_cast<int>(Role::Outline); ++role) {
            const ImVec4 other = colours.ColorVec(static_cast<Role>(role));
            const double distance =
                std::sqrt(std::pow(outline.x - other.x, 2) + std::pow(outline.y - other.y, 2) +
                          std::pow(outline.z - other.z, 2));
            EXPECT_GT(distance, 0.3) << colours.name << ": role " << role;
        }
        app.view.theme = theme;
        for (const PanelEntry& entry : app.panels.Entries()) {
            app.view.presented_panel = entry.id;
            Frame();
            Frame();
            const ImDrawData* data = ImGui::GetDrawData();
            for (int l = 0; l < data->CmdListsCount; ++l)
                for (const ImDrawVert& vertex : data->CmdLists[l]->VtxBuffer)
                    ASSERT_NE(rgb(vertex.col), rgb(colours.Color(Role::Outline)))
                        << entry.id << " draws in the outline's colour (" << colours.name << ")";
        }
    }
    StartFrequencies();
    if (HasFatalFailure()) return;
    bool outlined = false;
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; l < data->CmdListsCount; ++l)
        for (const ImDrawVert& vertex : data->CmdLists[l]->VtxBuffer)
            outlined =
                outlined || rgb(vertex.col) == rgb(GetTheme(app.view.theme).Color(Role::Outline));
    EXPECT_TRUE(outlined);
}

// The teacher's way out of the slides and back: Esc leaves them and the menu bar comes back, F5
// returns to the slides (no menu bar) and F5 again shows the menus, with the lesson going on.
TEST_F(Lessons, EscThenF5BringTheMenusBackAndForth) {
    StartFrequencies();
    if (HasFatalFailure()) return;
    const auto menus_shown = [&] {
        Settle();
        return ImGui::FindWindowByName("##MainMenuBar") != nullptr &&
               ImGui::FindWindowByName("##MainMenuBar")->Active;
    };
    ASSERT_TRUE(app.Slides());
    EXPECT_FALSE(menus_shown()) << "slides have no menu bar";
    Press(keys::kEscape);
    EXPECT_FALSE(app.Slides());
    EXPECT_TRUE(menus_shown()) << "Esc leaves the slides: the menus are back";
    Press(keys::kF5);
    EXPECT_TRUE(app.Slides());
    EXPECT_FALSE(menus_shown()) << "F5 goes back to the slides";
    Press(keys::kF5);
    EXPECT_TRUE(menus_shown()) << "and F5 again shows the menus";
    EXPECT_TRUE(app.lesson.Active());
}

// The outlines are drawn over the panels and under the menus: with the slides off (F5) and the
// View menu open, the menu's window is drawn after the outlines' window.
TEST_F(Lessons, TheOutlineStaysUnderTheMenus) {
    StartFrequencies();
    if (HasFatalFailure()) return;
    Press(keys::kF5);
    Settle();
    ASSERT_FALSE(app.Slides());
    ASSERT_TRUE(app.recorder.rects.count("menu.view"));
    Click("menu.view");
    Frame();
    const ImGuiWindow* outlines = ImGui::FindWindowByName("##outlines");
    ASSERT_NE(outlines, nullptr);
    ASSERT_TRUE(outlines->Active);
    const ImGuiWindow* menu = nullptr;
    for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows)
        if (window->Active && (window->Flags & ImGuiWindowFlags_Popup)) menu = window;
    ASSERT_NE(menu, nullptr) << "the View menu did not open";
    const ImDrawData* data = ImGui::GetDrawData();
    int outline_at = -1, menu_at = -1, panel_at = -1;
    for (int l = 0; l < data->CmdListsCount; ++l) {
        if (data->CmdLists[l] == outlines->DrawList) outline_at = l;
        if (data->CmdLists[l] == menu->DrawList) menu_at = l;
        if (data->CmdLists[l] == WindowOf("waves")->DrawList) panel_at = l;
    }
    ASSERT_GE(outline_at, 0);
    ASSERT_GE(panel_at, 0);
    EXPECT_GT(outline_at, panel_at) << "the outlines are drawn under the panel";
    EXPECT_GT(menu_at, outline_at) << "the outlines are drawn over the menu";
}

// The handout page (io/handout_html.h): a lesson's text reaches the HTML escaped, the starred
// words emphasised, and each step beside its picture.
TEST(HandoutHtml, EscapesTextAndEmphasisesStarredWords) {
    EXPECT_EQ(HtmlText(R"(<b> & "q" 'a')"), "&lt;b&gt; &amp; &quot;q&quot; &#39;a&#39;");
    EXPECT_EQ(CaptionHtml("a *b<c* d"), "a <em>b&lt;c</em> d");
    EXPECT_EQ(CaptionHtml("open *end"), "open <em>end</em>");
    Lesson lesson;
    lesson.title = "Waves & <clocks>";
    lesson.steps.resize(2);
    lesson.steps[0].caption = "first *step*";
    lesson.steps[0].notes = "say <this>";
    lesson.steps[1].caption = "second";
    const std::string html = HandoutHtml(lesson, {"step-01.png", "step-02.png"}, true);
    EXPECT_NE(html.find("<title>Waves &amp; &lt;clocks&gt;</title>"), std::string::npos);
    EXPECT_NE(html.find("<h2>Step 1 of 2</h2>\n<img src=\"step-01.png\" alt=\"Step 1\">\n"
                        "<p>first <em>step</em></p>\n<p class=\"notes\">say &lt;this&gt;</p>"),
              std::string::npos);
    EXPECT_NE(html.find("<h2>Step 2 of 2</h2>"), std::string::npos);
    EXPECT_EQ(html.find("<b>"), std::string::npos);
    // A students' handout (the default) leaves the speaker notes out.
    const std::string students = HandoutHtml(lesson, {"step-01.png", "step-02.png"});
    EXPECT_EQ(students.find("say &lt;this&gt;"), std::string::npos);
    EXPECT_EQ(students.find("class=\"notes\""), std::string::npos);
    EXPECT_NE(students.find("<p>first <em>step</em></p>"), std::string::npos);
    // Only the steps that have a picture: a capture that failed leaves the rest out.
    EXPECT_EQ(HandoutHtml(lesson, {"step-01.png"}).find("Step 2 of 2"), std::string::npos);
}

// The pictures a handout's page names (a later, shorter handout removes those it does not make
// again): the names the page quotes whole, each once; nothing that only looks like one.
TEST(HandoutHtml, ThePicturesAPageNamesAreTheOnesItQuotes) {
    EXPECT_EQ(HandoutPictureName(0), "step-01.png");
    EXPECT_EQ(HandoutPictureName(11), "step-12.png");
    EXPECT_EQ(HandoutPictureName(99), "step-100.png");
    Lesson lesson;
    lesson.title = "t";
    lesson.steps.resize(3);
    lesson.steps[1].caption = "see step-07.png and \"step-08.png\" in the caption";
    const std::string html =
        HandoutHtml(lesson, {HandoutPictureName(0), HandoutPictureName(1), HandoutPictureName(2)});
    // The caption's quotes are escaped (&quot;), so only the page's own three are found.
    EXPECT_EQ(HandoutPicturesNamedBy(html),
              (std::vector<std::string>{"step-01.png", "step-02.png", "step-03.png"}));
    EXPECT_EQ(HandoutPicturesNamedBy(R"(<img src="step-09.png"><img src="step-09.png">)"),
              std::vector<std::string>{"step-09.png"});
    EXPECT_TRUE(HandoutPicturesNamedBy(R"(src="pictures/step-01.png" "xstep-02.png" "step-3.png")")
                    .empty());
    EXPECT_TRUE(HandoutPicturesNamedBy(R"("step-01.pngx" "step-.png" "step-01.PNG")").empty());
}

// A caption's emphasis ends at its closing star: the punctuation after it is drawn plain and
// without a space ("*off*," coloured the comma too).
TEST(CaptionPieces, PunctuationAfterTheClosingStarIsPlain) {
    const auto text = [](const std::vector<CaptionPiece>& pieces) {
        std::string out;
        for (const CaptionPiece& p : pieces)
            out += std::string(p.joined ? "" : " ") + (p.emphasised ? "[" : "") + p.text +
                   (p.emphasised ? "]" : "");
        return out;
    };
    EXPECT_EQ(text(CaptionPieces("Turn it *off*, then on.")), " Turn it [off], then on.");
    EXPECT_EQ(text(CaptionPieces("the *slow pairs*). Next")), " the [slow] [pairs]). Next");
    EXPECT_EQ(text(CaptionPieces("*one* two")), " [one] two");
    EXPECT_EQ(text(CaptionPieces("open *end")), " open [end]");
    EXPECT_EQ(text(CaptionPieces("2*3 stays")), " 2*3 stays");
    const std::vector<CaptionPiece> pieces = CaptionPieces("*off*,");
    ASSERT_EQ(pieces.size(), 2u);
    EXPECT_TRUE(pieces[0].emphasised);
    EXPECT_FALSE(pieces[1].emphasised);
    EXPECT_TRUE(pieces[1].joined);
}
