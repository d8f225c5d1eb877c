#include "pelab/models/rope_tables.h"

#include "base/constants.h"
#include "base/format.h"
#include "pelab/models/rope_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

// This file is compiled with -ffp-contract=off (core/CMakeLists.txt): the float32 pipeline
// rounds after every operation, as PyTorch's separate kernels do; a fused multiply-add would
// round once and part from transformers in the last bit.

namespace pelab {

using detail::kPi;

const char* rope_reference_name(RopeReference reference) {
    return reference == RopeReference::Ideal ? "ideal" : "transformers";
}

// ---- The layer's spec ----

namespace {

bool Unscaled(const RopeScalingConfig& scaling) {
    return scaling.type.empty() || scaling.type == "default";
}

bool Computed(const std::string& type) {
    return type.empty() || type == "default" || type == "linear" || type == "dynamic" ||
           type == "yarn" || type == "longrope" || type == "llama3" || type == "proportional";
}

} // namespace

int rope_default_layer(const CheckpointConfig& config) {
    return BuildLayerSchedule(config).shown_layer;
}

Status rope_table_spec(const CheckpointConfig& config, int layer, RopeTableSpec* out) {
    const LayerSchedule schedule = BuildLayerSchedule(config);
    if (schedule.layers.empty())
        return Status("config.json gives no layer count (num_hidden_layers), so its layers' RoPE "
                      "cannot be told apart");
    const int count = static_cast<int>(schedule.layers.size());
    if (layer < 0 || layer >= count)
        return Status("--layer " + std::to_string(layer) + ": the model has layers 0 to " +
                      std::to_string(count - 1));
    const LayerPlan& plan = schedule.layers[static_cast<std::size_t>(layer)];
    if (!plan.rope) {
        std::vector<int> rotary, plain;
        for (const LayerPlan& each : schedule.layers)
            (each.rope ? rotary : plain).push_back(each.index);
        return Status("layer " + std::to_string(layer) + " has no RoPE (" +
                      layer_attention_name(plan.attention) + ", " + plan.layer_type + ")" +
                      (rotary.empty() ? "; no layer of this model rotates"
                                      : "; the layers without RoPE are " + LayerList(plain) + " (" +
                                            std::to_string(plain.size()) + " of " +
                                            std::to_string(count) + "); any other layer has it"));
    }
    if (!Computed(plan.scaling.type))
        return Status("layer " + std::to_string(layer) + "'s rope type \"" + plan.scaling.type +
                      "\" is not one of transformers' rope functions (default, linear, dynamic, "
                      "yarn, longrope, llama3, proportional)");
    if (plan.head_dim % 2 != 0)
        return Status("layer " + std::to_string(layer) + "'s head_dim " +
                      std::to_string(plan.head_dim) + " is odd: RoPE turns pairs of dimensions");
    if (plan.rotary_dims < 2 || plan.rotary_dims % 2 != 0)
        return Status("layer " + std::to_string(layer) + " rotates " +
                      std::to_string(plan.rotary_dims) +
                      " dimensions: not a whole number of pairs");
    RopeTableSpec spec;
    spec.layer = layer;
    spec.layer_type = plan.layer_type;
    spec.base = plan.rope_theta;
    spec.theta_defaulted = plan.theta_defaulted;
    if (!(spec.base > 0)) {
        // A family whose schedule names no base (Falcon): transformers' default_theta.
        spec.base = 10000;
        spec.theta_defaulted = true;
    }
    if (!std::isfinite(spec.base))
        return Status("layer " + std::to_string(layer) + "'s rope_theta is not a finite number");
    spec.head_dim = plan.head_dim;
    spec.rotary_dims = plan.rotary_dims;
    spec.frequency_dims = plan.frequency_dims > 0 ? plan.frequency_dims : plan.rotary_dims;
    spec.pairing = plan.pairing;
    spec.scaling = plan.scaling;
    spec.max_positions = config.max_positions;
    spec.family_id = schedule.family_id;
    const std::string& type = spec.scaling.type;
    if ((type == "dynamic" || type == "yarn" || type == "longrope") && spec.max_positions <= 0 &&
        spec.scaling.original_context <= 0)
        return Status("rope type " + type +
                      " needs max_position_embeddings, which config.json "
                      "does not give");
    if (type == "longrope") {
        const auto pairs = static_cast<std::size_t>(spec.rotary_dims / 2);
        if (spec.scaling.short_factor.size() != pairs || spec.scaling.long_factor.size() != pairs)
            return Status(
                "longrope's short_factor and long_factor must hold one number per pair (" +
                std::to_string(pairs) + "); they hold " +
                std::to_string(spec.scaling.short_factor.size()) + " and " +
                std::to_string(spec.scaling.long_factor.size()));
    }
    // transformers' validation warns below 1 (it would shorten the context, and a factor near 0
    // makes every frequency infinite): refused here.
    if ((type == "linear" || type == "dynamic" || type == "llama3" ||
         ((type == "yarn" || type == "longrope") && spec.scaling.factor_given)) &&
        !(spec.scaling.factor >= 1))
        return Status("rope type " + type + ": factor " + detail::concat(spec.scaling.factor) +
                      " is below 1 (transformers warns: it would shorten the context); the "
                      "tables are computed for factors of 1 or more");
    *out = std::move(spec);
    return Status();
}

// ---- inv_freq ----

namespace {

// A Python number that PyTorch casts to the tensor's dtype before the operation.
template <typename T> T Scalar(double value) {
    return static_cast<T>(value);
}

// 1.0 / (base ** (arange(0, 2·count, 2).float() / exponent_dims)): the default frequencies.
// In PyTorch `1.0 / t` is t.reciprocal() * 1.0, a division in the tensor's dtype.
template <typename T> std::vector<T> DefaultInvFreq(T base, int count, int exponent_dims) {
    std::vector<T> inv(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        const T exponent = static_cast<T>(2 * i) / static_cast<T>(exponent_dims);
        inv[static_cast<std::size_t>(i)] = T(1) / static_cast<T>(std::pow(base, exponent));
    }
    return inv;
}

long long OriginalContext(const RopeTableSpec& spec) {
    return spec.scaling.original_context > 0 ? static_cast<long long>(spec.scaling.original_context)
                                             : spec.max_positions;
}

// yarn's factor: the config's, else max_position_embeddings ÷ the original context.
double YarnFactor(const RopeTableSpec& spec) {
    if (spec.scaling.factor_given || spec.max_positions <= 0) return spec.scaling.factor;
    return static_cast<double>(spec.max_positions) / static_cast<double>(OriginalContext(spec));
}

template <typename T>
std::vector<T> DynamicInvFreq(const RopeTableSpec& spec, long long length, std::string* rule) {
    const int dim = spec.rotary_dims;
    const double factor = spec.scaling.factor;
    const long long context = spec.max_positions > 0 ? spec.max_positions : OriginalContext(spec);
    const long long seq = std::max(length, context);
    const double exponent = static_cast<double>(dim) / static_cast<double>(dim - 2);
    // At run time transformers passes the length as an int64 tensor: past max_position_embeddings
    // the new base is a float32 tensor, each step in float32. Up to it, the base is the one
    // computed at start-up from Python numbers, in double.
    bool single_steps = false;
    if constexpr (std::is_same_v<T, float>) single_steps = length > context;
    T base{};
    if (single_steps) {
        T grown = Scalar<T>(factor) * static_cast<T>(seq);
        grown = grown / static_cast<T>(context);
        grown = grown - Scalar<T>(factor - 1);
        grown = static_cast<T>(std::pow(grown, Scalar<T>(exponent)));
        base = Scalar<T>(spec.base) * grown;
    } else {
        const double grown =
            factor * static_cast<double>(seq) / static_cast<double>(context) - (factor - 1);
        base = Scalar<T>(spec.base * std::pow(grown, exponent));
    }
    *rule = "dynamic NTK at length " + std::to_string(seq) + ": base " +
            detail::concat(static_cast<double>(base));
    return DefaultInvFreq<T>(base, dim / 2, dim);
}

template <typename T> std::vector<T> YarnInvFreq(const RopeTableSpec& spec, std::string* rule) {
    const int dim = spec.rotary_dims;
    const double base = spec.base;
    const double factor = YarnFactor(spec);
    const double original = static_cast<double>(OriginalContext(spec));
    const double beta_fast = spec.scaling.beta_fast > 0 ? spec.scaling.beta_fast : 32;
    const double beta_slow = spec.scaling.beta_slow > 0 ? spec.scaling.beta_slow : 1;
    const auto correction_dim = [&](double turns) {
        return dim * std::log(original / (turns * 2 * kPi)) / (2 * std::log(base));
    };
    double low = correction_dim(beta_fast), high = correction_dim(beta_slow);
    if (spec.scaling.truncate) low = std::floor(low), high = std::ceil(high);
    low = std::max(low, 0.0);
    high = std::min(high, static_cast<double>(dim - 1));
    if (low == high) high += 0.001;
    const int pairs = dim / 2;
    std::vector<T> inv(static_cast<std::size_t>(pairs));
    for (int i = 0; i < pairs; ++i) {
        const T exponent = static_cast<T>(2 * i) / static_cast<T>(dim);
        const T pos_freq = static_cast<T>(std::pow(Scalar<T>(base), exponent));
        const T extrapolation = T(1) / pos_freq;
        const T interpolation = T(1) / (Scalar<T>(factor) * pos_freq);
        T ramp = (static_cast<T>(i) - Scalar<T>(low)) / Scalar<T>(high - low);
        ramp = std::min(std::max(ramp, T(0)), T(1));
        const T extrapolation_factor = T(1) - ramp;
        inv[static_cast<std::size_t>(i)] =
            interpolation * (T(1) - extrapolation_factor) + extrapolation * extrapolation_factor;
    }
    *rule = "yarn, factor " + detail::concat(factor) + ", ramp over pairs " + detail::concat(low) +
            " to " + detail::concat(high);
    return inv;
}

template <typename T> std::vector<T> Llama3InvFreq(const RopeTableSpec& spec) {
    const int dim = spec.rotary_dims;
    std::vector<T> inv = DefaultInvFreq<T>(Scalar<T>(spec.base), dim / 2, dim);
    const double factor = spec.scaling.factor;
    const double low = spec.scaling.low_freq_factor, high = spec.scaling.high_freq_factor;
    const double original = static_cast<double>(OriginalContext(spec));
    const T low_wavelength = Scalar<T>(original / low),
            high_wavelength = Scalar<T>(original / high);
    for (T& each : inv) {
        // `2π / t` and `old / t` are t.reciprocal() times the number in PyTorch.
        const T reciprocal = T(1) / each;
        const T wavelength = reciprocal * Scalar<T>(2 * kPi);
        const T llama = wavelength > low_wavelength ? each / Scalar<T>(factor) : each;
        const T smooth =
            ((T(1) / wavelength) * Scalar<T>(original) - Scalar<T>(low)) / Scalar<T>(high - low);
        const T smoothed = (T(1) - smooth) * llama / Scalar<T>(factor) + smooth * llama;
        const bool medium = !(wavelength < high_wavelength) && !(wavelength > low_wavelength);
        each = medium ? smoothed : llama;
    }
    return inv;
}

template <typename T>
std::vector<T> InvFreqIn(const RopeTableSpec& spec, long long length, std::string* rule) {
    const std::string& type = spec.scaling.type;
    const int dim = spec.rotary_dims;
    if (type == "dynamic") return DynamicInvFreq<T>(spec, length, rule);
    if (type == "yarn") return YarnInvFreq<T>(spec, rule);
    if (type == "llama3") {
        *rule = "llama3, factor " + detail::concat(spec.scaling.factor);
        return Llama3InvFreq<T>(spec);
    }
    if (type == "longrope") {
        const bool long_side = length > OriginalContext(spec);
        const std::vector<double>& factors =
            long_side ? spec.scaling.long_factor : spec.scaling.short_factor;
        *rule = std::string("longrope: ") + (long_side ? "long_factor" : "short_factor") +
                " (length " + std::to_string(length) + (long_side ? " > " : " ≤ ") +
                "original context " + std::to_string(OriginalContext(spec)) + ")";
        std::vector<T> inv(static_cast<std::size_t>(dim / 2));
        for (int i = 0; i < dim / 2; ++i) {
            const T shape = static_cast<T>(2 * i) / static_cast<T>(dim);
            const T power = static_cast<T>(std::pow(Scalar<T>(spec.base), shape));
            inv[static_cast<std::size_t>(i)] =
                T(1) / (Scalar<T>(factors[static_cast<std::size_t>(i)]) * power);
        }
        return inv;
    }
    if (type == "proportional") {
        // Gemma 4's p-RoPE: the exponent over the whole head, the pairs that do not turn 0.
        std::vector<T> inv = DefaultInvFreq<T>(Scalar<T>(spec.base), dim / 2, spec.frequency_dims);
        inv.resize(static_cast<std::size_t>(std::max(spec.frequency_dims / 2, dim / 2)), T(0));
        const double factor = spec.scaling.factor > 0 ? spec.scaling.factor : 1.0;
        for (T& each : inv)
            each = each / Scalar<T>(factor);
        *rule = "proportional, factor " + detail::concat(factor);
        return inv;
    }
    std::vector<T> inv = DefaultInvFreq<T>(Scalar<T>(spec.base), dim / 2, dim);
    if (type == "linear") {
        for (T& each : inv)
            each = each / Scalar<T>(spec.scaling.factor);
        *rule = "linear, factor " + detail::concat(spec.scaling.factor);
    } else {
        *rule = "default (no scaling)";
    }
    return inv;
}

} // namespace

RopeFrequencies rope_inv_freq(const RopeTableSpec& spec, long long sequence_length,
                              RopeReference reference) {
    RopeFrequencies out;
    if (reference == RopeReference::Ideal) {
        out.inv_freq = InvFreqIn<double>(spec, sequence_length, &out.rule);
    } else {
        const std::vector<float> single = InvFreqIn<float>(spec, sequence_length, &out.rule);
        out.inv_freq.assign(single.begin(), single.end());
    }
    if (spec.scaling.type == "yarn" || spec.scaling.type == "longrope") {
        std::string rule;
        out.attention_factor = rope_attention_factor(spec.scaling, spec.max_positions, &rule);
        out.rule += "; attention factor " + rule;
    }
    return out;
}

// ---- Tables ----

const char* rope_table_kind_name(RopeTableKind kind) {
    switch (kind) {
    case RopeTableKind::InvFreq:
        return "inv_freq";
    case RopeTableKind::Cos:
        return "cos";
    case RopeTableKind::Sin:
        return "sin";
    case RopeTableKind::Angles:
        return "angles";
    case RopeTableKind::AttentionFactor:
        return "attention_factor";
    }
    return "cos";
}

const char* table_layout_name(TableLayout layout) {
    switch (layout) {
    case TableLayout::HalfSplit:
        return "half-split";
    case TableLayout::Interleaved:
        return "interleaved";
    case TableLayout::Undoubled:
        return "one column per pair";
    }
    return "half-split";
}

int table_pair(int column, int width, TableLayout layout) {
    switch (layout) {
    case TableLayout::HalfSplit:
        return column % (width / 2);
    case TableLayout::Interleaved:
        return column / 2;
    case TableLayout::Undoubled:
        break;
    }
    return column;
}

void rope_table_rows(const RopeFrequencies& frequencies, RopeReference reference,
                     RopeTableKind kind, long long first_position, long long rows,
                     TableLayout layout, TableDtype dtype, double* out) {
    const int pairs = static_cast<int>(frequencies.inv_freq.size());
    const int width = layout == TableLayout::Undoubled ? pairs : 2 * pairs;
    std::vector<double> row(static_cast<std::size_t>(pairs));
    const auto factor_single = static_cast<float>(frequencies.attention_factor);
    for (long long r = 0; r < rows; ++r) {
        const long long position = first_position + r;
        for (int i = 0; i < pairs; ++i) {
            const double inv = frequencies.inv_freq[static_cast<std::size_t>(i)];
            double value = 0;
            if (reference == RopeReference::Transformers) {
                const float angle = static_cast<float>(inv) * static_cast<float>(position);
                if (kind == RopeTableKind::Angles)
                    value = angle;
                else
                    value = (kind == RopeTableKind::Cos ? std::cos(angle) : std::sin(angle)) *
                            factor_single;
            } else {
                const double angle = inv * static_cast<double>(position);
                if (kind == RopeTableKind::Angles)
                    value = angle;
                else
                    value = (kind == RopeTableKind::Cos ? std::cos(angle) : std::sin(angle)) *
                            frequencies.attention_factor;
            }
            row[static_cast<std::size_t>(i)] = round_to_dtype(value, dtype);
        }
        double* target = out + r * width;
        for (int c = 0; c < width; ++c)
            target[c] = row[static_cast<std::size_t>(table_pair(c, width, layout))];
    }
}

std::string rope_spec_summary(const RopeTableSpec& spec) {
    std::string text = "layer " + std::to_string(spec.layer) +
                       (spec.layer_type.empty() ? "" : " (" + spec.layer_type + ")") + ": base " +
                       detail::concat(spec.base) + (spec.theta_defaulted ? " (defaulted)" : "") +
                       ", " + std::to_string(spec.rotary_dims) + " rotating dimensions of " +
                       std::to_string(spec.head_dim) + ", " + rotary_pairing_name(spec.pairing);
    if (!Unscaled(spec.scaling)) text += ", rope type " + spec.scaling.type;
    return text;
}

} // namespace pelab
