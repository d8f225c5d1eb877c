#include "pelab/models/rope_analysis.h"

#include "base/constants.h"
#include "base/format.h"
#include "pelab/base/error.h"
#include "pelab/encodings/alternatives.h"
#include "pelab/encodings/sinusoidal.h"
#include "pelab/models/families.h"
#include "pelab/scaling/context_scaling.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace pelab {

using detail::kPi;

// ---- RoPE ----

namespace {

// A number as a reader writes it: whole ones in full ("4096", "1000000000"), else "0.5", "32.7".
std::string ShortNumber(double value) {
    char text[40];
    std::snprintf(text, sizeof text,
                  value == std::floor(value) && std::fabs(value) < 1e15 ? "%.0f" : "%g", value);
    return text;
}

// YaRN as transformers computes it for a config's rope_scaling (its pairs' θ_i; empty with a note
// saying why when it cannot apply).
std::vector<double> HuggingFaceYarn(const RopeScalingConfig& scaling, int rotary_dims, double base,
                                    double original, std::string* note) {
    const int pairs = rotary_dims / 2;
    std::vector<double> theta;
    if (scaling.factor < 1) {
        *note = "RoPE scaling factor " + ShortNumber(scaling.factor) +
                " is below 1 (it would shorten the context): not applied";
        return {};
    }
    // YaRN as Hugging Face's transformers computes it for these checkpoints: pair i turns
    // L₀θ_i/(2π) times in the original context L₀, so the pair that turns exactly n times
    // sits at i(n) = r·ln(L₀/(2πn)) / (2 ln base). The share of its own frequency a pair
    // keeps falls linearly over the pair index from i(beta_fast) to i(beta_slow) (rounded
    // outward to whole pairs unless rope_scaling says truncate: false); the rest of it is
    // the frequency divided by the factor. (The paper, eq. 17-21, ramps linearly in the
    // number of turns instead: the two agree at the ends and differ between them.)
    if (original < 1) {
        *note = "yarn needs the original context (original_max_position_embeddings or "
                "max_position_embeddings): not applied";
        return {};
    }
    const double s = scaling.factor;
    ContextScalingOptions options;
    options.d = rotary_dims;
    options.base = base;
    options.factor = s;
    options.original_context = original;
    options.yarn_alpha = scaling.beta_slow;
    options.yarn_beta = scaling.beta_fast;
    options.yarn_ramp = YarnRamp::PairIndex;
    options.yarn_truncate = scaling.truncate;
    try {
        theta = scaled_frequencies(ContextScaling::Yarn, options);
    } catch (const InvalidArgument& error) {
        *note = std::string("RoPE scaling not applied: ") + error.what();
        return {};
    }
    // Counted against the frequencies the ramp started from (the same θ_i, bit for bit).
    const std::vector<double> unscaled = frequencies(rotary_dims, base);
    int kept = 0, divided = 0;
    for (int i = 0; i < pairs; ++i) {
        kept += theta[i] == unscaled[i] ? 1 : 0;
        divided += theta[i] == unscaled[i] / s ? 1 : 0;
    }
    const auto counted = [](int count, const char* what) {
        return std::to_string(count) + (count == 1 ? " pair " : " pairs ") + what;
    };
    *note = "YaRN as Hugging Face computes it, factor " + ShortNumber(s) + ", original context " +
            ShortNumber(original) + ": " + counted(kept, "kept") + ", " +
            counted(divided, "divided by the factor") + ", " +
            counted(pairs - kept - divided, "on the ramp between") +
            " (linear over the pair index; the paper ramps over the turns)";
    return theta;
}

// The frequencies under the config's rope_scaling, with a line saying how they were computed.
std::vector<double> ScaledFrequencies(const RopeScalingConfig& scaling, int rotary_dims,
                                      double base, long long context, std::string* note) {
    const int pairs = rotary_dims / 2;
    std::vector<double> theta(pairs);
    for (int i = 0; i < pairs; ++i)
        theta[i] = std::pow(base, -2.0 * i / rotary_dims);
    const std::string& type = scaling.type;
    const double original =
        scaling.original_context > 0 ? scaling.original_context : static_cast<double>(context);
    if (type == "default" || type.empty()) return {};
    if (type == "dynamic") {
        // Hugging Face's dynamic NTK (context_scaling.h), shown at the length s·L₀.
        ContextScalingOptions options;
        options.d = rotary_dims;
        options.base = base;
        options.factor = scaling.factor;
        options.original_context = std::max(1.0, original);
        try {
            std::vector<double> scaled = scaled_frequencies(ContextScaling::DynamicNtk, options);
            *note = "dynamic NTK at " +
                    std::to_string(static_cast<long long>(scaling.factor * original)) +
                    " tokens (s × the original context): the base grows with the text's length";
            return scaled;
        } catch (const InvalidArgument& error) {
            *note = std::string("RoPE scaling not applied: ") + error.what();
            return {};
        }
    }
    if (type == "longrope" || type == "longrope-short") {
        const bool is_short = type == "longrope-short";
        const std::vector<double>& factors = is_short ? scaling.short_factor : scaling.long_factor;
        if (static_cast<int>(factors.size()) != pairs) {
            *note = std::string("longrope's ") + (is_short ? "short" : "long") + "_factor has " +
                    std::to_string(factors.size()) + " numbers, not one per pair (" +
                    std::to_string(pairs) + "): transformers cannot apply it either; not shown";
            return {};
        }
        for (int i = 0; i < pairs; ++i)
            theta[i] /= factors[i];
        *note = std::string("longrope: each pair's frequency divided by its ") +
                (is_short ? "short" : "long") + "_factor";
        return theta;
    }
    if (type == "yarn") return HuggingFaceYarn(scaling, rotary_dims, base, original, note);
    ContextScaling method = ContextScaling::None;
    if (type == "linear")
        method = ContextScaling::Linear;
    else if (type == "llama3")
        method = ContextScaling::Llama3;
    else {
        *note = "RoPE scaling type \"" + type + "\" is not one PE Lab computes: not applied";
        return {};
    }
    if (scaling.factor < 1) {
        *note = "RoPE scaling factor " + ShortNumber(scaling.factor) +
                " is below 1 (it would shorten the context): not applied";
        return {};
    }
    ContextScalingOptions options;
    options.d = rotary_dims;
    options.base = base;
    options.factor = std::max(1.0, scaling.factor);
    options.original_context = std::max(1.0, original);
    options.yarn_alpha = scaling.beta_slow;
    options.yarn_beta = scaling.beta_fast;
    options.llama_low_freq_factor = scaling.low_freq_factor;
    options.llama_high_freq_factor = scaling.high_freq_factor;
    try {
        std::vector<double> scaled = scaled_frequencies(method, options);
        // Linear scaling divides every position by the factor: it has no original context.
        const std::string factor = ShortNumber(scaling.factor);
        *note = std::string(context_scaling_name(method)) + ", factor " + factor +
                (method == ContextScaling::Linear
                     ? ": positions ÷ it, wavelengths × " + factor
                     : ", original context " + ShortNumber(options.original_context));
        return scaled;
    } catch (const InvalidArgument& error) {
        *note = std::string("RoPE scaling not applied: ") + error.what();
        return {};
    }
}

} // namespace

