// The candidate encodings of pelab/encodings/candidates.h: each formula at a few positions, and each
// measured property against hand arithmetic written in the comments or a small loop written
// here (long double where precision matters). No expected value comes from the code under test.
#include "pelab/encodings/candidates.h"
#include "pelab/base/error.h"
#include "reference.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <vector>

using namespace pelab;

namespace {

constexpr Candidate kAllCandidates[] = {
    Candidate::RawIndex,   Candidate::IndexOverLength, Candidate::Binary,
    Candidate::Decimal,    Candidate::RandomIncrement, Candidate::SinOnly,
    Candidate::ShiftedSin, Candidate::SinCos,          Candidate::Learned,
};
constexpr double kUntouched = -12345.0;

CandidateSettings make_settings(int d_model = 512, int length = 10, std::uint64_t seed = 42) {
    CandidateSettings s;
    s.d_model = d_model, s.length = length, s.seed = seed;
    return s;
}

std::vector<double> encode(Candidate c, double pos, const CandidateSettings& s, int dims) {
    std::vector<double> out(static_cast<std::size_t>(dims), kUntouched);
    EXPECT_TRUE(candidate_encode(c, pos, s, dims, out.data())) << candidate_id(c) << " " << pos;
    return out;
}

// True when the candidate reports no value at pos and leaves the output untouched.
bool has_no_value(Candidate c, double pos, const CandidateSettings& s, int dims) {
    std::vector<double> out(static_cast<std::size_t>(dims), kUntouched);
    const bool defined = candidate_encode(c, pos, s, dims, out.data());
    for (double v : out)
        if (v != kUntouched) return false;
    return !defined;
}

// min over m of ‖m·x − (x + k·c)‖ / ‖x + k·c‖ for x = c·p, p = 0 … pairs−1 (one dim, no
// intercept): m = Σ p(p+k) / Σ p², residual² = Σ(p+k)² − (Σ p(p+k))² / Σ p² (scale-free in c).
double one_dim_shift_residual(int pairs, int k) {
    long double spq = 0, spp = 0, sqq = 0;
    for (int p = 0; p < pairs; ++p) {
        spq += static_cast<long double>(p) * (p + k);
        spp += static_cast<long double>(p) * p;
        sqq += static_cast<long double>(p + k) * (p + k);
    }
    return static_cast<double>(sqrtl((sqq - spq * spq / spp) / sqq));
}

} // namespace

TEST(Candidates, NamesAndIdsAreDistinct) {
    EXPECT_STREQ(candidate_name(Candidate::RawIndex), "raw index");
    EXPECT_STREQ(candidate_id(Candidate::RawIndex), "raw_index");
    EXPECT_STREQ(candidate_name(Candidate::IndexOverLength), "index / length");
    EXPECT_STREQ(candidate_id(Candidate::IndexOverLength), "index_over_length");
    std::set<std::string> names, ids;
    for (Candidate c : kAllCandidates) {
        names.insert(candidate_name(c));
        ids.insert(candidate_id(c));
        EXPECT_GT(std::string(candidate_formula(c)).size(), 0u) << candidate_id(c);
    }
    EXPECT_EQ(names.size(), static_cast<std::size_t>(kCandidateCount));
    EXPECT_EQ(ids.size(), static_cast<std::size_t>(kCandidateCount));
}

TEST(CandidateEncode, RawIndexRepeatsThePosition) {
    for (double pos : {0.0, 7.0, 123.0, 2.5})
        for (double v : encode(Candidate::RawIndex, pos, make_settings(), 5))
            EXPECT_EQ(v, pos);
}

// p / L for p < L, nothing at p ≥ L: 5/10 = 0.5, 9/10 = 0.9, 5/100 = 0.05.
TEST(CandidateEncode, IndexOverLengthDividesByTheLength) {
    for (double v : encode(Candidate::IndexOverLength, 5, make_settings(512, 10), 4))
        EXPECT_EQ(v, 0.5);
    for (double v : encode(Candidate::IndexOverLength, 9, make_settings(512, 10), 4))
        EXPECT_DOUBLE_EQ(v, 0.9);
    for (double v : encode(Candidate::IndexOverLength, 5, make_settings(512, 100), 4))
        EXPECT_DOUBLE_EQ(v, 0.05);
    for (double pos : {10.0, 10.5, 11.0, 1000.0})
        EXPECT_TRUE(has_no_value(Candidate::IndexOverLength, pos, make_settings(512, 10), 4))
            << pos;
}

