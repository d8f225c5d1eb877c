// Independent long double reference for the tests: written from the paper's formula directly,
// sharing no code with pelab_core.
#pragma once

#include <cmath>

namespace reference {

inline long double omega(int pair_index, int d_model, long double base) {
    return powl(base, -2.0L * pair_index / d_model);
}

inline long double pe(long double pos, int dim, int d_model, long double base) {
    const long double angle = pos * omega(dim / 2, d_model, base);
    return dim % 2 == 0 ? sinl(angle) : cosl(angle);
}

} // namespace reference
