#include "cli/cli.h"

#include "cli/cli_checks.h"
#include "cli/cli_lesson.h"
#include "cli/cli_render.h"
#include "io/json_input.h"
#include "io/train_run.h"
#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/attention.h"
#include "pelab/encodings/embedding.h"
#include "pelab/export/export.h"
#include "shell/app.h"
#include "shell/app_ui.h"
#include "widgets/theme.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace pelab {

namespace {

// Runs one option's own validator; "" when it passes, else "--option: <why>".
std::string OptionError(const char* option, const std::function<void()>& validate) {
    try {
        validate();
        return {};
    } catch (const InvalidArgument& e) {
        return std::string(option) + ": " + e.what();
    }
}

// The first error of a list of OptionError results, or "".
std::string FirstError(std::initializer_list<std::string> errors) {
    for (const std::string& error : errors)
        if (!error.empty()) return error;
    return {};
}

} // namespace

namespace {

// The window's own options (no subcommand).
void AddGuiOptions(CLI::App& app, CommandLine& result) {
    app.add_option("--scene", result.gui.scene, "Open a scene file (JSON) saved by --state-out")
        ->check(FileName());
    app.add_option("--model", result.gui.model,
                   "Open a checkpoint in the Your model panel (model.safetensors or its folder, "
                   "an index, a .npy table)")
        ->check(FileName());
    app.add_option("--open", result.gui.open,
                   "After --model, open this file as File → Open or a drop would (repeat: "
                   "another engine's cos and sin tables for Your model › Check)")
        ->check(FileName());
    app.add_option(
           "--lesson", result.gui.lesson,
           "Teach a lesson file (JSON, assets/lessons/): PageDown / PageUp move between steps")
        ->check(FileName());
    app.add_option("--state-out", result.gui.state_out,
                   "When the app exits, save the current scene (and computed readouts) here")
        ->check(FileName());
    app.add_option("--widget-rects", result.gui.widget_rects,
                   "Test hook: keep the screen rectangles of named widgets in this JSON file")
        ->check(FileName())
        ->group(""); // hidden from --help: for the end-to-end tests
    app.add_flag("--fullscreen", result.gui.fullscreen, "Start fullscreen (F11 toggles)")
        ->disable_flag_override(); // "--fullscreen=no" must not mean yes
    app.add_option("--font-scale", result.gui.font_scale, "Text size factor, 0.5 to 4")
        ->check(PlainNumber())
        ->check(CLI::Range(0.5f, 4.0f));
    app.add_option("--theme", result.gui.theme,
                   "dark, light or high-contrast (default: the saved one, or the scene's)");
    app.add_option("--bench-frames", result.gui.bench_frames,
                   "Render N frames with the panels open, print median and p99 frame times")
        ->check(PlainNumber())
        ->check(CLI::Range(1, 1000000));
}

// `export pe` and `export attention`.
struct ExportCommands {
    CLI::App* pe = nullptr;
    CLI::App* attention = nullptr;
};
ExportCommands AddExportCommands(CLI::App& app, CommandLine& result) {
    CLI::App* export_command = app.add_subcommand("export", "Write data to a file or stdout");
    export_command->require_subcommand(1);

    ExportPeOptions& pe = result.export_pe;
    CLI::App* export_pe = export_command->add_subcommand(
        "pe", "The (max_len x d_model) sinusoidal PE matrix: row = position, column = dimension");
    export_pe->add_option("--max-len", pe.max_len, "Number of positions (rows), 1 to 1048576")
        ->check(PlainNumber())
        ->required();
    export_pe->add_option("--d-model", pe.d_model, "Model width (even, 2 to 16384)")
        ->check(PlainNumber())
        ->required();
    export_pe->add_option("--base", pe.base, "Frequency base (> 1)")
        ->check(PlainNumber())
        ->capture_default_str();
    export_pe
        ->add_option("--layout", pe.layout,
                     "interleaved: dim 2i = sin, 2i+1 = cos (the paper); "
                     "concat: sin half then cos half")
        ->check(CLI::IsMember({"interleaved", "concat", "concatenated"}))
        ->capture_default_str();
    export_pe->add_option("--format", pe.format, "csv, json or npy (NumPy <f4, C order)")
        ->check(CLI::IsMember({"csv", "json", "npy"}))
        ->capture_default_str();
    export_pe->add_option("--out", pe.out, "Output file (written atomically); - or none: stdout")
        ->check(FileName());

    ExportAttentionOptions& attention = result.export_attention;
    CLI::App* export_attention = export_command->add_subcommand(
        "attention", "QK^T scores and softmax weights for two sentences, with or without PE");
    export_attention->add_option("--sentence-a", attention.sentence_a, "First sentence")
        ->required();
    export_attention->add_option("--sentence-b", attention.sentence_b, "Second sentence")
        ->required();
    export_attention->add_option("--pe", attention.pe, "Add the positional encoding: on or off")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    export_attention
        ->add_option("--d-model", attention.d_model, "Model width (even, >= distinct words)")
        ->check(PlainNumber())
        ->capture_default_str();
    export_attention->add_option("--base", attention.base, "Frequency base (> 1)")
        ->check(PlainNumber())
        ->capture_default_str();
    export_attention
        ->add_option("--pe-scale", attention.pe_scale, "X = E + pe_scale * PE, 0 to 1000")
        ->check(PlainNumber())
        ->capture_default_str();
    export_attention
        ->add_flag("--sqrt-d-scale", attention.scale_embeddings,
                   "Multiply embeddings by sqrt(d_model) first")
        ->disable_flag_override();
    export_attention->add_option("--embedding", attention.embedding, "one-hot or random (seeded)")
        ->check(CLI::IsMember({"one-hot", "random"}))
        ->capture_default_str();
    export_attention->add_option("--seed", attention.seed, "Seed of the random embeddings")
        ->check(Seed())
        ->capture_default_str();
    export_attention->add_option("--format", attention.format, "json")
        ->check(CLI::IsMember({"json"}))
        ->capture_default_str();
    export_attention->add_option("--out", attention.out, "Output file; - or none: stdout")
        ->check(FileName());
    return {export_pe, export_attention};
}

CLI::App* AddReadoutsCommand(CLI::App& app, CommandLine& result) {
    ReadoutsOptions& readouts = result.readouts;
    CLI::App* readouts_command = app.add_subcommand(
        "readouts", "Print a scene with every panel's computed numbers as JSON (no window)");
    readouts_command->add_option("--scene", readouts.scene, "Start from this scene file")
        ->check(FileName());
    readouts_command
        ->add_option("--model", readouts.model,
                     "Open this checkpoint in the Your model panel first (as File → Open)")
        ->check(FileName());
    readouts_command
        ->add_option("--run", readouts.run,
                     "A training run written by pelab train: print the Train panel's numbers "
                     "for it")
        ->check(FileName());
    readouts_command->add_option("--out", readouts.out, "Output file; - or none: stdout")
        ->check(FileName());
    return readouts_command;
}

// `screenshot`; its --size is read into size_text and parsed after the line is.
CLI::App* AddScreenshotCommand(CLI::App& app, CommandLine& result, std::string& size_text) {
    ScreenshotOptions& shot = result.screenshot;
    CLI::App* screenshot = app.add_subcommand("screenshot", "Render the app offscreen to a PNG");
    screenshot->add_option("--scene", shot.scene, "Render this scene file")->check(FileName());
    screenshot
        ->add_option("--model", shot.model,
                     "Open this checkpoint in the Your model panel first (as File → Open)")
        ->check(FileName());
    screenshot
        ->add_option("--open", shot.open,
                     "After --model, open this file as File → Open would (repeatable)")
        ->check(FileName());
    screenshot->add_option("--panel", shot.panel,
                           "Only this panel, filling the image: " + PanelIdList());
    screenshot->add_option("--size", size_text, "Image size WIDTHxHEIGHT")->capture_default_str();
    screenshot->add_option("--font-scale", shot.font_scale, "Text size factor, 0.5 to 4")
        ->check(PlainNumber())
        ->check(CLI::Range(0.5f, 4.0f));
    screenshot
        ->add_option("--lesson", shot.lesson,
                     "Show this lesson at --step, with its lesson bar (a slide of it)")
        ->check(FileName());
    screenshot->add_flag("--notes", shot.notes, "With --lesson: show the step's speaker notes")
        ->disable_flag_override();
    screenshot->add_option("--step", shot.step, "The lesson step shown, from 1")
        ->check(PlainNumber())
        ->check(CLI::Range(1, 200))
        ->capture_default_str();
    screenshot->add_option("--out", shot.out, "PNG file to write")->check(FileName())->required();

    screenshot->add_option("--theme", shot.theme,
                           "dark, light or high-contrast (default: the "
                           "scene's)");
    return screenshot;
}

// Parses the line; a help or version request, or a parse error, ends the run (true).
bool ParseOrExit(CLI::App& app, int argc, char** argv, CommandLine& result) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        result.command = Subcommand::Exit;
        result.exit_code = app.exit(e);
        return true;
    } catch (const CLI::CallForAllHelp& e) {
        result.command = Subcommand::Exit;
        result.exit_code = app.exit(e);
        return true;
    } catch (const CLI::CallForVersion& e) {
        result.command = Subcommand::Exit;
        result.exit_code = app.exit(e);
        return true;
    } catch (const CLI::ParseError& e) {
        result.command = Subcommand::Exit;
        std::string message;
        if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr ||
            dynamic_cast<const CLI::RequiredError*>(&e) != nullptr)
            message = ExplainUnknownWords(app);
        result.exit_code =
            UsageError(message.empty() ? std::string(e.what()) + " (see pelab --help)" : message);
        return true;
    }
    return false;
}

