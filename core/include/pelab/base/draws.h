// pelab/base/draws.h — uniform and normal draws that give the same numbers in every build.
//
// The standard distributions (std::uniform_int_distribution, std::normal_distribution, …) are
// free to turn the same generator output into different numbers, and do: libstdc++ (the
// desktop) and libc++ (the browser build) draw different tokens from the same mt19937_64
// state. These functions fix the method, so a seed means the same run everywhere; only the
// generator's raw 64-bit outputs are used, and the engines of the standard library
// (std::mt19937_64) produce those identically by definition.
//
// Engine: anything whose operator() returns a uniformly distributed std::uint64_t over all
// 2^64 values (std::mt19937_64, pelab::SplitMix64).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace pelab {

/// Uniform integer in [0, count), count ≥ 1, without bias: raw outputs below
/// 2^64 mod count are redrawn (at most half of them for any count, so the loop ends quickly).
template <typename Engine> std::uint64_t draw_below(Engine& engine, std::uint64_t count) {
    const std::uint64_t redrawn = (0 - count) % count; // 2^64 mod count, in 64-bit arithmetic
    std::uint64_t bits = engine();
    while (bits < redrawn)
        bits = engine();
    return bits % count;
}

/// Uniform integer in [lowest, highest], lowest ≤ highest.
template <typename Engine> int draw_between(Engine& engine, int lowest, int highest) {
    const std::uint64_t count =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(highest) - lowest) + 1;
    return static_cast<int>(static_cast<std::int64_t>(lowest) +
                            static_cast<std::int64_t>(draw_below(engine, count)));
}

/// Uniform double in (0, 1]: 53 random bits shifted by half a step, so never 0 (log of it is
/// safe); the largest output's half step rounds to even, giving exactly 1 (once in 2^53 draws).
template <typename Engine> double draw_unit(Engine& engine) {
    return (static_cast<double>(engine() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/// Uniform double in (lowest, highest], as draw_unit.
template <typename Engine> double draw_uniform(Engine& engine, double lowest, double highest) {
    return lowest + (highest - lowest) * draw_unit(engine);
}

/// Standard normal by Box–Muller, the cosine branch only: two uniform draws per value and no
/// state kept between calls, so the n-th value depends only on the generator's outputs.
/// sqrt is exact in IEEE arithmetic; log and cos may differ by an ulp between C libraries,
/// which rounding to float almost always hides.
template <typename Engine> double draw_normal(Engine& engine) {
    const double u1 = draw_unit(engine);
    const double u2 = draw_unit(engine);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

} // namespace pelab
