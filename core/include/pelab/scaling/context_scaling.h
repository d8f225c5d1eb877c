// pelab/scaling/context_scaling.h — stretching RoPE to a longer context: how each method changes
// the frequency θ_i = base^(−2i/d) of every pair, for a context s times the original length L.
//
//   Linear position interpolation (Chen et al. 2023, arXiv 2306.15595):  θ'_i = θ_i / s
//   NTK-aware scaling (bloc97, "NTK-Aware Scaled RoPE", 2023; the static form. Hugging Face's
//       "dynamic" variant recomputes s from the current sequence length):
//       base' = base · s^(d/(d−2)),  θ'_i = base'^(−2i/d)
//   Dynamic NTK (Hugging Face's "dynamic" rope_scaling): NTK-aware scaling recomputed for the
//       current length n: past L, base' = base·(s·n/L − (s − 1))^(d/(d−2)); at n ≤ L nothing.
//       At n = s·L the base grows by (s² − s + 1)^(d/(d−2)), more than the static s^(d/(d−2)).
//   YaRN (Peng et al. 2023, arXiv 2309.00071, eq. 17–21): r_i = L / λ_i with λ_i = 2π/θ_i;
//       γ(r) = 0 for r < α, 1 for r > β, (r − α)/(β − α) between;
//       θ'_i = (1 − γ(r_i))·θ_i/s + γ(r_i)·θ_i;  attention temperature √(1/t) = 0.1·ln s + 1
//       (α = 1, β = 32 in the paper for Llama models). YarnRamp::Turns: the paper's ramp, linear
//       in r. YarnRamp::PairIndex: Hugging Face's code, which checkpoints run: linear over the
//       pair index i between i(β) and i(α), i(n) = d·ln(L/(2πn)) / (2 ln base) the pair that
//       turns n times in L, rounded outward (floor, ceil) unless yarn_truncate is false, clamped
//       to [0, d − 1]: the same at the ends, different between them.
//   Llama 3 (Meta's reference code, `apply_scaling` in llama3/model.py; factor 8, low_freq_factor
//       1, high_freq_factor 4, original context 8 192):
//       λ_i < L/high: θ_i kept;  λ_i > L/low: θ_i/s;  between: with
//       smooth = (L/λ_i − low)/(high − low), θ'_i = (1 − smooth)·θ_i/s + smooth·θ_i
//
// Contracts (InvalidArgument otherwise): d even in [4, kMaxDModel] (NTK divides by d − 2);
// base valid; factor s in [1, 1000]; original_context in [1, 10⁹]; 0 < α < β; 0 < low < high;
// sequence_length in [0, 10¹²].
#pragma once

#include <vector>

namespace pelab {

enum class ContextScaling { None, Linear, NtkAware, Yarn, Llama3, DynamicNtk };
constexpr int kContextScalingCount = 6;
/// YaRN's ramp between the pairs it keeps and those it divides by s (see above).
enum class YarnRamp { Turns, PairIndex };
const char* context_scaling_name(ContextScaling method); ///< "none", "linear (PI)", …
const char* context_scaling_id(ContextScaling method);   ///< "none", "linear", "ntk", …

struct ContextScalingOptions {
    int d = 128; ///< a head's width (Llama: 128)
    double base = 10000.0;
    double factor = 8.0; ///< s: new context / original context
    double original_context = 8192;
    double yarn_alpha = 1.0, yarn_beta = 32.0;
    YarnRamp yarn_ramp = YarnRamp::Turns;
    bool yarn_truncate = true; ///< PairIndex: the ramp's ends rounded outward to whole pairs
    /// Dynamic NTK's current length n (0: s·L, the stretched context); ≥ 0.
    double sequence_length = 0;
    double llama_low_freq_factor = 1.0, llama_high_freq_factor = 4.0;
};
void validate_context_scaling(const ContextScalingOptions& options);

/// Dynamic NTK's base at options.sequence_length (0: s·L): base·(s·n/L − (s − 1))^(d/(d−2)) past
/// L, the base itself up to L.
double dynamic_ntk_base(const ContextScalingOptions& options);
/// θ'_i for every pair i < d/2.
std::vector<double> scaled_frequencies(ContextScaling method, const ContextScalingOptions& options);
/// θ'_i / θ_i per pair: 1 where a pair is left alone, 1/s where it is fully interpolated.
std::vector<double> frequency_scale_factors(ContextScaling method,
                                            const ContextScalingOptions& options);
/// YaRN's attention temperature factor √(1/t) = 0.1·ln s + 1 (logits are scaled by its
/// square); 1 for the other methods.
double attention_temperature_factor(ContextScaling method, double factor);
/// What the logits q·k are scaled by: the factor's square (q and k are each scaled by it).
double attention_logit_scale(ContextScaling method, double factor);

} // namespace pelab
