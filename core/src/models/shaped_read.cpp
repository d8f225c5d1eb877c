#include "models/shaped_read.h"

namespace pelab::detail {

std::string ShapeText(const std::vector<std::int64_t>& dims) {
    std::string joined;
    for (std::int64_t dim : dims)
        joined += (joined.empty() ? "" : ", ") + std::to_string(dim);
    return "[" + joined + "]";
}

Status ReadShaped(Checkpoint& checkpoint, const std::string& name,
                  const std::vector<std::int64_t>& shape, const std::string& model,
                  std::vector<float>* values) {
    Status error;
    const TensorInfo* info = checkpoint.Find(name, &error);
    if (info == nullptr)
        return error.ok() ? Status("the checkpoint has no tensor \"" + name + "\"") : error;
    if (info->shape != shape)
        return "tensor \"" + name + "\" has shape " + ShapeText(info->shape) + "; " + model +
               " needs " + ShapeText(shape);
    if (!info->Readable())
        return "tensor \"" + name + "\" holds " + info->dtype + " numbers, not floating point ones";
    // 8-bit floats are only half of a number: their scales are read by ReadShapedWeight.
    if (info->type == TensorType::F8E4M3 || info->type == TensorType::F8E5M2)
        return "tensor \"" + name + "\" holds " + info->dtype + " numbers; " + model +
               " reads 8-bit floats only as a projection's weight with its block scales";
    return checkpoint.ReadFloatsReusing(*info, values); // one buffer for a whole load
}

Status ReadShapedWeight(Checkpoint& checkpoint, const std::string& name,
                        const std::vector<std::int64_t>& shape, const std::string& model,
                        const std::vector<long long>& block, std::vector<float>* values,
                        bool* scaled) {
    if (scaled != nullptr) *scaled = false;
    Status error;
    const TensorInfo* info = checkpoint.Find(name, &error);
    if (info == nullptr || (info->type != TensorType::F8E4M3 && info->type != TensorType::F8E5M2))
        return ReadShaped(checkpoint, name, shape, model, values);
    if (info->shape != shape || shape.size() != 2)
        return "tensor \"" + name + "\" has shape " + ShapeText(info->shape) + "; " + model +
               " needs " + ShapeText(shape);
    const std::string scale_name = name + "_scale_inv";
    const TensorInfo* scale = checkpoint.Find(scale_name, &error);
    if (!error.ok()) return error;
    if (scale == nullptr)
        return "tensor \"" + name + "\" holds " + info->dtype +
               " numbers without their block scales (" + scale_name + ")";
    if (block.size() != 2 || block[0] < 1 || block[1] < 1)
        return "tensor \"" + name + "\" is " + info->dtype +
               " with block scales, and config.json gives no quantization_config."
               "weight_block_size (DeepSeek V3 and Qwen3-FP8 give [128, 128])";
    const std::int64_t rows = shape[0], cols = shape[1];
    const std::int64_t scale_rows = (rows + block[0] - 1) / block[0],
                       scale_cols = (cols + block[1] - 1) / block[1];
    if (scale->shape != std::vector<std::int64_t>{scale_rows, scale_cols})
        return "tensor \"" + scale_name + "\" has shape " + ShapeText(scale->shape) +
               "; one scale per " + std::to_string(block[0]) + " × " + std::to_string(block[1]) +
               " block of " + name + " makes " + ShapeText({scale_rows, scale_cols});
    std::vector<float> scales;
    if (Status bad = checkpoint.ReadFloats(*scale, &scales); !bad.ok()) return bad;
    if (Status bad = checkpoint.ReadFloatsReusing(*info, values); !bad.ok()) return bad;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            (*values)[static_cast<std::size_t>(r * cols + c)] *=
                scales[static_cast<std::size_t>((r / block[0]) * scale_cols + c / block[1])];
    if (scaled != nullptr) *scaled = true;
    return {};
}

} // namespace pelab::detail
