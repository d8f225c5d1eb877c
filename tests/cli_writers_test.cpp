// What the commands write (docs/reliability.md, "Files PE Lab writes are read back" and "Nothing
// PE Lab writes follows a link it did not make"): two outputs that name one file are refused
// before any work, whatever their spelling.
#include "cli_fixture.h"

// `--plot` and `--out` naming one file in two spellings: before this was caught only when the
// file already existed, and a run's JSON was replaced by its picture.
TEST_F(Cli, TrainRefusesAPlotThatIsItsRunUnderAnotherSpelling) {
    fs::create_directories(dir / "adir");
    const std::string run = (dir / "run.json").string();
    for (const std::string& plot :
         {(dir / "." / "run.json").string(), (dir / "adir" / ".." / "run.json").string(),
          (dir / "adir" / ".." / "." / "run.json").string()}) {
        const Result r =
            Run({"train", "--steps", "1", "--pe", "none", "--out", run, "--plot", plot});
        EXPECT_EQ(r.exit_code, 2) << plot << ": " << r.err;
        EXPECT_NE(r.err.find("--plot"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("train:"), std::string::npos) << "refused before training: " << r.err;
        EXPECT_FALSE(fs::exists(run)) << plot;
    }
    // A link to the run that does not exist yet: refused as a link to nowhere, before training.
    fs::create_symlink("run.json", dir / "alias.json");
    const Result alias = Run({"train", "--steps", "1", "--pe", "none", "--out", run, "--plot",
                              (dir / "alias.json").string()});
    EXPECT_NE(alias.exit_code, 0);
    EXPECT_NE(alias.err.find("symbolic link to a file that does not exist"), std::string::npos)
        << alias.err;
    EXPECT_FALSE(fs::exists(run));
    // Once the run exists, a hard link to it is the same file too.
    std::ofstream(run) << "{}";
    fs::create_hard_link(run, dir / "hard.json");
    const Result hard = Run({"train", "--steps", "1", "--pe", "none", "--out", run, "--plot",
                             (dir / "hard.json").string()});
    EXPECT_EQ(hard.exit_code, 2) << hard.err;
    EXPECT_EQ(ReadAll(run), "{}");
    // Two different files in one folder are fine.
    const Result two = Run({"train", "--steps", "1", "--pe", "none", "--batch", "1", "--out",
                            (dir / "a.json").string(), "--plot", (dir / "adir/../a.png").string()});
    EXPECT_EQ(two.exit_code, 0) << two.err;
    EXPECT_TRUE(fs::exists(dir / "a.png"));
}

// The size message names the limit that applies to the file it refuses.
TEST_F(Cli, TheSizeMessageNamesTheLimitThatApplies) {
    const fs::path huge = dir / "huge.json"; // sparse: 100 MB without writing them
    std::ofstream(huge) << "{";
    fs::resize_file(huge, 100'000'000);
    const Result r = Run({"readouts", "--run", huge.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("larger than 65536 KiB (the largest PNG figure PE Lab reads; a training "
                         "run is at most 8192 KiB, a scene, lesson or quiz 1024 KiB)"),
              std::string::npos)
        << r.err;
    // 9 MiB: over a run's limit.
    fs::resize_file(huge, 9u << 20);
    const Result run = Run({"readouts", "--run", huge.string()});
    EXPECT_NE(run.err.find("larger than 8192 KiB (the largest training run"), std::string::npos)
        << run.err;
    // 2 MiB of a scene: a run may be that large, a scene may not.
    std::ofstream(dir / "scene.json") << R"({"format": "pelab-scene", "version": 1, "pad": ")"
                                      << std::string(2u << 20, 'x') << "\"}";
    const Result scene = Run({"readouts", "--scene", (dir / "scene.json").string()});
    EXPECT_EQ(scene.exit_code, 2);
    EXPECT_NE(scene.err.find("larger than 1024 KiB (a scene, lesson or quiz is at most that; only "
                             "a training run may be larger)"),
              std::string::npos)
        << scene.err;
}

// One writer, one message path: a full disk is "No space left on device" with the file's name
// for every command and for standard output (train and readouts said "write failed (disk
// full?)" or "writing failed"). A run whose final write fails is not thrown away: it is kept
// in $TMPDIR and the message says where; a read-only run file is refused before training.
TEST_F(Cli, AFullDiskIsSaidAsSuchAndARunIsNeverThrownAway) {
    const std::vector<std::string> tiny = {"train", "--steps", "1", "--pe", "none", "--batch", "1"};
    std::vector<std::string> to_full = tiny;
    to_full.insert(to_full.end(), {"--out", "/dev/full"});
    const Result train = Run(to_full, {}, {{"TMPDIR", dir.string()}});
    EXPECT_EQ(train.exit_code, 1) << train.err;
    EXPECT_NE(train.err.find("cannot write \"/dev/full\": No space left on device"),
              std::string::npos)
        << train.err;
    const std::string kept = "the run is kept in ";
    const std::size_t at = train.err.find(kept);
    ASSERT_NE(at, std::string::npos) << train.err;
    std::string rescued = train.err.substr(at + kept.size());
    rescued = rescued.substr(0, rescued.find('\n'));
    EXPECT_EQ(fs::path(rescued).parent_path(), dir) << rescued;
    const Result reread = Run({"readouts", "--run", rescued});
    EXPECT_EQ(reread.exit_code, 0) << reread.err;

    const Result to_stdout = Run(tiny, {}, {{"TMPDIR", dir.string()}}, "/dev/full");
    EXPECT_EQ(to_stdout.exit_code, 1);
    EXPECT_NE(to_stdout.err.find("cannot write to standard output: No space left on device"),
              std::string::npos)
        << to_stdout.err;
    EXPECT_NE(to_stdout.err.find(kept), std::string::npos) << to_stdout.err;

    const Result readouts = Run({"readouts", "--out", "/dev/full"});
    EXPECT_EQ(readouts.exit_code, 1);
    EXPECT_NE(readouts.err.find("cannot write \"/dev/full\": No space left on device"),
              std::string::npos)
        << readouts.err;

    // A read-only run file is refused before any training (by its permissions: also as root).
    const fs::path locked = dir / "locked.json";
    std::ofstream(locked) << "{}";
    fs::permissions(locked, fs::perms::owner_read);
    std::vector<std::string> to_locked = tiny;
    to_locked.insert(to_locked.end(), {"--out", locked.string()});
    const Result refused = Run(to_locked);
    EXPECT_EQ(refused.exit_code, 1) << refused.err;
    EXPECT_NE(refused.err.find("read-only"), std::string::npos) << refused.err;
    EXPECT_EQ(refused.err.find("train:"), std::string::npos) << "before training";
    EXPECT_EQ(ReadAll(locked), "{}");
}

// A writer killed between naming its finished temporary file and renaming it over the target
// leaves ".pelab-<pid>-0" (one kill in about a thousand did): the next write to that folder
// removes it, and only what belongs to a process that is gone. The hook
// PELAB_TEST_STOP_BEFORE_RENAME stops the writer at that moment (SIGSTOP) so the test can kill
// it there.
TEST_F(Cli, AStaleTemporaryIsRemovedByTheNextWrite) {
    const fs::path target = dir / "readouts.json";
    const pid_t pid = fork();
    if (pid == 0) {
        setenv("PELAB_TEST_STOP_BEFORE_RENAME", "1", 1);
        if (!std::freopen("/dev/null", "w", stderr)) _exit(127);
        ExecPelab({"readouts", "--out", target.string()});
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, WUNTRACED), pid);
    ASSERT_TRUE(WIFSTOPPED(status)) << "the hook did not stop the writer";
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    const fs::path left = dir / (".pelab-" + std::to_string(pid) + "-0");
    ASSERT_TRUE(fs::exists(left)) << "no leftover to remove: the hook stops elsewhere";
    EXPECT_FALSE(fs::exists(target));
    // Names that only look like ours, or whose process runs (this test's own), stay.
    const fs::path alive = dir / (".pelab-" + std::to_string(::getpid()) + "-0");
    const fs::path other = dir / ".pelab-12x-0";
    std::ofstream(alive) << "x";
    std::ofstream(other) << "x";
    // Names PE Lab never writes stay too, whatever their pid: leading zeros, an attempt past 99,
    // a pid past any pid_max.
    const std::vector<fs::path> not_ours = {dir / ".pelab-099999-1", dir / ".pelab-99999-01",
                                            dir / ".pelab-99999-100", dir / ".pelab-4194305-1"};
    for (const fs::path& path : not_ours)
        std::ofstream(path) << "x";
    const Result next = Run({"readouts", "--out", (dir / "again.json").string()});
    ASSERT_EQ(next.exit_code, 0) << next.err;
    EXPECT_FALSE(fs::exists(left)) << "the stale temporary is still there";
    EXPECT_TRUE(fs::exists(alive));
    EXPECT_TRUE(fs::exists(other));
    for (const fs::path& path : not_ours)
        EXPECT_TRUE(fs::exists(path)) << path;
}

