// The alternatives panel's tabs of RoPE's relatives, against their definitions written out here
// (long double) over a sweep of scenes: xPos (what each pair keeps at m − n, where its scales
// leave float32, which sentence it says for keys before, at and after the query) and Partial
// (which pairs partial rotary and p-RoPE turn, and how far their scores are from RoPE's).
#include "headless_fixture.h"
#include "io/scene.h"
#include "panels/alternatives/alternatives_cope.h"
#include "panels/alternatives/alternatives_fire.h"
#include "panels/alternatives/alternatives_kerple.h"
#include "panels/alternatives/alternatives_nope.h"
#include "panels/alternatives/alternatives_partial.h"
#include "panels/alternatives/alternatives_xpos.h"
#include "widgets/number_text.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

using namespace pelab;

namespace {

class RopeFamilyTabs : public HeadlessApp {
protected:
    RopeFamilyTabs() : HeadlessApp(ImVec2(1920, 1080), /*record=*/true) {}
    bool Recorded(const std::string& name) const { return app.recorder.rects.count(name) > 0; }
    bool Contains(const std::string& text, const std::string& part) const {
        return text.find(part) != std::string::npos;
    }
};

// One tab's readouts (the panel's hold every tab's: the side-by-side table's among them).
nlohmann::json TabReadouts(const AlternativesPanel& panel, const AppState& state,
                           const std::string& id) {
    const std::vector<AlternativesTabInfo>& tabs = AlternativesTabs();
    for (std::size_t t = 0; t < tabs.size(); ++t)
        if (tabs[t].id == id) return panel.parts[t]->Readouts(panel, state)[id];
    return nullptr;
}

std::string Scene(const std::string& tab, int d, double base, double m, double n,
                  const std::string& more) {
    return R"({"alternatives_tab": ")" + tab + R"(", "d_model": )" + std::to_string(d) +
           R"(, "base": )" + std::to_string(base) + R"(, "pos_a": )" + std::to_string(m) +
           R"(, "pos_b": )" + std::to_string(n) + more + "}";
}

// A number as ShownNumber writes it back to a double: "0.9996", "4.79×10⁻⁴²".
double ReadShown(const std::string& shown) {
    char* end = nullptr;
    const double mantissa = std::strtod(shown.c_str(), &end);
    const std::string rest(end);
    const std::string times = "×10";
    if (rest.rfind(times, 0) != 0) return mantissa;
    static const char* const kDigits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::size_t at = times.size();
    int sign = 1, exponent = 0;
    if (rest.compare(at, 3, "⁻") == 0) sign = -1, at += 3;
    for (bool more = true; more;) {
        more = false;
        for (int digit = 0; digit < 10; ++digit) {
            const std::string sup = kDigits[digit];
            if (rest.compare(at, sup.size(), sup) == 0) {
                exponent = exponent * 10 + digit, at += sup.size(), more = true;
                break;
            }
        }
    }
    return mantissa * std::pow(10.0, sign * exponent);
}

} // namespace

