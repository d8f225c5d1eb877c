#include "panels/precision/panel_precision.h"

#include "io/scene.h"
#include "panels/precision/precision_measured.h"
#include "panels/scene_controls.h"
#include "pelab/encodings/precision.h"
#include "pelab/encodings/sinusoidal.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

constexpr NumberControl kPrecisionDModel = Drawn(kDModel, "d_model", "precision.d_model");
constexpr NumberControl kPrecisionBase = Drawn(kBase, "base", "precision.base");
constexpr NumberControl kPrecisionInspect{
    "precision_position",
    "the position the precision panel inspects",
    1,
    kUiMaxPosition,
    30000,
    "inspect pos",
    "%.0f",
    false,
    "The position of the table's last row, a whole position (or click the plot).",
    "precision.inspect_input"};

constexpr PeRecipe kRecipes[3] = {PeRecipe::Float32Code, PeRecipe::Float32AngleDouble,
                                  PeRecipe::PelabCore};
constexpr int kPointsPerDecade = 20;

// Short names for the legend and the table (the tooltips say what each recipe does).
const char* RecipeLabel(int recipe) {
    const char* labels[3] = {"float32, correctly rounded", "float32 angle, double sin",
                             "PE Lab (double angle)"};
    return labels[recipe];
}

Role RecipeRole(int recipe) {
    const Role roles[3] = {Role::PosA, Role::Accent, Role::PosB};
    return roles[recipe];
}

} // namespace

const MeasuredFloat32Errors* MeasuredErrors(int d_model, double base) {
    if (base != kMeasuredBase) return nullptr;
    for (const MeasuredFloat32Errors& row : kMeasuredFloat32Errors)
        if (row.d_model == d_model) return &row;
    return nullptr;
}

std::string FrameworkRangeSentence(int d_model, double base) {
    const MeasuredFloat32Errors* measured = MeasuredErrors(d_model, base);
    if (measured == nullptr)
        return "The float32 code frameworks run (NumPy, PyTorch) lands elsewhere than this "
               "correctly rounded recipe, by how much depends on the library's float32 exp and "
               "sin; it was measured at base " +
               ShownNumber(kMeasuredBase) +
               " and d_model 128, 256, 512, … 4096: pick one of those to see the range.";
    std::string text = "The float32 code frameworks run, measured at d_model " +
                       std::to_string(d_model) +
                       " (each library rounds its float32 exp and sin its own way):";
    for (int k = 0; k < 3; ++k) {
        const bool numpy_worse = measured->numpy[k] >= measured->torch[k];
        const double low = numpy_worse ? measured->torch[k] : measured->numpy[k];
        const double high = numpy_worse ? measured->numpy[k] : measured->torch[k];
        char part[200];
        std::snprintf(part, sizeof part, "%s at %s: %s (%s) to %s (%s)", k == 0 ? "" : ";",
                      ShownNumber(kMeasuredPositions[k]).c_str(), ShownNumber(low, 2).c_str(),
                      numpy_worse ? kMeasuredTorch : kMeasuredNumpy, ShownNumber(high, 2).c_str(),
                      numpy_worse ? kMeasuredNumpy : kMeasuredTorch);
        text += part;
    }
    return text + ".";
}

Explanation PrecisionMeaning(double position, double value_error, double shift, int pair) {
    Explanation out;
    out.Claims("shift", shift);
    out.Claims("exact_angles", shift == 0 ? 1 : 0);
    out.Claims("nearer_to_itself", shift < 0.5 ? 1 : 0);
    const auto [shown, next] = ShownPair(position, position + 1, 10);
    const std::string error = ShownNumber(value_error, 2);
    char text[640];
    if (shift == 0) {
        std::snprintf(text, sizeof text,
                      "At pos %s float32 angles are exact at this d_model and base, so the "
                      "correctly rounded float32 code's error (%s) is only the rounding of sin "
                      "and cos.",
                      shown.c_str(), error.c_str());
    } else if (shift < 0.5) {
        std::snprintf(text, sizeof text,
                      "At pos %s float32 code, even correctly rounded, is off by up to %s: in "
                      "pair %d its angle is that of a position %s away (angle error / ω_%d), %s%% "
                      "of the way to a neighbour. Pos %s is still nearer to itself than to %s, "
                      "but blurred, and the blur grows in proportion to the position.",
                      shown.c_str(), error.c_str(), pair, ShownNumber(shift, 2).c_str(), pair,
                      ShownNumber(100 * shift, 2).c_str(), shown.c_str(), next.c_str());
    } else {
        std::snprintf(text, sizeof text,
                      "At pos %s float32 code, even correctly rounded, is off by up to %s, and "
                      "in pair %d its angle is that of a position %s away: more than half the "
                      "way to a neighbour, so in that pair pos %s reads as %s or %s.",
                      shown.c_str(), error.c_str(), pair, ShownNumber(shift, 2).c_str(),
                      shown.c_str(), ShownNumber(position - 1, 10).c_str(), next.c_str());
    }
    out.text = text;
    return out;
}