double rope_attention_factor(const RopeScalingConfig& scaling, long long max_positions,
                             std::string* rule) {
    const std::string& type = scaling.type;
    rule->clear();
    if (type != "yarn" && type != "longrope") return 1;
    const double original = scaling.original_context > 0 ? scaling.original_context
                                                         : static_cast<double>(max_positions);
    const double s = scaling.factor_given || original <= 0
                         ? scaling.factor
                         : static_cast<double>(max_positions) / original;
    if (scaling.attention_factor > 0) {
        *rule = "attention_factor, as config.json gives it";
        return scaling.attention_factor;
    }
    if (s <= 1) {
        *rule = type + " with a factor of at most 1: none";
        return 1;
    }
    const std::string factor_text =
        scaling.factor_given ? ShortNumber(s) : ShortNumber(s) + " (max ÷ original context)";
    if (type == "longrope") {
        *rule =
            "longrope: √(1 + ln s / ln L₀), s = " + factor_text + ", L₀ = " + ShortNumber(original);
        return std::sqrt(1 + std::log(s) / std::log(original));
    }
    const auto mscale = [&](double m) { return 0.1 * m * std::log(s) + 1; };
    if (scaling.mscale > 0 && scaling.mscale_all_dim > 0) {
        *rule = "YaRN: (0.1·mscale·ln s + 1) / (0.1·mscale_all_dim·ln s + 1), s = " + factor_text +
                ", mscale " + ShortNumber(scaling.mscale) + ", mscale_all_dim " +
                ShortNumber(scaling.mscale_all_dim);
        return mscale(scaling.mscale) / mscale(scaling.mscale_all_dim);
    }
    *rule = "YaRN: 0.1·ln s + 1, s = " + factor_text;
    return mscale(1);
}

