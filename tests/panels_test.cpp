// Headless tests of the four design-card panels and of scenes: the texts they derive, the
// state they change, and hundreds of frames across their inputs (bad ones included).
#include "headless_fixture.h"
#include "io/scene.h"
#include "panels/clocks/panel_clocks.h"
#include "panels/compare/panel_compare.h"
#include "panels/order/panel_order.h"
#include "panels/waves/panel_waves.h"
#include "pelab/encodings/attention.h"
#include "pelab/encodings/embedding.h"
#include "test_paths.h"
#include "widgets/heatmap.h"
#include "widgets/plot.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <imgui_internal.h>
#include <nlohmann/json.hpp>
#include <tuple>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

using namespace pelab;

namespace {

class Panels4 : public HeadlessApp {
protected:
    Panels4() : HeadlessApp(ImVec2(1600, 1000)) {}
};

} // namespace

TEST_F(Panels4, AllPanelsSurviveSweepOfTheirInputs) {
    const char* sentences[] = {
        "dog bites man",
        "man bites dog",
        "the dog saw the cat",
        "café ωπ naïve",
        "a b c d e f g h i j k l m n o p q r s t u v w x y z aa bb cc dd ee ff gg",
        "",
        "   ",
        "bad \xff utf8",
        "one"};
    for (int frame = 0; frame < 400; ++frame) {
        OrderPanel& order = Get<OrderPanel>("order");
        order.sentence_a = sentences[frame % 9];
        order.sentence_b = sentences[(frame / 9) % 9];
        order.pe_enabled = frame % 2 == 0;
        order.pe_scale = (frame % 5) * 0.75;
        order.scale_embeddings = frame % 3 == 0;
        order.random_embeddings = frame % 4 == 0;
        order.order_d_model = 2 + 2 * (frame % 32);
        state.d_model = 2 << (frame % 11);
        state.pos_a = frame * 1234.5;
        state.pos_b = (frame % 7) * 3.0;
        state.shift_k = (frame % 21) * 10 - 100;
        Get<ComparePanel>("compare").filter = static_cast<ComparePanel::DimensionFilter>(frame % 5);
        Get<WavesPanel>("waves").many_waves = frame % 6 < 3;
        Get<ClocksPanel>("clocks").clock_scale = 0.6f + (frame % 4) * 0.6f;
        app.view.theme = kThemes[frame % 3];
        state.Clamp();
        Frame();
        if (HasFatalFailure()) return;
    }
}

TEST_F(Panels4, RecordsWidgetRectanglesOnlyWhenAsked) {
    Frame();
    EXPECT_TRUE(app.recorder.rects.empty());
    app.recorder.enabled = true;
    Frame();
    Frame();
    for (const char* name :
         {"waves.pair_slider", "compare.pos_b_input", "clocks.pair_3", "order.pe_enabled"}) {
        ASSERT_TRUE(app.recorder.rects.count(name)) << name;
        const WidgetRect& r = app.recorder.rects[name];
        EXPECT_LT(r.x0, r.x1) << name;
        EXPECT_LT(r.y0, r.y1) << name;
        EXPECT_GE(r.x0, 0.0f);
        EXPECT_LE(r.y1, 1000.0f);
    }
}

TEST(Compare, ExplanationChangesWithTheCase) {
    const std::string same = ExplainDifference(7, 7, 128, 10000).text;
    const std::string near = ExplainDifference(3, 5, 128, 10000).text;
    const std::string far = ExplainDifference(3, 150, 128, 10000).text;
    EXPECT_NE(same.find("same"), std::string::npos) << same;
    // The distance is worded with the similarity readout's own label (cosine thresholds stated in
    // the UI), never "far" beside "similarity: moderate".
    for (const auto& [a, b, text] : {std::tuple{3.0, 5.0, near}, std::tuple{3.0, 150.0, far}}) {
        const std::string label =
            similarity_label(compare_positions(a, b, 128, 10000).cosine_similarity);
        EXPECT_NE(text.find("(similarity " + label + ")"), std::string::npos) << text;
        EXPECT_EQ(text.find(" far."), std::string::npos) << text;
        EXPECT_EQ(text.find(" close."), std::string::npos) << text;
    }
    // 3 vs 5 at d = 128: ω_i·2 ≥ 0.1 for i ≤ 64·log10(20)/4 = 20.8, so pairs 0 to 20 turn a
    // readable amount; pair 20's wavelength is 2π·10^(40/32) = 111.7.
    EXPECT_NE(near.find("Pairs 0 to 20 (wavelengths 6 to 112) tell them apart"), std::string::npos)
        << near;
    EXPECT_NE(far.find("more than half a turn"), std::string::npos) << far;
    // 3 vs 150 at d = 128: ω_i·147 > π for ω_i > 0.02137, i.e. i < 64·log(1/0.02137)/log(10000)
    // = 26.8: pairs 0 … 26 have wrapped (27 pairs). Independent arithmetic, not the panel's.
    EXPECT_NE(far.find("The 27 fastest pairs"), std::string::npos) << far;
    // d_model 4, 0 vs 7: ω = 1 and 0.01; 7 rad > π wraps, 0.07 rad < 0.1 barely moves. The
    // text must not blame the base (the reviewer's case), and must name the gap.
    const std::string gap = ExplainDifference(0, 7, 4, 10000).text;
    EXPECT_EQ(gap.find("every pair"), std::string::npos) << gap;
    EXPECT_NE(gap.find("the fastest pair turns"), std::string::npos) << gap;
    EXPECT_NE(gap.find("the slowest pair less than 0.1 rad"), std::string::npos) << gap;
    EXPECT_NE(gap.find("larger d_model"), std::string::npos) << gap;
    // d_model 2: the base changes nothing, so it is not offered as the remedy.
    const std::string single = ExplainDifference(0, 7, 2, 1e6).text;
    EXPECT_EQ(single.find("larger base"), std::string::npos) << single;
    EXPECT_NE(single.find("whatever the base"), std::string::npos) << single;
    // d_model 8, base 10, 0 vs 1000: ω ≥ 10^-0.75 = 0.178, 178 rad > π for every pair.
    const std::string all = ExplainDifference(0, 1000, 8, 10).text;
    EXPECT_NE(all.find("Every pair has turned more than half a turn"), std::string::npos) << all;
}