// 5 = 0b0101 → [1, 0, 1, 0] (dim 0 the least significant); 7 = 0111 and 8 = 1000 differ in all
// four bits; with 4 dims 16 wraps to 0 and 19 = 0b10011 to 3 = [1, 1, 0, 0].
TEST(CandidateEncode, BinaryBitsLeastSignificantFirst) {
    const CandidateSettings s = make_settings();
    EXPECT_EQ(encode(Candidate::Binary, 5, s, 4), (std::vector<double>{1, 0, 1, 0}));
    const auto seven = encode(Candidate::Binary, 7, s, 4);
    const auto eight = encode(Candidate::Binary, 8, s, 4);
    EXPECT_EQ(seven, (std::vector<double>{1, 1, 1, 0}));
    EXPECT_EQ(eight, (std::vector<double>{0, 0, 0, 1}));
    for (int j = 0; j < 4; ++j)
        EXPECT_NE(seven[static_cast<std::size_t>(j)], eight[static_cast<std::size_t>(j)]) << j;
    EXPECT_EQ(encode(Candidate::Binary, 16, s, 4), (std::vector<double>{0, 0, 0, 0}));
    EXPECT_EQ(encode(Candidate::Binary, 19, s, 4), (std::vector<double>{1, 1, 0, 0}));
    EXPECT_EQ(encode(Candidate::Binary, 16, s, 6), (std::vector<double>{0, 0, 0, 0, 1, 0}));
}

// 42 → [2, 4, 0] (dim 0 the ones); 1042 wraps at 10³ to the same; 907 → [7, 0, 9].
TEST(CandidateEncode, DecimalDigitsOnesFirst) {
    const CandidateSettings s = make_settings();
    EXPECT_EQ(encode(Candidate::Decimal, 42, s, 3), (std::vector<double>{2, 4, 0}));
    EXPECT_EQ(encode(Candidate::Decimal, 1042, s, 3), (std::vector<double>{2, 4, 0}));
    EXPECT_EQ(encode(Candidate::Decimal, 907, s, 3), (std::vector<double>{7, 0, 9}));
    EXPECT_EQ(encode(Candidate::Decimal, 1042, s, 4), (std::vector<double>{2, 4, 0, 1}));
}

// r_j + 0.02·p: PE(0) is r, each r_j in [−1, 1], and every neighbour step is 0.02 in every dim.
TEST(CandidateEncode, RandomIncrementStepsByTwoHundredths) {
    const CandidateSettings s = make_settings();
    const auto r = encode(Candidate::RandomIncrement, 0, s, 16);
    std::set<double> distinct(r.begin(), r.end());
    EXPECT_GT(distinct.size(), 1u); // seeded values, not one constant
    for (double v : r) {
        EXPECT_GE(v, -1.0);
        EXPECT_LE(v, 1.0);
    }
    for (double p : {0.0, 1.0, 10.0, 99.0, 1000.0}) {
        const auto a = encode(Candidate::RandomIncrement, p, s, 16);
        const auto b = encode(Candidate::RandomIncrement, p + 1, s, 16);
        for (std::size_t j = 0; j < 16; ++j) {
            EXPECT_NEAR(b[j] - a[j], 0.02, 1e-12) << p << " " << j;
            EXPECT_NEAR(a[j], r[j] + 0.02 * p, 1e-12) << p << " " << j;
        }
    }
    EXPECT_EQ(encode(Candidate::RandomIncrement, 3, s, 16),
              encode(Candidate::RandomIncrement, 3, s, 16));
    EXPECT_NE(encode(Candidate::RandomIncrement, 3, make_settings(512, 10, 43), 16),
              encode(Candidate::RandomIncrement, 3, s, 16));
}

