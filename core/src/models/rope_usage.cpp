// How much each RoPE pair can carry, from a checkpoint's q and k projections: the usage of
// pelab/models/rope_analysis.h, layer by layer, with each layer's widths and its family's layout.
#include "pelab/models/rope_analysis.h"

#include "base/format.h"
#include "pelab/models/gguf.h"
#include "pelab/models/layer_schedule.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace pelab {

namespace {

// Where head h's rotating dimension d lies among the rows of a layer's q and k tensors
// (pelab/models/model_positions.h names the layouts).
struct ProjectionRows {
    long long query_rows = 0, key_rows = 0; ///< the tensors' first dimensions
    long long query_stride = 0, query_offset = 0;
    long long key_start = 0, key_stride = 0, key_offset = 0;
    bool key_of_each_head = false; ///< GPT-NeoX: query head h's own key head
    long long Query(int head, int dim) const { return head * query_stride + query_offset + dim; }
    long long Key(int key_head, int dim) const {
        return key_start + key_head * key_stride + key_offset + dim;
    }
};

Status RowsOf(const RopeLayerTensors& tensors, const CheckpointConfig& config, int heads, int kv,
              int hd, ProjectionRows* out) {
    using Fused = RopeLayerTensors::Fused;
    ProjectionRows rows;
    const long long h = heads, k = kv, d = hd;
    rows.query_rows = h * d, rows.query_stride = d;
    rows.key_rows = k * d, rows.key_stride = d;
    switch (tensors.fused) {
    case Fused::No:
        break;
    case Fused::Gated:
        rows.query_rows = 2 * h * d, rows.query_stride = 2 * d;
        break;
    case Fused::PerHead:
        rows.query_rows = rows.key_rows = 3 * h * d;
        rows.query_stride = rows.key_stride = 3 * d, rows.key_offset = d;
        rows.key_of_each_head = true;
        break;
    case Fused::Stacked:
        rows.query_rows = rows.key_rows = (h + 2 * k) * d;
        rows.key_start = h * d;
        break;
    case Fused::Latent: {
        const long long nope = config.qk_nope_head_dim, rope = config.qk_rope_head_dim,
                        rank = config.kv_lora_rank;
        if (rope <= 0 || rank <= 0)
            return "the checkpoint's attention is latent (" + detail::shown_name(tensors.key) +
                   "), and config.json gives no " +
                   (rope <= 0 ? "qk_rope_head_dim" : "kv_lora_rank") + ", which its layout needs";
        rows.query_rows = h * (nope + rope), rows.query_stride = nope + rope;
        rows.query_offset = nope;
        rows.key_rows = rank + rope, rows.key_start = rank, rows.key_stride = 0;
        break;
    }
    }
    *out = rows;
    return {};
}

std::string ShapeText(const TensorInfo& info) {
    std::string text = "[";
    for (std::size_t i = 0; i < info.shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(info.shape[i]);
    return text + "]";
}

// The sums of squares of a projection's rows: an 8-bit weight multiplied by its block scales
// (`<name>_scale_inv`, the block size from quantization_config).
Status ProjectionSquares(Checkpoint& checkpoint, const TensorInfo& info,
                         const CheckpointConfig& config, std::vector<double>* out) {
    const bool eight_bit = info.type == TensorType::F8E4M3 || info.type == TensorType::F8E5M2;
    if (!eight_bit) return checkpoint.RowSquares(info, out);
    Status error;
    const TensorInfo* scale = checkpoint.Find(info.name + "_scale_inv", &error);
    if (!error.ok()) return error;
    if (scale == nullptr)
        return "tensor " + detail::shown_name(info.name) + " holds " + info.dtype +
               " numbers without their block scales (" + detail::shown_name(info.name) +
               "_scale_inv), which the usage view multiplies in";
    if (config.weight_block.size() != 2)
        return "tensor " + detail::shown_name(info.name) + " is " + info.dtype +
               " with block scales, and config.json gives no quantization_config."
               "weight_block_size (DeepSeek V3 and Qwen3-FP8 give [128, 128])";
    return checkpoint.RowSquares(
        info, BlockScales{scale, config.weight_block[0], config.weight_block[1]}, out);
}

std::string ShapeProblem(const TensorInfo& info, long long want, const RopeLayerTensors& tensors,
                         int heads, int kv, int head_dim) {
    if (info.shape.size() == 2 && info.shape[0] == want && info.shape[1] >= 1) return {};
    using Fused = RopeLayerTensors::Fused;
    return "tensor " + detail::shown_name(info.name) + " should have " + std::to_string(want) +
           " rows for layer " + std::to_string(tensors.layer) + "'s heads (" +
           std::to_string(heads) + " query, " + std::to_string(kv) + " key, " +
           std::to_string(head_dim) + " dimensions each" +
           (tensors.fused == Fused::Gated ? ", each query head followed by its gate" : "") +
           (tensors.fused == Fused::Latent ? ": the latent layout" : "") + "); its shape is " +
           ShapeText(info);
}

// One layer's usage: heads × pairs, each ‖q rows of the pair‖ · ‖k rows of the pair‖.
Status LayerUsage(Checkpoint& checkpoint, const RopeLayerTensors& tensors,
                  const CheckpointConfig& config, const FoundPositions& found,
                  const LayerPlan& plan, std::vector<double>* out) {
    Status error, key_error;
    const TensorInfo* q_info = checkpoint.Find(tensors.query, &error);
    const TensorInfo* k_info = checkpoint.Find(tensors.key, &key_error);
    if (q_info == nullptr || k_info == nullptr) {
        if (!error.ok()) return error;
        if (!key_error.ok()) return key_error;
        return "layer " + std::to_string(tensors.layer) + "'s projections are missing";
    }
    const int heads = found.heads,
              kv = std::max(plan.kv_heads > 0 ? plan.kv_heads : found.kv_heads, 1);
    ProjectionRows rows;
    if (Status problem = RowsOf(tensors, config, heads, kv, plan.head_dim, &rows); !problem.ok())
        return problem;
    std::string shape = ShapeProblem(*q_info, rows.query_rows, tensors, heads, kv, plan.head_dim);
    if (shape.empty() && q_info != k_info)
        shape = ShapeProblem(*k_info, rows.key_rows, tensors, heads, kv, plan.head_dim);
    if (!shape.empty()) return shape;
    // Only each row's length is needed: read as sums of squares, never held whole.
    std::vector<double> query, key;
    if (Status problem = ProjectionSquares(checkpoint, *q_info, config, &query); !problem.ok())
        return problem;
    if (q_info != k_info)
        if (Status problem = ProjectionSquares(checkpoint, *k_info, config, &key); !problem.ok())
            return problem;
    const std::vector<double>& key_squares = q_info != k_info ? key : query;
    const int pairs = plan.rotary_dims / 2;
    const int exponent_dims = plan.frequency_dims > 0 ? plan.frequency_dims : plan.rotary_dims;
    const int group = std::max(heads / kv, 1);
    const auto at = [](const std::vector<double>& values, long long row) {
        return values[static_cast<std::size_t>(row)];
    };
    std::vector<double> usage(static_cast<std::size_t>(heads) * pairs);
    for (int head = 0; head < heads; ++head) {
        const int key_head = rows.key_of_each_head ? head : head / group;
        for (int pair = 0; pair < pairs; ++pair) {
            int a = 0, b = 0;
            pair_dimensions(pair, exponent_dims, plan.pairing, &a, &b);
            const double q_norm =
                std::sqrt(at(query, rows.Query(head, a)) + at(query, rows.Query(head, b)));
            const double k_norm = std::sqrt(at(key_squares, rows.Key(key_head, a)) +
                                            at(key_squares, rows.Key(key_head, b)));
            usage[static_cast<std::size_t>(head) * pairs + pair] = q_norm * k_norm;
        }
    }
    *out = std::move(usage);
    return {};
}

// Layer index's plan: the schedule's, else one built from found (a config without a layer count).
LayerPlan PlanOf(const LayerSchedule& schedule, const FoundPositions& found, int index) {
    if (index >= 0 && index < static_cast<int>(schedule.layers.size()))
        return schedule.layers[static_cast<std::size_t>(index)];
    LayerPlan plan;
    plan.index = index;
    plan.rope = true;
    plan.head_dim = found.head_dim;
    plan.kv_heads = found.kv_heads;
    plan.rotary_dims = found.rotary_dims;
    plan.frequency_dims = found.frequency_dims;
    plan.pairing = found.pairing;
    return plan;
}

// The group (index into schedule.groups) holding the layer the single-layer views show; −1.
int ShownGroup(const LayerSchedule& schedule) {
    for (std::size_t g = 0; g < schedule.groups.size(); ++g)
        for (int layer : schedule.groups[g].layers)
            if (layer == schedule.shown_layer) return static_cast<int>(g);
    return -1;
}

// The note on 8-bit weights, from the first layer's query projection.
std::string WeightsNote(Checkpoint& checkpoint, const FoundPositions& found,
                        const CheckpointConfig& config) {
    if (found.rope_layers.empty()) return {};
    Status error;
    const TensorInfo* info = checkpoint.Find(found.rope_layers.front().query, &error);
    // A GGUF file's block-quantized q and k: their values as llama.cpp computes with them.
    if (info != nullptr && info->type == TensorType::Ggml && info->ggml != nullptr)
        return "the weights are " + info->dtype + " (" + info->ggml->about +
               "), widened as ggml does: the norms are the quantized weights'";
    if (config.weight_block.size() != 2) return {};
    if (info == nullptr || (info->type != TensorType::F8E4M3 && info->type != TensorType::F8E5M2))
        return {};
    return "the weights are FP8 (" + info->dtype + "), each multiplied by the scale of its " +
           std::to_string(config.weight_block[0]) + " × " + std::to_string(config.weight_block[1]) +
           " block (weight_scale_inv)";
}

} // namespace

void UseGroup(const RopeUsage& usage, RopeReport* report) {
    report->usage = usage.usage;
    report->layer_usage = usage.layer_usage;
    report->usage_layers = usage.layers;
    report->layers = static_cast<int>(usage.layers.size());
}

Status analyse_rope(Checkpoint& checkpoint, const FoundPositions& found,
                    const CheckpointConfig& config, RopeReport* out) {
    if (found.kind != PositionKind::Rope) return "the checkpoint has no RoPE attention";
    RopeReport report;
    rope_frequencies(found, config, &report);
    const LayerSchedule schedule = BuildLayerSchedule(config);
    report.weights_note = WeightsNote(checkpoint, found, config);
    // Each layer with RoPE, measured with its own widths (Gemma 4's global layers are wider);
    // layers without positions have nothing to measure.
    std::map<int, std::vector<double>> by_layer;
    std::map<int, int> pairs_of;
    for (const RopeLayerTensors& tensors : found.rope_layers) {
        const LayerPlan plan = PlanOf(schedule, found, tensors.layer);
        if (!plan.rope) continue;
        std::vector<double> usage;
        if (Status problem = LayerUsage(checkpoint, tensors, config, found, plan, &usage);
            !problem.ok())
            return problem;
        by_layer[tensors.layer] = std::move(usage);
        pairs_of[tensors.layer] = plan.rotary_dims / 2;
    }
    // Gathered by layer kind: the strip's groups, or one group when the config lists no layers.
    std::vector<std::vector<int>> kinds;
    if (schedule.layers.empty()) {
        kinds.emplace_back();
        for (const auto& entry : by_layer)
            kinds.back().push_back(entry.first);
    } else {
        for (const LayerGroup& group : schedule.groups)
            kinds.push_back(group.layers);
    }
    const int heads = std::max(found.heads, 1);
    for (std::size_t kind = 0; kind < kinds.size(); ++kind) {
        RopeUsage usage;
        usage.group = schedule.layers.empty() ? -1 : static_cast<int>(kind);
        for (int layer : kinds[kind]) {
            const auto at = by_layer.find(layer);
            if (at == by_layer.end()) continue;
            usage.pairs = pairs_of[layer];
            usage.layers.push_back(layer);
            usage.usage.insert(usage.usage.end(), at->second.begin(), at->second.end());
            for (int pair = 0; pair < usage.pairs; ++pair) {
                double mean = 0;
                for (int head = 0; head < heads; ++head)
                    mean += at->second[static_cast<std::size_t>(head) * usage.pairs + pair];
                usage.layer_usage.push_back(mean / heads);
            }
        }
        if (!usage.layers.empty()) report.usage_groups.push_back(std::move(usage));
    }
    const int shown_group = ShownGroup(schedule);
    report.layers = 0;
    for (const RopeUsage& usage : report.usage_groups)
        if ((usage.group == shown_group || usage.group < 0) && usage.pairs == report.pairs)
            UseGroup(usage, &report);
    *out = std::move(report);
    return {};
}

} // namespace pelab