// Counts read as English in every regime: one pair is "the fastest pair", a span of one pair is
// "Pair 3", a group of none is not mentioned ("the 0 slowest"), and a tiny distance does not
// claim that any pair tells the positions apart.
TEST(Compare, ExplanationWordsCountsForOneOrManyAtEveryWidth) {
    // (No std::regex: GCC 12 warns inside <regex> under the sanitizer build's -Werror.)
    const auto bad_phrase = [](const std::string& text) -> std::string {
        for (const char* phrase : {"The 0 ", "the 0 ", "The 1 ", "the 1 ", " 1 pairs", " 0 of the"})
            if (text.find(phrase) != std::string::npos) return phrase;
        // "Pairs 5 to 5": a span of one pair.
        for (std::size_t at = text.find("Pairs "); at != std::string::npos;
             at = text.find("Pairs ", at + 1)) {
            int first = -1, last = -2;
            if (std::sscanf(text.c_str() + at, "Pairs %d to %d", &first, &last) == 2 &&
                first == last)
                return "Pairs N to N";
        }
        return "";
    };
    for (int d_model : {2, 4, 6, 8, 16, 128, 512})
        for (double base : {10.0, 10000.0, 1e6})
            for (double distance : {0.01, 0.5, 1.0, 3.0, 47.0, 147.0, 1000.0, 60000.0}) {
                const std::string text = ExplainDifference(3, 3 + distance, d_model, base).text;
                EXPECT_EQ(bad_phrase(text), "") << "d_model " << d_model << ", base " << base
                                                << ", distance " << distance << ": " << text;
            }
    EXPECT_EQ(bad_phrase("Pairs 4 to 4 (wavelengths 6 to 6)"), "Pairs N to N"); // the check works
    EXPECT_EQ(bad_phrase("The 1 fastest pairs"), "The 1 ");
    // 3 vs 3.01 at d = 512: pair 0 turns ω_0·0.01 = 0.01 rad (ω_0 = 1), under the 0.1 rad that
    // counts as a readable turn: nothing "tells them apart".
    const std::string tiny = ExplainDifference(3, 3.01, 512, 10000).text;
    EXPECT_NE(tiny.find("only 0.01 rad"), std::string::npos) << tiny;
    EXPECT_EQ(tiny.find("apart, turning"), std::string::npos) << tiny;
    EXPECT_EQ(tiny.find("tell them apart"), std::string::npos) << tiny;
    // d_model 4, 0 vs 20, base 10000: ω = 1 (20 rad, wrapped) and 0.01 (0.2 rad, readable):
    // one pair of each, so "the fastest pair has" and "Pair 1 (wavelength 628) separates".
    const std::string two = ExplainDifference(0, 20, 4, 10000).text;
    EXPECT_NE(two.find("The fastest pair has turned"), std::string::npos) << two;
    EXPECT_NE(two.find("Pair 1 (wavelength 628) separates"), std::string::npos) << two;
}

// Cases where the old text said "every pair has wrapped past half a cycle" while a
// slow pair had barely moved: d 4, base 1e4, 0 vs 5 (pair 1 turns 0.05 rad); d 4, base 1e6,
// 3 vs 50 (pair 1: ω = 1e6^-0.5 = 0.001, turns 0.047 rad); d 6, base 1e6, 0 vs 3.5 (pairs 1, 2:
// ω = 0.01 and 1e-4, 0.035 and 0.00035 rad). And nowhere "wrapped around" or "random": a pair
// between π and 2π has not wrapped, and aliased values are not random.
TEST(Compare, NoPairIsSaidToWrapWhenASlowPairBarelyMoved) {
    for (const auto& [a, b, d, base] :
         {std::tuple{0.0, 5.0, 4, 10000.0}, std::tuple{3.0, 50.0, 4, 1e6},
          std::tuple{0.0, 3.5, 6, 1e6}}) {
        const std::string text = ExplainDifference(a, b, d, base).text;
        EXPECT_EQ(text.find("Every pair"), std::string::npos) << text;
        EXPECT_NE(text.find("less than 0.1 rad"), std::string::npos) << text;
    }
    for (int d_model : {2, 4, 16, 512})
        for (double distance : {0.05, 2.0, 4.0, 50.0, 5000.0}) {
            const std::string text = ExplainDifference(3, 3 + distance, d_model, 10000).text;
            EXPECT_EQ(text.find("wrapped around"), std::string::npos) << text;
            EXPECT_EQ(text.find("random"), std::string::npos) << text;
        }
}

