#include "fuzz_targets.h"

#include "cli/cli.h"
#include "io/json_input.h"
#include "io/lesson.h"
#include "io/model_files.h"
#include "io/png_scene.h"
#include "io/quiz.h"
#include "io/train_run.h"
#include "panels/quiz/panel_quiz.h"
#include "panels/train/panel_train.h"
#include "panels/train/train_verdict.h"
#include "pelab/base/error.h"
#include "pelab/encodings/attention.h"
#include "pelab/encodings/embedding.h"
#include "pelab/models/gguf.h"
#include "pelab/models/model_config.h"
#include "shell/app.h"
#include "shell/lesson_player.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace pelab::fuzz {

std::vector<nlohmann::json::json_pointer> ValuePointers(const nlohmann::json& doc,
                                                        std::size_t limit) {
    std::vector<nlohmann::json::json_pointer> pointers;
    const std::function<void(const nlohmann::json&, const nlohmann::json::json_pointer&)> walk =
        [&](const nlohmann::json& value, const nlohmann::json::json_pointer& at) {
            if (pointers.size() >= limit) return;
            if (!at.empty()) pointers.push_back(at);
            if (value.is_object())
                for (const auto& item : value.items())
                    walk(item.value(), at / item.key());
            else if (value.is_array())
                for (std::size_t k = 0; k < value.size(); ++k)
                    walk(value[k], at / k);
        };
    walk(doc, nlohmann::json::json_pointer());
    return pointers;
}

namespace {

// Calls read(mutated) for copies of doc where one value (object member or list item, at any
// depth) is replaced by a value of another type: the typed-value mutations that once quit the
// app ("playing": 1 in a lesson step). A small document has every value replaced; a large one
// has 4 of them, spread over it and picked by seed (the input's size), so a fuzzer running
// on it still tries thousands of inputs a minute while covering every value over many inputs.
template <typename Read>
void ForEachTypedMutation(const nlohmann::json& doc, std::size_t seed, Read&& read) {
    const std::vector<nlohmann::json::json_pointer> pointers = ValuePointers(doc, 4000);
    if (pointers.empty()) return;
    // Values of every JSON type, to put where the file had something else.
    const nlohmann::json types =
        nlohmann::json::parse(R"([null, true, 1, -1, 1.5, 1e300, "x", "", [], [1], {}, {"a": 1}])");
    const bool every = pointers.size() <= 32;
    const std::size_t count = every ? pointers.size() : 4;
    const std::size_t step = every ? 1 : pointers.size() / count;
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t node = every ? k : (seed + k * step) % pointers.size();
        for (std::size_t j = 0; j < (every ? 4u : 2u); ++j) {
            nlohmann::json mutated = doc;
            mutated[pointers[node]] = types[(node + 3 * j + seed) % types.size()];
            read(mutated);
        }
    }
}

// The message promise of every reader: one line, short.
void CheckMessage(const std::string& error) {
    if (error.find('\n') != std::string::npos || error.size() > 4096) __builtin_trap();
}

} // namespace

// libFuzzer target: the scene parser (every field of the scene table, all or nothing). Any input
// must give "" or a one-line message, never a crash, a sanitizer report, a hang or a leak.
int Scene(const std::uint8_t* data, std::size_t size) {
    App app;
    const std::string error =
        app.scene.Apply(std::string(reinterpret_cast<const char*>(data), size));
    if (error.find('\n') != std::string::npos || error.size() > 4096) __builtin_trap();
    if (nlohmann::json doc;
        ParseJsonInput(std::string(reinterpret_cast<const char*>(data), size), &doc).empty()) {
        App scratch; // one for all the mutations: a refused scene changes nothing
        ForEachTypedMutation(doc, size, [&](const nlohmann::json& mutated) {
            CheckMessage(scratch.scene.ApplyDocument(mutated));
        });
    }
    if (error.empty()) {
        // What was accepted is within range and writes back as a scene that reads again.
        if (app.state.d_model % 2 != 0 || app.state.pair >= app.state.d_model / 2) __builtin_trap();
        App again;
        if (!again.scene.Apply(app.Document(false).dump()).empty()) __builtin_trap();
    }
    return 0;
}

