// The number types RoPE tables are written in (pelab/models/rope_tables.h): rounding a double to
// each, ties to even as PyTorch's casts do, and their bits.
#include "pelab/models/rope_tables.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace pelab {

const char* table_dtype_name(TableDtype dtype) {
    switch (dtype) {
    case TableDtype::F64:
        return "f64";
    case TableDtype::F32:
        return "f32";
    case TableDtype::BF16:
        return "bf16";
    case TableDtype::F16:
        return "f16";
    }
    return "f64";
}

bool table_dtype_from_name(const std::string& name, TableDtype* out) {
    static const struct {
        const char* name;
        TableDtype dtype;
    } kNames[] = {{"f64", TableDtype::F64},   {"float64", TableDtype::F64},
                  {"f32", TableDtype::F32},   {"float32", TableDtype::F32},
                  {"bf16", TableDtype::BF16}, {"bfloat16", TableDtype::BF16},
                  {"f16", TableDtype::F16},   {"float16", TableDtype::F16}};
    for (const auto& each : kNames)
        if (name == each.name) return *out = each.dtype, true;
    return false;
}

namespace {

// A binary format's significant bits (with the leading one), its smallest normal exponent
// (the value 2^min_exponent) and its largest finite number.
struct Format {
    int bits;
    int min_exponent;
    double largest;
};
Format FormatOf(TableDtype dtype) {
    switch (dtype) {
    case TableDtype::BF16:
        return {8, -126, 0x1.fep127};
    case TableDtype::F16:
        return {11, -14, 65504.0};
    case TableDtype::F32:
        return {24, -126, static_cast<double>(std::numeric_limits<float>::max())};
    case TableDtype::F64:
        break;
    }
    return {53, -1022, std::numeric_limits<double>::max()};
}

} // namespace

double round_to_dtype(double value, TableDtype dtype) {
    if (dtype == TableDtype::F64 || !std::isfinite(value) || value == 0) return value;
    if (dtype == TableDtype::F32) return static_cast<double>(static_cast<float>(value));
    const Format format = FormatOf(dtype);
    int exponent = 0;
    std::frexp(value, &exponent); // |value| in [2^(exponent−1), 2^exponent)
    // The spacing of the format's numbers around value: 2^(exponent − bits), no finer than the
    // subnormals' 2^(min_exponent − bits + 1).
    const int quantum = std::max(exponent - format.bits, format.min_exponent - format.bits + 1);
    // nearbyint rounds ties to even in the default rounding mode; scaling by a power of two is
    // exact, so this is the one rounding of value to the format.
    const double rounded = std::ldexp(std::nearbyint(std::ldexp(value, -quantum)), quantum);
    if (std::fabs(rounded) > format.largest)
        return std::copysign(std::numeric_limits<double>::infinity(), value);
    return rounded;
}

std::uint16_t bf16_bits(double value) {
    const float single = static_cast<float>(value);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &single, sizeof bits);
    if (std::isnan(single)) return 0x7FC0;
    return static_cast<std::uint16_t>(bits >> 16); // exact: value has 8 significant bits
}

double bf16_from_bits(std::uint16_t bits) {
    const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
    float single = 0;
    std::memcpy(&single, &wide, sizeof single);
    return single;
}

std::uint16_t f16_bits(double value) {
    const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    const double magnitude = std::fabs(value);
    if (std::isnan(value)) return 0x7E00;
    if (std::isinf(value)) return sign | 0x7C00;
    if (magnitude == 0) return sign;
    int exponent = 0;
    const double fraction = std::frexp(magnitude, &exponent); // [0.5, 1)
    if (exponent - 1 < -14)                                   // subnormal: a multiple of 2^-24
        return sign | static_cast<std::uint16_t>(std::ldexp(magnitude, 24));
    const auto mantissa = static_cast<std::uint16_t>(std::ldexp(fraction, 11)) & 0x3FF;
    return sign | static_cast<std::uint16_t>((exponent - 1 + 15) << 10) | mantissa;
}

double f16_from_bits(std::uint16_t bits) {
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    if (exponent == 0x1F)
        return mantissa ? std::numeric_limits<double>::quiet_NaN()
                        : sign * std::numeric_limits<double>::infinity();
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);
    return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

double dtype_ulp(double value, TableDtype dtype) {
    const Format format = FormatOf(dtype);
    int exponent = 0;
    std::frexp(value == 0 ? 1.0 : value, &exponent);
    return std::ldexp(1.0, std::max(exponent - format.bits, format.min_exponent - format.bits + 1));
}

} // namespace pelab