TEST(Clocks, HandStartsUpAndTurnsClockwise) {
    const HandTip up = HandDirection(0.0);
    EXPECT_NEAR(up.dx, 0.0f, 1e-6f);
    EXPECT_NEAR(up.dy, -1.0f, 1e-6f); // screen y grows downwards
    const HandTip quarter = HandDirection(M_PI / 2);
    EXPECT_NEAR(quarter.dx, 1.0f, 1e-6f); // a quarter turn clockwise points right
    EXPECT_NEAR(quarter.dy, 0.0f, 1e-6f);
}

// "bites" → first word differs even without positions (dog vs man); the next line compares the
// same two words, which is what shows order: one-hot words are orthogonal, so with PE off
// "bites" → "dog" is 0 in both sentences; with PE on it is A's row 1, column 0 against B's row
// 1, column 2 ("man bites dog" has dog last).
TEST(Order, SameWordsLineComparesTheSameTwoWords) {
    OrderDemoOptions off;
    off.positional.pe_enabled = false;
    const std::string same =
        OrderSameWordsText(run_order_demo("dog bites man", "man bites dog", off));
    EXPECT_NE(same.find("\"bites\" → \"dog\" scores 0.000 in both"), std::string::npos) << same;
    const OrderDemoOptions on;
    const OrderDemoResult result = run_order_demo("dog bites man", "man bites dog", on);
    char expected[128];
    std::snprintf(expected, sizeof expected, "is %.3f in A vs %.3f in B", result.scores_a.at(1, 0),
                  result.scores_b.at(1, 2));
    const std::string moved = OrderSameWordsText(result);
    EXPECT_NE(moved.find(expected), std::string::npos) << moved;
    EXPECT_NE(result.scores_a.at(1, 0), result.scores_b.at(1, 2));
    // Repeated words make "the same two words" ambiguous: no line.
    EXPECT_EQ(OrderSameWordsText(run_order_demo("dog bites dog", "dog dog bites", on)), "");
}

TEST(Order, VerdictTextFollowsTheThreeCases) {
    OrderDemoOptions off;
    off.positional.pe_enabled = false;
    const std::string same =
        OrderVerdictText(run_order_demo("dog bites man", "man bites dog", off), false);
    EXPECT_NE(same.find("Identical up to re-ordering"), std::string::npos) << same;
    EXPECT_NE(same.find("cannot tell"), std::string::npos) << same;
    const OrderDemoOptions on;
    const std::string differ =
        OrderVerdictText(run_order_demo("dog bites man", "man bites dog", on), true);
    EXPECT_NE(differ.find("Different"), std::string::npos) << differ;
    EXPECT_NE(differ.find("largest difference"), std::string::npos) << differ;
    const std::string other =
        OrderVerdictText(run_order_demo("dog bites man", "cat bites man", on), true);
    EXPECT_NE(other.find("not re-orderings"), std::string::npos) << other;
}

// Sentences equal after lower-casing are not a tie the encoding failed to break: there is one
// order, and the verdict says so (it used to say "the encoding is too weak here").
TEST(Order, IdenticalSentencesAreNotATie) {
    const OrderDemoOptions on;
    for (const auto& [a, b] :
         {std::pair{"cat", "cat"}, std::pair{"Dog bites man", "dog BITES man"}}) {
        const OrderDemoResult result = run_order_demo(a, b, on);
        const std::string verdict = OrderVerdictText(result, true);
        EXPECT_NE(verdict.find("same words in the same order"), std::string::npos) << verdict;
        EXPECT_EQ(verdict.find("too weak"), std::string::npos) << verdict;
        EXPECT_EQ(verdict.find("tie"), std::string::npos) << verdict;
        EXPECT_NE(OrderHeadlineText(result).find("same sentence twice"), std::string::npos);
    }
    // Repeated words: the verdict says how the words were matched.
    const std::string repeated = OrderVerdictText(run_order_demo("a a b", "b a a", on), true);
    EXPECT_NE(repeated.find("best of all 2 matchings"), std::string::npos) << repeated;
    // Only ASCII is lower-cased, and the panel's help and the command-line page say so.
    EXPECT_NE(tokenize("ÄRGER"), tokenize("ärger"));
    EXPECT_NE(std::string(kOrderWordsHelp).find("ÄRGER"), std::string::npos);
    std::ifstream page(std::string(pelab_test::SourceDir()) + "/docs/command-line.md");
    const std::string text((std::istreambuf_iterator<char>(page)), {});
    EXPECT_NE(text.find("Only the ASCII letters A-Z are lower-cased"), std::string::npos);
}

namespace {
OrderPanel& OrderOf(App& app) {
    return dynamic_cast<OrderPanel&>(*app.panels.Find("order")->panel);
}
} // namespace

