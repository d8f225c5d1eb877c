// pelab/model_positions.h — where a real checkpoint keeps its positions, and the numbers that
// describe them.
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
//   alibi); RoPE            the config's base, head width and partial rotary, and each layer's
//   query and
//                   key projections: Llama, Mistral, Qwen, Gemma, Phi `layers.N.self_attn.q_proj` /
//                   `k_proj` (Phi-3 fuses them in `qkv_proj`), GPT-NeoX / Pythia
//                   `layers.N.attention.query_key_value` (q, k and v interleaved per head).
// Hugging Face's checkpoints of all these rotate half-split pairs (dimension i with i + r/2 of the
// r rotating dimensions of a head: its rotate_half); Meta's original Llama code and GPT-J rotate
// interleaved pairs (2i, 2i + 1). Hugging Face's Llama conversion permutes the q and k rows so that
// both give the same scores; the weights read here are in the half-split order.
#pragma once

#include "pelab/cancel.h"

#include "pelab/checkpoint.h"
#include "pelab/model_config.h"

#include <string>
#include <vector>

namespace pelab {

enum class PositionKind { None, LearnedTable, RelativeBuckets, Alibi, Rope };
const char* position_kind_name(PositionKind kind); ///< "none", "learned table", "T5 buckets", …

enum class RotaryPairing { HalfSplit, Interleaved };

/// One layer's query and key projections (Linear weights, [out, in]).
struct RopeLayerTensors {
    std::string query, key; ///< equal names when fused (NeoX query_key_value, Phi-3 qkv_proj)
    enum class Fused { No, PerHead, Stacked } fused = Fused::No;
};

struct FoundPositions {
    std::string family; ///< "GPT-2", "BERT", "RoBERTa", "OPT", "T5", "BLOOM", "Llama", …
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
    double base = 10000;
    bool base_from_default = false; ///< rope_theta absent: Hugging Face's default 10 000
    // ALiBi and every family.
    int alibi_heads = 0;
    long long context = 0; ///< the length trained for (config, else the table's rows)
    /// RoPE with rope_scaling that names original_max_position_embeddings: context is that
    /// original length and extended_context the config's max_position_embeddings (0: none).
    long long extended_context = 0;
    std::vector<std::string> notes; ///< what a reader should know (tied lm_head, masks skipped, …)
};

/// Finds where the checkpoint keeps its positions. config may be null (no config.json); the kinds
/// that need it (RoPE, ALiBi) then say so. chosen_table, when not empty, is a 2-D tensor the user
/// picked to be read as a position table. "" or a message (the chosen tensor missing or not 2-D).
std::string FindPositions(Checkpoint& checkpoint, const CheckpointConfig* config,
                          const std::string& chosen_table, FoundPositions* out);

/// Rotates the r rotating dimensions of x (a head's vector; dimensions past r are left alone) to
/// position, with pair i at frequency base^(−2i/r) and the family's pairing: half-split pairs
/// (i, i + r/2), interleaved (2i, 2i + 1). out receives x rotated.
std::vector<double> rotate_head(const std::vector<double>& x, int rotary_dims, double base,
                                double position, RotaryPairing pairing);
/// The two dimensions of pair i under a pairing (of r rotating dimensions).
void pair_dimensions(int pair, int rotary_dims, RotaryPairing pairing, int* first, int* second);

// ---- learned tables ----

/// Principal components, wavelengths and norms of a rows × cols table (positions × dimensions).
struct TableReport {
    int rows = 0, cols = 0;
    std::vector<double> singular_values; ///< of the centred table, largest first (at most 16)
    std::vector<double> explained;       ///< each one's share of the variance
    /// The positions' coordinates along the first three components (rows each), each component's
    /// sign chosen so its largest entry is positive.
    std::vector<std::vector<double>> components;
    /// Each of the first six components' dominant wavelength in positions (the periodogram's
    /// peak); 0 when the component completes less than one wave within the rows.
    std::vector<double> wavelengths;
    std::vector<double> norms;            ///< ‖row p‖ for every p
    std::vector<double> neighbour_cosine; ///< cos(row p, row p + 1), rows − 1 values
    double median_norm = 0;
    double edge_norm_ratio = 0; ///< mean norm of the last 16 rows ÷ median norm
    /// The singular values came from the iterative solver (min(rows, cols) > kExactGramSize);
    /// approximate: it stopped at the time cap before every residual met kTableTolerance, and
    /// singular_value_error bounds each value's error (empty when exact).
    bool iterative = false, approximate = false;
    std::vector<double> singular_value_error;
};
constexpr int kTableComponents = 3, kTableWavelengths = 6, kTableSingularValues = 16;
/// For an approximate report: the largest error bound of its shown shares of variance (a
/// fraction; |explained_k error| ≤ ‖r_k‖ / ‖C‖²); 0 for an exact or converged one.
double explained_error(const TableReport& report);
/// Gram matrices up to this size are decomposed whole (exact); larger ones iteratively.
constexpr int kExactGramSize = 1024;
/// The iterative solver's target: each shown singular value's residual ≤ 1e-7 · σ₁.
constexpr double kTableTolerance = 1e-7;
/// table is row-major rows × cols. rows ≥ 2, cols ≥ 1 (InvalidArgument otherwise). Holds the
/// table once: the centred rows are widened a block at a time (8 MiB). Throws Cancelled when
/// control's flag is set; the iterative solver stops at its time cap (approximate then).
TableReport analyse_table(const std::vector<float>& table, int rows, int cols,
                          const AnalysisControl& control = {});
/// The dominant wavelength of a sequence (its mean removed): 2π/ω at the largest periodogram
/// value over ω in (0, π], refined between grid points; 0 when the peak is below one wave in n.
double dominant_wavelength(const std::vector<double>& values);
/// cos(row p, row q) for every p, q: rows × rows, row-major (0 where a row is all zeros).
std::vector<float> cosine_matrix(const std::vector<float>& table, int rows, int cols);

// ---- RoPE ----

struct RopeReport {
    int head_dim = 0, rotary_dims = 0, pairs = 0, layers = 0, heads = 0;
    double base = 0;
    long long context = 0;                 ///< trained for (the original one under rope_scaling)
    long long extended_context = 0;        ///< what rope_scaling stretches it to (0: none)
    std::vector<double> wavelength;        ///< per pair, 2π/θ_i, fastest first
    int pairs_without_turn = 0;            ///< wavelength > context
    std::string scaling;                   ///< rope_scaling's type ("" when none)
    std::string scaling_note;              ///< how it was applied
    std::vector<double> scaled_wavelength; ///< per pair under rope_scaling (empty when none)
    /// usage[(layer · heads + head) · pairs + pair] = ‖W_q rows of the pair‖ · ‖W_k rows of the
    /// pair‖ (the key head of the query head's group): how much a pair can carry, from the weights
    /// alone (a proxy for the activation measurements of Barbero et al. 2024).
    std::vector<double> usage;
    std::vector<double> layer_usage; ///< layers × pairs: the mean over heads
};
/// Reads each layer's q and k projections (one layer at a time) and computes the report.
/// "" or a message (a projection missing or of the wrong shape for the config's heads).
std::string analyse_rope(Checkpoint& checkpoint, const FoundPositions& found,
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
std::string analyse_buckets(Checkpoint& checkpoint, const FoundPositions& found,
                            const CheckpointConfig* config, std::vector<BucketReport>* out);

} // namespace pelab
