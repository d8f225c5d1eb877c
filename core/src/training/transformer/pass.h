// pass.h — a batch of sequences through the tiny transformer, forward and (with targets and a
// gradient) backward: the operations of operations.h called in order, the positional method
// entering only through its hooks.
#pragma once

#include "transformer/parameters.h"

namespace pelab::trainer {

/// What a pass is asked for: `batch` sequences of `length` tokens, one after another in tokens
/// (and targets). With targets, loss_scale × the summed cross-entropy is added to *loss_sum
/// and, when gradient is given, loss_scale × its gradient to gradient; logits (batch · length ×
/// vocab) and the attention weights of one layer and head of the first sequence (length ×
/// length) are written when given.
template <typename S> struct PassRequest {
    const int* tokens = nullptr;
    const int* targets = nullptr; ///< nullptr: forward only
    int batch = 1, length = 0;
    S loss_scale = S(1);
    double* loss_sum = nullptr;
    S* gradient = nullptr;
    S* logits = nullptr;
    int attention_layer = -1, attention_head = -1;
    S* attention = nullptr;
    /// The pass measures the model (logits, attention weights), it does not train it: the
    /// methods' hooks are told (SequenceView::measuring).
    bool measuring = false;
};

template <typename S>
void RunBatch(const TransformerConfig& config, const ParameterLayout& layout, const S* params,
              const PassRequest<S>& request);

} // namespace pelab::trainer
