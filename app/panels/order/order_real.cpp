// The Real model view's computation: reading the checkpoint, tokenizing the two sentences,
// running them under each switch, and the sentence built from what that gives.
#include "panels/order/order_real.h"

#include "io/json_input.h"
#include "io/model_files.h"
#include "pelab/base/error.h"
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

// A token in the sentence as its box shows it: a space as "·" (" ." is the box "·.").
std::string Quoted(const std::string& bytes) {
    std::string shown;
    for (char c : ShownToken(bytes))
        shown += c == ' ' ? std::string("·") : std::string(1, c);
    return "\"" + shown + "\"";
}

std::string Ordinal(int index) {
    const int n = index + 1;
    const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                         : n % 10 == 1                    ? "st"
                         : n % 10 == 2                    ? "nd"
                         : n % 10 == 3                    ? "rd"
                                                          : "th";
    return std::to_string(n) + suffix;
}

// "raises … from x to y" / "lowers" / "leaves … at x": loss values shown to 3 digits.
std::string LossChange(double from, double to) {
    const std::string a = ShownNumber(from, 3), b = ShownNumber(to, 3);
    if (a == b) return "leaves it at " + a;
    return std::string(to > from ? "raises" : "lowers") + " it to " + b;
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

LoadedGpt2 LoadGpt2Source(const Gpt2Source& source) {
    const auto start = std::chrono::steady_clock::now();
    LoadedGpt2 loaded;
    loaded.file_bytes = CheckpointBytes(source.checkpoint_path);
    if (source.max_bytes > 0 && loaded.file_bytes > source.max_bytes) {
        loaded.error = "The page runs GPT-2 checkpoints of up to " +
                       ShownNumber(static_cast<double>(source.max_bytes) / 1e6, 3) +
                       " MB (DistilGPT-2's 353 MB is within it); this one is " +
                       ShownNumber(static_cast<double>(loaded.file_bytes) / 1e6, 3) +
                       " MB. Run it in the desktop app.";
        return loaded;
    }
    ModelRequest request;
    request.path = source.checkpoint_path;
    request.config_path = source.config_path;
    auto model = std::make_shared<Gpt2Model>();
    if (std::string error = OpenGpt2(request, model.get()); !error.empty()) {
        loaded.error = error;
        return loaded;
    }
    loaded.model = std::move(model);
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
           "writes in several bytes, or a control byte); GPT-2's tokens are strings of bytes, "
           "and " +
           std::to_string(with_byte) + " of the " + std::to_string(shown) +
           " guesses shown hold such a byte.";
}

Role RealSwitchRole(std::size_t k) {
    // as trained, zeroed, mean row, shuffled, shifted, sinusoidal (a grey: each theme's other
    // blues are too near its sin blue).
    const Role roles[] = {Role::PosB, Role::PosA,     Role::Sin,
                          Role::Cos,  Role::ShiftArc, Role::Muted};
    return roles[k % 6];
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
    if (!inputs.loaded || !inputs.loaded->model) {
        demo.error = inputs.loaded ? inputs.loaded->error : "no GPT-2 checkpoint is open";
        return demo;
    }
    if (!inputs.loaded->tokenizer) {
        demo.error = inputs.loaded->tokenizer_error;
        return demo;
    }
    const Gpt2Model& model = *inputs.loaded->model;
    const BpeTokenizer& tokenizer = *inputs.loaded->tokenizer;
    const int context = model.Sizes().context;
    const int vocab = model.Sizes().vocab;
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
                             " tokens (vocab.json belongs to another model)";
                return demo;
            }
            pieces->push_back(tokenizer.TokenText(id));
        }
    }
    demo.model = inputs.loaded.get();
    demo.width = model.Sizes().width;
    demo.vocab = vocab;
    const auto unchanged = [&](std::size_t n) {
        const std::vector<int> order = ShuffleOrder(static_cast<int>(n), inputs.shuffle_seed);
        for (std::size_t i = 0; i < order.size(); ++i)
            if (order[i] != static_cast<int>(i)) return false;
        return true;
    };
    demo.shuffle_unchanged = unchanged(demo.ids_a.size()) && unchanged(demo.ids_b.size());
    const int longest = static_cast<int>(std::max(demo.ids_a.size(), demo.ids_b.size()));
    demo.shift_used = std::clamp(inputs.shift, 0, context - longest);
    try {
        demo.result =
            RunOrderOnGpt2(model, demo.ids_a, demo.ids_b,
                           RealSwitches(inputs.shuffle_seed, demo.shift_used), 5, inputs.threads);
    } catch (const InvalidArgument& e) {
        demo.error = e.what();
        return demo;
    } catch (const std::bad_alloc&) {
        demo.error = "not enough memory to run the model on these sentences";
        return demo;
    }
    for (const Gpt2OrderRun& run : demo.result.runs) {
        demo.top_text_a.emplace_back();
        demo.top_text_b.emplace_back();
        for (const NextGuess& guess : run.top_a)
            demo.top_text_a.back().push_back(tokenizer.TokenText(guess.id));
        for (const NextGuess& guess : run.top_b)
            demo.top_text_b.back().push_back(tokenizer.TokenText(guess.id));
    }
    demo.sentence = RealOrderSentence(demo);
    demo.seconds = SecondsSince(start);
    return demo;
}

