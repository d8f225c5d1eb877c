// method.h — what a positional method is to the trainer: the parameters it owns and four hooks
// into the pass, each with its forward and backward. The pass
// (core/src/training/transformer/pass.cpp) calls every hook of the configured method at its place,
// in order, and never asks which method it is; a method overrides only the hooks it uses (the
// others do nothing):
//
//   input:  x₀ = E[token] + input term            (sinusoidal PE, a learned table)
//   turn:   q, k of each head turned by position  (RoPE)
//   bias:   S = q·kᵀ/√d_h + bias(head, i, j)      (ALiBi, T5)
//   content: S += term(q, S)                       (CoPE: positions counted by gates σ(S))
//
// A method with a layer pattern (irope) has its turn and bias hooks skipped in the pattern's
// layers.
//
// Internal to core (Eigen types). One file per method beside this one; the table of
// pelab/training/positional_methods.h binds each to its name.
#pragma once

#include "pelab/training/transformer.h"
#include "transformer/tensor.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace pelab::trainer {

/// How a tensor starts: N(0, scale²), U(±scale), all ones, all zeros.
enum class Init { Normal, Uniform, One, Zero };

/// A tensor a method owns ("learned.table"), placed after the shared ones.
struct OwnParameter {
    std::string name;
    int rows = 0, cols = 0;
    Init init = Init::Zero;
    double scale = 0.0; ///< the normal's deviation or the uniform's half-width
};

/// A batch of sequences as a method sees it: the model's settings, the method's own parameters
/// (the first of them; nullptr when it owns none), the length n every sequence has, and whether
/// the pass only measures the model (logits, attention weights) rather than trains it (loss
/// and gradient): a method may measure otherwise than it trains (rope_crossed).
template <typename S> struct SequenceView {
    const TransformerConfig& config;
    const S* own;
    int length;
    bool measuring = false;
};

/// A method's hooks for a batch of sequences of one length, built once per batch (its tables:
/// the sinusoids, RoPE's angles, T5's buckets). Backward hooks add to d_own, the gradient of the
/// method's own parameters (nullptr when it owns none), and turn gradients back in place.
template <typename S> class PositionalHooks {
public:
    virtual ~PositionalHooks() = default;
    /// x (B·n × d_model: the batch's sequences one after another, so row r is position r mod n)
    /// += the method's input term; backward reads dx in row order. The pass calls the backward
    /// last, after every other backward hook of the batch (FIRE gathers its gradient there).
    virtual void InputForward(Mat<S>& x) const { (void)x; }
    virtual void InputBackward(const Mat<S>& dx, S* d_own) const { (void)dx, (void)d_own; }
    /// One sequence's queries and keys of one head (n × d_h) turned in place; backward turns their
    /// gradients back (the transpose of the turn).
    virtual void TurnForward(Mat<S>& q, Mat<S>& k) const { (void)q, (void)k; }
    virtual void TurnBackward(Mat<S>& dq, Mat<S>& dk) const { (void)dq, (void)dk; }
    /// One sequence's scores of one head (n × n, query i, key j) += the method's bias; backward
    /// adds the scores' gradient to the bias's parameters.
    virtual void BiasForward(Mat<S>& scores, int head) const { (void)scores, (void)head; }
    virtual void BiasBackward(const Mat<S>& d_scores, int head, S* d_own) const {
        (void)d_scores, (void)head, (void)d_own;
    }
    /// Whether the method reads the queries and the scores themselves (CoPE), so that the pass
    /// calls the two hooks below (and keeps what they read).
    virtual bool ReadsContent() const { return false; }
    /// One sequence's scores of one head (n × n: q·kᵀ/√d_h plus the bias, keys after the query
    /// not yet masked) += a term computed from the turned queries q (n × d_h) and those very
    /// scores; a causal model's, so only keys j ≤ i are read or changed.
    virtual void ContentForward(const Mat<S>& q, Mat<S>& scores) const { (void)q, (void)scores; }
    /// Its backward: read is what ContentForward was given, d_scores the gradient of what it
    /// returned. Adds the term's gradient through the scores it read to d_read (n × n), through
    /// q directly to dq (n × d_h), and to its parameters in d_own.
    virtual void ContentBackward(const Mat<S>& q, const Mat<S>& read, const Mat<S>& d_scores,
                                 Mat<S>& d_read, Mat<S>& dq, S* d_own) const {
        (void)q, (void)read, (void)d_scores, (void)d_read, (void)dq, (void)d_own;
    }
};