// sin(p·base^(−j/d_model)) and (that + 1)/2, with d_model (not dims) in the exponent.
TEST(CandidateEncode, SinOnlyAndShiftedSinUseDModelInTheExponent) {
    for (int d_model : {512, 64}) {
        const CandidateSettings s = make_settings(d_model);
        for (double p : {0.0, 1.0, 37.5, 1000.0}) {
            const auto sin_only = encode(Candidate::SinOnly, p, s, 8);
            const auto shifted = encode(Candidate::ShiftedSin, p, s, 8);
            for (int j = 0; j < 8; ++j) {
                const long double wave =
                    sinl(p * powl(10000.0L, -static_cast<long double>(j) / d_model));
                const auto jj = static_cast<std::size_t>(j);
                EXPECT_NEAR(sin_only[jj], static_cast<double>(wave), 1e-12) << p << " " << j;
                EXPECT_NEAR(shifted[jj], static_cast<double>((wave + 1) / 2), 1e-12) << p;
                EXPECT_GE(shifted[jj], 0.0);
                EXPECT_LE(shifted[jj], 1.0);
            }
        }
    }
}

// The paper: dim 2i = sin(p·ω_i), dim 2i+1 = cos(p·ω_i), ω_i = base^(−2i/d_model).
TEST(CandidateEncode, SinCosIsThePaper) {
    for (int d_model : {512, 64}) {
        const CandidateSettings s = make_settings(d_model);
        for (double p : {0.0, 1.0, 10.0, 123.25, 1000.0}) {
            const auto v = encode(Candidate::SinCos, p, s, 16);
            for (int j = 0; j < 16; ++j)
                EXPECT_NEAR(v[static_cast<std::size_t>(j)],
                            static_cast<double>(reference::pe(p, j, d_model, 10000)), 1e-12)
                    << d_model << " " << p << " " << j;
        }
    }
    // pos 1, dims 0 and 1: sin(1) = 0.841471, cos(1) = 0.540302.
    const auto one = encode(Candidate::SinCos, 1, make_settings(), 2);
    EXPECT_NEAR(one[0], 0.841471, 1e-6);
    EXPECT_NEAR(one[1], 0.540302, 1e-6);
}

TEST(CandidateEncode, LearnedRowsAreSeededAndEndAtTheLength) {
    const CandidateSettings s = make_settings(512, 10);
    for (int p = 0; p < 10; ++p)
        for (double v : encode(Candidate::Learned, p, s, 16)) {
            EXPECT_GE(v, -1.0);
            EXPECT_LE(v, 1.0);
        }
    EXPECT_EQ(encode(Candidate::Learned, 4, s, 16), encode(Candidate::Learned, 4, s, 16));
    EXPECT_NE(encode(Candidate::Learned, 4, s, 16), encode(Candidate::Learned, 5, s, 16));
    EXPECT_NE(encode(Candidate::Learned, 4, make_settings(512, 10, 7), 16),
              encode(Candidate::Learned, 4, s, 16));
    for (double pos : {10.0, 11.0, 1000.0})
        EXPECT_TRUE(has_no_value(Candidate::Learned, pos, s, 16)) << pos;
}

// PE(p)_j is a function of j: asking for fewer dims gives the first dims of the wide vector.
TEST(CandidateEncode, FirstDimsDoNotDependOnHowManyAreAsked) {
    const CandidateSettings s = make_settings(512, 10);
    for (Candidate c : kAllCandidates) {
        const auto narrow = encode(c, 3, s, 4);
        const auto wide = encode(c, 3, s, 32);
        EXPECT_EQ(narrow, std::vector<double>(wide.begin(), wide.begin() + 4)) << candidate_id(c);
    }
}

TEST(CandidateEncode, BadInputThrows) {
    std::vector<double> out(64);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    for (Candidate c : kAllCandidates) {
        EXPECT_THROW(candidate_encode(c, 1, make_settings(7), 4, out.data()), InvalidArgument);
        EXPECT_THROW(candidate_encode(c, 1, make_settings(0), 1, out.data()), InvalidArgument);
        CandidateSettings bad_base = make_settings();
        bad_base.base = 1;
        EXPECT_THROW(candidate_encode(c, 1, bad_base, 4, out.data()), InvalidArgument);
        EXPECT_THROW(candidate_encode(c, 1, make_settings(512, 1), 4, out.data()), InvalidArgument);
        EXPECT_THROW(candidate_encode(c, 1, make_settings(512, 100001), 4, out.data()),
                     InvalidArgument);
        for (double pos : {nan, inf, -1.0, 2e9})
            EXPECT_THROW(candidate_encode(c, pos, make_settings(), 4, out.data()), InvalidArgument)
                << candidate_id(c) << " " << pos;
        EXPECT_THROW(candidate_encode(c, 1, make_settings(), 0, out.data()), InvalidArgument);
        EXPECT_THROW(candidate_encode(c, 1, make_settings(8), 9, out.data()), InvalidArgument);
        EXPECT_NO_THROW(candidate_encode(c, 1, make_settings(8), 8, out.data()));
    }
    EXPECT_THROW(validate_candidate_settings(make_settings(7)), InvalidArgument);
    EXPECT_THROW(validate_candidate_settings(make_settings(512, 1)), InvalidArgument);
    EXPECT_NO_THROW(validate_candidate_settings(make_settings(512, 2)));
    EXPECT_NO_THROW(validate_candidate_settings(make_settings(2, 100000)));
}