Explanation RealOrderSentence(const RealOrderDemo& demo) {
    Explanation out;
    const Gpt2OrderResult& r = demo.result;
    if (!demo.error.empty() || r.runs.size() < 3) return out;
    const Gpt2OrderRun &trained = r.runs[0], &zeroed = r.runs[1], &mean = r.runs[2];
    std::string text;
    // 1. What the positions are worth to the prediction: sentence A's loss.
    out.Claims("tokens_a", r.tokens_a);
    if (r.tokens_a < 2) {
        text = "Sentence A is one token: there is no next token inside it to predict, so no "
               "loss to compare.";
    } else {
        out.Claims("loss_trained_a", trained.loss_a);
        out.Claims("loss_zeroed_a", zeroed.loss_a);
        out.Claims("loss_mean_a", mean.loss_a);
        text = "With its positions as trained, the model predicts each next token of sentence A "
               "with a mean loss of " +
               ShownNumber(trained.loss_a, 3) + " nats; zeroing its positions " +
               LossChange(trained.loss_a, zeroed.loss_a) + " and giving every token the mean row " +
               LossChange(trained.loss_a, mean.loss_a) + ".";
    }
    // 2. Order without positions.
    const bool same_sentence = demo.ids_a == demo.ids_b;
    std::vector<int> sorted_a = demo.ids_a, sorted_b = demo.ids_b;
    std::sort(sorted_a.begin(), sorted_a.end());
    std::sort(sorted_b.begin(), sorted_b.end());
    const bool reordering = sorted_a == sorted_b;
    out.Claims("same_sentence", same_sentence ? 1 : 0);
    out.Claims("reordering", reordering ? 1 : 0);
    out.Claims("same_prefix_tokens", static_cast<double>(r.same_prefix.size()));
    if (same_sentence) {
        text += " The two sentences are the same tokens in the same order: there is no second "
                "order to tell apart.";
    } else {
        if (!reordering)
            text += " The two sentences hold different tokens, so they differ with or without "
                    "positions.";
        double block1 = 0;
        for (const Gpt2OrderRun* run : {&zeroed, &mean})
            for (double distance : run->same_prefix_block1)
                block1 = std::max(block1, distance);
        if (!r.same_prefix.empty()) {
            out.Claims("same_prefix_block1_max", block1);
            std::string named;
            const std::size_t shown = std::min<std::size_t>(r.same_prefix.size(), 3);
            const bool more = r.same_prefix.size() > shown;
            for (std::size_t k = 0; k < shown; ++k) {
                const int i = r.same_prefix[k];
                // "a and b", "a, b and c", "a, b, c and 27 more"
                named += (k == 0                    ? ""
                          : k + 1 == shown && !more ? " and "
                                                    : ", ") +
                         Quoted(demo.pieces_a[i]) + " (" + Ordinal(i) + ")";
            }
            if (more) named += " and " + std::to_string(r.same_prefix.size() - shown) + " more";
            text += " Without positions (zeroed or the mean row) a token leaves block 1 "
                    "depending only on itself and the tokens up to it, whatever their order: " +
                    named + (r.same_prefix.size() == 1 ? " sees" : " see") +
                    " the same tokens up to " + (r.same_prefix.size() == 1 ? "it" : "them") +
                    " in both sentences and " + (r.same_prefix.size() == 1 ? "leaves" : "leave") +
                    (block1 <= 1e-5
                         ? " block 1 the same (largest distance " + ShownNumber(block1, 2) + ")."
                         : " block 1 within " + ShownNumber(block1, 2) +
                               " of each other (rounding in a long sentence).");
        }
        const int last = static_cast<int>(zeroed.last_distances.size()) - 1;
        if (last >= 1) {
            const double without = zeroed.last_distances[last], with = trained.last_distances[last];
            out.Claims("last_distance_zeroed", without);
            out.Claims("last_distance_trained", with);
            const bool order_left = without > 1e-4;
            const bool same_last = demo.ids_a.back() == demo.ids_b.back();
            out.Claims("same_last_token", same_last ? 1 : 0);
            text += " After block " + std::to_string(last) + ", the two last tokens" +
                    (same_last ? "" : " (different tokens)") + " are " + ShownNumber(without, 2) +
                    " apart with positions zeroed and " + ShownNumber(with, 2) + " as trained";
            if (reordering && same_last) {
                out.Claims("order_left_without_positions", order_left ? 1 : 0);
                if (!order_left)
                    text += ": without positions the last token does not tell the two orders "
                            "apart.";
                else if (r.layers >= 2)
                    text += ": from block 2 on the earlier tokens' states, which differ, reach "
                            "the last one, so the causal model still tells the orders apart "
                            "without its positions.";
                else
                    text += ".";
            } else {
                text += ".";
            }
        }
    }
    text += " The model was trained with its positions: running it without them is an "
            "ablation, not a model trained without positions.";
    out.text = text;
    return out;
}

} // namespace pelab
