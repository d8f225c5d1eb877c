// order_real.h — the order panel's "Real model" view: the order demo run on the checkpoint open in
// the Your model panel, under each position switch: GPT-2's (its learned table zeroed, averaged,
// shuffled, …: pelab/models/gpt2.h) or a rotary model's (its rotations off, mis-paired,
// re-based, shifted, …: pelab/models/llama.h, the families LlamaPassRuns names). Loading the
// weights and running the passes happen off the frame (BackgroundCached); what they give is
// drawn and reported from one result.
#pragma once

#include "panels/explanation.h"
#include "pelab/models/bpe_tokenizer.h"
#include "pelab/models/gpt2.h"
#include "pelab/models/gpt2_order.h"
#include "pelab/models/llama_order.h"
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
/// The shift reaches past 2²⁴, where float32 positions stop being whole numbers apart (a rotary
/// model's view says so; GPT-2's table ends long before).
constexpr int kMaxRealBlocks = 128, kMaxRealHeads = 128, kMaxRealShift = 1 << 25;
/// The largest checkpoint the browser page runs: the page holds the file, a mapped copy of it and
/// the weights widened to float32 in its 2 GiB of memory (DistilGPT-2's 353 MB and SmolLM2-135M's
/// 269 MB fit; GPT-2 small's 548 MB needs the desktop app).
constexpr long long kPageMaxModelBytes = 400LL * 1000 * 1000;
/// The rotary base switch's bounds in the view.
constexpr double kMinBaseFactor = 1e-3, kMaxBaseFactor = 1e3;

/// Where the checkpoint is (AppState::model_table's source), its family and what opened it.
struct RealSource {
    std::string checkpoint_path, config_path;
    std::string family_id; ///< families.h's id: "gpt2", or one LlamaPassRuns names
    std::uint64_t version = 0;
    /// The page's limit (kPageMaxModelBytes), or none (0) on the desktop.
    long long max_bytes = 0;
    bool operator==(const RealSource& o) const {
        return checkpoint_path == o.checkpoint_path && config_path == o.config_path &&
               family_id == o.family_id && version == o.version && max_bytes == o.max_bytes;
    }
};

/// A checkpoint read for running (LoadRealSource): GPT-2 (gpt2) or a rotary model (rotary).
/// error: why it cannot run; tokenizer_error: why there is no tokenizer (then no text can be
/// read).
struct LoadedModel {
    std::string error, tokenizer_error;
    std::shared_ptr<const Gpt2Model> gpt2;
    std::shared_ptr<const LlamaModel> rotary;
    std::shared_ptr<const BpeTokenizer> tokenizer;
    std::string family; ///< its display name ("GPT-2", "Llama", "Qwen3", …)
    long long file_bytes = 0;
    double seconds = 0;
    bool Runs() const { return gpt2 != nullptr || rotary != nullptr; }
};
/// The weights' bytes on disk: the file, or every .safetensors beside an index.
long long CheckpointBytes(const std::string& path);
LoadedModel LoadRealSource(const RealSource& source);

/// The switches the view runs, in its order: as trained, zeroed, the mean row, shuffled (seed),
/// shifted by shift, sinusoidal.
std::vector<PositionChoice> RealSwitches(std::uint64_t shuffle_seed, int shift);
/// The view's name of a switch: "as trained", "zeroed", "mean row", "shuffled (seed 3)", …
std::string RealSwitchLabel(const PositionChoice& choice);
/// The colour of the k-th switch (RealSwitches' or RotarySwitches' order) in the distance plot:
/// seven that stay apart in every theme (the mean row's blue and the sinusoidal sky blue were one
/// colour in the dark).
Role RealSwitchRole(std::size_t k);

/// The switches the view runs on a rotary model, in its order: as trained, none, the other
/// pairing, base × base_factor, shifted by shift, scaling off, none from block nope_block (1 …:
/// layer nope_block − 1 on).
std::vector<RotaryChoice> RotarySwitches(double base_factor, long long shift, int nope_block);
/// The view's name of a rotary switch for this model: "as trained", "no rotation", "interleaved
/// pairs" (the other pairing than the model's), "base ×0.1", "shifted by 1000", "scaling off",
/// "none from block 2".
std::string RotarySwitchLabel(const RotaryChoice& choice, const LlamaSizes& sizes);

