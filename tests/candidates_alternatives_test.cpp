// The "why sinusoids, and what came after" panels (candidates, alternatives), headless: their
// verdicts against the published articles' claims and independent arithmetic, every tab drawn,
// the sentences against the numbers, scene fields and bad input.
#include "headless_fixture.h"
#include "io/scene.h"
#include "panels/alternatives/alternatives_alibi.h"
#include "panels/alternatives/alternatives_pairing.h"
#include "panels/alternatives/panel_alternatives.h"
#include "panels/candidates/panel_candidates.h"
#include "pelab/encodings/sinusoidal.h"
#include "reference.h"
#include "widgets/number_text.h"

#include <gtest/gtest.h>

#include <map>

#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

using namespace pelab;

namespace {

class History : public HeadlessApp {
protected:
    History() : HeadlessApp(ImVec2(1920, 1080), /*record=*/true) {}
    bool Recorded(const std::string& name) const { return app.recorder.rects.count(name) > 0; }
};

// One fixture, named by each test's subject.
class CandidatesUi : public History {};
class AlternativesUi : public History {};
class RopeTab : public History {};
class LearnedTableTab : public History {};
class AlibiTab : public History {};
class LongContextTab : public History {};
class SideBySideTab : public History {};
class RopePairsTab : public History {};

const nlohmann::json& Row(const nlohmann::json& readouts, const std::string& id) {
    for (const auto& row : readouts["properties"])
        if (row["candidate"] == id) return row;
    static const nlohmann::json none; // test helper only
    return none;
}

} // namespace

// The verdicts of the published course and derivation, measured: the raw index is unbounded
// (max = N − 1), index / length changes with L (5/10 − 5/100 = 0.45), binary is not smooth
// (7 → 8 flips 4 bits), the learned table has no row past L, and sin + cos pairs pass every
// column.
TEST_F(CandidatesUi, VerdictsFollowThePublishedArguments) {
    CandidatesPanel& panel = Get<CandidatesPanel>("candidates");
    Present("candidates");
    const nlohmann::json r = panel.Readouts(state);
    EXPECT_EQ(r["positions"], 256);
    EXPECT_EQ(Row(r, "raw_index")["max_abs"].get<double>(), 255.0);
    EXPECT_EQ(Row(r, "raw_index")["verdicts"]["bounded"], "fails");
    EXPECT_NEAR(Row(r, "index_over_length")["length_change"].get<double>(), 0.5 - 0.05, 1e-15);
    EXPECT_EQ(Row(r, "index_over_length")["verdicts"]["same across L"], "fails");
    EXPECT_EQ(Row(r, "binary")["verdicts"]["smooth"], "fails");
    EXPECT_EQ(Row(r, "decimal")["max_abs"].get<double>(), 9.0);
    EXPECT_EQ(Row(r, "learned")["verdicts"]["beyond L"], "fails");
    EXPECT_EQ(Row(r, "sin_only")["verdicts"]["shift linear"], "fails");
    for (const char* property :
         {"bounded", "unique", "same across L", "smooth", "shift linear", "beyond L"})
        EXPECT_EQ(Row(r, "sin_cos")["verdicts"][property], "ok") << property;
    // With L = 10 the learned table has 9 pairs (p, p+1) for 64 dims: the test cannot say.
    EXPECT_EQ(Row(r, "learned")["verdicts"]["shift linear"], "cannot say");
    EXPECT_TRUE(Recorded("candidates.table"));
    EXPECT_TRUE(Recorded("candidates.values"));
    EXPECT_TRUE(Recorded("candidates.aliasing"));
}

