// CLI tests of the files the commands write: in place for special files, never over the scene
// they read, and on a full or read-only filesystem, an interrupted export or a closed pipe the old
// file is kept, no temporary is left, and the message names the path and the cause.
#include "cli_fixture.h"
#include "model_fixtures.h"

#include <map>

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
    TinyFilesystem full(full_dir, "size=256k"); // the readouts fit (~100 KB), a 2.5 MB CSV not
    if (!full.mounted()) GTEST_SKIP() << "needs root to mount a small tmpfs";
    const fs::path target = full_dir / "pe.csv";
    std::ofstream(target) << "the old file\n";
    // 512 x 512 values as CSV: about 2.5 MB, far more than 256 KiB.
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
            execl(pelab_test::PelabBinary(), pelab_test::PelabBinary(), "export", "pe", "--max-len",
                  "60000", "--d-model", "512", "--out", target.c_str(),
                  static_cast<char*>(nullptr));
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
        execl(pelab_test::PelabBinary(), pelab_test::PelabBinary(), "export", "pe", "--max-len",
              "4096", "--d-model", "64", static_cast<char*>(nullptr));
        _exit(127);
    }
    ::close(pipe_ends[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 1);
    EXPECT_NE(ReadAll(err_path).find("cannot write to standard output: Broken pipe"),
              std::string::npos)
        << ReadAll(err_path);
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

// Reliability round 5: no command writes over a file it reads — the weights, every shard an index
// names, the config.json, vocab.json and merges.txt beside them, a texts file — however the output
// is spelled (./, .., a symbolic link, a hard link). Refused before any work (exit 2, both named),
// and every file is left as it was.
TEST_F(Cli, OutputThatIsAModelFileIsRefused) {
    const fs::path model = dir / "ow";
    pelab_test::WriteGpt2RunFixture(model);
    // A sharded copy: an index naming two shards.
    const fs::path sharded = dir / "sharded";
    fs::create_directories(sharded);
    pelab_test::WriteSafetensors(sharded / "part-1.safetensors",
                                 {{"wpe.weight", {8, 4}, pelab_test::Normal(32, 1)}});
    pelab_test::WriteSafetensors(sharded / "part-2.safetensors",
                                 {{"wte.weight", {8, 4}, pelab_test::Normal(32, 2)}});
    std::ofstream(sharded / "model.safetensors.index.json")
        << R"({"metadata": {}, "weight_map": {"wpe.weight": "part-1.safetensors",
              "wte.weight": "part-2.safetensors"}})";
    const fs::path texts = dir / "texts.json";
    std::ofstream(texts) << R"(["the dog", "the man"])";
    fs::create_symlink(model / "config.json", dir / "config-link.json");
    fs::create_hard_link(model / "merges.txt", dir / "merges-hard.txt");
    std::map<fs::path, std::string> before;
    for (const fs::path& file : fs::recursive_directory_iterator(dir))
        if (fs::is_regular_file(file)) before[file] = ReadAll(file);
    const std::string m = model.string();
    const std::vector<std::vector<std::string>> commands = {
        {"model", "inspect", m + "/model.safetensors", "--out", m + "/model.safetensors"},
        {"model", "inspect", m, "--out", m + "/./model.safetensors"},
        {"model", "inspect", m, "--out", m + "/config.json"},
        {"model", "inspect", m, "--out", (dir / "config-link.json").string()},
        {"model", "inspect", m, "--json", "--out", m + "/../ow/vocab.json"},
        {"model", "inspect", sharded.string(), "--out", (sharded / "part-2.safetensors").string()},
        {"model", "inspect", (sharded / "model.safetensors.index.json").string(), "--out",
         (sharded / "model.safetensors.index.json").string()},
        {"model", "run", m, "--tokens", "1,2", "--out", m + "/model.safetensors"},
        {"model", "run", m, "--text", "the", "--out", m + "/vocab.json"},
        {"model", "run", m, "--text", "the", "--out", (dir / "merges-hard.txt").string()},
        {"model", "tokenize", m, "--text", "the", "--out", m + "/merges.txt"},
        {"model", "tokenize", m, "--text", "the", "--out", m + "/model.safetensors"},
        {"model", "tokenize", m, "--text", "the", "--out", m + "/config.json"},
        {"model", "tokenize", m, "--texts-file", texts.string(), "--out", texts.string()},
        {"model", "tokenize", "--vocab", m + "/vocab.json", "--merges", m + "/merges.txt", "--text",
         "the", "--out", m + "/vocab.json"},
        {"readouts", "--model", m, "--out", m + "/model.safetensors"},
        {"screenshot", "--model", m, "--out", m + "/config.json"},
    };
    for (std::size_t k = 0; k < commands.size(); ++k) {
        const Result r = Run(commands[k]);
        EXPECT_EQ(r.exit_code, 2) << commands[k][1] << " " << commands[k].back() << ": " << r.err;
        EXPECT_NE(r.err.find("which this command reads"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    for (const auto& [file, content] : before)
        EXPECT_EQ(ReadAll(file), content) << file;
    // A new file beside the weights is no input: written.
    const Result fine = Run({"model", "inspect", m, "--out", m + "/report.txt"});
    EXPECT_EQ(fine.exit_code, 0) << fine.err;
    EXPECT_TRUE(fs::exists(model / "report.txt"));
}

// Reliability round 5, MEDIUM and LOW: what the model readers filled in silently or named wrong.
TEST_F(Cli, ModelReadersRefuseWhatTheyUsedToFillInOrMisname) {
    pelab_test::WriteModelFixtures(dir);
    const fs::path llama = dir / "llama";
    const nlohmann::json base = nlohmann::json::parse(ReadAll(llama / "config.json"));
    const auto with_scaling = [&](const std::string& name, const nlohmann::json& scaling) {
        const fs::path folder = dir / name;
        fs::create_directories(folder);
        fs::copy_file(llama / "model.safetensors", folder / "model.safetensors");
        nlohmann::json config = base;
        config["rope_scaling"] = scaling;
        std::ofstream(folder / "config.json") << config.dump();
        return folder.string();
    };
    const struct {
        std::string folder, says;
    } scalings[] = {
        {with_scaling("linear", {{"type", "linear"}}), "linear needs \"factor\""},
        {with_scaling("llama3", {{"rope_type", "llama3"}, {"factor", 8.0}}),
         "llama3 needs \"original_max_position_embeddings\""},
        {with_scaling("longrope", {{"rope_type", "longrope"}, {"short_factor", {1, 1}}}),
         "longrope needs \"long_factor\""},
        {with_scaling(
             "yarn",
             {{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 300}}),
         "exceeds max_position_embeddings (256)"},
    };
    for (const auto& each : scalings) {
        const Result r = Run({"model", "inspect", each.folder});
        EXPECT_EQ(r.exit_code, 2) << each.folder << ": " << r.out;
        EXPECT_NE(r.err.find(each.says), std::string::npos) << r.err;
    }
    // A .npy that is not one is said to be so, not read as safetensors.
    { std::ofstream empty(dir / "empty.npy"); } // an empty file
    std::ofstream(dir / "bad.npy") << "NOTNUMPY and more bytes than a header";
    for (const char* name : {"empty.npy", "bad.npy"}) {
        const Result r = Run({"model", "inspect", (dir / name).string()});
        EXPECT_EQ(r.exit_code, 2) << name;
        EXPECT_NE(r.err.find(".npy"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("header claims"), std::string::npos) << r.err;
    }
    // A config.json beside the weights that cannot be read is refused as --config would be.
    for (const char* kind : {"folder", "fifo", "dangling"}) {
        const fs::path folder = dir / (std::string("config-") + kind);
        fs::create_directories(folder);
        fs::copy_file(llama / "model.safetensors", folder / "model.safetensors");
        if (std::string(kind) == "folder") fs::create_directories(folder / "config.json");
        if (std::string(kind) == "fifo") {
            ASSERT_EQ(::mkfifo((folder / "config.json").c_str(), 0600), 0);
        }
        if (std::string(kind) == "dangling")
            fs::create_symlink(dir / "nowhere.json", folder / "config.json");
        const Result r = Run({"model", "inspect", folder.string()});
        EXPECT_EQ(r.exit_code, 2) << kind << ": " << r.out;
        EXPECT_NE(r.err.find("config"), std::string::npos) << r.err;
    }
    // Token ids are plain decimals; empty --config and --table are no file and no tensor.
    pelab_test::WriteGpt2RunFixture(dir / "gpt");
    for (const char* ids : {"1, 2", " 1", "010", "1,,2", "+1"}) {
        const Result r = Run({"model", "run", (dir / "gpt").string(), "--tokens", ids});
        EXPECT_EQ(r.exit_code, 2) << "'" << ids << "': " << r.out;
        EXPECT_NE(r.err.find("--tokens"), std::string::npos) << r.err;
    }
    for (const char* top : {"010", "0x5", " 5", "5.5"}) {
        const Result r =
            Run({"model", "run", (dir / "gpt").string(), "--tokens", "1", "--top", top});
        EXPECT_EQ(r.exit_code, 2) << "--top '" << top << "': " << r.out;
    }
    std::vector<std::string> many = {"model", "run", (dir / "gpt").string(), "--tokens", "1"};
    for (int k = 0; k < 65; ++k)
        many.insert(many.end(), {"--positions", "shuffle:" + std::to_string(k)});
    const Result switches = Run(many);
    EXPECT_EQ(switches.exit_code, 2);
    EXPECT_NE(switches.err.find("at most 64"), std::string::npos) << switches.err;
    for (const char* option : {"--config", "--table"}) {
        const Result r = Run({"model", "inspect", llama.string(), option, ""});
        EXPECT_EQ(r.exit_code, 2) << option;
        EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
    }
    const Result utf8 = Run({"model", "tokenize", (dir / "gpt").string(), "--text", "caf\xC3"});
    EXPECT_EQ(utf8.exit_code, 2);
    EXPECT_NE(utf8.err.find("--text"), std::string::npos) << utf8.err;
}

// What the model commands print, read as a user reads it: BLOOM's slopes from the largest to
// the least (its first and last heads are neither when H is not a power of two), a Llama given
// a text named as not a GPT-2 (not as one missing vocab.json), guesses from ids as words when
// the tokenizer is beside the weights, the loss with its unit, and a shift's refusal in words.
TEST_F(Cli, ModelCommandsSayWhatTheNumbersAre) {
    pelab_test::WriteModelFixtures(dir);
    pelab_test::WriteGpt2RunFixture(dir / "gpt2-run");
    Result r = Run({"model", "inspect", (dir / "bloom").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The reference rule for the fixture's 12 heads: 2^(−8k/8) for k = 1 … 8, then
    // 2^(−8(2k − 1)/16) for k = 1 … 4 (0.7071, 0.3536, 0.1768, 0.08839).
    EXPECT_NE(r.out.find("12 heads, slopes from 0.7071 down to 0.003906 (by head: 0.5 0.25 0.125 "
                         "0.0625 0.03125 0.01562 0.007812 0.003906 0.7071 0.3536 0.1768 0.08839)"),
              std::string::npos)
        << r.out;
    // A rotary checkpoint runs the Llama-family pass; a text needs its tokenizer's files.
    r = Run({"model", "run", (dir / "llama").string(), "--text", "the dog"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("holds no tokenizer.json, nor vocab.json and merges.txt"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("vocab.json or merges.txt"), std::string::npos) << r.err;
    // " the", " dog", " bites" as ids: the guesses in words, the loss in nats.
    r = Run({"model", "run", (dir / "gpt2-run").string(), "--tokens", "258,262,270"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(" nats"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("id "), std::string::npos) << "guesses as ids: " << r.out;
    EXPECT_NE(r.out.find("next:  \""), std::string::npos) << r.out;
    r = Run({"model", "run", (dir / "gpt2-run").string(), "--tokens", "258", "--positions",
             "shift:200"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("shifted by 200, the token would run past the table's 64 rows (shift at "
                         "most 63)"),
              std::string::npos)
        << r.err;
}
