// llama_order.cpp — the order demo's runs on a rotary model and the shift's closeness
// (pelab/models/llama_order.h).
#include "pelab/models/llama_order.h"

#include "pelab/base/error.h"

#include <algorithm>
#include <cmath>

namespace pelab {

std::vector<double> AttentionDifferences(const std::vector<float>& a, const std::vector<float>& b,
                                         int layers) {
    if (a.size() != b.size() || layers < 1 || a.size() % static_cast<std::size_t>(layers) != 0)
        throw InvalidArgument("the two passes' attention differ in size");
    const std::size_t per_layer = a.size() / static_cast<std::size_t>(layers);
    std::vector<double> largest(static_cast<std::size_t>(layers), 0.0);
    for (std::size_t i = 0; i < a.size(); ++i) {
        double& top = largest[i / per_layer];
        top = std::max(top, std::abs(static_cast<double>(a[i]) - b[i]));
    }
    return largest;
}

std::string ShiftChangesRope(const LlamaModel& model, int layer, long long shift, int n) {
    const LlamaSizes& sizes = model.Sizes();
    if (layer < 0 || layer >= sizes.layers || !sizes.schedule.layers[layer].rope || shift == 0)
        return {};
    const RopeTableSpec& spec = model.LayerRope(layer);
    const RopeFrequencies at_zero = rope_inv_freq(spec, n, RopeReference::Transformers);
    const RopeFrequencies shifted = rope_inv_freq(spec, shift + n, RopeReference::Transformers);
    if (at_zero.inv_freq != shifted.inv_freq ||
        at_zero.attention_factor != shifted.attention_factor)
        return "its RoPE is chosen by the sequence's length (" + at_zero.rule + " at " +
               std::to_string(n) + " tokens; " + shifted.rule + " at " + std::to_string(shift + n) +
               ")";
    if (sizes.schedule.llama4_beta != 0)
        for (int t = 0; t < n; ++t)
            if (Llama4BetaScale(sizes.schedule, t) != Llama4BetaScale(sizes.schedule, shift + t))
                return "each query is scaled by 1 + β·ln(1 + ⌊p / " +
                       std::to_string(static_cast<long long>(sizes.schedule.llama4_original)) +
                       "⌋), which depends on the position itself";
    return {};
}

RotaryOrderResult RunOrderOnLlama(const LlamaModel& model, const std::vector<int>& a,
                                  const std::vector<int>& b,
                                  const std::vector<RotaryChoice>& switches, int top, int threads,
                                  PassProgress* progress) {
    const LlamaSizes& sizes = model.Sizes();
    RotaryOrderResult result;
    result.order = StartOrderResult(a, b, sizes.layers, sizes.heads);
    OrderResult& order = result.order;
    Gpt2Options options;
    options.all_logits = true; // the loss
    options.threads = threads;
    // Each switch's two passes, and the shift's four with bf16 tables.
    bool shifts = false;
    for (const RotaryChoice& choice : switches)
        shifts = shifts || (choice.kind == RotarySwitch::Shift && choice.shift > 0);
    if (progress != nullptr)
        progress->total = static_cast<int>(2 * switches.size() + (shifts ? 4 : 0));
    const auto run = [&](const std::vector<int>& tokens, const RotaryChoice& choice) {
        PassProgress::Check(progress);
        Gpt2Pass pass = model.Run(tokens, choice, options);
        PassProgress::Step(progress);
        return pass;
    };
    for (const RotaryChoice& choice : switches) {
        Gpt2Pass pass_a = run(a, choice);
        Gpt2Pass pass_b = run(b, choice);
        order.runs.push_back(MeasureOrderRun(std::move(pass_a), std::move(pass_b), sizes.vocab,
                                             sizes.width, sizes.layers, order.same_prefix, top));
    }
    // The shift against the unshifted run, with the tables of the same precision.
    const auto find = [&](RotarySwitch kind) {
        for (std::size_t k = 0; k < switches.size(); ++k)
            if (switches[k].kind == kind && !switches[k].bf16_tables) return static_cast<int>(k);
        return -1;
    };
    const int trained = find(RotarySwitch::Trained), shifted = find(RotarySwitch::Shift);
    if (trained < 0 || shifted < 0 || switches[shifted].shift == 0) return result;
    ShiftCloseness& closeness = result.shift;
    closeness.shift = switches[shifted].shift;
    const OrderRun &at_zero = order.runs[trained], &at_shift = order.runs[shifted];
    closeness.f32 = AttentionDifferences(at_zero.attention_a, at_shift.attention_a, sizes.layers);
    const std::vector<double> f32_b =
        AttentionDifferences(at_zero.attention_b, at_shift.attention_b, sizes.layers);
    closeness.loss_f32 = std::max(std::abs(at_zero.loss_a - at_shift.loss_a),
                                  std::abs(at_zero.loss_b - at_shift.loss_b));
    RotaryChoice zero_bf16, shift_bf16 = switches[shifted];
    zero_bf16.bf16_tables = shift_bf16.bf16_tables = true;
    closeness.bf16.assign(static_cast<std::size_t>(sizes.layers), 0.0);
    for (const std::vector<int>* tokens : {&a, &b}) {
        const Gpt2Pass p0 = run(*tokens, zero_bf16);
        const Gpt2Pass pk = run(*tokens, shift_bf16);
        const std::vector<double> each =
            AttentionDifferences(p0.attention, pk.attention, sizes.layers);
        for (int l = 0; l < sizes.layers; ++l)
            closeness.bf16[l] = std::max(closeness.bf16[l], each[l]);
        closeness.loss_bf16 = std::max(closeness.loss_bf16, std::abs(p0.loss - pk.loss));
    }
    const int n = static_cast<int>(std::max(a.size(), b.size()));
    for (int l = 0; l < sizes.layers; ++l) {
        closeness.f32[l] = std::max(closeness.f32[l], f32_b[l]);
        const std::string rule = ShiftChangesRope(model, l, closeness.shift, n);
        if (rule.empty()) continue;
        closeness.absolute_layers.push_back(l);
        if (closeness.absolute_rule.empty()) closeness.absolute_rule = rule;
    }
    return result;
}

} // namespace pelab
