// train_verdict.h — the sentences the Train panel builds from a run's measured accuracies: the
// verdict (who learned the task at the trained length, whether the variants tie, who kept it at
// the longest test length) and what the run says about three papers' findings. Pure functions
// of the run, each claim named beside the text (explanation.h); tests/train_panel_test.cpp
// recomputes every claim over a sweep of runs.
#pragma once

#include "io/train_run.h"
#include "panels/explanation.h"

namespace pelab {

/// Variants whose accuracies at the trained length span at most this tie; a paper note compares
/// two variants only when they differ by more (the run has one seed: this stands for the
/// seeds' spread).
constexpr double kTieSpread = 0.05;

/// The accuracy that counts as having learned the task at one length of the run:
/// learned_accuracy(task_bounds(…)), kLearnedShare of the way from chance to the ceiling.
double LearnedAccuracyAt(const TrainSettings& settings, int length);

/// While no variant has finished, a provisional verdict: each variant's accuracy at the trained
/// length at the latest step all of them have measured, best first ("So far, at step 100 of
/// 300 …"), with claims "provisional_step" and "provisional_best"; before every variant has a
/// measurement, when the first comes.
/// Claims: "finished" (variants done), "learned_threshold" (LearnedAccuracyAt train_len),
/// "learned_count" (done variants at least that at train_len), "best_trained" (the best accuracy
/// there), "tie" (1 when at least two are done, the best is at least halfway from chance to the
/// ceiling and they span at most kTieSpread), "none_gap" (best minus none's, when "none" is done
/// and there is no tie; else absent), "kept_count" and "best_longest" (at the longest test length,
/// when it is longer than train_len; "kept" is LearnedAccuracyAt that length, claim
/// "kept_threshold"), "seeds" (when the run holds more than one: every accuracy is then the mean
/// over its seeds).
Explanation TrainVerdict(const TrainRun& run);

/// What the run says about three papers, each said only when the run makes the paper's
/// comparison (the mask, the baseline, a gap over kTieSpread). Haviv et al. (2022): a causal
/// model without an encoding still learns order; judged on causal runs of tasks that need
/// order (task_needs_order) where some variant learned the task. Press et al. (2022): ALiBi
/// extrapolates where the others do not; judged when ALiBi and another variant learned the
/// task, agreeing when ALiBi keeps it at the longest length more than kTieSpread above every
/// other, differing when it falls more than kTieSpread below the best other (the bidirectional
/// form is PE Lab's own, and the note says so). Kazemnejad et al. (2023): a causal model
/// without an encoding extrapolates better than with any of the others; judged on causal runs
/// of tasks that need order where none and another variant learned the task, agreeing or
/// differing by the same gap. Claims "haviv", "press", "kazemnejad": 1 the run agrees, 0 it
/// differs (absent: not judged).
Explanation TrainPaperNotes(const TrainRun& run);

} // namespace pelab
