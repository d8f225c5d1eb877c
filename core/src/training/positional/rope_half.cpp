// RoPE with the half-split pairing of GPT-NeoX and of Llama's Hugging Face code: pair i of each
// head is dimensions (i, i + d_h/2) (rope_hooks.h). Trained from scratch it is the paper's RoPE
// with the head's dimensions permuted (Transformer.RopePairingsAreOneModelUnderAPermutation);
// weights made for one pairing and run with the other turn each dimension at a frequency it
// was not trained for.
#include "positional/rope_hooks.h"

namespace pelab::trainer {

PositionalMethod RopeHalfMethod() {
    return MethodOf<HalfSplitRopeHooks>(
        "RoPE, half-split pairs", "Su et al. 2021; the pairing of Black et al. 2022 (GPT-NeoX)",
        NoOwnParameters, NoOptions);
}

} // namespace pelab::trainer
