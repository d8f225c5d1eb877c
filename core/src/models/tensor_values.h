// models/tensor_values.h — the loops that turn a chunk of a tensor's bytes into floats and
// measure it, one loop per element type so that an 8B model's projections are read at memory
// speed (scripts/usage_bench.sh). Internal to core: the checkpoint reader's helpers.
#pragma once

#include "pelab/base/status.h"
#include "pelab/models/checkpoint.h"

#include <cstdint>

namespace pelab::detail {

/// Widens n elements of one type (little-endian bytes) to floats; ok, or a message for an F64
/// beyond float's range or a type that is not read as numbers.
Status WidenElements(const unsigned char* bytes, std::uint64_t n, TensorType type, float* out);
/// The first element of values[0, n) that is not finite, or n.
std::uint64_t FirstNotFinite(const float* values, std::uint64_t n);
/// Σ values[i]², in double across runs of 64 (within a run in float lanes, ~1e-7 of the sum).
double SumOfSquares(const float* values, std::uint64_t n);

} // namespace pelab::detail