// What the shared options must be beyond CLI11's checks: "" or the message.
std::string CheckSharedOptions(const CLI::App& app, const CLI::App& screenshot,
                               CommandLine& result) {
    // CLI11's Range lets NaN through (every comparison with it is false): check here.
    const auto font_scale_error = [](float scale) {
        return std::isfinite(scale) && scale >= 0.5f && scale <= 4.0f
                   ? std::string()
                   : "--font-scale: must be a number in [0.5, 4] (got " + std::to_string(scale) +
                         ")";
    };
    result.gui.font_scale_given = app.count("--font-scale") > 0;
    result.screenshot.font_scale_given = screenshot.count("--font-scale") > 0;
    for (const std::string& error :
         {font_scale_error(result.gui.font_scale), font_scale_error(result.screenshot.font_scale)})
        if (!error.empty()) return error;
    if (ThemeId theme; !result.gui.theme.empty() && !ThemeFromName(result.gui.theme, &theme))
        return "--theme: must be one of " + ThemeNameList() + " (got " + Excerpt(result.gui.theme) +
               ")";
    return {};
}

// The screenshot's options together: "" or the message.
std::string CheckScreenshotOptions(const CLI::App& screenshot, const std::string& size_text,
                                   ScreenshotOptions& shot) {
    if (std::string size_error = ParseSize(size_text, &shot.width, &shot.height);
        !size_error.empty())
        return size_error;
    if (screenshot.count("--panel") > 0 && !IsPanelId(shot.panel))
        return "--panel: unknown panel " + Excerpt(shot.panel) + "; known panels: " + PanelIdList();
    if (!shot.lesson.empty() && !shot.panel.empty())
        return "--lesson and --panel: a lesson's step says which panel it shows; give one";
    if (shot.out.empty() || shot.out == "-")
        return "--out: a PNG file name is required (not stdout)";
    if (ThemeId theme; !shot.theme.empty() && !ThemeFromName(shot.theme, &theme))
        return "--theme: must be one of " + ThemeNameList() + " (got " + Excerpt(shot.theme) + ")";
    if (shot.notes && shot.lesson.empty()) return "--notes: only with --lesson (the step's notes)";
    if (screenshot.count("--step") > 0 && shot.lesson.empty())
        return "--step: only with --lesson (the lesson step to show)";
    return {};
}

} // namespace

