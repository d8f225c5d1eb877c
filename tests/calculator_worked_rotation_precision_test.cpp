// The "inside the formula" panels (calculator, worked example, rotation, precision), headless:
// their numbers against published values or the long double reference in reference.h,
// their sentences against the numbers, and their controls driven through real frames.
#include "headless_fixture.h"
#include "io/scene.h"
#include "panels/calculator/panel_calculator.h"
#include "panels/precision/panel_precision.h"
#include "panels/rotation/panel_rotation.h"
#include "panels/worked/panel_worked.h"
#include "pelab/encodings/precision.h"
#include "pelab/encodings/rotation.h"
#include "pelab/encodings/sinusoidal.h"
#include "reference.h"
#include "widgets/number_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

using namespace pelab;

namespace {

class Formula : public HeadlessApp {
protected:
    Formula() : HeadlessApp(ImVec2(1920, 1080), /*record=*/true) {}
    void Present(const char* id, int frames = 2) { HeadlessApp::Present(id, frames); }
    // A frame context with only a clipboard, for what a panel says about its copy.
    FrameContext FrameFor(Clipboard& clipboard) {
        FrameContext frame{state, app.pending, app.recorder, app.stats, GetTheme(ThemeId::Dark)};
        frame.clipboard = &clipboard;
        return frame;
    }
};

// One fixture, named by each test's subject.
class CalculatorUi : public Formula {};
class WorkedUi : public Formula {};
class RotationUi : public Formula {};
class PrecisionUi : public Formula {};

std::vector<std::string> Split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, separator);)
        parts.push_back(part);
    return parts;
}

} // namespace

// The calculator at d 512, pos 3 and 4 (as in the published course): each CSV row's numbers
// equal the formula evaluated here in long double, for the first 8 dims and for a range at the
// end of the vector.
TEST_F(CalculatorUi, RowsMatchTheFormula) {
    CalculatorPanel& calc = Get<CalculatorPanel>("calculator");
    Present("calculator");
    for (const auto& [from, to] : {std::pair{0, 7}, std::pair{500, 511}}) {
        calc.dim_from = from, calc.dim_to = to;
        const std::vector<std::string> lines = Split(calc.Csv(state), '\n');
        ASSERT_EQ(static_cast<int>(lines.size()), to - from + 2);
        EXPECT_EQ(lines[0].rfind("dim,i,", 0), 0u);
        for (int dim = from; dim <= to; ++dim) {
            const std::vector<std::string> cells = Split(lines[dim - from + 1], ',');
            ASSERT_EQ(cells.size(), 10u);
            const int i = dim / 2;
            const long double denominator = powl(10000.0L, 2.0L * i / 512);
            EXPECT_EQ(std::stoi(cells[0]), dim);
            EXPECT_EQ(std::stoi(cells[1]), i);
            EXPECT_NEAR(std::stod(cells[3]), static_cast<double>(denominator),
                        1e-12 * static_cast<double>(denominator));
            EXPECT_NEAR(std::stod(cells[4]), static_cast<double>(3.0L / denominator), 1e-13);
            EXPECT_EQ(cells[6], dim % 2 ? "cos" : "sin");
            EXPECT_NEAR(std::stod(cells[7]), static_cast<double>(reference::pe(3, dim, 512, 10000)),
                        1e-15);
            EXPECT_NEAR(std::stod(cells[8]), static_cast<double>(reference::pe(4, dim, 512, 10000)),
                        1e-15);
        }
    }
    // The published course's first value: PE(1, 0) = sin(1) = 0.841471.
    state.pos_a = 1;
    calc.dim_from = 0, calc.dim_to = 7;
    const nlohmann::json r = calc.Readouts(state);
    EXPECT_NEAR(r["rows"][0]["value"].get<double>(), 0.841471, 1e-6);
    EXPECT_NEAR(r["rows"][1]["value"].get<double>(), 0.540302, 1e-6);
    EXPECT_EQ(r["rows"].size(), 8u);
}