// Bounded: 0 … 255 → 255; digits ≤ 9; bits ≤ 1; sin + cos reaches cos 0 = 1; 9/10 = 0.9.
TEST(CandidateProperties, MaxAbs) {
    const CandidateSettings s = make_settings(512, 10);
    const CandidateProperties raw = candidate_properties(Candidate::RawIndex, s, 256, 4, 1);
    EXPECT_EQ(raw.max_abs, 255.0);
    EXPECT_EQ(raw.positions_checked, 256);
    EXPECT_EQ(raw.dims_checked, 4);
    EXPECT_EQ(candidate_properties(Candidate::Decimal, s, 1000, 3, 1).max_abs, 9.0);
    EXPECT_EQ(candidate_properties(Candidate::Binary, s, 256, 8, 1).max_abs, 1.0);
    EXPECT_DOUBLE_EQ(candidate_properties(Candidate::SinCos, s, 64, 16, 1).max_abs, 1.0);
    const CandidateProperties iol = candidate_properties(Candidate::IndexOverLength, s, 20, 4, 1);
    EXPECT_DOUBLE_EQ(iol.max_abs, 0.9);
    EXPECT_EQ(iol.positions_checked, 10); // only 0 … 9 are defined
    EXPECT_EQ(candidate_properties(Candidate::Learned, s, 20, 4, 1).positions_checked, 10);
}

// Binary, 4 dims, 0 … 19: 16 … 19 collide with 0 … 3 → 4 pairs, the first (0, 16). Over 0 … 39:
// residues 0 … 7 appear 3 times (3 pairs each), 8 … 15 twice (1 each) → 24 + 8 = 32. Decimal,
// 2 dims, 0 … 149: 100 … 149 collide with 0 … 49 → 50 pairs, the first (0, 100).
TEST(CandidateProperties, Collisions) {
    const CandidateSettings s = make_settings(512, 10);
    const CandidateProperties binary = candidate_properties(Candidate::Binary, s, 20, 4, 1);
    EXPECT_EQ(binary.collisions_exact, 4);
    EXPECT_EQ(binary.collisions_near, 4);
    EXPECT_EQ(binary.first_collision_p, 0);
    EXPECT_EQ(binary.first_collision_q, 16);
    EXPECT_EQ(candidate_properties(Candidate::Binary, s, 40, 4, 1).collisions_exact, 32);
    const CandidateProperties decimal = candidate_properties(Candidate::Decimal, s, 150, 2, 1);
    EXPECT_EQ(decimal.collisions_exact, 50);
    EXPECT_EQ(decimal.first_collision_p, 0);
    EXPECT_EQ(decimal.first_collision_q, 100);
    // Never equal: p itself, p/L, r + 0.02p; sin + cos (over 1024 positions no shift k is
    // within 1e-6 of a multiple of 2π in every pair: 710 rad, the best, is 6e-5 off).
    for (Candidate c : {Candidate::RawIndex, Candidate::IndexOverLength, Candidate::RandomIncrement,
                        Candidate::SinCos}) {
        const CandidateProperties p = candidate_properties(c, s, 1024, 16, 1);
        EXPECT_EQ(p.collisions_exact, 0) << candidate_id(c);
        EXPECT_EQ(p.collisions_near, 0) << candidate_id(c);
        EXPECT_EQ(p.first_collision_p, -1) << candidate_id(c);
        EXPECT_EQ(p.first_collision_q, -1) << candidate_id(c);
    }
}