TEST_F(RopeFamilyTabs, XposKeepsWhatItsDefinitionSays) {
    auto& panel = Get<AlternativesPanel>("alternatives");
    int sentences_before = 0, sentences_at = 0, sentences_after = 0, overflowed = 0;
    for (const int d : {2, 4, 64, 512})
        for (const double gamma : {0.05, 0.4, 2.0})
            for (const double scale_base : {16.0, 512.0})
                for (const auto& [m, n] :
                     {std::pair{600.0, 100.0}, std::pair{60.0, 50.0}, std::pair{50.0, 50.0},
                      std::pair{3.0, 50.0}, std::pair{1e6, 0.0}, std::pair{0.0, 1e6}}) {
                    ASSERT_EQ(app.scene.Apply(Scene(
                                  "xpos", d, 10000, m, n,
                                  ", \"xpos_gamma\": " + std::to_string(gamma) +
                                      ", \"xpos_scale_base\": " + std::to_string(scale_base))),
                              "");
                    Present("alternatives");
                    ASSERT_TRUE(Recorded("alternatives.xpos_pairs"));
                    const nlohmann::json r = TabReadouts(panel, state, "xpos");
                    // Each pair's factor, infinite (null in JSON) past the largest double.
                    const std::vector<double> zeta = r["zeta"];
                    ASSERT_EQ(r["kept"].size(), static_cast<std::size_t>(d / 2));
                    std::vector<double> kept;
                    for (int i = 0; i < d / 2; ++i) {
                        const long double z = (2.0L * i / d + gamma) / (1 + gamma);
                        EXPECT_NEAR(zeta[i], static_cast<double>(z), 1e-15);
                        const long double expected = powl(z, (m - n) / scale_base);
                        if (expected > DBL_MAX) {
                            EXPECT_TRUE(r["kept"][i].is_null() ||
                                        std::isinf(r["kept"][i].get<double>()))
                                << "infinite (null once written out)";
                            kept.push_back(INFINITY);
                            continue;
                        }
                        kept.push_back(r["kept"][i].get<double>());
                        // ζ's rounding to double grows with the power (up to 6·10⁴ here).
                        EXPECT_NEAR(kept.back(), static_cast<double>(expected),
                                    1e-9 * std::max(1.0, kept.back()));
                    }
                    const bool overflows = std::isinf(kept.front());
                    EXPECT_EQ(r["overflows"].get<bool>(), overflows);
                    EXPECT_EQ(r["score"].is_null(), overflows);
                    // The limits: the first position where ζ_0^(p/B) < FLT_MIN, ζ_0^(−p/B) >
                    // FLT_MAX, from the logarithms.
                    const long double log_zeta = logl(gamma / (1.0L + gamma));
                    EXPECT_EQ(
                        r["q_subnormal_from"].get<double>(),
                        static_cast<double>(floorl(scale_base * logl(FLT_MIN) / log_zeta) + 1));
                    EXPECT_EQ(
                        r["k_overflow_from"].get<double>(),
                        static_cast<double>(floorl(scale_base * logl(FLT_MAX) / -log_zeta) + 1));
                    const std::string text = r["sentence"];
                    const nlohmann::json& claims = r["claims"];
                    if (!overflows) {
                        EXPECT_EQ(claims["fastest_kept"].get<double>(), kept.front());
                    }
                    if (!std::isinf(kept.back())) {
                        EXPECT_EQ(claims["slowest_kept"].get<double>(), kept.back());
                    }
                    EXPECT_FALSE(Contains(text, "inf")) << text;
                    EXPECT_FALSE(Contains(text, "nan")) << text;
                    EXPECT_TRUE(Contains(text, ShownNumber(r["q_subnormal_from"].get<double>())));
                    if (m > n) {
                        ++sentences_before;
                        // Each share said is below 1 as printed (0.9996, never "1"), and is
                        // the share kept to the digits printed.
                        const auto said_after = [&](const std::string& words) {
                            const std::size_t at = text.find(words);
                            EXPECT_NE(at, std::string::npos) << words << ": " << text;
                            return at == std::string::npos
                                       ? std::string()
                                       : text.substr(at + words.size(),
                                                     text.find(' ', at + words.size()) - at -
                                                         words.size());
                        };
                        std::vector<std::pair<std::string, double>> said = {
                            {said_after(d == 2 ? "the one pair keeps " : "the fastest pair keeps "),
                             kept.front()}};
                        if (d > 2) said.push_back({said_after(" and the slowest "), kept.back()});
                        for (const auto& [shown, value] : said) {
                            const double read = ReadShown(shown);
                            EXPECT_LT(read, 1.0) << shown << ": " << text;
                            EXPECT_NEAR(read, value, 5e-3 * value + 1e-300) << text;
                        }
                        EXPECT_LT(kept.front(), 1.0);
                    } else if (m == n) {
                        ++sentences_at;
                        EXPECT_TRUE(Contains(text, "every pair keeps all of it")) << text;
                    } else {
                        ++sentences_after;
                        EXPECT_TRUE(Contains(text, "above 1")) << text;
                        EXPECT_GT(kept.front(), 1.0);
                        EXPECT_EQ(Contains(text, "past the largest double"), overflows) << text;
                        overflowed += overflows ? 1 : 0;
                    }
                }
    EXPECT_GT(sentences_before, 0);
    EXPECT_GT(sentences_at, 0);
    EXPECT_GT(sentences_after, 0);
    EXPECT_GT(overflowed, 0);
}