// The summary says what the numbers say: at d 512, neighbours (3 vs 4) differ most in the first,
// fast dimensions and least in the slow, late ones — the opposite of the published course's
// "nearly identical early values". Far apart (3 vs 100 003) even the slow half has moved.
TEST_F(CalculatorUi, SummaryTellsTheTruthAboutNeighbours) {
    // Independent: the largest |Δ| in each half of the vector, in long double.
    const auto largest = [](double a, double b, int first, int last) {
        long double worst = 0;
        for (int dim = first; dim <= last; ++dim)
            worst = std::max(worst, fabsl(reference::pe(a, dim, 512, 10000) -
                                          reference::pe(b, dim, 512, 10000)));
        return static_cast<double>(worst);
    };
    const std::string near = CalculatorSummary(3, 4, 0, 7, 512, 10000).text;
    char expected[160];
    std::snprintf(expected, sizeof expected,
                  "dims 0–255 change by up to %.3g and dims 256–511 by up to %.3g",
                  largest(3, 4, 0, 255), largest(3, 4, 256, 511));
    EXPECT_NE(near.find(expected), std::string::npos) << near;
    EXPECT_NE(near.find("early, fast dimensions tell these positions apart"), std::string::npos);
    EXPECT_GT(largest(3, 4, 0, 7), 100 * largest(3, 4, 504, 511)); // the claim, checked
    const std::string far = CalculatorSummary(3, 100003, 0, 7, 512, 10000).text;
    EXPECT_NE(far.find("even the slow dimensions have moved"), std::string::npos) << far;
    EXPECT_EQ(far.find("barely move"), std::string::npos) << far;
    // Tiny offsets: nothing moves much, and it is said so.
    EXPECT_NE(CalculatorSummary(3, 3.001, 0, 7, 512, 10000).text.find("no dimension moves much"),
              std::string::npos);
    EXPECT_NE(CalculatorSummary(3, 3, 0, 7, 512, 10000).text.find("every |Δ| is 0"),
              std::string::npos);
    // d_model 2: one pair, no halves to compare; no claim about them.
    EXPECT_EQ(CalculatorSummary(3, 4, 0, 1, 2, 10000).text.find("whole vector"), std::string::npos);
}

// d_model 4096, every dimension: the clipper draws only the rows in view, so a frame stays cheap.
TEST_F(CalculatorUi, ScrollsTheWholeOf4096Dims) {
    CalculatorPanel& calc = Get<CalculatorPanel>("calculator");
    state.d_model = 4096;
    calc.dim_from = 0, calc.dim_to = 4095;
    Present("calculator");
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < 10; ++k)
        Frame();
    const double per_frame =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 10;
    EXPECT_LT(per_frame, 0.05) << "a frame took " << per_frame * 1e3 << " ms";
    EXPECT_EQ(calc.Readouts(state)["rows"].size(), 4096u);
    // Out-of-range settings are clamped to the vector.
    calc.dim_from = 100, calc.dim_to = 4095;
    state.d_model = 8;
    int first = 0, last = 0;
    calc.Range(state, &first, &last);
    EXPECT_EQ(first, 7);
    EXPECT_EQ(last, 7);
}

// The CSV saves through the atomic writer: a folder or a missing folder is refused with a
// message, a real path gets the rows.
TEST_F(CalculatorUi, CsvSavesOrSaysWhyNot) {
    CalculatorPanel& calc = Get<CalculatorPanel>("calculator");
    const std::string path = testing::TempDir() + "/calculator.csv";
    EXPECT_EQ(SaveTextFile(path, calc.Csv(state)), "");
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(text, calc.Csv(state));
    EXPECT_NE(SaveTextFile(testing::TempDir(), "x"), "");
    EXPECT_NE(SaveTextFile("/nonexistent-folder/x.csv", "x"), "");
}

// Copy as CSV: the rows shown go to the clipboard, and the note says "copied" only once the
// clipboard says the copy happened (the browser's may take frames, or refuse).
TEST_F(CalculatorUi, CopySaysCopiedOnlyWhenTheClipboardTookIt) {
    struct SlowClipboard final : Clipboard {
        std::string text;
        Outcome outcome = Outcome::Pending;
        long Copy(const std::string& copied) override {
            text = copied;
            return 7;
        }
        Outcome OutcomeOf(long copy) const override {
            return copy == 7 ? outcome : Outcome::Refused;
        }
    } clipboard;
    app.clipboard = &clipboard;
    CalculatorPanel& calc = Get<CalculatorPanel>("calculator");
    state.d_model = 16;
    calc.dim_from = 0, calc.dim_to = 7;
    Present("calculator");
    Click("calculator.copy_csv");
    EXPECT_EQ(clipboard.text, calc.Csv(state));
    // The header and the 8 rows of dims 0 … 7.
    EXPECT_EQ(std::count(clipboard.text.begin(), clipboard.text.end(), '\n'), 9);
    EXPECT_EQ(calc.CopyNote(FrameFor(clipboard)), "copying…");
    clipboard.outcome = Clipboard::Outcome::Refused;
    EXPECT_EQ(calc.CopyNote(FrameFor(clipboard)).rfind("not copied", 0), 0u);
    clipboard.outcome = Clipboard::Outcome::Done;
    EXPECT_EQ(calc.CopyNote(FrameFor(clipboard)), "copied 8 rows");
    app.clipboard = &app.imgui_clipboard;
    // ImGui's clipboard (the desktop's): done at once, and the text is there.
    Click("calculator.copy_csv");
    EXPECT_EQ(std::string(ImGui::GetClipboardText()), calc.Csv(state));
    EXPECT_EQ(calc.CopyNote(FrameFor(app.imgui_clipboard)), "copied 8 rows");
}

