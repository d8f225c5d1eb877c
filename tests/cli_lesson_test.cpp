// CLI tests of the lesson commands and options: --lesson/--step checks, `pelab lesson check`,
// `notes`, `widgets` and `handout`.
#include "cli_fixture.h"
#include "model_fixtures.h"

// A bad lesson is refused before any window, naming the step and the field.
TEST_F(Cli, BadLessonExitsTwoNamingTheStep) {
    const fs::path lesson = dir / "lesson.json";
    std::ofstream(lesson) << R"({"title": "t", "steps": [{"caption": "a"},
        {"caption": "b", "scene": {"base": 1}}]})";
    const Result r = Run({"--lesson", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--lesson"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("step 2: field \"base\""), std::string::npos) << r.err;
}

// --lesson with a bad file lists every problem, one per line, as `lesson check` does.
TEST_F(Cli, BadLessonListsEveryProblem) {
    const fs::path lesson = dir / "lesson.json";
    std::ofstream(lesson) << R"({"title": "t", "steps": [{"caption": "a", "scene": {"pos_a": -1}},
        {"caption": "b", "scene": {"base": 1}}]})";
    const Result r = Run({"--lesson", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    const std::size_t first = r.err.find("step 1: field \"pos_a\"");
    const std::size_t second = r.err.find("step 2: field \"base\"");
    EXPECT_NE(first, std::string::npos) << r.err;
    EXPECT_NE(second, std::string::npos) << r.err;
    EXPECT_LT(first, second) << r.err;
}

// `pelab screenshot --lesson F --step N`: a step past the end, a bad lesson, or both --lesson and
// --panel exit 2 before any window, saying which.
TEST_F(Cli, LessonScreenshotOptionsAreChecked) {
    const fs::path lesson = dir / "two.json";
    std::ofstream(lesson) << R"({"title": "t", "steps": [{"caption": "a"}, {"caption": "b"}]})";
    const fs::path out = dir / "slide.png";
    const Result past =
        Run({"screenshot", "--lesson", lesson.string(), "--step", "3", "--out", out.string()},
            {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(past.exit_code, 2) << past.err;
    EXPECT_NE(past.err.find("the lesson has 2 steps"), std::string::npos) << past.err;
    const Result both =
        Run({"screenshot", "--lesson", lesson.string(), "--panel", "waves", "--out", out.string()});
    EXPECT_EQ(both.exit_code, 2) << both.err;
    EXPECT_NE(both.err.find("--lesson and --panel"), std::string::npos) << both.err;
    const Result same = Run({"screenshot", "--lesson", lesson.string(), "--out", lesson.string()});
    EXPECT_EQ(same.exit_code, 2) << same.err;
    EXPECT_FALSE(fs::exists(out));
}

// A lesson value of the wrong JSON type once quit with "unexpected error" (a type_error thrown
// while reading "playing"). Every field, of the step, of the lesson and of the step's scene, is
// read by type: exit 2 before any window, with a message naming the step and the field.
TEST_F(Cli, WrongTypesInALessonExitTwoNamingStepAndField) {
    const auto lesson_with = [](const std::string& step) {
        return R"({"format":"pelab-lesson","version":1,"title":"t","steps":[)" + step + "]}";
    };
    const std::vector<std::pair<std::string, std::string>> cases = {
        {lesson_with(R"({"caption":"x","scene":{"playing":1}})"),
         "step 1: field \"playing\": must be true or false (got 1)"},
        {lesson_with(R"({"caption":"x","scene":{"playing":"yes"}})"),
         "step 1: field \"playing\": must be true or false (got \"yes\")"},
        {lesson_with(R"({"caption":"x","scene":{"playing":null}})"),
         "step 1: field \"playing\": must be true or false (got null)"},
        {lesson_with(R"({"caption":"x"},{"caption":"y","scene":{"playing":1},"lock":["pos_a"]})"),
         "step 2: field \"playing\""},
        {lesson_with(R"({"caption":5})"), "step 1: field \"caption\": must be text"},
        {lesson_with(R"({"caption":"x","scene":[]})"),
         "step 1: field \"scene\": must be an object"},
        {lesson_with(R"({"caption":"x","present":7})"), "step 1: field \"present\": must be text"},
        {lesson_with(R"({"caption":"x","open":"waves"})"),
         "step 1: field \"open\": must be a list"},
        {lesson_with(R"({"caption":"x","open":[1]})"), "step 1: field \"open\": each item"},
        {lesson_with(R"({"caption":"x","highlight":{}})"), "step 1: field \"highlight\""},
        {lesson_with(R"({"caption":"x","lock":[null]})"), "step 1: field \"lock\""},
        {lesson_with(R"("just text")"), "step 1: must be an object"},
        {lesson_with(R"({"caption":"x","caption":"y"})"),
         "step 1: field \"caption\" appears twice"},
        {lesson_with(R"({"caption":"x","scene":{"d_model":8,"d_model":8}})"),
         "step 1: field \"scene\": field \"d_model\" appears twice"},
        {lesson_with(R"({"caption":"a\u0000b"})"), "step 1: field \"caption\": text holds a NUL"},
        {R"({"title":["t"],"steps":[{"caption":"x"}]})", "field \"title\": must be text"},
        {R"({"title":"t","steps":{"caption":"x"}})", "field \"steps\": must be a list"},
        {R"({"title":"t","version":"1","steps":[{"caption":"x"}]})", "field \"version\""},
    };
    for (const auto& [text, mention] : cases) {
        const fs::path lesson = dir / "lesson.json";
        std::ofstream(lesson, std::ios::trunc) << text;
        const fs::path state = dir / "state.json";
        const Result r = Run({"--lesson", lesson.string(), "--state-out", state.string()},
                             {"DISPLAY", "WAYLAND_DISPLAY"});
        EXPECT_EQ(r.exit_code, 2) << text << "\n" << r.err;
        EXPECT_NE(r.err.find(mention), std::string::npos) << text << "\n" << r.err;
        EXPECT_EQ(r.err.find("unexpected"), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        // The same file as a slide: the same message, no picture.
        const Result slide =
            Run({"screenshot", "--lesson", lesson.string(), "--out", (dir / "slide.png").string()},
                {"DISPLAY", "WAYLAND_DISPLAY"});
        EXPECT_EQ(slide.exit_code, 2) << text << "\n" << slide.err;
        EXPECT_NE(slide.err.find(mention), std::string::npos) << slide.err;
        EXPECT_FALSE(fs::exists(dir / "slide.png"));
    }
}

// --step reads numbers the way every other option does: " 2", 0x2 and 010 (octal in CLI11) are
// refused before any window.
TEST_F(Cli, StepIsAPlainDecimalLikeEveryOtherNumber) {
    const fs::path lesson = dir / "two.json";
    std::ofstream(lesson) << R"({"title": "t", "steps": [{"caption": "a"}, {"caption": "b"}]})";
    for (const std::string step : {" 2", "0x2", "010", "2 ", "2.5", "1e0x"}) {
        const Result r = Run({"screenshot", "--lesson", lesson.string(), "--step", step, "--out",
                              (dir / "slide.png").string()},
                             {"DISPLAY", "WAYLAND_DISPLAY"});
        EXPECT_EQ(r.exit_code, 2) << "[" << step << "] " << r.err;
        EXPECT_NE(r.err.find("--step"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir / "slide.png"));
    }
}

// A misspelt highlight name once outlined nothing, silently: it is refused when the lesson is
// opened, naming the step and the name, with the declared names closest to it.
TEST_F(Cli, UnknownHighlightNamesAreRefusedWithCloseMatches) {
    const fs::path lesson = dir / "lesson.json";
    std::ofstream(lesson) << R"({"title": "t", "steps": [{"caption": "a"},
        {"caption": "b", "present": "compare", "highlight": ["compare.dot_prodct"]}]})";
    const Result r = Run({"--lesson", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("step 2: field \"highlight\": unknown widget \"compare.dot_prodct\" "
                         "(did you mean \"compare.dot_product\""),
              std::string::npos)
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    // Numbered names match their declared pattern (clocks.summary_pair_<i>).
    std::ofstream(lesson, std::ios::trunc) << R"({"title": "t", "steps": [{"caption": "a",
        "present": "clocks", "highlight": ["clocks.summary_pair_3"]},
        {"caption": "b", "present": "quiz", "highlight": ["quiz.choice2"]}]})";
    const Result ok =
        Run({"screenshot", "--lesson", lesson.string(), "--out", (dir / "slide.png").string()},
            {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(ok.err.find("highlight"), std::string::npos) << ok.err; // fails later: no display
}

// `pelab lesson check` lists every problem, in step order, one per line, and exits 2; the same
// checks as opening the lesson (the expected messages are the lesson format's rules: fields,
// types, the 160-character caption, highlights of the panel the step shows).
TEST_F(Cli, LessonCheckListsEveryProblemInStepOrder) {
    const fs::path lesson = dir / "bad.json";
    std::ofstream(lesson) << R"({"format": "pelab-lesson", "version": 1, "title": "bad", "steps": [
        {"caption": "ok", "present": "waves", "highlight": ["compare.table"]},
        {"caption": "x", "present": "nope"},
        {"caption": "y", "scene": {"pos_a": -3}, "fresh": "yes"},
        {"caption": "z", "colour": 3},
        {"caption": ")" + std::string(161, 'w') +
                                 R"("},
        {"caption": "fine", "present": "compare", "highlight": ["compare.table"]}]})";
    const Result r = Run({"lesson", "check", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    std::vector<std::string> lines;
    std::istringstream out(r.out);
    for (std::string line; std::getline(out, line);)
        lines.push_back(line);
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"step 1:", "is in the compare panel, which this step does not show"},
        {"step 2:", "field \"present\""},
        {"step 3:", "field \"fresh\": must be true or false"},
        {"step 3:", "field \"pos_a\""},
        {"step 4:", "unknown field \"colour\" (a step has caption, notes, scene, present, open, "
                    "highlight, lock and fresh)"},
        {"step 5:", "161 characters; the lesson bar shows at most 160"},
        {"", "6 problems"}};
    ASSERT_EQ(lines.size(), expected.size()) << r.out;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_EQ(lines[k].rfind(lesson.string() + ": " + expected[k].first, 0), 0u) << lines[k];
        EXPECT_NE(lines[k].find(expected[k].second), std::string::npos) << lines[k];
    }
    // A file that is not there, and one that is not JSON: one problem each, exit 2.
    const Result missing = Run({"lesson", "check", (dir / "none.json").string()});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.out.find("1 problem"), std::string::npos) << missing.out;
    std::ofstream(dir / "text.json") << "not json";
    EXPECT_EQ(Run({"lesson", "check", (dir / "text.json").string()}).exit_code, 2);
}

