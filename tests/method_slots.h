// What the trainer's tests know of a positional method's own parameters, from the method table
// alone: a method names each tensor it owns "<its name>.<part>" (pelab/training/
// positional_methods.h), so a test finds them without listing any method.
#pragma once

#include "pelab/training/transformer.h"

#include <string>

/// Whether slot is one of the tensors the method of kind owns.
inline bool OwnedByMethod(const pelab::ParameterSlot& slot, pelab::PositionalKind kind) {
    const std::string prefix = std::string(pelab::positional_kind_name(kind)) + ".";
    return slot.name.compare(0, prefix.size(), prefix) == 0;
}