TEST(Scene, RoundTripKeepsEveryField) {
    App original;
    original.state.d_model = 128;
    original.state.base = 500;
    original.state.pos_a = 7;
    original.state.pos_b = 150;
    original.state.pair = 9;
    original.state.shift_k = -3;
    OrderPanel& order = OrderOf(original);
    order.pe_enabled = false;
    order.pe_scale = 2.5;
    order.sentence_a = "the cat sat";
    order.sentence_b = "sat the cat";
    order.order_d_model = 24;
    order.random_embeddings = true;
    order.embedding_seed = 7;
    original.panels.Find("clocks")->open = false;
    original.view.theme = ThemeId::Light;
    App loaded;
    ASSERT_EQ(loaded.scene.Apply(original.Document(true).dump()), "");
    EXPECT_EQ(loaded.state.d_model, 128);
    EXPECT_EQ(loaded.state.base, 500);
    EXPECT_EQ(loaded.state.pos_a, 7);
    EXPECT_EQ(loaded.state.pos_b, 150);
    EXPECT_EQ(loaded.state.pair, 9);
    EXPECT_EQ(loaded.state.shift_k, -3);
    const OrderPanel& read = OrderOf(loaded);
    EXPECT_FALSE(read.pe_enabled);
    EXPECT_EQ(read.pe_scale, 2.5);
    EXPECT_EQ(read.sentence_b, "sat the cat");
    EXPECT_EQ(read.order_d_model, 24);
    EXPECT_TRUE(read.random_embeddings);
    EXPECT_EQ(read.embedding_seed, 7);
    EXPECT_FALSE(loaded.panels.Find("clocks")->open);
    EXPECT_TRUE(loaded.panels.Find("order")->open);
    EXPECT_EQ(loaded.view.theme, ThemeId::Light);
    // And the documents are identical field by field.
    EXPECT_EQ(loaded.Document(false), original.Document(false));
}

TEST(Scene, ReadoutsAreComputedFromTheState) {
    App app;
    app.state.d_model = 128;
    const nlohmann::json doc = app.Document(true);
    // The published two-position comparison: d_model 128, positions 3 and 50.
    EXPECT_NEAR(doc["readouts"]["compare"]["dot_product"].get<double>(), 30.59, 0.005);
    EXPECT_EQ(doc["readouts"]["compare"]["distance"].get<double>(), 47.0);
    EXPECT_FALSE(doc["readouts"]["order"]["same_up_to_reordering"].get<bool>());
    for (const PanelEntry& entry : app.panels.Entries())
        EXPECT_TRUE(doc["readouts"].contains(entry.id)) << entry.id;
}

TEST(Scene, BadScenesNameTheFieldAndChangeNothing) {
    const struct {
        const char* text;
        const char* mention;
    } cases[] = {
        {"{\"d_model\": 7}", "\"d_model\""},
        {"{\"d_model\": 8192}", "\"d_model\""},
        {"{\"d_model\": \"512\"}", "\"d_model\""},
        {"{\"base\": 1}", "\"base\""},
        {"{\"pos_a\": -1}", "\"pos_a\""},
        {"{\"pos_b\": 1e300}", "\"pos_b\""},
        {"{\"d_model\": 16, \"pair\": 8}", "\"pair\""},
        {"{\"pe_enabled\": 1}", "\"pe_enabled\""},
        {"{\"pe_scale\": -0.5}", "\"pe_scale\""},
        {"{\"sentence_a\": \"\"}", "\"sentence_a\""},
        {"{\"sentence_b\": 42}", "\"sentence_b\""},
        {"{\"open_panels\": \"waves\"}", "\"open_panels\""},
        {"{\"open_panels\": [\"waves\", \"nope\"]}", "\"open_panels\""},
        {"{\"shift_k\": 5000}", "\"shift_k\""},
        {"{\"theme\": \"neon\"}", "\"theme\""},
        {"{\"frobnicate\": true}", "\"frobnicate\""},
        {"{\"d_model\": 128", "not valid JSON"},
        {"[1, 2, 3]", "JSON object"},
        {"", "not valid JSON"},
        // All or nothing: a good field before a bad one is not applied either.
        {"{\"d_model\": 64, \"pos_a\": 9, \"pe_scale\": \"x\"}", "\"pe_scale\""},
    };
    for (const auto& c : cases) {
        App app;
        const std::string error = app.scene.Apply(c.text);
        EXPECT_NE(error.find(c.mention), std::string::npos) << c.text << " → " << error;
        EXPECT_EQ(app.state.d_model, 512) << c.text;
        EXPECT_EQ(app.state.pos_a, 3.0) << c.text;
    }
}

TEST(Scene, PartialSceneKeepsDefaultsForTheRest) {
    App app;
    ASSERT_EQ(app.scene.Apply("{\"pos_b\": 150, \"open_panels\": [\"compare\"]}"), "");
    EXPECT_EQ(app.state.pos_b, 150);
    EXPECT_EQ(app.state.d_model, 512);
    EXPECT_TRUE(app.panels.Find("compare")->open);
    EXPECT_FALSE(app.panels.Find("waves")->open);
}

// The scenes PE Lab ships open without error (and say what they promise).
TEST(Scene, ShippedScenesLoad) {
    const std::filesystem::path folder =
        std::filesystem::path(pelab_test::SourceDir()) / "assets" / "scenes";
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        App app;
        EXPECT_EQ(app.LoadScene(entry.path().string()), "") << entry.path();
        ++count;
    }
    EXPECT_GE(count, 3);
    App document;
    ASSERT_EQ(document.LoadScene((folder / "compare-3-vs-50.json").string()), "");
    EXPECT_EQ(document.state.d_model, 128);
    EXPECT_EQ(document.state.pos_b, 50);
}

