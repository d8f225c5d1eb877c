// CLI tests: the real `pelab` binary, its exit codes, its messages and its files.
// Values are checked against an independent long double computation (reference.h), and the
// .npy file is also read by NumPy itself when python3-numpy is installed.
#include "reference.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Result {
    int exit_code = -1;
    std::string out, err;
};

std::string ReadAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        dir = fs::temp_directory_path() /
              ("pelab_cli_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    // Runs pelab with args (no shell: arguments pass through untouched); env_unset names
    // variables removed from the child's environment.
    Result Run(const std::vector<std::string>& args, const std::vector<std::string>& env_unset = {},
               const std::vector<std::pair<std::string, std::string>>& env_set = {},
               const std::string& stdout_to = "") {
        const fs::path out_path = stdout_to.empty() ? dir / "stdout.txt" : fs::path(stdout_to);
        const fs::path err_path = dir / "stderr.txt";
        const pid_t pid = fork();
        if (pid == 0) {
            for (const std::string& name : env_unset)
                unsetenv(name.c_str());
            for (const auto& [name, value] : env_set)
                setenv(name.c_str(), value.c_str(), 1);
            std::FILE* out = std::freopen(out_path.c_str(), "w", stdout);
            std::FILE* err = std::freopen(err_path.c_str(), "w", stderr);
            if (!out || !err) _exit(127);
            std::vector<char*> argv;
            std::string binary = PELAB_BINARY;
            argv.push_back(binary.data());
            std::vector<std::string> copy = args;
            for (std::string& a : copy)
                argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(binary.c_str(), argv.data());
            _exit(127);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        Result r;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        r.out = stdout_to.empty() ? ReadAll(out_path) : std::string();
        r.err = ReadAll(err_path);
        return r;
    }

    // A refused command: exit 2, one line on stderr mentioning `mention`, no output file.
    void ExpectUsageError(std::vector<std::string> args, const std::string& mention) {
        const fs::path target = dir / "must_not_exist.out";
        args.push_back("--out");
        args.push_back(target.string());
        const Result r = Run(args);
        std::string joined;
        for (const std::string& a : args)
            joined += a + " ";
        EXPECT_EQ(r.exit_code, 2) << joined << "\nstderr: " << r.err;
        EXPECT_NE(r.err.find(mention), std::string::npos) << joined << "\nstderr: " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
        EXPECT_FALSE(fs::exists(target)) << joined;
        EXPECT_TRUE(r.out.empty()) << joined;
    }

    fs::path dir;
};

} // namespace

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

