// pelab/models/model_positions.h — where a real checkpoint keeps its positions, and the numbers
// that describe them.
//
// Families are recognised by their tensors' real names (with or without the "transformer." /
// "model." prefixes the saving code adds) and by config.json:
//   learned tables  GPT-2 / GPT-Neo `wpe.weight`; BERT `embeddings.position_embeddings.weight`;
//                   RoBERTa the same name, whose rows start at 2 (row 1 is its padding row, the
//                   position of padding tokens); OPT `decoder.embed_positions.weight` (rows from
//                   2);
//   T5              `block.0.layer.0.SelfAttention.relative_attention_bias.weight`, buckets ×
//                   heads, shared by the stack's layers (encoder: bidirectional, decoder: causal);
//   ALiBi           no tensor: the slopes follow from the head count (BLOOM, MPT, Falcon with
//                   alibi);
//   RoPE            the config's base, head width and partial rotary, and each layer's query
//                   and key projections: Llama, Mistral, Qwen, Gemma, Phi
//                   `layers.N.self_attn.q_proj` / `k_proj` (Phi-3 fuses them in `qkv_proj`),
//                   GPT-NeoX / Pythia `layers.N.attention.query_key_value` (q, k and v
//                   interleaved per head), DeepSeek's `q_b_proj` / `kv_a_proj_with_mqa`.
// Hugging Face's checkpoints of all these rotate half-split pairs (dimension i with i + r/2 of the
// r rotating dimensions of a head: its rotate_half); Meta's original Llama code and GPT-J rotate
// interleaved pairs (2i, 2i + 1). Hugging Face's Llama conversion permutes the q and k rows so that
// both give the same scores; the weights read here are in the half-split order.
#pragma once

#include "pelab/base/cancel.h"
#include "pelab/base/status.h"

#include "pelab/models/checkpoint.h"
#include "pelab/models/families.h"
#include "pelab/models/model_config.h"

#include <string>
#include <vector>

namespace pelab {

/// One layer's query and key projections (Linear weights, [out, in]) and where each head's
/// rotating dimensions are among their rows:
///   No       q_proj heads · hd rows, k_proj kv_heads · hd;
///   PerHead  GPT-NeoX query_key_value, [q | k | v] per head (3 · hd rows each);
///   Stacked  Phi-3 qkv_proj, ModernBERT attn.Wqkv, phi-msft mixer.Wqkv: all q rows, then k, then
///   v; Gated    Qwen3-Next / Qwen3.5 q_proj, [q | gate] per head (2 · hd rows each), k_proj plain;
///   Latent   DeepSeek V2/V3, Kimi K2 (multi-head latent attention): q_proj or q_b_proj gives
///            each head qk_nope_head_dim rows then its qk_rope_head_dim rotating rows; the key's
///            rotating part is kv_a_proj_with_mqa's last qk_rope_head_dim rows (after
///            kv_lora_rank), one for every head.
struct RopeLayerTensors {
    std::string query, key; ///< equal names when fused (NeoX query_key_value, Phi-3 qkv_proj)
    enum class Fused { No, PerHead, Stacked, Gated, Latent } fused = Fused::No;
    int layer = 0; ///< the model's layer index (0-based): some layers have no attention
};

struct FoundPositions {
    std::string family; ///< "GPT-2", "BERT", "RoBERTa", "OPT", "T5", "BLOOM", "Llama", …
    /// The family's id in pelab/models/families.h ("gpt2", "llama4"), "numpy_table" or
    /// "chosen_tensor" for a table the user brought or chose; "" for a family not in the table.
    /// Code compares this, never the display name.
    std::string family_id;
    PositionKind kind = PositionKind::None;
    // Learned table (or a tensor the user chose as one).
    std::string table; ///< the tensor's name
    int first_row = 0; ///< the row of position 0 (RoBERTa and OPT: 2)
    int padding_row = -1;
    // T5: the bias tables of the stacks ("encoder", "decoder") that have one.
    std::vector<std::string> bias_tables, bias_stacks;
    // RoPE.
    std::vector<RopeLayerTensors> rope_layers;
    RotaryPairing pairing = RotaryPairing::HalfSplit;
    int head_dim = 0, rotary_dims = 0, heads = 0, kv_heads = 0;
    int frequency_dims = 0; ///< θ_i = base^(−2i / frequency_dims): rotary_dims but for p-RoPE
    /// The head's first rotating dimension: 0, but head_dim − rotary_dims under multi-head
    /// latent attention, whose rotating part (qk_rope_head_dim) follows qk_nope_head_dim.
    int rotary_first = 0;
    double base = 10000;
    bool base_from_default = false; ///< rope_theta absent: Hugging Face's default 10 000
    // ALiBi and every family.
    int alibi_heads = 0;
    long long context = 0; ///< the length trained for (config, else the table's rows)
    /// RoPE with rope_scaling that names original_max_position_embeddings: context is that
    /// original length and extended_context the config's max_position_embeddings (0: none).
    long long extended_context = 0;
    /// The shown layers' sliding window or attention chunk when shorter than context: the
    /// farthest a query sees (0: the whole context).
    long long window = 0;
    bool window_chunked = false;    ///< window is Llama 4's chunk, not a sliding window
    std::vector<std::string> notes; ///< what a reader should know (tied lm_head, masks skipped, …)
};

/// Finds where the checkpoint keeps its positions. config may be null (no config.json); the kinds
/// that need it (RoPE, ALiBi) then say so. chosen_table, when not empty, is a 2-D tensor the user
/// picked to be read as a position table. ok or a message (the chosen tensor missing or not 2-D).
Status FindPositions(Checkpoint& checkpoint, const CheckpointConfig* config,
                     const std::string& chosen_table, FoundPositions* out);

/// What config.json alone says of the positions (no weights): RoPE's heads, widths, base,
/// scaling and contexts, ALiBi's heads; a learned table or T5's buckets named, their values being
/// in the weights. ok or a message (RoPE without heads or head width).
Status FindPositionsFromConfig(const CheckpointConfig& config, FoundPositions* out);

/// Rotates the r rotating dimensions of x (a head's vector; dimensions past r are left alone) to
/// position, with pair i at frequency base^(−2i/r) and the family's pairing: half-split pairs
/// (i, i + r/2), interleaved (2i, 2i + 1). out receives x rotated.
std::vector<double> rotate_head(const std::vector<double>& x, int rotary_dims, double base,
                                double position, RotaryPairing pairing);
/// The two dimensions of pair i under a pairing (of r rotating dimensions).
void pair_dimensions(int pair, int rotary_dims, RotaryPairing pairing, int* first, int* second);

} // namespace pelab