CommandLine ParseCommandLine(int argc, char** argv) {
    CommandLine result;
    CLI::App app{"PE Lab: a desktop laboratory for positional encodings in transformers.\n"
                 "Without a subcommand, opens the visualizer.",
                 "pelab"};
    app.set_version_flag("--version", std::string("pelab ") + kVersion);
    app.require_subcommand(0, 1);
    AddGuiOptions(app, result);
    const ExportCommands exports = AddExportCommands(app, result);
    CLI::App* readouts_command = AddReadoutsCommand(app, result);
    CLI::App* train_command = AddTrainCommand(app, result.train);
    CLI::App* model_run = nullptr;
    CLI::App* model_tokenize = nullptr;
    CLI::App* model_inspect = AddModelCommand(app, result.model, &model_run, &model_tokenize);
    const RopeCommands rope = AddRopeCommands(app, result.rope);
    CLI::App* panels_command = app.add_subcommand(
        "panels",
        "List the panels: id, title and what each shows (--json: everything they declare)");
    panels_command->add_flag("--json", result.panels_json,
                             "As JSON: widget names, scene fields, keys, picture, README scene");
    std::string size_text = "1280x800";
    CLI::App* screenshot = AddScreenshotCommand(app, result, size_text);
    std::string render_size = "512x512";
    const RenderCommand render = AddRenderCommand(app, result.render, render_size);
    std::string handout_size = "1024x768";
    const LessonCommand lesson = AddLessonCommand(app, result.lesson, handout_size);

    result.unclassified_file_options = UnclassifiedFileOptions(app);
    if (ParseOrExit(app, argc, argv, result)) return result;
    // No output of any command is a file it reads (checked before anything is read or written).
    std::string refused = CheckNoInputIsWritten(app);
    if (refused.empty()) refused = CheckSharedOptions(app, *screenshot, result);
    if (!refused.empty()) {
        result.command = Subcommand::Exit;
        result.exit_code = UsageError(refused);
        return result;
    }
    if (exports.pe->parsed()) {
        result.command = Subcommand::ExportPe;
    } else if (exports.attention->parsed()) {
        result.command = Subcommand::ExportAttention;
    } else if (readouts_command->parsed()) {
        result.command = Subcommand::Readouts;
    } else if (render.pe_heatmap->parsed() || render.similarity->parsed()) {
        result.command = Subcommand::Render;
        result.render.what = render.similarity->parsed() ? "similarity" : "pe-heatmap";
        if (const std::string error = CheckRenderOptions(result.render, render_size);
            !error.empty()) {
            result.command = Subcommand::Exit;
            result.exit_code = UsageError(error);
        }
    } else if (train_command->parsed()) {
        result.command = Subcommand::Train;
    } else if (model_inspect->parsed()) {
        result.command = Subcommand::ModelInspect;
    } else if (model_run->parsed()) {
        result.command = Subcommand::ModelRun;
    } else if (model_tokenize->parsed()) {
        result.command = Subcommand::ModelTokenize;
    } else if (rope.table->parsed()) {
        result.command = Subcommand::RopeTable;
    } else if (rope.check->parsed()) {
        result.command = Subcommand::RopeCheck;
    } else if (panels_command->parsed()) {
        result.command = Subcommand::Panels;
    } else if (lesson.check->parsed()) {
        result.command = Subcommand::LessonCheck;
    } else if (lesson.notes->parsed()) {
        result.command = Subcommand::LessonNotes;
    } else if (lesson.widgets->parsed()) {
        result.command = Subcommand::LessonWidgets;
    } else if (lesson.handout->parsed()) {
        result.command = Subcommand::LessonHandout;
        if (const std::string error = CheckHandoutOptions(result.lesson, handout_size);
            !error.empty()) {
            result.command = Subcommand::Exit;
            result.exit_code = UsageError(error);
        }
    } else if (screenshot->parsed()) {
        result.command = Subcommand::Screenshot;
        result.command = Subcommand::Screenshot;
        if (const std::string problem =
                CheckScreenshotOptions(*screenshot, size_text, result.screenshot);
            !problem.empty()) {
            result.command = Subcommand::Exit;
            result.exit_code = UsageError(problem);
        }
    }
    return result;
}

