// pelab/models/llama_order.h — the order demo (pelab/models/gpt2_order.h) on a rotary model of the
// Llama family (pelab/models/llama.h): both sentences under each rotary switch, and how close a
// shift of every position leaves each layer's attention to the unshifted run's.
//
// Why the shift is measured: with fixed frequencies, q_m·k_n after the rotation depends on m − n
// only, so shifting every position by K changes the attention only by rounding (the angles
// (p + K)·θ are formed and turned in float32; a model run in bf16 gets its cos and sin rounded
// to bfloat16). Some scalings depend on the absolute position by design (dynamic NTK and
// longrope choose their frequencies from the sequence's length; Ministral 3 scales each query by
// ⌊p / original⌋): ShiftCloseness names them when the shift reaches them.
#pragma once

#include "pelab/models/gpt2_order.h"
#include "pelab/models/llama.h"

#include <string>
#include <vector>

namespace pelab {

/// How close shift:K leaves the attention, per layer: the largest difference of any attention
/// weight of either sentence between the run at positions 0 … n − 1 and at K … K + n − 1.
struct ShiftCloseness {
    long long shift = 0;                ///< K (0: not measured)
    std::vector<double> f32, bf16;      ///< per layer: tables in float32, rounded to bf16
    double loss_f32 = 0, loss_bf16 = 0; ///< the largest |Δ loss| of the two sentences
    /// The layers whose RoPE takes different frequencies, attention factor or query scale at the
    /// shifted positions (ShiftChangesRope), with why; empty when only rounding can differ.
    std::vector<int> absolute_layers;
    std::string absolute_rule;
};

/// Whether layer l's RoPE differs between a sequence of n tokens at 0 and at shift (dynamic NTK,
/// longrope's switch of factors, Ministral 3's query scale): "" when it does not, else the rule.
std::string ShiftChangesRope(const LlamaModel& model, int layer, long long shift, int n);

struct RotaryOrderResult {
    OrderResult order; ///< runs parallel to the switches asked for
    /// The first Shift switch's closeness (shift 0 when there is none): the f32 numbers from
    /// that run and the trained one, the bf16 ones from four more passes.
    ShiftCloseness shift;
};

/// Runs a and b (each non-empty, within the model's context) under each switch; the switches'
/// bf16_tables as asked. Throws InvalidArgument as LlamaModel::Run, Cancelled when progress's
/// flag is set.
RotaryOrderResult RunOrderOnLlama(const LlamaModel& model, const std::vector<int>& a,
                                  const std::vector<int>& b,
                                  const std::vector<RotaryChoice>& switches, int top = 5,
                                  int threads = 2, PassProgress* progress = nullptr);

/// The largest |Δ| of layer l's attention weights between two passes of the same tokens (L × H ×
/// n × n each), per layer.
std::vector<double> AttentionDifferences(const std::vector<float>& a, const std::vector<float>& b,
                                         int layers);

} // namespace pelab
