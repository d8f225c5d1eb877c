// The Real model view's computation: reading the checkpoint, tokenizing the two sentences,
// running them under each switch, and the sentence built from what that gives.
#include "panels/order/order_real.h"

#include "io/json_input.h"
#include "io/model_files.h"
#include "pelab/base/error.h"
#include "pelab/models/families.h"
#include "widgets/number_text.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <new>

namespace pelab {

namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Each run's guesses' texts.
void NameGuesses(const BpeTokenizer& tokenizer, RealOrderDemo* demo) {
    for (const OrderRun& run : demo->result.runs) {
        demo->top_text_a.emplace_back();
        demo->top_text_b.emplace_back();
        for (const NextGuess& guess : run.top_a)
            demo->top_text_a.back().push_back(tokenizer.TokenText(guess.id));
        for (const NextGuess& guess : run.top_b)
            demo->top_text_b.back().push_back(tokenizer.TokenText(guess.id));
    }
}

} // namespace

std::string ShownToken(const std::string& bytes) {
    // A token is bytes: a byte that starts no whole UTF-8 character (half of an emoji, say) is
    // written \xNN, as control bytes are, so that what is shown is what the token holds.
    std::string valid;
    for (std::size_t at = 0; at < bytes.size();) {
        const auto lead = static_cast<unsigned char>(bytes[at]);
        const std::size_t length = lead < 0x80         ? 1
                                   : (lead >> 5) == 6  ? 2
                                   : (lead >> 4) == 14 ? 3
                                   : (lead >> 3) == 30 ? 4
                                                       : 0;
        bool whole = length > 0 && at + length <= bytes.size();
        for (std::size_t k = 1; whole && k < length; ++k)
            whole = (static_cast<unsigned char>(bytes[at + k]) >> 6) == 2;
        if (whole) {
            valid.append(bytes, at, length);
            at += length;
        } else {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02X", lead);
            valid += escaped;
            ++at;
        }
    }
    return PrintableLine(valid);
}

long long CheckpointBytes(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::path weights(path);
    const std::string name = weights.filename().string();
    const bool index = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
    if (!index) {
        const auto bytes = fs::file_size(weights, error);
        return error ? 0 : static_cast<long long>(bytes);
    }
    long long total = 0;
    for (const auto& entry : fs::directory_iterator(weights.parent_path(), error)) {
        const std::string shard = entry.path().filename().string();
        if (shard.size() > 12 && shard.compare(shard.size() - 12, 12, ".safetensors") == 0)
            total += static_cast<long long>(entry.file_size(error));
    }
    return total;
}

LoadedModel LoadRealSource(const RealSource& source) {
    const auto start = std::chrono::steady_clock::now();
    LoadedModel loaded;
    const ModelFamily* family = family_by_id(source.family_id);
    loaded.family = family != nullptr ? family->display : source.family_id;
    loaded.file_bytes = CheckpointBytes(source.checkpoint_path);
    if (source.max_bytes > 0 && loaded.file_bytes > source.max_bytes) {
        loaded.error = "The page runs checkpoints of up to " +
                       ShownNumber(static_cast<double>(source.max_bytes) / 1e6, 3) +
                       " MB (DistilGPT-2's 353 MB and SmolLM2-135M's 269 MB are within it); "
                       "this one is " +
                       ShownNumber(static_cast<double>(loaded.file_bytes) / 1e6, 3) +
                       " MB. Run it in the desktop app.";
        return loaded;
    }
    ModelRequest request;
    request.path = source.checkpoint_path;
    request.config_path = source.config_path;
    if (source.family_id == "gpt2") {
        auto model = std::make_shared<Gpt2Model>();
        if (std::string error = OpenGpt2(request, model.get()); !error.empty()) {
            loaded.error = error;
            return loaded;
        }
        loaded.gpt2 = std::move(model);
    } else {
        auto model = std::make_shared<LlamaModel>();
        if (std::string error = OpenLlama(request, model.get()); !error.empty()) {
            loaded.error = error;
            return loaded;
        }
        loaded.rotary = std::move(model);
    }
    auto tokenizer = std::make_shared<BpeTokenizer>();
    loaded.tokenizer_error = OpenTokenizer(source.checkpoint_path, "", tokenizer.get());
    if (loaded.tokenizer_error.empty()) loaded.tokenizer = std::move(tokenizer);
    loaded.seconds = SecondsSince(start);
    return loaded;
}

