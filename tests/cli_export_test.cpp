// CLI tests of `pelab export pe` and `pelab export attention`: the numbers against an
// independent long double computation (reference.h), the .npy also read by NumPy itself when
// python3-numpy is installed, and the arguments they refuse.
#include "cli_fixture.h"

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
