// pelab/training/train.h — the training lab's experiments: tasks generated on the fly from a seed,
// and a Trainer that trains the same tiny transformer (pelab/training/transformer.h) once per
// positional variant, step by step, so that a worker thread, the command line or a browser's frame
// slices can all drive it, cancel it and read its curves at any time.
//
// Tasks (tokens 0 … vocab − 1; the labels of the yes/no tasks are the tokens 0 and 1):
//   reverse      every position predicts the token at the mirrored position
//   token_at     every position predicts the token at position k
//   shift        position p predicts the token at p − k (the first k positions are not scored)
//   sorted       the last position says whether the sequence never decreases (half of the
//                sequences are sorted)
//   first        each position says whether its token occurs earlier in the sequence
//   majority     every position predicts the most frequent token (ties: the smallest): the
//                control, which needs no order at all, so every variant should tie
//   word_back    words of 1 to 3 tokens (1 … vocab − 1, evenly) each ended by the separator 0;
//                every position predicts the first token of the word k words before its own
//                (a separator belongs to the word it ends): a count of words, not of tokens
//                (CoPE's case) on it
// A causal model is scored only where the answer is in what a position sees (make_task_batch).
// Training lengths are drawn in [min_train_len, train_len] per batch (the reference model
// trains at one length: min_train_len = train_len); accuracy is measured at each
// test length up to test_len (length generalisation). Deterministic: the same settings give the
// same curves bit for bit on every desktop CPU (the browser's differ in the last bits).
#pragma once

#include "pelab/training/transformer.h"

#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace pelab {

enum class TrainTask { Reverse, TokenAt, Shift, Sorted, First, Majority, WordBack };
const char* train_task_name(TrainTask task);
/// Throws InvalidArgument naming the known tasks.
TrainTask train_task_from_name(const std::string& name);
const std::vector<TrainTask>& train_tasks();

struct TaskOptions {
    TrainTask task = TrainTask::Reverse;
    int vocab = 16;
    int k = 2; ///< token_at's position and shift's offset
};
/// The shortest sequence the task is defined on (token_at and shift need k + 1 tokens).
int task_shortest_length(const TaskOptions& options);
/// size sequences of `length` tokens with their targets, drawn from random. For a causal
/// model only the positions that can see their answer are scored (the others get −1): reverse
/// from the middle on (p ≥ length − 1 − p), token_at from position k on, majority at the last
/// position; shift, sorted, first and word_back are answerable wherever they are scored.
TokenBatch make_task_batch(const TaskOptions& options, int size, int length,
                           std::mt19937_64& random, bool causal = false);

/// What can be reached on a task at one length, over the positions make_task_batch scores.
/// chance: always giving the answer that is most often right, without reading the tokens
/// (1/vocab for reverse, token_at and shift; the larger of the yes and no shares for sorted and
/// first; token 0's share for majority, as it wins the ties; 1/(vocab − 1) for word_back). ceiling:
/// the best any model can do from what each scored position sees; 1 on every task, as only
/// positions that can see their answer are scored. core/training/train_test counts both over every
/// sequence at small sizes.
struct TaskBounds {
    double chance = 0, ceiling = 1;
};
TaskBounds task_bounds(const TaskOptions& options, int length, bool causal);
/// A variant has learned a task when it is this share of the way from chance to the ceiling.
constexpr double kLearnedShare = 0.9;
/// chance + kLearnedShare × (ceiling − chance).
double learned_accuracy(const TaskBounds& bounds);
/// Whether solving the task needs the tokens' order under this mask. Not majority (a count);
/// not first under a causal mask (the mask hands each position its prefix, so "seen before?"
/// is a question about a set); not sorted, whose one scored position can tell most sequences
/// apart from its own token against the largest in the bag (the no-encoding model reaches
/// 0.91–0.95 there).
bool task_needs_order(TrainTask task, bool causal);

/// How much of a head's attention goes to the first token (an "attention sink": trained models
/// often park weight there that no task asks for). share: the mean over queries 1 … n − 1 of
/// the weight on key 0 (query 0 has no other key in a causal model); even: the same if every
/// query spread its weight evenly over the keys it sees (1/(i + 1) causal, 1/n otherwise).
struct FirstTokenShare {
    double share = 0, even = 0;
};
/// map: length × length weights, row i the query's; length ≥ 2 (InvalidArgument otherwise).
FirstTokenShare first_token_share(const std::vector<double>& map, int length, bool causal);