std::vector<PositionChoice> RealSwitches(std::uint64_t shuffle_seed, int shift) {
    std::vector<PositionChoice> switches(6);
    switches[1].kind = PositionSwitch::Zeroed;
    switches[2].kind = PositionSwitch::MeanRow;
    switches[3].kind = PositionSwitch::Shuffled;
    switches[3].seed = shuffle_seed;
    switches[4].kind = PositionSwitch::Shifted;
    switches[4].shift = shift;
    switches[5].kind = PositionSwitch::Sinusoidal;
    return switches;
}

std::string ByteGuessNote(const std::vector<std::vector<std::string>>& tokens) {
    const auto count = [](const std::string& text) {
        std::size_t found = 0;
        for (std::size_t at = text.find("\\x"); at != std::string::npos;
             at = text.find("\\x", at + 2))
            ++found;
        return found;
    };
    std::size_t shown = 0, with_byte = 0;
    for (const std::vector<std::string>& row : tokens)
        for (const std::string& token : row) {
            ++shown;
            // Escapes ShownToken added (a token may hold the text "\x" itself).
            if (count(ShownToken(token)) > count(token)) ++with_byte;
        }
    if (with_byte == 0) return "";
    return "\\xNN: a byte that is no whole character by itself (a piece of a character UTF-8 "
           "writes in several bytes, or a control byte); the model's tokens are strings of bytes, "
           "and " +
           std::to_string(with_byte) + " of the " + std::to_string(shown) +
           " guesses shown hold such a byte.";
}

Role RealSwitchRole(std::size_t k) {
    // GPT-2's as trained, zeroed, mean row, shuffled, shifted, sinusoidal (a grey: each theme's
    // other blues are too near its sin blue); a rotary model's as trained, none, pairing, base,
    // shifted, scaling off, none from a block.
    const Role roles[] = {Role::PosB,     Role::PosA,  Role::Sin,      Role::Cos,
                          Role::ShiftArc, Role::Muted, Role::Magnitude};
    return roles[k % 7];
}

std::string RealSwitchLabel(const PositionChoice& choice) {
    switch (choice.kind) {
    case PositionSwitch::Trained:
        return "as trained";
    case PositionSwitch::Zeroed:
        return "zeroed";
    case PositionSwitch::MeanRow:
        return "mean row";
    case PositionSwitch::Shuffled:
        return "shuffled (seed " + std::to_string(choice.seed) + ")";
    case PositionSwitch::Shifted:
        return "shifted by " + std::to_string(choice.shift);
    case PositionSwitch::Same:
        return "all at row " + std::to_string(choice.same_row);
    case PositionSwitch::Sinusoidal:
        return "sinusoidal";
    }
    return "?";
}

