// `pelab model inspect`: opens a checkpoint as File → Open does and prints the panel's numbers.
#include "cli/cli_model.h"

#include "cli/cli.h"
#include "cli/cli_checks.h"
#include "io/json_input.h"
#include "io/model_files.h"
#include "pelab/base/error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {
/// Rows whose cosine matrix --full prints (4 096² numbers are about 200 MB of JSON).
constexpr int kMaxFullRows = 4096;
} // namespace

CLI::App* AddModelCommand(CLI::App& app, ModelOptions& options, CLI::App** run,
                          CLI::App** tokenize) {
    CLI::App* model = app.add_subcommand(
        "model", "Open a real checkpoint (safetensors or .npy, with its config.json) and show "
                 "where it keeps positions");
    model->require_subcommand(1);
    CLI::App* inspect = model->add_subcommand(
        "inspect", "Print what was found and every number the Your model panel shows");
    inspect
        ->add_option("file", options.path,
                     "model.safetensors, model.safetensors.index.json, a .npy table, the "
                     "folder holding them, or a config.json alone")
        ->check(FileName())
        ->required();
    inspect
        ->add_option("--config", options.config,
                     "config.json (default: the one beside the weights, if any)")
        ->check(FileName());
    inspect
        ->add_option("--table", options.table,
                     "Read this 2-D tensor as a position table (any model)")
        ->check(NonEmpty("a tensor name"));
    inspect->add_flag("--json", options.json, "Print JSON (every number, full precision)");
    inspect->add_flag("--full", options.full, "With --json: the cosine matrix of the table too");
    inspect->add_option("--out", options.out, "Write here instead of stdout")->check(FileName());

    *run = model->add_subcommand(
        "run", "Run a model forward (GPT-2, or a rotary Llama, Mistral, Qwen2/3, OLMo 2 or "
               "SmolLM3) on token ids with its positions as trained or switched");
    (*run)
        ->add_option("file", options.path,
                     "a checkpoint: model.safetensors (with config.json beside it) or its folder")
        ->check(FileName())
        ->required();
    (*run)
        ->add_option("--config", options.config, "config.json (default: beside the weights)")
        ->check(FileName());
    (*run)->add_option("--tokens", options.tokens, "Token ids, comma-separated (e.g. 464,3290)");
    (*run)
        ->add_option("--text", options.run_texts,
                     "A text, through the model's tokenizer (vocab.json and merges.txt, or "
                     "tokenizer.json, beside the weights); twice: two texts and how far apart "
                     "their last-token states are")
        ->take_all();
    (*run)
        ->add_option("--vocab", options.vocab, "vocab.json (default: beside the weights)")
        ->check(FileName());
    (*run)
        ->add_option("--merges", options.merges, "merges.txt (default: beside the weights)")
        ->check(FileName());
    (*run)->add_option("--positions", options.positions,
                       "GPT-2: trained, zero, shuffle[:SEED], shift:K, same:P, mean or "
                       "sinusoidal; a rotary model: trained, none, pairing, base:K, shift:K, "
                       "scaling-off or nope-from:L; repeat for several (default: trained)");
    (*run)->add_flag("--last-only", options.last_only,
                     "Only the last token's logits (no loss): the fastest pass");
    (*run)
        ->add_option("--top", options.top, "Next-token guesses per switch (1 to 50)")
        ->check(WholeNumber(1, 50));
    (*run)->add_flag("--json", options.json, "Print JSON");
    (*run)->add_flag("--full", options.full,
                     "With --json: the logits, every head's attention and every layer's states");
    (*run)->add_option("--out", options.out, "Write here instead of stdout")->check(FileName());

    *tokenize = model->add_subcommand("tokenize", "A tokenizer's token ids of a text");
    (*tokenize)
        ->add_option(
            "folder", options.path,
            "the folder holding tokenizer.json, or vocab.json and merges.txt (a checkpoint's)")
        ->check(FileName());
    (*tokenize)
        ->add_option("--vocab", options.vocab, "vocab.json (or encoder.json)")
        ->check(FileName());
    (*tokenize)
        ->add_option("--merges", options.merges, "merges.txt (or vocab.bpe)")
        ->check(FileName());
    (*tokenize)->add_option("--text", options.text, "The text to encode");
    (*tokenize)
        ->add_option("--texts-file", options.texts_file,
                     "A JSON array of texts: prints a JSON array of their ids")
        ->check(FileName());
    (*tokenize)->add_flag("--json", options.json, "Print JSON");
    (*tokenize)
        ->add_option("--out", options.out, "Write here instead of stdout")
        ->check(FileName());
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

int RunModelTokenize(const ModelOptions& options) {
    if (options.path.empty() == (options.vocab.empty() && options.merges.empty()) ||
        options.vocab.empty() != options.merges.empty())
        return UsageError("give the folder holding vocab.json and merges.txt, or --vocab and "
                          "--merges (not both)");
    if (options.text.empty() == options.texts_file.empty())
        return UsageError(options.text.empty() ? "give --text TEXT or --texts-file FILE"
                                               : "give --text or --texts-file, not both");
    BpeTokenizer tokenizer;
    if (std::string error = OpenTokenizer(options.path.empty() ? options.vocab : options.path,
                                          options.path.empty() ? options.merges : "", &tokenizer);
        !error.empty())
        return UsageError(PrintableLine(error));
    std::vector<std::string> texts;
    if (!options.texts_file.empty()) {
        std::string content;
        if (std::string error = ReadInputFile(options.texts_file, kMaxVocabularyBytes, &content);
            !error.empty())
            return UsageError("--texts-file: " + PrintableLine(error));
        nlohmann::json doc;
        if (std::string error = ParseJsonInput(content, &doc); !error.empty())
            return UsageError("--texts-file: " + PrintableLine(error));
        if (!doc.is_array()) return UsageError("--texts-file: must be a JSON array of texts");
        for (const nlohmann::json& each : doc) {
            if (!each.is_string())
                return UsageError("--texts-file: must be a JSON array of texts (got " +
                                  Excerpt(each, 40) + ")");
            texts.push_back(each.get<std::string>());
        }
    } else {
        texts.push_back(options.text);
    }
    nlohmann::json all = nlohmann::json::array();
    std::string lines;
    for (std::size_t k = 0; k < texts.size(); ++k) {
        std::vector<int> ids;
        if (std::string error = tokenizer.Encode(texts[k], &ids).message(); !error.empty())
            return UsageError((options.texts_file.empty()
                                   ? std::string("--text: ")
                                   : "--texts-file: text " + std::to_string(k) + ": ") +
                              PrintableLine(error));
        all.push_back(ids);
        nlohmann::json pieces = nlohmann::json::array();
        for (int id : ids)
            pieces.push_back(tokenizer.TokenText(id));
        for (std::size_t t = 0; t < ids.size(); ++t)
            lines += std::to_string(ids[t]) + "\t" +
                     pieces[t].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                     "\n";
    }
    std::string folder_error;
    if (!CheckOutputFolder(options.out, &folder_error)) return RuntimeError(folder_error);
    try {
        const nlohmann::json doc = options.texts_file.empty() ? all[0] : all;
        const std::string shown =
            options.json || !options.texts_file.empty()
                ? doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
                : lines;
        Emit(options.out, [&](std::ostream& out) { out << shown; });
    } catch (const IoError& e) {
        return RuntimeError(e.what());
    }
    return kExitOk;
}

} // namespace pelab