// The published course: "embedding values are tiny (~0.05, −0.2). Adding 100 obliterates the
// word": ‖PE(100)‖ of the raw index at d 512 is 100·√512, a thousand times 0.1·√512. The
// widely copied PyTorch recipe's √d_model scaling makes the embedding 0.1·512 = 51.2 against
// sin + cos's √256 = 16.
TEST_F(CandidatesUi, DrowningMeterMeasuresBothNorms) {
    CandidatesPanel& panel = Get<CandidatesPanel>("candidates");
    ASSERT_EQ(app.scene.Apply(R"({"candidates_plot": "raw_index", "pos_a": 100})"), "");
    Present("candidates");
    nlohmann::json r = panel.Readouts(state);
    EXPECT_NEAR(r["pe_norm"].get<double>(), 100 * std::sqrt(512.0), 1e-9);
    EXPECT_NEAR(r["embedding_norm"].get<double>(), 0.1 * std::sqrt(512.0), 1e-12);
    EXPECT_NE(r["drowning"].get<std::string>().find("1\u00a0000×"), std::string::npos)
        << r["drowning"];
    EXPECT_NE(r["drowning"].get<std::string>().find("drowns"), std::string::npos);
    ASSERT_EQ(
        app.scene.Apply(R"({"candidates_plot": "sin_cos", "candidates_scale_embedding": true})"),
        "");
    Frame();
    r = panel.Readouts(state);
    EXPECT_NEAR(r["pe_norm"].get<double>(), 16.0, 1e-9);
    EXPECT_NEAR(r["embedding_norm"].get<double>(), 51.2, 1e-9);
    // 16 / 51.2 = 0.3125: the word outweighs the position (between 0.1 and 0.5).
    EXPECT_NE(r["drowning"].get<std::string>().find("the word outweighs the position"),
              std::string::npos)
        << r["drowning"];
    // That recipe's point the other way: without the scaling, sin + cos is 16 / 2.26 = 7.07×.
    EXPECT_NE(DrowningSentence("sin + cos", 3, 10, 0.1 * std::sqrt(512.0), 16)
                  .text.find("outweighs the word"),
              std::string::npos);
    EXPECT_NE(DrowningSentence("sin + cos", 3, 10, 10, 12).text.find("similar scale"),
              std::string::npos);
    // The learned table has no vector at pos 100 when L = 10.
    ASSERT_EQ(app.scene.Apply(R"({"candidates_plot": "learned"})"), "");
    Frame();
    EXPECT_TRUE(panel.Readouts(state)["pe_norm"].is_null());
    EXPECT_NE(DrowningSentence("learned table", 100, 10, 1, -1).text.find("past L = 10"),
              std::string::npos);
    // 3.5 < L = 10: the reason is that 3.5 is not a whole position, not "past L".
    const std::string fractional = DrowningSentence("learned table", 3.5, 10, 1, -1).text;
    EXPECT_NE(fractional.find("whole positions"), std::string::npos) << fractional;
    EXPECT_EQ(fractional.find("past L"), std::string::npos) << fractional;
}

TEST_F(CandidatesUi, SurviveTheirRangesAndRefuseBadScenes) {
    CandidatesPanel& panel = Get<CandidatesPanel>("candidates");
    for (
        const char* scene :
        {R"({"d_model": 2, "candidates_length": 2, "candidates_positions": 16})",
         R"({"d_model": 4096, "candidates_length": 4096, "candidates_positions": 4096,
              "candidates_shift_k": 64, "candidates_plot": "decimal"})",
         R"({"d_model": 4, "base": 1000000, "pos_a": 1000000, "candidates_plot": "shifted_sin"})"}) {
        ASSERT_EQ(app.scene.Apply(scene), "") << scene;
        Present("candidates");
        const nlohmann::json r = panel.Readouts(state);
        EXPECT_EQ(r["properties"].size(), static_cast<std::size_t>(kCandidateCount));
    }
    const std::string before = panel.candidate;
    EXPECT_NE(app.scene.Apply(R"({"candidates_plot": "fourier"})").find("candidates_plot"),
              std::string::npos);
    EXPECT_NE(app.scene.Apply(R"({"candidates_positions": 8})").find("candidates_positions"),
              std::string::npos);
    EXPECT_EQ(panel.candidate, before);
}

