#include "cli/cli_train.h"

#include "cli/cli.h"
#include "cli/cli_checks.h"
#include "io/json_input.h"
#include "io/png_scene.h"
#include "io/train_run.h"
#include "pelab/base/error.h"
#include "pelab/export/export.h"
#include "pelab/training/train.h"
#include "shell/app.h"
#include "shell/software_picture.h"
#include "widgets/fonts.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace pelab {

CLI::App* AddTrainCommand(CLI::App& app, TrainOptions& o) {
    CLI::App* train = app.add_subcommand(
        "train", "Train a tiny transformer once per positional encoding on a task (no window)");
    train->add_option("--task", o.task,
                      "reverse, token_at, shift, sorted, first, majority or word_back");
    train->add_option("--pe", o.pe, "Variants, comma-separated, of: " + positional_kind_list());
    train->add_flag("--causal", o.causal, "Causal attention (keys after the query masked)")
        ->disable_flag_override();
    train->add_option("--layers", o.layers, "Layers, 1 to 4")
        ->transform(WholeNumber(1, kTrainMaxLayers));
    // Each method's options, from its row (the run is refused if it trains no such method).
    std::vector<std::string> option_flags;
    for (const PositionalKind kind : positional_kinds())
        for (const MethodOption& option : positional_method_info(kind).options) {
            option_flags.push_back(method_option_flag(option));
            train
                ->add_option(option_flags.back(), o.method_options[option.key],
                             std::string(option.help) + "; " + std::to_string(option.min_value) +
                                 " to " + std::to_string(option.max_value) + " (default " +
                                 std::to_string(MethodOptions{}.*option.field) + ")")
                ->transform(WholeNumber(option.min_value, option.max_value));
        }
    train->add_option("--d-model", o.d_model, "Model width, 16 to 128")
        ->transform(WholeNumber(kTrainMinDModel, kTrainMaxDModel));
    train->add_option("--heads", o.heads, "Heads, 1 to 4")
        ->transform(WholeNumber(1, kTrainMaxHeads));
    train->add_option("--vocab", o.vocab, "Vocabulary size, 2 to 256")
        ->transform(WholeNumber(kTrainMinVocab, kTrainMaxVocab));
    train
        ->add_option(
            "--k", o.k,
            "token_at's position, shift's offset, 0 to 64; word_back's words back, 0 to 16")
        ->transform(WholeNumber(0, kTrainMaxK));
    train->add_option("--train-len", o.train_len, "Longest training sequence, up to 256")
        ->transform(WholeNumber(1, kTrainMaxTrainLen));
    train
        ->add_option("--min-train-len", o.min_train_len,
                     "Shortest training sequence (default: --train-len, one length)")
        ->transform(WholeNumber(1, kTrainMaxTrainLen));
    train->add_option("--test-len", o.test_len, "Longest test sequence, up to 1024")
        ->transform(WholeNumber(1, kTrainMaxTestLen));
    train->add_option("--steps", o.steps, "Steps per variant, 1 to 1000000")
        ->transform(WholeNumber(1, kTrainMaxSteps));
    train->add_option("--batch", o.batch, "Sequences per step, 1 to 1024")
        ->transform(WholeNumber(1, kTrainMaxBatch));
    train->add_option("--threads", o.threads, "Variants trained at once, 1 to 16")
        ->transform(WholeNumber(1, 16));
    train->add_option("--seed", o.seed, "Seed of the models and the data")->check(Seed());
    train
        ->add_option("--seeds", o.seeds,
                     "Train each variant from this many seeds (seed, seed + 1, …), 1 to 5: the "
                     "run holds each one's accuracy per length, the curves are the first's")
        ->transform(WholeNumber(1, 1 + static_cast<int>(kMaxMoreSeeds)));
    train->add_option("--out", o.out, "The run as JSON; - or omitted: stdout")->check(FileName());
    CLI::Option* quick =
        train
            ->add_flag("--quick-demo", o.quick_demo,
                       "The Train panel's Quick demo: reverse, none against sinusoidal, 150 steps, "
                       "tested to 32 tokens (with --threads, --seed, --out and --plot only)")
            ->disable_flag_override();
    for (const char* setting :
         {"--task", "--pe", "--causal", "--layers", "--d-model", "--heads", "--vocab", "--k",
          "--train-len", "--min-train-len", "--test-len", "--steps", "--batch"})
        quick->excludes(train->get_option(setting));
    for (const std::string& flag : option_flags)
        quick->excludes(train->get_option(flag));
    train
        ->add_option("--plot", o.plot,
                     "Also a PNG of the Train panel showing the run (accuracy per test length, "
                     "the verdict); needs no display")
        ->check(FileName());
    return train;
}