void rope_frequencies(const FoundPositions& found, const CheckpointConfig& config,
                      RopeReport* out) {
    RopeReport report;
    report.head_dim = found.head_dim;
    report.rotary_dims = found.rotary_dims;
    report.rotary_first = found.rotary_first;
    report.pairs = found.rotary_dims / 2;
    report.base = found.base;
    report.context = found.context;
    report.extended_context = found.extended_context;
    report.heads = found.heads;
    report.layers = static_cast<int>(found.rope_layers.size());
    const int exponent_dims = found.frequency_dims > 0 ? found.frequency_dims : found.rotary_dims;
    for (int i = 0; i < report.pairs; ++i) {
        report.wavelength.push_back(2 * kPi * std::pow(found.base, 2.0 * i / exponent_dims));
        if (report.context > 0 && report.wavelength.back() > static_cast<double>(report.context))
            ++report.pairs_without_turn;
    }
    report.scaling = config.rope_scaling.type;
    std::vector<double> scaled;
    if (config.rope_scaling.type == "proportional") {
        // p-RoPE: the wavelengths above (over the whole head), divided by factor (default 1).
        for (double wavelength : report.wavelength)
            scaled.push_back(2 * kPi / wavelength / config.rope_scaling.factor);
        report.scaling_note = "p-RoPE: the exponent over the whole head of " +
                              std::to_string(exponent_dims) + ", frequencies ÷ factor " +
                              ShortNumber(config.rope_scaling.factor);
    } else {
        scaled = ScaledFrequencies(config.rope_scaling, found.rotary_dims, found.base,
                                   found.context, &report.scaling_note);
    }
    for (double theta : scaled)
        report.scaled_wavelength.push_back(2 * kPi / theta);
    // Linear scaling names no original context: the context is the one the model runs at, with
    // every position divided by the factor, so its pairs are counted stretched.
    report.without_turn_scaled = config.rope_scaling.type == "linear" &&
                                 report.extended_context == 0 && !report.scaled_wavelength.empty();
    const std::vector<double>& counted =
        report.without_turn_scaled ? report.scaled_wavelength : report.wavelength;
    if (report.without_turn_scaled)
        report.pairs_without_turn =
            static_cast<int>(std::count_if(counted.begin(), counted.end(), [&](double w) {
                return report.context > 0 && w > static_cast<double>(report.context);
            }));
    if (found.window > 0 && (report.context <= 0 || found.window < report.context)) {
        report.window = found.window;
        report.window_chunked = found.window_chunked;
        report.pairs_without_turn_in_window =
            static_cast<int>(std::count_if(counted.begin(), counted.end(), [&](double w) {
                return w > static_cast<double>(report.window);
            }));
    }
    if (config.rope_scaling.type == "longrope" && !scaled.empty()) {
        RopeScalingConfig short_side = config.rope_scaling;
        short_side.type = "longrope-short";
        std::string short_note;
        for (double theta : ScaledFrequencies(short_side, found.rotary_dims, found.base,
                                              found.context, &short_note))
            report.short_wavelength.push_back(2 * kPi / theta);
        report.long_from = found.context;
        report.scaling_note +=
            report.short_wavelength.empty()
                ? "; " + short_note
                : "; up to " + ShortNumber(static_cast<double>(found.context)) +
                      " tokens transformers uses short_factor instead (both shown)";
    }
    const long long longest =
        config.max_positions > 0 ? config.max_positions : found.extended_context;
    report.attention_factor =
        rope_attention_factor(config.rope_scaling, longest, &report.attention_factor_rule);
    // DeepSeek V2/V3 scale the softmax by mscale² as well (modeling_deepseek_v3.py).
    const ModelFamily* family = family_of_model_type(config.model_type);
    const RopeScalingConfig& scaling = config.rope_scaling;
    if (family && std::string(family->id) == "deepseek" && scaling.mscale_all_dim > 0 &&
        !scaling.type.empty() && scaling.type != "default" && scaling.factor > 1) {
        const double m = 0.1 * scaling.mscale_all_dim * std::log(scaling.factor) + 1;
        report.softmax_factor = m * m;
        report.softmax_factor_rule = "DeepSeek: the softmax scale × mscale², mscale = "
                                     "0.1·mscale_all_dim·ln s + 1 = " +
                                     ShortNumber(m);
    }
    *out = std::move(report);
}