/// A method: how the papers name it and which paper defines it, its own parameters, a check of
/// its options, and its hooks in float and double (its row: PositionalMethodInfo).
struct PositionalMethod {
    const char* display_name;
    const char* paper;
    std::vector<OwnParameter> (*own_parameters)(const TransformerConfig& config);
    /// Throws InvalidArgument for options of the method out of range (T5's buckets).
    void (*validate)(const TransformerConfig& config);
    std::unique_ptr<PositionalHooks<float>> (*hooks_float)(const SequenceView<float>& sequence);
    std::unique_ptr<PositionalHooks<double>> (*hooks_double)(const SequenceView<double>& sequence);
    /// Defined for causal models only (xPos): a bidirectional model is refused with a message.
    bool causal_only = false;
    /// The layers of MethodOptions::nope_every's pattern attend without positions (irope): the
    /// pass gives them no hooks.
    bool layer_pattern = false;
    /// The options it reads (MethodOptions' fields), with their ranges.
    std::vector<MethodOption> options = {};
};

/// A method whose hooks are Hooks<float> and Hooks<double>, each built from the sequence.
template <template <typename> class Hooks>
PositionalMethod MethodOf(const char* display_name, const char* paper,
                          std::vector<OwnParameter> (*own_parameters)(const TransformerConfig&),
                          void (*validate)(const TransformerConfig&)) {
    return {display_name,
            paper,
            own_parameters,
            validate,
            [](const SequenceView<float>& sequence) -> std::unique_ptr<PositionalHooks<float>> {
                return std::make_unique<Hooks<float>>(sequence);
            },
            [](const SequenceView<double>& sequence) -> std::unique_ptr<PositionalHooks<double>> {
                return std::make_unique<Hooks<double>>(sequence);
            }};
}

/// A positive parameter kept as softplus of a free one, log(1 + eˣ) (KERPLE's r, FIRE's c and
/// L), and its derivative, the logistic σ(x).
inline double Softplus(double x) {
    return x > 30 ? x : std::log1p(std::exp(x));
}
inline double Sigmoid(double x) {
    return 1 / (1 + std::exp(-x));
}

/// For methods that own no parameter, or have no option to check.
inline std::vector<OwnParameter> NoOwnParameters(const TransformerConfig& /*config*/) {
    return {};
}
inline void NoOptions(const TransformerConfig& /*config*/) {}

/// The method of kind (the table's row).
const PositionalMethod& MethodFor(PositionalKind kind);

/// The hooks of the method, in the pass's scalar type.
template <typename S>
std::unique_ptr<PositionalHooks<S>> HooksFor(const PositionalMethod& method,
                                             const SequenceView<S>& sequence);
template <>
inline std::unique_ptr<PositionalHooks<float>> HooksFor(const PositionalMethod& method,
                                                        const SequenceView<float>& sequence) {
    return method.hooks_float(sequence);
}
template <>
inline std::unique_ptr<PositionalHooks<double>> HooksFor(const PositionalMethod& method,
                                                         const SequenceView<double>& sequence) {
    return method.hooks_double(sequence);
}

// Each method's row, defined in its own file (core/src/training/positional/<name>.cpp).
#define PELAB_POSITIONAL_DECLARE(enumerator, name, in_default)                                     \
    PositionalMethod enumerator##Method();
PELAB_POSITIONAL_METHODS(PELAB_POSITIONAL_DECLARE)
#undef PELAB_POSITIONAL_DECLARE

} // namespace pelab::trainer