// The published worked example with correctly rounded values (rounded, not truncated): PE(1) =
// [0.841, 0.540, 0.010, 1.000]; "cat"@1 = [1.541, 0.240, 0.610, 1.100]; "sat"@2 =
// [0.509, 0.484, 0.220, 0.500].
TEST_F(WorkedUi, MatchesThePublishedExample) {
    WorkedPanel& worked = Get<WorkedPanel>("worked");
    Present("worked");
    const nlohmann::json r = worked.Readouts(state);
    const auto rounded = [](const nlohmann::json& row) {
        std::vector<double> out;
        for (const auto& v : row)
            out.push_back(std::round(v.get<double>() * 1000) / 1000);
        return out;
    };
    EXPECT_EQ(rounded(r["pe"][1]), (std::vector<double>{0.841, 0.540, 0.010, 1.000}));
    EXPECT_EQ(rounded(r["x_final"][1]), (std::vector<double>{1.541, 0.240, 0.610, 1.100}));
    EXPECT_EQ(rounded(r["x_final"][2]), (std::vector<double>{0.509, 0.484, 0.220, 0.500}));
    EXPECT_EQ(rounded(r["x_final"][0]), (std::vector<double>{0.200, 1.500, -0.100, 1.800}));
    // The cells where the published example differs from correct rounding are exactly the ones
    // it truncated: dim 3 of pos 1 and 2 (0.999) and of "cat"@1, "sat"@2 (1.099, 0.499).
    std::vector<std::pair<int, int>> differ_pe, differ_final;
    for (int row = 0; row < 3; ++row)
        for (int dim = 0; dim < 4; ++dim) {
            if (std::round(r["pe"][row][dim].get<double>() * 1000) / 1000 !=
                WorkedDocumentPe(row, dim))
                differ_pe.push_back({row, dim});
            if (std::round(r["x_final"][row][dim].get<double>() * 1000) / 1000 !=
                WorkedDocumentFinal(row, dim))
                differ_final.push_back({row, dim});
        }
    const std::vector<std::pair<int, int>> truncated = {{1, 3}, {2, 3}};
    EXPECT_EQ(differ_pe, truncated);
    EXPECT_EQ(differ_final, truncated);
    EXPECT_EQ(worked.marked_pe, 2); // and the panel marks exactly those on screen
    EXPECT_EQ(worked.marked_final, 2);
    // The same word elsewhere: "cat"@1 vs "cat"@0 differ by PE(1) − PE(0), computed here.
    long double distance = 0;
    for (int dim = 0; dim < 4; ++dim) {
        const long double delta = reference::pe(1, dim, 4, 10000) - reference::pe(0, dim, 4, 10000);
        distance += delta * delta;
    }
    EXPECT_EQ(r["probe"]["word"], "cat");
    EXPECT_NEAR(r["probe"]["distance"].get<double>(), std::sqrt(static_cast<double>(distance)),
                1e-12);
}

