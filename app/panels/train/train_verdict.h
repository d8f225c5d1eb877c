// train_verdict.h — the sentences the Train panel builds from a run's measured accuracies: the
// verdict (who learned the task at the trained length, whether the variants tie, who kept it at
// the longest test length) and what the run says about three papers' findings. Pure functions
// of the run, each claim named beside the text (explanation.h); tests/train_panel_test.cpp
// recomputes every claim over a sweep of runs.
#pragma once

#include "io/train_run.h"
#include "panels/explanation.h"

namespace pelab {

/// Accuracy at which a variant counts as having learned the task (or kept it).
constexpr double kLearnedAccuracy = 0.9;
/// Variants whose accuracies at the trained length span at most this tie.
constexpr double kTieSpread = 0.05;

/// While no variant has finished, a provisional verdict: each variant's accuracy at the trained
/// length at the latest step all of them have measured, best first ("So far, at step 100 of
/// 300 …"), with claims "provisional_step" and "provisional_best"; before every variant has a
/// measurement, when the first comes.
/// Claims: "finished" (variants done), "learned_count" (done variants at least
/// kLearnedAccuracy at train_len), "best_trained" (the best accuracy there), "tie" (1 when at
/// least two are done, at least one learned the task and they span at most kTieSpread), "none_gap"
/// (best minus none's, when "none" is done and there is no tie; else absent), "kept_count" and
/// "best_longest" (at the longest test length, when it is longer than train_len).
Explanation TrainVerdict(const TrainRun& run);

/// What the run says about Haviv et al. (2022: a causal model without an encoding still learns
/// order; judged when some variant learned the task), Press et al. (2022: ALiBi keeps its accuracy
/// past the trained length) and Kazemnejad et al. (2023: without an encoding a causal model
/// extrapolates better than with an absolute one), each said only when the run can judge it. Claims
/// "haviv", "press", "kazemnejad": 1 the run agrees, 0 it differs (absent: not judged).
Explanation TrainPaperNotes(const TrainRun& run);

} // namespace pelab
