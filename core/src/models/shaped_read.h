// models/shaped_read.h — one weight of a forward pass read from a checkpoint as floats, of
// exactly the shape the model needs (gpt2.cpp, llama.cpp).
#pragma once

#include "pelab/base/status.h"
#include "pelab/models/checkpoint.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pelab::detail {

/// Tensor `name`, of exactly `shape`, read as floats: ok, or a message naming the tensor and
/// what is wrong ("… has shape [a, b]; <model> needs [c, d]", with model e.g. "GPT-2 of this
/// config").
Status ReadShaped(Checkpoint& checkpoint, const std::string& name,
                  const std::vector<std::int64_t>& shape, const std::string& model,
                  std::vector<float>* values);

/// "[a, b, c]"
std::string ShapeText(const std::vector<std::int64_t>& dims);

} // namespace pelab::detail
