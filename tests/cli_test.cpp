// CLI tests: the real `pelab` binary's help, version, refused arguments, messages and the
// commands without a display. The commands each have a file: cli_export_test.cpp (export pe and
// attention), cli_files_test.cpp (what is written where, and write faults),
// cli_lesson_test.cpp (lesson check, notes, widgets, handout), cli_panels_test.cpp (readouts,
// panels, train, document pictures).
#include "cli_fixture.h"

TEST_F(Cli, HelpListsCommandsAndExitsZero) {
    const Result r = Run({"--help"});
    EXPECT_EQ(r.exit_code, 0);
    for (const char* word : {"export", "screenshot", "--font-scale", "--fullscreen"})
        EXPECT_NE(r.out.find(word), std::string::npos) << word;
    const Result sub = Run({"export", "pe", "--help"});
    EXPECT_EQ(sub.exit_code, 0);
    EXPECT_NE(sub.out.find("--max-len"), std::string::npos);
}

TEST_F(Cli, VersionPrintsNameAndVersion) {
    const Result r = Run({"--version"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out.rfind("pelab ", 0), 0u) << r.out;
}

// A mistyped command is named as typed, at every level, with the closest command and the list.
TEST_F(Cli, UnknownCommandsAreNamedAtEveryLevel) {
    struct Case {
        std::vector<std::string> args;
        std::string says;
    };
    const std::vector<Case> cases = {
        {{"modle", "inspect", "x"},
         "unknown command \"modle\" (did you mean \"model\"?); pelab's commands are"},
        {{"--font-scale", "2", "scrrenshot"}, "unknown command \"scrrenshot\" (did you mean"},
        {{"frobnicate"}, "unknown command \"frobnicate\"; pelab's commands are export,"},
        {{"model", "inspct", "x"},
         "unknown command \"inspct\" (did you mean \"inspect\"?); pelab model's commands are "
         "inspect, run or tokenize (see pelab model --help)"},
        {{"export", "attentoin"}, "unknown command \"attentoin\" (did you mean \"attention\"?)"},
        {{"model"}, "a command is required after pelab model: inspect, run or tokenize"},
        {{"model", "inspect", "a", "b"},
         "unexpected argument \"b\" for pelab model inspect (see pelab model inspect --help)"},
    };
    for (const Case& each : cases) {
        const Result r = Run(each.args);
        EXPECT_EQ(r.exit_code, 2) << each.says;
        EXPECT_NE(r.err.find(each.says), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("were not expected"), std::string::npos) << r.err;
    }
}

TEST_F(Cli, BadScreenshotAndGuiArgumentsExitTwo) {
    ExpectUsageError({"screenshot", "--size", "10x10"}, "--size");
    ExpectUsageError({"screenshot", "--size", "wide"}, "--size");
    ExpectUsageError({"screenshot", "--panel", "bogus"}, "--panel");
    const Result r = Run({"--font-scale", "9"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--font-scale"), std::string::npos) << r.err;
}

TEST_F(Cli, NoDisplayIsExitOneWithMessage) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{},
          std::vector<std::string>{"screenshot", "--out", (dir / "s.png").string()}}) {
        const Result r = Run(args, {"DISPLAY", "WAYLAND_DISPLAY"});
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_NE(r.err.find("display"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir / "s.png"));
    }
}