TEST_F(RopeFamilyTabs, PartialRotaryAndPRopeTurnThePairsTheirDefinitionsSay) {
    auto& panel = Get<AlternativesPanel>("alternatives");
    for (const int d : {2, 4, 8, 64, 128})
        for (const double fraction : {0.0, 0.1, 0.25, 0.4, 1.0})
            for (const double p : {0.0, 0.5, 0.75, 1.0}) {
                ASSERT_EQ(
                    app.scene.Apply(Scene("partial", d, 10000, 17, 5,
                                          ", \"partial_fraction\": " + std::to_string(fraction) +
                                              ", \"partial_p\": " + std::to_string(p))),
                    "");
                Present("alternatives");
                ASSERT_TRUE(Recorded("alternatives.partial_wavelengths"));
                const nlohmann::json r = TabReadouts(panel, state, "partial");
                // GPT-NeoX: rotary_ndims = int(head_size · rotary_pct), here rounded down to
                // even; p-RoPE: ⌊p · d/2⌋ pairs keep turning.
                int rotary = static_cast<int>(d * fraction);
                rotary -= rotary % 2;
                const int pairs = d / 2, p_turned = static_cast<int>(p * pairs);
                EXPECT_EQ(r["rotary_dims"], rotary) << d << " " << fraction;
                EXPECT_EQ(r["partial_turned"], rotary / 2);
                EXPECT_EQ(r["p_turned"], p_turned) << d << " " << p;
                const std::string text = r["sentence"];
                const nlohmann::json& claims = r["claims"];
                EXPECT_EQ(Contains(text, "turns no pair"), rotary == 0) << text;
                EXPECT_EQ(Contains(text, "p-RoPE with p = " + ShownNumber(p, 3) +
                                             " keeps every "
                                             "pair turning: it is RoPE"),
                          p_turned == pairs)
                    << text;
                EXPECT_EQ(Contains(text, "turns every dimension at RoPE's own frequencies"),
                          rotary == d)
                    << text;
                EXPECT_EQ(Contains(text, "stops every pair"), p_turned == 0) << text;
                // Both are RoPE when everything turns, and their wavelengths are RoPE's then.
                if (p_turned == pairs) {
                    EXPECT_EQ(claims["p_gap"].get<double>(), 0.0);
                }
                if (rotary == d) {
                    EXPECT_EQ(claims["partial_gap"].get<double>(), 0.0);
                }
                if (rotary >= 2) {
                    EXPECT_NEAR(
                        claims["partial_longest"].get<double>(),
                        static_cast<double>(2 * M_PIl * powl(10000.0L, (rotary - 2.0L) / rotary)),
                        1e-9 * claims["partial_longest"].get<double>());
                }
                if (p_turned > 0) {
                    EXPECT_NEAR(
                        claims["p_longest"].get<double>(),
                        static_cast<double>(2 * M_PIl * powl(10000.0L, 2.0L * (p_turned - 1) / d)),
                        1e-9 * claims["p_longest"].get<double>());
                }
            }
}

// Partial's pairing, from the definitions: GPT-NeoX's rotate_half turns dimension j < r with
// j ± r/2 at base^(−2(j mod r/2)/r) (r = d for RoPE and p-RoPE, whose pairs past ⌊p·d/2⌋ stay
// still), interleaved pairs 2i with 2i + 1. Each gap is the largest |q·k − RoPE's q·k| over
// m − n = 0 … 256, with RoPE paired the same way.
TEST_F(RopeFamilyTabs, PartialPairsTheDimensionsAsItsSentenceSays) {
    auto& panel = Get<AlternativesPanel>("alternatives");
    // q·k with the first `rotary` dimensions turned (pairs at or past `kept` still), in long
    // double.
    const auto score = [](const std::vector<double>& q, const std::vector<double>& k, int rotary,
                          int kept, bool half_split, double base, int distance) {
        const int d = static_cast<int>(q.size()), half = rotary / 2;
        long double sum = 0;
        for (int j = 0; j < d; ++j) {
            if (j >= rotary) {
                sum += static_cast<long double>(q[j]) * k[j];
                continue;
            }
            const int pair_index = half_split ? j % half : j / 2;
            const bool first = half_split ? j < half : j % 2 == 0;
            const int partner =
                half_split ? (first ? j + half : j - half) : (first ? j + 1 : j - 1);
            const long double angle =
                pair_index < kept ? distance * powl(base, -2.0L * pair_index / rotary) : 0.0L;
            const long double partner_q = first ? -q[partner] : q[partner];
            sum += (q[j] * cosl(angle) + partner_q * sinl(angle)) * k[j];
        }
        return sum;
    };
    int checked = 0;
    for (const bool typed : {true, false})
        for (const int d : {4, 8, 64, 128})
            for (const double base : {10000.0, 500000.0})
                for (const bool half_split : {true, false}) {
                    if (typed && d != 4) continue; // the typed q and k have 4 numbers
                    const double fraction = 0.25, p = 0.75;
                    ASSERT_EQ(app.scene.Apply(Scene(
                                  "partial", d, base, 17, 5,
                                  std::string(", \"partial_fraction\": 0.25, \"partial_p\": 0.75, "
                                              "\"rope_typed\": ") +
                                      (typed ? "true" : "false") + ", \"partial_half_split\": " +
                                      (half_split ? "true" : "false"))),
                              "");
                    Present("alternatives");
                    ASSERT_TRUE(Recorded("alternatives.partial_half_split"));
                    const nlohmann::json r = TabReadouts(panel, state, "partial");
                    const std::vector<double> q = panel.RopeQuery(state), k = panel.RopeKey(state);
                    ASSERT_EQ(q.size(),
                              static_cast<std::size_t>(typed ? 4 : d)); // "1, 0, 0.5, 0.5"
                    const int n = static_cast<int>(q.size());
                    const int rotary = static_cast<int>(n * fraction) / 2 * 2;
                    const int kept = static_cast<int>(p * n / 2);
                    long double partial_gap = 0, p_gap = 0;
                    for (int distance = 0; distance <= 256; ++distance) {
                        const long double rope = score(q, k, n, n / 2, half_split, base, distance);
                        partial_gap = std::max(
                            partial_gap,
                            fabsl(score(q, k, rotary, rotary / 2, half_split, base, distance) -
                                  rope));
                        p_gap = std::max(
                            p_gap, fabsl(score(q, k, n, kept, half_split, base, distance) - rope));
                    }
                    const nlohmann::json& claims = r["claims"];
                    EXPECT_NEAR(claims["partial_gap"].get<double>(),
                                static_cast<double>(partial_gap), 1e-9 * (1 + partial_gap))
                        << "d " << n << ", base " << base << ", half-split " << half_split;
                    EXPECT_NEAR(claims["p_gap"].get<double>(), static_cast<double>(p_gap),
                                1e-9 * (1 + p_gap));
                    EXPECT_EQ(claims["half_split"].get<double>(), half_split ? 1.0 : 0.0);
                    const std::string text = r["sentence"];
                    EXPECT_EQ(Contains(text, "rotate_half pairs them: i with i + " +
                                                 std::to_string(rotary / 2)),
                              half_split && rotary > 0)
                        << text;
                    EXPECT_EQ(Contains(text, "pair interleaved, (2i, 2i + 1)"), !half_split)
                        << text;
                    EXPECT_TRUE(Contains(text, ShownNumber(static_cast<double>(partial_gap), 3)))
                        << text;
                    ++checked;
                }
    EXPECT_EQ(checked, 4 + 16);
}

