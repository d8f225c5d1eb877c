// models/checkpoint_shard.h — one file of an opened checkpoint (internal to core: the readers
// of each format fill it; pelab/models/checkpoint.h's Checkpoint holds them).
#pragma once

#include "pelab/base/status.h"
#include "pelab/models/checkpoint.h"

#include <map>
#include <string>

namespace pelab {

struct Checkpoint::Shard {
    std::string path;
    bool loaded = false;
    Status error; ///< why it could not be loaded (kept: asked again, the same answer)
    ByteFile file;
    std::map<std::string, TensorInfo> tensors;
};

} // namespace pelab
