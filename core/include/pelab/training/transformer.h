// pelab/training/transformer.h — a tiny transformer for the training lab, its forward and backward
// passes written out (no autodiff), so that the positional encoding is the only thing that differs
// between the models a class compares.
//
//   x₀      = E[token] (+ PE(pos) for sinusoidal, + P[pos] for a learned table)
//   block l: h = LN₁(x);  q, k, v = h·W_qkvᵀ + b_qkv, split into heads of width d_h = d/H
//            (RoPE turns q's and k's pair i by pos·θ_i, θ_i = base^(−2i/d_h))
//            S = q·kᵀ/√d_h + bias (ALiBi: −m_h·|i − j|; T5: a learned bias per head and bucket
//            of j − i, shared by the layers), keys j > i masked when causal
//            x = x + softmax(S)·v·W_oᵀ + b_o;  x = x + W₂·GELU(W₁·LN₂(x) + b₁) + b₂
//   logits  = LN_f(x)·W_headᵀ + b_head;  loss = the mean cross-entropy over the scored targets
//
// The shape is the reference model of ../shared/anchors/torch_tiny_transformer.py (pre-LN, MLP
// 4×, exact GELU, LayerNorm ε = 10⁻⁵, PyTorch's initialisation and parameter layout: a Linear's
// weight is out × in). Choices papers leave open: the learned table's rows past the longest
// trained sequence are never trained (its hard edge); bidirectional ALiBi uses −m·|i − j|; T5's
// bidirectional buckets are T5's own (pelab/encodings/alternatives.h).
//
// Scalar is float (training speed) or double (gradient checks); both are instantiated.
#pragma once

#include "pelab/training/positional_methods.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pelab {

/// The positional methods of pelab/training/positional_methods.h, one enumerator per row.
enum class PositionalKind {
#define PELAB_POSITIONAL_ENUMERATOR(enumerator, name, in_default) enumerator,
    PELAB_POSITIONAL_METHODS(PELAB_POSITIONAL_ENUMERATOR)
#undef PELAB_POSITIONAL_ENUMERATOR
};
/// The method's name in the table: "none", "sinusoidal", "learned", "rope", "alibi", "t5", ….
const char* positional_kind_name(PositionalKind kind);
/// The kind named so; throws InvalidArgument naming the known names otherwise.
PositionalKind positional_kind_from_name(const std::string& name);
/// Every kind, in the table's order.
const std::vector<PositionalKind>& positional_kinds();
/// The kinds of the default run (the table's third column), in the table's order.
const std::vector<PositionalKind>& default_positional_kinds();
/// Whether the method is defined for causal models only (xpos): validate_transformer_config
/// refuses it in a bidirectional model.
bool positional_kind_causal_only(PositionalKind kind);
/// "none, sinusoidal, learned, rope, alibi, t5": the names, for messages and help.
std::string positional_kind_list();

/// The settings a positional method may read besides the model's shape: one field per option
/// that some method's row declares (PositionalMethodInfo::options); every other method ignores it.
/// A new option is a field here and a row in its method's file.
struct MethodOptions {
    /// irope's NoPE layer pattern: layers nope_every, 2·nope_every, … (counted from 1) attend
    /// without positions (Llama 4 leaves every fourth).
    int nope_every = 2;
};

/// One option of a method, as its row declares it: every place that reads, writes or offers
/// options (run files, `pelab train --<key with dashes>`, the Train panel's box "train.<key>")
/// goes through these rows, never through a method's name.
struct MethodOption {
    const char* key;   ///< "nope_every": the run file's key; the flag is --nope-every
    const char* label; ///< "nope every": the Train panel's box
    const char* help;  ///< one sentence for --help and the box's tooltip
    int MethodOptions::*field;
    int min_value, max_value; ///< the range any run accepts (the default: MethodOptions{})
    /// Also at most the model's layers (a layer pattern: a larger period leaves no layer).
    bool at_most_layers = false;
};

/// What PE Lab says of a method, from its row (its file, core/src/training/positional/<name>.cpp):
/// the table's name, how the papers write it, the paper that defines it, whether the default run
/// trains it and whether it needs causal attention, and its options.
struct PositionalMethodInfo {
    PositionalKind kind;
    const char* name;         ///< "kerple" (--pe, run files)
    const char* display_name; ///< "KERPLE"
    const char* paper;        ///< "Chi et al. 2022" (empty for none)
    bool in_default = false;
    bool causal_only = false;
    std::vector<MethodOption> options;
};
/// The row of kind.
const PositionalMethodInfo& positional_method_info(PositionalKind kind);
/// "--nope-every" for "nope_every".
std::string method_option_flag(const MethodOption& option);