// Regression (reliability issue): a scene nested 10 000 deep crashed the app (stack overflow
// under AddressSanitizer), and 1e999 gave "unexpected error" with exit 1. Both are refused
// with exit 2 naming the field, before any window is opened (no display needed).
TEST_F(Cli, HostileScenesAreRefusedBeforeAnyWindow) {
    const struct {
        std::string text;
        std::string mention;
    } cases[] = {
        {"{\"d_model\": " + std::string(10000, '[') + std::string(10000, ']') + "}",
         "nested deeper than 32 levels in field \"d_model\""},
        {"{\"open_panels\": [" + std::string(5000, '[') + std::string(5000, ']') + "]}",
         "\"open_panels\""},
        {"{\"base\": 1e999}", "does not fit a double in field \"base\""},
        {"{\"pos_a\": -1e999}", "\"pos_a\""},
        {std::string("{\"d_model\": 64}\0{}", 18), "NUL byte"},
    };
    for (const auto& c : cases) {
        const fs::path scene = dir / "hostile.json";
        std::ofstream(scene, std::ios::binary) << c.text;
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"--scene", scene.string()},
              std::vector<std::string>{"screenshot", "--scene", scene.string(), "--out",
                                       (dir / "s.png").string()}}) {
            const Result r = Run(args, {"DISPLAY", "WAYLAND_DISPLAY"});
            EXPECT_EQ(r.exit_code, 2) << c.mention << "\n" << r.err.substr(0, 300);
            EXPECT_NE(r.err.find(c.mention), std::string::npos) << r.err.substr(0, 300);
            EXPECT_LT(r.err.size(), 400u);
            EXPECT_FALSE(fs::exists(dir / "s.png"));
        }
    }
    const Result zero = Run({"--scene", "/dev/zero"}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(zero.exit_code, 2);
    EXPECT_NE(zero.err.find("not a regular file"), std::string::npos) << zero.err;
}

TEST_F(Cli, FloatOptionsRefuseNanAndEmptyPanel) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--font-scale", "nan"},
          std::vector<std::string>{"screenshot", "--font-scale", "nan", "--out", "x.png"},
          std::vector<std::string>{"screenshot", "--panel", "", "--out", "x.png"}}) {
        const Result r = Run(args, {"DISPLAY", "WAYLAND_DISPLAY"});
        EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1] << "\n" << r.err;
    }
}

TEST_F(Cli, MessagesAreOneLineWhateverTheInput) {
    const Result path = Run({"readouts", "--out", "/nonexistent\x1b[31m\n/x.json"});
    EXPECT_EQ(path.exit_code, 1);
    EXPECT_EQ(std::count(path.err.begin(), path.err.end(), '\n'), 1) << path.err;
    EXPECT_EQ(path.err.find('\x1b'), std::string::npos) << path.err;
    const Result option = Run({"export", "pe", "--max-len", "\x1b[31m5", "--d-model", "4"});
    EXPECT_EQ(option.exit_code, 2);
    EXPECT_EQ(std::count(option.err.begin(), option.err.end(), '\n'), 1) << option.err;
    EXPECT_EQ(option.err.find('\x1b'), std::string::npos) << option.err;
}