RealOrderDemo ComputeRealOrder(const RealOrderInputs& inputs) {
    const auto start = std::chrono::steady_clock::now();
    RealOrderDemo demo;
    if (!inputs.loaded || !inputs.loaded->Runs()) {
        demo.error = inputs.loaded ? inputs.loaded->error : "no checkpoint is open";
        return demo;
    }
    if (!inputs.loaded->tokenizer) {
        demo.error = inputs.loaded->tokenizer_error;
        return demo;
    }
    const LoadedModel& loaded = *inputs.loaded;
    const BpeTokenizer& tokenizer = *inputs.loaded->tokenizer;
    demo.family = loaded.family;
    // A rotary model's context is what it was trained on; the view's sentences stay far inside.
    const long long trained_context =
        loaded.gpt2 ? loaded.gpt2->Sizes().context : loaded.rotary->Sizes().context;
    const int context = loaded.gpt2 ? loaded.gpt2->Sizes().context
                        : trained_context > 0
                            ? static_cast<int>(std::min<long long>(trained_context, 1 << 20))
                            : 1 << 20;
    const int vocab = loaded.gpt2 ? loaded.gpt2->Sizes().vocab : loaded.rotary->Sizes().vocab;
    demo.context = trained_context;
    const int most = std::min(kMaxRealTokens, context);
    for (const auto& [name, text, ids, pieces] :
         {std::tuple{"A", &inputs.text_a, &demo.ids_a, &demo.pieces_a},
          std::tuple{"B", &inputs.text_b, &demo.ids_b, &demo.pieces_b}}) {
        const std::string sentence = std::string("sentence ") + name;
        if (std::string error = tokenizer.Encode(*text, ids).message(); !error.empty()) {
            demo.error = sentence + ": " + error;
            return demo;
        }
        if (ids->empty()) {
            demo.error = sentence + " is empty: type a few words";
            return demo;
        }
        if (static_cast<int>(ids->size()) > most) {
            demo.error = sentence + " is " + std::to_string(ids->size()) +
                         " tokens; the view takes up to " + std::to_string(most) +
                         (most < context ? " (pelab model run takes up to the model's context, " +
                                               std::to_string(context) + ")"
                                         : std::string(" (the model's context)"));
            return demo;
        }
        for (int id : *ids) {
            if (id >= vocab) {
                demo.error = sentence + ": the tokenizer gave id " + std::to_string(id) +
                             ", beyond the model's " + std::to_string(vocab) +
                             " tokens (the tokenizer belongs to another model)";
                return demo;
            }
            pieces->push_back(tokenizer.TokenText(id));
        }
    }
    demo.model = inputs.loaded.get();
    demo.width = loaded.gpt2 ? loaded.gpt2->Sizes().width : loaded.rotary->Sizes().width;
    demo.vocab = vocab;
    if (loaded.rotary) {
        RunRotaryOrder(inputs, &demo);
        if (!demo.error.empty()) return demo;
        NameGuesses(tokenizer, &demo);
        demo.sentence = RotaryOrderSentence(demo);
        for (std::size_t k = 0; k < demo.result.runs.size(); ++k)
            demo.switch_sentences.push_back(RotarySwitchSentence(demo, k));
        demo.seconds = SecondsSince(start);
        return demo;
    }
    const Gpt2Model& model = *loaded.gpt2;
    const auto unchanged = [&](std::size_t n) {
        const std::vector<int> order = ShuffleOrder(static_cast<int>(n), inputs.shuffle_seed);
        for (std::size_t i = 0; i < order.size(); ++i)
            if (order[i] != static_cast<int>(i)) return false;
        return true;
    };
    demo.shuffle_unchanged = unchanged(demo.ids_a.size()) && unchanged(demo.ids_b.size());
    const int longest = static_cast<int>(std::max(demo.ids_a.size(), demo.ids_b.size()));
    demo.shift_used = std::clamp(inputs.shift, 0, context - longest);
    const std::vector<PositionChoice> switches = RealSwitches(inputs.shuffle_seed, demo.shift_used);
    const char* const ids[] = {"trained", "zero", "mean", "shuffle", "shift", "sinusoidal"};
    for (std::size_t k = 0; k < switches.size(); ++k) {
        demo.switch_ids.push_back(ids[k]);
        demo.labels.push_back(RealSwitchLabel(switches[k]));
        demo.names.push_back(PositionChoiceName(switches[k]));
    }
    try {
        demo.result = RunOrderOnGpt2(model, demo.ids_a, demo.ids_b, switches, 5, inputs.threads);
    } catch (const InvalidArgument& e) {
        demo.error = e.what();
        return demo;
    } catch (const std::bad_alloc&) {
        demo.error = "not enough memory to run the model on these sentences";
        return demo;
    }
    NameGuesses(tokenizer, &demo);
    demo.sentence = RealOrderSentence(demo);
    demo.seconds = SecondsSince(start);
    return demo;
}

// RealOrderSentence and the rotary sentences: order_sentence.cpp.

} // namespace pelab
