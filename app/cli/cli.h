// cli.h — the command line of docs/command-line.md: parsing (CLI11) and the export commands.
// Exit codes: 0 success; 2 bad usage or an invalid value (one line on stderr naming the option
// and the allowed range); 1 a runtime failure (no display, cannot write the file).
#pragma once

#include "cli/cli_model.h"
#include "cli/cli_rope.h"
#include "cli/cli_train.h"

#include <string>
#include <vector>

namespace pelab {

constexpr int kExitOk = 0;
constexpr int kExitRuntimeFailure = 1;
constexpr int kExitBadUsage = 2;

struct GuiOptions {
    std::string scene;  ///< open this scene first (exit 2 if it is bad)
    std::string lesson; ///< then start this lesson at its first step (exit 2 if it is bad)
    std::string model;  ///< a checkpoint opened in the Your model panel (File → Open)
    std::vector<std::string> open; ///< files opened after it, as File → Open (a drop) would
    std::string state_out;         ///< write the scene here when the app exits
    std::string widget_rects;      ///< test hook: keep the named widgets' rectangles here (JSON)
    bool fullscreen = false;
    float font_scale = 1.0f;
    bool font_scale_given = false; ///< --font-scale overrides the scene and the saved settings
    std::string theme;    ///< "": the scene's or the saved one; else dark, light or high-contrast
    int bench_frames = 0; ///< > 0: run this many frames hidden and print frame-time statistics
};

struct ScreenshotOptions {
    std::string scene;  ///< render this scene
    std::string theme;  ///< "" = the scene's (or the default); else dark, light or high-contrast
    std::string panel;  ///< empty: the whole window as it opens
    std::string lesson; ///< a lesson shown at `step` (1-based), with its bar; "" = none
    std::string model;  ///< a checkpoint opened in the Your model panel first
    std::vector<std::string> open; ///< files opened after it, as File → Open would
    int step = 1;
    bool notes = false; ///< with --lesson: the step's speaker notes shown (as S does)
    int width = 1280;
    int height = 800;
    float font_scale = 1.0f;
    bool font_scale_given = false;
    std::string out;
};

struct ExportPeOptions {
    int max_len = 0;
    int d_model = 0;
    double base = 10000.0;
    std::string layout = "interleaved";
    std::string format = "csv";
    std::string out; ///< empty or "-": stdout
};

struct ExportAttentionOptions {
    std::string sentence_a, sentence_b;
    std::string pe = "on";
    int d_model = 16;
    double base = 10000.0;
    double pe_scale = 1.0;
    bool scale_embeddings = false;
    std::string embedding = "one-hot";
    unsigned long long seed = 42;
    std::string format = "json";
    std::string out;
};

struct ReadoutsOptions {
    std::string scene; ///< start from this scene (exit 2 if it is bad)
    std::string run;   ///< a training run: print the Train panel's readouts of it instead
    std::string model; ///< a checkpoint opened in the Your model panel first
    std::string out;   ///< empty or "-": stdout
};

/// `pelab render pe-heatmap|similarity`: a GPU heatmap alone. PE matrix: pixel column x =
/// dimension ⌊x·D/W⌋, pixel row y (from the top) = position ⌊y·L/H⌋, grey level
/// round((v + 1)/2 · 255). Similarity: column x = q = ⌊x·L/W⌋, row y = p = ⌊y·L/H⌋, grey level
/// round((PE(p)·PE(q)/(D/2) + 1)/2 · 255).
struct RenderOptions {
    std::string what = "pe-heatmap"; ///< or "similarity"
    int max_len = 0;
    int d_model = 0;
    double base = 10000.0;
    std::string layout = "interleaved";
    std::string colormap = "grey";
    int width = 512, height = 512;
    std::string out;
};

/// `pelab lesson …`: the lesson file and, for a handout, where and how to draw it.
struct LessonOptions {
    std::string file;  ///< the lesson (check, notes, handout)
    std::string panel; ///< widgets: only this panel's names ("" = every panel)
    std::string out;   ///< handout: the folder for the PNGs and index.html
    std::string theme = "light";
    int width = 1024, height = 768;
    float font_scale = 1.0f;
    bool notes = false; ///< handout: the speaker notes too (the teacher's copy)
    std::string model;  ///< check, handout: a checkpoint opened first (a needs_model lesson)
};

enum class Subcommand {
    Gui,
    ExportPe,
    ExportAttention,
    Screenshot,
    Readouts,
    Render,
    LessonCheck,
    LessonNotes,
    LessonWidgets,
    LessonHandout,
    Panels,
    Train,
    ModelInspect,
    ModelRun,
    ModelTokenize,
    RopeTable,
    RopeCheck,
    Exit
};

struct CommandLine {
    Subcommand command = Subcommand::Gui;
    int exit_code = kExitOk; ///< for Subcommand::Exit (help, version, or a usage error)
    GuiOptions gui;
    ScreenshotOptions screenshot;
    ExportPeOptions export_pe;
    ExportAttentionOptions export_attention;
    ReadoutsOptions readouts;
    RenderOptions render;
    LessonOptions lesson;
    bool panels_json = false; ///< `pelab panels --json`
    TrainOptions train;
    ModelOptions model;
    RopeOptions rope;
    /// Options that take a file name (FileName()) but have no FileUse ("pelab model run
    /// --foo"): a test keeps this empty, so that no new file option escapes the check that no
    /// command writes over its input.
    std::vector<std::string> unclassified_file_options;
};

/// Parses argv. Help and version are printed here (Subcommand::Exit, code 0); a usage error prints
/// "pelab: <message>" on stderr (Subcommand::Exit, code 2).
CommandLine ParseCommandLine(int argc, char** argv);

int RunExportPe(const ExportPeOptions& options);
int RunExportAttention(const ExportAttentionOptions& options);
/// `pelab readouts`: the scene (defaults, then --scene) with every panel's readouts, as JSON.
int RunReadouts(const ReadoutsOptions& options);

/// The largest picture `pelab render` makes: positions and dimensions the shader is exact for.
constexpr int kRenderMaxLen = 65536;
constexpr int kRenderMaxDModel = 4096;

} // namespace pelab
