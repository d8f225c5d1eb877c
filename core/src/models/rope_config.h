// models/rope_config.h — what config.json alone says of a RoPE model's positions, shared by
// FindPositions (with the weights) and FindPositionsFromConfig (without them).
#pragma once

#include "pelab/models/model_positions.h"

namespace pelab::detail {

/// What RoPE's pairs need from config.json that it does not give; ok when it gives them all.
/// first_query names the tensor (or file) the message cites.
Status RopeConfigProblem(const CheckpointConfig* config, const std::string& first_query);
/// RoPE's heads, rotating dimensions, pairing, base and contexts into found, with the notes a
/// reader needs (the base defaulted, layer kinds, MLA, mrope, partial rotary).
Status RopeFromConfig(const CheckpointConfig* config, FoundPositions* found);
/// A family whose attention has no positions at all (Nemotron-H): found's kind, family and the
/// notes that say where order comes from instead.
void NoPositionsFamily(const CheckpointConfig& config, const ModelFamily& family,
                       FoundPositions* found);

} // namespace pelab::detail