// The plot helper's own contracts.
// An axis of pair indices at d_model 4 spans −0.5 … 1.5: ticks 0 and 1, never "−0.4" or "1.4".
TEST(Plot, IntegerTicksAreWholeNumbers) {
    EXPECT_EQ(plot::IntegerTicks(plot::Range{-0.5, 1.5}, 8), (std::vector<double>{0.0, 1.0}));
    EXPECT_EQ(plot::IntegerTicks(plot::Range{-0.5, 255.5}, 6),
              plot::NiceTicks(plot::Range{-0.5, 255.5}, 6)); // steps ≥ 1 are kept as they are
}

TEST(Plot, NiceTicksUseOneTwoFiveSteps) {
    EXPECT_EQ(plot::NiceTicks(plot::Range{0, 64}, 6),
              (std::vector<double>{0, 10, 20, 30, 40, 50, 60}));
    EXPECT_EQ(plot::NiceTicks(plot::Range{-1.25, 1.25}, 5),
              (std::vector<double>{-1, -0.5, 0, 0.5, 1}));
    EXPECT_TRUE(plot::NiceTicks(plot::Range{1, 1}, 5).empty());
    char text[32];
    plot::FormatTick(60611, text, sizeof text);
    EXPECT_STREQ(text, "60.6k");
    plot::FormatTick(0.25, text, sizeof text);
    EXPECT_STREQ(text, "0.25");
    plot::FormatTick(1500, text, sizeof text); // "1.5e+03" on the heatmap's axis before
    EXPECT_STREQ(text, "1500");
    plot::FormatTick(5000, text, sizeof text);
    EXPECT_STREQ(text, "5000");
}

// Narrow matrix columns keep the word ("bites"), which says more than its index; only a word
// too wide falls back to the index. Measured in characters here (10 px each).
TEST(MatrixLabels, ColumnLabelsKeepTheWordWhenTheyCan) {
    const auto measure = [](const std::string& s) { return 10.0f * static_cast<float>(s.size()); };
    EXPECT_EQ(FitColumnLabel("1 bites", 80, measure), "1 bites");
    EXPECT_EQ(FitColumnLabel("1 bites", 60, measure), "bites");
    EXPECT_EQ(FitColumnLabel("1 bites", 40, measure), "1");
    EXPECT_EQ(FitColumnLabel("12", 10, measure), "12"); // no space: as it is (clipped)
}

TEST_F(Panels4, EqualAspectPlotKeepsCirclesRound) {
    ImGui::NewFrame();
    ImGui::SetNextWindowSize(ImVec2(700, 400));
    ImGui::Begin("aspect");
    plot::PlotView view;
    view.SetHome(plot::Range{-2, 2}, plot::Range{-1, 1});
    plot::PlotConfig config;
    config.flags = plot::PlotFlags_EqualAspect;
    plot::Plot p;
    ASSERT_TRUE(p.Begin("##circle", view, ImVec2(600, 300), config));
    // One unit spans as many pixels vertically as horizontally.
    const ImVec2 origin = p.ToPixels(0, 0), right = p.ToPixels(1, 0), up = p.ToPixels(0, 1);
    EXPECT_NEAR(right.x - origin.x, origin.y - up.y, 0.01f);
    p.End();
    ImGui::End();
    ImGui::Render();
}

// A vertical line's label never covers the legend: wherever the line is (left, under the
// legend, at the right edge), the label is drawn clear of the legend row's entries.
TEST_F(Panels4, LineLabelsNeverCoverTheLegend) {
    const double xs[] = {0, 100}, ys[] = {0, 1};
    const auto overlap = [](ImVec4 a, ImVec4 b) {
        return a.x < b.z && b.x < a.z && a.y < b.w && b.y < a.w;
    };
    for (double line_x : {2.0, 50.0, 70.0, 85.0, 97.0, 100.0}) {
        ImGui::NewFrame();
        ImGui::SetNextWindowSize(ImVec2(700, 400));
        ImGui::Begin("labels");
        plot::PlotView view;
        view.SetHome(plot::Range{0, 100}, plot::Range{0, 1});
        plot::Plot p;
        ASSERT_TRUE(p.Begin("##labels", view, ImVec2(600, 300), plot::PlotConfig{}));
        p.Line("a long legend entry", xs, ys, 2, IM_COL32_WHITE);
        p.Line("another long one", xs, ys, 2, IM_COL32_WHITE);
        p.VLine(line_x, IM_COL32_WHITE, "pos A");
        const ImVec2 plot_min = p.PlotMin(), plot_max = p.PlotMax();
        p.End();
        ASSERT_EQ(p.LineLabelRects().size(), 1u);
        const ImVec4 label = p.LineLabelRects()[0], legend = p.LegendRect();
        EXPECT_GT(legend.z, legend.x);
        EXPECT_FALSE(overlap(label, legend))
            << "line at x = " << line_x << ": label " << label.x << "-" << label.z << ", legend "
            << legend.x << "-" << legend.z;
        EXPECT_GE(label.x, plot_min.x - 100); // within the plot's frame (left margin allowed)
        EXPECT_LE(label.z, plot_max.x + 1);
        ImGui::End();
        ImGui::Render();
    }
}