// Item 10 of issue 59: the shared pos A 3, pos B 50 put the key after the query, where xPos,
// FIRE and CoPE are not defined (masked, or past CoPE's text). A tab the person opens moves to
// a pair it is defined for; a scene that names the tab keeps its positions and the exception's
// sentence; and moving pos B past the query afterwards brings that sentence back.
TEST_F(RopeFamilyTabs, CausalTabsOpenOnAKeyBeforeTheQuery) {
    auto& panel = Get<AlternativesPanel>("alternatives");
    struct Case {
        const char* id;
        const char* exception; ///< a phrase of the sentence for a key after the query
    };
    for (const Case& each :
         {Case{"xpos", "the key comes after the query"}, Case{"fire", "is after the query"},
          Case{"cope", "is past the text's"}}) {
        ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "rope", "pos_a": 3, "pos_b": 50})"), "");
        Present("alternatives");
        ASSERT_TRUE(Recorded(std::string("alternatives.tab_") + each.id)) << each.id;
        Click(std::string("alternatives.tab_") + each.id);
        Frame();
        ASSERT_EQ(panel.tab, each.id);
        std::string text = TabReadouts(panel, state, each.id)["sentence"];
        EXPECT_FALSE(Contains(text, each.exception)) << each.id << ": " << text;
        if (std::string(each.id) == "cope") {
            // pos A's token is the key: 3 whole tokens from the start, before the query.
            EXPECT_EQ(state.pos_b, 3.0);
            EXPECT_GT(TabReadouts(panel, state, "cope")["claims"]["distance"].get<double>(), 0);
        } else {
            EXPECT_EQ(state.pos_a, 50.0) << each.id;
            EXPECT_EQ(state.pos_b, 3.0) << each.id;
        }
        // Back to the exception by hand: the tab does not move the positions again.
        state.pos_b = 80;
        Frame();
        text = TabReadouts(panel, state, each.id)["sentence"].get<std::string>();
        EXPECT_TRUE(Contains(text, each.exception)) << each.id << ": " << text;
        EXPECT_EQ(state.pos_b, 80.0);
        // A scene naming the tab is shown as written.
        ASSERT_EQ(app.scene.Apply(std::string(R"({"alternatives_tab": ")") + each.id +
                                  R"(", "pos_a": 3, "pos_b": 50})"),
                  "");
        Present("alternatives");
        Frame();
        EXPECT_EQ(state.pos_a, 3.0);
        EXPECT_EQ(state.pos_b, 50.0);
        text = TabReadouts(panel, state, each.id)["sentence"].get<std::string>();
        EXPECT_TRUE(Contains(text, each.exception)) << each.id << ": " << text;
    }
}