// |PE(5) at L = 10 − PE(5) at L = 100| = |0.5 − 0.05| = 0.45 for index / length, whatever the
// settings' own length; every other candidate ignores L at position 5.
TEST(CandidateProperties, LengthChange) {
    for (int length : {10, 50}) {
        const CandidateSettings s = make_settings(512, length);
        EXPECT_NEAR(candidate_properties(Candidate::IndexOverLength, s, 20, 4, 1).length_change,
                    0.45, 1e-15);
        for (Candidate c : kAllCandidates) {
            if (c == Candidate::IndexOverLength) continue;
            EXPECT_LE(candidate_properties(c, s, 20, 4, 1).length_change, kSameAcrossLengthsLimit)
                << candidate_id(c);
        }
    }
}

TEST(CandidateProperties, Smoothness) {
    const CandidateSettings s = make_settings(512, 10);
    // sin + cos: each pair steps along its circle by the chord 2·sin(ω_i/2) whatever p is, so the
    // largest step over 16 dims is sqrt(Σ_{i<8} (2 sin(ω_i/2))²) ≈ 2.42698.
    long double chord2 = 0;
    for (int i = 0; i < 8; ++i) {
        const long double chord = 2 * sinl(reference::omega(i, 512, 10000) / 2);
        chord2 += chord * chord;
    }
    const CandidateProperties sc = candidate_properties(Candidate::SinCos, s, 256, 16, 1);
    EXPECT_NEAR(sc.largest_step, static_cast<double>(sqrtl(chord2)), 1e-12);
    EXPECT_NEAR(sc.largest_step, 2.42698, 1e-5);
    EXPECT_GT(sc.rms_distance, 0.0);
    EXPECT_DOUBLE_EQ(sc.smoothness, sc.largest_step / sc.rms_distance);
    // Binary, 8 dims, 0 … 255: 127 → 128 flips all 8 bits: sqrt(8). The squared distance of two
    // codes is their Hamming distance, mean 131072 / 32640 over p < q, so smoothness ≈ 1.41.
    const CandidateProperties bin = candidate_properties(Candidate::Binary, s, 256, 8, 1);
    EXPECT_NEAR(bin.largest_step, std::sqrt(8.0), 1e-15);
    EXPECT_GT(bin.smoothness, 1.0);
    // Raw index, 4 dims: every step is sqrt(4) = 2; 0 … 99 spread far wider (RMS ≈ 2·100/√6).
    const CandidateProperties raw = candidate_properties(Candidate::RawIndex, s, 100, 4, 1);
    EXPECT_NEAR(raw.largest_step, 2.0, 1e-15);
    EXPECT_LT(raw.smoothness, 0.05);
    EXPECT_DOUBLE_EQ(raw.smoothness, raw.largest_step / raw.rms_distance);
    // Raw index, 1 dim, 0 … 3: distances over p < q are 1, 2, 3, 1, 2, 1 → RMS sqrt(20/6).
    EXPECT_NEAR(candidate_properties(Candidate::RawIndex, s, 4, 1, 1).rms_distance,
                std::sqrt(20.0 / 6.0), 1e-12);
    // Random + increment, 16 dims: every step is 0.02·sqrt(16) = 0.08.
    EXPECT_NEAR(candidate_properties(Candidate::RandomIncrement, s, 100, 16, 1).largest_step, 0.08,
                1e-12);
}

