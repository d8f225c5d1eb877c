// pelab/models/gpt2.h — GPT-2 run forward on a checkpoint someone brings, with its position table
// passed through one switch (as trained, zeroed, shuffled, shifted, one position for all, the mean
// row, sinusoidal): what the model loses when its positions are taken away or changed. Nothing else
// in the model changes.
//
// The model, as Hugging Face's GPT2LMHeadModel computes it (the names of its checkpoints, with or
// without the "transformer." prefix): x₀ = wte[token] + P[t] (P the switched position rows); per
// block, a = LN₁(x); [q k v] = a·W_attn + b_attn (Conv1D: W stored in × out, so y = x·W + b);
// each head's causal softmax(q·kᵀ/√d_h)·v; x += concat·W_proj + b_proj; m = LN₂(x);
// x += GELU_tanh(m·W_fc + b_fc)·W_mproj + b_mproj; then LN_f, and logits = LN_f(x)·wteᵀ (the
// output embedding tied to the input one). LayerNorm ε from config.json's layer_norm_epsilon
// (GPT-2's 1e-5); GELU_tanh(z) = ½z(1 + tanh(√(2/π)(z + 0.044715z³))). The config keys that
// change this are computed as they say (activation_function, scale_attn_weights,
// scale_attn_by_inverse_layer_idx) or refused by name. Float32 throughout; the checkpoint's F16
// and BF16 widened on load.
//
// Contracts (InvalidArgument otherwise): tokens non-empty, each in [0, vocab), at most the
// context many (after a shift, t + k within the table); the switch's own numbers in range.
#pragma once

#include "pelab/base/status.h"
#include "pelab/models/checkpoint.h"
#include "pelab/models/model_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pelab {

/// How the position table reaches the model.
enum class PositionSwitch {
    Trained,    ///< token t gets row t, as in training
    Zeroed,     ///< no position at all: every row 0
    Shuffled,   ///< token t gets row π(t), π a seeded permutation of 0 … n − 1 (ShuffleOrder)
    Shifted,    ///< token t gets row t + shift
    Same,       ///< every token gets row `same_row`
    MeanRow,    ///< every token gets the mean of all the table's rows (inputs keep their scale)
    Sinusoidal, ///< PE(t) (base 10 000, interleaved sin/cos) scaled to the table's mean row norm
};

struct PositionChoice {
    PositionSwitch kind = PositionSwitch::Trained;
    int shift = 0;          ///< Shifted: k ≥ 0
    int same_row = 0;       ///< Same: the row every token gets
    std::uint64_t seed = 1; ///< Shuffled
};

/// "trained", "zero", "shuffle", "shift:K", "same:P", "mean", "sinusoidal" (the command line's
/// names) and back; ParsePositionChoice gives ok or a message.
std::string PositionChoiceName(const PositionChoice& choice);
Status ParsePositionChoice(const std::string& text, PositionChoice* out);

/// The seeded permutation of 0 … n − 1 that Shuffled uses: Fisher–Yates from the last index
/// down, j = splitmix64 draw mod (i + 1), with splitmix64 (Steele et al. 2014) started at seed.
/// Defined bit for bit so that other programs (the PyTorch reference) can make the same one.
std::vector<int> ShuffleOrder(int n, std::uint64_t seed);

/// The MLP's activation, by config.json's activation_function (Hugging Face's ACT2FN names).
enum class Gpt2Activation {
    GeluTanh,  ///< gelu_new, gelu_pytorch_tanh, gelu_fast (the default): ½z(1 + tanh(√(2/π)(z +
               ///< 0.044715z³)))
    GeluErf,   ///< gelu, gelu_python: ½z(1 + erf(z/√2))
    Relu,      ///< relu: max(z, 0)
    Silu,      ///< silu, swish: z·σ(z)
    QuickGelu, ///< quick_gelu: z·σ(1.702z)
    Tanh,      ///< tanh
};
/// activation_function's name → the activation; false for a name PE Lab does not compute.
[[nodiscard]] bool Gpt2ActivationFromName(const std::string& name, Gpt2Activation* out);