struct TransformerConfig {
    int vocab = 16;      ///< tokens 0 … vocab − 1; in [2, 4096]
    int d_model = 64;    ///< in [4, 512], divisible by heads, the head width even (RoPE pairs)
    int layers = 2;      ///< in [1, 8]
    int heads = 4;       ///< in [1, 16]
    int mlp_ratio = 4;   ///< the MLP's hidden width is mlp_ratio·d_model; in [1, 8]
    int max_len = 64;    ///< the longest sequence; the learned table's rows; in [1, 65536]
    bool causal = false; ///< keys after the query are masked
    PositionalKind positional = PositionalKind::Sinusoidal;
    double base = 10000.0; ///< sinusoidal and RoPE; in [10, 10⁶]
    int t5_buckets = 32;   ///< T5's buckets (even, in [4, 1024] when bidirectional)
    int t5_max_distance = 128;
    /// The method's options (irope's nope_every: in [2, layers] for irope), ignored by the
    /// methods that declare none of them.
    MethodOptions options;
};
/// Throws InvalidArgument naming the first field out of range.
void validate_transformer_config(const TransformerConfig& config);
/// Whether layer `layer` (from 0) attends without positions: true for irope's every
/// options.nope_every-th layer (layer + 1 a multiple of nope_every), false in every other method.
bool layer_without_positions(const TransformerConfig& config, int layer);

/// One named tensor of the flat parameter vector: rows × cols values from offset, row-major.
struct ParameterSlot {
    std::string name; ///< "embedding", "layer0.qkv.weight", "t5.bias", …
    std::size_t offset = 0;
    int rows = 0, cols = 0;
};

/// size sequences of `length` tokens, row after row; targets[k] is what position k must predict
/// (−1: not scored).
struct TokenBatch {
    int size = 0, length = 0;
    std::vector<int> tokens, targets;
};

template <typename Scalar> class TinyTransformer {
public:
    /// A model initialised as PyTorch does (embeddings N(0, 1), Linear U(±1/√in), LayerNorm 1
    /// and 0; a learned table N(0, 0.02²), T5 biases 0), from one seed: the same seed and config
    /// give the same parameters bit for bit on one machine.
    TinyTransformer(const TransformerConfig& config, std::uint64_t seed);

    const TransformerConfig& config() const { return config_; }
    const std::vector<ParameterSlot>& slots() const { return slots_; }
    /// The slot named so; throws InvalidArgument for an unknown name.
    const ParameterSlot& slot(const std::string& name) const;
    std::vector<Scalar>& parameters() { return parameters_; }
    const std::vector<Scalar>& parameters() const { return parameters_; }

    /// The mean cross-entropy over the batch's scored targets (0 when none is scored). When
    /// gradient is given it is resized to parameters().size() and set to d loss / d parameters.
    /// Throws InvalidArgument for a batch that does not fit the model (a token past the
    /// vocabulary, a sequence longer than max_len, sizes that do not match).
    Scalar loss(const TokenBatch& batch, std::vector<Scalar>* gradient = nullptr) const;
    /// The logits, size × length × vocab, sequence after sequence.
    std::vector<Scalar> logits(const TokenBatch& batch) const;
    /// The attention weights of one sequence in one layer and head: length × length, row i the
    /// weights query i gives each key.
    std::vector<Scalar> attention(const std::vector<int>& tokens, int layer, int head) const;

private:
    TransformerConfig config_;
    std::vector<ParameterSlot> slots_;
    std::vector<Scalar> parameters_;
};

extern template class TinyTransformer<float>;
extern template class TinyTransformer<double>;

struct AdamWOptions {
    double learning_rate = 1e-3;
    double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
    double weight_decay = 0.01; ///< PyTorch's AdamW default, on every parameter
    double clip_norm = 1.0;     ///< the gradient's global norm is clipped to this; 0: never
};

/// AdamW (Loshchilov and Hutter), as torch.optim.AdamW computes it, after an optional clip of
/// the gradient's global norm.
template <typename Scalar> class AdamW {
public:
    AdamW(std::size_t parameter_count, const AdamWOptions& options);
    /// One step: parameters move against gradient (which may be clipped in place). Returns the
    /// gradient's norm before clipping.
    double step(std::vector<Scalar>& parameters, std::vector<Scalar>& gradient);
    long steps() const { return steps_; }

private:
    AdamWOptions options_;
    std::vector<double> first_, second_;
    long steps_ = 0;
};

extern template class AdamW<float>;
extern template class AdamW<double>;

} // namespace pelab
