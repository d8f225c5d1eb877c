// AdamW as torch.optim.AdamW computes it, after an optional clip of the gradient's global norm
// (pelab/training/transformer.h).
#include "pelab/base/error.h"
#include "pelab/training/transformer.h"

#include <cmath>
#include <string>

namespace pelab {

template <typename Scalar>
AdamW<Scalar>::AdamW(std::size_t parameter_count, const AdamWOptions& options)
    : options_(options), first_(parameter_count, 0.0), second_(parameter_count, 0.0) {}

template <typename Scalar>
double AdamW<Scalar>::step(std::vector<Scalar>& parameters, std::vector<Scalar>& gradient) {
    if (parameters.size() != first_.size() || gradient.size() != first_.size())
        throw InvalidArgument("AdamW: the parameters and the gradient must have " +
                              std::to_string(first_.size()) + " values");
    double norm_squared = 0;
    for (const Scalar g : gradient)
        norm_squared += static_cast<double>(g) * static_cast<double>(g);
    const double norm = std::sqrt(norm_squared);
    // torch.nn.utils.clip_grad_norm_: scale by max_norm / (norm + 1e-6) when that is below 1.
    const double clip = options_.clip_norm > 0 ? options_.clip_norm / (norm + 1e-6) : 1.0;
    ++steps_;
    const double correction1 = 1 - std::pow(options_.beta1, static_cast<double>(steps_));
    const double correction2 = 1 - std::pow(options_.beta2, static_cast<double>(steps_));
    const double lr = options_.learning_rate;
    for (std::size_t k = 0; k < parameters.size(); ++k) {
        if (clip < 1) gradient[k] = static_cast<Scalar>(gradient[k] * clip);
        const double g = gradient[k];
        double p = parameters[k];
        p *= 1 - lr * options_.weight_decay;
        first_[k] = options_.beta1 * first_[k] + (1 - options_.beta1) * g;
        second_[k] = options_.beta2 * second_[k] + (1 - options_.beta2) * g * g;
        const double denominator =
            std::sqrt(second_[k]) / std::sqrt(correction2) + options_.epsilon;
        p -= lr / correction1 * first_[k] / denominator;
        parameters[k] = static_cast<Scalar>(p);
    }
    return norm;
}

template class AdamW<float>;
template class AdamW<double>;

} // namespace pelab
