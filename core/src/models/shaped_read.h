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

/// The same for a product's weight that may be fine-grained FP8 (DeepSeek V3, Qwen3-FP8):
/// an 8-bit tensor is widened as q · s, s the scale of its block (`<name>_scale_inv`, one per
/// block[0] × block[1] block: quantization_config.weight_block_size), as FineGrainedFP8
/// dequantizes it; other types as ReadShaped. *scaled tells which it was (may be null).
Status ReadShapedWeight(Checkpoint& checkpoint, const std::string& name,
                        const std::vector<std::int64_t>& shape, const std::string& model,
                        const std::vector<long long>& block, std::vector<float>* values,
                        bool* scaled = nullptr);

/// "[a, b, c]"
std::string ShapeText(const std::vector<std::int64_t>& dims);

} // namespace pelab::detail