// A legend wider than a narrow plot wraps onto more rows instead of running past the frame's
// right edge, and from the next frame on the top margin keeps room for all the rows, so the
// legend never covers the data.
TEST_F(Panels4, LegendWrapsInANarrowPlot) {
    const double xs[] = {0, 1}, ys[] = {0, 1};
    plot::PlotView view; // kept across frames, as a panel keeps it
    view.SetHome(plot::Range{0, 1}, plot::Range{0, 1});
    float first_top = 0;
    for (int frame = 0; frame < 2; ++frame) {
        ImGui::NewFrame();
        ImGui::SetNextWindowSize(ImVec2(400, 400));
        ImGui::Begin("narrow legend");
        plot::Plot p;
        const ImVec2 corner = ImGui::GetCursorScreenPos();
        const float left = corner.x;
        ASSERT_TRUE(p.Begin("##narrow", view, ImVec2(220, 300), plot::PlotConfig{}));
        for (const char* label : {"linear (PI)", "NTK-aware", "YaRN", "Llama 3", "unscaled"})
            p.Line(label, xs, ys, 2, IM_COL32_WHITE);
        const ImVec2 plot_min = p.PlotMin(), plot_max = p.PlotMax();
        p.End();
        const ImVec4 legend = p.LegendRect();
        EXPECT_GE(legend.x, left - 0.5f) << "frame " << frame;
        EXPECT_LE(legend.z, plot_max.x + 0.5f) << "frame " << frame;
        EXPECT_GE(view.legend_rows, 2) << "five entries do not fit 220 px in one row";
        // Rows stacked upward from the row just above the data.
        EXPECT_GT(legend.w - legend.y, 2.0f * ImGui::GetFontSize());
        if (frame == 0)
            first_top = plot_min.y;
        else {
            EXPECT_GT(plot_min.y, first_top + ImGui::GetFontSize()); // the margin grew
            EXPECT_LE(legend.w, plot_min.y + 0.5f);                  // and holds every row
            EXPECT_GE(legend.y, corner.y - 0.5f);                    // inside the frame's top
        }
        ImGui::End();
        ImGui::Render();
    }
}

// A y label wider than its plot is drawn smaller, never past the frame (and cut with "…" only
// when even 0.7 of the text size does not fit).
TEST_F(Panels4, LongYLabelStaysInsideItsFrame) {
    const double xs[] = {0, 1}, ys[] = {0, 1};
    for (const float width : {500.0f, 260.0f, 90.0f}) {
        ImGui::NewFrame();
        ImGui::SetNextWindowSize(ImVec2(600, 400));
        ImGui::Begin("long y label");
        plot::PlotView view;
        view.SetHome(plot::Range{0, 1}, plot::Range{0, 1});
        plot::PlotConfig config;
        config.y_label = "PE(p)·PE(p + k), the same for every start p";
        plot::Plot p;
        const ImDrawList* draw = ImGui::GetWindowDrawList();
        const int before = draw->VtxBuffer.Size;
        const float left = ImGui::GetCursorScreenPos().x;
        ASSERT_TRUE(p.Begin("##long", view, ImVec2(width, 300), config));
        p.Line("a", xs, ys, 2, IM_COL32_WHITE);
        p.End();
        // Every vertex drawn (the label's glyphs among them) lies within the frame across.
        for (int v = before; v < draw->VtxBuffer.Size; ++v) {
            EXPECT_GE(draw->VtxBuffer[v].pos.x, left - 1.0f) << width;
            EXPECT_LE(draw->VtxBuffer[v].pos.x, left + width + 1.0f) << width;
        }
        ImGui::End();
        ImGui::Render();
    }
}

// Presenting one panel: it fills the window between the menu bar and the status bar; Esc goes
// back to the tiled panels.
TEST_F(Panels4, PresentedPanelFillsTheWindowAndEscReturns) {
    Frame();
    app.view.presented_panel = "compare";
    Frame();
    Frame();
    const ImGuiWindow* window = WindowOf("compare");
    ASSERT_NE(window, nullptr);
    const float bar = ImGui::GetFrameHeight();
    EXPECT_FLOAT_EQ(window->Pos.y, bar);
    EXPECT_FLOAT_EQ(window->Size.x, 1600.0f);
    EXPECT_FLOAT_EQ(window->Size.y, 1000.0f - 2 * bar);
    EXPECT_FALSE(WindowOf("waves")->Active);
    Frame({}, {KeyPress{keys::kEscape}});
    EXPECT_TRUE(app.view.presented_panel.empty());
    Frame();
    EXPECT_LT(WindowOf("compare")->Size.x,
              1600.0f * 0.6f); // tiled again
}

TEST(Scene, PresentedPanelIsValidatedAndKept) {
    App app;
    EXPECT_NE(app.scene.Apply("{\"presented_panel\": \"nope\"}").find("\"presented_panel\""),
              std::string::npos);
    ASSERT_EQ(app.scene.Apply("{\"presented_panel\": \"clocks\"}"), "");
    EXPECT_EQ(app.view.presented_panel, "clocks");
}

// Regression (600 s soak under ASan): at d_model 2, the "3 & 50" preset sets d_model 128 while
// the compare panel draws, and its table read the 2-wide PE vectors up to dimension 127.
TEST_F(Panels4, PresetThatWidensDModelKeepsTheTableInBounds) {
    state.d_model = 2;
    app.recorder.enabled = true;
    Frame();
    Frame();
    ASSERT_TRUE(app.recorder.rects.count("compare.preset_3_50"));
    Click("compare.preset_3_50");
    Frame();
    EXPECT_EQ(state.d_model, 128);
    EXPECT_EQ(state.pos_b, 50);
    EXPECT_EQ(Get<ComparePanel>("compare").result_cache.Last()->pe_a.size(), 128u);
}

