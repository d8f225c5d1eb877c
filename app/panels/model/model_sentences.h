// model_sentences.h — the "Your model" panel's sentences, each built from the numbers of one view
// with the claims it makes (explanation.h); tests/model_panel_test.cpp checks the claims over a
// sweep of tables, RoPE configurations, bucket tables and head counts.
#pragma once

#include "panels/explanation.h"
#include "pelab/models/model_positions.h"
#include "pelab/models/rope_analysis.h"
#include "pelab/models/table_analysis.h"

#include <vector>

namespace pelab {

/// The learned table's components against the sinusoidal table of the same size, its first
/// components' wavelengths, and its last rows' norms against the median.
/// Claims: rows, top2_percent, twin_top2_percent, wavelength_1 (component 1's strongest wave; 0:
/// under one wave), wave_share_1 (its share of the component's variance), period_1 (1 when the
/// sentence names it as a period: share ≥ kWaveStandsOut and fits_twice), fits_twice (1 when
/// two of its waves fit in the rows),
/// edge_rows (rows compared: min(16, rows); 0 when the table is too short to have an edge),
/// edge_ratio, edge_lower / edge_higher (1 when below 0.95 / above 1.05 of the median).
Explanation TableSentence(const FoundPositions& found, const TableReport& table,
                          const TableReport& twin);

/// RoPE's wavelengths against the context trained for, and rope_scaling's effect.
/// Claims: pairs, rotary_dims, head_dim, fastest, slowest, context (0: not given),
/// without_turn, scaled_slowest (present only with scaling applied).
Explanation RopeSentence(const RopeReport& rope);

/// The usage picture's values, layers × pairs: one query head's (head in [0, heads)), or the mean
/// over heads (head −1, or a head the report has not).
std::vector<double> UsageGrid(const RopeReport& rope, int head);

/// Where the weights put their usage (layers × pairs, of one head or the mean over heads as
/// UsageGrid): the share of the whole held by the fastest quarter of the pairs and by the slowest
/// quarter, and the pair with most.
/// Claims: fast_share_percent, slow_share_percent, top_pair, top_wavelength, head (−1: the mean).
Explanation UsageSentence(const RopeReport& rope, int head = -1);

/// One stack of T5 buckets: the head with the strongest preference, and from which distance every
/// key looks the same.
/// Claims: heads, buckets, last_bucket_start, top_head, top_distance, top_bias.
Explanation BucketSentence(const BucketReport& buckets);

/// ALiBi's slopes of the model's head count and what they subtract at distance 100.
/// Claims: heads, steepest, gentlest, steepest_at_100, gentlest_at_100.
Explanation AlibiSentence(const std::vector<double>& slopes);

} // namespace pelab