// One compute path: the worked example computes its rows and probe once per change, and a still
// frame or the readouts compute nothing more; an edited cell (through a scene) computes once.
TEST_F(WorkedUi, ComputesOncePerChange) {
    WorkedPanel& worked = Get<WorkedPanel>("worked");
    Present("worked", 4);
    const long computed = worked.result_cache.Computations();
    Present("worked", 2);
    (void)worked.Readouts(state);
    EXPECT_EQ(worked.result_cache.Computations(), computed);
    // The probe's sentence is the one the result holds, and names the word it compares.
    EXPECT_NE(worked.result_cache.Last()->probe.sentence.text.find("cat"), std::string::npos);
    ASSERT_EQ(app.scene.Apply(R"({"worked_embeddings": {"sat": [0.5, 0.5, 0.5, 0.5]}})"), "");
    Present("worked", 2);
    EXPECT_EQ(worked.result_cache.Computations(), computed + 1);
    const nlohmann::json r = worked.Readouts(state);
    // "sat"@2: 0.5 + sin(2) in dim 0, 0.5 + cos(2·10000^(−1/2)) in dim 3.
    EXPECT_NEAR(r["x_final"][2][0].get<double>(), 0.5 + std::sin(2.0), 1e-15);
    EXPECT_NEAR(r["x_final"][2][3].get<double>(), 0.5 + std::cos(0.02), 1e-15);
}

// Edited embeddings come and go through scenes; bad ones are refused naming the field, and a
// sentence of 17 words is refused with a message instead of drawing.
TEST_F(WorkedUi, EditsAndBadInput) {
    WorkedPanel& worked = Get<WorkedPanel>("worked");
    ASSERT_EQ(app.scene.Apply(R"({"worked_embeddings": {"Cat": [1.5]}, "worked_d_model": 6})"), "");
    Present("worked");
    const nlohmann::json r = worked.Readouts(state);
    EXPECT_NEAR(r["x_final"][1][0].get<double>(), 1.5 + std::sin(1.0), 1e-12);
    EXPECT_EQ(r["embeddings"][1].size(), 6u);
    EXPECT_NEAR(r["embeddings"][1][1].get<double>(), -0.3, 1e-15); // the published value, kept
    for (const char* bad :
         {R"({"worked_embeddings": {"cat": [1e9]}})", R"({"worked_embeddings": {"cat": "x"}})",
          R"({"worked_embeddings": [1, 2]})", R"({"worked_d_model": 5})",
          R"({"worked_sentence": "a b c d e f g h i j k l m n o p q"})"}) {
        const std::string error = app.scene.Apply(bad);
        EXPECT_NE(error.find("worked_"), std::string::npos) << bad << ": " << error;
    }
    // A bad element names the word and its index.
    EXPECT_NE(app.scene.Apply(R"({"worked_embeddings": {"cat": [0.1, "x"]}})").find("\"cat\"[1]"),
              std::string::npos);
    // No negative zeros among the defaults ("-0.000" on screen).
    for (const char* word : {"two", "the", "zebra", "a"})
        for (int dim = 0; dim < kWorkedMaxDModel; ++dim)
            EXPECT_FALSE(std::signbit(WorkedDefaultEmbedding(word, dim)) &&
                         WorkedDefaultEmbedding(word, dim) == 0.0)
                << word << " " << dim;
    // The footnote names only cells that are marked: a one-word sentence marks none in X_final.
    worked.sentence = "cat";
    Present("worked");
    EXPECT_EQ(worked.marked_final, 0);
    EXPECT_EQ(worked.marked_pe, 0); // pos 0 only: the published example prints it exactly
    worked.sentence = "a b c d e f g h i j k l m n o p q";
    Present("worked");
    std::string why;
    EXPECT_TRUE(worked.Tokens(&why).empty());
    EXPECT_NE(why.find("at most 16 words"), std::string::npos);
    worked.sentence = "\xff";
    Present("worked");
    EXPECT_TRUE(worked.Tokens(&why).empty());
    EXPECT_NE(why.find("UTF-8"), std::string::npos) << why;
}

// The curves' spread from scratch (core's shift_dot_products per start, then the largest
// difference at each offset every start has), not through the panel's cache.
double SpreadFromScratch(const std::vector<double>& starts, int max_k, int d_model, double base) {
    double low_start = pelab::kUiMaxPosition, high_start = 0;
    for (const double p : starts)
        low_start = std::min(low_start, p), high_start = std::max(high_start, p);
    const int k_min = std::max(-max_k, static_cast<int>(-std::floor(low_start)));
    const int k_max =
        std::min(max_k, static_cast<int>(std::floor(pelab::kUiMaxPosition - high_start)));
    double spread = 0;
    for (int k = k_min; k <= k_max; ++k) {
        double low = 1e300, high = -1e300;
        for (const double p : starts) {
            const double dot = pelab::shift_dot_products(p, k, k, d_model, base)[0];
            low = std::min(low, dot), high = std::max(high, dot);
        }
        spread = std::max(spread, high - low);
    }
    return spread;
}