TEST(CandidateProperties, ShiftResidual) {
    const CandidateSettings s = make_settings(512, 10);
    // sin + cos: PE(p + k) is PE(p) rotated pair by pair, an exact linear map.
    const CandidateProperties sc = candidate_properties(Candidate::SinCos, s, 64, 16, 3);
    EXPECT_LT(sc.shift_residual, 1e-9);
    EXPECT_EQ(sc.shift_pairs, 61); // p = 0 … 60
    EXPECT_EQ(sc.shift_k, 3);
    // Raw index, 1 dim: no m maps p to p + 3 (no intercept): ≈ 0.0406 by the closed form.
    const CandidateProperties raw = candidate_properties(Candidate::RawIndex, s, 64, 1, 3);
    EXPECT_EQ(raw.shift_pairs, 61);
    EXPECT_NEAR(raw.shift_residual, one_dim_shift_residual(61, 3), 1e-9);
    EXPECT_NEAR(raw.shift_residual, 0.0406, 1e-4);
    EXPECT_GT(candidate_properties(Candidate::RawIndex, s, 64, 4, 3).shift_residual, 1e-3);
    // Index / length at L = 10, k = 2: pairs (p, p + 2) with p + 2 < 10 → p = 0 … 7; p/10 scales
    // the same fit as the raw index.
    const CandidateProperties iol = candidate_properties(Candidate::IndexOverLength, s, 20, 1, 2);
    EXPECT_EQ(iol.shift_pairs, 8);
    EXPECT_NEAR(iol.shift_residual, one_dim_shift_residual(8, 2), 1e-9);
    // Binary, 8 dims, 0 … 255, k = 1: exact least squares in rational arithmetic (Python
    // fractions, normal equations over the 255 pairs) gives 0.4411849982136222.
    EXPECT_NEAR(candidate_properties(Candidate::Binary, s, 256, 8, 1).shift_residual,
                0.4411849982136222, 1e-9);
    // Learned with L = 10 over 20 positions: 9 pairs ≤ 16 dims, so the test says nothing.
    const CandidateProperties learned = candidate_properties(Candidate::Learned, s, 20, 16, 1);
    EXPECT_EQ(learned.shift_pairs, 9);
    EXPECT_TRUE(std::isnan(learned.shift_residual));
}

TEST(CandidateProperties, DefinedBeyondLength) {
    const CandidateSettings s = make_settings(512, 10);
    for (Candidate c : kAllCandidates) {
        const bool expected = c != Candidate::Learned && c != Candidate::IndexOverLength;
        EXPECT_EQ(candidate_properties(c, s, 20, 4, 1).defined_beyond_length, expected)
            << candidate_id(c);
    }
}

// ‖PE(pos)‖ over all 512 dims.
TEST(CandidateNorm, OverAllDims) {
    const CandidateSettings s = make_settings(512, 10);
    const double root512 = std::sqrt(512.0);
    EXPECT_NEAR(candidate_norm(Candidate::RawIndex, 100, s), 100 * root512, 1e-9);
    for (double pos : {0.0, 7.0, 1234.5}) // 256 pairs of sin² + cos² = 1
        EXPECT_NEAR(candidate_norm(Candidate::SinCos, pos, s), 16.0, 1e-12) << pos;
    EXPECT_NEAR(candidate_norm(Candidate::IndexOverLength, 5, s), 0.5 * root512, 1e-12);
    EXPECT_NEAR(candidate_norm(Candidate::Binary, 5, s), std::sqrt(2.0), 1e-15);    // 0b101
    EXPECT_NEAR(candidate_norm(Candidate::Decimal, 42, s), std::sqrt(20.0), 1e-15); // 4 + 16
    EXPECT_EQ(candidate_norm(Candidate::Learned, 10, s), -1.0);
    EXPECT_EQ(candidate_norm(Candidate::Learned, 50, s), -1.0);
    EXPECT_EQ(candidate_norm(Candidate::IndexOverLength, 10, s), -1.0);
    const double learned = candidate_norm(Candidate::Learned, 3, s);
    EXPECT_GT(learned, 0.0);
    EXPECT_LE(learned, root512);
    EXPECT_THROW(candidate_norm(Candidate::SinCos, std::nan(""), s), InvalidArgument);
    EXPECT_THROW(candidate_norm(Candidate::SinCos, 1, make_settings(7)), InvalidArgument);
}

TEST(CandidateProperties, BadInputThrows) {
    const CandidateSettings s = make_settings(512, 10);
    for (Candidate c : kAllCandidates) {
        EXPECT_THROW(candidate_properties(c, s, kMaxCheckedPositions + 1, 4, 1), InvalidArgument);
        EXPECT_THROW(candidate_properties(c, s, 1, 4, 1), InvalidArgument);
        EXPECT_THROW(candidate_properties(c, s, 20, 0, 1), InvalidArgument);
        EXPECT_THROW(candidate_properties(c, s, 20, kMaxCheckedDims + 1, 1), InvalidArgument);
        EXPECT_THROW(candidate_properties(c, make_settings(8), 20, 9, 1), InvalidArgument);
        EXPECT_THROW(candidate_properties(c, s, 20, 4, 0), InvalidArgument);
        EXPECT_THROW(candidate_properties(c, s, 20, 4, 20), InvalidArgument);
        EXPECT_THROW(candidate_properties(c, make_settings(7), 20, 4, 1), InvalidArgument);
        CandidateSettings bad_base = s;
        bad_base.base = 1;
        EXPECT_THROW(candidate_properties(c, bad_base, 20, 4, 1), InvalidArgument);
        EXPECT_NO_THROW(candidate_properties(c, s, 2, 1, 1));
    }
}

