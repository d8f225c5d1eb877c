// `pelab model run`: a checkpoint's forward pass on token ids or texts with its positions as
// trained or switched — GPT-2's (pelab/models/gpt2.h: its position table) and the rotary
// families' (pelab/models/llama.h: their rotations) — printed switch by switch.
#include "cli/cli.h"
#include "cli/cli_checks.h"
#include "cli/cli_model.h"
#include "io/json_input.h"
#include "io/model_files.h"
#include "pelab/base/error.h"
#include "pelab/models/llama.h"
#include "pelab/models/llama_order.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

namespace pelab {

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

// The switches' names, as the command line and the output spell them.
std::string ChoiceName(const PositionChoice& choice) {
    return PositionChoiceName(choice);
}
std::string ChoiceName(const RotaryChoice& choice) {
    return RotaryChoiceName(choice);
}
Status ParseChoice(const std::string& text, PositionChoice* out) {
    return ParsePositionChoice(text, out);
}
Status ParseChoice(const std::string& text, RotaryChoice* out) {
    return ParseRotaryChoice(text, out);
}

// The run's options together and its position switches (GPT-2's or a rotary model's): "" or
// why they cannot run.
template <typename Choice>
std::string RunChoices(const ModelOptions& options, std::vector<Choice>* choices) {
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
        Choice choice;
        if (std::string error = ParseChoice(name, &choice).message(); !error.empty())
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
template <typename Sizes>
std::string CheckFullSize(const ModelOptions& options, const Sizes& sizes,
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
nlohmann::json Guesses(const Gpt2Pass& pass, int vocab, const ModelOptions& options,
                       const BpeTokenizer* tokenizer, std::string* guess_text) {
    nlohmann::json guesses = nlohmann::json::array();
    for (const NextGuess& guess : TopNext(pass, vocab, options.top)) {
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
Gpt2Pass LastTokenStates(const Gpt2Pass& pass, int layers, int width, std::size_t tokens) {
    Gpt2Pass last;
    last.tokens = 1;
    const std::size_t d = static_cast<std::size_t>(width);
    for (int layer = 0; layer <= layers; ++layer) {
        const auto at =
            pass.states.begin() + static_cast<std::ptrdiff_t>(
                                      (static_cast<std::size_t>(layer) * tokens + tokens - 1) * d);
        last.states.insert(last.states.end(), at, at + static_cast<std::ptrdiff_t>(d));
    }
    return last;
}

// How far apart the two texts' last-token states are, after each block, per switch.
template <typename Choice>
void AddDistances(const std::vector<Choice>& choices,
                  const std::vector<std::vector<Gpt2Pass>>& last_states, int width,
                  nlohmann::json* doc, std::string* lines) {
    nlohmann::json distances = nlohmann::json::array();
    *lines += "\nlast-token states apart (x0, then after each block):\n";
    for (std::size_t c = 0; c < choices.size(); ++c) {
        const std::vector<double> apart =
            LastStateDistances(last_states[0][c], last_states[1][c], width);
        distances.push_back({{"positions", ChoiceName(choices[c])}, {"last_state", apart}});
        char line[64];
        std::snprintf(line, sizeof line, "%-12s", ChoiceName(choices[c]).c_str());
        *lines += line;
        for (double value : apart) {
            std::snprintf(line, sizeof line, " %.3f", value);
            *lines += line;
        }
        *lines += "\n";
    }
    (*doc)["distances"] = distances;
}

// Each shift:K (K > 0) against the trained run, per sequence: the largest change of an attention
// weight per layer with float32 tables and with them rounded to bf16 (pelab/models/llama_order.h).
void AddShiftCloseness(const LlamaModel& model, const std::vector<RotaryChoice>& choices,
                       const std::vector<std::vector<int>>& sequences, nlohmann::json* doc,
                       std::string* lines) {
    nlohmann::json all = nlohmann::json::array();
    const Gpt2Options options; // the passes' attention, the last token's logits
    const auto row = [](const char* name, const std::vector<double>& values) {
        std::string text = std::string("  ") + name;
        char number[32];
        for (double value : values) {
            std::snprintf(number, sizeof number, " %.2g", value);
            text += number;
        }
        return text + "\n";
    };
    for (const RotaryChoice& choice : choices) {
        if (choice.kind != RotarySwitch::Shift || choice.shift == 0 || choice.bf16_tables) continue;
        for (std::size_t s = 0; s < sequences.size(); ++s) {
            std::vector<double> each[2];
            for (const bool bf16 : {false, true}) {
                RotaryChoice at_zero, shifted = choice;
                at_zero.bf16_tables = shifted.bf16_tables = bf16;
                each[bf16] = AttentionDifferences(
                    model.Run(sequences[s], at_zero, options).attention,
                    model.Run(sequences[s], shifted, options).attention, model.Sizes().layers);
            }
            std::vector<int> absolute;
            for (int l = 0; l < model.Sizes().layers; ++l)
                if (!ShiftChangesRope(model, l, choice.shift, static_cast<int>(sequences[s].size()))
                         .empty())
                    absolute.push_back(l);
            all.push_back({{"positions", RotaryChoiceName(choice)},
                           {"sequence", s},
                           {"f32", each[0]},
                           {"bf16", each[1]},
                           {"absolute_layers", absolute}});
            *lines += "\n" + RotaryChoiceName(choice) + " against trained" +
                      (sequences.size() > 1 ? ", text " + std::to_string(s + 1) : "") +
                      ": the largest change of an attention weight, layer by layer from 0\n" +
                      row("float32 tables:", each[0]) + row("bf16 tables:   ", each[1]);
            if (!absolute.empty())
                *lines += "  (" + std::to_string(absolute.size()) +
                          " layers' RoPE depends on the position itself at this shift)\n";
        }
    }
    if (!all.empty()) (*doc)["shift_closeness"] = all;
}

} // namespace

// A rotary model's run: its switches (trained, none, pairing, base:K, shift:K, scaling-off,
// nope-from:L) on token ids or texts (its tokenizer.json, or vocab.json and merges.txt).
int RunRotaryModel(const ModelOptions& options);

// Every switch on every sequence through the opened model, printed (text or JSON).
template <typename Model, typename Choice>
int RunPasses(const ModelOptions& options, const Model& model, const std::vector<Choice>& choices,
              const std::vector<std::vector<int>>& sequences, const BpeTokenizer& tokenizer,
              bool texts, bool words, double load_seconds,
              const std::vector<std::string>& switch_notes = {},
              const std::function<void(nlohmann::json*, std::string*)>& more = {}) {
    const auto& sizes = model.Sizes();
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
    std::vector<std::string> notes = sizes.notes;
    notes.insert(notes.end(), switch_notes.begin(), switch_notes.end());
    if (!notes.empty()) {
        doc["notes"] = notes;
        for (const std::string& note : notes)
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
        for (const Choice& choice : choices) {
            Gpt2Options run_options;
            run_options.all_logits = !options.last_only && tokens.size() > 1;
            run_options.keep_attention = options.full; // printed only with --full
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
                                  ": the model's outputs (its logits) are not finite numbers "
                                  "under positions " +
                                  ChoiceName(choice) +
                                  " (its weights overflow float32 on the way)");
            std::string guess_text;
            nlohmann::json guesses =
                Guesses(pass, sizes.vocab, options, words ? &tokenizer : nullptr, &guess_text);
            nlohmann::json run = {{"positions", ChoiceName(choice)},
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
            std::snprintf(line, sizeof line, "%-12s loss %-14s next:", ChoiceName(choice).c_str(),
                          run_options.all_logits
                              ? (std::to_string(pass.loss).substr(0, 7) + " nats").c_str()
                              : "—");
            lines += line + guess_text + "\n";
            sentence["runs"].push_back(std::move(run));
            if (sequences.size() == 2)
                last_states[s].push_back(
                    LastTokenStates(pass, sizes.layers, sizes.width, tokens.size()));
        }
        doc["sentences"].push_back(std::move(sentence));
    }
    if (sequences.size() == 2) AddDistances(choices, last_states, sizes.width, &doc, &lines);
    if (more) more(&doc, &lines);
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

int RunRotaryModel(const ModelOptions& options) {
    std::vector<RotaryChoice> choices;
    if (std::string error = RunChoices(options, &choices); !error.empty()) return UsageError(error);
    std::vector<std::vector<int>> sequences;
    BpeTokenizer tokenizer;
    if (std::string error = RunSequences(options, &tokenizer, &sequences); !error.empty())
        return UsageError(error);
    const bool texts = !options.run_texts.empty();
    const bool words =
        texts || OpenTokenizer(options.vocab.empty() ? options.path : options.vocab,
                               options.vocab.empty() ? "" : options.merges, &tokenizer)
                     .empty();
    LlamaModel model;
    double load_seconds = 0;
    if (std::string error =
            OpenLlama(ModelRequest{options.path, options.config, ""}, &model, &load_seconds);
        !error.empty())
        return UsageError(PrintableLine(error));
    std::vector<std::string> notes;
    std::size_t longest = 0;
    for (const std::vector<int>& tokens : sequences)
        longest = std::max(longest, tokens.size());
    for (const RotaryChoice& choice : choices)
        if (std::string note = RotaryChoiceNote(model.Sizes(), choice, static_cast<int>(longest));
            !note.empty() && std::find(notes.begin(), notes.end(), note) == notes.end())
            notes.push_back(note);
    const auto closeness = [&](nlohmann::json* doc, std::string* lines) {
        AddShiftCloseness(model, choices, sequences, doc, lines);
    };
    return RunPasses(options, model, choices, sequences, tokenizer, texts, words, load_seconds,
                     notes, closeness);
}

int RunModelRun(const ModelOptions& options) {
    // A rotary family's checkpoint runs the Llama-family pass, any other GPT-2's.
    const std::string family_id = FamilyOfRequest(ModelRequest{options.path, options.config, ""});
    if (LlamaPassRuns(family_id)) return RunRotaryModel(options);
    // Another rotary family: named, not taken for a GPT-2 without its table.
    if (const ModelFamily* family = family_by_id(family_id);
        family && family->kind == PositionKind::Rope)
        return UsageError("PE Lab's rotary pass runs Llama, Mistral, Ministral, Qwen2, Qwen3, "
                          "OLMo 2 and SmolLM3; this checkpoint is " +
                          std::string(family->display) + "'s");
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
    return RunPasses(options, model, choices, sequences, tokenizer, texts, words, load_seconds);
}

} // namespace pelab
