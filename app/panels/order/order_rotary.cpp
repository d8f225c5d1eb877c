// The Real model view on a rotary model (order_real.h): its switches, their labels and what
// each does to this model, and the runs of both sentences (pelab/models/llama_order.h).
#include "panels/order/order_real.h"

#include "panels/explanation.h"
#include "pelab/base/error.h"
#include "widgets/number_text.h"

#include <algorithm>
#include <new>

namespace pelab {

namespace {

// The first layer that rotates (nullptr when none does).
const LayerPlan* FirstRotating(const LlamaSizes& sizes) {
    for (const LayerPlan& plan : sizes.schedule.layers)
        if (plan.rope) return &plan;
    return nullptr;
}

int FirstRotatingLayer(const LlamaSizes& sizes) {
    for (std::size_t l = 0; l < sizes.schedule.layers.size(); ++l)
        if (sizes.schedule.layers[l].rope) return static_cast<int>(l);
    return -1;
}

// What switch k does to this model, beyond its label: "" when its label says it all.
std::string SwitchDetail(const LlamaModel& model, const RotaryChoice& choice, int tokens) {
    const LlamaSizes& sizes = model.Sizes();
    const int first = FirstRotatingLayer(sizes);
    if (first < 0) return {};
    const RopeTableSpec& spec = model.LayerRope(first);
    const int pairs = spec.rotary_dims / 2;
    const std::string block = "block " + std::to_string(first + 1);
    switch (choice.kind) {
    case RotarySwitch::Trained:
        return {};
    case RotarySwitch::None:
        return "No layer turns q or k, so the scores see no position: only the causal mask (each "
               "token reads the tokens before it) carries order.";
    case RotarySwitch::Pairing:
        return spec.pairing == RotaryPairing::HalfSplit
                   ? "The weights are laid out for half-split pairs (i, i + " +
                         std::to_string(pairs) +
                         " of each head); this run turns (2i, 2i + 1) "
                         "instead, as a checkpoint converted with the wrong permutation is read."
                   : "The weights are laid out for interleaved pairs (2i, 2i + 1); this run turns "
                     "(i, i + " +
                         std::to_string(pairs) + ") instead, the other convention.";
    case RotarySwitch::Base:
        return "Every layer's base is multiplied by " + ShownNumber(choice.base_factor, 3) + " (" +
               ShownNumber(spec.base, 7) + " → " + ShownNumber(spec.base * choice.base_factor, 7) +
               " in " + block + ", before any scaling).";
    case RotarySwitch::Shift: {
        std::string text = "Token t sits at position t + " +
                           ShownNumber(static_cast<double>(choice.shift), 9) + ".";
        if (sizes.context > 0 && choice.shift + tokens > sizes.context)
            text += " Positions past " + ShownNumber(static_cast<double>(sizes.context), 9) +
                    " lie beyond the context the model was trained on.";
        return text;
    }
    case RotarySwitch::ScalingOff:
        for (const LayerPlan& plan : sizes.schedule.layers)
            if (plan.rope && !plan.scaling.type.empty() && plan.scaling.type != "default")
                return "Each layer's RoPE is computed without its " + plan.scaling.type +
                       " scaling (attention factor 1).";
        return {};
    case RotarySwitch::NopeFrom: {
        if (choice.nope_from >= sizes.layers) return {};
        // "block 3" or "blocks 3 to 5", and its verb.
        const auto blocks = [](int first, int last) {
            return first == last ? "block " + std::to_string(first) + " turns"
                                 : "blocks " + std::to_string(first) + " to " +
                                       std::to_string(last) + " turn";
        };
        const std::string off = blocks(choice.nope_from + 1, sizes.layers) + " nothing.";
        if (choice.nope_from == 0) return Capitalised(off) + " (the same as no rotation)";
        return Capitalised(blocks(1, choice.nope_from)) + " q and k as trained; " + off;
    }
    }
    return {};
}

} // namespace

std::vector<RotaryChoice> RotarySwitches(double base_factor, long long shift, int nope_block) {
    std::vector<RotaryChoice> switches(7);
    switches[1].kind = RotarySwitch::None;
    switches[2].kind = RotarySwitch::Pairing;
    switches[3].kind = RotarySwitch::Base;
    switches[3].base_factor = base_factor;
    switches[4].kind = RotarySwitch::Shift;
    switches[4].shift = shift;
    switches[5].kind = RotarySwitch::ScalingOff;
    switches[6].kind = RotarySwitch::NopeFrom;
    switches[6].nope_from = std::max(0, nope_block - 1);
    return switches;
}

std::string RotarySwitchLabel(const RotaryChoice& choice, const LlamaSizes& sizes) {
    switch (choice.kind) {
    case RotarySwitch::Trained:
        return "as trained";
    case RotarySwitch::None:
        return "no rotation";
    case RotarySwitch::Pairing: {
        const LayerPlan* plan = FirstRotating(sizes);
        return plan != nullptr && plan->pairing == RotaryPairing::Interleaved ? "half-split pairs"
                                                                              : "interleaved pairs";
    }
    case RotarySwitch::Base:
        return "base ×" + ShownNumber(choice.base_factor, 3);
    case RotarySwitch::Shift:
        return "shifted by " + ShownNumber(static_cast<double>(choice.shift), 9);
    case RotarySwitch::ScalingOff:
        return "scaling off";
    case RotarySwitch::NopeFrom:
        return "none from block " + std::to_string(choice.nope_from + 1);
    }
    return "?";
}

void RunRotaryOrder(const RealOrderInputs& inputs, RealOrderDemo* demo) {
    const LlamaModel& model = *inputs.loaded->rotary;
    const LlamaSizes& sizes = model.Sizes();
    demo->rotary = true;
    demo->shift_used = inputs.shift;
    demo->rotary_switches = RotarySwitches(inputs.base_factor, inputs.shift, inputs.nope_block);
    const int longest = static_cast<int>(std::max(demo->ids_a.size(), demo->ids_b.size()));
    const char* const ids[] = {"trained", "none",        "pairing",  "base",
                               "shift",   "scaling-off", "nope-from"};
    for (std::size_t k = 0; k < demo->rotary_switches.size(); ++k) {
        const RotaryChoice& choice = demo->rotary_switches[k];
        demo->switch_ids.push_back(ids[k]);
        demo->labels.push_back(RotarySwitchLabel(choice, sizes));
        demo->names.push_back(RotaryChoiceName(choice));
        demo->notes.push_back(RotaryChoiceNote(sizes, choice, longest));
        demo->switch_details.push_back(SwitchDetail(model, choice, longest));
    }
    if (!sizes.schedule.layers.empty() &&
        sizes.schedule.layers[0].attention == LayerAttention::Sliding)
        demo->first_window = sizes.schedule.layers[0].span;
    try {
        RotaryOrderResult result =
            RunOrderOnLlama(model, demo->ids_a, demo->ids_b, demo->rotary_switches, 5,
                            inputs.threads, inputs.progress.get());
        demo->result = std::move(result.order);
        demo->shift = std::move(result.shift);
    } catch (const Cancelled&) {
        demo->cancelled = true;
        demo->error = kRunStopped;
    } catch (const InvalidArgument& e) {
        demo->error = e.what();
    } catch (const std::bad_alloc&) {
        demo->error = "not enough memory to run the model on these sentences";
    }
}

} // namespace pelab