// The closest pair is the brute-force minimum over all pairs of the largest per-dim gap,
// recomputed here from the formulas (sin + cos at d 2: points on one circle; random + step; and
// an encoding with exact collisions, where the closest distance is 0).
TEST(CandidateProperties, ClosestPairIsTheBruteForceMinimum) {
    CandidateSettings settings;
    settings.d_model = 2;
    const int n = 700;
    double best = 1e9;
    int best_p = -1, best_q = -1;
    for (int p = 0; p < n; ++p)
        for (int q = p + 1; q < n; ++q) {
            const double gap =
                std::max(std::abs(std::sin(p) - std::sin(q)), std::abs(std::cos(p) - std::cos(q)));
            if (gap < best) best = gap, best_p = p, best_q = q;
        }
    const CandidateProperties m = candidate_properties(Candidate::SinCos, settings, n, 2, 1);
    EXPECT_NEAR(m.closest_distance, best, 1e-12);
    EXPECT_EQ(m.closest_p, best_p);
    EXPECT_EQ(m.closest_q, best_q);
    // random + 0.02 per position: every neighbour is 0.02 apart in every dim, nothing closer.
    settings.d_model = 8;
    EXPECT_NEAR(
        candidate_properties(Candidate::RandomIncrement, settings, 100, 8, 1).closest_distance,
        0.02, 1e-12);
    // Binary with 4 bits over 20 positions: 16 equals 0, so the closest pair is (0, 16) at 0.
    const CandidateProperties binary = candidate_properties(Candidate::Binary, settings, 20, 4, 1);
    EXPECT_EQ(binary.closest_distance, 0.0);
    EXPECT_EQ(binary.closest_p, 0);
    EXPECT_EQ(binary.closest_q, 16);
}