// Each tab of the table draws its own picture when chosen, and every tab's settings, readouts
// and widget names come from its row (a tab added is a file and a row).
TEST_F(AlternativesUi, EveryTabDraws) {
    const std::map<std::string, const char*> expected = {
        {"learned", "alternatives.learned_lookup_result"},
        {"rope", "alternatives.rope_check"},
        {"alibi", "alternatives.alibi_matrix"},
        {"t5", "alternatives.t5_plot"},
        {"pairing", "alternatives.pairing_scores"},
        {"partial", "alternatives.partial_wavelengths"},
        {"xpos", "alternatives.xpos_scores"},
        {"cope", "alternatives.cope_positions"},
        {"kerple", "alternatives.kerple_bias"},
        {"fire", "alternatives.fire_distance"},
        {"nope", "alternatives.nope_scores"},
        {"scaling", "alternatives.scaling_wavelengths"},
        {"table", "alternatives.methods"}};
    ASSERT_EQ(AlternativesTabs().size(), expected.size());
    for (const AlternativesTabInfo& tab : AlternativesTabs()) {
        ASSERT_TRUE(expected.count(tab.id)) << tab.id;
        const std::string scene = std::string(R"({"alternatives_tab": ")") + tab.id + R"("})";
        ASSERT_EQ(app.scene.Apply(scene), "");
        app.recorder.rects.clear();
        Present("alternatives");
        EXPECT_TRUE(Recorded(expected.at(tab.id))) << tab.id;
        EXPECT_TRUE(Recorded(std::string("alternatives.tab_") + tab.id)) << tab.id;
        EXPECT_EQ(Get<AlternativesPanel>("alternatives").tab, tab.id);
        EXPECT_FALSE(tab.make()->Widgets().empty()) << tab.id;
    }
    EXPECT_NE(app.scene.Apply(R"({"alternatives_tab": "flame"})").find("must be learned, rope"),
              std::string::npos);
}

// RoPE: the score from rotating both vectors, recomputed here pair by pair, equals the panel's
// and the one from m − n alone; moving both positions together leaves it.
TEST_F(RopeTab, ScoreDependsOnlyOnTheDistance) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "rope", "d_model": 64, "pos_a": 17,
                                  "pos_b": 5, "base": 10000})"),
              "");
    Present("alternatives");
    const std::vector<double> q = panel.RopeQuery(state), k = panel.RopeKey(state);
    long double dot = 0;
    for (int i = 0; i < 32; ++i) {
        const long double theta = powl(10000.0L, -2.0L * i / 64);
        const long double qa = 17 * theta, ka = 5 * theta;
        const long double q0 = q[2 * i] * cosl(qa) - q[2 * i + 1] * sinl(qa);
        const long double q1 = q[2 * i] * sinl(qa) + q[2 * i + 1] * cosl(qa);
        const long double k0 = k[2 * i] * cosl(ka) - k[2 * i + 1] * sinl(ka);
        const long double k1 = k[2 * i] * sinl(ka) + k[2 * i + 1] * cosl(ka);
        dot += q0 * k0 + q1 * k1;
    }
    const nlohmann::json r = panel.Readouts(state)["rope"];
    EXPECT_NEAR(r["score"].get<double>(), static_cast<double>(dot), 1e-12);
    EXPECT_NEAR(r["score_from_distance"].get<double>(), static_cast<double>(dot), 1e-11);
    EXPECT_LT(r["max_shift_change"].get<double>(), 1e-9);
}

// RoPE's two pairings, against the definitions written out here: the half-split q·k at m − n
// (q and k turned as GPT-NeoX's rotate_half does, in long double) equals the panel's curve; a
// dimension keeps its frequency across pairings only where ⌊j/2⌋ = j mod d/2, counted here;
// both pairings are relative over a sweep of d_model and base, and the sentence says what the
// claims say (at d = 2 the two pairings are one).
TEST_F(RopePairsTab, BothRelativeAndRunCrossedTheyDiffer) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    for (const int d : {2, 4, 8, 64, 512})
        for (const double base : {100.0, 10000.0, 500000.0}) {
            ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "pairing", "pos_a": 17, "pos_b": 5,
                                          "d_model": )" +
                                      std::to_string(d) + R"(, "base": )" + std::to_string(base) +
                                      "}"),
                      "");
            Present("alternatives");
            ASSERT_TRUE(Recorded("alternatives.pairing_text"));
            const PairingResult r = ComputePairing(panel.RopeInputsFor(state));
            const std::vector<double> q = panel.RopeQuery(state), k = panel.RopeKey(state);
            const int half = d / 2;
            // Both curves from their definitions at every distance drawn (k at position 0 is
            // not turned); each curve's largest |q·k| is then the one the sentence must name.
            long double interleaved_top = 0, half_top = 0;
            for (int distance = 0; distance <= 128; ++distance) {
                long double dot = 0, interleaved_dot = 0;
                for (int j = 0; j < d; ++j) {
                    const long double angle = distance * powl(base, -2.0L * (j % half) / d);
                    const long double partner_q = j < half ? -q[j + half] : q[j - half];
                    const long double turned_q = q[j] * cosl(angle) + partner_q * sinl(angle);
                    dot += turned_q * k[j];
                    const int pair_index = j / 2;
                    const long double pair_angle = distance * powl(base, -2.0L * pair_index / d);
                    const long double pair_q = j % 2 == 0 ? -q[j + 1] : q[j - 1];
                    interleaved_dot += (q[j] * cosl(pair_angle) + pair_q * sinl(pair_angle)) * k[j];
                }
                if (distance == 0 || distance == 1 || distance == 7 || distance == 128) {
                    EXPECT_NEAR(r.half_split[distance], static_cast<double>(dot), 1e-10)
                        << "d " << d << ", base " << base << ", distance " << distance;
                    EXPECT_NEAR(r.interleaved[distance], static_cast<double>(interleaved_dot),
                                1e-10)
                        << "d " << d << ", base " << base << ", distance " << distance;
                }
                half_top = std::max(half_top, fabsl(dot));
                interleaved_top = std::max(interleaved_top, fabsl(interleaved_dot));
            }
            int same = 0;
            for (int j = 0; j < d; ++j)
                same += j / 2 == j % half;
            EXPECT_EQ(r.same_frequency_dims, same) << d;
            const Explanation sentence = PairingSentence(r);
            EXPECT_EQ(sentence.Value("both_relative"), 1) << d << " " << base;
            // Each curve's own largest |q·k|, named with its pairing (the two differ).
            EXPECT_NE(
                sentence.text.find("is " + ShownNumber(static_cast<double>(interleaved_top), 3) +
                                   " interleaved, " +
                                   ShownNumber(static_cast<double>(half_top), 3) + " half-split"),
                std::string::npos)
                << sentence.text;
            EXPECT_NE(sentence.text.find(std::to_string(d - same) + " of the " + std::to_string(d) +
                                         " dimensions"),
                      std::string::npos)
                << sentence.text;
            if (d == 2) {
                EXPECT_EQ(r.largest_gap, 0.0);
                EXPECT_NE(sentence.text.find("nothing differs"), std::string::npos);
            } else {
                EXPECT_GT(r.largest_gap, 1e-3 * r.largest_score) << d << " " << base;
                EXPECT_EQ(sentence.text.find("nothing differs"), std::string::npos);
            }
        }
}

