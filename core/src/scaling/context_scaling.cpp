#include "pelab/scaling/context_scaling.h"

#include "pelab/base/error.h"
#include "pelab/encodings/sinusoidal.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace pelab {

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

bool finite_positive(double value) {
    return std::isfinite(value) && value > 0;
}

} // namespace

const char* context_scaling_name(ContextScaling method) {
    const char* names[kContextScalingCount] = {"none", "linear (PI)", "NTK-aware",
                                               "YaRN", "Llama 3",     "dynamic NTK"};
    return names[static_cast<int>(method)];
}

const char* context_scaling_id(ContextScaling method) {
    const char* ids[kContextScalingCount] = {"none", "linear", "ntk", "yarn", "llama3", "dynamic"};
    return ids[static_cast<int>(method)];
}

void validate_context_scaling(const ContextScalingOptions& options) {
    validate_d_model(options.d);
    if (options.d < 4)
        throw InvalidArgument("d must be at least 4 for context scaling (got " +
                              std::to_string(options.d) + "): NTK-aware scaling divides by d − 2");
    validate_base(options.base);
    if (!std::isfinite(options.factor) || options.factor < 1 || options.factor > 1000)
        throw InvalidArgument("the scale factor s must be in [1, 1000]: the new context over the "
                              "original one");
    if (!std::isfinite(options.original_context) || options.original_context < 1 ||
        options.original_context > 1e9)
        throw InvalidArgument("the original context length must be in [1, 1e9]");
    if (!finite_positive(options.yarn_alpha) || !finite_positive(options.yarn_beta) ||
        options.yarn_alpha >= options.yarn_beta)
        throw InvalidArgument("YaRN needs 0 < α < β (the paper uses α = 1, β = 32)");
    if (!std::isfinite(options.sequence_length) || options.sequence_length < 0 ||
        options.sequence_length > 1e12)
        throw InvalidArgument("dynamic NTK's sequence length must be in [0, 1e12] (0: s·L)");
    if (!finite_positive(options.llama_low_freq_factor) ||
        !finite_positive(options.llama_high_freq_factor) ||
        options.llama_low_freq_factor > options.llama_high_freq_factor)
        throw InvalidArgument("Llama 3 scaling needs 0 < low_freq_factor ≤ high_freq_factor "
                              "(Meta uses 1 and 4; Llama 4 Scout 1 and 1)");
}

double dynamic_ntk_base(const ContextScalingOptions& options) {
    validate_context_scaling(options);
    // Recomputed for the current length n: nothing at n ≤ L (the growth is then ≤ 1 and
    // transformers keeps the original frequencies).
    const double s = options.factor, context = options.original_context;
    const double n = options.sequence_length > 0 ? options.sequence_length : s * context;
    const double grown = s * n / context - (s - 1);
    if (grown <= 1) return options.base;
    return options.base * std::pow(grown, options.d / (options.d - 2.0));
}

std::vector<double> scaled_frequencies(ContextScaling method,
                                       const ContextScalingOptions& options) {
    validate_context_scaling(options);
    const int d = options.d;
    const double s = options.factor;
    const double context = options.original_context;
    std::vector<double> theta = frequencies(d, options.base);
    switch (method) {
    case ContextScaling::None:
        break;
    case ContextScaling::Linear:
        for (double& value : theta)
            value /= s;
        break;
    case ContextScaling::NtkAware: {
        // A larger base: the fastest pair (i = 0) is untouched and the slowest is divided by
        // exactly s, with a geometric blend between.
        const double new_base = options.base * std::pow(s, d / (d - 2.0));
        for (int i = 0; i < d / 2; ++i)
            theta[i] = std::pow(new_base, -2.0 * i / d);
        break;
    }
    case ContextScaling::DynamicNtk: {
        const double new_base = dynamic_ntk_base(options);
        if (new_base == options.base) break;
        for (int i = 0; i < d / 2; ++i)
            theta[i] = std::pow(new_base, -2.0 * i / d);
        break;
    }
    case ContextScaling::Yarn:
        if (options.yarn_ramp == YarnRamp::Turns) {
            // The ramp is over r = L/λ (how many turns a pair makes in the original context),
            // linear in r as in the paper's eq. 18.
            for (double& value : theta) {
                const double turns = context / (kTwoPi / value);
                double gamma =
                    (turns - options.yarn_alpha) / (options.yarn_beta - options.yarn_alpha);
                gamma = std::fmin(1.0, std::fmax(0.0, gamma));
                value = (1 - gamma) * value / s + gamma * value;
            }
        } else {
            // Hugging Face's: the share of θ_i a pair keeps falls linearly over the pair index
            // from the pair that turns β times in L to the one that turns α times.
            const auto pair_turning = [&](double turns) {
                return d * std::log(context / (turns * kTwoPi)) / (2 * std::log(options.base));
            };
            double low = pair_turning(options.yarn_beta), high = pair_turning(options.yarn_alpha);
            if (options.yarn_truncate) low = std::floor(low), high = std::ceil(high);
            low = std::max(0.0, low);
            high = std::min(d - 1.0, high);
            if (high == low) high += 0.001; // as the reference does: no division by zero
            for (int i = 0; i < d / 2; ++i) {
                const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
                theta[i] = theta[i] / s * ramp + theta[i] * (1 - ramp);
            }
        }
        break;
    case ContextScaling::Llama3: {
        const double low = options.llama_low_freq_factor, high = options.llama_high_freq_factor;
        const double low_freq_wavelength = context / low;   // longer waves: divided by s
        const double high_freq_wavelength = context / high; // shorter waves: kept
        for (double& value : theta) {
            const double wavelength = kTwoPi / value;
            if (wavelength < high_freq_wavelength) continue;
            if (wavelength > low_freq_wavelength) {
                value /= s;
                continue;
            }
            // Equal factors (Llama 4 Scout's 1 and 1) leave no band between: a pair exactly at
            // the edge is kept (transformers' mask would give it 0/0 there).
            const double smooth = high > low ? (context / wavelength - low) / (high - low) : 1.0;
            value = (1 - smooth) * value / s + smooth * value;
        }
        break;
    }
    }
    return theta;
}

std::vector<double> frequency_scale_factors(ContextScaling method,
                                            const ContextScalingOptions& options) {
    const std::vector<double> original = frequencies(options.d, options.base);
    std::vector<double> factors = scaled_frequencies(method, options);
    for (std::size_t i = 0; i < factors.size(); ++i)
        factors[i] /= original[i];
    return factors;
}

double attention_temperature_factor(ContextScaling method, double factor) {
    if (!std::isfinite(factor) || factor < 1 || factor > 1000)
        throw InvalidArgument("the scale factor s must be in [1, 1000]");
    return method == ContextScaling::Yarn ? 0.1 * std::log(factor) + 1.0 : 1.0;
}

double attention_logit_scale(ContextScaling method, double factor) {
    const double mscale = attention_temperature_factor(method, factor);
    return mscale * mscale;
}

} // namespace pelab