// Every shipped lesson passes its own check, and says how many steps it has.
TEST_F(Cli, LessonCheckPassesTheShippedLessons) {
    int lessons = 0;
    for (const auto& entry :
         fs::directory_iterator(fs::path(pelab_test::SourceDir()) / "assets/lessons")) {
        if (entry.path().extension() != ".json") continue;
        std::vector<std::string> arguments = {"lesson", "check", entry.path().string()};
        std::ifstream in(entry.path());
        const nlohmann::json doc = nlohmann::json::parse(in);
        if (doc.contains("needs_model")) {
            // Refused without the checkpoint it runs on, saying what to pass; run on the fixture.
            const Result without = Run(arguments);
            EXPECT_EQ(without.exit_code, 2) << without.out;
            EXPECT_NE(without.out.find("--model FOLDER"), std::string::npos) << without.out;
            // A GPT-2 table (a Llama's attention) without the rest of the model: each step's view
            // cannot run.
            const bool gpt2 = doc["needs_model"] == "gpt2";
            pelab_test::WriteModelFixtures(dir / "others");
            const Result table_only = Run({"lesson", "check", entry.path().string(), "--model",
                                           (dir / "others" / (gpt2 ? "gpt2" : "llama")).string()});
            EXPECT_EQ(table_only.exit_code, 2) << table_only.out;
            EXPECT_NE(table_only.out.find("step 1: the Real model view cannot run"),
                      std::string::npos)
                << table_only.out;
            // The other family: refused by name.
            pelab_test::WriteGpt2RunFixture(dir / "gpt2-run");
            pelab_test::WriteLlamaRunFixture(dir / "llama-run");
            const Result other = Run({"lesson", "check", entry.path().string(), "--model",
                                      (dir / (gpt2 ? "llama-run" : "gpt2-run")).string()});
            EXPECT_EQ(other.exit_code, 2) << other.out;
            EXPECT_NE(other.out.find(gpt2 ? "(the model given is Llama's)"
                                          : "(the model given is GPT-2's)"),
                      std::string::npos)
                << other.out;
            arguments.push_back("--model");
            arguments.push_back((dir / (gpt2 ? "gpt2-run" : "llama-run")).string());
        }
        const Result r = Run(arguments);
        EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("steps, no problems\n"), std::string::npos) << r.out;
        // No warning either: every highlight whole on the projector, every number on the slide.
        EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
        ++lessons;
    }
    EXPECT_GE(lessons, 5);
}