// The rotation panel's numbers: R_k for the selected pair from cos and sin of ω·k computed here;
// the residual in double is rounding only; the curves from four starts coincide (spread ≈ 0 next
// to their size d/2), checked against long double dot products of the reference PE.
TEST_F(RotationUi, NumbersMatchTheFormula) {
    RotationPanel& rotation = Get<RotationPanel>("rotation");
    state.d_model = 64, state.pair = 3, state.shift_k = 7, state.pos_a = 10;
    Present("rotation");
    const nlohmann::json r = rotation.Readouts(state);
    const double angle = static_cast<double>(reference::omega(3, 64, 10000)) * 7;
    EXPECT_NEAR(r["r_k"][0][0].get<double>(), std::cos(angle), 1e-15);
    EXPECT_NEAR(r["r_k"][0][1].get<double>(), std::sin(angle), 1e-15);
    EXPECT_NEAR(r["r_k"][1][0].get<double>(), -std::sin(angle), 1e-15);
    EXPECT_LT(r["residual_double"].get<double>(), 1e-14);
    EXPECT_GT(r["residual_float32"].get<double>(), r["residual_double"].get<double>());
    EXPECT_LT(r["curve_spread"].get<double>(), 1e-9);
    EXPECT_NEAR(SpreadFromScratch(RotationPanel::Starts(10), rotation.curve_max_k, 64, 10000),
                r["curve_spread"].get<double>(), 1e-12);
    // What the panel drew is what it reported, computed once for the three frames.
    ASSERT_NE(rotation.curves_cache.Last(), nullptr);
    EXPECT_EQ(rotation.curves_cache.Last()->spread, r["curve_spread"].get<double>());
    EXPECT_EQ(rotation.curves_cache.Computations(), 1);
    // One curve point from the reference: PE(110)·PE(110 + 7) = Σ_i cos(ω_i·7).
    const std::vector<RotationPanel::Curve>& curves = rotation.curves_cache.Last()->curves;
    ASSERT_EQ(curves.size(), 4u);
    const RotationPanel::Curve& second = curves[1];
    EXPECT_EQ(second.start, 110.0);
    long double expected = 0;
    for (int dim = 0; dim < 64; ++dim)
        expected += reference::pe(110, dim, 64, 10000) * reference::pe(117, dim, 64, 10000);
    const std::size_t index = static_cast<std::size_t>(7 - second.ks.front());
    EXPECT_NEAR(second.dots[index], static_cast<double>(expected), 1e-11);
    // The first start (pos A = 10) has no PE(10 + k) for k < −10: its curve starts there.
    EXPECT_EQ(curves[0].ks.front(), -10.0);
    // At the last position the starts go downwards: four different curves, not one.
    EXPECT_EQ(RotationPanel::Starts(1e6),
              (std::vector<double>{1e6, 1e6 - 100, 1e6 - 1000, 1e6 - 10000}));
    // pos A + k below 0: no residual claimed, and the panel says why instead of throwing.
    state.pos_a = 2, state.shift_k = -5;
    Present("rotation");
    EXPECT_FALSE(rotation.Readouts(state).contains("residual_double"));
}