// The learned table's edge and its published parameter count (BERT-base: 512 × 768 = 393 216).
TEST_F(LearnedTableTab, HasAHardEdge) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "learned", "learned_lookup": 512})"), "");
    Present("alternatives");
    nlohmann::json r = panel.Readouts(state)["learned"];
    EXPECT_EQ(r["parameters"], 393216);
    EXPECT_FALSE(r["has_entry"].get<bool>());
    ASSERT_EQ(app.scene.Apply(R"({"learned_lookup": 511, "learned_rows": 1024})"), "");
    Frame();
    r = panel.Readouts(state)["learned"];
    EXPECT_TRUE(r["has_entry"].get<bool>());
    EXPECT_EQ(r["parameters"], 786432); // GPT-2 small: 1 024 × 768
    const nlohmann::json checks = panel.Readouts(state)["relative_checks"];
    EXPECT_GT(checks["learned"].get<double>(), 0.1);
    EXPECT_LT(checks["sinusoidal"].get<double>(), 1e-9);
    EXPECT_EQ(checks["alibi"].get<double>(), 0.0);
    // The newer rows: partial rotary and p-RoPE keep q·k relative (rounding only), KERPLE's bias
    // depends on |i − j| alone, and FIRE's input, normalised by the query's own position, moves
    // once the query passes L (here 8): u(3, 5) against u(3, 15 … 995), its largest change
    // log(1 + 3)/log(1 + 8) − log(1 + 3)/log(1 + 995) from the definition.
    EXPECT_LT(checks["partial"].get<double>(), 1e-9);
    EXPECT_EQ(checks["kerple"].get<double>(), 0.0);
    EXPECT_EQ(checks["fire"].get<double>(), 0.0); // pos A 3 < L 512: normalised by L
    ASSERT_EQ(app.scene.Apply(R"({"fire_threshold": 8, "pos_a": 5, "pos_b": 2})"), "");
    const double fire = panel.Readouts(state)["relative_checks"]["fire"].get<double>();
    EXPECT_NEAR(fire, std::log(4.0) / std::log(9.0) - std::log(4.0) / std::log(996.0), 1e-12);
}

// The causal weights follow ALiBi's own equation, softmax(q·kᵀ/√d + m·(j − i)): the bias is
// added after the scaling. For "the cat" against "cat the" (one-hot words, d = 32), each
// sentence's second row weighs its first word by e^(−m)/(e^(−m) + e^(1/√32)) and its first row
// is all on itself, so the re-ordered weights differ by exactly 1/(1 + e^(m + 1/√32)); with the
// bias divided by √d it would be 1/(1 + e^((m + 1)/√32)).
TEST_F(AlibiTab, CausalWeightsAddTheBiasAfterScaling) {
    for (const double m : {0.0, 0.25, 0.5, 1.0, 2.0}) {
        const AlibiTie tie = AlibiBreaksTie("the cat", "cat the", m);
        ASSERT_TRUE(tie.error.empty()) << tie.error;
        const double expected = 1 / (1 + std::exp(m + 1 / std::sqrt(32.0)));
        EXPECT_NEAR(tie.causal_with_bias, expected, 1e-12) << "m = " << m;
        if (m == 0) {
            EXPECT_NEAR(tie.causal_mask_only, expected, 1e-12);
        }
    }
}