// `pelab lesson notes` prints each step's caption (without the emphasis stars) and its notes,
// wrapped for a terminal; a step without notes says so.
TEST_F(Cli, LessonNotesPrintsCaptionsAndNotes) {
    const fs::path lesson = dir / "notes.json";
    std::ofstream(lesson) << R"({"format": "pelab-lesson", "version": 1, "title": "Two steps",
        "steps": [{"caption": "The *first* step.", "present": "waves",
                   "notes": "Ask the room what the orange line is. )"
                          << std::string(40, 'x') << R"( then wait for an answer before going on."},
                  {"caption": "The second step."}]})";
    const Result r = Run({"lesson", "notes", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("Two steps (2 steps)\n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("Step 1 of 2 (waves)\n  The first step.\n  Notes:\n    Ask the room"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Step 2 of 2\n  The second step.\n  (no notes)"), std::string::npos)
        << r.out;
    std::istringstream out(r.out);
    for (std::string line; std::getline(out, line);)
        EXPECT_LE(line.size(), 78u) << "wrapped for a terminal: " << line;
    // A bad lesson: its first problem, exit 2, and where to see them all.
    std::ofstream(dir / "bad.json") << R"({"title": "t", "steps": [{"caption": 3}]})";
    const Result bad = Run({"lesson", "notes", (dir / "bad.json").string()});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("pelab lesson check"), std::string::npos) << bad.err;
}

