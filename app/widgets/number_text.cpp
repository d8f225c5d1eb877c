#include "widgets/number_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pelab {

namespace {

// digits with a no-break space between each group of three, from the right ("1234567" →
// "1 234 567"): a wrapped line never splits a number.
std::string Grouped(const std::string& digits) {
    std::string out;
    const std::size_t count = digits.size();
    for (std::size_t k = 0; k < count; ++k) {
        if (k > 0 && (count - k) % 3 == 0) out += kGroupSeparator;
        out += digits[k];
    }
    return out;
}

// value with `significant` digits in %f style, trailing zeros and point dropped, its whole
// part grouped.
std::string Fixed(double value, int significant) {
    const double magnitude = std::fabs(value);
    const int exponent = magnitude > 0 ? static_cast<int>(std::floor(std::log10(magnitude))) : 0;
    // A number that is not whole keeps at least one decimal: 999 999.5 must not read 1 000 000.
    const bool is_whole = magnitude == std::floor(magnitude);
    const int decimals = std::max(is_whole ? 0 : 1, significant - 1 - exponent);
    char text[400];
    std::snprintf(text, sizeof text, "%.*f", std::min(decimals, 40), magnitude);
    std::string body = text;
    const std::size_t point = body.find('.');
    std::string whole = point == std::string::npos ? body : body.substr(0, point);
    std::string fraction = point == std::string::npos ? "" : body.substr(point + 1);
    while (!fraction.empty() && fraction.back() == '0')
        fraction.pop_back();
    std::string out = (value < 0 ? "−" : "") + Grouped(whole);
    if (!fraction.empty()) out += "." + fraction;
    return out == "−0" ? "0" : out;
}

} // namespace

std::string Superscript(int exponent) {
    static const char* const kDigits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    const std::string digits = std::to_string(std::abs(static_cast<long long>(exponent)));
    std::string out = exponent < 0 ? "⁻" : "";
    for (const char digit : digits)
        out += kDigits[digit - '0'];
    return out;
}

std::string ShownNumber(double value, int significant) {
    if (std::isnan(value)) return "undefined";
    if (std::isinf(value)) return value > 0 ? "∞" : "−∞";
    const double magnitude = std::fabs(value);
    if (magnitude == std::floor(magnitude) && magnitude < 1e15) return Fixed(value, 17);
    if (magnitude >= 1e-6 || magnitude == 0) return Fixed(value, significant);
    // Tiny: a mantissa and a power of ten, its exponent in superscript digits (4.4×10⁻¹⁶).
    int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    // A mantissa that rounds up to 10 at these digits (9.99999×10⁻⁷ at 4) moves up a power.
    const double digits = std::pow(10.0, std::max(0, significant - 1));
    if (std::round(magnitude / std::pow(10.0, exponent) * digits) / digits >= 10) ++exponent;
    return Fixed(value / std::pow(10.0, exponent), significant) + "×10" + Superscript(exponent);
}

std::pair<std::string, std::string> ShownPair(double a, double b, int significant) {
    for (int digits = significant; digits < 17; ++digits) {
        std::pair<std::string, std::string> shown{ShownNumber(a, digits), ShownNumber(b, digits)};
        if (a == b || shown.first != shown.second) return shown;
    }
    return {ShownNumber(a, 17), ShownNumber(b, 17)};
}

std::string TickText(double value) {
    if (!std::isfinite(value)) return ShownNumber(value);
    if (value == 0) return "0";
    const std::string sign = value < 0 ? "−" : "";
    // The magnitude after rounding to 3 significant digits picks the style (999 999 is "1M",
    // not "1e+03k").
    char rounded_text[32];
    std::snprintf(rounded_text, sizeof rounded_text, "%.2e", std::fabs(value));
    const double magnitude = std::strtod(rounded_text, nullptr);
    char text[32];
    // 0.0001 to 9 999 read best as plain decimals ("1500", "0.25").
    if (magnitude >= 1e-4 && magnitude < 1e4) {
        std::snprintf(text, sizeof text, magnitude >= 1e3 ? "%.4g" : "%.3g", std::fabs(value));
        // %g writes 1e-04 for 0.0001: plain decimals instead.
        if (std::string(text).find('e') != std::string::npos) return sign + Fixed(magnitude, 3);
        return sign + text;
    }
    struct Prefix {
        double scale;
        const char* suffix;
    };
    // Large values (positions, lengths) with a thousands prefix: 60.6k, 1M.
    const Prefix prefixes[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    for (const Prefix& prefix : prefixes)
        if (magnitude >= prefix.scale) {
            std::snprintf(text, sizeof text, "%.3g", magnitude / prefix.scale);
            return sign + text + prefix.suffix;
        }
    // Small ones (errors, differences) as powers of ten: 10⁻⁵, 2.5×10⁻⁸ — SI prefixes (µ, n)
    // on a dimensionless number read as units.
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude) + 1e-9));
    const double mantissa = magnitude / std::pow(10.0, exponent);
    if (std::abs(mantissa - 1.0) < 1e-6) return sign + "10" + Superscript(exponent);
    std::snprintf(text, sizeof text, "%.3g", mantissa);
    return sign + text + "×10" + Superscript(exponent);
}

std::string LogTickText(double value) {
    if (!(value > 0) || !std::isfinite(value)) return TickText(value);
    const int exponent = static_cast<int>(std::lround(std::log10(value)));
    if (std::abs(value / std::pow(10.0, exponent) - 1.0) > 1e-6) return TickText(value);
    if (exponent < 0) return "10" + Superscript(exponent);
    if (exponent < 3) return exponent == 0 ? "1" : exponent == 1 ? "10" : "100";
    const char* const prefixes[] = {"k", "M", "G", "T"};
    const int group = std::min(exponent / 3, 4);
    const int rest = exponent - 3 * group;
    return (rest == 0 ? "1" : rest == 1 ? "10" : "100") + std::string(prefixes[group - 1]);
}

const char* PositionFormat(double position) {
    return position == std::round(position) ? "%.0f" : "%.2f";
}

std::string PositionText(double position) {
    char text[48];
    std::snprintf(text, sizeof text, PositionFormat(position), position);
    return text;
}

} // namespace pelab