struct Gpt2Sizes {
    int layers = 0, heads = 0, width = 0, context = 0, vocab = 0;
    double layer_norm_epsilon = 1e-5;
    Gpt2Activation activation = Gpt2Activation::GeluTanh;
    /// The scores q·k of block l are multiplied by score_scale[l]: 1/√d_h when
    /// scale_attn_weights (the default), times 1/(l + 1) when scale_attn_by_inverse_layer_idx.
    std::vector<double> score_scale;
    /// What config.json said that PE Lab computes the same whatever it says
    /// (reorder_and_upcast_attn: the pass is float32 throughout).
    std::vector<std::string> notes;
};

/// What one pass returns. n tokens, L layers, H heads, d width.
struct Gpt2Pass {
    int tokens = 0;
    std::vector<float> positions; ///< n × d: the rows the switch gave the tokens
    std::vector<float> logits;    ///< the last token's, vocab many (all tokens': n × vocab)
    bool all_logits = false;
    std::vector<float> attention; ///< L × H × n × n: each head's weights (query row, key)
    std::vector<float> states;    ///< (L + 1) × n × d: x₀ and each block's output
    /// Mean cross-entropy (nats) of predicting token t + 1 from tokens ≤ t, over t < n − 1; needs
    /// all_logits (0 with one token).
    double loss = 0;
};

struct Gpt2Options {
    bool all_logits = false; ///< every token's logits (the loss needs them), not the last only
    int threads = 2;         ///< products split over this many threads (1 in the browser)
    /// Every head's attention weights kept (layers × heads × n² numbers: 13 GB at 20 000 tokens
    /// of a small model); the rotary pass drops them when false.
    bool keep_attention = true;
};

/// A next-token guess: the id and its probability (softmax of the last token's logits).
struct NextGuess {
    int id = 0;
    double probability = 0;
};
/// The k most likely tokens after the pass's last one, most likely first (ties: smaller id).
std::vector<NextGuess> TopNext(const Gpt2Pass& pass, int vocab, int k);

/// The mean cross-entropy (nats) of predicting token t + 1 from tokens ≤ t, over t < n − 1,
/// from a pass's every-token logits; 0 without them (all_logits false) or with one token.
double MeanNextTokenLoss(const Gpt2Pass& pass, const std::vector<int>& tokens, int vocab);

/// How far apart two passes' last-token states are, for x₀ and after each block (L + 1 values):
/// ‖a − b‖ / ((‖a‖ + ‖b‖)/2), 0 when the states are equal (width d; both passes of one model).
std::vector<double> LastStateDistances(const Gpt2Pass& a, const Gpt2Pass& b, int width);
/// The same measure for token ta's state in a and token tb's in b after `state` (0: x₀, k: block
/// k). InvalidArgument when a token or state is outside the passes.
double StateDistance(const Gpt2Pass& a, int ta, const Gpt2Pass& b, int tb, int state, int width);

class Gpt2Model {
public:
    /// Reads every weight of a GPT-2 checkpoint (sizes from config, checked against the
    /// tensors' shapes): ok or a message naming the tensor and what is wrong.
    static Status Load(Checkpoint& checkpoint, const CheckpointConfig& config, Gpt2Model* out);

    const Gpt2Sizes& Sizes() const { return sizes_; }
    /// The trained position table (context × width).
    const std::vector<float>& PositionTable() const { return position_table_; }

    /// The rows the switch gives n tokens (n × width). InvalidArgument when out of range.
    std::vector<float> PositionRows(const PositionChoice& choice, int n) const;

    Gpt2Pass Run(const std::vector<int>& tokens, const PositionChoice& choice,
                 const Gpt2Options& options = {}) const;

private:
    /// One block's weights; the four products' matrices packed in column panels (gpt2.cpp).
    struct Block {
        std::vector<float> ln1_weight, ln1_bias, attn_weight, attn_bias, proj_weight, proj_bias,
            ln2_weight, ln2_bias, fc_weight, fc_bias, mproj_weight, mproj_bias;
    };
    Gpt2Sizes sizes_;
    std::vector<float> token_table_, position_table_, final_weight_, final_bias_;
    std::vector<Block> blocks_;
};

} // namespace pelab