// `pelab lesson widgets` lists the names a step may highlight: the waves panel's include the
// spectrum and the base slider, and every line is the panel's; all panels with
// their titles; an unknown panel is refused with the list.
TEST_F(Cli, LessonWidgetsListsTheDeclaredNames) {
    const Result waves = Run({"lesson", "widgets", "waves"}, {"DISPLAY", "WAYLAND_DISPLAY"});
    ASSERT_EQ(waves.exit_code, 0) << waves.err;
    std::istringstream out(waves.out);
    std::vector<std::string> names;
    for (std::string line; std::getline(out, line);) {
        // "waves.base   the …": the name, then what it outlines, in a column.
        const std::size_t space = line.find(' ');
        ASSERT_NE(space, std::string::npos) << "no description: " << line;
        EXPECT_GT(line.find_first_not_of(' ', space), space + 1) << line;
        names.push_back(line.substr(0, space));
    }
    for (const char* name : {"waves.spectrum", "waves.base", "waves.wave_plot"})
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    for (const std::string& name : names)
        EXPECT_EQ(name.rfind("waves.", 0), 0u) << name;
    const Result all = Run({"lesson", "widgets"});
    ASSERT_EQ(all.exit_code, 0);
    EXPECT_NE(all.out.find("order (Order: does the model see word order?)\n  order."),
              std::string::npos)
        << all.out;
    EXPECT_NE(all.out.find("  clocks.shift_k "), std::string::npos);
    EXPECT_NE(all.out.find("  clocks.summary_pair_<i> "), std::string::npos);
    EXPECT_NE(all.out.find("<i> stands for a number"), std::string::npos);
    const Result unknown = Run({"lesson", "widgets", "wave"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("known panels: waves"), std::string::npos) << unknown.err;
    // An empty name is not "every panel".
    const Result empty = Run({"lesson", "widgets", ""});
    EXPECT_EQ(empty.exit_code, 2) << empty.out;
    EXPECT_NE(empty.err.find("needs a panel id (got nothing)"), std::string::npos) << empty.err;
    EXPECT_EQ(empty.out, "");
}

// A caption's number must be in what the outlined widgets show, not anywhere in their panel:
// the similarity line only names the similarity, the cosine block shows its value. At d_model
// 512 and base 10000, positions 3 and 5 have cosine (2/512) Σ_i cos(2·10000^(−2i/512)) = 0.9052.
TEST_F(Cli, LessonCheckLooksForQuotedNumbersInTheOutlinedWidgets) {
    const fs::path lesson = dir / "numbers.json";
    std::ofstream(lesson) << R"({"format": "pelab-lesson", "version": 1, "title": "t", "steps": [
        {"caption": "Positions 3 and 5 have cosine 0.905.", "present": "compare",
         "scene": {"d_model": 512, "pos_a": 3, "pos_b": 5}, "highlight": ["compare.similarity"]},
        {"caption": "Positions 3 and 5 have cosine 0.905.", "present": "compare",
         "highlight": ["compare.cosine", "compare.similarity"]}]})";
    const Result r = Run({"lesson", "check", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("warning: step 1: the caption quotes 0.905, a number none of the "
                         "outlined widgets shows (compare.similarity)"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("step 2:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("2 steps, no problems, 1 warning\n"), std::string::npos) << r.out;
}

// A highlight that outlines nothing is said with a guess that fits its name: a number past the
// end for a numbered one, another mode or size of the panel for the others (the calculator's
// chart is not drawn on the projector).
TEST_F(Cli, LessonCheckGuessesANumberOnlyForNumberedNames) {
    const fs::path lesson = dir / "nothing.json";
    std::ofstream(lesson) << R"({"format": "pelab-lesson", "version": 1, "title": "t", "steps": [
        {"caption": "The chart.", "present": "calculator", "highlight": ["calculator.chart"]},
        {"caption": "A face past the end.", "present": "clocks", "scene": {"d_model": 128},
         "highlight": ["clocks.summary_pair_999"]}]})";
    const Result r = Run({"lesson", "check", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("step 1: calculator.chart is not drawn at this step's settings, so it "
                         "outlines nothing (it is drawn only in another mode or size"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("step 2: clocks.summary_pair_999 is not drawn at this step's settings, "
                         "so it outlines nothing (a number past the end"),
              std::string::npos)
        << r.out;
}

// The handout's options are checked before any window: a theme, a size, a lesson that is bad.
TEST_F(Cli, LessonHandoutRefusesBadOptionsBeforeAnyWindow) {
    const fs::path lesson = dir / "one.json";
    std::ofstream(lesson) << R"({"title": "t", "steps": [{"caption": "a"}]})";
    const fs::path out = dir / "handout";
    for (const auto& [args, mention] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"--theme", "pink"}, "--theme"},
             {{"--size", "wide"}, "--size"},
             // Numbers out of range get the range, not the shape.
             {{"--size", "100000x100000"},
              "each side must be a whole number of pixels in [64, 8192]"},
             {{"--size", "-5x64"}, "each side must be a whole number of pixels in [64, 8192]"},
             {{"--font-scale", "9"}, "--font-scale"}}) {
        std::vector<std::string> command = {"lesson", "handout", lesson.string(), "--out",
                                            out.string()};
        command.insert(command.end(), args.begin(), args.end());
        const Result r = Run(command, {"DISPLAY", "WAYLAND_DISPLAY"});
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(out));
    }
    std::ofstream(dir / "bad.json") << R"({"title": "t", "steps": [{"caption": "a", "x": 1}]})";
    const Result bad =
        Run({"lesson", "handout", (dir / "bad.json").string(), "--out", out.string()},
            {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
    EXPECT_NE(bad.err.find("unknown field \"x\""), std::string::npos) << bad.err;
    EXPECT_FALSE(fs::exists(out));
    // Without a display the handout is drawn in software (it failed and left an empty folder).
    const Result no_display =
        Run({"lesson", "handout", lesson.string(), "--out", out.string(), "--size", "320x240"},
            {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(no_display.exit_code, 0) << no_display.err;
    EXPECT_NE(no_display.err.find("in software"), std::string::npos) << no_display.err;
    EXPECT_GT(fs::file_size(out / "step-01.png"), 1000u);
    EXPECT_NE(ReadAll(out / "index.html").find("step-01.png"), std::string::npos);
    fs::remove_all(out);
    // --out - is no folder; a link to nowhere is said to be one (it was "File exists").
    const Result dash = Run({"lesson", "handout", lesson.string(), "--out", "-"});
    EXPECT_EQ(dash.exit_code, 2) << dash.err;
    EXPECT_NE(dash.err.find("cannot go to standard output"), std::string::npos) << dash.err;
    EXPECT_FALSE(fs::exists("-"));
    fs::create_symlink(dir / "nowhere", dir / "dangling");
    const Result dangling =
        Run({"lesson", "handout", lesson.string(), "--out", (dir / "dangling").string()});
    EXPECT_EQ(dangling.exit_code, 2) << dangling.err;
    EXPECT_NE(dangling.err.find("symbolic link to a file that does not exist"), std::string::npos)
        << dangling.err;
    // And the screenshot's theme.
    const Result theme = Run({"screenshot", "--theme", "sepia", "--out", (dir / "s.png").string()},
                             {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(theme.exit_code, 2);
    EXPECT_NE(theme.err.find("dark, light, high-contrast"), std::string::npos) << theme.err;
    // And the window's (refused before any window opens).
    const Result window = Run({"--theme", "sepia"}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(window.exit_code, 2);
    EXPECT_NE(window.err.find("--theme: must be one of dark, light, high-contrast"),
              std::string::npos)
        << window.err;
    // --notes belongs to a lesson's step.
    const Result notes = Run({"screenshot", "--notes", "--out", (dir / "s.png").string()},
                             {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(notes.exit_code, 2);
    EXPECT_NE(notes.err.find("--notes: only with --lesson"), std::string::npos) << notes.err;
}

// On a slide the order panel takes sentences of at most 8 words (its matrices stay readable at
// 1024×768 ×2): lesson check refuses a step that presents it with more, and accepts 8.
TEST_F(Cli, LessonCheckKeepsTheOrderPanelsSentencesShort) {
    const fs::path lesson = dir / "order.json";
    std::ofstream(lesson) << R"({"format": "pelab-lesson", "version": 1, "title": "t", "steps": [
        {"caption": "eight", "present": "order",
         "scene": {"sentence_a": "one two three four five six seven eight"}},
        {"caption": "nine", "scene": {"sentence_b": "a b c d e f g h i"}},
        {"caption": "elsewhere", "present": "waves"}]})";
    const Result r = Run({"lesson", "check", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("step 2: field \"scene\": sentence_b has 9 words; on a slide the order "
                         "panel takes at most 8"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(": 1 problem\n"), std::string::npos) << r.out;
}

// What would surprise a teacher in class is a warning (the lesson still opens, exit 0): a number
// in a caption that none of the step's readouts holds, and highlights that are not whole on the
// projector even drawn smaller. The numbers: ω_10 = 10000^(−20/512) = 0.6978 at d 512, so 0.70
// is on the slide and 0.75 is not; pair 10's wavelength 2π/0.6978 = 9.0045, so "about 9".
TEST_F(Cli, LessonCheckWarnsOfNumbersAndHighlightsTheSlideDoesNotShow) {
    const fs::path lesson = dir / "warnings.json";
    std::ofstream(lesson) << R"({"format": "pelab-lesson", "version": 1, "title": "t", "steps": [
        {"caption": "Pair 10 turns ω ≈ 0.70: one wave every 9 positions.", "present": "waves",
         "scene": {"d_model": 512, "base": 10000, "pair": 10},
         "highlight": ["waves.pair_slider", "waves.readouts"]},
        {"caption": "Pair 10 turns ω ≈ 0.75 and 2π/ω ≈ 8.4 positions.", "present": "waves",
         "highlight": ["waves.readouts"]},
        {"caption": "The circle and the matrix of one turn.", "present": "rotation",
         "highlight": ["rotation.circle", "rotation.matrix"]},
        {"caption": "The summary face of a pair past the end.", "present": "clocks",
         "scene": {"d_model": 128},
         "highlight": ["clocks.summary_pair_999", "clocks.grid"]},
        {"caption": "Everything at once.", "present": "candidates",
         "highlight": ["candidates.table", "candidates.values", "candidates.drowning",
                       "candidates.grid"]}]})";
    const Result r = Run({"lesson", "check", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("step 1:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("warning: step 2: the caption quotes 0.75,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("warning: step 2: the caption quotes 8.4,"), std::string::npos) << r.out;
    // A teacher's own pair of highlights: drawn smaller, both whole; no warning.
    EXPECT_EQ(r.out.find("step 3:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("warning: step 4: clocks.summary_pair_999 is not drawn at this step's "
                         "settings, so it outlines nothing"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("clocks.grid"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("warning: step 5: at 1024x768 text x2, "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("% in view (drawn at 0.6 of the text size"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("5 steps, no problems, 4 warnings\n"), std::string::npos) << r.out;
}

// A misspelt field of a step gets the closest names, as a misspelt widget does.
TEST_F(Cli, AMisspeltStepFieldGetsDidYouMean) {
    const fs::path lesson = dir / "typo.json";
    std::ofstream(lesson) << R"({"format": "pelab-lesson", "version": 1, "title": "t", "steps": [
        {"caption": "one", "present": "waves", "higlight": ["waves.spectrum"]}]})";
    const Result r = Run({"lesson", "check", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("unknown field \"higlight\" (did you mean \"highlight\"?"),
              std::string::npos)
        << r.out;
}

// One step with many mistakes: every one is listed, not only the first.
TEST_F(Cli, LessonCheckListsEveryProblemOfOneStep) {
    const fs::path lesson = dir / "many.json";
    std::ofstream(lesson) << R"({"format": "pelab-lesson", "version": 1, "title": "t", "steps": [
        {"caption": ")" + std::string(170, 'w') +
                                 R"(", "present": "nope",
         "highlight": "waves.base", "scene": {"pos_a": "three"}, "lock": [3]}]})";
    const Result r = Run({"lesson", "check", lesson.string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 2);
    for (const char* mention : {"field \"caption\": 170 characters", "field \"present\"",
                                "field \"highlight\": must be a list", "field \"lock\"",
                                "field \"pos_a\"", ": 5 problems"})
        EXPECT_NE(r.out.find(mention), std::string::npos) << mention << "\n" << r.out;
}

// Text from a file never reaches a terminal raw: a lesson written on Windows (CR LF) or with
// lone CRs reads with line feeds; ESC, BEL, an OSC sequence or a C1 control character in any
// text field of a lesson or a quiz is refused by `lesson check` naming the field and the
// character; `lesson notes` prints what it reads escaped.
TEST_F(Cli, ControlCharactersNeverReachTheTerminal) {
    const fs::path windows = dir / "windows.json";
    std::ofstream(windows, std::ios::binary)
        << "{\"title\": \"Line\\r\\nbreaks\", \"steps\": [{\"caption\": \"one\\r\\ntwo\\rthree\","
           " \"notes\": \"tab\\there\"}]}";
    const Result notes = Run({"lesson", "notes", windows.string()});
    ASSERT_EQ(notes.exit_code, 0) << notes.err;
    EXPECT_EQ(notes.out.find('\r'), std::string::npos);
    EXPECT_NE(notes.out.find("Line\nbreaks"), std::string::npos) << notes.out;
    EXPECT_NE(notes.out.find("tab\there"), std::string::npos) << notes.out;
    for (const auto& [field, value, code] :
         std::vector<std::tuple<std::string, std::string, std::string>>{
             {"notes", "\\u001b[2J clear", "U+001B"},
             {"notes", "\\u001b]0;retitled\\u0007", "U+001B"},
             {"caption", "bell\\u0007", "U+0007"},
             {"caption", "csi\\u009b2J", "U+009B"},
             {"title", "del\\u007f", "U+007F"}}) {
        const fs::path lesson = dir / "hostile.json";
        const std::string title = field == "title" ? value : "t";
        const std::string caption = field == "caption" ? value : "c";
        const std::string step_notes = field == "notes" ? value : "n";
        std::ofstream(lesson, std::ios::trunc)
            << "{\"title\": \"" << title << "\", \"steps\": [{\"caption\": \"" << caption
            << "\", \"notes\": \"" << step_notes << "\"}]}";
        const Result check = Run({"lesson", "check", lesson.string()});
        EXPECT_EQ(check.exit_code, 2) << field << ": " << check.out;
        EXPECT_NE(check.out.find("field \"" + field + "\": holds the control character " + code),
                  std::string::npos)
            << check.out;
        const Result printed = Run({"lesson", "notes", lesson.string()});
        EXPECT_EQ(printed.exit_code, 2);
        for (const std::string& stream : {printed.out, printed.err, check.out})
            for (const char c : stream)
                EXPECT_FALSE(c == '\x1b' || c == '\x07' || c == '\r') << field << ": " << stream;
    }
    // A quiz's texts: OpenFileTest.WrongTypesAreAMessageAndChangeNothing.
}