// The linear-shift residual is the least-squares minimum even when X is rank-deficient, as
// numpy.linalg.lstsq finds it (tests/reference/lstsq_residual.py, run here): every candidate at
// sizes where dims outrun what its rows span (binary's high bits are all 0, decimal's digits
// repeat, sinusoids at d_model 2), and synthetic matrices with repeated, zero and constant
// columns. A pivoting QR with a looser rank threshold once gave 0.06876 where 0.06658 is the
// minimum.
TEST(Candidates, ShiftResidualIsTheLeastSquaresMinimumAsNumpyFindsIt) {
    struct Case {
        std::vector<double> x, y;
        int rows, x_cols, y_cols;
        double ours;
        std::string name;
    };
    std::vector<Case> cases;
    for (int c = 0; c < kCandidateCount; ++c)
        for (const auto& [positions, dims, shift, d_model] : std::vector<std::array<int, 4>>{
                 {64, 8, 1, 8}, {64, 16, 3, 16}, {40, 2, 5, 2}, {200, 12, 7, 12}}) {
            const Candidate candidate = static_cast<Candidate>(c);
            CandidateSettings settings;
            settings.d_model = d_model;
            settings.length = positions;
            const CandidateProperties properties =
                candidate_properties(candidate, settings, positions, dims, shift);
            Case one{{},
                     {},
                     0,
                     dims,
                     dims,
                     properties.shift_residual,
                     std::string(candidate_id(candidate)) + " positions " +
                         std::to_string(positions) + " dims " + std::to_string(dims)};
            std::vector<double> row(static_cast<std::size_t>(dims)),
                shifted(static_cast<std::size_t>(dims));
            for (int p = 0; p + shift < positions; ++p)
                if (candidate_encode(candidate, p, settings, dims, row.data()) &&
                    candidate_encode(candidate, p + shift, settings, dims, shifted.data())) {
                    one.x.insert(one.x.end(), row.begin(), row.end());
                    one.y.insert(one.y.end(), shifted.begin(), shifted.end());
                    ++one.rows;
                }
            if (one.rows <= dims) {
                EXPECT_TRUE(std::isnan(properties.shift_residual)) << one.name;
                continue;
            }
            cases.push_back(std::move(one));
        }
    // Synthetic: rank 2 in 6 columns (a product of random factors), a repeated column, a zero
    // column and a constant column.
    std::uint64_t state = 12345;
    const auto next = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
    };
    for (int round = 0; round < 4; ++round) {
        const int rows = 30, cols = 6;
        std::vector<double> a(rows * 2), b(2 * cols), x(rows * cols), y(rows * cols);
        for (double& v : a)
            v = next();
        for (double& v : b)
            v = next();
        for (int r = 0; r < rows; ++r)
            for (int j = 0; j < cols; ++j) {
                x[r * cols + j] = a[r * 2] * b[j] + a[r * 2 + 1] * b[cols + j];
                y[r * cols + j] = next();
            }
        if (round >= 1)
            for (int r = 0; r < rows; ++r)
                x[r * cols + 1] = x[r * cols + 0]; // a repeated column
        if (round >= 2)
            for (int r = 0; r < rows; ++r)
                x[r * cols + 2] = 0, x[r * cols + 3] = 1.0; // zero and constant columns
        if (round == 3)
            for (int r = 0; r < rows; ++r)
                x[r * cols + 4] = 1e-8 * next() + x[r * cols + 5]; // nearly dependent, kept
        cases.push_back({x, y, rows, cols, cols,
                         relative_least_squares_residual(x, y, rows, cols, cols),
                         "synthetic " + std::to_string(round)});
    }
    // Hand the cases to NumPy.
    const std::string input = ::testing::TempDir() + "/pelab_lstsq_cases.json";
    {
        std::FILE* file = std::fopen(input.c_str(), "w");
        ASSERT_NE(file, nullptr);
        std::fputs("[", file);
        for (std::size_t k = 0; k < cases.size(); ++k) {
            const Case& one = cases[k];
            const auto matrix = [&](const std::vector<double>& m, int cols) {
                std::fputs("[", file);
                for (int r = 0; r < one.rows; ++r) {
                    std::fputs(r ? ",[" : "[", file);
                    for (int j = 0; j < cols; ++j)
                        std::fprintf(file, "%s%.17g", j ? "," : "", m[r * cols + j]);
                    std::fputs("]", file);
                }
                std::fputs("]", file);
            };
            std::fputs(k ? ",{\"x\":" : "{\"x\":", file);
            matrix(one.x, one.x_cols);
            std::fputs(",\"y\":", file);
            matrix(one.y, one.y_cols);
            std::fputs("}", file);
        }
        std::fputs("]", file);
        std::fclose(file);
    }
    // Debian's python3, which python3-numpy serves (another python3 may come first on PATH).
    const std::string command = "/usr/bin/python3 " + std::string(pelab_test::SourceDir()) +
                                "/tests/reference/lstsq_residual.py " + input;
    std::FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::vector<double> numpy;
    char line[128];
    while (std::fgets(line, sizeof line, pipe))
        numpy.push_back(std::strtod(line, nullptr));
    ASSERT_EQ(::pclose(pipe), 0) << "python3 with NumPy is needed (scripts/deps.sh test)";
    std::remove(input.c_str());
    ASSERT_EQ(numpy.size(), cases.size());
    int rank_deficient_seen = 0;
    // Agreement to 1e-5 of the value: near the rank threshold the two SVDs (LAPACK's gelsd and
    // Eigen's BDCSVD) may keep or drop a direction of singular value ~1e-14·σ_max, which moves
    // the residual of the ill-conditioned sin-only rows by ~1e-6 of its value; the rank rule's
    // error this guards against was 3 %.
    for (std::size_t k = 0; k < cases.size(); ++k) {
        EXPECT_NEAR(cases[k].ours, numpy[k], 1e-9 + 1e-5 * numpy[k]) << cases[k].name;
        rank_deficient_seen += numpy[k] > 1e-6;
    }
    EXPECT_GT(rank_deficient_seen, 5); // the sweep reaches cases that do not fit exactly
}