PrecisionPanel::Curves PrecisionPanel::ComputeCurves(const CurvesInputs& inputs) {
    Curves curves;
    // Whole positions, log-spaced from 1 to 10⁶ (duplicates at the low end dropped).
    for (int k = 0; k <= 6 * kPointsPerDecade; ++k) {
        const double pos = std::round(std::pow(10.0, static_cast<double>(k) / kPointsPerDecade));
        if (curves.positions.empty() || pos != curves.positions.back())
            curves.positions.push_back(pos);
    }
    const auto by_recipe = recipe_error_curves(curves.positions, inputs.d_model, inputs.base);
    for (int r = 0; r < 3; ++r) {
        curves.errors[r] = by_recipe[static_cast<int>(kRecipes[r])];
        for (double& error : curves.errors[r])
            error = std::max(1e-12, error); // exact zeros (pos 1, d 2) stay on the log axis
    }
    return curves;
}

PrecisionPanel::Table PrecisionPanel::ComputeTable(const TableInputs& inputs) {
    Table table;
    // The positions where the frameworks were measured (precision_measured.h), so that the
    // table and the sentence under it speak of the same rows; then the picked one.
    const std::vector<double> positions = {kMeasuredPositions[0], kMeasuredPositions[1],
                                           kMeasuredPositions[2], inputs.inspect};
    const auto by_recipe = recipe_error_curves(positions, inputs.d_model, inputs.base);
    for (int row = 0; row < 4; ++row) {
        TableRow& out = table.rows[row];
        out.position = positions[row];
        for (int r = 0; r < 3; ++r)
            out.errors[r] = by_recipe[static_cast<int>(kRecipes[r])][row];
        out.shift =
            float32_position_shift(positions[row], inputs.d_model, inputs.base, &out.shift_pair);
        out.bfloat16 = angle_storage_error(positions[row], inputs.d_model, inputs.base, kBfloat16);
    }
    table.reduced = ReducedPrecisionSentence(inputs.d_model, inputs.base);
    table.bfloat16_angles = Bfloat16AngleSentence(table.rows[3], table.rows[2]);
    return table;
}

const PrecisionPanel::Curves& PrecisionPanel::CurvesFor(const AppState& state) const {
    return curves_cache.Get(CurvesInputs{state.d_model, state.base}, ComputeCurves);
}

const PrecisionPanel::Table& PrecisionPanel::TableFor(const AppState& state) const {
    return table_cache.Get(TableInputs{state.d_model, state.base, inspect_position}, ComputeTable);
}

void PrecisionPanel::Draw(FrameContext& frame) {
    if (BeginControls(frame)) {
        DrawControls(frame);
        EndControls(frame);
    }
    const Curves* curves = nullptr;
    const Table* table = nullptr;
    {
        CoreTimer core_time(frame.stats);
        curves = &CurvesFor(frame.state);
        table = &TableFor(frame.state);
    }
    const std::array<std::vector<double>, 3>& errors = curves->errors;
    const std::vector<double>& positions = curves->positions;
    const float font = ImGui::GetFontSize();
    if (!frame.pictures_first) {
        // Said only when the curve shows it: at d 2 the float32 angle is exact (ω = 1).
        const bool grows = errors[0].back() > 100 * errors[0][positions.size() / 3];
        MutedWrappedText(grows ? "The common float32 code forms the angle pos·ω_i in float32: its "
                                 "relative error of a few 1e-8 becomes an absolute error that "
                                 "grows with pos. PE Lab forms the angle in double and "
                                 "rounds only the result."
                               : "At this d_model and base the float32 code's angles happen to "
                                 "be exact, so its error does not grow with pos.");
    }
    // The table below needs about 6 lines and the framework sentence 3; the plot takes the rest.
    // (and the reduced-precision sentence about 3 more).
    const float table_height = font * 14.0f + ImGui::GetStyle().ItemSpacing.y * 8;
    DrawPlot(frame, std::max(font * 13.0f, ImGui::GetContentRegionAvail().y - table_height),
             *curves);
    DrawTable(frame, *table);
}