// One compute path: the compare panel computes its vectors, sums and sentence once per change
// of the positions, d_model or base, and the readouts and the CSV report that same result: the
// published pair (3, 50) at d_model 128 gives the dot product 30.59 in all three.
TEST_F(Panels4, CompareComputesOnceAndReportsWhatItDraws) {
    ComparePanel& compare = Get<ComparePanel>("compare");
    ASSERT_EQ(app.scene.Apply(R"({"pos_a": 3, "pos_b": 50, "d_model": 128})"), "");
    app.recorder.enabled = true;
    Present("compare", 4);
    const long computed = compare.result_cache.Computations();
    const nlohmann::json r = compare.Readouts(state);
    const std::string csv = compare.TableCsv(state);
    EXPECT_EQ(compare.result_cache.Computations(), computed) << "the readouts reuse the result";
    EXPECT_NEAR(r["dot_product"].get<double>(), 30.59, 0.005);
    EXPECT_EQ(r["dot_product"].get<double>(), compare.result_cache.Last()->comparison.dot_product);
    // The CSV's pair shares add up to the same dot product (each pair listed twice: sin, cos).
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line); // header
    double sum = 0;
    while (std::getline(lines, line)) {
        const double share = std::stod(line.substr(line.rfind(',') + 1));
        sum += share / 2;
    }
    EXPECT_NEAR(sum, 30.59, 0.005);
    state.pos_b = 51;
    Present("compare", 2);
    EXPECT_EQ(compare.result_cache.Computations(), computed + 1);
}

// The compare panel's offset plot spans a round number at least twice |B − A| (64 at least):
// the axis stays still while B is dragged within a step.
TEST(Compare, OffsetPlotSpansARoundNumber) {
    EXPECT_EQ(OffsetPlotSpan(0), 64.0);
    EXPECT_EQ(OffsetPlotSpan(32), 64.0);
    EXPECT_EQ(OffsetPlotSpan(47), 100.0);
    EXPECT_EQ(OffsetPlotSpan(50), 100.0);
    EXPECT_EQ(OffsetPlotSpan(51), 200.0);
    EXPECT_EQ(OffsetPlotSpan(147), 500.0);
    EXPECT_EQ(OffsetPlotSpan(250), 500.0);
    EXPECT_EQ(OffsetPlotSpan(999999), 2e6); // the panel clamps it to the position range
}

// The order demo runs once per change of its sentences or settings, not every frame, and the
// readouts report the run the frame drew.
TEST_F(Panels4, OrderDemoRunsOncePerChange) {
    OrderPanel& order = Get<OrderPanel>("order");
    Present("order", 4);
    const long runs = order.demo_cache.Computations();
    EXPECT_EQ(runs, 1);
    const nlohmann::json r = order.Readouts(state);
    EXPECT_EQ(order.demo_cache.Computations(), runs);
    EXPECT_EQ(r["max_reorder_diff"].get<double>(),
              order.demo_cache.Last()->result.verdict.max_difference);
    order.pe_enabled = !order.pe_enabled;
    Present("order", 2);
    EXPECT_EQ(order.demo_cache.Computations(), runs + 1);
}

// One compute path: the waves panel computes the selected pair's numbers once per change and
// its readouts report that result. At d_model 8, base 10 000, pair 2: ω = 10000^(−1/2) = 0.01
// exactly, the wavelength 200π, and at pos A 50 the angle 0.5.
TEST_F(Panels4, WavesComputesOnceAndReportsWhatItDraws) {
    WavesPanel& waves = Get<WavesPanel>("waves");
    ASSERT_EQ(app.scene.Apply(R"({"d_model": 8, "pair": 2, "pos_a": 50})"), "");
    Present("waves", 4);
    const long computed = waves.result_cache.Computations();
    const long spectra = waves.spectrum_cache.Computations();
    Present("waves", 2);
    EXPECT_EQ(waves.result_cache.Computations(), computed) << "a still frame computes nothing";
    EXPECT_EQ(waves.spectrum_cache.Computations(), spectra);
    const nlohmann::json r = waves.Readouts(state);
    EXPECT_EQ(waves.result_cache.Computations(), computed) << "the readouts reuse the result";
    EXPECT_NEAR(r["omega"].get<double>(), 0.01, 1e-15);
    EXPECT_NEAR(r["wavelength"].get<double>(), 200 * M_PI, 1e-10);
    EXPECT_NEAR(r["angle_at_pos_a"].get<double>(), 0.5, 1e-14);
    EXPECT_NEAR(r["sin_at_pos_a"].get<double>(), 0.479425538604203, 1e-14);
    EXPECT_NEAR(r["cos_at_pos_a"].get<double>(), 0.8775825618903728, 1e-14);
    // The slowest pair at d 8 is i = 3: wavelength 2π·10000^(6/8) = 2000π.
    EXPECT_NEAR(r["slowest_wavelength"].get<double>(), 2000 * M_PI, 1e-9);
    ASSERT_EQ(waves.spectrum_cache.Last()->omega.size(), 4u);
    EXPECT_NEAR(waves.spectrum_cache.Last()->omega[2], 0.01, 1e-15);
    state.pos_a = 51;
    Present("waves", 2);
    EXPECT_EQ(waves.result_cache.Computations(), computed + 1);
    EXPECT_EQ(waves.spectrum_cache.Computations(), spectra) << "ω does not depend on pos A";
}

