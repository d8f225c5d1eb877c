// pelab/models/rope_analysis.h — the relative schemes a checkpoint holds, measured: RoPE's
// frequencies (under the config's rope_scaling) and how much each pair can carry, T5's buckets.
#pragma once

#include "pelab/base/status.h"
#include "pelab/models/model_positions.h"

#include <string>
#include <vector>

namespace pelab {

// ---- RoPE ----

/// One kind of layer's usage: the layers of one group of the layer schedule, measured with that
/// kind's widths.
struct RopeUsage {
    int group = -1;          ///< index into LayerSchedule::groups (−1: no schedule)
    std::vector<int> layers; ///< the model's layer indices, ascending
    int pairs = 0;
    std::vector<double> usage;       ///< layers × heads × pairs
    std::vector<double> layer_usage; ///< layers × pairs: the mean over heads
};
struct RopeReport {
    int head_dim = 0, rotary_dims = 0, pairs = 0, layers = 0, heads = 0;
    int rotary_first = 0; ///< FoundPositions::rotary_first
    double base = 0;
    long long context = 0;          ///< trained for (the original one under rope_scaling)
    long long extended_context = 0; ///< what rope_scaling stretches it to (0: none)
    std::vector<double> wavelength; ///< per pair, 2π/θ_i, fastest first
    int pairs_without_turn = 0;     ///< wavelength > context
    /// pairs_without_turn counts the scaled wavelengths: linear scaling with no original
    /// context, where context is the one the stretched positions were trained at.
    bool without_turn_scaled = false;
    long long window = 0;                  ///< FoundPositions::window
    bool window_chunked = false;           ///< FoundPositions::window_chunked
    int pairs_without_turn_in_window = 0;  ///< wavelength > window (as counted above)
    std::string scaling;                   ///< rope_scaling's type ("" when none)
    std::string scaling_note;              ///< how it was applied
    std::vector<double> scaled_wavelength; ///< per pair under rope_scaling (empty when none)
    /// longrope: scaled_wavelength is long_factor's, used past long_from tokens (the original
    /// context); short_wavelength is short_factor's, used up to it (empty for other types).
    std::vector<double> short_wavelength;
    long long long_from = 0;
    /// The factor cos and sin are multiplied by (so every score by its square): YaRN's and
    /// longrope's attention_factor, 1 for the other types; the rule that gave it.
    double attention_factor = 1;
    std::string attention_factor_rule;
    /// A further factor on the softmax's scale (DeepSeek's mscale² from mscale_all_dim; 1: none).
    double softmax_factor = 1;
    std::string softmax_factor_rule;
    /// usage[(layer · heads + head) · pairs + pair] = ‖W_q rows of the pair‖ · ‖W_k rows of the
    /// pair‖ (the key head of the query head's group): how much a pair can carry, from the weights
    /// alone (a proxy for the activation measurements of Barbero et al. 2024).
    std::vector<double> usage;
    std::vector<double> layer_usage; ///< layers × pairs: the mean over heads
    /// The model's layer index of each row of usage (layers without RoPE have none).
    std::vector<int> usage_layers;
    /// The usage of every kind of layer with RoPE (the schedule's groups); usage above is the
    /// shown kind's. Empty without weights.
    std::vector<RopeUsage> usage_groups;
    /// How the weights were read when not as plain floats ("FP8 (F8_E4M3) × the block scales
    /// of 128 × 128 blocks"); "" otherwise.
    std::string weights_note;
};

/// Makes usage the report's shown usage (usage, layer_usage, usage_layers and layers).
void UseGroup(const RopeUsage& usage, RopeReport* report);
/// The attention factor transformers' rope functions return for scaling at a model trained for
/// max_positions (modeling_rope_utils.py): yarn's attention_factor if given, else
/// get_mscale(s, mscale) / get_mscale(s, mscale_all_dim) when both are set, else
/// 0.1·ln(s) + 1; longrope's if given, else √(1 + ln s / ln L₀); 1 for every other type (and
/// for s ≤ 1). s is the factor, or max_positions / L₀ when none is given. rule says which.
double rope_attention_factor(const RopeScalingConfig& scaling, long long max_positions,
                             std::string* rule);
/// Everything of the report that needs no weights: widths, wavelengths, the scaled ones and the
/// attention factor (usage and layer_usage left empty).
void rope_frequencies(const FoundPositions& found, const CheckpointConfig& config, RopeReport* out);
/// Reads each layer's q and k projections (one layer at a time) and computes the report: the
/// usage of every layer with RoPE, each with its own widths and layout (Gated and Latent q_proj,
/// FP8 weights times their block scales), gathered by layer kind. ok or a message (a projection
/// missing or of the wrong shape for the config's heads, an FP8 weight without its scales).
Status analyse_rope(Checkpoint& checkpoint, const FoundPositions& found,
                    const CheckpointConfig& config, RopeReport* out);

// ---- T5 ----

struct BucketReport {
    std::string stack; ///< "encoder" / "decoder"
    int buckets = 0, heads = 0, max_distance = 0;
    bool bidirectional = true;
    std::vector<long long> distances; ///< key − query, from −span to +span (causal: −span … 0)
    std::vector<double> bias;         ///< heads × distances: head h's bias at each distance
    std::vector<long long> edges;     ///< distances where the bucket changes (first of a bucket)
};
Status analyse_buckets(Checkpoint& checkpoint, const FoundPositions& found,
                       const CheckpointConfig* config, std::vector<BucketReport>* out);

} // namespace pelab
