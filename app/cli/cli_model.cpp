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
        "run", "Run GPT-2 forward on token ids with its positions as trained or switched");
    (*run)
        ->add_option("file", options.path,
                     "a GPT-2 checkpoint: model.safetensors (with config.json beside it) or its "
                     "folder")
        ->check(FileName())
        ->required();
    (*run)
        ->add_option("--config", options.config, "config.json (default: beside the weights)")
        ->check(FileName());
    (*run)->add_option("--tokens", options.tokens, "Token ids, comma-separated (e.g. 464,3290)");
    (*run)
        ->add_option("--text", options.run_texts,
                     "A text, through GPT-2's tokenizer (vocab.json and merges.txt beside the "
                     "weights); twice: two texts and how far apart their last-token states are")
        ->take_all();
    (*run)
        ->add_option("--vocab", options.vocab, "vocab.json (default: beside the weights)")
        ->check(FileName());
    (*run)
        ->add_option("--merges", options.merges, "merges.txt (default: beside the weights)")
        ->check(FileName());
    (*run)->add_option("--positions", options.positions,
                       "trained, zero, shuffle[:SEED], shift:K, same:P, mean or sinusoidal; "
                       "repeat for several (default: trained)");
    (*run)->add_flag("--last-only", options.last_only,
                     "Only the last token's logits (no loss): the fastest pass");
    (*run)
        ->add_option("--top", options.top, "Next-token guesses per switch (1 to 50)")
        ->check(WholeNumber(1, 50));
    (*run)->add_flag("--json", options.json, "Print JSON");
    (*run)->add_flag("--full", options.full,
                     "With --json: the logits, every head's attention and every layer's states");
    (*run)->add_option("--out", options.out, "Write here instead of stdout")->check(FileName());

    *tokenize = model->add_subcommand("tokenize", "GPT-2's token ids of a text");
    (*tokenize)
        ->add_option("folder", options.path,
                     "the folder holding vocab.json and merges.txt (a checkpoint's)")
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

namespace {

// "464,3290" → ids; "" or the message.
std::string ParseTokenIds(const std::string& text, std::vector<int>* tokens) {
    // Plain decimals between commas, as every number option takes them: no spaces ("1, 2",
    // " 1"), no leading zeros ("010", which some readers take for octal).
    std::string refused =
        "--tokens: token ids are whole numbers separated by commas, like 464,3290 (got " +
        Excerpt(text, 60) + ")";
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        const std::string id = text.substr(start, end - start);
        if (id.empty() || id.size() > 9 ||
            id.find_first_not_of("0123456789") != std::string::npos ||
            (id.size() > 1 && id[0] == '0'))
            return refused;
        tokens->push_back(std::stoi(id));
        start = end + 1;
    }
    return {};
}

// Bytes of a text `model run` tokenizes: at most this many per position of the context (GPT-2's
// tokens average about 4 bytes of English; a longer text could not fit the context anyway).
constexpr std::size_t kBytesPerPosition = 16;
// Position switches one `model run` compares (each is a whole pass, kept for the output).
constexpr std::size_t kMaxSwitches = 64;
// Numbers --full may print per pass (attention and states: 2²⁴ about 200 MB of JSON).
constexpr long long kMaxFullNumbers = 1LL << 24;

} // namespace