// Each message names the file and the real cause.
TEST_F(Cli, MessagesNameTheFileAndTheRealCause) {
    // A base past the range is not "every pair turns at the same speed".
    const Result big = Run({"export", "pe", "--max-len", "2", "--d-model", "4", "--base", "1e308"});
    EXPECT_EQ(big.exit_code, 2);
    EXPECT_NE(big.err.find("at most 1e+12"), std::string::npos) << big.err;
    EXPECT_EQ(big.err.find("same speed"), std::string::npos) << big.err;
    const Result one = Run({"export", "pe", "--max-len", "2", "--d-model", "4", "--base", "1"});
    EXPECT_NE(one.err.find("same speed"), std::string::npos) << one.err;
    // 1e309 does not fit a double: said so, not "got inf".
    const Result inf = Run({"export", "pe", "--max-len", "2", "--d-model", "4", "--base", "1e309"});
    EXPECT_EQ(inf.exit_code, 2);
    EXPECT_NE(inf.err.find("1e309"), std::string::npos) << inf.err;
    EXPECT_EQ(inf.err.find("inf"), std::string::npos) << inf.err;
    // Writing onto /dev/full names the file and the cause, for every format and for stdout.
    for (const std::string format : {"csv", "json", "npy"}) {
        const Result full = Run({"export", "pe", "--max-len", "4096", "--d-model", "64", "--format",
                                 format, "--out", "/dev/full"});
        EXPECT_EQ(full.exit_code, 1) << format;
        EXPECT_NE(full.err.find("\"/dev/full\""), std::string::npos) << full.err;
        EXPECT_NE(full.err.find("No space left on device"), std::string::npos) << full.err;
    }
    const Result out =
        Run({"export", "pe", "--max-len", "4096", "--d-model", "64"}, {}, {}, "/dev/full");
    EXPECT_NE(out.err.find("cannot write to standard output: No space left on device"),
              std::string::npos)
        << out.err;
    // A missing file is "No such file"; one that cannot be read is "Permission denied" (checked
    // as an unprivileged user: root reads everything).
    const Result missing = Run({"readouts", "--scene", (dir / "none.json").string()});
    EXPECT_NE(missing.err.find("No such file"), std::string::npos) << missing.err;
    if (::geteuid() == 0) {
        const fs::path locked = dir / "locked";
        fs::create_directories(locked / "inner");
        std::ofstream(locked / "inner" / "scene.json") << "{}";
        fs::permissions(locked, fs::perms::owner_all);
        fs::permissions(dir, fs::perms::all);
        const pid_t pid = fork();
        if (pid == 0) {
            const std::string err = (dir / "nobody.txt").string();
            if (!std::freopen(err.c_str(), "w", stderr) || setgid(65534) != 0 || setuid(65534) != 0)
                _exit(126);
            std::string binary = pelab_test::PelabBinary();
            std::string scene = (locked / "inner" / "scene.json").string();
            std::string out_file = (locked / "inner" / "out.csv").string();
            const pid_t reader = fork();
            if (reader == 0) {
                std::vector<char*> argv = {binary.data(), const_cast<char*>("readouts"),
                                           const_cast<char*>("--scene"), scene.data(), nullptr};
                execv(binary.c_str(), argv.data());
                _exit(127);
            }
            int status = 0;
            waitpid(reader, &status, 0);
            std::vector<char*> argv = {binary.data(),           const_cast<char*>("export"),
                                       const_cast<char*>("pe"), const_cast<char*>("--max-len"),
                                       const_cast<char*>("2"),  const_cast<char*>("--d-model"),
                                       const_cast<char*>("2"),  const_cast<char*>("--out"),
                                       out_file.data(),         nullptr};
            execv(binary.c_str(), argv.data());
            _exit(127);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) >= 126)
            GTEST_SKIP() << "cannot run pelab as an unprivileged user here";
        const std::string err = ReadAll(dir / "nobody.txt");
        EXPECT_NE(err.find("scene.json\": Permission denied"), std::string::npos) << err;
        EXPECT_NE(err.find("inner\": Permission denied"), std::string::npos) << err;
        EXPECT_EQ(err.find("does not exist"), std::string::npos) << err;
        EXPECT_EQ(err.find("No such file"), std::string::npos) << err;
    }
}

// A PNG figure whose scene chunk is larger than any scene is refused with exit 2 at once (a
// 60 MB chunk once ran for hours at 1.15 GB).
TEST_F(Cli, FigureWithAnOversizedSceneChunkIsRefused) {
    const fs::path shot = dir / "fig.png";
    ASSERT_EQ(Run({"readouts"}).exit_code, 0);
    // A valid PNG: signature, IHDR, a 60 MB tEXt "pelab-scene" chunk, IEND. The CRCs do not
    // matter: the size is refused before any is checked.
    std::string png("\x89PNG\r\n\x1a\n", 8);
    const auto chunk = [&](const std::string& type, const std::string& data) {
        const std::uint32_t n = static_cast<std::uint32_t>(data.size());
        png += std::string{static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                           static_cast<char>(n >> 8), static_cast<char>(n)};
        png += type + data + std::string(4, '\0');
    };
    chunk("IHDR", std::string("\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0", 13));
    chunk("tEXt", std::string("pelab-scene\0", 12) + "{\"d_model\": 64" +
                      std::string(60u << 20, ' ') + "}");
    chunk("IEND", "");
    std::ofstream(shot, std::ios::binary) << png;
    png.clear();
    const auto start = std::chrono::steady_clock::now();
    const Result r = Run({"readouts", "--scene", shot.string()});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("at most 1024 KiB"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("fig.png"), std::string::npos) << r.err;
    EXPECT_LT(seconds, 5.0);
}
