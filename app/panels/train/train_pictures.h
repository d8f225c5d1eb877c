// train_pictures.h — how the Train panel tells its variants apart, the same in every picture
// (its curves, the length plot, the attention maps) and on its variant checkboxes.
#pragma once

#include "pelab/transformer.h"
#include "widgets/plot.h"
#include "widgets/theme.h"

namespace pelab {

/// One colour per variant: none in grey (the baseline).
Role VariantRole(PositionalKind kind);
/// One marker shape per variant: close colours differ in shape; none is a ring.
plot::Marker VariantMarker(PositionalKind kind);

} // namespace pelab
