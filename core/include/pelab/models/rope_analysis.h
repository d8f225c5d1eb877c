// pelab/models/rope_analysis.h — the relative schemes a checkpoint holds, measured: RoPE's
// frequencies (under the config's rope_scaling) and how much each pair can carry, T5's buckets.
#pragma once

#include "pelab/base/status.h"
#include "pelab/models/model_positions.h"

#include <string>
#include <vector>

namespace pelab {

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
/// ok or a message (a projection missing or of the wrong shape for the config's heads).
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
