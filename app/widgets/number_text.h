// number_text.h — numbers as PE Lab writes them for people (sentences, captions, axis ticks);
// the readouts' JSON keeps full precision and never goes through here.
//
//   ShownNumber(1000000)        "1 000 000"     whole numbers whole, grouped by thousands
//   ShownNumber(0.0177)         "0.0177"        others with `significant` digits, no exponent
//   ShownPair(1e6, 1e6 + 0.5)   "1 000 000" and "1 000 000.5": each with the digits needed to
//                               tell the two apart
//   TickText(1500)              "1.5k"          SI suffixes (k, M, G, T; m, µ, n), no exponent
#pragma once

#include <string>
#include <utility>

namespace pelab {

/// Between groups of three digits: U+00A0, a no-break space (in every font's Latin-1 range).
constexpr const char* kGroupSeparator = "\u00a0";

/// value for a sentence: a whole number (|value| < 1e15) is written whole and grouped by
/// thousands with kGroupSeparator; any other number with `significant` significant digits, trailing
/// zeros dropped, in plain decimals down to 1e-6 (smaller magnitudes keep an exponent, written
/// ×10ⁿ with a superscript exponent, the only place one appears). NaN and infinities are
/// "undefined" and "∞".
std::string ShownNumber(double value, int significant = 6);

/// exponent in superscript digits, with a superscript minus when negative: −16 → "⁻¹⁶".
std::string Superscript(int exponent);

/// a and b for one sentence: as ShownNumber, with more digits when `significant` would show
/// two different numbers alike (at most 17).
std::pair<std::string, std::string> ShownPair(double a, double b, int significant = 6);

/// An axis tick: at most 3 significant digits and an SI suffix, never exponent notation.
std::string TickText(double value);
/// A tick of a log axis: its powers of ten in one style from end to end (10⁻⁹ … 10⁻¹, 1, 10,
/// 100, 1k … 100k, 1M …), other values as TickText.
std::string LogTickText(double value);

/// The one way a position is written, in every panel, field and bar: a whole position without
/// decimals ("3"), any other with two ("3.37"). PositionFormat is the printf format for it (for
/// ImGui's drag fields); PositionText the text.
const char* PositionFormat(double position);
std::string PositionText(double position);

} // namespace pelab