namespace {

// Before training: the run's file can be written. check_writable's folder checks, then a file
// actually created and removed in the folder (a read-only or full file system says so now, not
// after an hour of training), and an existing run that is read-only is not replaced.
std::string CheckRunTarget(const std::string& out) {
    std::string error;
    if (!CheckOutputFolder(out, &error)) return error;
    if (WritesToStdout(out)) return {};
    struct stat info {};
    if (::stat(out.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) return {}; // written in place
    // Read-only by its permissions (no write bit for its owner), which root's access() ignores.
    if (::stat(out.c_str(), &info) == 0 &&
        ((info.st_mode & S_IWUSR) == 0 || ::access(out.c_str(), W_OK) != 0))
        return "cannot write " + Excerpt(out) +
               ": it is read-only (make it writable, or choose another name)";
    const std::filesystem::path folder = std::filesystem::path(out).parent_path();
    std::string probe =
        ((folder.empty() ? std::filesystem::path(".") : folder) / ".pelab-probe-XXXXXX").string();
    const int descriptor = ::mkstemp(probe.data());
    if (descriptor < 0)
        return "cannot write " + Excerpt(out) + ": creating a file in its folder failed (" +
               std::strerror(errno) + ")";
    ::close(descriptor);
    ::unlink(probe.c_str());
    return {};
}

// When the run's file cannot be written at the end, the run is not thrown away: it goes to a
// file of its own beside the target (a regular file's folder), else in $TMPDIR; the path, or "".
std::string RescueRun(const std::string& out, const std::string& text) {
    namespace fs = std::filesystem;
    std::vector<fs::path> folders;
    struct stat info {};
    const bool special = ::stat(out.c_str(), &info) == 0 && !S_ISREG(info.st_mode);
    if (!WritesToStdout(out) && !special) {
        const fs::path folder = fs::path(out).parent_path();
        folders.push_back(folder.empty() ? fs::path(".") : folder);
    }
    const char* temporary = std::getenv("TMPDIR");
    folders.emplace_back(temporary && *temporary ? temporary : "/tmp");
    for (const fs::path& folder : folders) {
        const fs::path rescue =
            folder / ("pelab-train-rescued-" + std::to_string(::getpid()) + ".json");
        try {
            write_file_atomically(
                rescue.string(), [&](std::ostream& stream) { stream << text; },
                ExistingName::kReplace);
            return rescue.string();
        } catch (const IoError&) {
        }
    }
    return {};
}

} // namespace

namespace {

// The run's settings from the options; throws InvalidArgument naming what is wrong.
TrainSettings SettingsOf(const TrainOptions& o) {
    TrainSettings settings;
    settings.task.task = train_task_from_name(o.task);
    settings.task.vocab = o.vocab;
    settings.task.k = o.k;
    settings.variants.clear();
    // Split at every comma, keeping empty names (getline would drop a trailing one, so
    // "none," passed while ",none" was refused): an empty name is refused either way.
    for (std::size_t start = 0;;) {
        const std::size_t comma = o.pe.find(',', start);
        const std::string name = o.pe.substr(start, comma - start);
        if (name.empty())
            throw InvalidArgument("--pe: an empty name in \"" + o.pe +
                                  "\" (names are separated by single commas)");
        settings.variants.push_back(positional_kind_from_name(name));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    settings.causal = o.causal;
    settings.layers = o.layers;
    // A method's option: refused for runs without the method (it would change nothing).
    for (const PositionalKind kind : positional_kinds())
        for (const MethodOption& option : positional_method_info(kind).options) {
            const auto given = o.method_options.find(option.key);
            if (given == o.method_options.end() || given->second == 0) continue;
            if (std::find(settings.variants.begin(), settings.variants.end(), kind) ==
                settings.variants.end())
                throw InvalidArgument(method_option_flag(option) + " is an option of " +
                                      positional_kind_name(kind) + ", and --pe " + o.pe +
                                      " has no " + positional_kind_name(kind));
            settings.method_options.*option.field = given->second;
        }
    settings.d_model = o.d_model;
    settings.heads = o.heads;
    settings.train_len = o.train_len;
    settings.min_train_len = o.min_train_len > 0 ? o.min_train_len : o.train_len;
    settings.test_len = o.test_len;
    settings.steps = o.steps;
    settings.batch = o.batch;
    settings.seed = std::stoull(o.seed);
    if (o.quick_demo) {
        const std::uint64_t seed = settings.seed;
        settings = quick_demo_settings();
        settings.seed = seed;
    }
    settings.eval_every = EvalEvery(settings.steps);
    validate_train_settings(settings);
    if (o.threads < 1 || o.threads > 16)
        throw InvalidArgument("threads must be in [1, 16] (got " + std::to_string(o.threads) + ")");
    return settings;
}

// Trains every trainer, `threads` at a time, printing the progress on stderr about once a
// second; returns the seconds it took.
double TrainAll(const std::vector<std::unique_ptr<Trainer>>& trainers, int threads_asked) {
    const auto start = std::chrono::steady_clock::now();
    std::size_t next = 0;
    std::vector<std::thread> running;
    std::mutex take;
    const auto worker = [&] {
        for (;;) {
            std::size_t mine = 0;
            {
                const std::lock_guard<std::mutex> lock(take);
                if (next >= trainers.size()) return;
                mine = next++;
            }
            while (!trainers[mine]->Done())
                trainers[mine]->Step(10);
        }
    };
    const int threads = std::min<int>(threads_asked, static_cast<int>(trainers.size()));
    for (int t = 0; t < threads; ++t)
        running.emplace_back(worker);
    // Progress on stderr, about once a second: steps done, and the time left at this pace.
    double last_print = -1;
    for (bool done = false; !done;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        double progress = 0;
        done = true;
        for (const auto& trainer : trainers) {
            progress += trainer->Progress();
            done = done && trainer->Done();
        }
        progress /= static_cast<double>(trainers.size());
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (done || seconds - last_print >= 1.0) {
            last_print = seconds;
            // The time left at the pace measured so far; none before the first step is done.
            if (progress > 0)
                std::fprintf(stderr, "train: %5.1f%%  %.0f s, about %.0f s left\n", 100 * progress,
                             seconds, seconds * (1 - progress) / progress);
            else
                std::fprintf(stderr, "train: %5.1f%%  %.0f s, timing the first step\n",
                             100 * progress, seconds);
        }
    }
    for (std::thread& thread : running)
        thread.join();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return seconds;
}

// The run as the file holds it: the settings, each variant's curves (the further seeds' test
// accuracies beside them), the time and the pace.
TrainRun RunOf(const TrainSettings& settings, const std::vector<std::unique_ptr<Trainer>>& trainers,
               double seconds) {
    TrainRun run;
    run.settings = settings;
    run.example = train_example(settings);
    double token_seconds = 0;
    const std::size_t variants = settings.variants.size();
    for (std::size_t v = 0; v < variants; ++v)
        run.variants.push_back(VariantResultOf(*trainers[v], 0, run.example));
    for (std::size_t k = 0; k < trainers.size(); ++k) {
        token_seconds += trainers[k]->Curves()[0].seconds;
        if (k >= variants)
            run.variants[k % variants].more_seeds.push_back(
                trainers[k]->Curves()[0].accuracy_by_length);
    }
    const double tokens = static_cast<double>(settings.steps) * settings.batch *
                          (settings.min_train_len + settings.train_len) / 2.0 *
                          static_cast<double>(trainers.size());
    run.seconds = seconds;
    run.tokens_per_second_per_thread = token_seconds > 0 ? tokens / token_seconds : 0.0;
    return run;
}

// The Train panel's picture of the run as the file holds it, drawn without a display: "" or why
// not.
std::string WritePlot(const TrainOptions& o, const nlohmann::json& written) {
    App app;
    (void)app.scene.Apply(R"({"hide_controls": true})"); // the picture is of the run
    PanelEntry* entry = app.panels.Find("train");
    if (std::string error = entry->panel->OpenDocument(
            written, WritesToStdout(o.out) ? std::string("(stdout)") : o.out, app.scene,
            app.panels);
        !error.empty())
        return "--plot: " + error;
    const int width = 1400, height = 900;
    const std::vector<unsigned char> rgba =
        SoftwarePicture(app, "train", width, height, kBaseFontPixels * 1.25f);
    if (std::string error = WritePngFile(o.plot, rgba, width, height, ""); !error.empty())
        return error;
    std::fprintf(stderr, "train: wrote %s (%dx%d)\n", o.plot.c_str(), width, height);
    return {};
}

} // namespace

int RunTrain(const TrainOptions& o) {
    TrainSettings settings;
    try {
        settings = SettingsOf(o);
    } catch (const InvalidArgument& e) {
        return UsageError(std::string("train: ") + e.what());
    }
    if (std::string error = CheckRunTarget(o.out); !error.empty()) return RuntimeError(error);
    std::string folder_error;
    if (!o.plot.empty() && !CheckOutputFolder(o.plot, &folder_error))
        return RuntimeError(folder_error);
    // The picture must not land where the run goes: by name, or as the very file standard
    // output is (--plot /dev/stdout while the run goes to stdout replaced the run with the PNG).
    if (!o.plot.empty() && (WritesToStdout(o.plot) || SameFile(o.plot, o.out) ||
                            (WritesToStdout(o.out) && IsStandardOutput(o.plot))))
        return UsageError("--plot: " + Excerpt(o.plot) +
                          " must be a file of its own (not stdout, not the --out file)");

    // One trainer per seed and variant (seed after seed, each the variants in order),
    // `threads` at a time; each is deterministic on its own, so the result does not depend on
    // how many run together.
    std::vector<std::unique_ptr<Trainer>> trainers;
    for (int seed = 0; seed < o.seeds; ++seed)
        for (const PositionalKind kind : settings.variants) {
            TrainSettings one = settings;
            one.variants = {kind};
            one.seed = settings.seed + static_cast<std::uint64_t>(seed);
            trainers.push_back(std::make_unique<Trainer>(one));
        }
    const double seconds = TrainAll(trainers, o.threads);
    const TrainRun run = RunOf(settings, trainers, seconds);
    const nlohmann::json written = TrainRunJson(run);
    const std::string text = TrainRunText(run);
    try {
        Emit(o.out, [&](std::ostream& out) { out << text; });
    } catch (const IoError& e) {
        const std::string rescued = RescueRun(o.out, text);
        return RuntimeError(std::string(e.what()) + (rescued.empty()
                                                         ? "; the run could not be kept anywhere"
                                                         : "; the run is kept in " + rescued));
    }
    if (o.plot.empty()) return kExitOk;
    if (std::string error = WritePlot(o, written); !error.empty()) return RuntimeError(error);
    return kExitOk;
}

} // namespace pelab
