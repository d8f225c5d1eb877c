// The model without a positional encoding: no hook does anything, so attention sees a bag of
// tokens (and, when causal, only the mask tells positions apart).
#include "positional/method.h"

namespace pelab::trainer {

template <typename S> class NoneHooks final : public PositionalHooks<S> {
public:
    explicit NoneHooks(const SequenceView<S>& /*sequence*/) {}
};

PositionalMethod NoneMethod() {
    return MethodOf<NoneHooks>("none", "", NoOwnParameters, NoOptions);
}

} // namespace pelab::trainer
