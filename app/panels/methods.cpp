#include "panels/methods.h"

#include <stdexcept>

namespace pelab {

const std::vector<MethodLook>& MethodLooks() {
    // Sinusoidal's orange and RoPE's vermillion are close: they differ in shape.
    static const std::vector<MethodLook> looks = {
        {PositionalKind::None, Role::Muted, plot::Marker::Ring, "nope",
         "nothing: attention sees a bag of tokens (bidirectional)"},
        {PositionalKind::Sinusoidal, Role::Cos, plot::Marker::Square, "",
         "PE(pos) added to the embeddings (base 10 000)"},
        {PositionalKind::Learned, Role::PosB, plot::Marker::Circle, "learned",
         "a learned table of max_len rows added to the embeddings (initialised N(0, 0.02²))"},
        {PositionalKind::Rope, Role::PosA, plot::Marker::Circle, "rope",
         "q and k of every head turned by pos·θ_i, θ_i = 10000^(−2i/d_head)"},
        {PositionalKind::Alibi, Role::ShiftArc, plot::Marker::Square, "alibi",
         "−m_h·\\|i − j\\| added to the scores, the slopes of the ALiBi paper"},
        {PositionalKind::T5, Role::Sin, plot::Marker::Square, "t5",
         "a learned bias per head and bucket of j − i, shared by the layers (T5's buckets: 32, "
         "max_distance 128 or the test length)"},
        {PositionalKind::RopeHalf, Role::Accent, plot::Marker::Square, "pairing",
         "RoPE with the half-split pairing of GPT-NeoX and Llama's Hugging Face code: pair i is "
         "dimensions (i, i + d_head/2), not (2i, 2i + 1)"},
        {PositionalKind::RopeCrossed, Role::Highlight, plot::Marker::Ring, "pairing",
         "trained as RoPE (pairs 2i, 2i + 1), measured with the half-split pairs (i, i + "
         "d_head/2): "
         "weights run by code of the other convention (its loss curve is rope's; its accuracies "
         "and attention maps are the half-split run's)"},
        {PositionalKind::RopePartial, Role::PosB, plot::Marker::Ring, "partial",
         "partial rotary (GPT-NeoX's rotary_pct 0.25): the first quarter of each head's "
         "dimensions turn, at base^(−2i/r) over those r, paired (i, i + r/2); the rest carry no "
         "position (refused below head width 8, where no pair would turn)"},
        {PositionalKind::PRope, Role::PosA, plot::Marker::Ring, "partial",
         "p-RoPE (Barbero et al. 2024), p = 0.75: RoPE's fastest three quarters of the pairs turn "
         "at their θ_i; the slowest quarter does not turn"},
        {PositionalKind::Xpos, Role::ShiftArc, plot::Marker::Circle, "xpos",
         "xPos (Sun et al. 2022): RoPE with q scaled by ζ_i^(m/512) and k by ζ_i^(−n/512), "
         "ζ_i = (2i/d_head + 0.4)/1.4, so pair i's share of q·k decays as ζ_i^((m − n)/512); "
         "causal only"},
        {PositionalKind::Irope, Role::PosA, plot::Marker::Square, "nope",
         "iRoPE (Llama 4's interleaved layers): rope in every layer but layers N, 2N, … "
         "(--nope-every N, 2 by default; Llama 4 uses 4), which attend without positions"},
        {PositionalKind::Cope, Role::Highlight, plot::Marker::Square, "cope",
         "CoPE (Golovneva et al. 2024): positions counted by the query's gates σ(q·k/√d_head) "
         "over the keys back to each one, a learned vector per counted position (interpolated, "
         "scored against q; one table shared by the layers and heads); causal only"},
        {PositionalKind::Kerple, Role::ShiftArc, plot::Marker::Ring, "kerple",
         "KERPLE (Chi et al. 2022), logarithmic: −r₁·log(1 + r₂·\\|i − j\\|) added to the scores, "
         "r₁ and r₂ learned per head (softplus of free parameters, both starting at ln 2), shared "
         "by the layers"},
        {PositionalKind::Fire, Role::Sin, plot::Marker::Ring, "fire",
         "FIRE (Li et al. 2023): a learned MLP (32 ReLU units) of u = log(1 + c·(i − j))/log(1 + "
         "c·max(L, i)) added to each head's scores, c and L learned, shared by the layers; causal "
         "only"},
        {PositionalKind::AlibiLearned, Role::Accent, plot::Marker::Circle, "alibi",
         "ALiBi's −m_h·\\|i − j\\| with each head's slope learned (m_h·softplus(w_h)/ln 2, "
         "starting at the paper's slope), shared by the layers"},
    };
    return looks;
}

const MethodLook& LookOf(PositionalKind kind) {
    for (const MethodLook& look : MethodLooks())
        if (look.kind == kind) return look;
    // A method of the core without its row here: MethodLooks.EveryMethodHasOneRow names it.
    throw std::logic_error(std::string("no app row for the positional method ") +
                           positional_kind_name(kind));
}

} // namespace pelab