// ALiBi and the order tie: reversing "dog bites man" keeps every distance |i − j|, so the
// symmetric bias cannot break the tie; a re-ordering that moves words closer does. The causal
// mask breaks it in the attention weights either way.
TEST_F(AlibiTab, BreaksTheTieOnlyWhereDistancesChange) {
    const AlibiTie reversed = AlibiBreaksTie("dog bites man", "man bites dog", 0.5);
    EXPECT_TRUE(reversed.same_words);
    EXPECT_EQ(reversed.without_bias, 0.0);
    EXPECT_TRUE(reversed.distances_kept);
    EXPECT_LT(reversed.with_bias, 1e-12);
    EXPECT_GT(reversed.causal_mask_only, 0.01);
    const AlibiTie moved = AlibiBreaksTie("dog bites man", "bites dog man", 0.5);
    EXPECT_FALSE(moved.distances_kept);
    // One-hot words: "dog"→"man" sits at distance 2 in A and 1 in B, so the biased scores differ
    // by 0.5·(2 − 1) = 0.5.
    EXPECT_NEAR(moved.with_bias, 0.5, 1e-12);
    EXPECT_FALSE(AlibiBreaksTie("dog", "", 0.5).error.empty());
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "alibi", "alibi_heads": 8})"), "");
    Present("alternatives");
    const nlohmann::json slopes = panel.Readouts(state)["alibi"]["slopes"];
    ASSERT_EQ(slopes.size(), 8u);
    for (int h = 1; h <= 8; ++h)
        EXPECT_EQ(slopes[h - 1].get<double>(), std::ldexp(1.0, -h)); // 2^(−8h/8)
}

// Long-context scaling readouts at Llama 3's settings: pair 0 (wavelength 2π < 8192/4) kept,
// the last pair (wavelength ≫ 8192) divided by 8; YaRN's temperature 0.1·ln 8 + 1.
TEST_F(LongContextTab, ReadoutsAtLlama3Settings) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "scaling", "base": 500000, "scaling_d": 128,
                                  "scaling_factor": 8, "scaling_context": 8192})"),
              "");
    Present("alternatives");
    const nlohmann::json r = panel.Readouts(state)["scaling"]["methods"];
    EXPECT_EQ(r["llama3"]["factors"][0].get<double>(), 1.0);
    EXPECT_NEAR(r["llama3"]["factors"][63].get<double>(), 0.125, 1e-15);
    EXPECT_NEAR(r["linear"]["factors"][10].get<double>(), 0.125, 1e-15);
    EXPECT_NEAR(r["yarn"]["temperature_factor"].get<double>(), 0.1 * std::log(8.0) + 1, 1e-15);
    EXPECT_EQ(r["none"]["temperature_factor"].get<double>(), 1.0);
}

// At 1024×768 ×2 (and at 1280×800 ×1) the YaRN toggle is in view without scrolling: in a
// projector's control strip it was the third row, out of the strip's two; it now sits by the
// legend that names YaRN. Ticking it changes the drawn YaRN.
TEST_F(LongContextTab, TheYarnToggleIsInViewOnAProjector) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    for (const auto& [size, scale] :
         {std::pair{ImVec2(1024, 768), 2.0f}, std::pair{ImVec2(1280, 800), 1.0f}}) {
        ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "scaling"})"), "");
        ImGui::GetIO().DisplaySize = size;
        BuildFonts(fonts, kBaseFontPixels * scale);
        Present("alternatives", 4);
        ASSERT_TRUE(app.recorder.rects.count("alternatives.scaling_yarn_pairs")) << scale;
        EXPECT_GE(app.recorder.rects["alternatives.scaling_yarn_pairs"].visible, 0.99f) << scale;
        const nlohmann::json paper = panel.Readouts(state)["scaling"]["methods"]["yarn"];
        const WidgetRect at = app.recorder.rects["alternatives.scaling_yarn_pairs"];
        ClickAt(ImVec2(at.x0 + 4, (at.y0 + at.y1) / 2));
        Frame();
        EXPECT_NE(panel.Readouts(state)["scaling"]["methods"]["yarn"], paper) << scale;
        ASSERT_EQ(app.scene.Apply(R"({"scaling_yarn_pairs": false})"), "");
    }
}

