// The pass, as llm.c's gpt2_forward and gpt2_backward: each step one call, the backward the
// forward's steps in reverse. Nothing here depends on the positional method but its hooks.
#include "transformer/pass.h"

#include "transformer/operations.h"

namespace pelab::trainer {

namespace {

template <typename S> struct BlockCache {
    LayerNormCache<S> ln1, ln2;
    AttentionCache<S> attention;
    Mat<S> h1, qkv, attended, x1, h2, z, cdf, g; // cdf: Φ(z), GELU's
};

} // namespace

template <typename S>
void RunBatch(const TransformerConfig& c, const ParameterLayout& layout, const S* params,
              const PassRequest<S>& r) {
    const int n = r.length, rows = r.batch * r.length, d = c.d_model, hidden = c.mlp_ratio * d;
    const S* own = layout.has_own ? params + layout.own : nullptr;
    const std::unique_ptr<PositionalHooks<S>> hooks =
        HooksFor(MethodFor(c.positional), SequenceView<S>{c, own, n, r.measuring});
    // What a layer without positions (irope's pattern) attends with: hooks that do nothing.
    const PositionalHooks<S> no_positions;
    const auto layer_hooks = [&](int l) -> const PositionalHooks<S>& {
        return layer_without_positions(c, l) ? no_positions : *hooks;
    };

    // Forward.
    Mat<S> x = EmbeddingForward(r.tokens, rows, params + layout.embedding, d);
    hooks->InputForward(x);
    std::vector<BlockCache<S>> blocks(static_cast<std::size_t>(c.layers));
    for (int l = 0; l < c.layers; ++l) {
        const LayerOffsets& o = layout.layers[static_cast<std::size_t>(l)];
        BlockCache<S>& b = blocks[static_cast<std::size_t>(l)];
        b.h1 = LayerNormForward(x, params + o.ln1_weight, params + o.ln1_bias, b.ln1);
        b.qkv = LinearForward(b.h1, params + o.qkv_weight, params + o.qkv_bias, 3 * d);
        b.attended = AttentionForward(b.qkv, n, c.heads, c.causal, layer_hooks(l), b.attention,
                                      l == r.attention_layer ? r.attention_head : -1, r.attention);
        b.x1 = x + LinearForward(b.attended, params + o.out_weight, params + o.out_bias, d);
        b.h2 = LayerNormForward(b.x1, params + o.ln2_weight, params + o.ln2_bias, b.ln2);
        b.z = LinearForward(b.h2, params + o.mlp1_weight, params + o.mlp1_bias, hidden);
        b.g = GeluForward(b.z, b.cdf);
        x = b.x1 + LinearForward(b.g, params + o.mlp2_weight, params + o.mlp2_bias, d);
    }
    LayerNormCache<S> final_cache;
    const Mat<S> hf =
        LayerNormForward(x, params + layout.final_weight, params + layout.final_bias, final_cache);
    const Mat<S> logits =
        LinearForward(hf, params + layout.head_weight, params + layout.head_bias, c.vocab);
    if (r.logits != nullptr) MapMat<S>(r.logits, rows, c.vocab) = logits;
    if (r.targets == nullptr) return;
    const Mat<S> probabilities = CrossEntropyForward(logits, r.targets, r.loss_scale, r.loss_sum);
    if (r.gradient == nullptr) return;

    // Backward.
    S* grad = r.gradient;
    S* d_own = layout.has_own ? grad + layout.own : nullptr;
    const Mat<S> d_logits = CrossEntropyBackward(probabilities, r.targets, r.loss_scale);
    Mat<S> dx = LinearBackward(d_logits, hf, params + layout.head_weight, grad + layout.head_weight,
                               grad + layout.head_bias);
    dx = LayerNormBackward(dx, params + layout.final_weight, final_cache,
                           grad + layout.final_weight, grad + layout.final_bias);
    for (int l = c.layers - 1; l >= 0; --l) {
        const LayerOffsets& o = layout.layers[static_cast<std::size_t>(l)];
        const BlockCache<S>& b = blocks[static_cast<std::size_t>(l)];
        // The MLP's residual branch.
        const Mat<S> dg = LinearBackward(dx, b.g, params + o.mlp2_weight, grad + o.mlp2_weight,
                                         grad + o.mlp2_bias);
        const Mat<S> dz = GeluBackward(dg, b.z, b.cdf);
        const Mat<S> dh2 = LinearBackward(dz, b.h2, params + o.mlp1_weight, grad + o.mlp1_weight,
                                          grad + o.mlp1_bias);
        const Mat<S> dx1 = dx + LayerNormBackward(dh2, params + o.ln2_weight, b.ln2,
                                                  grad + o.ln2_weight, grad + o.ln2_bias);
        // The attention's residual branch.
        const Mat<S> d_attended = LinearBackward(dx1, b.attended, params + o.out_weight,
                                                 grad + o.out_weight, grad + o.out_bias);
        const Mat<S> d_qkv =
            AttentionBackward(d_attended, b.qkv, n, c.heads, layer_hooks(l), b.attention, d_own);
        const Mat<S> dh1 = LinearBackward(d_qkv, b.h1, params + o.qkv_weight, grad + o.qkv_weight,
                                          grad + o.qkv_bias);
        dx = dx1 + LayerNormBackward(dh1, params + o.ln1_weight, b.ln1, grad + o.ln1_weight,
                                     grad + o.ln1_bias);
    }
    EmbeddingBackward(dx, r.tokens, grad + layout.embedding);
    hooks->InputBackward(dx, d_own);
}

template void RunBatch<float>(const TransformerConfig&, const ParameterLayout&, const float*,
                              const PassRequest<float>&);
template void RunBatch<double>(const TransformerConfig&, const ParameterLayout&, const double*,
                               const PassRequest<double>&);

} // namespace pelab::trainer
