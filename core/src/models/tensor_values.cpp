// Tensor elements widened to float: float16, bfloat16, the 8-bit floats, float64; the
// checks and sums the checkpoint reader runs over each chunk (see models/tensor_values.h).
#include "models/tensor_values.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace pelab {

float HalfToFloat(std::uint16_t bits) {
    const std::uint32_t sign = (bits >> 15) & 1u;
    const std::uint32_t exponent = (bits >> 10) & 31u;
    const std::uint32_t mantissa = bits & 1023u;
    float magnitude = 0;
    if (exponent == 0)
        magnitude = std::ldexp(static_cast<float>(mantissa), -24); // subnormal: m · 2^−24
    else if (exponent == 31)
        magnitude = mantissa == 0 ? std::numeric_limits<float>::infinity()
                                  : std::numeric_limits<float>::quiet_NaN();
    else
        magnitude =
            std::ldexp(static_cast<float>(mantissa | 1024u), static_cast<int>(exponent) - 25);
    return sign ? -magnitude : magnitude;
}

float BfloatToFloat(std::uint16_t bits) {
    const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
    float value = 0;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

float Float8ToFloat(std::uint8_t bits, TensorType type) {
    const bool negative = (bits & 0x80u) != 0;
    float magnitude = 0;
    if (type == TensorType::F8E8M0) {
        if (bits == 0xFFu) return std::numeric_limits<float>::quiet_NaN();
        return std::ldexp(1.0f, static_cast<int>(bits) - 127);
    }
    if (type == TensorType::F8E4M3) {
        const int exponent = (bits >> 3) & 15, mantissa = bits & 7;
        if (exponent == 15 && mantissa == 7) return std::numeric_limits<float>::quiet_NaN();
        magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -9)
                                  : std::ldexp(static_cast<float>(8 + mantissa), exponent - 10);
    } else {
        const int exponent = (bits >> 2) & 31, mantissa = bits & 3;
        if (exponent == 31)
            return mantissa != 0 ? std::numeric_limits<float>::quiet_NaN()
                   : negative    ? -std::numeric_limits<float>::infinity()
                                 : std::numeric_limits<float>::infinity();
        magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -16)
                                  : std::ldexp(static_cast<float>(4 + mantissa), exponent - 17);
    }
    return negative ? -magnitude : magnitude;
}

namespace detail {

// Widens n elements of one type to floats. Each type has its own loop (no branch per element),
// so the usage view's 8B model widens at memory speed.
Status WidenElements(const unsigned char* bytes, std::uint64_t n, TensorType type, float* out) {
    switch (type) {
    case TensorType::F32:
        std::memcpy(out, bytes, static_cast<std::size_t>(n) * 4);
        return {};
    case TensorType::F16:
        for (std::uint64_t i = 0; i < n; ++i)
            out[i] =
                HalfToFloat(static_cast<std::uint16_t>(bytes[2 * i] | (bytes[2 * i + 1] << 8)));
        return {};
    case TensorType::BF16:
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint32_t wide = (static_cast<std::uint32_t>(bytes[2 * i]) << 16) |
                                       (static_cast<std::uint32_t>(bytes[2 * i + 1]) << 24);
            std::memcpy(out + i, &wide, 4);
        }
        return {};
    case TensorType::F8E4M3:
    case TensorType::F8E5M2:
    case TensorType::F8E8M0: {
        float table[256];
        for (int code = 0; code < 256; ++code)
            table[code] = Float8ToFloat(static_cast<std::uint8_t>(code), type);
        for (std::uint64_t i = 0; i < n; ++i)
            out[i] = table[bytes[i]];
        return {};
    }
    case TensorType::F64:
        for (std::uint64_t i = 0; i < n; ++i) {
            double wide = 0;
            std::memcpy(&wide, bytes + 8 * i, 8);
            if (std::isfinite(wide) && std::fabs(wide) > std::numeric_limits<float>::max())
                return "element " + std::to_string(i) + " is beyond float32's range";
            out[i] = static_cast<float>(wide);
        }
        return {};
    case TensorType::Ggml: // block types: dequantize_blocks (pelab/models/gguf.h)
    case TensorType::Other:
        break;
    }
    return "its type is not read as numbers";
}

// The first element of values[0, n) that is not finite, or n. Counting the all-ones exponents
// is integer work the compiler vectorises; the search runs only when the count says there is one.
std::uint64_t FirstNotFinite(const float* values, std::uint64_t n) {
    constexpr std::uint32_t kExponent = 0x7f800000u;
    std::uint32_t not_finite = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, values + i, 4);
        not_finite += (bits & kExponent) == kExponent ? 1u : 0u;
    }
    if (not_finite == 0) return n;
    for (std::uint64_t i = 0; i < n; ++i)
        if (!std::isfinite(values[i])) return i;
    return n;
}

// Σ v²: eight float lanes over runs of 64 (the compiler vectorises them; each lane adds 8
// squares, so the float sums keep ~1e-7 of their size), each run's total added in double.
double SumOfSquares(const float* values, std::uint64_t n) {
    double total = 0;
    std::uint64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        float lanes[8] = {};
        for (std::uint64_t j = 0; j < 64; j += 8)
            for (int lane = 0; lane < 8; ++lane)
                lanes[lane] += values[i + j + lane] * values[i + j + lane];
        total += static_cast<double>((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) +
                 static_cast<double>((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
    }
    for (; i < n; ++i)
        total += static_cast<double>(values[i]) * values[i];
    return total;
}

} // namespace detail

} // namespace pelab
