// model_report.cpp — a checkpoint's report (model_files.h) as `pelab model inspect` prints it:
// JSON with every number, or lines for a terminal.
#include "io/json_input.h"
#include "io/model_files.h"
#include "pelab/models/layer_schedule.h"

#include <algorithm>
#include <sstream>

namespace pelab {

using nlohmann::json;

namespace {

json Numbers(const std::vector<double>& values) {
    return json(values);
}

json TableJson(const TableReport& report) {
    return {{"rows", report.rows},
            {"cols", report.cols},
            {"singular_values", Numbers(report.singular_values)},
            {"explained", Numbers(report.explained)},
            {"iterative", report.iterative},
            {"approximate", report.approximate},
            {"singular_value_error", Numbers(report.singular_value_error)},
            {"explained_error", explained_error(report)},
            {"components", report.components},
            {"wavelengths", Numbers(report.wavelengths)},
            {"wave_shares", Numbers(report.wave_shares)},
            {"norms", Numbers(report.norms)},
            {"neighbour_cosine", Numbers(report.neighbour_cosine)},
            {"median_norm", report.median_norm},
            {"edge_norm_ratio", report.edge_norm_ratio}};
}

std::string Number(double value) {
    std::ostringstream out;
    out.precision(value >= 1000 && value < 1e7 ? 7 : 4);
    out << value;
    return out.str();
}

// "components 1-3" of the first three shown, "component 1" of a one-column table.
std::string ComponentRange(std::size_t count) {
    const std::size_t shown = std::min<std::size_t>(3, count);
    return shown == 1 ? "component 1" : "components 1-" + std::to_string(shown);
}

// After a share of variance: " (approximate: ± x%)" when the iterative solver ran out of time.
std::string ApproximationNote(const TableReport& report) {
    if (!report.approximate) return {};
    return " (approximate: each within ± " + Number(100 * explained_error(report)) +
           "%, the solver stopped after " + Number(kTableTimeCapSeconds) + " s)";
}

json LayersJson(const LayerSchedule& schedule) {
    json layers = json::array();
    for (const LayerPlan& plan : schedule.layers) {
        json layer = {{"index", plan.index},
                      {"layer_type", plan.layer_type},
                      {"attention", layer_attention_name(plan.attention)},
                      {"span", plan.span > 0 ? json(plan.span) : json(nullptr)},
                      {"rope", plan.rope},
                      {"positions", position_kind_name(plan.positions)}};
        if (plan.rope) {
            layer["rope_theta"] = plan.rope_theta;
            layer["rope_type"] = plan.scaling.type.empty() ? "default" : plan.scaling.type;
            layer["rotary_dims"] = plan.rotary_dims;
            layer["pairing"] = rotary_pairing_name(plan.pairing);
        }
        if (plan.temperature_tuned)
            layer["query_scale"] = {{"kind", "llama4_temperature_tuning"},
                                    {"floor_scale", schedule.floor_scale},
                                    {"attn_scale", schedule.attn_scale}};
        layers.push_back(std::move(layer));
    }
    return layers;
}

json ScheduleJson(const LayerSchedule& schedule) {
    json groups = json::array();
    for (const LayerGroup& group : schedule.groups)
        groups.push_back({{"name", group.name}, {"layers", group.layers}});
    json doc = {{"summary", ScheduleSummary(schedule)},
                {"rule", schedule.rule},
                {"family_id", schedule.family_id},
                {"shown_layer", schedule.shown_layer},
                {"groups", groups},
                {"notes", schedule.notes}};
    if (schedule.llama4_beta > 0)
        doc["llama4_scaling"] = {{"beta", schedule.llama4_beta},
                                 {"original", schedule.llama4_original}};
    return doc;
}

// Every kind of layer's usage (the shown one is "usage" as well): its schedule group, its
// layers and their mean over heads.
json UsageGroupsJson(const RopeReport& rope) {
    json groups = json::array();
    for (const RopeUsage& usage : rope.usage_groups)
        groups.push_back({{"group", usage.group},
                          {"layers", usage.layers},
                          {"pairs", usage.pairs},
                          {"layer_usage_flat", usage.layer_usage}});
    return groups;
}

} // namespace

json ModelReportJson(const ModelReport& report, bool full) {
    const FoundPositions& found = report.found;
    json doc = {{"file", report.path},
                {"format", report.format},
                {"tensors", report.tensor_count},
                {"family", found.family},
                {"kind", position_kind_name(found.kind)},
                {"context", found.context},
                {"notes", found.notes},
                {"config", report.has_config ? json(report.config_path) : json(nullptr)},
                {"config_only", report.config_only},
                {"seconds",
                 {{"open", report.seconds_open},
                  {"read", report.seconds_read},
                  {"analyse", report.seconds_analyse}}}};
    if (!report.gguf.is_null()) doc["gguf"] = report.gguf;
    if (report.has_config) {
        doc["layers"] = LayersJson(report.schedule);
        doc["schedule"] = ScheduleJson(report.schedule);
    }
    if (report.has_table) {
        json table = TableJson(report.table_report);
        table["name"] = found.table;
        table["first_row"] = found.first_row;
        table["padding_row"] = found.padding_row;
        if (full) {
            const int rows = report.table_report.rows;
            const std::vector<float> cosine =
                cosine_matrix(report.table, rows, report.table_report.cols);
            json matrix = json::array();
            for (int p = 0; p < rows; ++p)
                matrix.push_back(
                    std::vector<float>(cosine.begin() + static_cast<std::ptrdiff_t>(p) * rows,
                                       cosine.begin() + static_cast<std::ptrdiff_t>(p + 1) * rows));
            table["cosine"] = std::move(matrix);
            const OffsetCosines& offsets = report.offsets;
            table["offset_cosines"] = {{"mean", offsets.mean},
                                       {"least", offsets.least},
                                       {"greatest", offsets.greatest},
                                       {"starts", offsets.starts},
                                       {"sampled", offsets.sampled}};
        }
        doc["table"] = table;
        doc["sinusoidal"] = TableJson(report.sinusoid_report);
    }
    if (report.has_rope) {
        const RopeReport& rope = report.rope;
        json usage = json::array();
        for (int layer = 0; layer < rope.layers; ++layer) {
            json heads = json::array();
            for (int head = 0; head < rope.heads; ++head) {
                const auto start =
                    rope.usage.begin() +
                    (static_cast<std::ptrdiff_t>(layer) * rope.heads + head) * rope.pairs;
                heads.push_back(std::vector<double>(start, start + rope.pairs));
            }
            usage.push_back(heads);
        }
        doc["rope"] = {
            {"head_dim", rope.head_dim},
            {"rotary_dims", rope.rotary_dims},
            {"pairs", rope.pairs},
            {"pairing", found.pairing == RotaryPairing::HalfSplit ? "half-split" : "interleaved"},
            {"base", rope.base},
            {"base_from_default", found.base_from_default},
            {"heads", found.heads},
            {"kv_heads", found.kv_heads},
            {"layers", rope.layers},
            {"wavelengths", rope.wavelength},
            {"pairs_without_turn", rope.pairs_without_turn},
            {"without_turn_scaled", rope.without_turn_scaled},
            {"window", rope.window},
            {"window_chunked", rope.window_chunked},
            {"pairs_without_turn_in_window", rope.pairs_without_turn_in_window},
            {"scaling", rope.scaling},
            {"scaling_note", rope.scaling_note},
            {"scaled_wavelengths", rope.scaled_wavelength},
            {"short_wavelengths", rope.short_wavelength},
            {"long_from", rope.long_from},
            {"attention_factor", rope.attention_factor},
            {"attention_factor_rule", rope.attention_factor_rule},
            {"softmax_factor", rope.softmax_factor},
            {"softmax_factor_rule", rope.softmax_factor_rule},
            {"usage", usage},
            {"usage_layers", rope.usage_layers},
            {"weights_note", rope.weights_note},
            {"usage_groups", UsageGroupsJson(rope)},
            {"layer_usage_flat", rope.layer_usage}};
    }
    if (!report.buckets.empty()) {
        json stacks = json::array();
        for (const BucketReport& bucket : report.buckets) {
            json bias = json::array();
            for (int h = 0; h < bucket.heads; ++h) {
                const auto start =
                    bucket.bias.begin() + static_cast<std::ptrdiff_t>(h) *
                                              static_cast<std::ptrdiff_t>(bucket.distances.size());
                bias.push_back(std::vector<double>(
                    start, start + static_cast<std::ptrdiff_t>(bucket.distances.size())));
            }
            stacks.push_back({{"stack", bucket.stack},
                              {"buckets", bucket.buckets},
                              {"heads", bucket.heads},
                              {"max_distance", bucket.max_distance},
                              {"bidirectional", bucket.bidirectional},
                              {"distances", bucket.distances},
                              {"edges", bucket.edges},
                              {"bias", bias}});
        }
        doc["buckets"] = stacks;
    }
    if (!report.alibi_slopes.empty())
        doc["alibi"] = {{"heads", found.alibi_heads}, {"slopes", report.alibi_slopes}};
    return doc;
}

std::string ModelReportText(const ModelReport& report) {
    const FoundPositions& found = report.found;
    std::ostringstream out;
    if (report.config_only)
        out << "file: " << PrintableLine(report.path) << " (config.json alone: no weights)\n";
    else
        out << "file: " << PrintableLine(report.path) << " (" << report.format << ", "
            << report.tensor_count << (report.tensor_count == 1 ? " tensor)\n" : " tensors)\n");
    out << "config: "
        << (!report.gguf.is_null() && report.config_path.empty()
                ? std::string("the GGUF file's own metadata")
            : report.has_config ? PrintableLine(report.config_path)
                                : std::string("none"))
        << "\n";
    out << "family: " << PrintableLine(found.family)
        << "; positions: " << position_kind_name(found.kind);
    if (found.context > 0) out << "; context " << found.context;
    out << "\n";
    for (const std::string& note : found.notes)
        out << "note: " << PrintableLine(note) << "\n";
    if (report.has_config && !report.schedule.layers.empty()) {
        out << "layers: " << PrintableLine(ScheduleSummary(report.schedule));
        if (!report.schedule.rule.empty())
            out << " [" << PrintableLine(report.schedule.rule) << "]";
        out << "\n";
        for (const std::string& note : report.schedule.notes)
            out << "note: " << PrintableLine(note) << "\n";
    }
    if (report.has_table) {
        const TableReport& t = report.table_report;
        out << "table: " << PrintableLine(found.table) << ", " << t.rows << " positions × "
            << t.cols << " dimensions (from row " << found.first_row << ")\n";
        out << "  variance explained by " << ComponentRange(t.explained.size()) << ":";
        for (std::size_t k = 0; k < 3 && k < t.explained.size(); ++k)
            out << " " << Number(100 * t.explained[k]) << "%";
        out << ApproximationNote(t);
        out << "\n  strongest wave of components 1-6 (positions, its share of the variance; 0 = "
               "under one wave):";
        for (std::size_t k = 0; k < t.wavelengths.size(); ++k) {
            out << " " << Number(t.wavelengths[k]);
            if (t.wavelengths[k] > 0 && k < t.wave_shares.size())
                out << " (" << Number(100 * t.wave_shares[k]) << "%)";
        }
        out << "\n  row norms: median " << Number(t.median_norm);
        if (t.median_norm > 0 && t.rows > 16)
            out << ", last 16 rows " << Number(t.edge_norm_ratio) << " × the median";
        out << "\n";
        const TableReport& s = report.sinusoid_report;
        // The twin has an even width: a column fewer (two, for a one-column table) when odd.
        if (s.cols == t.cols)
            out << "  sinusoidal of the same size: " << ComponentRange(s.explained.size())
                << " explain";
        else
            out << "  sinusoidal of " << s.rows << " × " << s.cols
                << " (the nearest even width): " << ComponentRange(s.explained.size())
                << " explain";
        for (std::size_t k = 0; k < 3 && k < s.explained.size(); ++k)
            out << " " << Number(100 * s.explained[k]) << "%";
        out << ApproximationNote(s);
        out << "\n";
    }
    if (report.has_rope) {
        const RopeReport& r = report.rope;
        out << "rope: base " << Number(r.base) << ", " << r.rotary_dims << " of " << r.head_dim
            << " dimensions rotate (" << r.pairs << " pairs, "
            << (found.pairing == RotaryPairing::HalfSplit ? "half-split" : "interleaved") << "), "
            << (report.config_only ? r.heads : r.layers)
            << (report.config_only ? " heads (no weights read)\n"
                                   : std::string(r.layers == 1 ? " layer × " : " layers × ") +
                                         std::to_string(r.heads) + " heads\n");
        out << "  wavelengths: " << Number(r.wavelength.front()) << " (fastest) to "
            << Number(r.wavelength.back()) << " (slowest) positions; ";
        if (r.context <= 0)
            out << "the config gives no trained context\n";
        else if (r.pairs_without_turn == 0)
            out << "every pair completes a turn within the " << r.context << " trained\n";
        else
            out << r.pairs_without_turn << " of " << r.pairs
                << (r.pairs_without_turn == 1 ? " pairs never completes" : " pairs never complete")
                << " a turn within the " << r.context << " trained"
                << (r.without_turn_scaled ? " (positions stretched by rope_scaling)\n" : "\n");
        if (r.window > 0)
            out << "  " << (r.window_chunked ? "chunks of " : "sliding window of ") << r.window
                << ": " << r.pairs_without_turn_in_window << " of " << r.pairs
                << " pairs never complete a turn within one\n";
        if (!r.scaling.empty() && r.scaling != "default")
            out << "  rope_scaling " << PrintableLine(r.scaling) << ": "
                << PrintableLine(r.scaling_note) << "\n";
        if (!r.attention_factor_rule.empty())
            out << "  attention factor " << Number(r.attention_factor) << " on cos and sin ("
                << PrintableLine(r.attention_factor_rule) << ")\n";
        if (!r.weights_note.empty()) out << "  usage: " << PrintableLine(r.weights_note) << "\n";
        if (!r.softmax_factor_rule.empty())
            out << "  softmax scale × " << Number(r.softmax_factor) << " ("
                << PrintableLine(r.softmax_factor_rule) << ")\n";
    }
    for (const BucketReport& b : report.buckets)
        out << "buckets (" << b.stack << "): " << b.buckets << " buckets × " << b.heads
            << " heads, max distance " << b.max_distance << ", "
            << (b.bidirectional ? "bidirectional" : "causal") << "\n";
    if (!report.alibi_slopes.empty()) {
        // The largest and the least: for a head count that is not a power of two the reference
        // rule interleaves two geometric series, so the first and last heads are neither.
        const auto [least, largest] =
            std::minmax_element(report.alibi_slopes.begin(), report.alibi_slopes.end());
        out << "alibi: " << found.alibi_heads << " heads, slopes from " << Number(*largest)
            << " down to " << Number(*least);
        if (report.alibi_slopes.size() <= 16) {
            out << " (by head:";
            for (double slope : report.alibi_slopes)
                out << " " << Number(slope);
            out << ")";
        }
        out << "\n";
    }
    return out.str();
}

} // namespace pelab
