// RoPE as its paper writes it: pair i of each head is dimensions (2i, 2i + 1) (rope_hooks.h).
#include "positional/rope_hooks.h"

namespace pelab::trainer {

PositionalMethod RopeMethod() {
    return MethodOf<InterleavedRopeHooks>("RoPE", "Su et al. 2021", NoOwnParameters, NoOptions);
}

} // namespace pelab::trainer