int RunExportPe(const ExportPeOptions& options) {
    const Layout layout =
        options.layout == "interleaved" ? Layout::Interleaved : Layout::Concatenated;
    const std::string error = FirstError({
        OptionError("--d-model", [&] { validate_d_model(options.d_model); }),
        OptionError("--base", [&] { validate_base(options.base); }),
        OptionError(
            "--max-len",
            [&] { validate_matrix_request(options.max_len, options.d_model, options.base); }),
    });
    if (!error.empty()) return UsageError(error);
    std::string folder_error;
    if (!CheckOutputFolder(options.out, &folder_error)) return RuntimeError(folder_error);
    try {
        const PeExportInfo info{options.max_len, options.d_model, options.base, layout};
        const auto values = pe_matrix(options.max_len, options.d_model, options.base, layout);
        Emit(options.out, [&](std::ostream& out) {
            if (options.format == "csv")
                write_pe_csv(out, info, values.data());
            else if (options.format == "json")
                write_pe_json(out, info, values.data());
            else
                write_pe_npy(out, info, values.data());
        });
    } catch (const IoError& e) {
        return RuntimeError(e.what());
    } catch (const std::bad_alloc&) {
        return RuntimeError("not enough memory for this matrix; ask for fewer positions");
    }
    return kExitOk;
}