void PrecisionPanel::DrawControls(FrameContext& frame) {
    AppState& state = frame.state;
    const float slider = FitWidth(11.0f, "d_model");
    FlowRow row;
    DModelSlider(frame, row, kPrecisionDModel, slider, &d_model_note);
    SceneSlider(frame, row, kPrecisionBase, &state.base, slider);
    if (SceneEntry(frame, row, kPrecisionInspect, &inspect_position, FitWidth(7.0f, "inspect pos"),
                   "inspect pos", &inspect_note))
        inspect_position = std::max(kPrecisionInspect.min, std::round(inspect_position));
    if (!inspect_note.empty()) ErrorText(frame, inspect_note.c_str());
    if (!d_model_note.empty()) ErrorText(frame, d_model_note.c_str());
}

void PrecisionPanel::DrawPlot(FrameContext& frame, float height, const Curves& curves) {
    const std::vector<double>& positions = curves.positions;
    const std::array<std::vector<double>, 3>& errors = curves.errors;
    view.SetHome(plot::Range{1, 1e6}, plot::Range{1e-9, 1});
    if (!view.has_home) view.Reset();
    plot::PlotConfig config;
    config.x_label = "position (click: pick it for the table)";
    config.y_label = "max |PE − exact| over all dims";
    config.x_flags = plot::AxisFlags_Log;
    config.y_flags = plot::AxisFlags_Log;
    config.x_limits = plot::Range{1, 1e6};
    config.y_limits = plot::Range{1e-13, 10};
    plot::Plot p;
    if (!p.Begin("##precision", view, ImVec2(-1, height), config)) return;
    frame.Record("precision.plot");
    const int count = static_cast<int>(positions.size());
    // The float32 code wide and underneath: the float32-angle line lies on it almost everywhere
    // (double sin/cos cannot repair the angle), and both stay visible.
    // The float32-angle curve lies on the float32 code's almost everywhere (double sin/cos
    // cannot repair the angle): a line for one, rings on it for the other, so both show.
    p.Line(RecipeLabel(0), positions.data(), errors[0].data(), count, frame.Color(RecipeRole(0)),
           frame.Px(2.5f));
    std::vector<double> ring_x, ring_y;
    for (int k = 0; k < count; k += 3)
        ring_x.push_back(positions[k]), ring_y.push_back(errors[1][k]);
    p.Markers(RecipeLabel(1), ring_x.data(), ring_y.data(), static_cast<int>(ring_x.size()),
              frame.Color(RecipeRole(1)), frame.Px(4.0f), plot::Marker::Ring);
    p.Line(RecipeLabel(2), positions.data(), errors[2].data(), count, frame.Color(RecipeRole(2)),
           frame.Px(2.5f));
    p.VLine(std::max(1.0, inspect_position), frame.Color(Role::ShiftArc), "picked", frame.Px(1.5f));
    if (p.Clicked() && p.MouseX() >= 1)
        inspect_position = std::clamp(std::round(p.MouseX()), 1.0, kUiMaxPosition);
    p.End();
}

void PrecisionPanel::DrawTable(FrameContext& frame, const Table& table) {
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##errors", 5, flags)) return;
    const char* headers[] = {"position", "f32 rounded", "f32 angle", "PE Lab", "as if off by"};
    for (const char* header : headers)
        ImGui::TableSetupColumn(header);
    const char* tooltips[] = {
        "the position p (the last row: the one you inspect)",
        "max over dims of |PE − exact| for the float32 recipe div_term = exp(2i·(−ln base/d)), "
        "angle = p·div_term, sin and cos, each step correctly rounded to float32; the code "
        "frameworks run (NumPy, PyTorch) rounds its own way: measured below the table",
        "the same float32 angle, then sin and cos in double: no better, the angle is already off",
        "PE Lab: the angle in double, the result rounded once to float32",
        "how far, in positions, the float32 code's encoding of p is from p: max over pairs of "
        "|float32 angle − exact angle| / ω_i. Below 0.5, p is still nearer to itself than to "
        "p ± 1"};
    TableHeadersWithTooltips(frame, tooltips, "precision");
    for (int row = 0; row < 4; ++row) {
        const TableRow& values = table.rows[row];
        const double pos = values.position;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text(row < 3 ? "%s" : "%s (picked)", ShownNumber(pos).c_str());
        double code_error = 0;
        for (int r = 0; r < 3; ++r) {
            ImGui::TableNextColumn();
            const double error = values.errors[r];
            if (r == 0) code_error = error;
            ImGui::TextColored(frame.ColorVec(RecipeRole(r)), "%s", ShownNumber(error, 2).c_str());
        }
        ImGui::TableNextColumn();
        ImGui::Text("%s positions", ShownNumber(values.shift, 2).c_str());
        if (row == 3) {
            frame.Record("precision.inspected_row");
            if (ImGui::IsItemHovered())
                Tooltip("%s", PrecisionMeaning(pos, code_error, values.shift, values.shift_pair)
                                  .text.c_str());
        }
    }
    ImGui::EndTable();
    frame.Record("precision.table");
    WrappedText(FrameworkRangeSentence(frame.state.d_model, frame.state.base).c_str());
    frame.Record("precision.frameworks");
    const TableRow& at_1e6 = table.rows[2];
    WrappedText(PrecisionMeaning(at_1e6.position, at_1e6.errors[0], at_1e6.shift, at_1e6.shift_pair)
                    .text.c_str());
    frame.Record("precision.meaning");
    WrappedText(table.reduced.text.c_str());
    frame.Record("precision.reduced");
    WrappedText(table.bfloat16_angles.text.c_str());
    frame.Record("precision.bfloat16_angles");
}