// The picture never lands where the run goes: --plot naming the very file standard output is
// (the run going to stdout) is refused before training; once it replaced the run with the PNG
// and said nothing. And every command that prints says why when standard output cannot take
// it (lesson notes to a full disk exited 1 without a word).
TEST_F(Cli, NoOutputLandsOnStandardOutputUnseen) {
    for (const std::string plot : {"/dev/stdout", "/proc/self/fd/1"}) {
        const Result r =
            Run({"train", "--steps", "1", "--batch", "1", "--pe", "none", "--plot", plot}, {}, {},
                (dir / "o.txt").string());
        EXPECT_EQ(r.exit_code, 2) << plot << ": " << r.err;
        EXPECT_NE(r.err.find("--plot"), std::string::npos) << r.err;
    }
    std::ofstream(dir / "lesson.json") << R"({"title": "t", "steps": [{"caption": "c"}]})";
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"lesson", "notes", (dir / "lesson.json").string()},
          std::vector<std::string>{"lesson", "check", (dir / "lesson.json").string()},
          std::vector<std::string>{"lesson", "widgets"}, std::vector<std::string>{"panels"},
          std::vector<std::string>{"panels", "--json"}}) {
        const Result r = Run(args, {}, {}, "/dev/full");
        EXPECT_EQ(r.exit_code, 1) << args.back();
        EXPECT_NE(r.err.find("cannot write to standard output: No space left on device"),
                  std::string::npos)
            << args.front() << " " << args.back() << ": " << r.err;
    }
}