int RunExportAttention(const ExportAttentionOptions& options) {
    OrderDemoOptions demo;
    demo.d_model = options.d_model;
    demo.embedding = options.embedding == "random" ? EmbeddingKind::Random : EmbeddingKind::OneHot;
    demo.seed = options.seed;
    demo.positional.pe_enabled = options.pe == "on";
    demo.positional.pe_scale = options.pe_scale;
    demo.positional.base = options.base;
    demo.positional.scale_embeddings = options.scale_embeddings;
    const std::string error = FirstError({
        OptionError("--sentence-a", [&] { tokenize(options.sentence_a); }),
        OptionError("--sentence-b", [&] { tokenize(options.sentence_b); }),
        OptionError("--d-model", [&] { validate_d_model(options.d_model); }),
        OptionError("--base", [&] { validate_base(options.base); }),
        OptionError("--pe-scale", [&] { validate_positional_options(demo.positional); }),
    });
    if (!error.empty()) return UsageError(error);
    OrderDemoResult result;
    // Every option is valid on its own; what is left is one-hot needing d_model ≥ the number of
    // distinct words, a limit on --d-model.
    const std::string vocabulary_error = OptionError("--d-model", [&] {
        result = run_order_demo(options.sentence_a, options.sentence_b, demo);
    });
    if (!vocabulary_error.empty()) return UsageError(vocabulary_error);
    std::string folder_error;
    if (!CheckOutputFolder(options.out, &folder_error)) return RuntimeError(folder_error);
    try {
        const std::string text = attention_json(result, demo);
        Emit(options.out, [&](std::ostream& out) { out << text; });
    } catch (const IoError& e) {
        return RuntimeError(e.what());
    }
    return kExitOk;
}

int RunReadouts(const ReadoutsOptions& options) {
    App app;
    if (!options.scene.empty()) {
        const std::string error = app.LoadScene(options.scene);
        if (!error.empty()) return UsageError("--scene: " + error);
    }
    if (!options.model.empty())
        if (std::string error = app.OpenModel(options.model, true); !error.empty())
            return UsageError("--model: " + PrintableLine(error));
    PanelEntry* train = nullptr;
    if (!options.run.empty()) {
        // The run as File → Open shows it: read whole, checked, then the Train panel's numbers.
        JsonFile file;
        if (std::string error = ReadJsonFile(options.run, &file); !error.empty())
            return UsageError("--run: " + error);
        if (file.png || !IsTrainRunDocument(file.doc))
            return UsageError("--run: " + Excerpt(options.run, 200) +
                              " is not a training run (one starts {\"format\": \"pelab-train\"; "
                              "pelab train --out writes them)");
        train = app.panels.Find("train");
        if (std::string error =
                train->panel->OpenDocument(file.doc, options.run, app.scene, app.panels);
            !error.empty())
            return UsageError("--run: " + Excerpt(options.run, 200) + ": " + error);
    }
    std::string folder_error;
    if (!CheckOutputFolder(options.out, &folder_error)) return RuntimeError(folder_error);
    try {
        const nlohmann::json doc = train ? train->panel->Readouts(app.state) : app.Document(true);
        const std::string text =
            doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        Emit(options.out, [&](std::ostream& out) { out << text; });
    } catch (const IoError& e) {
        return RuntimeError(e.what());
    }
    return kExitOk;
}

} // namespace pelab