// The precision panel's readouts against the measured values docs/panels.md states at d 512
// (float32 code ≈ 1.2e-4 near 2048, ≈ 5e-3 at 10⁵, ≈ 0.06 at 10⁶, within a factor 2.5; pelab ≈
// 3e-8), and its sentence against the shift it reports.
TEST_F(PrecisionUi, ErrorsAndTheirMeaning) {
    PrecisionPanel& precision = Get<PrecisionPanel>("precision");
    Present("precision");
    const nlohmann::json r = precision.Readouts(state);
    const double known[] = {1.2e-4, 5e-3, 0.06};
    for (int row = 0; row < 3; ++row) {
        const double code = r["errors"][row]["float32_code"].get<double>();
        EXPECT_GT(code, known[row] / 2.5) << row;
        EXPECT_LT(code, known[row] * 2.5) << row;
        EXPECT_LT(r["errors"][row]["pelab_core"].get<double>(), 6e-8) << row;
    }
    // What it means: at 10⁶ the slow pairs' float32 angles are those of a position ≈ 0.55 away
    // (hand estimate in tests/core/encodings/formula_test.cpp), past half a position; at 10⁵ ten
    // times less.
    const double shift = r["errors"][2]["position_shift"].get<double>();
    EXPECT_GT(shift, 0.5);
    const std::string meaning = r["meaning_at_1e6"];
    EXPECT_NE(meaning.find("reads as 999\u00a0999 or 1\u00a0000\u00a0001"), std::string::npos)
        << meaning;
    EXPECT_LT(r["errors"][1]["position_shift"].get<double>(), 0.5);
    EXPECT_NE(PrecisionMeaning(1e5, 5e-3, r["errors"][1]["position_shift"].get<double>(), 200)
                  .text.find("still nearer to itself"),
              std::string::npos);
    EXPECT_NE(PrecisionMeaning(10, 1e-8, 0, 0).text.find("angles are exact"), std::string::npos);
    // The plot's curves: the float32 code grows with the position, pelab_core does not.
    ASSERT_NE(precision.curves_cache.Last(), nullptr);
    const PrecisionPanel::Curves& curves = *precision.curves_cache.Last();
    ASSERT_FALSE(curves.positions.empty());
    EXPECT_EQ(curves.positions.front(), 1.0);
    EXPECT_EQ(curves.positions.back(), 1e6);
    EXPECT_GT(curves.errors[0].back(), 1000 * curves.errors[0][10]);
    EXPECT_LT(*std::max_element(curves.errors[2].begin(), curves.errors[2].end()), 6e-8);
    // One compute path: the readouts are the table the panel drew, computed once.
    EXPECT_EQ(precision.table_cache.Computations(), 1);
    EXPECT_EQ(precision.table_cache.Last()->rows[2].errors[0],
              r["errors"][2]["float32_code"].get<double>());
    // … and the same as the core's one-position function, computed apart from the table.
    EXPECT_NEAR(recipe_max_error(PeRecipe::Float32Code, 1e6, state.d_model, state.base),
                r["errors"][2]["float32_code"].get<double>(), 1e-12);
}

// A value that was not computed is null in the readouts, never a number that reads as a
// measurement: the candidates' closest pair when the search was not run (positions 4096, where
// bits and digits crowd together) once read "closest_distance": 0 with the pair [-1, -1].
TEST(Readouts, ValuesNotComputedAreNullNotSentinels) {
    pelab::App app;
    for (const char* scene :
         {R"({"candidates_positions": 4096, "d_model": 512})", R"({"candidates_positions": 16})",
          R"({"candidates_positions": 4096, "d_model": 2, "candidates_length": 4096})"}) {
        ASSERT_EQ(app.scene.Apply(scene), "") << scene;
        const nlohmann::json readouts = app.Document(true)["readouts"];
        int searched = 0, not_searched = 0;
        for (const nlohmann::json& row : readouts["candidates"]["properties"]) {
            const nlohmann::json& pair = row["closest_pair"];
            const nlohmann::json& distance = row["closest_distance"];
            EXPECT_EQ(pair.is_null(), distance.is_null()) << row.dump();
            if (pair.is_null()) {
                ++not_searched;
                continue;
            }
            ++searched;
            ASSERT_TRUE(pair.is_array() && pair.size() == 2) << row.dump();
            EXPECT_GE(pair[0].get<int>(), 0) << row.dump();
            EXPECT_GT(pair[1].get<int>(), pair[0].get<int>()) << row.dump();
            EXPECT_GE(distance.get<double>(), 0.0) << row.dump();
        }
        EXPECT_GT(searched, 0) << scene;
        if (std::string(scene).find("4096, \"d_model\": 512") != std::string::npos) {
            EXPECT_GT(not_searched, 0) << "the crowded search is skipped at N 4096";
        }
    }
}