// libFuzzer target: the lesson reader. Any input gives "" or a one-line message naming where;
// a refused lesson changes nothing; an accepted one can be stepped through to its end and back.
int Lesson(const std::uint8_t* data, std::size_t size) {
    App app;
    const nlohmann::json before = app.scene.Document();
    pelab::Lesson lesson;
    const std::string error = ParseLesson(std::string(reinterpret_cast<const char*>(data), size),
                                          app.scene, app.panels, &lesson);
    if (error.find('\n') != std::string::npos || error.size() > 4096) __builtin_trap();
    if (app.scene.Document() != before) __builtin_trap(); // checking never leaves a trace
    // Every field of the input, with a value of each other type: a message, never an exception.
    if (nlohmann::json doc;
        ParseJsonInput(std::string(reinterpret_cast<const char*>(data), size), &doc).empty())
        ForEachTypedMutation(doc, size, [&](const nlohmann::json& mutated) {
            pelab::Lesson ignored;
            CheckMessage(ReadLesson(mutated, app.scene, app.panels, &ignored));
        });
    if (app.scene.Document() != before) __builtin_trap();
    if (!error.empty()) return 0;
    if (lesson.steps.empty()) __builtin_trap();
    StartLesson(app, lesson);
    for (int k = 1; k < static_cast<int>(lesson.steps.size()); ++k)
        GoToStep(app, k);
    GoToStep(app, 0);
    if (app.state.d_model % 2 != 0 || app.state.pair >= app.state.d_model / 2) __builtin_trap();
    return 0;
}

// libFuzzer target: the quiz reader (questions, cards, rubric, each show's scene checked). Any
// input gives "" or a one-line message, leaves the scene as it was when refused; an accepted
// quiz is installed in the panel, each show applied as a reveal applies it, and the rubric hint
// run over the input itself.
int Quiz(const std::uint8_t* data, std::size_t size) {
    App app;
    const nlohmann::json before = app.scene.Document();
    const std::string text(reinterpret_cast<const char*>(data), size);
    pelab::Quiz quiz;
    const std::string error = ParseQuiz(text, app.scene, app.panels, &quiz);
    if (error.find('\n') != std::string::npos || error.size() > 4096) __builtin_trap();
    if (app.scene.Document() != before) __builtin_trap();
    if (nlohmann::json doc; ParseJsonInput(text, &doc).empty())
        ForEachTypedMutation(doc, size, [&](const nlohmann::json& mutated) {
            pelab::Quiz ignored;
            CheckMessage(ReadQuiz(mutated, app.scene, app.panels, &ignored));
        });
    if (app.scene.Document() != before) __builtin_trap();
    if (!error.empty()) return 0;
    (void)MentionedIdeas(quiz.rubric, text);
    auto& panel = dynamic_cast<QuizPanel&>(*app.panels.Find("quiz")->panel);
    panel.SetQuiz(quiz);
    for (std::size_t k = 0; k < quiz.questions.size(); ++k) {
        FrameRequests requests;
        QuizPanel::RequestShow(quiz.questions[k].show, requests);
        if (!requests.apply_scene.is_null()) (void)app.scene.ApplyDocument(requests.apply_scene);
    }
    if (app.state.d_model % 2 != 0 || app.state.pair >= app.state.d_model / 2) __builtin_trap();
    return 0;
}

// libFuzzer target: the training-run reader (File → Open of a `pelab train` file). Any input
// gives "" or a one-line message naming the field; a refused run leaves the Train panel as it
// was; an accepted one is shown by the panel, whose verdict and readouts come from it.
int TrainRunFile(const std::uint8_t* data, std::size_t size) {
    App app;
    // The panel's own run (none yet) rather than a built-in one: reading a 250 KB built-in run
    // for every input would slow the fuzzer to a few inputs a second.
    if (!app.scene.Apply(R"({"train_result": ""})").empty()) __builtin_trap();
    auto& panel = dynamic_cast<TrainPanel&>(*app.panels.Find("train")->panel);
    const nlohmann::json before = panel.Readouts(app.state);
    nlohmann::json doc;
    if (!ParseJsonInput(std::string(reinterpret_cast<const char*>(data), size), &doc).empty())
        return 0;
    ForEachTypedMutation(doc, size, [&](const nlohmann::json& mutated) {
        TrainRun ignored;
        CheckMessage(ReadTrainRun(mutated, &ignored));
    });
    const std::string error = panel.OpenDocument(doc, "fuzz.json", app.scene, app.panels);
    CheckMessage(error);
    if (!error.empty()) {
        if (panel.Readouts(app.state) != before) __builtin_trap();
        return 0;
    }
    const nlohmann::json shown = panel.Readouts(app.state);
    if (shown["source"] != "run file fuzz.json") __builtin_trap();
    if (shown["verdict"] != TrainVerdict(panel.own_run).text) __builtin_trap();
    // What was accepted writes back as a run that reads again.
    TrainRun again;
    if (!ReadTrainRun(TrainRunJson(panel.own_run), &again).empty()) __builtin_trap();
    return 0;
}

