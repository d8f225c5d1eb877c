// `pelab model inspect`: opens a checkpoint as File → Open does and prints the panel's numbers.
#include "cli/cli_model.h"

#include "cli/cli.h"
#include "cli/cli_checks.h"
#include "io/json_input.h"
#include "io/model_files.h"
#include "pelab/error.h"

namespace pelab {

namespace {
/// Rows whose cosine matrix --full prints (4 096² numbers are about 200 MB of JSON).
constexpr int kMaxFullRows = 4096;
} // namespace

CLI::App* AddModelCommand(CLI::App& app, ModelOptions& options) {
    CLI::App* model = app.add_subcommand(
        "model", "Open a real checkpoint (safetensors or .npy, with its config.json) and show "
                 "where it keeps positions");
    model->require_subcommand(1);
    CLI::App* inspect = model->add_subcommand(
        "inspect", "Print what was found and every number the Your model panel shows");
    inspect
        ->add_option("file", options.path,
                     "model.safetensors, model.safetensors.index.json, a .npy table, or the "
                     "folder holding them")
        ->required();
    inspect->add_option("--config", options.config,
                        "config.json (default: the one beside the weights, if any)");
    inspect->add_option("--table", options.table,
                        "Read this 2-D tensor as a position table (any model)");
    inspect->add_flag("--json", options.json, "Print JSON (every number, full precision)");
    inspect->add_flag("--full", options.full, "With --json: the cosine matrix of the table too");
    inspect->add_option("--out", options.out, "Write here instead of stdout")->check(FileName());
    return inspect;
}

int RunModelInspect(const ModelOptions& options) {
    if (options.full && !options.json) return UsageError("--full: only with --json");
    ModelRequest request{options.path, options.config, options.table};
    ModelReport report;
    if (std::string error = OpenModel(request, &report); !error.empty())
        return UsageError(PrintableLine(error));
    if (options.full && report.has_table && report.table_report.rows > kMaxFullRows)
        return UsageError("--full: the table has " + std::to_string(report.table_report.rows) +
                          " rows; the cosine matrix is printed for at most " +
                          std::to_string(kMaxFullRows) + " (the panel draws any size)");
    std::string folder_error;
    if (!CheckOutputFolder(options.out, &folder_error)) return RuntimeError(folder_error);
    try {
        const std::string text =
            options.json ? ModelReportJson(report, options.full)
                                   .dump(1, ' ', false, nlohmann::json::error_handler_t::replace) +
                               "\n"
                         : ModelReportText(report);
        Emit(options.out, [&](std::ostream& out) { out << text; });
    } catch (const IoError& e) {
        return RuntimeError(e.what());
    }
    return kExitOk;
}

} // namespace pelab