Explanation ReducedPrecisionSentence(int d_model, double base) {
    Explanation out;
    const std::vector<double> theta = frequencies(d_model, base);
    const auto from = [&](const FloatFormat& format, double pair_theta, const char* claim) {
        const long long p = first_neighbour_collision(pair_theta, format, 1000000);
        out.Claims(claim, static_cast<double>(p));
        return p;
    };
    const auto said = [](long long p) {
        return p < 0 ? "none below " + ShownNumber(1e6) : ShownNumber(static_cast<double>(p));
    };
    // Where these pairs' first collisions lie, then where any pair's must (precision.h's bound).
    const auto where = [&](const FloatFormat& format, const char* name) {
        const long long bits = format.significand_bits;
        const long long low = (1LL << (bits - 1)) - 1, high = (1LL << (bits + 1)) + 2;
        const CollisionRange range = neighbour_collision_range(d_model, base, format, 1000000);
        out.Claims(std::string(name) + "_least", static_cast<double>(range.least));
        out.Claims(std::string(name) + "_largest", static_cast<double>(range.largest));
        out.Claims(std::string(name) + "_bound_low", static_cast<double>(low));
        out.Claims(std::string(name) + "_bound_high", static_cast<double>(high));
        const std::string bound = "any pair's lies between " +
                                  ShownNumber(static_cast<double>(low)) + " and " +
                                  ShownNumber(static_cast<double>(high));
        if (range.least < 0) return " (" + bound + ")";
        const std::string here =
            range.pairs == 1
                ? "its first collision is at " + ShownNumber(static_cast<double>(range.least))
            : range.least == range.largest
                ? "every pair's first collision is at " +
                      ShownNumber(static_cast<double>(range.least))
                : "the pairs' first collisions run from " +
                      ShownNumber(static_cast<double>(range.least)) + " to " +
                      ShownNumber(static_cast<double>(range.largest));
        return " (here " + here + "; " + bound + ")";
    };
    const long long bf_fast = from(kBfloat16, theta.front(), "bfloat16_fastest");
    const long long bf_slow = from(kBfloat16, theta.back(), "bfloat16_slowest");
    const long long h_fast = from(kFloat16, theta.front(), "float16_fastest");
    const long long h_slow = from(kFloat16, theta.back(), "float16_slowest");
    const long long f_fast = from(kFloat32, theta.front(), "float32_fastest");
    const long long f_slow = from(kFloat32, theta.back(), "float32_slowest");
    const bool one_pair = theta.size() == 1;
    const auto pairs = [&](long long fast, long long slow) {
        return one_pair ? "from position " + said(fast) + " in its one pair"
                        : "from position " + said(fast) + " in the fastest pair and " + said(slow) +
                              " in the slowest";
    };
    out.text =
        "Angles stored in a shorter format stop telling neighbours apart: in bfloat16 "
        "(8 significant bits) positions p and p + 1 get the same angle " +
        pairs(bf_fast, bf_slow) + where(kBfloat16, "bfloat16") + ", in float16 " +
        pairs(h_fast, h_slow) + where(kFloat16, "float16") + ", in float32 " +
        (f_fast < 0 && f_slow < 0 ? "in no pair below " + ShownNumber(1e6) + " (none before " +
                                        ShownNumber(static_cast<double>((1LL << 23) - 1)) + ")"
                                  : pairs(f_fast, f_slow)) +
        ". Positions stored as numbers in the format collide from " +
        ShownNumber(static_cast<double>(first_position_collision(kBfloat16))) +
        " in bfloat16 and " + ShownNumber(static_cast<double>(first_position_collision(kFloat16))) +
        " in float16.";
    return out;
}

