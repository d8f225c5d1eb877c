#include "panels/train/train_verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace pelab {

namespace {

std::string Accuracy(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

// The finished variants' accuracies at the trained and the longest length: the means over
// the run's seeds, and their lowest and highest (all equal for a run of one seed).
struct Measured {
    PositionalKind variant;
    double trained; ///< at train_len
    double longest; ///< at test_len
    double trained_low, trained_high, longest_low, longest_high;
};

std::vector<Measured> Finished(const TrainRun& run) {
    std::vector<Measured> out;
    const std::size_t trained = static_cast<std::size_t>(run.TrainedLengthIndex());
    for (const VariantResult& v : run.variants)
        if (v.Done() && trained < v.accuracy_by_length.size()) {
            const std::size_t last = v.accuracy_by_length.size() - 1;
            out.push_back({v.variant, v.MeanAt(trained), v.MeanAt(last), v.LowestAt(trained),
                           v.HighestAt(trained), v.LowestAt(last), v.HighestAt(last)});
        }
    return out;
}

// The seeds the finished variants were trained from (1 before any has finished).
int SeedsOf(const TrainRun& run) {
    int seeds = 1;
    for (const VariantResult& v : run.variants)
        if (v.Done()) seeds = std::max(seeds, v.Seeds());
    return seeds;
}

// Whether a at the longest length is above b by more than kTieSpread and by more than the
// seeds' spread (a's lowest above b's highest): a finding, not the noise of one seed.
bool KeptMoreThan(const Measured& a, const Measured& b) {
    return a.longest - b.longest > kTieSpread && a.longest_low > b.longest_high;
}

const Measured* Find(const std::vector<Measured>& measured, PositionalKind kind) {
    for (const Measured& m : measured)
        if (m.variant == kind) return &m;
    return nullptr;
}

// "a", "a and b", "a, b and c".
std::string Listed(const std::vector<std::string>& items) {
    std::string text;
    for (std::size_t k = 0; k < items.size(); ++k)
        text += (k == 0 ? "" : k + 1 == items.size() ? " and " : ", ") + items[k];
    return text;
}

// A variant as a sentence names it: "none" alone reads as "nothing" ("the best was none"), so
// that one is "the no-encoding model".
std::string Named(const Measured& m, bool longest) {
    // "learned" is also the verdict's verb ("… learned the task"): the learned encoding is
    // named as the table it is, so "the lowest was learned (0.189)" cannot be read as praise.
    const std::string name =
        m.variant == PositionalKind::None      ? std::string("the no-encoding model")
        : m.variant == PositionalKind::Learned ? std::string("the learned table")
                                               : std::string(positional_kind_name(m.variant));
    return name + " (" + Accuracy(longest ? m.longest : m.trained) + ")";
}

// While no variant has finished: each one's accuracy at the trained length at the latest step
// every variant has measured (they train in turn, so that step is nearly where all of them
// are), best first. Claims "provisional_step" (that step) and "provisional_best".
void ProvisionalVerdict(const TrainRun& run, Explanation* out) {
    const std::size_t expected = run.settings.variants.size();
    int step = -1;
    std::size_t measuring = 0;
    for (const VariantResult& v : run.variants) {
        if (v.accuracy_steps.empty() || v.accuracy.size() != v.accuracy_steps.size()) continue;
        step = measuring == 0 ? v.accuracy_steps.back() : std::min(step, v.accuracy_steps.back());
        ++measuring;
    }
    if (measuring == 0 || measuring < expected) {
        out->text = "No accuracy measured yet (the first is at step " +
                    std::to_string(run.settings.eval_every) +
                    "). The verdict needs every variant to finish.";
        return;
    }
    std::vector<std::pair<double, std::string>> so_far;
    for (const VariantResult& v : run.variants) {
        const auto at = std::find(v.accuracy_steps.begin(), v.accuracy_steps.end(), step);
        if (at == v.accuracy_steps.end()) continue;
        const double accuracy = v.accuracy[static_cast<std::size_t>(at - v.accuracy_steps.begin())];
        const std::string name = v.variant == PositionalKind::None
                                     ? std::string("no encoding")
                                     : std::string(positional_kind_name(v.variant));
        so_far.emplace_back(accuracy, name + " " + Accuracy(accuracy));
    }
    std::stable_sort(so_far.begin(), so_far.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> items;
    for (const auto& [accuracy, item] : so_far)
        items.push_back(item);
    out->Claims("provisional_step", step);
    out->Claims("provisional_best", so_far.empty() ? 0.0 : so_far.front().first);
    out->text = "So far, at step " + std::to_string(step) + " of " +
                std::to_string(run.settings.steps) + " (accuracy at the trained length, " +
                std::to_string(run.settings.train_len) + " tokens): " + Listed(items) +
                ". The verdict needs every variant to finish.";
}

// "0.906 or more: 90 % of the way from chance, 0.062, to the best possible, 1.000".
std::string ThresholdWords(const TaskBounds& bounds) {
    return Accuracy(learned_accuracy(bounds)) +
           " or more: " + std::to_string(std::lround(kLearnedShare * 100)) +
           " % of the way from chance, " + Accuracy(bounds.chance) + ", to the best possible, " +
           Accuracy(bounds.ceiling);
}

// The finished variants other than `skip` that learned the task, the one that kept most at the
// longest length first (nullptr when there is none).
const Measured* BestOtherLearned(const std::vector<Measured>& measured, PositionalKind skip,
                                 double learned_at) {
    const Measured* best = nullptr;
    for (const Measured& m : measured)
        if (m.variant != skip && m.trained >= learned_at &&
            (best == nullptr || m.longest > best->longest))
            best = &m;
    return best;
}

} // namespace

double LearnedAccuracyAt(const TrainSettings& settings, int length) {
    return learned_accuracy(task_bounds(settings.task, length, settings.causal));
}

Explanation TrainVerdict(const TrainRun& run) {
    Explanation out;
    const std::vector<Measured> measured = Finished(run);
    out.Claims("finished", static_cast<double>(measured.size()));
    if (measured.empty()) {
        ProvisionalVerdict(run, &out);
        return out;
    }
    const int train_len = run.settings.train_len;
    const auto best_trained = std::max_element(
        measured.begin(), measured.end(),
        [](const Measured& a, const Measured& b) { return a.trained < b.trained; });
    const auto worst_trained = std::min_element(
        measured.begin(), measured.end(),
        [](const Measured& a, const Measured& b) { return a.trained < b.trained; });
    // The task's chance and ceiling at the trained length, computed once (majority's is a sum).
    const TaskBounds bounds = task_bounds(run.settings.task, train_len, run.settings.causal);
    const double learned_at = learned_accuracy(bounds);
    out.Claims("learned_threshold", learned_at);
    std::vector<std::string> learned;
    for (const Measured& m : measured)
        if (m.trained >= learned_at) learned.push_back(Named(m, false));
    out.Claims("learned_count", static_cast<double>(learned.size()));
    out.Claims("best_trained", best_trained->trained);
    const std::string at = "At the trained length (" + std::to_string(train_len) + " tokens)";
    if (learned.empty()) {
        out.text = at + " no variant learned the task (learned means " + ThresholdWords(bounds) +
                   "): the best was " + Named(*best_trained, false) + ".";
    } else {
        out.text = at + ", " + Listed(learned) + " learned" + " the task";
        if (learned.size() < measured.size())
            out.text += "; the lowest was " + Named(*worst_trained, false);
        out.text += ".";
    }
    const double spread = best_trained->trained - worst_trained->trained;
    // A tie says something only when the models are well above chance (at least halfway to
    // the ceiling): models that all stayed at chance are close too, and that says nothing
    // about the encodings. Halfway, not "learned": the control (majority) is at 0.84–0.90 on
    // every encoding after 300 steps, under its 0.912, and its point is how close they are.
    const bool above_chance =
        best_trained->trained >= bounds.chance + 0.5 * (bounds.ceiling - bounds.chance);
    const bool tie = measured.size() >= 2 && spread <= kTieSpread && above_chance;
    out.Claims("tie", tie ? 1 : 0);
    if (tie) {
        out.text +=
            (measured.size() == 2 ? std::string(" Both are within ")
                                  : " All " + std::to_string(measured.size()) + " are within ") +
            Accuracy(spread) +
            " of one another there: at the trained length the encoding makes no difference to "
            "this task.";
    } else if (const Measured* none = Find(measured, PositionalKind::None);
               none != nullptr && measured.size() >= 2) {
        const double gap = best_trained->trained - none->trained;
        out.Claims("none_gap", gap);
        // With several seeds, a gap inside the seeds' ranges is said to be one.
        const bool within_spread =
            SeedsOf(run) > 1 && gap > 0 && none->trained_high >= best_trained->trained_low;
        out.text += gap == 0 ? " Without an encoding the model did as well as the best."
                             : " Without an encoding the model reached " + Accuracy(none->trained) +
                                   ", " + Accuracy(gap) + " below the best" +
                                   (within_spread ? ", within the seeds' spread." : ".");
    }
    const int longest = test_lengths(run.settings).back();
    if (longest > train_len) {
        const auto best_longest = std::max_element(
            measured.begin(), measured.end(),
            [](const Measured& a, const Measured& b) { return a.longest < b.longest; });
        const double kept_at = LearnedAccuracyAt(run.settings, longest);
        out.Claims("kept_threshold", kept_at);
        std::vector<std::string> kept;
        for (const Measured& m : measured)
            if (m.longest >= kept_at) kept.push_back(Named(m, true));
        out.Claims("kept_count", static_cast<double>(kept.size()));
        out.Claims("best_longest", best_longest->longest);
        char times[32];
        std::snprintf(times, sizeof times, "%.3g", static_cast<double>(longest) / train_len);
        out.text +=
            " At " + std::to_string(longest) + " tokens (" + times + "× the trained length) ";
        if (kept.empty())
            out.text += "no variant reaches " + Accuracy(kept_at) + "; the best was " +
                        Named(*best_longest, true) + ".";
        else
            out.text += Listed(kept) + (kept.size() == 1 ? " still reaches " : " still reach ") +
                        Accuracy(kept_at) + ".";
    }
    if (const int seeds = SeedsOf(run); seeds > 1) {
        out.Claims("seeds", seeds);
        out.text += " Each accuracy is the mean over " + std::to_string(seeds) +
                    " seeds (the length plot draws their range).";
    }
    return out;
}

Explanation TrainPaperNotes(const TrainRun& run) {
    Explanation out;
    const std::vector<Measured> measured = Finished(run);
    const TrainSettings& s = run.settings;
    const bool needs_order = task_needs_order(s.task.task, s.causal);
    const int longest = test_lengths(s).back();
    const bool longer = longest > s.train_len;
    const double learned_at = LearnedAccuracyAt(s, s.train_len);
    const std::string at_longest = std::to_string(longest) + " tokens";
    std::vector<std::string> sentences;
    const Measured* none = Find(measured, PositionalKind::None);
    const auto best = std::max_element(
        measured.begin(), measured.end(),
        [](const Measured& a, const Measured& b) { return a.trained < b.trained; });
    // Judged only when some variant learned the task: if none did, the run is too short (or
    // the model too small) to say anything about order without an encoding.
    if (s.causal && needs_order && none != nullptr && measured.size() >= 2 &&
        best->trained >= learned_at) {
        const bool learned = none->trained >= learned_at;
        out.Claims("haviv", learned ? 1 : 0);
        if (learned) {
            sentences.push_back("As Haviv et al. (2022) found, the causal model without an "
                                "encoding learned the order anyway (" +
                                Accuracy(none->trained) +
                                "): the mask lets a position count the tokens before it.");
        } else {
            sentences.push_back("Haviv et al. (2022) found that a causal model without an "
                                "encoding still learns order; this run did not show it (" +
                                Accuracy(none->trained) + " at the trained length, against " +
                                Named(*best, false) + ").");
        }
    }
    if (const Measured* alibi = Find(measured, PositionalKind::Alibi); alibi != nullptr && longer) {
        const Measured* other = BestOtherLearned(measured, PositionalKind::Alibi, learned_at);
        // Press et al. define ALiBi for causal models; the bidirectional −slope·|i − j| is
        // PE Lab's own extension, and a note on such a run says so.
        const std::string form = s.causal ? ""
                                          : " (this run's ALiBi is PE Lab's bidirectional form, "
                                            "−slope·|i − j|; Press et al. define it causal)";
        if (alibi->trained < learned_at) {
            // Said as a threshold, not as a failure: 0.882 in a run where every variant ties
            // read as a contradiction of the tie.
            // The mark explained where it is used: this note is often read alone.
            sentences.push_back("ALiBi reached " + Accuracy(alibi->trained) +
                                " at the trained length, under what counts as learned (" +
                                ThresholdWords(task_bounds(s.task, s.train_len, s.causal)) +
                                "), so this run cannot test how it extrapolates (Press et al., "
                                "2022).");
        } else if (other != nullptr && KeptMoreThan(*alibi, *other) &&
                   alibi->longest >= LearnedAccuracyAt(s, longest)) {
            out.Claims("press", 1);
            sentences.push_back("ALiBi kept the task at " + at_longest + " (" +
                                Accuracy(alibi->longest) + "), more than the best of the others, " +
                                Named(*other, true) + ", as Press et al. (2022) found" + form +
                                ".");
        } else if (other != nullptr && KeptMoreThan(*other, *alibi)) {
            out.Claims("press", 0);
            sentences.push_back(
                "ALiBi learned the task at the trained length (" + Accuracy(alibi->trained) +
                ") but fell to " + Accuracy(alibi->longest) + " at " + at_longest + ", below " +
                Named(*other, true) + ": unlike the extrapolation Press et al. (2022) report" +
                form + ".");
        }
    }
    if (s.causal && needs_order && longer && none != nullptr && none->trained >= learned_at) {
        if (const Measured* other = BestOtherLearned(measured, PositionalKind::None, learned_at);
            other != nullptr) {
            if (KeptMoreThan(*none, *other)) {
                out.Claims("kazemnejad", 1);
                sentences.push_back("Without an encoding the model kept more at " + at_longest +
                                    " (" + Accuracy(none->longest) + ") than the best encoding, " +
                                    Named(*other, true) + ", as Kazemnejad et al. (2023) found.");
            } else if (KeptMoreThan(*other, *none)) {
                out.Claims("kazemnejad", 0);
                sentences.push_back(
                    "Kazemnejad et al. (2023) found that a causal model without an encoding "
                    "extrapolates better than with one; here " +
                    Named(*other, true) + " kept more at " + at_longest +
                    " than the model without (" + Accuracy(none->longest) + ").");
            }
        }
    }
    // rope_crossed trains rope's very weights (one seed and one stream per run) and measures
    // them with the half-split pairs: what a checkpoint loses in code of the other convention.
    const Measured* rope = Find(measured, PositionalKind::Rope);
    const Measured* crossed = Find(measured, PositionalKind::RopeCrossed);
    if (rope != nullptr && crossed != nullptr) {
        const bool lost = rope->trained - crossed->trained > kTieSpread &&
                          crossed->trained_high < rope->trained_low;
        out.Claims("crossed_lost", lost ? 1 : 0);
        const std::string scores = " score " + Accuracy(crossed->trained) +
                                   " at the trained length, against rope's " +
                                   Accuracy(rope->trained);
        sentences.push_back(
            "rope_crossed holds rope's weights (its loss curve is rope's); run with the "
            "half-split pairs (i, i + d/2) instead of the interleaved ones (2i, 2i + 1) it was "
            "trained with, they" +
            scores +
            (lost ? ": a checkpoint read by code of the other pairing loses what its "
                    "positions carried."
                  : ", no loss beyond the seeds' ranges: this task does not rest on which "
                    "dimensions pair up."));
    }
    for (const std::string& sentence : sentences)
        out.text += (out.text.empty() ? "" : " ") + sentence;
    return out;
}

} // namespace pelab
