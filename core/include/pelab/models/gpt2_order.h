// pelab/models/gpt2_order.h — the order demo on a real GPT-2: two token sequences (usually one
// sentence and a re-ordering of it) run under several position switches (pelab/models/gpt2.h), and
// what each switch leaves of the model: its next-token guesses and loss per sentence, every head's
// attention, and how far apart the two sentences' last-token states are after each block.
//
// The causal property it measures: when every token gets the same position row (zeroed, the
// mean row, one row for all), block 1's output for token i is a function of token i and of the
// multiset of tokens 0 … i (attention is a weighted sum over the prefix; the weights depend only
// on the pairs' vectors). So token i leaves block 1 the same in both sentences when a[i] = b[i]
// and the prefixes hold the same tokens with the same counts (SamePrefixTokens); from block 2 on,
// the other tokens' states, which differ, reach it.
#pragma once

#include "pelab/base/cancel.h"
#include "pelab/models/gpt2.h"

#include <atomic>
#include <vector>

namespace pelab {

/// One position switch's run of both sentences (any model whose pass gives a Gpt2Pass: GPT-2's,
/// the rotary families' of pelab/models/llama.h); the switch is the caller's, in the same order.
struct OrderRun {
    std::vector<float> attention_a, attention_b; ///< L × H × n × n (query row, key), per sentence
    std::vector<NextGuess> top_a, top_b;         ///< the guesses after each sentence's last token
    double loss_a = 0, loss_b = 0;               ///< mean next-token cross-entropy (nats)
    /// How far apart the two last tokens' states are, for x₀ and after each block (L + 1 values,
    /// LastStateDistances).
    std::vector<double> last_distances;
    /// For each of OrderResult::same_prefix: the distance of that token's states across the
    /// two sentences after block 1 (the rule of LastStateDistances).
    std::vector<double> same_prefix_block1;
};

struct OrderResult {
    int tokens_a = 0, tokens_b = 0, layers = 0, heads = 0;
    std::vector<OrderRun> runs; ///< in the order of the switches asked for
    /// The positions i where a[i] = b[i] and a[0 … i], b[0 … i] hold the same multiset.
    std::vector<int> same_prefix;
};

/// How far a run of the order demo has gone (passes done of total), and a flag another thread
/// sets to stop it: checked before each pass, the run then throws Cancelled.
struct PassProgress {
    std::atomic<int> done{0}, total{0};
    std::atomic<bool> cancel{false};
    /// Counts a pass done (null: nothing to report).
    static void Step(PassProgress* progress) {
        if (progress != nullptr) progress->done.fetch_add(1);
    }
    /// Throws Cancelled when the flag is set.
    static void Check(PassProgress* progress) {
        if (progress != nullptr && progress->cancel.load()) throw Cancelled();
    }
};

/// The positions i < min(|a|, |b|) with a[i] = b[i] and the same multiset of tokens up to i.
std::vector<int> SamePrefixTokens(const std::vector<int>& a, const std::vector<int>& b);

/// Whether a switch gives every token the same row (zeroed, the mean row, one row for all): the
/// runs where the causal property above holds.
bool PositionFree(const PositionChoice& choice);

/// An empty result for a and b through a model of these layers and heads: their lengths and
/// same-prefix tokens (RunOrderOnGpt2 and RunOrderOnLlama fill in the runs).
OrderResult StartOrderResult(const std::vector<int>& a, const std::vector<int>& b, int layers,
                             int heads);

/// The numbers of one switch's passes of a and b (every token's logits: the loss), for the
/// same-prefix tokens of a and b; the passes' attention is moved into the run.
OrderRun MeasureOrderRun(Gpt2Pass pass_a, Gpt2Pass pass_b, int vocab, int width, int layers,
                         const std::vector<int>& same_prefix, int top);

/// Runs a and b (each non-empty, within the model's context) under each switch, with every
/// token's logits (the loss); top guesses per sentence. Throws InvalidArgument as Gpt2Model::Run,
/// Cancelled when progress's flag is set.
OrderResult RunOrderOnGpt2(const Gpt2Model& model, const std::vector<int>& a,
                           const std::vector<int>& b, const std::vector<PositionChoice>& switches,
                           int top = 5, int threads = 2, PassProgress* progress = nullptr);

} // namespace pelab
