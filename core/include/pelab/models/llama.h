// pelab/models/llama.h — a rotary model of the Llama family run forward on a checkpoint someone
// brings, with its rotations passed through one switch (as trained, none, the other pairing, the
// base scaled, every position shifted, the scaling off, no rotation from a layer on): what the
// model's next-word guesses owe to RoPE. Nothing else in the model changes.
//
// The model, as Hugging Face's LlamaForCausalLM and its relatives compute it (their checkpoints'
// tensor names, model.layers.N.…): x₀ = embed_tokens[token]; per layer, a = RMSNorm(x) (weight ·
// x / √(mean(x²) + ε)); q, k, v = a·Wᵀ (+ bias where the checkpoint has one: Qwen2);
// Qwen3 normalises each head's q and k (q_norm, k_norm over head_dim), OLMo 2 the whole q and k
// projections; each layer's RoPE (its plan in BuildLayerSchedule: base, scaling, rotating width,
// pairing; none on SmolLM3's NoPE layers) turns q and k by the float32 cos and sin tables of
// transformers' pipeline (pelab/models/rope_tables.h), times the attention factor;
// grouped-query attention with causal softmax(q·kᵀ/√d_h) (and the sliding window where the layer
// has one); x += o_proj(attention). Then x += down(SiLU(gate(m)) ⊙ up(m)), m = RMSNorm(x)
// (OLMo 2 instead normalises the outputs: x += RMSNorm(attention), x += RMSNorm(MLP), and has no
// input norms). Then the final RMSNorm and logits = h·lm_headᵀ (embed_tokens when tied).
// Float32 throughout. BF16 weights are held as their 16 bits and widened panel by panel just
// before each product (2.5 GB for a 1B model; the pass reads half the bytes, so it runs faster
// where memory is the bound), F32, F16 and FP8 ones as float32: the same floats either way. The
// pass is meant for the small models a laptop runs (SmolLM2, Qwen2.5-0.5B, Llama-3.2-1B).
//
// Families: llama, mistral, ministral, qwen2, qwen3, olmo2, smollm3 (families.h's ids); the
// others are refused by name. Contracts (InvalidArgument otherwise): tokens non-empty, each in
// [0, vocab).
#pragma once

#include "pelab/base/status.h"
#include "pelab/models/checkpoint.h"
#include "pelab/models/gpt2.h"
#include "pelab/models/layer_schedule.h"
#include "pelab/models/model_config.h"
#include "pelab/models/rope_tables.h"

#include <memory>
#include <string>
#include <vector>

namespace pelab {

namespace detail {
struct LlamaWeights;
}

/// How a rotary model's positions reach its attention.
enum class RotarySwitch {
    Trained,    ///< every layer as its plan says
    None,       ///< no rotation in any layer
    Pairing,    ///< the other pairing than the model's (interleaved for half-split weights)
    Base,       ///< every layer's base × base_factor
    Shift,      ///< every position + shift
    ScalingOff, ///< each layer's RoPE unscaled (rope type default, attention factor 1)
    NopeFrom,   ///< no rotation in layers ≥ nope_from
};

struct RotaryChoice {
    RotarySwitch kind = RotarySwitch::Trained;
    double base_factor = 1; ///< Base: > 0
    long long shift = 0;    ///< Shift: ≥ 0
    int nope_from = 0;      ///< NopeFrom: ≥ 0
    /// The cos and sin tables rounded to bfloat16, as transformers hands them to a model run in
    /// bf16 (its angles stay float32); every other number of the pass stays float32. Named by
    /// the suffix "/bf16" ("shift:1000/bf16").
    bool bf16_tables = false;
};

/// "trained", "none", "pairing", "base:K", "shift:K", "scaling-off", "nope-from:L" (the command
/// line's names; each may end in "/bf16") and back; ParseRotaryChoice gives ok or a message naming
/// what is wrong.
std::string RotaryChoiceName(const RotaryChoice& choice);
Status ParseRotaryChoice(const std::string& named, RotaryChoice* out);

struct LlamaSizes {
    std::string family_id; ///< families.h's id ("llama", "qwen3", …)
    int layers = 0, heads = 0, kv_heads = 0, head_dim = 0, width = 0, intermediate = 0, vocab = 0;
    double rms_epsilon = 1e-6;
    bool head_norms = false;        ///< Qwen3: q_norm and k_norm over each head
    bool whole_norms = false;       ///< OLMo 2: q_norm and k_norm over the whole projections
    bool output_norms = false;      ///< OLMo 2: the attention's and the MLP's outputs normalised
    bool tied = false;              ///< logits from embed_tokens (no lm_head.weight)
    LayerSchedule schedule;         ///< each layer's RoPE (BuildLayerSchedule of the config)
    long long context = 0;          ///< max_position_embeddings (0: not given)
    std::vector<std::string> notes; ///< what a reader of the pass should know (the layer plan's)
};

class LlamaModel {
public:
    /// Reads every weight (sizes from config, checked against the tensors' shapes): ok or a
    /// message naming the tensor, or the family, and what is wrong.
    static Status Load(Checkpoint& checkpoint, const CheckpointConfig& config, LlamaModel* out);

    const LlamaSizes& Sizes() const { return sizes_; }
    /// The bytes the weights hold (BF16 ones as 16 bits), and what they would hold as float32.
    std::size_t WeightBytes() const;
    std::size_t Float32WeightBytes() const;
    /// Layer l's RoPE as the pass turns it (l in [0, layers); meaningful where the plan rotates).
    const RopeTableSpec& LayerRope(int layer) const { return rope_.at(layer); }

    /// The pass (Gpt2Pass's fields: logits, every head's attention, every layer's states, the
    /// loss with all_logits; positions empty).
    Gpt2Pass Run(const std::vector<int>& tokens, const RotaryChoice& choice,
                 const Gpt2Options& options = {}) const;

private:
    CheckpointConfig config_;
    LlamaSizes sizes_;
    /// Every weight, packed (models/llama_weights.h); shared by the copies of a model.
    std::shared_ptr<const detail::LlamaWeights> weights_;
    std::vector<RopeTableSpec> rope_; ///< each layer's RoPE (unused where it has none)
};

/// What a switch does to this model that its name does not say (it changes nothing here, or
/// float32 positions stop being whole numbers apart), for n tokens; "" when nothing.
std::string RotaryChoiceNote(const LlamaSizes& sizes, const RotaryChoice& choice, int tokens);

/// Whether PE Lab's rotary pass runs this family (families.h's id).
bool LlamaPassRuns(const std::string& family_id);

} // namespace pelab