// The clocks panel computes its hands once per change; the summary row and the readouts show the
// same faces: at d_model 4 the two pairs once each (no "middle" face repeating the slowest).
TEST_F(Panels4, ClocksComputesOnceAndReportsTheFacesItDraws) {
    ClocksPanel& clocks = Get<ClocksPanel>("clocks");
    ASSERT_EQ(
        app.scene.Apply(R"({"d_model": 4, "pair": 1, "pos_a": 50, "pos_b": 100, "shift_k": 10})"),
        "");
    app.recorder.rects.clear();
    Present("clocks", 4);
    const long computed = clocks.result_cache.Computations();
    Present("clocks", 2);
    EXPECT_EQ(clocks.result_cache.Computations(), computed) << "a still frame computes nothing";
    const nlohmann::json r = clocks.Readouts(state);
    EXPECT_EQ(clocks.result_cache.Computations(), computed) << "the readouts reuse the result";
    // Pair 1 of d 4 at base 10 000: ω = 10000^(−2/4) = 0.01.
    EXPECT_NEAR(r["angle_at_pos_a"].get<double>(), 0.5, 1e-14);
    EXPECT_NEAR(r["angle_at_pos_b"].get<double>(), 1.0, 1e-14);
    EXPECT_NEAR(r["shift_arc"].get<double>(), 0.1, 1e-15);
    ASSERT_EQ(r["summary"].size(), 2u);
    EXPECT_EQ(r["summary"][0]["face"], "fastest");
    EXPECT_EQ(r["summary"][1]["face"], "slowest");
    EXPECT_NEAR(r["summary"][1]["turns_at_pos_a"].get<double>(), 0.5 / (2 * M_PI), 1e-15);
    EXPECT_NEAR(r["summary"][0]["turns_at_pos_a"].get<double>(), 50 / (2 * M_PI), 1e-12);
    int faces = 0;
    for (const auto& [name, rect] : app.recorder.rects)
        if (name.rfind("clocks.summary_pair_", 0) == 0) ++faces;
    EXPECT_EQ(faces, 2) << "the drawn summary row has the readouts' faces";
    state.shift_k = 11;
    Present("clocks", 2);
    EXPECT_EQ(clocks.result_cache.Computations(), computed + 1);
}

// In the window the compare panel's offset curve is computed off the frame when its span steps
// (512 offsets × 2 048 cosines at d_model 4 096): the frame goes on with the last curve, over its
// own span, and asks for frames until the new one is in; that one is Σ cos(ω_i k), computed here.
TEST_F(Panels4, CompareCurveComputesOffTheFrameInTheWindow) {
    ComparePanel& compare = Get<ComparePanel>("compare");
    ASSERT_EQ(app.scene.Apply(R"({"d_model": 4096, "pos_a": 3, "pos_b": 50})"), "");
    app.compute_in_background = true;
    Present("compare", 3);
    ASSERT_TRUE(compare.curve_current);
    const double old_span = compare.curve_cache.Last()->span;
    state.pos_b = 3 + 400; // a span of 1 000, not 100
    Frame();
    EXPECT_FALSE(compare.curve_current);
    EXPECT_TRUE(app.stats.computing);
    EXPECT_EQ(compare.curve_cache.Last()->span, old_span) << "the last curve stays meanwhile";
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!compare.curve_current && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        Frame();
    }
    ASSERT_TRUE(compare.curve_current);
    const ComparePanel::Curve& curve = *compare.curve_cache.Last();
    EXPECT_EQ(curve.span, 1000.0);
    for (const std::size_t j : {std::size_t{0}, std::size_t{137}, curve.k.size() - 1}) {
        long double sum = 0;
        for (int i = 0; i < 2048; ++i)
            sum += std::cos(static_cast<long double>(curve.k[j]) *
                            std::pow(10000.0L, -2.0L * i / 4096.0L));
        EXPECT_NEAR(curve.dot[j], static_cast<double>(sum), 1e-9) << "k = " << curve.k[j];
    }
}

// The distance readout counts in words: one position, otherwise positions (0, fractions, many).
TEST(CompareWords, OnePositionIsSingular) {
    EXPECT_EQ(pelab::DistanceText(1), "1 position");
    EXPECT_EQ(pelab::DistanceText(0), "0 positions");
    EXPECT_EQ(pelab::DistanceText(2), "2 positions");
    EXPECT_EQ(pelab::DistanceText(0.5), "0.5 positions");
    EXPECT_EQ(pelab::DistanceText(1.5), "1.5 positions");
    EXPECT_EQ(pelab::DistanceText(999999), "999999 positions");
}

// order.first_word outlines its own line ("bites" → first word: …), not the grey same-words
// line drawn under it, which has a name of its own.
TEST_F(Panels4, OrderFirstWordOutlinesItsOwnLine) {
    app.recorder.enabled = true;
    ASSERT_EQ(app.scene.Apply(R"({"sentence_a": "dog bites man", "sentence_b": "man bites dog"})"),
              "");
    Present("order");
    ASSERT_TRUE(app.recorder.rects.count("order.first_word"));
    ASSERT_TRUE(app.recorder.rects.count("order.same_words"));
    const WidgetRect first = app.recorder.rects["order.first_word"];
    const WidgetRect same = app.recorder.rects["order.same_words"];
    EXPECT_LE(first.y1, same.y0 + 0.5f) << "the first-word line is above the grey line";
}