// The NoPE tab: iRoPE's layers without positions (the multiples of N up to the layers), q·k
// there (the plain dot product at every distance) against RoPE's range over 0 … 256 (turned here
// pair by pair), and the causal mask's count 1/(m + 1) at pos A in whole tokens; the stored
// collisions are core/scaling/rope_family_test's. Over d 2 … 512, layers 1 … 64, N 2 … 8, m from 0
// to 10⁶ (fractional too).
TEST_F(RopeFamilyTabs, NopeSaysWhichLayersAreBareAndWhatTheMaskCounts) {
    auto& panel = Get<AlternativesPanel>("alternatives");
    int none_bare = 0, fractional = 0;
    for (const int d : {2, 4, 64, 512})
        for (const int layers : {1, 4, 48})
            for (const int every : {2, 4, 8})
                for (const double m : {0.0, 7.5, 50000.0, 1e6}) {
                    ASSERT_EQ(
                        app.scene.Apply(Scene("nope", d, 10000, m, 0,
                                              ", \"nope_layers\": " + std::to_string(layers) +
                                                  ", \"nope_every\": " + std::to_string(every))),
                        "");
                    Present("alternatives");
                    ASSERT_TRUE(Recorded("alternatives.nope_shares"));
                    const nlohmann::json r = TabReadouts(panel, state, "nope");
                    std::vector<int> bare;
                    for (int layer = 1; layer <= layers; ++layer)
                        if (layer % every == 0) bare.push_back(layer);
                    EXPECT_EQ(r["nope_layers"].get<std::vector<int>>(), bare);
                    const std::vector<double> q = panel.RopeQuery(state), k = panel.RopeKey(state);
                    ASSERT_EQ(q.size(), static_cast<std::size_t>(d));
                    long double dot = 0;
                    for (int i = 0; i < d; ++i)
                        dot += static_cast<long double>(q[i]) * k[i];
                    EXPECT_NEAR(r["nope_score"].get<double>(), static_cast<double>(dot),
                                1e-12 * std::max(1.0L, fabsl(dot)));
                    // RoPE's range depends on q and k alone: computed once per d.
                    if (layers == 1 && every == 2 && m == 0) {
                        long double lowest = INFINITY, highest = -INFINITY;
                        for (int s = 0; s <= 256; ++s) {
                            long double score = 0;
                            for (int i = 0; i < d / 2; ++i) {
                                const long double angle = s * powl(10000.0L, -2.0L * i / d);
                                // q·R(s)k for the pair (2i, 2i + 1), the query s after the key.
                                score += (q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1]) *
                                             cosl(angle) +
                                         (q[2 * i] * k[2 * i + 1] - q[2 * i + 1] * k[2 * i]) *
                                             sinl(angle);
                            }
                            lowest = std::min(lowest, score), highest = std::max(highest, score);
                        }
                        const double scale = std::max(1.0, static_cast<double>(fabsl(highest)));
                        EXPECT_NEAR(r["rope_lowest"].get<double>(), static_cast<double>(lowest),
                                    1e-9 * scale);
                        EXPECT_NEAR(r["rope_highest"].get<double>(), static_cast<double>(highest),
                                    1e-9 * scale);
                    }
                    const long long position = static_cast<long long>(m); // whole tokens
                    EXPECT_EQ(r["position"].get<long long>(), position);
                    EXPECT_EQ(r["share"].get<double>(), 1.0 / static_cast<double>(position + 1));
                    EXPECT_EQ(r["next_share"].get<double>(),
                              1.0 / static_cast<double>(position + 2));
                    const std::string text = r["sentence"];
                    const nlohmann::json& claims = r["claims"];
                    EXPECT_EQ(claims["nope_layers"].get<int>(), static_cast<int>(bare.size()));
                    const auto whole = [](long long v) {
                        return ShownNumber(static_cast<double>(v));
                    };
                    EXPECT_TRUE(Contains(text, "at position " + whole(position))) << text;
                    EXPECT_TRUE(Contains(text, "sees " + whole(position + 1) +
                                                   (position == 0 ? " token," : " tokens,")))
                        << text;
                    // The two shares said with the digits that tell them apart.
                    const double share = 1.0 / (position + 1), next = 1.0 / (position + 2);
                    const auto [shown, shown_next] = ShownPair(share, next, 4);
                    EXPECT_NE(shown, shown_next);
                    EXPECT_TRUE(Contains(text, "1/" + whole(position + 1) + " = " + shown + ","))
                        << text;
                    EXPECT_TRUE(Contains(text, "1/" + whole(position + 2) + " = " + shown_next))
                        << text;
                    if (m != static_cast<double>(position)) {
                        ++fractional;
                        EXPECT_TRUE(Contains(text, "in whole tokens")) << text;
                    }
                    for (const char* format : {"bfloat16", "float16", "float32"})
                        EXPECT_TRUE(
                            Contains(text, ShownNumber(r["share_collision"][format].get<double>())))
                            << format << ": " << text;
                    if (bare.empty()) {
                        ++none_bare;
                        EXPECT_TRUE(Contains(text, "has none of them: iRoPE is RoPE there"))
                            << text;
                    } else {
                        EXPECT_TRUE(Contains(text, "at any distance")) << text;
                        EXPECT_TRUE(
                            Contains(text, bare.size() == 1
                                               ? "leaves layer " + std::to_string(bare[0]) + " of"
                                               : "leaves layers " + std::to_string(bare[0])))
                            << text;
                    }
                    EXPECT_FALSE(Contains(text, "inf")) << text;
                    EXPECT_FALSE(Contains(text, "nan")) << text;
                }
    EXPECT_GT(none_bare, 0);
    EXPECT_GT(fractional, 0);
}

