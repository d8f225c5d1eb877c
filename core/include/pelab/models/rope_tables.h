// pelab/models/rope_tables.h — the RoPE tables of one layer of a model, as an engine must compute
// them: the inverse frequencies after the config's scaling, the angles p·θ_i, the cos and sin
// caches in the model's pairing order, and the attention factor cos and sin are multiplied by.
//
// Two references. Ideal: every step in double, rounded once to the dtype asked. Transformers:
// its own pipeline (modeling_rope_utils.py and the families' rotary embeddings; their rules are
// in tests/models/hf_rope_reference.md): inv_freq built in float32 with Python's scalars cast to
// float32 where PyTorch casts them, p·inv_freq formed in float32, cos and sin in float32 times
// the attention factor, then cast to the dtype. Its float32 functions are glibc's powf, cosf and
// sinf, which are what PyTorch's scalar CPU kernels call (ATEN_CPU_CAPABILITY=default); its
// AVX2 kernels (SLEEF) can differ from them in the last bit (docs/models.md says by how much).
//
// A sequence of length B (largest position B − 1) decides what depends on the length, as
// transformers decides it for a fresh model running that sequence: dynamic NTK's base
// base·((s·max(B, L)/L) − (s − 1))^(d/(d−2)) (L: max_position_embeddings) once B > L, and
// longrope's long_factor once B exceeds the original context (short_factor up to it).
#pragma once

#include "pelab/base/status.h"
#include "pelab/models/layer_schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pelab {

enum class RopeReference { Ideal, Transformers };
/// "ideal", "transformers"
const char* rope_reference_name(RopeReference reference);

/// The number types a table is written in. BF16 is bfloat16 (8 significant bits), F16 IEEE half.
enum class TableDtype { F64, F32, BF16, F16 };
/// "f64", "f32", "bf16", "f16"
const char* table_dtype_name(TableDtype dtype);
/// Reads "f64", "f32", "bf16", "f16" (and "float64", "float32", "bfloat16", "float16").
bool table_dtype_from_name(const std::string& name, TableDtype* out);
/// value rounded to the nearest dtype number, ties to even (what PyTorch's casts do); beyond
/// the dtype's largest finite number: ±∞. NaN stays NaN.
double round_to_dtype(double value, TableDtype dtype);
/// The bits of a bfloat16 / half number (value already representable: round_to_dtype first).
std::uint16_t bf16_bits(double value);
std::uint16_t f16_bits(double value);
double bf16_from_bits(std::uint16_t bits);
double f16_from_bits(std::uint16_t bits);
/// The spacing of dtype's numbers at |value| (its unit in the last place).
double dtype_ulp(double value, TableDtype dtype);

/// One layer's RoPE as transformers' rope function for it reads the config.
struct RopeTableSpec {
    int layer = 0;          ///< 0-based
    std::string layer_type; ///< as the schedule names it
    double base = 0;        ///< rope_theta of this layer
    bool theta_defaulted = false;
    int head_dim = 0;
    int rotary_dims = 0;    ///< the dimensions that rotate (2 × the pairs)
    int frequency_dims = 0; ///< the exponent's denominator (p-RoPE: the whole head)
    RotaryPairing pairing = RotaryPairing::HalfSplit; ///< the model's
    RopeScalingConfig scaling;                        ///< type "" or "default": none
    long long max_positions = 0;                      ///< max_position_embeddings (0: absent)
    std::string family_id;
};

/// The spec of layer (0-based) of config: its plan in BuildLayerSchedule. ok, or why not (no such
/// layer, a layer without RoPE: the message names the layers that have it, a scaling type
/// transformers does not compute).
Status rope_table_spec(const CheckpointConfig& config, int layer, RopeTableSpec* out);
/// The first layer with RoPE that the single-layer views show (LayerSchedule::shown_layer), or
/// −1 when none rotates.
int rope_default_layer(const CheckpointConfig& config);

/// inv_freq and the attention factor for a sequence of length sequence_length.
struct RopeFrequencies {
    /// transformers' inv_freq buffer: one per pair (p-RoPE: head_dim / 2, the pairs that do not
    /// turn 0); in float32 for the transformers reference (held here as doubles).
    std::vector<double> inv_freq;
    double attention_factor = 1;
    std::string rule; ///< how the scaling was applied at this length ("dynamic NTK at 16384: …")
};
RopeFrequencies rope_inv_freq(const RopeTableSpec& spec, long long sequence_length,
                              RopeReference reference);

/// What a table holds.
enum class RopeTableKind { InvFreq, Cos, Sin, Angles, AttentionFactor };
const char* rope_table_kind_name(RopeTableKind kind);

/// How the cache's columns hold the pairs: half-split puts pair i at i and i + n (transformers'
/// cat(freqs, freqs)), interleaved at 2i and 2i + 1; Undoubled holds each pair once (width n).
enum class TableLayout { HalfSplit, Interleaved, Undoubled };
const char* table_layout_name(TableLayout layout);
/// The pair column `column` of a table of width `width` holds.
int table_pair(int column, int width, TableLayout layout);

/// Rows of a positions × width table (width = 2n, or n when Undoubled): row r is position
/// first_position + r, values rounded to dtype. kind is Cos, Sin or Angles. out holds rows ×
/// width numbers. Angles are p·inv_freq (the transformers reference: in float32).
void rope_table_rows(const RopeFrequencies& frequencies, RopeReference reference,
                     RopeTableKind kind, long long first_position, long long rows,
                     TableLayout layout, TableDtype dtype, double* out);

/// The attention factor's explanation and the scaling's, for a table's notes.
std::string rope_spec_summary(const RopeTableSpec& spec);

} // namespace pelab