struct TrainSettings {
    TaskOptions task;
    std::vector<PositionalKind> variants = default_positional_kinds();
    bool causal = false;
    int layers = 2, d_model = 64, heads = 4;
    int train_len = 16;     ///< the longest training sequence
    int min_train_len = 16; ///< training lengths are drawn in [min_train_len, train_len]
    int test_len = 64;      ///< accuracy measured at lengths up to this
    int batch = 64;
    int steps = 300;      ///< per variant
    int eval_every = 25;  ///< steps between accuracy points of the curve
    int eval_batches = 4; ///< batches of `batch` sequences per accuracy measurement
    std::uint64_t seed = 1;
    AdamWOptions optimizer;
    /// The methods' options (MethodOptions), each in its row's range, and at most layers where
    /// the row says so when its method is trained.
    MethodOptions method_options;
};
/// The ranges validate_train_settings enforces, for the options that offer them (train_len,
/// min_train_len and test_len also depend on the task and on each other).
constexpr int kTrainMaxK = 64;
/// word_back looks at most this many words back (its example then holds 2k + 1 ≤ 33 tokens) and
/// needs a vocabulary of at least 3 (the separator and two word tokens; with one word token every
/// answer would be that token).
constexpr int kTrainMaxWordBackK = 16, kTrainMinWordBackVocab = 3;
constexpr int kTrainMinVocab = 2, kTrainMaxVocab = 256;
constexpr int kTrainMaxLayers = 4, kTrainMaxHeads = 4;
constexpr int kTrainMinDModel = 16, kTrainMaxDModel = 128;
constexpr int kTrainMaxTrainLen = 256, kTrainMaxTestLen = 1024;
constexpr int kTrainMaxBatch = 1024, kTrainMaxSteps = 1000000;
/// The Train panel's Quick demo and `pelab train --quick-demo`: a run a class can wait for that
/// still shows why positions matter. reverse at 16 tokens, no encoding against sinusoidal, 150
/// steps of 64 sequences (2 × 150 × 64 × 16 = 307 200 tokens trained), tested up to 32 tokens;
/// the rest as TrainSettings' defaults (seed 1). docs/performance.md times it.
TrainSettings quick_demo_settings();
/// Throws InvalidArgument naming the first setting out of range (or a variant named twice).
void validate_train_settings(const TrainSettings& settings);
/// The model a variant trains: the settings' shape, max_len = test_len, T5 with 32 buckets and
/// max_distance max(128, test_len).
TransformerConfig ModelConfig(const TrainSettings& settings, PositionalKind kind);
/// The lengths accuracy is measured at after training: train_len/2 (when at least the
/// shortest), train_len, and 2, 3 and 4 times it, up to test_len (always included).
std::vector<int> test_lengths(const TrainSettings& settings);
/// The length of the example whose attention a run shows: train_len, at most 16 unless the task
/// needs more (a run file keeps every layer's and head's map of it, so it stays small).
int example_length(const TrainSettings& settings);
/// The example a run shows: one sequence of the task at example_length(), drawn from a stream
/// of its own (seeded by settings.seed), the same for every variant.
TokenBatch train_example(const TrainSettings& settings);

struct VariantCurves {
    PositionalKind variant = PositionalKind::None;
    std::vector<double> loss;               ///< per step
    std::vector<int> accuracy_steps;        ///< where the accuracy curve was measured
    std::vector<double> accuracy;           ///< at train_len, at those steps
    std::vector<double> accuracy_by_length; ///< after training, at test_lengths()
    double seconds = 0;                     ///< training time (not the measurements)
};

class Trainer {
public:
    explicit Trainer(const TrainSettings& settings);
    /// Trains up to `steps` more steps (the variants one after another, each to
    /// settings.steps, then the final measurement of each); returns the training steps done.
    /// The final measurement (eval_batches batches at each test length) is taken one batch per
    /// call, and a call that takes one returns after it: a caller stepping between frames (the
    /// browser's Train panel) never waits for a whole measurement. The numbers do not depend on
    /// how the calls are sliced. Stops early once Cancel() was called (from any thread).
    int Step(int steps);
    bool Done() const;
    /// Training steps taken, over all the variants (the measurements not counted).
    int StepsTrained() const;
    bool Cancelled() const { return cancelled_.load(); }
    void Cancel() { cancelled_.store(true); }
    /// The work done over the work to do, in [0, 1], counting the training steps, the accuracy
    /// points of the curve and the final measurement at every test length (which at test lengths
    /// far past train_len can take longer than the training), each by its arithmetic: 1 only
    /// when Done().
    double Progress() const;
    const TrainSettings& Settings() const { return settings_; }
    const std::vector<VariantCurves>& Curves() const { return curves_; }
    /// The model of a variant (its index in settings.variants), as trained so far.
    const TinyTransformer<float>& Model(int variant) const;
    /// Accuracy of a model over `batches` fresh batches of one length (seeded by the length,
    /// so every variant is measured on the same sequences).
    double Accuracy(const TinyTransformer<float>& model, int length, int batches) const;

private:
    /// The next batch of the final measurement of the variant being trained; after the last
    /// batch of the last length, moves on to the next variant.
    void MeasureOneBatch();
    /// Scores one fresh batch of `length` from random: right answers and answers counted.
    void ScoreBatch(const TinyTransformer<float>& model, int length, std::mt19937_64& random,
                    long* right, long* scored) const;
    /// The measurement's sequences are seeded by the length alone: every variant, and every
    /// point of a curve, is measured on the same sequences.
    std::uint64_t LengthSeed(int length) const;
    /// The multiply-adds of one forward pass of a batch of `length` tokens, per layer.
    double ForwardCost(int length) const;
    /// The work of one variant up to steps_done training steps and, after the training, the
    /// final measurement's first lengths_measured lengths and batches_measured batches of the
    /// next, in ForwardCost units.
    double WorkOfVariant(int steps_done, std::size_t lengths_measured, int batches_measured) const;
    TrainSettings settings_;
    std::vector<TinyTransformer<float>> models_;
    std::vector<AdamW<float>> optimizers_;
    std::vector<std::mt19937_64> streams_;
    std::vector<VariantCurves> curves_;
    int variant_ = 0, step_ = 0; ///< the variant being trained, its steps done
    /// The final measurement in progress: the test length, the batch, the counts so far.
    struct Measuring {
        std::size_t length_index = 0;
        int batch = 0;
        std::mt19937_64 random;
        long right = 0, scored = 0;
    } measuring_;
    std::atomic<bool> cancelled_{false};
};

} // namespace pelab