// The CoPE tab: each key's position is the sum of the query's gates from the key to itself
// (σ(s) on the gate token, σ(−s) elsewhere, summed here in long double), the separators
// between counted here, and ⌈1 + eˢ⌉ tokens without one adding up to a position.
TEST_F(RopeFamilyTabs, CopeCountsTheGatesBackFromTheQuery) {
    auto& panel = Get<AlternativesPanel>("alternatives");
    int without = 0, at_query = 0, flat = 0;
    for (const char* text :
         {"a", "the dog . barks", "x . . y z . w", "no separator here at all", "a . b", ". . . ."})
        for (const char* separator : {".", "dog"})
            for (const double s : {0.0, 4.0, 20.0})
                for (const double key : {0.0, 1.0, 2.5, 100.0}) {
                    nlohmann::json scene = {{"alternatives_tab", "cope"},
                                            {"cope_text", text},
                                            {"cope_separator", separator},
                                            {"cope_sharpness", s},
                                            {"pos_b", key}};
                    ASSERT_EQ(app.scene.Apply(scene.dump()), "");
                    // Drawn once (the readouts compute what the tab draws, from the same cache).
                    if (!Recorded("alternatives.cope_gates")) Present("alternatives");
                    ASSERT_TRUE(Recorded("alternatives.cope_gates"));
                    const nlohmann::json r = TabReadouts(panel, state, "cope");
                    std::vector<std::string> tokens;
                    std::istringstream words(text);
                    for (std::string word; words >> word;)
                        tokens.push_back(word);
                    ASSERT_EQ(r["tokens"].get<std::vector<std::string>>(), tokens);
                    const int n = static_cast<int>(tokens.size());
                    const long double open = 1 / (1 + expl(-s)), closed = 1 / (1 + expl(s));
                    long double sum = 0;
                    std::vector<double> positions(static_cast<std::size_t>(n));
                    int separators = 0;
                    for (int j = n - 1; j >= 0; --j) {
                        const bool gate = tokens[static_cast<std::size_t>(j)] == separator;
                        separators += gate;
                        sum += gate ? open : closed;
                        positions[static_cast<std::size_t>(j)] = static_cast<double>(sum);
                        EXPECT_NEAR(r["positions"][j].get<double>(), positions[j], 1e-14);
                    }
                    const int k = std::min(static_cast<int>(key), n - 1);
                    EXPECT_EQ(r["key"].get<int>(), k);
                    int between = 0;
                    for (int j = k; j < n; ++j)
                        between += tokens[static_cast<std::size_t>(j)] == separator;
                    EXPECT_EQ(r["separators_between"].get<int>(), between);
                    const std::string sentence = r["sentence"];
                    EXPECT_TRUE(
                        Contains(sentence, "gets position " + ShownNumber(positions[k], 3)) ||
                        k == n - 1)
                        << sentence;
                    if (k == n - 1) {
                        ++at_query;
                        EXPECT_TRUE(Contains(sentence, "is the query itself")) << sentence;
                    } else {
                        // Only the parts that are there: no "0 ×", no "0 other tokens".
                        EXPECT_EQ(Contains(sentence, std::to_string(between) + " × \"" + separator +
                                                         "\" counted"),
                                  between > 0)
                            << sentence;
                        EXPECT_FALSE(Contains(sentence, "(0 ")) << sentence;
                        EXPECT_FALSE(Contains(sentence, " 0 other")) << sentence;
                        EXPECT_FALSE(Contains(sentence, " 1 other tokens")) << sentence;
                        EXPECT_TRUE(Contains(sentence, "token positions put it " +
                                                           std::to_string(n - 1 - k) + " back"))
                            << sentence;
                    }
                    if (separators == 0 && s > 0) {
                        ++without;
                        EXPECT_TRUE(Contains(sentence, "is not one of the text's tokens"))
                            << sentence;
                    }
                    if (s == 0) {
                        ++flat;
                        EXPECT_TRUE(Contains(sentence, "every gate is σ(0) = 0.5")) << sentence;
                        EXPECT_FALSE(Contains(sentence, "σ(−0)")) << sentence;
                    } else {
                        const double creep = static_cast<double>(ceill(1 + expl(s)));
                        EXPECT_EQ(r["creep"].get<double>(), creep);
                        EXPECT_TRUE(Contains(sentence, "and " + ShownNumber(creep) +
                                                           " count as a whole position"))
                            << sentence;
                        // The fewest small gates that pass one open gate: k·σ(−s) > σ(s).
                        const long double closed_gate = 1 / (1 + expl(s)),
                                          open_gate = 1 / (1 + expl(-s));
                        const long long fewest =
                            static_cast<long long>(floorl(open_gate / closed_gate)) + 1;
                        EXPECT_GT(fewest * closed_gate, open_gate);
                        EXPECT_EQ(r["claims"]["outweigh"].get<double>(),
                                  static_cast<double>(fewest));
                        EXPECT_LT((fewest - 1) * closed_gate, open_gate);
                        EXPECT_TRUE(Contains(sentence, ShownNumber(static_cast<double>(fewest)) +
                                                           " tokens without \"" + separator +
                                                           "\" already weigh more than one"))
                            << sentence;
                        // The two sums as printed read in the order the sentence says.
                        const std::size_t sum_at = sentence.find("gates sum to ");
                        const std::size_t gate_at = sentence.find("its gate is ");
                        ASSERT_NE(sum_at, std::string::npos) << sentence;
                        ASSERT_NE(gate_at, std::string::npos) << sentence;
                        EXPECT_GT(std::strtod(sentence.c_str() + sum_at + 13, nullptr),
                                  std::strtod(sentence.c_str() + gate_at + 12, nullptr))
                            << sentence;
                    }
                }
    EXPECT_GT(without, 0);
    EXPECT_GT(at_query, 0);
    EXPECT_GT(flat, 0);
}

