#include "transformer/parameters.h"

#include "pelab/base/draws.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace pelab::trainer {

std::vector<SlotSpec> SlotSpecs(const TransformerConfig& c) {
    std::vector<SlotSpec> specs;
    std::size_t offset = 0;
    const auto add = [&](const std::string& name, int rows, int cols, Init init, double scale) {
        specs.push_back({ParameterSlot{name, offset, rows, cols}, init, scale});
        offset += static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    };
    const int d = c.d_model, hidden = c.mlp_ratio * c.d_model;
    const double in_d = 1.0 / std::sqrt(static_cast<double>(d));
    const double in_hidden = 1.0 / std::sqrt(static_cast<double>(hidden));
    add("embedding", c.vocab, d, Init::Normal, 1.0);
    for (int l = 0; l < c.layers; ++l) {
        const std::string p = "layer" + std::to_string(l) + ".";
        add(p + "ln1.weight", 1, d, Init::One, 0);
        add(p + "ln1.bias", 1, d, Init::Zero, 0);
        add(p + "qkv.weight", 3 * d, d, Init::Uniform, in_d);
        add(p + "qkv.bias", 1, 3 * d, Init::Uniform, in_d);
        add(p + "out.weight", d, d, Init::Uniform, in_d);
        add(p + "out.bias", 1, d, Init::Uniform, in_d);
        add(p + "ln2.weight", 1, d, Init::One, 0);
        add(p + "ln2.bias", 1, d, Init::Zero, 0);
        add(p + "mlp1.weight", hidden, d, Init::Uniform, in_d);
        add(p + "mlp1.bias", 1, hidden, Init::Uniform, in_d);
        add(p + "mlp2.weight", d, hidden, Init::Uniform, in_hidden);
        add(p + "mlp2.bias", 1, d, Init::Uniform, in_hidden);
    }
    add("final_ln.weight", 1, d, Init::One, 0);
    add("final_ln.bias", 1, d, Init::Zero, 0);
    add("head.weight", c.vocab, d, Init::Uniform, in_d);
    add("head.bias", 1, c.vocab, Init::Uniform, in_d);
    for (const OwnParameter& own : MethodFor(c.positional).own_parameters(c))
        add(own.name, own.rows, own.cols, own.init, own.scale);
    return specs;
}

ParameterLayout LayoutOf(const std::vector<ParameterSlot>& slots, const TransformerConfig& c) {
    ParameterLayout layout;
    layout.layers.resize(static_cast<std::size_t>(c.layers));
    const std::vector<OwnParameter> own = MethodFor(c.positional).own_parameters(c);
    for (const ParameterSlot& s : slots) {
        const std::string& n = s.name;
        layout.total = std::max(layout.total, s.offset + static_cast<std::size_t>(s.rows) *
                                                             static_cast<std::size_t>(s.cols));
        if (!own.empty() && n == own.front().name) {
            layout.own = s.offset;
            layout.has_own = true;
        }
        if (n == "embedding") layout.embedding = s.offset;
        if (n == "final_ln.weight") layout.final_weight = s.offset;
        if (n == "final_ln.bias") layout.final_bias = s.offset;
        if (n == "head.weight") layout.head_weight = s.offset;
        if (n == "head.bias") layout.head_bias = s.offset;
        if (n.rfind("layer", 0) != 0) continue;
        const std::size_t dot = n.find('.');
        LayerOffsets& o = layout.layers[std::stoul(n.substr(5, dot - 5))];
        const std::string field = n.substr(dot + 1);
        if (field == "ln1.weight") o.ln1_weight = s.offset;
        if (field == "ln1.bias") o.ln1_bias = s.offset;
        if (field == "qkv.weight") o.qkv_weight = s.offset;
        if (field == "qkv.bias") o.qkv_bias = s.offset;
        if (field == "out.weight") o.out_weight = s.offset;
        if (field == "out.bias") o.out_bias = s.offset;
        if (field == "ln2.weight") o.ln2_weight = s.offset;
        if (field == "ln2.bias") o.ln2_bias = s.offset;
        if (field == "mlp1.weight") o.mlp1_weight = s.offset;
        if (field == "mlp1.bias") o.mlp1_bias = s.offset;
        if (field == "mlp2.weight") o.mlp2_weight = s.offset;
        if (field == "mlp2.bias") o.mlp2_bias = s.offset;
    }
    return layout;
}

template <typename S>
std::vector<S> InitialParameters(const std::vector<SlotSpec>& specs, std::uint64_t seed) {
    std::vector<S> parameters;
    std::mt19937_64 random(seed);
    for (const SlotSpec& spec : specs) {
        const std::size_t count =
            static_cast<std::size_t>(spec.slot.rows) * static_cast<std::size_t>(spec.slot.cols);
        const double deviation = spec.scale > 0 ? spec.scale : 1.0;
        for (std::size_t k = 0; k < count; ++k) {
            double value = 0;
            switch (spec.init) {
            case Init::Normal:
                value = deviation * draw_normal(random);
                break;
            case Init::Uniform:
                value = draw_uniform(random, -spec.scale, spec.scale);
                break;
            case Init::One:
                value = 1;
                break;
            case Init::Zero:
                value = 0;
                break;
            }
            parameters.push_back(static_cast<S>(value));
        }
    }
    return parameters;
}

template std::vector<float> InitialParameters<float>(const std::vector<SlotSpec>&, std::uint64_t);
template std::vector<double> InitialParameters<double>(const std::vector<SlotSpec>&, std::uint64_t);

} // namespace pelab::trainer
