// pelab/models/rope_check.h — another engine's RoPE tables (dumped to .npy from PyTorch, JAX,
// llama.cpp, MLX) compared with the references of pelab/models/rope_tables.h, and, when they
// differ, the known bug that explains the difference, tested against the data.
//
// A dump agrees when it matches the ideal or the transformers reference within its dtype's
// rounding, absolute and scaled to the table's largest value (a relative error near a zero of cos
// means nothing): f64 4 ulp of that value plus the angle's own rounding, f32 2 ulp, bf16 and f16
// 1 ulp; inverse frequencies, which span orders of magnitude, element by element (f64 1e-12
// relative, f32 2^-22, bf16 2^-7, f16 2^-10). A cause is named only when the reference changed
// by that cause alone matches the whole dump within the same tolerance (the tolerance of the
// precision the cause computes in, when coarser); otherwise the verdict says where the tables
// part and by how much, and names nothing.
//
// Dumps are read one block of rows at a time (a 1 GB table never sits in memory).
#pragma once

#include "pelab/base/status.h"
#include "pelab/models/rope_tables.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pelab {

/// An .npy dump opened for reading by rows: [rows, width] after leading dimensions of 1 are
/// dropped ([1, 1, n, d] as PyTorch's caches are shaped), or one row of width for a 1-D array.
struct RopeDump {
    std::string path;
    TableDtype dtype = TableDtype::F32;
    long long rows = 0;
    int width = 0;
    bool one_dimensional = false;
    std::vector<long long> shape; ///< as the file gives it
    std::uint64_t data_begin = 0;
};
/// Opens path. '<u2' is read as bfloat16 bits only when bf16_bits is set (--dtype bf16); a dtype
/// given that the file's contradicts is refused. ok or the message naming the file.
Status open_rope_dump(const std::string& path, bool bf16_bits, RopeDump* out);
/// Rows [first, first + count) as doubles (count × width). ok or the message (a read error).
Status read_rope_dump_rows(const RopeDump& dump, long long first, long long count,
                           std::vector<double>* out);

enum class RopeDumpKind { CosSin, InvFreq, Angles };

/// The causes `rope check` tests, in the order it tests them.
enum class RopeCause {
    None,
    PartialRotary,     ///< the table rotates another number of dimensions
    PairingSwapped,    ///< interleaved ↔ half-split
    PositionsShifted,  ///< row r holds position A + r ± 1
    PositionsOffset,   ///< the rows start at another position (a dump of a running cache)
    AttentionMissing,  ///< cos and sin not multiplied by the attention factor
    AttentionSquared,  ///< multiplied by it twice
    AttentionWrong,    ///< multiplied by another factor (one this config does not have)
    BaseDefaulted,     ///< rope_theta not read: 10 000 instead
    DynamicFrozen,     ///< dynamic NTK's base of another length
    LongropeSide,      ///< longrope's other factor list
    ScalingMissing,    ///< rope scaling not applied
    OtherScaling,      ///< another scaling type or factor
    LowPrecisionFreq,  ///< inv_freq computed in a lower precision
    LowPrecisionAngle, ///< p·θ formed in a lower precision
    Unknown            ///< differs, cause not named
};
/// "partial_rotary", "pairing_swapped", … "unknown" (what --json prints).
const char* rope_cause_id(RopeCause cause);

struct RopeCheckRequest {
    RopeTableSpec spec;
    RopeDumpKind kind = RopeDumpKind::CosSin;
    RopeDump first, second; ///< cos and sin (CosSin), or the one dump in first
    long long first_position = 0;
    long long sequence_length = 0; ///< 0: first_position + rows (inv_freq dumps: the model at
                                   ///< start-up, as transformers builds it before any sequence)
};

/// Where a dump and a table part.
struct RopeDifference {
    double largest_error = 0;  ///< absolute (inv_freq: relative)
    long long position = -1;   ///< the first position beyond the tolerance (−1: none)
    int pair = -1;             ///< its first pair beyond it
    long long largest_at = -1; ///< the position of the largest error
    int largest_pair = -1;
};

struct RopeCheckResult {
    bool agrees = false;
    RopeReference matched = RopeReference::Ideal; ///< when agrees (ideal tested first)
    RopeCause cause = RopeCause::None;
    RopeReference cause_pipeline = RopeReference::Ideal; ///< the reference the cause changed
    std::string verdict;                         ///< one paragraph, in the engine developer's words
    TableLayout layout = TableLayout::HalfSplit; ///< how the dump's columns were read
    long long rows = 0;
    int width = 0, pairs = 0;
    TableDtype dtype = TableDtype::F32;
    long long first_position = 0, sequence_length = 0;
    double tolerance = 0;
    RopeDifference ideal, transformers; ///< the dump against each reference
    double attention_factor = 1;        ///< the reference's
    double dump_amplitude = 0;          ///< √(cos² + sin²) of the dump's first row (CosSin)
    /// A lower precision: the first position whose angle is off by more than one position's step
    /// θ_i in some pair (−1: none in the dump's positions).
    long long precision_position = -1;
    std::vector<std::string> notes; ///< how the dump was read, a dump longer than the context
};

/// Compares and explains. ok with *out filled whether the dump agrees or not; the message for
/// bad input (a shape no layout explains, NaN or ∞ in the dump, rows that do not match
/// --positions, a read error).
Status rope_check(const RopeCheckRequest& request, RopeCheckResult* out);

/// What a view draws of a check: up to max_rows positions spread over the dump, and for each
/// pair the dump's value and the reference's (cos, the angle, or inv_freq: of the pair's column,
/// as this model lays them out, that differs more) and the difference (the largest of the pair's
/// columns, cos and sin).
struct RopeCheckPicture {
    std::vector<long long> positions; ///< rows shown (one row, position 0, for inv_freq)
    int pairs = 0;
    std::vector<double> dump, reference, error; ///< positions × pairs
    /// Consecutive rows from a little before where the tables part (a fast pair's curve read at
    /// spread rows would alias): positions, and the dump's and the reference's values × pairs.
    std::vector<long long> curve_positions;
    std::vector<double> curve_dump, curve_reference;
    std::vector<double> inv_freq;  ///< the reference's, one per pair
    std::vector<int> curve_column; ///< per pair: the dump's column curve_dump holds
    RopeReference reference_used = RopeReference::Ideal;
    double largest_error = 0;
};
/// The picture of request against the reference the result names (the one matched, else the
/// nearer). Needs a result whose width matches the layer (a partial-rotary dump: the picture of
/// its own width is not drawn; ok with pairs 0).
Status rope_check_picture(const RopeCheckRequest& request, const RopeCheckResult& result,
                          int max_rows, RopeCheckPicture* out);

} // namespace pelab
