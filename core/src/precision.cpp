#include "pelab/precision.h"

#include "pelab/sinusoidal.h"

#include <algorithm>
#include <cmath>

namespace pelab {

const char* recipe_name(PeRecipe recipe) {
    switch (recipe) {
    case PeRecipe::Float32Code:
        return "float32 code (NumPy/PyTorch recipe)";
    case PeRecipe::Float32AngleDouble:
        return "float32 angle, double sin/cos";
    case PeRecipe::PelabCore:
        return "pelab_core";
    }
    return "?";
}

std::vector<double> recipe_vector(PeRecipe recipe, double pos, int d_model, double base) {
    std::vector<double> values(static_cast<std::size_t>(d_model));
    if (recipe == PeRecipe::PelabCore) {
        const std::vector<float> v = pe_vector(pos, d_model, base); // validates
        std::copy(v.begin(), v.end(), values.begin());
        return values;
    }
    validate_d_model(d_model);
    validate_base(base);
    validate_position(pos);
    // Every step in float32, as the recipe's tensors are.
    const float scale = -std::log(static_cast<float>(base)) / static_cast<float>(d_model);
    const float position = static_cast<float>(pos);
    for (int i = 0; i < d_model / 2; ++i) {
        const float div_term = std::exp(static_cast<float>(2 * i) * scale);
        const float angle = position * div_term;
        if (recipe == PeRecipe::Float32Code) {
            values[2 * i] = std::sin(angle); // the float overloads: sinf, cosf
            values[2 * i + 1] = std::cos(angle);
        } else {
            values[2 * i] = std::sin(static_cast<double>(angle));
            values[2 * i + 1] = std::cos(static_cast<double>(angle));
        }
    }
    return values;
}

double recipe_max_error(PeRecipe recipe, double pos, int d_model, double base) {
    const std::vector<double> values = recipe_vector(recipe, pos, d_model, base);
    long double worst = 0;
    for (int i = 0; i < d_model / 2; ++i) {
        const long double angle = static_cast<long double>(pos) * powl(base, -2.0L * i / d_model);
        worst = std::max(
            {worst, fabsl(values[2 * i] - sinl(angle)), fabsl(values[2 * i + 1] - cosl(angle))});
    }
    return static_cast<double>(worst);
}

double neighbour_step(int pair_index, int d_model, double base) {
    return 2.0 * std::sin(omega(pair_index, d_model, base) / 2.0);
}

int pairs_below_step(double error, int d_model, double base) {
    int count = 0;
    for (int i = 0; i < d_model / 2; ++i)
        if (neighbour_step(i, d_model, base) < error) ++count;
    return count;
}

} // namespace pelab