struct RealOrderInputs {
    std::shared_ptr<const LoadedModel> loaded;
    std::string text_a, text_b;
    std::uint64_t shuffle_seed = 1; ///< GPT-2's shuffle
    int shift = 0;
    double base_factor = 0.1; ///< a rotary model's base switch
    int nope_block = 2;       ///< … and its "none from block" switch
    int threads = 2;
    /// Asked again after a run was stopped (Run again counts up).
    int run = 0;
    /// Where a run in the background reports its passes and finds Cancel (null: none). Not
    /// part of the key.
    std::shared_ptr<PassProgress> progress;
    bool operator==(const RealOrderInputs& o) const {
        return loaded == o.loaded && text_a == o.text_a && text_b == o.text_b &&
               shuffle_seed == o.shuffle_seed && shift == o.shift && base_factor == o.base_factor &&
               nope_block == o.nope_block && threads == o.threads && run == o.run;
    }
};

/// One computed demo (Compute → result). error: why the texts could not be run.
struct RealOrderDemo {
    std::string error;
    bool cancelled = false; ///< stopped by Cancel before the end (error says so)
    std::vector<int> ids_a, ids_b;
    std::vector<std::string> pieces_a, pieces_b; ///< each token's text (bytes)
    /// The shift used (shift asked; for GPT-2 lowered so that the longer sentence stays in the
    /// table).
    int shift_used = 0;
    OrderResult result;
    /// Each run's scene id (real_switch), label and command-line name (--positions), parallel to
    /// result.runs.
    std::vector<std::string> switch_ids, labels, names;
    /// A rotary model's: its switches, what a switch does that its name does not say (per run,
    /// RotaryChoiceNote), the shift's closeness, and each run's own sentence.
    bool rotary = false;
    std::vector<RotaryChoice> rotary_switches;
    std::vector<std::string> notes;
    ShiftCloseness shift;
    std::vector<Explanation> switch_sentences;
    /// Per run, what the switch does to this model (the pairs it turns, the base it uses, …).
    std::vector<std::string> switch_details;
    long long first_window = 0; ///< block 1's sliding window (0: none)
    long long context = 0;      ///< the trained context (max_position_embeddings; 0: not given)
    std::string family;         ///< the model's family, as the view names it
    /// Each run's guesses' texts, parallel to top_a and top_b.
    std::vector<std::vector<std::string>> top_text_a, top_text_b;
    Explanation sentence;               ///< RealOrderSentence of this demo
    const LoadedModel* model = nullptr; ///< the checkpoint it ran on (identity only)
    int width = 0, vocab = 0;           ///< the model's
    /// The shuffle left both sentences in order (a seed whose permutation of so few tokens is
    /// the identity): its row is the trained one.
    bool shuffle_unchanged = false;
    double seconds = 0;
};
/// The error of a run stopped by Cancel.
constexpr const char* kRunStopped =
    "Stopped before the end (Cancel): press Run again to run the model on the two sentences.";
/// Tokenizes, runs and words the sentence, once per change of the inputs.
RealOrderDemo ComputeRealOrder(const RealOrderInputs& inputs);
/// The rotary part of ComputeRealOrder (order_rotary.cpp): demo holds the tokens; runs the
/// switches, or sets demo->error.
void RunRotaryOrder(const RealOrderInputs& inputs, RealOrderDemo* demo);

/// What the numbers say, as a sentence with its claims (explanation.h): the loss as trained and
/// without positions, the tokens that leave block 1 the same, how far apart the last tokens end
/// with positions as trained and removed, and that removing trained positions is an ablation.
Explanation RealOrderSentence(const RealOrderDemo& demo);
/// The same for a rotary model: the loss as trained, with no rotation and with the other
/// pairing, the tokens that leave block 1 the same without rotation, the last tokens' distance,
/// how close the shift leaves the attention (f32 and bf16 tables), and the ablation.
Explanation RotaryOrderSentence(const RealOrderDemo& demo);
/// What run k did, in a sentence: its loss and top guess against the trained run's, the last
/// tokens' distance, and what is particular to it (the pairing read, the base, the shift's
/// closeness, a switch that changes nothing).
Explanation RotarySwitchSentence(const RealOrderDemo& demo, std::size_t k);

/// A token's text as the view shows it: control bytes escaped, one line.
std::string ShownToken(const std::string& bytes);
/// Under the guesses table: what "\xNN" means, with how many of the guesses shown (`tokens`,
/// their bytes, a row per switch) ShownToken writes with such a byte; "" when none.
std::string ByteGuessNote(const std::vector<std::vector<std::string>>& tokens);

} // namespace pelab