// KERPLE: its log and power biases and ALiBi's with the log's slope at 0 (r₁·r₂), what one more
// token costs, and the biases at d = 1 000, from the definitions in long double.
TEST_F(RopeFamilyTabs, KerpleBiasesAreItsDefinitions) {
    auto& panel = Get<AlternativesPanel>("alternatives");
    for (const double r1 : {0.01, 1.0, 10.0})
        for (const double r2 : {0.01, 0.5, 1.0, 10.0})
            for (const double p : {0.01, 0.5, 1.0, 2.0})
                for (const auto& [m, n] : {std::pair{12.0, 4.0}, std::pair{0.0, 0.0},
                                           std::pair{3.0, 1e6}, std::pair{2.5, 0.0}}) {
                    const nlohmann::json scene = {{"alternatives_tab", "kerple"},
                                                  {"kerple_r1", r1},
                                                  {"kerple_r2", r2},
                                                  {"kerple_power", p},
                                                  {"pos_a", m},
                                                  {"pos_b", n}};
                    ASSERT_EQ(app.scene.Apply(scene.dump()), "");
                    if (!Recorded("alternatives.kerple_step")) Present("alternatives");
                    ASSERT_TRUE(Recorded("alternatives.kerple_step"));
                    const nlohmann::json r = TabReadouts(panel, state, "kerple");
                    const long double d = fabsl(static_cast<long double>(m) - n);
                    const auto close = [](double got, long double want) {
                        return std::abs(got - static_cast<double>(want)) <=
                               1e-12 * std::max(1.0L, fabsl(want));
                    };
                    EXPECT_TRUE(close(r["log_bias"], -r1 * log1pl(r2 * d))) << r.dump();
                    EXPECT_TRUE(close(r["power_bias"], -r1 * powl(d, p))) << r.dump();
                    EXPECT_TRUE(close(r["alibi_bias"], -r1 * r2 * d)) << r.dump();
                    EXPECT_TRUE(close(r["log_step"], r1 * (log1pl(r2 * (d + 1)) - log1pl(r2 * d))))
                        << r.dump();
                    EXPECT_TRUE(close(r["log_far"], -r1 * log1pl(r2 * 1000.0L))) << r.dump();
                    const std::string text = r["sentence"];
                    EXPECT_TRUE(Contains(text, "gives " + ShownNumber(r["log_bias"], 4))) << text;
                    EXPECT_TRUE(Contains(text, "d = |m − n| = " + ShownNumber(r["distance"])))
                        << text;
                    // Only the power form below p = 1 flattens; at 1 it is a line, above it
                    // steepens.
                    EXPECT_EQ(Contains(text, "flattens too"), p < 1) << text;
                    EXPECT_EQ(Contains(text, "straight line"), p == 1) << text;
                    // That line is the ALiBi line drawn (slope r₁·r₂) only when r₂ = 1.
                    if (p == 1) {
                        EXPECT_EQ(Contains(text, "the ALiBi line drawn, as r₂ = 1"), r2 == 1)
                            << text;
                    }
                    EXPECT_EQ(Contains(text, "steepens"), p > 1) << text;
                    // Flatter than ALiBi: at 1 000 the log bias is above ALiBi's once r₂ > 0.
                    EXPECT_GT(r["log_far"].get<double>(), r["alibi_far"].get<double>());
                    EXPECT_FALSE(Contains(text, "nan")) << text;
                    EXPECT_FALSE(Contains(text, "inf")) << text;
                }
}

