// methods.h — the app's row of each positional method of the training lab (the core's table,
// pelab/training/positional_methods.h, holds its name and maths): how the Train panel draws it
// (colour role and marker, the same in every picture and on its checkbox), the tab that teaches it,
// and what it changes in the model (the checkbox's tooltip, and its line in docs/train.md's table,
// generated from here by scripts/update_scene_fields.sh). Every method of the core has exactly one
// row (MethodLooks.EveryMethodHasOneRow).
#pragma once

#include "pelab/training/transformer.h"
#include "widgets/plot.h"
#include "widgets/theme.h"

#include <vector>

namespace pelab {

struct MethodLook {
    PositionalKind kind;
    /// The method's colour: none in grey (the baseline); close colours differ in marker.
    Role role;
    /// Its marker: none is a ring, drawn larger, so a method on the same points shows inside.
    plot::Marker marker;
    /// The Alternatives tab that teaches it (an AlternativesTabs() id; "" for sinusoidal, which
    /// the first panels teach).
    const char* tab;
    /// What it changes in the model, one line ("q and k of every head turned by …"), as
    /// Markdown (docs/train.md's table; the tooltip shows it without the escapes).
    const char* changes;
};

/// Every row, in the core table's order.
const std::vector<MethodLook>& MethodLooks();
/// The row of kind.
const MethodLook& LookOf(PositionalKind kind);

} // namespace pelab
