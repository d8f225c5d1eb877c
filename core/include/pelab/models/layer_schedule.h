// pelab/models/layer_schedule.h — what each layer of a model does with positions, from its
// config.json alone: RoPE (its base, scaling, rotating width and pairing) or none, and how far it
// looks (every earlier token, a sliding window, a chunk, or a linear-attention recurrence that
// has no position encoding at all), with the scales a layer's queries get.
//
// The plan follows the family's rules (pelab/models/families.h): config.json's layer_types when
// given, else the family's default pattern (Gemma 3: five sliding layers to one global; Llama 4:
// every fourth layer without RoPE; ModernBERT: one global layer in three; …), and the layer
// type's own RoPE when rope_parameters is keyed by layer type (transformers 5) or the family
// keeps a second base (Gemma 3's rope_local_base_freq, ModernBERT's local_rope_theta).
#pragma once

#include "pelab/models/families.h"
#include "pelab/models/model_config.h"
#include "pelab/models/model_positions.h"

#include <string>
#include <vector>

namespace pelab {

/// How a layer mixes tokens. Conv: LFM2's short causal convolution (no attention); None: a
/// block without a token mixer (Nemotron-H's MLP and MoE layers).
enum class LayerAttention { Full, Sliding, Chunked, Linear, Conv, None };
/// "global", "sliding window", "chunked", "linear attention", "short convolution",
/// "no attention"
const char* layer_attention_name(LayerAttention attention);

/// One layer's positions.
struct LayerPlan {
    int index = 0;          ///< 0-based, as transformers counts layers
    std::string layer_type; ///< as layer_types names it, or the type the family's rule gives
    LayerAttention attention = LayerAttention::Full;
    long long span = 0; ///< sliding: the window; chunked: the chunk (0: none)
    bool rope = false;  ///< false: no rotation in this layer's attention
    /// What gives this layer positions: Rope (rope true), the family's bias (ALiBi, T5's
    /// buckets: every layer adds it), LearnedTable (only through its input: the table is added
    /// to the embeddings once) or None (a NoPE or linear-attention layer of a rotary model).
    PositionKind positions = PositionKind::None;
    double rope_theta = 0;
    bool theta_defaulted = false; ///< rope_theta is the family's default, not config.json's
    RopeScalingConfig scaling;    ///< type "" when unscaled
    int head_dim = 0;             ///< this layer's head width (Gemma 4's global layers are wider)
    int kv_heads = 0;             ///< this layer's key heads (Gemma 4's global layers have fewer)
    int rotary_dims = 0;          ///< dimensions of each head that rotate (0 when !rope)
    /// The exponent's denominator: θ_i = base^(−2i / frequency_dims). rotary_dims, except for
    /// p-RoPE (proportional), whose exponent runs over the whole head.
    int frequency_dims = 0;
    RotaryPairing pairing = RotaryPairing::HalfSplit;
    bool temperature_tuned = false; ///< Llama 4: queries × TemperatureScale(position)
};

/// A distinct kind of layer: the layers that share one plan (everything but the index).
struct LayerGroup {
    std::string name;        ///< "RoPE, base 1000000, global" (for the strip and the notes)
    std::vector<int> layers; ///< their indices, ascending
    int first = 0;           ///< index into LayerSchedule::layers of its first layer
};

struct LayerSchedule {
    std::string family_id; ///< families.h's id ("" when the model_type is unknown)
    std::string rule;      ///< where the plan came from ("layer_types", "no_rope_layers", …)
    std::vector<LayerPlan> layers;  ///< one per layer (empty when config.json gives no layer count)
    std::vector<LayerGroup> groups; ///< the distinct kinds, in the order they first appear
    int shown_layer = -1; ///< the layer the single-layer views show: the first global rotary one
    // Query scales by position.
    double floor_scale = 8192, attn_scale = 0.1; ///< Llama 4's temperature tuning
    double llama4_beta = 0, llama4_original = 0; ///< Ministral 3's llama_4_scaling_beta
    std::vector<std::string> notes;              ///< what the plan could not say exactly
};

/// The plan of every layer. Never fails: what config.json does not give is the family's default
/// (transformers' own), and the notes say so.
LayerSchedule BuildLayerSchedule(const CheckpointConfig& config);

/// Llama 4's scale of a query at position p in a layer without RoPE:
/// 1 + attn_scale · ln(⌊(p + 1) / floor_scale⌋ + 1) (modeling_llama4.py); 1 below floor_scale − 1.
double TemperatureScale(const LayerSchedule& schedule, double position);
/// Ministral 3's scale of every query at position p: 1 + β · ln(1 + ⌊p / original⌋).
double Llama4BetaScale(const LayerSchedule& schedule, double position);

/// One line a student reads at a glance: "48 layers: 36 RoPE (chunked, 8192), 12 without
/// positions (every 4th: 3, 7, 11, …)", layers counted from counted_from (0: as config.json
/// and the JSON count them; the panel counts from 1).
std::string ScheduleSummary(const LayerSchedule& schedule, int counted_from = 0);
/// "3, 7, 11, …, 47" — layer indices (+ counted_from), the middle elided past eight of them.
std::string LayerList(const std::vector<int>& layers, int counted_from = 0);

/// found with the RoPE of layer in place of the shown layers': its base, head and rotating
/// widths, pairing, the contexts under its scaling and the window it sees (config.json's
/// max_position_embeddings and the layer's original context).
void UseLayerPositions(const CheckpointConfig& config, const LayerPlan& layer,
                       FoundPositions* found);

/// The config as the views read it for one layer: rope_theta, rope_scaling and partial rotary of
/// that layer in place of the shown ones (the other fields unchanged).
CheckpointConfig ConfigOfLayer(const CheckpointConfig& config, const LayerPlan& layer);

} // namespace pelab