// FIRE: u = log(1 + c·d)/log(1 + c·max(L, i)) at the key pos B seen from the query pos A (whole
// tokens, the query at least 1), and at 4 times both; always within [0, 1].
TEST_F(RopeFamilyTabs, FireReadsTheNormalisedLogDistance) {
    auto& panel = Get<AlternativesPanel>("alternatives");
    int within_threshold = 0, past = 0, after = 0;
    for (const double c : {0.01, 1.0, 100.0})
        for (const double threshold : {1.0, 64.0, 65536.0})
            for (const auto& [m, n] : {std::pair{40.0, 30.0}, std::pair{0.0, 0.0},
                                       std::pair{1e6, 0.0}, std::pair{7.5, 9.0}}) {
                const nlohmann::json scene = {{"alternatives_tab", "fire"},
                                              {"fire_c", c},
                                              {"fire_threshold", threshold},
                                              {"pos_a", m},
                                              {"pos_b", n}};
                ASSERT_EQ(app.scene.Apply(scene.dump()), "");
                if (!Recorded("alternatives.fire_share")) Present("alternatives");
                ASSERT_TRUE(Recorded("alternatives.fire_share"));
                const nlohmann::json r = TabReadouts(panel, state, "fire");
                const long double query = std::max(1.0L, floorl(m));
                const long double d = std::clamp(query - floorl(n), 0.0L, query);
                const auto u = [&](long double distance, long double at) {
                    return log1pl(c * distance) / log1pl(c * std::max<long double>(threshold, at));
                };
                EXPECT_EQ(r["query"].get<double>(), static_cast<double>(query));
                EXPECT_EQ(r["distance"].get<double>(), static_cast<double>(d));
                EXPECT_NEAR(r["input"].get<double>(), static_cast<double>(u(d, query)), 1e-13);
                EXPECT_NEAR(r["input_at_4"].get<double>(), static_cast<double>(u(4 * d, 4 * query)),
                            1e-13);
                EXPECT_GE(r["input"].get<double>(), 0.0);
                EXPECT_LE(r["input"].get<double>(), 1.0);
                const std::string text = r["sentence"];
                if (floorl(n) > query) { // a key after the query: masked, said so
                    ++after;
                    EXPECT_TRUE(Contains(text, "is after the query")) << text;
                    EXPECT_FALSE(Contains(text, "gets u")) << text;
                    continue;
                }
                EXPECT_TRUE(Contains(text, "gets u = " + ShownNumber(r["input"], 3))) << text;
                EXPECT_TRUE(Contains(text, d == 1 ? "1 token before" : " tokens before")) << text;
                if (query <= threshold) {
                    ++within_threshold;
                    EXPECT_TRUE(Contains(text, "the query is within L")) << text;
                } else {
                    ++past;
                    EXPECT_FALSE(Contains(text, "the query is within L")) << text;
                }
            }
    EXPECT_GT(within_threshold, 0);
    EXPECT_GT(past, 0);
    EXPECT_GT(after, 0);
}