// In the window the rotation curves are computed off the frame: a new pos A keeps the last
// curves on screen (their own starts in the legend, the title says it is updating) and asks for
// more frames; once the background result is in, the drawn curves are the new ones and equal
// what the readouts compute now.
TEST_F(RotationUi, CurvesComputeOffTheFrameInTheWindow) {
    RotationPanel& rotation = Get<RotationPanel>("rotation");
    app.compute_in_background = true;
    state.d_model = 512, state.pos_a = 10;
    Present("rotation");
    ASSERT_NE(rotation.curves_cache.Last(), nullptr);
    EXPECT_EQ(rotation.curves_cache.Last()->curves[0].start, 10.0);
    state.pos_a = 20;
    Frame();
    EXPECT_FALSE(rotation.curves_current);
    EXPECT_TRUE(app.stats.computing) << "the session must keep drawing";
    EXPECT_EQ(rotation.curves_cache.Last()->curves[0].start, 10.0) << "the last curves meanwhile";
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int frames = 0;
    while (!rotation.curves_current && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        Frame(); // as the session does while app.stats.computing
        ++frames;
    }
    EXPECT_TRUE(rotation.curves_current) << "after " << frames << " frames";
    EXPECT_FALSE(app.stats.computing);
    EXPECT_EQ(rotation.curves_cache.Last()->curves[0].start, 20.0);
    EXPECT_NEAR(rotation.Readouts(state)["curve_spread"].get<double>(),
                SpreadFromScratch(RotationPanel::Starts(20), rotation.curve_max_k, 512, 10000),
                1e-12);
}

// One compute path: the calculator's table, its CSV and its readouts are one result, computed
// once per change; each row's value is sin or cos of pos·ω_i computed here in long double.
TEST_F(CalculatorUi, TableCsvAndReadoutsAreOneResult) {
    CalculatorPanel& calculator = Get<CalculatorPanel>("calculator");
    ASSERT_EQ(app.scene.Apply(R"({"pos_a": 37, "d_model": 64, "calculator_dim_from": 4,
                                  "calculator_dim_to": 9})"),
              "");
    Present("calculator");
    const nlohmann::json r = calculator.Readouts(state);
    const std::string csv = calculator.Csv(state);
    EXPECT_EQ(calculator.result_cache.Computations(), 1);
    const CalculatorPanel::Result& drawn = *calculator.result_cache.Last();
    ASSERT_EQ(drawn.steps.size(), 6u);
    ASSERT_EQ(r["rows"].size(), 6u);
    for (int row = 0; row < 6; ++row) {
        const int dim = 4 + row;
        EXPECT_EQ(r["rows"][row]["value"].get<double>(), drawn.steps[row].value);
        EXPECT_NEAR(drawn.steps[row].value, static_cast<double>(reference::pe(37, dim, 64, 10000)),
                    1e-13);
    }
    EXPECT_EQ(r["summary"].get<std::string>(), drawn.summary);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7); // the header and six rows
}

// The |Δ| chart's axis fits its data: between pos 3 and 4 at d_model 512 the largest change is
// dim 2's |sin(3ω₁) − sin(4ω₁)|, ω₁ = 10000^(−2/512) (0.902), and the axis tops it by 15 %,
// not at the bound 2 (which left the upper half empty).
TEST_F(CalculatorUi, ChartAxisFitsTheLargestChange) {
    auto& calc = Get<CalculatorPanel>("calculator");
    ASSERT_EQ(app.scene.Apply(R"({"pos_a": 3, "calculator_offset": 1, "d_model": 512})"), "");
    Present("calculator", 3);
    ASSERT_NE(calc.chart_cache.Last(), nullptr);
    const double w1 = std::pow(10000.0, -2.0 / 512.0);
    const double largest = std::fabs(std::sin(3 * w1) - std::sin(4 * w1));
    EXPECT_NEAR(largest, 0.902, 0.0005);
    EXPECT_NEAR(calc.chart_cache.Last()->top, 1.15 * largest, 1e-12);
    EXPECT_NEAR(calc.chart_view.y.max, calc.chart_cache.Last()->top, 1e-9);
}

namespace {

// bfloat16 written here from its bits: the double to float32, then the top 16 bits rounded to
// nearest, ties to even (a tie after the first rounding is left to chance: none occurs below).
double Bfloat16Bits(double x) {
    const float f = static_cast<float>(x);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    bits = (bits + 0x7FFFu + ((bits >> 16) & 1u)) & 0xFFFF0000u;
    float out = 0;
    std::memcpy(&out, &bits, sizeof out);
    return out;
}

} // namespace

