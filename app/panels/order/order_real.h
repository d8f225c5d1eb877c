// order_real.h — the order panel's "Real model" view: the order demo run on the GPT-2 checkpoint
// open in the Your model panel (its weights, config.json, vocab.json and merges.txt), under each
// position switch of pelab/models/gpt2.h. Loading the weights and running the passes happen off the
// frame (BackgroundCached); what they give is drawn and reported from one result.
#pragma once

#include "panels/explanation.h"
#include "pelab/models/bpe_tokenizer.h"
#include "pelab/models/gpt2.h"
#include "pelab/models/gpt2_order.h"
#include "widgets/theme.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pelab {

/// Most tokens per sentence in the view (its attention matrices stay readable); the command line
/// takes the model's whole context.
constexpr int kMaxRealTokens = 32;
/// Bounds of the view's settings (GPT-2 XL has 48 blocks of 25 heads and 1 024 positions).
constexpr int kMaxRealBlocks = 128, kMaxRealHeads = 128, kMaxRealShift = 1 << 20;
/// The largest checkpoint the browser page runs: the page holds the file, a mapped copy of it and
/// the weights widened to float32 in its 2 GiB of memory (DistilGPT-2's 353 MB fits; GPT-2 small's
/// 548 MB needs the desktop app).
constexpr long long kPageMaxGpt2Bytes = 400LL * 1000 * 1000;

/// Where the checkpoint is (AppState::model_table's source) and what opened it.
struct Gpt2Source {
    std::string checkpoint_path, config_path;
    std::uint64_t version = 0;
    /// The page's limit (kPageMaxGpt2Bytes), or none (0) on the desktop.
    long long max_bytes = 0;
    bool operator==(const Gpt2Source& o) const {
        return checkpoint_path == o.checkpoint_path && config_path == o.config_path &&
               version == o.version && max_bytes == o.max_bytes;
    }
};

/// A checkpoint read for running (LoadGpt2Source). error: why it cannot run; tokenizer_error: why
/// there is no tokenizer (then no text can be read).
struct LoadedGpt2 {
    std::string error, tokenizer_error;
    std::shared_ptr<const Gpt2Model> model;
    std::shared_ptr<const BpeTokenizer> tokenizer;
    long long file_bytes = 0;
    double seconds = 0;
};
/// The weights' bytes on disk: the file, or every .safetensors beside an index.
long long CheckpointBytes(const std::string& path);
LoadedGpt2 LoadGpt2Source(const Gpt2Source& source);

/// The switches the view runs, in its order: as trained, zeroed, the mean row, shuffled (seed),
/// shifted by shift, sinusoidal.
std::vector<PositionChoice> RealSwitches(std::uint64_t shuffle_seed, int shift);
/// The view's name of a switch: "as trained", "zeroed", "mean row", "shuffled (seed 3)", …
std::string RealSwitchLabel(const PositionChoice& choice);
/// The colour of the k-th switch (RealSwitches' order) in the distance plot: six that stay apart
/// in every theme (the mean row's blue and the sinusoidal sky blue were one colour in the dark).
Role RealSwitchRole(std::size_t k);

struct RealOrderInputs {
    std::shared_ptr<const LoadedGpt2> loaded;
    std::string text_a, text_b;
    std::uint64_t shuffle_seed = 1;
    int shift = 0;
    int threads = 2;
    bool operator==(const RealOrderInputs& o) const {
        return loaded == o.loaded && text_a == o.text_a && text_b == o.text_b &&
               shuffle_seed == o.shuffle_seed && shift == o.shift && threads == o.threads;
    }
};

/// One computed demo (Compute → result). error: why the texts could not be run.
struct RealOrderDemo {
    std::string error;
    std::vector<int> ids_a, ids_b;
    std::vector<std::string> pieces_a, pieces_b; ///< each token's text (bytes)
    /// The shift used (shift asked, lowered so that the longer sentence stays in the table).
    int shift_used = 0;
    Gpt2OrderResult result;
    /// Each run's guesses' texts, parallel to top_a and top_b.
    std::vector<std::vector<std::string>> top_text_a, top_text_b;
    Explanation sentence;              ///< RealOrderSentence of this demo
    const LoadedGpt2* model = nullptr; ///< the checkpoint it ran on (identity only)
    int width = 0, vocab = 0;          ///< the model's
    /// The shuffle left both sentences in order (a seed whose permutation of so few tokens is
    /// the identity): its row is the trained one.
    bool shuffle_unchanged = false;
    double seconds = 0;
};
/// Tokenizes, runs and words the sentence, once per change of the inputs.
RealOrderDemo ComputeRealOrder(const RealOrderInputs& inputs);

/// What the numbers say, as a sentence with its claims (explanation.h): the loss as trained and
/// without positions, the tokens that leave block 1 the same, how far apart the last tokens end
/// with positions as trained and removed, and that removing trained positions is an ablation.
Explanation RealOrderSentence(const RealOrderDemo& demo);

/// A token's text as the view shows it: control bytes escaped, one line.
std::string ShownToken(const std::string& bytes);
/// Under the guesses table: what "\xNN" means, with how many of the guesses shown (`tokens`,
/// their bytes, a row per switch) ShownToken writes with such a byte; "" when none.
std::string ByteGuessNote(const std::vector<std::vector<std::string>>& tokens);

} // namespace pelab