// Every curve of the wavelength plot is inside its axis when it opens: dynamic NTK's base at
// s·L stretched the slowest pair past 1 M while the axis ended at the linear curve's top ×4
// (base 500 000, s 8, L 8 192: off the top by pair 50). Wavelengths from 2π/θ'ᵢ, computed
// here from the factors the readouts report and θᵢ = base^(−2i/d).
TEST_F(LongContextTab, EveryCurveIsInsideTheWavelengthAxis) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    for (const char* scene :
         {R"({"alternatives_tab": "scaling", "base": 500000, "scaling_factor": 8})",
          R"({"alternatives_tab": "scaling", "base": 10000, "scaling_factor": 32,
              "scaling_d": 64, "scaling_context": 2048})",
          R"({"alternatives_tab": "scaling", "base": 10000, "scaling_factor": 2})"}) {
        ASSERT_EQ(app.scene.Apply(scene), "") << scene;
        Present("alternatives", 3);
        const nlohmann::json r = panel.Readouts(state)["scaling"];
        const double base = r["base"].get<double>();
        const int d = r["d"].get<int>();
        const double top = r["wavelength_home"][1].get<double>();
        for (const auto& [method, values] : r["methods"].items()) {
            const std::vector<double> factors = values["factors"].get<std::vector<double>>();
            for (std::size_t i = 0; i < factors.size(); ++i) {
                const double theta = std::pow(base, -2.0 * static_cast<double>(i) / d);
                EXPECT_LE(2 * M_PI / (theta * factors[i]), top)
                    << method << " pair " << i << " in " << scene;
            }
        }
        app.scene.Apply(R"({"scaling_factor": 8, "scaling_d": 128, "scaling_context": 8192})");
    }
}

TEST_F(AlternativesUi, RefuseBadScenes) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    EXPECT_NE(app.scene.Apply(R"({"alternatives_tab": "bogus"})").find("alternatives_tab"),
              std::string::npos);
    EXPECT_NE(app.scene.Apply(R"({"t5_buckets": 33})").find("t5_buckets"), std::string::npos);
    EXPECT_NE(app.scene.Apply(R"({"alibi_sentence_a": ""})").find("alibi_sentence_a"),
              std::string::npos);
    EXPECT_NE(app.scene.Apply(R"({"scaling_factor": 0.5})").find("scaling_factor"),
              std::string::npos);
    EXPECT_EQ(panel.tab, "rope");
    // Extremes draw without an assertion.
    for (const char* scene :
         {R"({"alternatives_tab": "t5", "t5_buckets": 4, "t5_max_distance": 8,
              "t5_bidirectional": false})",
          R"({"alternatives_tab": "alibi", "alibi_heads": 3, "alibi_head": 3})",
          R"({"alternatives_tab": "scaling", "scaling_d": 4, "scaling_factor": 1})",
          R"({"alternatives_tab": "rope", "d_model": 2, "pos_a": 1000000, "pos_b": 0})",
          R"({"alternatives_tab": "learned", "learned_rows": 1, "learned_d": 2})"}) {
        ASSERT_EQ(app.scene.Apply(scene), "") << scene;
        Present("alternatives");
    }
}

// Typed q and k (d 4): the score recomputed by hand in Python,
//   rot(x, p) turns pair i by p·10000^(−2i/4); q = (1, 0, 0.5, 0.5) at m = 5, k = (0, 1, 1, 0) at n
//   = 2 sum(a·b for rot(q, 5), rot(k, 2)) = 0.6258972748331131;
// bad typed vectors are refused with the reason, and unequal lengths fall back to the seeded ones.
TEST_F(RopeTab, TakesTypedVectors) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "rope", "rope_typed": true, "pos_a": 5,
                                  "pos_b": 2, "rope_q": "1, 0, 0.5, 0.5", "rope_k": "0 1 1 0"})"),
              "");
    Present("alternatives");
    nlohmann::json r = panel.Readouts(state)["rope"];
    EXPECT_TRUE(r["typed"].get<bool>());
    EXPECT_EQ(r["d"], 4);
    EXPECT_NEAR(r["score"].get<double>(), 0.6258972748331131, 1e-15);
    EXPECT_NEAR(r["score_from_distance"].get<double>(), 0.6258972748331131, 1e-14);
    EXPECT_NE(ParseRopeVector("1, 2, 3", nullptr).find("even count"), std::string::npos);
    EXPECT_NE(ParseRopeVector("1, x", nullptr).find("\"x\""), std::string::npos);
    EXPECT_NE(ParseRopeVector("1e999, 0", nullptr).find("not a number"), std::string::npos);
    EXPECT_NE(app.scene.Apply(R"({"rope_k": ""})").find("rope_k"), std::string::npos);
    ASSERT_EQ(app.scene.Apply(R"({"rope_k": "0 1 1 0 2 2", "d_model": 8})"), "");
    Frame();
    r = panel.Readouts(state)["rope"];
    EXPECT_FALSE(r["typed"].get<bool>());
    EXPECT_EQ(r["d"], 8);
}

