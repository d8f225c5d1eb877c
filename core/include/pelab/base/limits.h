// pelab/base/limits.h — the ranges every entry point of the core accepts, in one place so that the
// UI sliders, the command line and the error messages agree.
#pragma once

#include <cstdint>

namespace pelab {

constexpr int kMinDModel = 2;
constexpr int kMaxDModel = 16384;         // UI sliders stop at 4096; scripts may go further
constexpr double kMinBaseExclusive = 1.0; // base must be > 1 or every pair has the same frequency
constexpr double kMaxBase = 1e12;
constexpr double kMaxPosition = 1e9;        // angles stay exact to ~1e-7 in double up to here
constexpr int kMaxSequenceLength = 1 << 20; // rows of a PE matrix
constexpr std::int64_t kMaxMatrixElements = 1LL << 28; // 1 GiB of float32
constexpr int kMaxSentenceTokens = 32;  // the order demo draws a tokens × tokens matrix
constexpr int kMaxSentenceBytes = 1024; // longer text is refused before tokenising

} // namespace pelab
