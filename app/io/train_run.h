// train_run.h — a training run as PE Lab keeps it: the settings, each variant's curves, its
// accuracy per test length, and the attention and the answer it gives one example. `pelab train`
// writes it (format "pelab-train", docs/file-formats.md), the Train panel shows it while it is
// live and after, and the runs in assets/train/ are compiled in so that a class opens them
// instantly. A run read from a file is checked whole first: a bad file is a message naming the
// field, and nothing changes.
#pragma once

#include "pelab/training/train.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pelab {

/// Most points a run keeps of a loss curve: longer runs keep the mean of every loss_every steps.
constexpr int kMaxLossPoints = 1000;
/// Most accuracy points per curve (eval_every is chosen so that a run stays under it).
constexpr int kMaxAccuracyPoints = 1000;
/// Seeds a run may hold beyond its first (`pelab train --seeds` takes 1 to 1 + this).
constexpr std::size_t kMaxMoreSeeds = 4;

struct VariantResult {
    PositionalKind variant = PositionalKind::None;
    /// The mean loss of each run of loss_every steps (every step for runs of at most
    /// kMaxLossPoints steps).
    std::vector<double> loss;
    std::vector<int> accuracy_steps; ///< where the accuracy curve was measured
    std::vector<double> accuracy;    ///< at train_len, at those steps
    /// After training, at test_lengths(settings); empty until the variant is done.
    std::vector<double> accuracy_by_length;
    double seconds = 0;
    /// attention[layer][head]: the example's length² weights, row i what query i gives each
    /// key; empty until the variant is done.
    std::vector<std::vector<std::vector<double>>> attention;
    std::vector<int> prediction; ///< the model's answer at each position of the example
    /// accuracy_by_length of the same variant trained again from seeds settings.seed + 1,
    /// + 2, … (`pelab train --seeds`); empty for a run of one seed. The curves, attention and
    /// prediction above are seed settings.seed's.
    std::vector<std::vector<double>> more_seeds;
    bool Done() const { return !accuracy_by_length.empty(); }
    /// 1 + more_seeds.size().
    int Seeds() const { return 1 + static_cast<int>(more_seeds.size()); }
    /// Over every seed, at test length index k (contract: Done()): the mean, the lowest, the
    /// highest.
    double MeanAt(std::size_t k) const;
    double LowestAt(std::size_t k) const;
    double HighestAt(std::size_t k) const;
};

struct TrainRun {
    TrainSettings settings;
    /// In settings.variants' order; a live run holds the variants begun so far.
    std::vector<VariantResult> variants;
    TokenBatch example; ///< one sequence (size 1) of example_length(settings)
    double seconds = 0; ///< wall time of the whole run
    double tokens_per_second_per_thread = 0;
    /// Every variant of the settings trained and measured.
    bool Complete() const;
    /// The index of train_len in test_lengths(settings) (where "at the trained length" is).
    int TrainedLengthIndex() const;
};

/// Steps per loss point for a run of steps steps (1 up to kMaxLossPoints steps).
int LossEvery(int steps);
/// The accuracy curve's spacing for a run of steps steps: 25, or more so that a curve has at
/// most kMaxAccuracyPoints / 2 points.
int EvalEvery(int steps);

/// Variant `index` of trainer as it stands: its curves (the loss averaged per LossEvery) and,
/// once it is done, the attention and the answer it gives example.
VariantResult VariantResultOf(const Trainer& trainer, int index, const TokenBatch& example);

/// The run as the file holds it (attention rounded to 1e-4, losses to 6 digits).
nlohmann::json TrainRunJson(const TrainRun& run);
/// The run file's text: TrainRunJson indented by level, each list of numbers on one line. The
/// largest run `pelab train` accepts stays within kMaxRunBytes and kMaxRunValues
/// (io/json_input.h), so every run it writes opens again.
std::string TrainRunText(const TrainRun& run);
/// Whether doc says it is a run ("format": "pelab-train"), for File → Open.
bool IsTrainRunDocument(const nlohmann::json& doc);
/// What a reader of another kind (a scene, a lesson) says when handed the run at path: what the
/// file is and the two ways to open it.
std::string NotARunReaderMessage(const std::string& kind, const std::string& path);
/// Reads a complete run, checking every field (types, ranges, that the settings are valid and
/// every list has the length they imply, that attention rows are weights summing to 1).
/// Returns "" and sets *out, or a message naming the field ("variant 2 (learned): field
/// \"loss\": item 17: must be a number in [0, 1000000] (got \"x\")").
std::string ReadTrainRun(const nlohmann::json& doc, TrainRun* out);

/// A run built into PE Lab (assets/train/<name>.json, compiled in).
struct BuiltInTrainRun {
    const char* name; ///< the file's stem: "reverse"
    const char* text;
};
const std::vector<BuiltInTrainRun>& BuiltInTrainRuns();
/// The built-in run named so, or nullptr.
const BuiltInTrainRun* FindBuiltInTrainRun(const std::string& name);

} // namespace pelab