// ---- T5 ----

Status analyse_buckets(Checkpoint& checkpoint, const FoundPositions& found,
                       const CheckpointConfig* config, std::vector<BucketReport>* out) {
    std::vector<BucketReport> reports;
    Status error;
    for (std::size_t i = 0; i < found.bias_tables.size(); ++i) {
        const TensorInfo* info = checkpoint.Find(found.bias_tables[i], &error);
        if (info == nullptr) return error.ok() ? Status("the bias table is missing") : error;
        if (info->shape.size() != 2 || info->shape[0] < 2 || info->shape[1] < 1)
            return "tensor " + detail::shown_name(info->name) + " should be buckets × heads";
        BucketReport report;
        report.stack = found.bias_stacks[i];
        report.buckets = static_cast<int>(info->shape[0]);
        report.heads = static_cast<int>(info->shape[1]);
        report.bidirectional = report.stack == "encoder";
        report.max_distance =
            config && config->relative_max_distance > 0 ? config->relative_max_distance : 128;
        if (config && config->relative_buckets > 0 && config->relative_buckets != report.buckets)
            return "tensor " + detail::shown_name(info->name) + " has " +
                   std::to_string(report.buckets) + " buckets, config.json says " +
                   std::to_string(config->relative_buckets);
        if (info->shape[1] > 4096)
            return "tensor " + detail::shown_name(info->name) + " has " +
                   std::to_string(info->shape[1]) +
                   " heads; PE Lab reads bias tables of at most 4 096";
        T5BucketOptions options{report.buckets, report.max_distance, report.bidirectional};
        try {
            validate_t5_options(options);
        } catch (const InvalidArgument& problem) {
            return "tensor " + detail::shown_name(info->name) + ": " + problem.what();
        }
        std::vector<float> table;
        if (Status problem = checkpoint.ReadFloats(*info, &table); !problem.ok()) return problem;
        const long long span = std::min<long long>(2LL * report.max_distance, 4096);
        for (long long d = -span; d <= (report.bidirectional ? span : 0); ++d)
            report.distances.push_back(d);
        report.bias.resize(report.distances.size() * static_cast<std::size_t>(report.heads));
        int previous = -1;
        for (std::size_t j = 0; j < report.distances.size(); ++j) {
            const int bucket = t5_bucket(report.distances[j], options);
            if (bucket != previous && j > 0) report.edges.push_back(report.distances[j]);
            previous = bucket;
            for (int h = 0; h < report.heads; ++h)
                report.bias[static_cast<std::size_t>(h) * report.distances.size() + j] =
                    table[static_cast<std::size_t>(bucket) * report.heads + h];
        }
        reports.push_back(std::move(report));
    }
    *out = std::move(reports);
    return {};
}

} // namespace pelab
