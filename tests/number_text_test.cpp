// Numbers written for people (app/widgets/number_text.h): whole numbers whole and grouped, two
// shown numbers never alike when they differ, axis ticks with SI suffixes and no exponent notation.
#include "widgets/number_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace pelab;

TEST(NumberText, WholeNumbersAreWholeAndGrouped) {
    EXPECT_EQ(ShownNumber(0), "0");
    EXPECT_EQ(ShownNumber(44), "44");
    EXPECT_EQ(ShownNumber(1000), "1\u00a0000");
    EXPECT_EQ(ShownNumber(1000000), "1\u00a0000\u00a0000");
    EXPECT_EQ(ShownNumber(-123456), "−123\u00a0456");
    EXPECT_EQ(ShownNumber(10000), "10\u00a0000");
}

TEST(NumberText, FractionsHaveTheirDigitsAndNoExponent) {
    EXPECT_EQ(ShownNumber(0.5), "0.5");
    EXPECT_EQ(ShownNumber(0.0177, 3), "0.0177");
    EXPECT_EQ(ShownNumber(3.14159265, 3), "3.14");
    EXPECT_EQ(ShownNumber(999999.5), "999\u00a0999.5");
    EXPECT_EQ(ShownNumber(1.25e-5, 3), "0.0000125");
    EXPECT_EQ(ShownNumber(6.1e-9, 2), "6.1×10⁻⁹"); // below 1e-6: a power of ten, written out
    EXPECT_EQ(ShownNumber(-4.4e-16, 2), "−4.4×10⁻¹⁶");
    // A mantissa rounding up to 10 moves up a power: 1/1 000 001 at 4 digits is 1×10⁻⁶.
    EXPECT_EQ(ShownNumber(1.0 / 1000001, 4), "1×10⁻⁶");
    EXPECT_EQ(ShownNumber(-9.9996e-9, 4), "−1×10⁻⁸");
    EXPECT_EQ(ShownNumber(9.994e-9, 4), "9.994×10⁻⁹");
    EXPECT_EQ(Superscript(10), "¹⁰");
    EXPECT_EQ(Superscript(-123), "⁻¹²³");
    EXPECT_EQ(ShownNumber(std::nan("")), "undefined");
    for (const double x : {1e5 + 0.25, 123.456, 7e-4, 0.1, 2.5e6 + 0.5})
        EXPECT_EQ(ShownNumber(x).find('e'), std::string::npos) << x;
}

TEST(NumberText, TwoNumbersAreToldApart) {
    // "%.6g" wrote both as 1e+06.
    const auto [a, b] = ShownPair(1e6, 1e6 - 0.5);
    EXPECT_EQ(a, "1\u00a0000\u00a0000");
    EXPECT_EQ(b, "999\u00a0999.5");
    const auto [c, d] = ShownPair(1.0000001, 1.0000002);
    EXPECT_NE(c, d);
    const auto [e, f] = ShownPair(3, 3);
    EXPECT_EQ(e, f);
}

TEST(NumberText, TicksUseSiSuffixesWithoutExponents) {
    EXPECT_EQ(TickText(0), "0");
    EXPECT_EQ(TickText(0.25), "0.25");
    EXPECT_EQ(TickText(1500), "1500");
    EXPECT_EQ(TickText(60611), "60.6k");
    EXPECT_EQ(TickText(999999.9), "1M"); // was "1e+03k"
    EXPECT_EQ(TickText(2.5e6), "2.5M");
    EXPECT_EQ(TickText(1e12), "1T"); // was "1e+06M"
    EXPECT_EQ(TickText(0.0001), "0.0001");
    EXPECT_EQ(TickText(1e-5), "10⁻⁵"); // a power of ten, not "10µ": no unit is meant
    EXPECT_EQ(TickText(1e-9), "10⁻⁹");
    EXPECT_EQ(TickText(2.5e-8), "2.5×10⁻⁸");
    EXPECT_EQ(TickText(-2000000), "−2M");
    // A log axis writes its powers of ten in one style from end to end (the precision plot's
    // axis read 0.0001 beside 10⁻⁵, and 1000 beside 10k).
    EXPECT_EQ(LogTickText(1e-9), "10⁻⁹");
    EXPECT_EQ(LogTickText(1e-4), "10⁻⁴");
    EXPECT_EQ(LogTickText(0.1), "10⁻¹");
    EXPECT_EQ(LogTickText(1), "1");
    EXPECT_EQ(LogTickText(100), "100");
    EXPECT_EQ(LogTickText(1000), "1k");
    EXPECT_EQ(LogTickText(1e5), "100k");
    EXPECT_EQ(LogTickText(1e6), "1M");
    EXPECT_EQ(LogTickText(2.5e-8), TickText(2.5e-8));
    for (double x = 1e-9; x < 1e15; x *= 3.7)
        EXPECT_EQ(TickText(x).find('e'), std::string::npos) << x << " " << TickText(x);
}