// libFuzzer target: a checkpoint file (written to a file of this process's own, since the readers
// map files), opened and analysed; then, if it holds tensors, read with each as the position
// table. A message must be one line; an accepted file must give numbers that print as JSON.
int ModelFile(const std::uint8_t* data, std::size_t size) {
    // A folder of this process's own: no config.json lies beside the file.
    const std::string folder = "/tmp/pelab-fuzz-model-" + std::to_string(getpid());
    mkdir(folder.c_str(), 0700);
    const std::string path = folder + "/model.safetensors";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    ModelReport report;
    const std::string error = OpenModel(ModelRequest{path, "/dev/null/none", ""}, &report);
    // The config named does not exist: the message says so, whatever the weights hold.
    if (error.empty() || error.find("none") == std::string::npos) __builtin_trap();
    CheckMessage(error);
    const std::string opened = OpenModel(ModelRequest{path, "", ""}, &report);
    CheckMessage(opened);
    if (opened.empty()) {
        (void)ModelReportJson(report, true)
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        (void)ModelReportText(report);
        for (std::size_t i = 0; i < report.tensors_2d.size() && i < 4; ++i) {
            ModelReport chosen;
            CheckMessage(OpenModel(ModelRequest{path, "", report.tensors_2d[i]}, &chosen));
        }
    }
    std::remove(path.c_str());
    return 0;
}

// libFuzzer target: GGUF's header and metadata (the parser trusts no count or length), then the
// metadata mapped onto config.json's settings and read as one.
int GgufHeader(const std::uint8_t* data, std::size_t size) {
    const GgufReadAt read = [&](std::uint64_t offset, std::size_t count, void* out) -> Status {
        if (offset > size || count > size - offset) return std::string("past the end");
        std::memcpy(out, data + offset, count);
        return {};
    };
    GgufFile file;
    const Status parsed = ParseGguf(read, size, &file);
    CheckMessage(parsed.message());
    if (!parsed.ok()) return 0;
    nlohmann::json config;
    std::vector<std::string> notes;
    GgufFactorTensors factors;
    factors.freq_factors = {1, 1, 2, 4, 8, 8};
    const Status mapped = GgufConfig(file, factors, &config, &notes);
    CheckMessage(mapped.message());
    if (mapped.ok()) {
        CheckpointConfig read_config;
        CheckMessage(ReadModelConfig(config, &read_config).message());
    }
    return 0;
}

// libFuzzer target: config.json's reader, on the document and on every typed mutation of it.
int ModelConfigFile(const std::uint8_t* data, std::size_t size) {
    nlohmann::json doc;
    if (!ParseJsonInput(std::string(reinterpret_cast<const char*>(data), size), &doc).empty())
        return 0;
    ForEachTypedMutation(doc, size, [&](const nlohmann::json& mutated) {
        CheckpointConfig config;
        config.hidden = -5;
        const std::string error = ReadModelConfig(mutated, &config).message();
        CheckMessage(error);
        if (!error.empty() && config.hidden != -5) __builtin_trap(); // untouched when refused
    });
    return 0;
}

// libFuzzer target: the PNG text-chunk reader behind `--scene FIGURE.png`, then the scene parser
// on whatever text it finds.
int PngScene(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    std::string text;
    // A third of the inputs (by length) read with a 64-byte limit, so the oversized-chunk path
    // is reached by inputs far smaller than a real 1 MiB scene.
    const std::size_t limit = size % 3 == 0 ? 64 : kMaxInputBytes;
    if (ReadPngTextChunk(bytes, kSceneChunkKeyword, limit, &text).empty()) {
        App app;
        (void)app.scene.Apply(text);
    }
    return 0;
}

// libFuzzer target: the order demo's tokenizer and UTF-8 checker, and the demo itself on what
// it accepts (sentence A = the input, sentence B = the input reversed word by word).
int Tokenize(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        std::vector<std::string> words = tokenize(text);
        std::string reversed;
        std::reverse(words.begin(), words.end());
        for (const std::string& word : words)
            reversed += word + " ";
        OrderDemoOptions options;
        options.d_model = 64;
        (void)run_order_demo(text, reversed, options);
    } catch (const InvalidArgument&) {
        // refused with a message: fine
    }
    return 0;
}

// libFuzzer target: the command-line parser. The input is split at NUL bytes into arguments;
// parsing must end in a command or an exit code, never a crash. Nothing is run.
int CommandLine(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args{"pelab"};
    std::string current;
    for (std::size_t k = 0; k < size && args.size() < 64; ++k) {
        if (data[k] == 0) {
            args.push_back(current);
            current.clear();
        } else {
            current.push_back(static_cast<char>(data[k]));
        }
    }
    args.push_back(current);
    std::vector<char*> argv;
    for (std::string& arg : args)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    const pelab::CommandLine command = ParseCommandLine(static_cast<int>(args.size()), argv.data());
    if (command.command == Subcommand::Exit && command.exit_code != 0 && command.exit_code != 2)
        __builtin_trap(); // only success or bad usage are possible answers
    return 0;
}

} // namespace pelab::fuzz