TEST_F(Cli, CsvToStdoutMatchesReference) {
    const Result r = Run({"export", "pe", "--max-len", "50", "--d-model", "16"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line); // header
    int pos = 0;
    while (std::getline(lines, line)) {
        std::istringstream cells(line);
        std::string cell;
        std::getline(cells, cell, ',');
        ASSERT_EQ(std::stoi(cell), pos);
        for (int dim = 0; dim < 16; ++dim) {
            ASSERT_TRUE(std::getline(cells, cell, ','));
            EXPECT_NEAR(std::strtod(cell.c_str(), nullptr),
                        static_cast<double>(reference::pe(pos, dim, 16, 10000)), 1e-6);
        }
        ++pos;
    }
    EXPECT_EQ(pos, 50);
    EXPECT_EQ(Run({"export", "pe", "--max-len", "50", "--d-model", "16", "--out", "-"}).out, r.out);
}

TEST_F(Cli, JsonFileMatchesReferenceInBothLayouts) {
    for (const char* layout : {"interleaved", "concat"}) {
        const fs::path file = dir / (std::string(layout) + ".json");
        const Result r = Run({"export", "pe", "--max-len", "300", "--d-model", "8", "--base", "100",
                              "--layout", layout, "--format", "json", "--out", file.string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const nlohmann::json doc = nlohmann::json::parse(ReadAll(file));
        EXPECT_EQ(doc["max_len"], 300);
        EXPECT_EQ(doc["base"], 100.0);
        ASSERT_EQ(doc["values"].size(), 300u);
        const bool concat = std::string(layout) == "concat";
        for (int pos = 0; pos < 300; pos += 7)
            for (int i = 0; i < 4; ++i) {
                const double s = doc["values"][pos][concat ? i : 2 * i].get<double>();
                const double c = doc["values"][pos][concat ? 4 + i : 2 * i + 1].get<double>();
                EXPECT_NEAR(s, static_cast<double>(reference::pe(pos, 2 * i, 8, 100)), 1e-6);
                EXPECT_NEAR(c, static_cast<double>(reference::pe(pos, 2 * i + 1, 8, 100)), 1e-6);
            }
    }
}

TEST_F(Cli, NpyFileMatchesReference) {
    const fs::path file = dir / "pe.npy";
    const Result r = Run({"export", "pe", "--max-len", "2048", "--d-model", "64", "--format", "npy",
                          "--out", file.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string bytes = ReadAll(file);
    ASSERT_EQ(bytes.substr(0, 6), "\x93NUMPY");
    const std::size_t header =
        static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    ASSERT_EQ(bytes.size(), 10 + header + 2048u * 64u * 4u);
    EXPECT_NE(bytes.find("'shape': (2048, 64)"), std::string::npos);
    long double worst = 0;
    for (int pos = 0; pos < 2048; ++pos)
        for (int dim = 0; dim < 64; ++dim) {
            float v = 0;
            std::memcpy(&v, bytes.data() + 10 + header + (pos * 64 + dim) * 4, 4);
            worst = std::max(worst, fabsl(v - reference::pe(pos, dim, 64, 10000)));
        }
    EXPECT_LT(worst, 1e-6L);
}

// NumPy itself loads the file and compares it with its own float64 computation.
TEST_F(Cli, NumpyLoadsNpyAndAgrees) {
    // Debian's interpreter, where python3-numpy installs (a pyenv python3 on PATH may lack it).
    const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    if (std::system((python + " -c 'import numpy' >/dev/null 2>&1").c_str()) != 0)
        GTEST_SKIP() << "python3-numpy is not installed";
    const fs::path file = dir / "pe.npy";
    ASSERT_EQ(Run({"export", "pe", "--max-len", "4096", "--d-model", "128", "--format", "npy",
                   "--out", file.string()})
                  .exit_code,
              0);
    const std::string script = "import numpy as np, sys\n"
                               "a = np.load(sys.argv[1])\n"
                               "assert a.dtype == np.float32 and a.shape == (4096, 128) and "
                               "a.flags['C_CONTIGUOUS'], a.dtype\n"
                               "pos = np.arange(4096, dtype=np.float64)[:, None]\n"
                               "w = 10000.0 ** (-np.arange(0, 128, 2, dtype=np.float64) / 128)\n"
                               "ref = np.empty((4096, 128)); ref[:, 0::2] = np.sin(pos * w); "
                               "ref[:, 1::2] = np.cos(pos * w)\n"
                               "err = np.abs(a.astype(np.float64) - ref).max()\n"
                               "print(err); sys.exit(0 if err <= 1e-6 else 1)\n";
    const fs::path py = dir / "check.py";
    std::ofstream(py) << script;
    const std::string command = python + " " + py.string() + " " + file.string();
    EXPECT_EQ(std::system(command.c_str()), 0);
}

TEST_F(Cli, AttentionJsonFollowsSpecAndVerdict) {
    const fs::path on = dir / "on.json", off = dir / "off.json";
    ASSERT_EQ(Run({"export", "attention", "--sentence-a", "Dog bites man", "--sentence-b",
                   "man bites dog", "--out", on.string()})
                  .exit_code,
              0);
    const Result r = Run({"export", "attention", "--sentence-a", "dog bites man", "--sentence-b",
                          "man bites dog", "--pe", "off", "--out", off.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json with_pe = nlohmann::json::parse(ReadAll(on));
    const nlohmann::json without = nlohmann::json::parse(ReadAll(off));
    EXPECT_EQ(with_pe["tokens_a"], (std::vector<std::string>{"dog", "bites", "man"}));
    EXPECT_EQ(with_pe["vocab"], (std::vector<std::string>{"dog", "bites", "man"}));
    EXPECT_FALSE(with_pe["same_up_to_reordering"].get<bool>());
    EXPECT_GT(with_pe["max_reorder_diff"].get<double>(), 0.1);
    EXPECT_TRUE(without["same_up_to_reordering"].get<bool>());
    EXPECT_EQ(without["max_reorder_diff"].get<double>(), 0.0);
    // Without PE the one-hot scores are the identity (as in the published QKᵀ without PE).
    EXPECT_EQ(without["scores_a"][1][1].get<double>(), 1.0);
    EXPECT_EQ(without["scores_a"][1][0].get<double>(), 0.0);
    // x_a row 1 = one-hot("bites") + PE(1): dim 0 is sin(1), dim 1 is 1 + cos(1).
    EXPECT_NEAR(with_pe["x_a"][1][0].get<double>(), std::sin(1.0), 1e-12);
    EXPECT_NEAR(with_pe["x_a"][1][1].get<double>(), 1 + std::cos(1.0), 1e-12);
    // Softmax rows sum to 1.
    for (const auto& row : with_pe["weights_b"]) {
        double total = 0;
        for (const auto& v : row)
            total += v.get<double>();
        EXPECT_NEAR(total, 1.0, 1e-12);
    }
}

TEST_F(Cli, BadPeArgumentsExitTwoWithMessageAndNoFile) {
    const std::vector<std::string> base = {"export", "pe"};
    const auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    ExpectUsageError(with({"--max-len", "10", "--d-model", "7"}), "--d-model");
    ExpectUsageError(with({"--max-len", "10", "--d-model", "0"}), "--d-model");
    ExpectUsageError(with({"--max-len", "10", "--d-model", "abc"}), "--d-model");
    ExpectUsageError(with({"--max-len", "10", "--d-model", "99999"}), "--d-model");
    ExpectUsageError(with({"--max-len", "0", "--d-model", "8"}), "--max-len");
    ExpectUsageError(with({"--max-len", "-5", "--d-model", "8"}), "--max-len");
    ExpectUsageError(with({"--max-len", "1048577", "--d-model", "8"}), "--max-len");
    ExpectUsageError(with({"--max-len", "1048576", "--d-model", "512"}), "2^28");
    ExpectUsageError(with({"--max-len", "10", "--d-model", "8", "--base", "1"}), "--base");
    ExpectUsageError(with({"--max-len", "10", "--d-model", "8", "--base", "nan"}), "--base");
    ExpectUsageError(with({"--max-len", "10", "--d-model", "8", "--base", "-3"}), "--base");
    ExpectUsageError(with({"--max-len", "10", "--d-model", "8", "--layout", "diagonal"}),
                     "--layout");
    ExpectUsageError(with({"--max-len", "10", "--d-model", "8", "--format", "xml"}), "--format");
    ExpectUsageError(with({"--d-model", "8"}), "--max-len");
    ExpectUsageError(with({"--max-len", "10", "--d-model", "8", "--frobnicate"}), "--frobnicate");
}

TEST_F(Cli, BadAttentionArgumentsExitTwo) {
    const auto args = [](const std::string& a, const std::string& b,
                         const std::vector<std::string>& extra = {}) {
        std::vector<std::string> v = {"export", "attention", "--sentence-a", a, "--sentence-b", b};
        v.insert(v.end(), extra.begin(), extra.end());
        return v;
    };
    std::string forty;
    for (int k = 0; k < 40; ++k)
        forty += "word ";
    ExpectUsageError(args("dog bites man", "man bites dog", {"--d-model", "2"}), "--d-model");
    ExpectUsageError(args("dog bites man", "man bites dog", {"--pe-scale", "-1"}), "--pe-scale");
    ExpectUsageError(args("dog bites man", "man bites dog", {"--pe", "maybe"}), "--pe");
    ExpectUsageError(args("dog \xff bites", "man bites dog"), "--sentence-a");
    ExpectUsageError(args("dog bites man", forty), "--sentence-b");
    ExpectUsageError(args("   ", "man bites dog"), "--sentence-a");
    ExpectUsageError({"export", "attention", "--sentence-a", "dog"}, "--sentence-b");
}

TEST_F(Cli, BadScreenshotAndGuiArgumentsExitTwo) {
    ExpectUsageError({"screenshot", "--size", "10x10"}, "--size");
    ExpectUsageError({"screenshot", "--size", "wide"}, "--size");
    ExpectUsageError({"screenshot", "--panel", "bogus"}, "--panel");
    const Result r = Run({"--font-scale", "9"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--font-scale"), std::string::npos) << r.err;
}

// A screenshot or readouts pointed at its own scene file would replace the scene: refused, and the
// scene is untouched.
TEST_F(Cli, OutputThatIsTheSceneIsRefused) {
    const fs::path scene = dir / "scene.json";
    const std::string text = R"({"d_model": 64})";
    std::ofstream(scene) << text;
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"screenshot", "--scene", scene.string(), "--out",
                                   (dir / "." / "scene.json").string()},
          std::vector<std::string>{"readouts", "--scene", scene.string(), "--out",
                                   scene.string()}}) {
        const Result r = Run(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("is the --scene file"), std::string::npos) << r.err;
        EXPECT_EQ(ReadAll(scene), text);
    }
}

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

TEST_F(Cli, UnwritableOutputIsRuntimeFailure) {
    const Result r = Run({"export", "pe", "--max-len", "4", "--d-model", "4", "--out",
                          "/nonexistent-folder-pelab/x.csv"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
    const Result folder =
        Run({"export", "pe", "--max-len", "4", "--d-model", "4", "--out", dir.string()});
    EXPECT_EQ(folder.exit_code, 1);
}

TEST_F(Cli, FailedExportLeavesExistingFileUntouched) {
    const fs::path file = dir / "keep.csv";
    std::ofstream(file) << "precious\n";
    const Result r =
        Run({"export", "pe", "--max-len", "4", "--d-model", "5", "--out", file.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(ReadAll(file), "precious\n");
    // A successful export replaces it whole and leaves no temporary behind.
    ASSERT_EQ(
        Run({"export", "pe", "--max-len", "4", "--d-model", "4", "--out", file.string()}).exit_code,
        0);
    EXPECT_EQ(ReadAll(file).rfind("pos,d0", 0), 0u);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}),
              3); // + stdout/stderr
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

// Regression (reliability issue): `pelab export … --out /dev/null` as root replaced the device
// node with a regular file. Checked on a private copy of the node (mknod, root only) so that a
// regression cannot break the machine's own /dev/null; a FIFO is checked for every user.
TEST_F(Cli, SpecialOutputFilesAreWrittenInPlace) {
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = ReadAll(fifo); });
    const Result to_fifo =
        Run({"export", "pe", "--max-len", "3", "--d-model", "4", "--out", fifo.string()});
    reader.join();
    EXPECT_EQ(to_fifo.exit_code, 0) << to_fifo.err;
    EXPECT_EQ(received.rfind("pos,d0,d1,d2,d3\n0,0,1,0,1\n", 0), 0u) << received;
    EXPECT_EQ(fs::status(fifo).type(), fs::file_type::fifo);

    const fs::path device = dir / "null";
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
        GTEST_SKIP() << "mknod needs root: " << std::strerror(errno);
    for (const char* format : {"csv", "json", "npy"}) {
        const Result r = Run({"export", "pe", "--max-len", "8", "--d-model", "8", "--format",
                              format, "--out", device.string()});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(fs::status(device).type(), fs::file_type::character) << format;
    }
    const Result attention = Run({"export", "attention", "--sentence-a", "dog bites man",
                                  "--sentence-b", "man bites dog", "--out", device.string()});
    EXPECT_EQ(attention.exit_code, 0) << attention.err;
    EXPECT_EQ(fs::status(device).type(), fs::file_type::character);
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

// `pelab readouts`: the scene and every panel's numbers, with no display at all. The dot
// product of positions 3 and 50 at d_model 128 is the published value 30.59.
TEST_F(Cli, ReadoutsPrintEveryPanelsNumbersWithoutADisplay) {
    const std::string scene = std::string(PELAB_SOURCE_DIR) + "/assets/scenes/compare-3-vs-50.json";
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

TEST_F(Cli, FloatOptionsRefuseNanAndEmptyPanel) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--font-scale", "nan"},
          std::vector<std::string>{"screenshot", "--font-scale", "nan", "--out", "x.png"},
          std::vector<std::string>{"screenshot", "--panel", "", "--out", "x.png"}}) {
        const Result r = Run(args, {"DISPLAY", "WAYLAND_DISPLAY"});
        EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1] << "\n" << r.err;
    }
}

namespace {

// A small tmpfs (root only): `size` bytes, read-only if asked. Unmounted by the destructor.
class TinyFilesystem {
public:
    TinyFilesystem(const fs::path& where, const char* options) : where_(where) {
        fs::create_directories(where);
        const std::string command = "mount -t tmpfs -o " + std::string(options) + " tmpfs '" +
                                    where.string() + "' 2>/dev/null";
        mounted_ = ::geteuid() == 0 && std::system(command.c_str()) == 0;
    }
    ~TinyFilesystem() {
        if (mounted_) (void)std::system(("umount '" + where_.string() + "'").c_str());
    }
    bool mounted() const { return mounted_; }

private:
    fs::path where_;
    bool mounted_ = false;
};

int CountTemporaries(const fs::path& folder) {
    int count = 0;
    for (const auto& entry : fs::directory_iterator(folder))
        count += entry.path().filename().string().rfind(".pelab-", 0) == 0;
    return count;
}

} // namespace

// Write faults: a full filesystem and a read-only one. The old file survives byte for byte, no
// temporary file is left, and the message names the path and the cause.
TEST_F(Cli, WriteFaultsKeepTheOldFileAndSayWhy) {
    const fs::path full_dir = dir / "full";
    TinyFilesystem full(full_dir, "size=64k");
    if (!full.mounted()) GTEST_SKIP() << "needs root to mount a small tmpfs";
    const fs::path target = full_dir / "pe.csv";
    std::ofstream(target) << "the old file\n";
    // 512 x 512 values as CSV: about 2.5 MB, far more than 64 KiB.
    const Result r =
        Run({"export", "pe", "--max-len", "512", "--d-model", "512", "--out", target.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(target.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    EXPECT_EQ(ReadAll(target), "the old file\n");
    EXPECT_EQ(CountTemporaries(full_dir), 0);
    // The same through readouts and the JSON scene writer of --state-out's code path.
    const Result state = Run({"readouts", "--out", (full_dir / "state.json").string()}, {}, {}, "");
    EXPECT_EQ(state.exit_code, 0) << state.err; // a small file fits

    const fs::path ro_dir = dir / "readonly";
    TinyFilesystem readonly(ro_dir, "ro,size=64k");
    ASSERT_TRUE(readonly.mounted());
    const Result ro = Run({"export", "pe", "--max-len", "4", "--d-model", "4", "--out",
                           (ro_dir / "pe.csv").string()});
    EXPECT_EQ(ro.exit_code, 1);
    EXPECT_NE(ro.err.find("not writable"), std::string::npos) << ro.err;
    // --state-out into a read-only folder is refused at start, before any window.
    const Result gui =
        Run({"--state-out", (ro_dir / "state.json").string()}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(gui.exit_code, 1);
    EXPECT_NE(gui.err.find("--state-out"), std::string::npos) << gui.err;
    EXPECT_EQ(gui.err.find("display"), std::string::npos) << "checked before the display";
}

TEST_F(Cli, StandardOutputIntoAFullDiskIsAFailure) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--version"}, std::vector<std::string>{"--help"},
          std::vector<std::string>{"export", "pe", "--max-len", "64", "--d-model", "64"},
          std::vector<std::string>{"readouts"}}) {
        const Result r = Run(args, {}, {}, "/dev/full");
        EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
        EXPECT_FALSE(r.err.empty()) << args[0];
    }
}

// A signal in the middle of a long export: SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGALRM and even
// SIGKILL leave no temporary file (it has no name while it is written) and the old file as it
// was; the process ends as the signal asks. (Once a 178 MB .pelab-XXXX stayed behind.)
TEST_F(Cli, InterruptedExportLeavesNoTemporary) {
    const fs::path target = dir / "big.csv";
    for (const int signal_number : {SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGALRM, SIGKILL}) {
        std::ofstream(target, std::ios::trunc) << "old\n";
        const pid_t pid = fork();
        if (pid == 0) {
            std::freopen("/dev/null", "w", stderr);
            execl(PELAB_BINARY, PELAB_BINARY, "export", "pe", "--max-len", "60000", "--d-model",
                  "512", "--out", target.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        // Wait until the export writes: an open file of the process in the target's folder.
        const auto writing = [&] {
            std::error_code error;
            for (const auto& fd :
                 fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", error)) {
                std::error_code link_error;
                const fs::path link = fs::read_symlink(fd.path(), link_error);
                if (!link_error && link.string().rfind(dir.string(), 0) == 0 &&
                    link.filename() != "big.csv")
                    return true;
            }
            return false;
        };
        for (int k = 0; k < 2000 && !writing(); ++k)
            ::usleep(5000);
        ASSERT_TRUE(writing()) << "the export never started writing";
        ::kill(pid, signal_number);
        int status = 0;
        waitpid(pid, &status, 0);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal_number)
            << "signal " << signal_number << " status " << status;
        EXPECT_EQ(CountTemporaries(dir), 0) << "signal " << signal_number;
        EXPECT_EQ(ReadAll(target), "old\n") << "signal " << signal_number;
    }
}

// A reader that goes away is an error message naming standard output, not a silent death.
TEST_F(Cli, ClosedPipeIsAMessageNotASilentDeath) {
    int pipe_ends[2];
    ASSERT_EQ(::pipe(pipe_ends), 0);
    ::close(pipe_ends[0]); // nobody will read
    const fs::path err_path = dir / "stderr.txt";
    const pid_t pid = fork();
    if (pid == 0) {
        ::dup2(pipe_ends[1], 1);
        std::freopen(err_path.c_str(), "w", stderr);
        execl(PELAB_BINARY, PELAB_BINARY, "export", "pe", "--max-len", "4096", "--d-model", "64",
              static_cast<char*>(nullptr));
        _exit(127);
    }
    ::close(pipe_ends[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 1);
    EXPECT_NE(ReadAll(err_path).find("standard output: writing failed: Broken pipe"),
              std::string::npos)
        << ReadAll(err_path);
}

// A comma-decimal locale in the environment changes no number PE Lab writes or reads.
TEST_F(Cli, CommaDecimalLocaleChangesNothing) {
    const fs::path locales = dir / "locales";
    fs::create_directories(locales);
    const std::string make =
        "localedef -i de_DE -f UTF-8 '" + (locales / "de_DE.UTF-8").string() + "' >/dev/null 2>&1";
    if (std::system(make.c_str()) != 0 || !fs::exists(locales / "de_DE.UTF-8"))
        GTEST_SKIP() << "localedef or the de_DE sources (package locales) are missing";
    const std::vector<std::pair<std::string, std::string>> german = {
        {"LOCPATH", locales.string()}, {"LC_ALL", "de_DE.UTF-8"}, {"LANG", "de_DE.UTF-8"}};
    const Result csv = Run({"export", "pe", "--max-len", "2", "--d-model", "2"}, {}, german);
    // The expected row from the long double reference, rounded to float32, printed with '.'.
    char row[96];
    std::snprintf(row, sizeof row, "1,%.9g,%.9g\n",
                  static_cast<double>(static_cast<float>(reference::pe(1, 0, 2, 10000))),
                  static_cast<double>(static_cast<float>(reference::pe(1, 1, 2, 10000))));
    EXPECT_EQ(csv.out, "pos,d0,d1\n0,0,1\n" + std::string(row));
    const fs::path scene = dir / "scene.json";
    std::ofstream(scene) << "{\"base\": 12345.5, \"pos_a\": 2.25}";
    const Result readouts = Run({"readouts", "--scene", scene.string()}, {}, german);
    ASSERT_EQ(readouts.exit_code, 0) << readouts.err;
    const nlohmann::json doc = nlohmann::json::parse(readouts.out);
    EXPECT_EQ(doc["base"].get<double>(), 12345.5);
    EXPECT_EQ(doc["pos_a"].get<double>(), 2.25);
    EXPECT_NE(readouts.out.find("12345.5"), std::string::npos);
}

// Second hostile-input run: what was accepted, misread or printed raw.
TEST_F(Cli, NumbersArePlainDecimalsAndNamesAreNotEmpty) {
    for (const std::vector<std::string>& args : {
             std::vector<std::string>{"export", "pe", "--max-len", "010", "--d-model", "4"},
             std::vector<std::string>{"export", "pe", "--max-len", "0x10", "--d-model", "4"},
             std::vector<std::string>{"export", "pe", "--max-len", "4", "--d-model", "4", "--base",
                                      "0x10"},
             std::vector<std::string>{"export", "attention", "--sentence-a", "a b", "--sentence-b",
                                      "b a", "--seed", "010"},
             std::vector<std::string>{"export", "pe", "--max-len", "4", "--d-model", "4", "--out",
                                      ""},
             std::vector<std::string>{"readouts", "--scene", ""},
             std::vector<std::string>{"--fullscreen=no"},
             std::vector<std::string>{"--font-scale", "1,5"},
         }) {
        const Result r = Run(args, {"DISPLAY", "WAYLAND_DISPLAY"});
        std::string joined;
        for (const std::string& a : args)
            joined += "[" + a + "] ";
        EXPECT_EQ(r.exit_code, 2) << joined << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << joined;
    }
    // Plain decimals still work, with exponents and signs where they make sense.
    EXPECT_EQ(Run({"export", "pe", "--max-len", "2", "--d-model", "4", "--base", "1e4"}).exit_code,
              0);
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

TEST_F(Cli, BrokenSymlinksAreRefusedNotReplaced) {
    const fs::path dangling = dir / "dangling", loop = dir / "loop";
    fs::create_symlink(dir / "missing.json", dangling);
    fs::create_symlink(loop, loop);
    for (const fs::path& link : {dangling, loop}) {
        const Result r = Run({"readouts", "--out", link.string()});
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
        EXPECT_TRUE(fs::is_symlink(link)) << link << " was replaced";
    }
    std::ofstream(dir / "plain") << "x";
    const Result under_file = Run({"readouts", "--out", (dir / "plain" / "x.json").string()});
    EXPECT_EQ(under_file.exit_code, 1);
    EXPECT_NE(under_file.err.find("is a file, not a folder"), std::string::npos) << under_file.err;
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
    EXPECT_NE(out.err.find("standard output: writing failed: No space left on device"),
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
            std::string binary = PELAB_BINARY;
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
         fs::directory_iterator(fs::path(PELAB_SOURCE_DIR) / "assets/lessons")) {
        if (entry.path().extension() != ".json") continue;
        const Result r = Run({"lesson", "check", entry.path().string()});
        EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("steps, no problems"), std::string::npos) << r.out;
        ++lessons;
    }
    EXPECT_GE(lessons, 3);
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
    for (std::string line; std::getline(out, line);)
        names.push_back(line);
    for (const char* name : {"waves.spectrum", "waves.base", "waves.wave_plot"})
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    for (const std::string& name : names)
        EXPECT_EQ(name.rfind("waves.", 0), 0u) << name;
    const Result all = Run({"lesson", "widgets"});
    ASSERT_EQ(all.exit_code, 0);
    EXPECT_NE(all.out.find("order (Order: does the model see word order?)\n  order."),
              std::string::npos)
        << all.out;
    EXPECT_NE(all.out.find("  clocks.shift_k\n"), std::string::npos);
    const Result unknown = Run({"lesson", "widgets", "wave"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("known panels: waves"), std::string::npos) << unknown.err;
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
          std::vector<std::string>{"train", "--pe", "rope,rope"}}) {
        const Result refused = Run(bad);
        EXPECT_EQ(refused.exit_code, 2) << bad[1] << ": " << refused.err;
        EXPECT_NE(refused.err.find("pelab: "), std::string::npos);
    }
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
    // And the screenshot's theme.
    const Result theme = Run({"screenshot", "--theme", "sepia", "--out", (dir / "s.png").string()},
                             {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(theme.exit_code, 2);
    EXPECT_NE(theme.err.find("dark, light, high-contrast"), std::string::npos) << theme.err;
    // --notes belongs to a lesson's step.
    const Result notes = Run({"screenshot", "--notes", "--out", (dir / "s.png").string()},
                             {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(notes.exit_code, 2);
    EXPECT_NE(notes.err.find("--notes: only with --lesson"), std::string::npos) << notes.err;
}

// The pictures of the README and of the docs pages are taken at the room's size, 1024×768
// (scripts/readme_screenshots.sh, at text ×2): every one they show exists and is that size.
TEST_F(Cli, DocumentPicturesAreTakenAtTheRoomsSize) {
    int pictures = 0;
    for (const char* page :
         {"README.md", "docs/teaching.md", "docs/panels.md", "docs/lessons.md"}) {
        const fs::path path = fs::path(PELAB_SOURCE_DIR) / page;
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