// Item: "(in any pair between 127 and 514)" read as where these pairs collide; they run from 134
// to 257 at d 512. The sentence now says both, each recomputed here by walking every pair with a
// bfloat16 written from its bits; and the bound holds over the sweep.
TEST(PrecisionSentences, CollisionsAreSaidForThesePairsAndAsABound) {
    for (int d : {2, 4, 64, 512})
        for (double base : {10000.0, 500000.0}) {
            const Explanation sentence = ReducedPrecisionSentence(d, base);
            SCOPED_TRACE(sentence.text);
            long long least = -1, largest = -1;
            for (double theta : frequencies(d, base)) {
                long long first = -1;
                for (long long p = 0; p < 1000000 && first < 0; ++p)
                    if (Bfloat16Bits(p * theta) == Bfloat16Bits((p + 1) * theta)) first = p;
                ASSERT_GE(first, 0);
                least = least < 0 ? first : std::min(least, first);
                largest = std::max(largest, first);
            }
            EXPECT_EQ(sentence.Value("bfloat16_least"), least);
            EXPECT_EQ(sentence.Value("bfloat16_largest"), largest);
            EXPECT_GE(least, sentence.Value("bfloat16_bound_low"));
            EXPECT_LE(largest, sentence.Value("bfloat16_bound_high"));
            EXPECT_EQ(sentence.Value("bfloat16_bound_low"), 127);
            EXPECT_EQ(sentence.Value("bfloat16_bound_high"), 514);
            const std::string here =
                d == 2             ? "its first collision is at " + ShownNumber(least)
                : least == largest ? "every pair's first collision is at " + ShownNumber(least)
                                   : "the pairs' first collisions run from " + ShownNumber(least) +
                                         " to " + ShownNumber(largest);
            EXPECT_NE(sentence.text.find("(here " + here), std::string::npos);
            EXPECT_NE(sentence.text.find("any pair's lies between 127 and 514"), std::string::npos);
            EXPECT_GE(sentence.Value("float16_least"), sentence.Value("float16_bound_low"));
            EXPECT_LE(sentence.Value("float16_largest"), sentence.Value("float16_bound_high"));
        }
    // The issue's numbers, at d 512, base 10⁴.
    const Explanation at_512 = ReducedPrecisionSentence(512, 10000);
    EXPECT_EQ(at_512.Value("bfloat16_least"), 134);
    EXPECT_EQ(at_512.Value("bfloat16_largest"), 257);
}

// Item: the panel said when neighbours collide in bfloat16, not how far the angle itself is off
// (48 rad in the fastest pair at 30 000; some pair by 3 640 positions at 10⁶).
TEST(PrecisionSentences, TheBfloat16AngleErrorIsSaidAsRadiansAndPositions) {
    for (int d : {2, 4, 512})
        for (double picked : {1.0, 255.0, 2048.0, 30000.0, 999999.0}) {
            const PrecisionPanel::Table table = PrecisionPanel::ComputeTable({d, 10000.0, picked});
            const Explanation& sentence = table.bfloat16_angles;
            SCOPED_TRACE(sentence.text);
            const std::vector<double> theta = frequencies(d, 10000.0);
            for (const auto& [position, radians_claim, positions_claim, pair_claim] :
                 {std::tuple{picked, "picked_fastest_radians", "picked_positions",
                             "picked_positions_pair"},
                  std::tuple{1e6, "", "far_positions", "far_positions_pair"}}) {
                double most = 0;
                int most_pair = 0;
                for (std::size_t i = 0; i < theta.size(); ++i) {
                    const double off =
                        std::abs(Bfloat16Bits(position * theta[i]) - position * theta[i]) /
                        theta[i];
                    if (off > most) most = off, most_pair = static_cast<int>(i);
                }
                EXPECT_NEAR(sentence.Value(positions_claim), most, 1e-9 * (1 + most));
                if (most > 0) {
                    EXPECT_EQ(sentence.Value(pair_claim), most_pair);
                    EXPECT_NE(sentence.text.find("pair " + ShownNumber(most_pair) +
                                                 "'s is the angle of a position " +
                                                 ShownNumber(most, 3) + " away"),
                              std::string::npos);
                }
                if (radians_claim[0] != '\0') {
                    const double fastest = std::abs(Bfloat16Bits(position) - position);
                    EXPECT_NEAR(sentence.Value(radians_claim), fastest, 1e-9);
                    EXPECT_EQ(sentence.text.find("off not at all") != std::string::npos,
                              fastest == 0);
                }
            }
        }
    const PrecisionPanel::Table table = PrecisionPanel::ComputeTable({512, 10000.0, 30000.0});
    EXPECT_EQ(table.bfloat16_angles.Value("picked_fastest_radians"), 48);
    EXPECT_NEAR(table.bfloat16_angles.Value("far_positions"), 3640, 1);
}