// Sinusoidal PE is absolute: it is added to the input, and the score of two real inputs
// (word + PE) changes when both move together; only two bare encodings' dot product depends on
// m − n alone. The side-by-side table says so, in the plain text colour, not a green "yes".
TEST_F(SideBySideTab, SinusoidalIsMarkedAbsoluteNotRelative) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    const std::vector<MethodRow> rows =
        AlternativesPanel::ComputeMethodRows(panel.MethodRowJobs(state));
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows[0].cells[0], "sinusoidal");
    EXPECT_EQ(rows[0].relative, Verdict::Neither);
    EXPECT_EQ(rows[0].cells[5].rfind("no, absolute", 0), 0u) << rows[0].cells[5];
    // The claim, computed here: with word vectors x and y (d 8), (x + PE(m))·(y + PE(n)) moves
    // by far more than rounding when m and n both move by 10, while PE(m)·PE(n) does not.
    const int d = 8;
    const long double x[d] = {0.3L, -0.2L, 0.5L, 0.1L, -0.4L, 0.2L, 0.0L, 0.6L};
    const long double y[d] = {-0.1L, 0.4L, 0.2L, -0.3L, 0.5L, 0.1L, -0.2L, 0.3L};
    const auto score = [&](long double m, long double n, bool with_words) {
        long double sum = 0;
        for (int dim = 0; dim < d; ++dim)
            sum += ((with_words ? x[dim] : 0) + reference::pe(m, dim, d, 10000)) *
                   ((with_words ? y[dim] : 0) + reference::pe(n, dim, d, 10000));
        return sum;
    };
    EXPECT_LT(fabsl(score(13, 5, false) - score(23, 15, false)), 1e-12L);
    EXPECT_GT(fabsl(score(13, 5, true) - score(23, 15, true)), 0.01L);
    // The other rows' words follow their own checks.
    for (const MethodRow& row : rows)
        if (row.relative == Verdict::Yes) {
            EXPECT_EQ(row.cells[5].rfind("yes", 0), 0u) << row.cells[0] << ": " << row.cells[5];
        } else if (row.relative == Verdict::No) {
            EXPECT_EQ(row.cells[5].rfind("no", 0), 0u) << row.cells[0] << ": " << row.cells[5];
        }
}

// One compute path: the side-by-side tab and the RoPE tab compute their numbers once per change
// of an input they read, not once per frame, and the readouts report those same results (the
// table's RoPE check is the number the RoPE tab shows). Moving pos A computes them again.
TEST_F(SideBySideTab, ComputedOncePerChangeAndReportedAsDrawn) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "table", "d_model": 256,
                                  "pos_a": 40, "pos_b": 12})"),
              "");
    Present("alternatives", 5);
    EXPECT_EQ(panel.method_checks.Computations(), 1);
    const nlohmann::json r = panel.Readouts(state);
    EXPECT_EQ(panel.method_checks.Computations(), 1) << "the readouts reuse the drawn checks";
    EXPECT_EQ(panel.rope_point.Computations(), 1);
    ASSERT_NE(panel.method_checks.Last(), nullptr);
    EXPECT_EQ(r["rope"]["max_shift_change"].get<double>(),
              r["relative_checks"]["rope"].get<double>());
    // Independently: q·k at (40, 12) and at (40 + s, 12 + s) from the core, the largest change.
    const std::vector<double> q = panel.RopeQuery(state), k = panel.RopeKey(state);
    double change = 0;
    for (int s = 10; s <= 990; s += 10)
        change = std::max(change, std::abs(pelab::rope_score(q, k, 40 + s, 12 + s, 10000) -
                                           pelab::rope_score(q, k, 40, 12, 10000)));
    // The change is rounding alone (~1e-13 of scores of order 1), so a tolerance would accept
    // any small number: the readout must be this very maximum, to a few units in the last place.
    EXPECT_GT(change, 0.0);
    EXPECT_LT(change, 1e-10);
    EXPECT_DOUBLE_EQ(r["rope"]["max_shift_change"].get<double>(), change);
    state.pos_a = 41;
    Present("alternatives", 2);
    EXPECT_EQ(panel.method_checks.Computations(), 2);
}