Explanation Bfloat16AngleSentence(const PrecisionPanel::TableRow& picked,
                                  const PrecisionPanel::TableRow& far) {
    Explanation out;
    out.Claims("picked", picked.position);
    out.Claims("picked_fastest_radians", picked.bfloat16.fastest_radians);
    out.Claims("picked_positions", picked.bfloat16.positions);
    out.Claims("picked_positions_pair", picked.bfloat16.positions_pair);
    out.Claims("far", far.position);
    out.Claims("far_positions", far.bfloat16.positions);
    out.Claims("far_positions_pair", far.bfloat16.positions_pair);
    const auto radians = [](double value) {
        return value == 0 ? std::string("not at all") : "by " + ShownNumber(value, 3) + " rad";
    };
    const auto positions = [](const AngleStorageError& error) {
        return error.positions == 0 ? std::string("every pair's angle is exact")
                                    : "pair " + ShownNumber(error.positions_pair) +
                                          "'s is the angle of a position " +
                                          ShownNumber(error.positions, 3) + " away";
    };
    out.text = "Stored in bfloat16, the angles themselves move: at position " +
               ShownNumber(picked.position) + " (picked) the fastest pair's angle is off " +
               radians(picked.bfloat16.fastest_radians) + " (a turn is 6.28 rad), and " +
               positions(picked.bfloat16) + "; at " + ShownNumber(far.position) + ", " +
               positions(far.bfloat16) + ".";
    return out;
}

void PrecisionPanel::AddSceneFields(SceneTable& table) {
    table.Number(kPrecisionInspect, &inspect_position);
}

nlohmann::json PrecisionPanel::Readouts(const AppState& state) const {
    // The table the panel draws, row by row.
    nlohmann::json rows = nlohmann::json::array();
    for (const TableRow& values : TableFor(state).rows) {
        nlohmann::json row = {{"position", values.position}};
        for (int r = 0; r < 3; ++r) {
            const char* keys[] = {"float32_code", "float32_angle_double_sin", "pelab_core"};
            row[keys[r]] = values.errors[r];
        }
        row["position_shift"] = values.shift;
        row["position_shift_pair"] = values.shift_pair;
        rows.push_back(row);
    }
    // The measured framework range (tests/reference/float32_frameworks.py), null where it was
    // not measured.
    nlohmann::json frameworks = nullptr;
    if (const MeasuredFloat32Errors* measured = MeasuredErrors(state.d_model, state.base)) {
        frameworks = nlohmann::json::array();
        for (int k = 0; k < 3; ++k)
            frameworks.push_back({{"position", kMeasuredPositions[k]},
                                  {"numpy", measured->numpy[k]},
                                  {"torch", measured->torch[k]},
                                  {"correctly_rounded", measured->correctly_rounded[k]}});
    }
    const Table& table = TableFor(state);
    return {
        {"errors", rows},
        {"reduced_precision",
         {{"sentence", table.reduced.text}, {"claims", ClaimsJson(table.reduced)}}},
        {"bfloat16_angles",
         {{"sentence", table.bfloat16_angles.text}, {"claims", ClaimsJson(table.bfloat16_angles)}}},
        {"float32_frameworks", frameworks},
        {"framework_versions", {kMeasuredNumpy, kMeasuredTorch}},
        {"meaning_at_1e6", PrecisionMeaning(1e6, rows[2]["float32_code"].get<double>(),
                                            rows[2]["position_shift"].get<double>(),
                                            rows[2]["position_shift_pair"].get<int>())
                               .text}};
}

std::vector<WidgetName> PrecisionPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        ControlWidget(kPrecisionBase),
        ControlWidget(kPrecisionDModel),
        {"precision.frameworks",
         "the sentence on how far off NumPy's and PyTorch's float32 land",
         {"float32_frameworks", "framework_versions"}},
        {"precision.header<i>", "the error table's header cell of column i (from 0)"},
        ControlWidget(kPrecisionInspect, "box"),
        {"precision.inspected_row",
         "the \"as if off by\" cell of the picked row (the last)",
         {"errors"}},
        {"precision.meaning",
         "the sentence on what the float32 error means at 1000000",
         {"meaning_at_1e6"}},
        {"precision.plot", "the log-log plot of each recipe's largest error by position"},
        {"precision.reduced",
         "the sentence on where bfloat16 and float16 angles merge neighbours",
         {"reduced_precision"}},
        {"precision.bfloat16_angles",
         "the sentence on how far the angles move when stored in bfloat16",
         {"bfloat16_angles"}},
        {"precision.table",
         "the error table: each recipe at four positions, picked last",
         {"errors"}},
    };
}

} // namespace pelab
