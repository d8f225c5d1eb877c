// alternatives_t5.cpp — the alternatives panel's T5 buckets tab: a learned bias per bucket of
// the offset j − i, exact near the query and logarithmic past it.
#include "panels/alternatives/panel_alternatives.h"

#include "io/scene.h"
#include "panels/scene_controls.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab {

namespace {

constexpr NumberControl kT5Buckets{"t5_buckets",
                                   "how many distance buckets T5 uses (even)",
                                   4,
                                   128,
                                   32,
                                   "buckets",
                                   "%d",
                                   false,
                                   nullptr,
                                   "alternatives.t5_buckets",
                                   true};
constexpr NumberControl kT5MaxDistance{"t5_max_distance",
                                       "past this distance all keys share T5's last bucket",
                                       8,
                                       4096,
                                       128,
                                       "max distance",
                                       "%d",
                                       true,
                                       nullptr,
                                       "alternatives.t5_max_distance"};

struct T5Tab final : AlternativesTab {
    int t5_buckets = static_cast<int>(kT5Buckets.initial);
    int t5_max_distance = static_cast<int>(kT5MaxDistance.initial);
    bool t5_bidirectional = true;
    plot::PlotView t5_view;

    T5BucketOptions T5Options() const;
    void Draw(AlternativesPanel& panel, FrameContext& frame) override;
    void AddFields(SceneTable& table) override;
    nlohmann::json Readouts(const AlternativesPanel& panel, const AppState& state) const override;
    std::vector<WidgetName> Widgets() const override;
    std::optional<MethodRowJob> RowJob(const AlternativesPanel& panel,
                                       const AppState& state) const override;
};

T5BucketOptions T5Tab::T5Options() const {
    T5BucketOptions options;
    options.num_buckets = t5_buckets;
    options.bidirectional = t5_bidirectional;
    // max_distance must pass the exact buckets (half a side); a smaller value is raised to it,
    // and the tab says so.
    const int side = t5_bidirectional ? t5_buckets / 2 : t5_buckets;
    options.max_distance = std::max(t5_max_distance, side / 2 + 1);
    return options;
}

void T5Tab::Draw(AlternativesPanel& /*panel*/, FrameContext& frame) {
    if (BeginControls(frame)) {
        FlowRow row;
        const float slider = FitWidth(7.0f, "buckets");
        SceneSlider(frame, row, kT5Buckets, &t5_buckets, slider);
        SceneSlider(frame, row, kT5MaxDistance, &t5_max_distance, slider);
        row.Item(CheckboxWidth("bidirectional"));
        ImGui::Checkbox("bidirectional", &t5_bidirectional);
        FormulaTooltip("On: an encoder; keys after the query get their own half of the buckets. "
                       "Off: a decoder; every later key falls in bucket 0 (it is masked anyway).");
        frame.Record("alternatives.t5_bidirectional");
        EndControls(frame);
    }
    const int side = t5_bidirectional ? t5_buckets / 2 : t5_buckets;
    const T5BucketOptions options = T5Options();
    const long long last_start = t5_last_bucket_start(options);
    const int exact = side / 2;
    // Which of a side's buckets some distance reaches (the log steps can skip some).
    std::vector<bool> reached(static_cast<std::size_t>(side), false);
    for (long long n = 0; n <= last_start; ++n)
        reached[static_cast<std::size_t>(t5_bucket(-n, options) - 0)] = true;
    const int unused = static_cast<int>(std::count(reached.begin(), reached.end(), false));
    char exact_part[96];
    if (exact == 1)
        std::snprintf(exact_part, sizeof exact_part, "Distance 0 gets a bucket of its own");
    else
        std::snprintf(exact_part, sizeof exact_part,
                      "Distances 0 … %d each get a bucket of their own", exact - 1);
    char line[720];
    std::snprintf(
        line, sizeof line,
        "T5 adds a learned number per bucket of the relative position (key − query) to each "
        "score. "
        "%s%s, and every distance from %lld on shares the last bucket: past it the model "
        "cannot tell distances apart.%s%s",
        exact_part, last_start > exact ? "; then buckets widen logarithmically" : "", last_start,
        unused > 0 ? (" At this max distance " + std::to_string(unused) + " of a side's " +
                      std::to_string(side) +
                      " buckets are never reached: the "
                      "logarithmic steps skip them.")
                         .c_str()
                   : "",
        t5_bidirectional ? " Keys after the query use the other half of the buckets the same way."
                         : " Causal: every key after the query falls in bucket 0 (it is masked "
                           "anyway).");
    if (options.max_distance != t5_max_distance) {
        char raised[160];
        std::snprintf(raised, sizeof raised,
                      "max distance %d is raised to %d: it must pass the %d exact buckets.",
                      t5_max_distance, options.max_distance, exact);
        ErrorText(frame, raised);
    }
    WrappedText(line);
    frame.Record("alternatives.t5_text");
    const int reach = std::min(2 * options.max_distance, 8192);
    std::vector<double> xs, ys;
    for (int r = -reach; r <= reach; ++r) { // a staircase: each distance is one flat step
        const double bucket = t5_bucket(r, options);
        xs.push_back(r - 0.5), ys.push_back(bucket);
        xs.push_back(r + 0.5), ys.push_back(bucket);
    }
    const float height =
        std::max(ImGui::GetFontSize() * 8.0f,
                 (ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y) * 0.6f);
    t5_view.SetHome(plot::Range{-static_cast<double>(reach), static_cast<double>(reach)},
                    plot::Range{-1, static_cast<double>(t5_buckets)});
    t5_view.Refit(t5_view.home_x, t5_view.home_y);
    plot::PlotConfig config;
    config.x_label = "relative position j − i (key − query)";
    config.y_label = "bucket";
    config.y_flags = plot::AxisFlags_Integer;
    plot::Plot p;
    if (p.Begin("bucket of each distance##t5_buckets", t5_view, ImVec2(-1, height), config)) {
        frame.Record("alternatives.t5_plot");
        p.Line("bucket", xs.data(), ys.data(), static_cast<int>(xs.size()),
               frame.Color(Role::Accent), frame.Px(2.0f));
        p.VLine(-static_cast<double>(last_start), frame.Color(Role::Warning), "last bucket");
        if (t5_bidirectional) p.VLine(static_cast<double>(last_start), frame.Color(Role::Warning));
        p.End();
    }
    const std::vector<double> biases = t5_bucket_biases(t5_buckets, 5);
    std::vector<double> index(biases.size());
    for (std::size_t b = 0; b < biases.size(); ++b)
        index[b] = static_cast<double>(b);
    plot::PlotView bias_view;
    bias_view.Refit(plot::Range{-1, static_cast<double>(t5_buckets)}, plot::Range{-3.5, 3.5});
    config.x_label = "bucket";
    config.y_label = "bias (seeded)";
    config.x_flags = plot::AxisFlags_Integer;
    config.y_flags = 0;
    plot::Plot b;
    if (b.Begin("one learned scalar per bucket (a seeded stand-in)##t5_biases", bias_view,
                ImVec2(-1, RemainingHeight()), config)) {
        frame.Record("alternatives.t5_biases");
        b.Bars("bias", index.data(), biases.data(), t5_buckets, 0.8, frame.Color(Role::Cos));
        b.End();
    }
}

void T5Tab::AddFields(SceneTable& table) {
    table.Integer(kT5Buckets, &t5_buckets);
    table.Integer(kT5MaxDistance, &t5_max_distance);
    table.Bool("t5_bidirectional", "encoder (true) or decoder buckets", &t5_bidirectional);
}

nlohmann::json T5Tab::Readouts(const AlternativesPanel& /*panel*/,
                               const AppState& /*state*/) const {
    const T5BucketOptions options = T5Options();
    return {{"t5",
             {{"num_buckets", t5_buckets},
              {"max_distance", options.max_distance},
              {"bidirectional", t5_bidirectional},
              {"last_bucket_start", t5_last_bucket_start(options)}}}};
}

std::optional<MethodRowJob> T5Tab::RowJob(const AlternativesPanel& /*panel*/,
                                          const AppState& /*state*/) const {
    const T5BucketOptions options = T5Options();
    return MethodRowJob{
        "buckets " + std::to_string(options.num_buckets) + " max " +
            std::to_string(options.max_distance) + " both " + std::to_string(options.bidirectional),
        [options] {
            return MethodRow{{"T5 relative bias", "T5",
                              "a learned bias per distance bucket, added to scores",
                              std::to_string(options.num_buckets) + " per head (shared by layers)",
                              "every distance ≥ " +
                                  ShownNumber(static_cast<double>(t5_last_bucket_start(options))) +
                                  " shares the last bucket",
                              "yes: the bucket of j − i"},
                             Verdict::Yes,
                             std::nullopt,
                             "t5"};
        }};
}

std::vector<WidgetName> T5Tab::Widgets() const {
    return {
        {"alternatives.t5_biases",
         "the bar chart of each bucket's learned bias (a seeded stand-in)"},
        {"alternatives.t5_bidirectional",
         "the bidirectional checkbox: encoder buckets on both sides or decoder"},
        ControlWidget(kT5Buckets),
        ControlWidget(kT5MaxDistance),
        {"alternatives.t5_plot",
         "the staircase plot of the bucket each relative position falls in"},
        {"alternatives.t5_text",
         "the paragraph explaining T5's exact and logarithmic buckets",
         {"t5"}},
    };
}

} // namespace

std::unique_ptr<AlternativesTab> MakeT5Tab() {
    return std::make_unique<T5Tab>();
}

} // namespace pelab