// In the window the side-by-side checks are computed off the frame: new positions keep the last
// checks on screen with "(updating…)" on the relative column, and once the background result is
// in it equals the checks computed on the spot.
TEST_F(SideBySideTab, ChecksComputeOffTheFrameInTheWindow) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "table", "d_model": 1024, "pos_a": 40,
                                  "pos_b": 12})"),
              "");
    app.compute_in_background = true;
    Present("alternatives");
    state.pos_a = 41;
    Frame();
    EXPECT_FALSE(panel.checks_current);
    EXPECT_TRUE(app.stats.computing);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!panel.checks_current && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        Frame();
    }
    ASSERT_TRUE(panel.checks_current);
    const std::vector<MethodRow> drawn = *panel.method_checks.Last();
    const std::vector<MethodRow> now =
        AlternativesPanel::ComputeMethodRows(panel.MethodRowJobs(state));
    ASSERT_EQ(drawn.size(), now.size());
    for (std::size_t row = 0; row < drawn.size(); ++row) {
        EXPECT_EQ(drawn[row].id, now[row].id);
        EXPECT_EQ(drawn[row].shift_change, now[row].shift_change) << drawn[row].id;
        EXPECT_EQ(drawn[row].cells[5], now[row].cells[5]) << drawn[row].id;
    }
    const auto rope = std::find_if(drawn.begin(), drawn.end(),
                                   [](const MethodRow& row) { return row.id == "rope"; });
    ASSERT_NE(rope, drawn.end());
    EXPECT_EQ(*rope->shift_change, panel.RopeShiftAt(state).change) << "the RoPE tab's number";
}

// In the window the RoPE tab's shift sweep (100 scores at d_model 4 096, ~10 ms) runs off the
// frame while m moves: the sentence says "(updating…)" over the last sweep, the frames go on,
// and the sweep that arrives is the one computed on the spot, which the readouts report.
TEST_F(RopeTab, ShiftSweepComputesOffTheFrameInTheWindow) {
    AlternativesPanel& panel = Get<AlternativesPanel>("alternatives");
    ASSERT_EQ(app.scene.Apply(R"({"alternatives_tab": "rope", "d_model": 4096, "pos_a": 40,
                                  "pos_b": 12})"),
              "");
    app.compute_in_background = true;
    Present("alternatives");
    ASSERT_TRUE(panel.rope_shift_current);
    const long points = panel.rope_point.Computations();
    state.pos_a = 41;
    Frame();
    EXPECT_FALSE(panel.rope_shift_current);
    EXPECT_TRUE(app.stats.computing);
    EXPECT_EQ(panel.rope_point.Computations(), points + 1) << "q·k itself is computed on the spot";
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!panel.rope_shift_current && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        Frame();
    }
    ASSERT_TRUE(panel.rope_shift_current);
    const double drawn = panel.rope_shift.Last()->change;
    const std::vector<double> q = panel.RopeQuery(state), k = panel.RopeKey(state);
    double change = 0;
    for (int s = 10; s <= 990; s += 10)
        change = std::max(change, std::abs(pelab::rope_score(q, k, 41 + s, 12 + s, 10000) -
                                           pelab::rope_score(q, k, 41, 12, 10000)));
    EXPECT_DOUBLE_EQ(drawn, change);
    EXPECT_EQ(panel.Readouts(state)["rope"]["max_shift_change"].get<double>(), drawn);
}

// One compute path: the table drawn, the CSV export and the readouts are one measurement, with
// N and k kept in range the same way for all three (k = 64 over N = 16 positions is measured at
// k = 15, and the legend says so), computed once for the frames, the CSV and the readouts.
TEST_F(CandidatesUi, TableCsvAndReadoutsAreOneMeasurement) {
    CandidatesPanel& panel = Get<CandidatesPanel>("candidates");
    ASSERT_EQ(app.scene.Apply(R"({"candidates_positions": 16, "candidates_shift_k": 64,
                                  "d_model": 64})"),
              "");
    Present("candidates", 3);
    const nlohmann::json r = panel.Readouts(state);
    const std::string csv = panel.TableCsv(state);
    EXPECT_EQ(panel.table_cache.Computations(), 1);
    const CandidatesPanel::Table& drawn = *panel.table_cache.Last();
    EXPECT_EQ(drawn.inputs.positions, 16);
    EXPECT_EQ(drawn.inputs.shift_k, 15);
    EXPECT_EQ(r["positions"], 16);
    for (int c = 0; c < pelab::kCandidateCount; ++c) {
        const nlohmann::json& row = r["properties"][c];
        EXPECT_EQ(row["max_abs"].get<double>(), drawn.properties[c].max_abs);
        EXPECT_EQ(row["smoothness"].get<double>(), drawn.properties[c].smoothness);
    }
    // Independently: the core's measurement at N = 16, k = 15 for the binary candidate.
    const pelab::CandidateProperties binary =
        pelab::candidate_properties(pelab::Candidate::Binary, panel.Settings(state), 16, 64, 15);
    const int index = static_cast<int>(pelab::Candidate::Binary);
    EXPECT_EQ(drawn.properties[index].max_abs, binary.max_abs);
    EXPECT_EQ(drawn.properties[index].collisions_exact, binary.collisions_exact);
    EXPECT_NE(csv.find("binary"), std::string::npos);
}
