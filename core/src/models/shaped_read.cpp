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
    return checkpoint.ReadFloats(*info, values);
}

} // namespace pelab::detail