namespace {

// The run's options together and its position switches: "" or why they cannot run.
std::string RunChoices(const ModelOptions& options, std::vector<PositionChoice>* choices) {
    if (options.full && !options.json) return "--full: only with --json";
    if (options.tokens.empty() == options.run_texts.empty())
        return options.tokens.empty() ? "give --tokens IDS or --text TEXT"
                                      : "give --tokens or --text, not both";
    if (options.run_texts.size() > 2)
        return "--text: at most two texts (given " + std::to_string(options.run_texts.size()) + ")";
    if (options.vocab.empty() != options.merges.empty())
        return "--vocab and --merges go together (or neither: the files beside the "
               "weights)";
    if (options.positions.size() > kMaxSwitches)
        return "--positions: at most " + std::to_string(kMaxSwitches) +
               " switches in one run (given " + std::to_string(options.positions.size()) + ")";
    for (const std::string& name :
         options.positions.empty() ? std::vector<std::string>{"trained"} : options.positions) {
        PositionChoice choice;
        if (std::string error = ParsePositionChoice(name, &choice).message(); !error.empty())
            return "--positions: " + PrintableLine(error);
        choices->push_back(choice);
    }
    return {};
}

// The sequences: the ids given, or each text through GPT-2's tokenizer (its vocab.json and
// merges.txt beside the weights, or --vocab and --merges): "" or why not.
std::string RunSequences(const ModelOptions& options, BpeTokenizer* tokenizer,
                         std::vector<std::vector<int>>* sequences) {
    if (!options.run_texts.empty()) {
        if (std::string error =
                OpenTokenizer(options.vocab.empty() ? options.path : options.vocab,
                              options.vocab.empty() ? "" : options.merges, tokenizer);
            !error.empty())
            return PrintableLine(error);
        for (const std::string& text : options.run_texts) {
            std::vector<int> ids;
            if (text.size() > kBytesPerPosition * static_cast<std::size_t>(1 << 20))
                return "--text: " + std::to_string(text.size()) +
                       " bytes are more than any GPT-2 context holds";
            if (std::string error = tokenizer->Encode(text, &ids).message(); !error.empty())
                return "--text: " + PrintableLine(error);
            if (ids.empty()) return "--text: an empty text has no token to run";
            sequences->push_back(std::move(ids));
        }
        return {};
    }
    std::vector<int> ids;
    if (std::string error = ParseTokenIds(options.tokens, &ids); !error.empty()) return error;
    sequences->push_back(std::move(ids));
    return {};
}

// --full prints every number of a pass: refused past kMaxFullNumbers.
std::string CheckFullSize(const ModelOptions& options, const Gpt2Sizes& sizes,
                          const std::vector<std::vector<int>>& sequences) {
    for (const std::vector<int>& tokens : sequences) {
        const long long n = static_cast<long long>(tokens.size());
        if (options.full && std::max(static_cast<long long>(sizes.layers) * sizes.heads * n * n,
                                     (sizes.layers + 1LL) * n * sizes.width) > kMaxFullNumbers)
            return "--full: " + std::to_string(n) + " tokens through " +
                   std::to_string(sizes.layers) + " layers of " + std::to_string(sizes.heads) +
                   " heads would print more than 16 777 216 numbers per pass; use fewer tokens, "
                   "or leave out --full";
    }
    return {};
}

std::string Escaped(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The top guesses of a pass, as JSON entries and as one line of text.
nlohmann::json Guesses(const Gpt2Pass& pass, const Gpt2Sizes& sizes, const ModelOptions& options,
                       const BpeTokenizer* tokenizer, std::string* guess_text) {
    nlohmann::json guesses = nlohmann::json::array();
    for (const NextGuess& guess : TopNext(pass, sizes.vocab, options.top)) {
        nlohmann::json entry = {{"id", guess.id}, {"probability", guess.probability}};
        if (tokenizer) entry["text"] = tokenizer->TokenText(guess.id);
        // A word the vocabulary has no text for is shown by its id.
        const std::string word = tokenizer && !tokenizer->TokenText(guess.id).empty()
                                     ? Escaped(tokenizer->TokenText(guess.id))
                                     : "id " + std::to_string(guess.id);
        char probability[32];
        std::snprintf(probability, sizeof probability, " (%.3g)", guess.probability);
        *guess_text += "  " + word + probability;
        guesses.push_back(std::move(entry));
    }
    return guesses;
}

// The last token's state after the embedding and each block, as a one-token pass.
Gpt2Pass LastTokenStates(const Gpt2Pass& pass, const Gpt2Sizes& sizes, std::size_t tokens) {
    Gpt2Pass last;
    last.tokens = 1;
    const std::size_t d = static_cast<std::size_t>(sizes.width);
    for (int layer = 0; layer <= sizes.layers; ++layer) {
        const auto at =
            pass.states.begin() + static_cast<std::ptrdiff_t>(
                                      (static_cast<std::size_t>(layer) * tokens + tokens - 1) * d);
        last.states.insert(last.states.end(), at, at + static_cast<std::ptrdiff_t>(d));
    }
    return last;
}

// How far apart the two texts' last-token states are, after each block, per switch.
void AddDistances(const std::vector<PositionChoice>& choices,
                  const std::vector<std::vector<Gpt2Pass>>& last_states, int width,
                  nlohmann::json* doc, std::string* lines) {
    nlohmann::json distances = nlohmann::json::array();
    *lines += "\nlast-token states apart (x0, then after each block):\n";
    for (std::size_t c = 0; c < choices.size(); ++c) {
        const std::vector<double> apart =
            LastStateDistances(last_states[0][c], last_states[1][c], width);
        distances.push_back({{"positions", PositionChoiceName(choices[c])}, {"last_state", apart}});
        char line[64];
        std::snprintf(line, sizeof line, "%-12s", PositionChoiceName(choices[c]).c_str());
        *lines += line;
        for (double value : apart) {
            std::snprintf(line, sizeof line, " %.3f", value);
            *lines += line;
        }
        *lines += "\n";
    }
    (*doc)["distances"] = distances;
}

} // namespace

int RunModelRun(const ModelOptions& options) {
    std::vector<PositionChoice> choices;
    if (std::string error = RunChoices(options, &choices); !error.empty()) return UsageError(error);
    std::vector<std::vector<int>> sequences;
    BpeTokenizer tokenizer;
    const bool texts = !options.run_texts.empty();
    // Ids are checked before the weights are read; a text after, so that a checkpoint of
    // another family is named as such (not as one missing GPT-2's vocab.json).
    if (!texts)
        if (std::string error = RunSequences(options, &tokenizer, &sequences); !error.empty())
            return UsageError(error);
    Gpt2Model model;
    double load_seconds = 0;
    if (std::string error =
            OpenGpt2(ModelRequest{options.path, options.config, ""}, &model, &load_seconds);
        !error.empty())
        return UsageError(PrintableLine(error));
    if (texts)
        if (std::string error = RunSequences(options, &tokenizer, &sequences); !error.empty())
            return UsageError(error);
    // With ids, the guesses still read as words when the tokenizer is at hand (beside the
    // weights, or --vocab and --merges); as ids when it is not.
    const bool words =
        texts || OpenTokenizer(options.vocab.empty() ? options.path : options.vocab,
                               options.vocab.empty() ? "" : options.merges, &tokenizer)
                     .empty();
    const Gpt2Sizes& sizes = model.Sizes();
    if (std::string error = CheckFullSize(options, sizes, sequences); !error.empty())
        return UsageError(error);
    nlohmann::json doc = {{"file", options.path},
                          {"sizes",
                           {{"layers", sizes.layers},
                            {"heads", sizes.heads},
                            {"width", sizes.width},
                            {"context", sizes.context},
                            {"vocab", sizes.vocab}}},
                          {"seconds_load", load_seconds},
                          {"sentences", nlohmann::json::array()}};
    std::string lines;
    if (!sizes.notes.empty()) {
        doc["notes"] = sizes.notes;
        for (const std::string& note : sizes.notes)
            lines += "note: " + note + "\n";
    }
    // Of each pass, only what the distances need: the last token's states (not the whole pass).
    std::vector<std::vector<Gpt2Pass>> last_states(sequences.size());
    for (std::size_t s = 0; s < sequences.size(); ++s) {
        const std::vector<int>& tokens = sequences[s];
        nlohmann::json sentence = {{"tokens", tokens}, {"runs", nlohmann::json::array()}};
        if (texts) {
            sentence["text"] = options.run_texts[s];
            nlohmann::json pieces = nlohmann::json::array();
            for (int id : tokens)
                pieces.push_back(tokenizer.TokenText(id));
            sentence["token_texts"] = pieces;
            lines += (s > 0 ? "\n" : "") + Escaped(options.run_texts[s]) + "\n";
        }
        for (const PositionChoice& choice : choices) {
            Gpt2Options run_options;
            run_options.all_logits = !options.last_only && tokens.size() > 1;
            Gpt2Pass pass;
            const auto start = std::chrono::steady_clock::now();
            try {
                pass = model.Run(tokens, choice, run_options);
            } catch (const InvalidArgument& e) {
                return UsageError(PrintableLine(e.what()));
            }
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!std::all_of(pass.logits.begin(), pass.logits.end(),
                             [](float v) { return std::isfinite(v); }))
                return UsageError(Excerpt(options.path, 200) +
                                  ": the model's outputs (its logits, from wte.weight and the "
                                  "last block) are not finite numbers under positions " +
                                  PositionChoiceName(choice) +
                                  " (its weights overflow float32 on the way)");
            std::string guess_text;
            nlohmann::json guesses =
                Guesses(pass, sizes, options, words ? &tokenizer : nullptr, &guess_text);
            nlohmann::json run = {{"positions", PositionChoiceName(choice)},
                                  {"loss", run_options.all_logits ? nlohmann::json(pass.loss)
                                                                  : nlohmann::json(nullptr)},
                                  {"top", guesses},
                                  {"seconds", seconds}};
            if (options.full) {
                run["logits"] =
                    std::vector<float>(pass.logits.end() - sizes.vocab, pass.logits.end());
                run["attention"] = pass.attention;
                run["states"] = pass.states;
                run["position_rows"] = pass.positions;
            }
            char line[200];
            // The loss in nats: the mean cross-entropy of each next token, natural log.
            std::snprintf(
                line, sizeof line, "%-12s loss %-14s next:", PositionChoiceName(choice).c_str(),
                run_options.all_logits ? (std::to_string(pass.loss).substr(0, 7) + " nats").c_str()
                                       : "—");
            lines += line + guess_text + "\n";
            sentence["runs"].push_back(std::move(run));
            if (sequences.size() == 2)
                last_states[s].push_back(LastTokenStates(pass, sizes, tokens.size()));
        }
        doc["sentences"].push_back(std::move(sentence));
    }
    if (sequences.size() == 2) AddDistances(choices, last_states, sizes.width, &doc, &lines);
    std::string folder_error;
    if (!CheckOutputFolder(options.out, &folder_error)) return RuntimeError(folder_error);
    try {
        const std::string shown =
            options.json ? doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
                         : lines;
        Emit(options.out, [&](std::ostream& out) { out << shown; });
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
