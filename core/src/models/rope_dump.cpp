#include "pelab/models/rope_check.h"

#include "base/format.h"
#include "pelab/models/checkpoint.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

namespace pelab {

using detail::concat;
using detail::shown_name;

// ---- Reading dumps ----

Status open_rope_dump(const std::string& path, bool bf16_bits, RopeDump* out) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        return Status(shown_name(path) + ": is a folder, not an .npy file");
    if (!std::filesystem::is_regular_file(path, error))
        return Status(shown_name(path) + (std::filesystem::exists(path, error)
                                              ? ": is not a regular file (a pipe or a device)"
                                              : ": no such file"));
    std::ifstream file(path, std::ios::binary);
    if (!file) return Status(shown_name(path) + ": cannot be opened for reading");
    file.seekg(0, std::ios::end);
    const auto size = static_cast<std::uint64_t>(file.tellg());
    file.seekg(0);
    std::string bytes(static_cast<std::size_t>(std::min<std::uint64_t>(size, 1 << 16)), '\0');
    file.read(&bytes[0], static_cast<std::streamsize>(bytes.size()));
    // NumPy has no bfloat16: dumps hold its bits as '<u2', read as halves of the same size.
    bool u2 = false;
    if (const std::size_t at = bytes.find("'<u2'"); at != std::string::npos && at < 256) {
        if (!bf16_bits)
            return Status(shown_name(path) +
                          ": its numbers are '<u2' (16-bit integers); if they are "
                          "bfloat16 bits, add --dtype bf16");
        bytes.replace(at, 5, "'<f2'");
        u2 = true;
    }
    TensorInfo info;
    if (Status problem = ParseNpyHeader(bytes, size, &info); !problem.ok())
        return Status(shown_name(path) + ": " + problem.message());
    if (bf16_bits && !u2)
        return Status(shown_name(path) +
                      ": --dtype bf16 reads '<u2' bfloat16 bits, but this file "
                      "holds " +
                      info.dtype + " numbers (leave --dtype out)");
    if (info.fortran_order && info.shape.size() > 1)
        return Status(shown_name(path) +
                      ": it is stored in Fortran order; save it with numpy.ascontiguousarray");
    RopeDump dump;
    dump.path = path;
    dump.shape.assign(info.shape.begin(), info.shape.end());
    dump.dtype = u2                             ? TableDtype::BF16
                 : info.type == TensorType::F16 ? TableDtype::F16
                 : info.type == TensorType::F32 ? TableDtype::F32
                                                : TableDtype::F64;
    dump.data_begin = info.begin;
    // [1, 1, n, d] as PyTorch shapes its caches: the leading dimensions of 1 dropped (a
    // [positions, 1] table stays one column wide, and is refused as such).
    std::vector<long long> kept = dump.shape;
    while (kept.size() > 1 && kept.front() == 1)
        kept.erase(kept.begin());
    if (std::find(kept.begin(), kept.end(), 0) != kept.end())
        return Status(shown_name(path) + ": it holds no numbers (shape " + concat(kept.size()) +
                      "-D with a dimension of 0)");
    if (kept.size() > 2)
        return Status(shown_name(path) + ": " + std::to_string(kept.size()) +
                      " dimensions larger than 1; a table is [positions, dims] (a batch of "
                      "several sequences: save one of them)");
    if (kept.empty()) kept.push_back(1);
    dump.one_dimensional = kept.size() == 1;
    dump.rows = kept.size() == 2 ? kept[0] : 1;
    const long long width = kept.back();
    if (width > 1 << 20)
        return Status(shown_name(path) + ": rows of " + std::to_string(width) +
                      " numbers; a RoPE table has one or two per pair of a head");
    dump.width = static_cast<int>(width);
    *out = std::move(dump);
    return Status();
}

Status read_rope_dump_rows(const RopeDump& dump, long long first, long long count,
                           std::vector<double>* out) {
    const std::size_t item = dump.dtype == TableDtype::F64   ? 8
                             : dump.dtype == TableDtype::F32 ? 4
                                                             : 2;
    const auto values = static_cast<std::size_t>(count) * static_cast<std::size_t>(dump.width);
    std::string bytes(values * item, '\0');
    std::ifstream file(dump.path, std::ios::binary);
    file.seekg(static_cast<std::streamoff>(dump.data_begin +
                                           static_cast<std::uint64_t>(first) * dump.width * item));
    if (!file.read(&bytes[0], static_cast<std::streamsize>(bytes.size())))
        return Status(shown_name(dump.path) + ": could not be read (it changed while being read?)");
    out->resize(values);
    const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t k = 0; k < values; ++k) {
        const std::uint64_t bits = detail::read_little(raw + k * item, static_cast<int>(item));
        double value = 0;
        if (dump.dtype == TableDtype::F64) {
            std::memcpy(&value, &bits, 8);
        } else if (dump.dtype == TableDtype::F32) {
            const auto word = static_cast<std::uint32_t>(bits);
            float single = 0;
            std::memcpy(&single, &word, 4);
            value = single;
        } else {
            const auto half = static_cast<std::uint16_t>(bits);
            value = dump.dtype == TableDtype::BF16 ? bf16_from_bits(half) : f16_from_bits(half);
        }
        (*out)[k] = value;
    }
    return Status();
}

const char* rope_cause_id(RopeCause cause) {
    switch (cause) {
    case RopeCause::None:
        return "none";
    case RopeCause::PartialRotary:
        return "partial_rotary";
    case RopeCause::PairingSwapped:
        return "pairing_swapped";
    case RopeCause::PositionsShifted:
        return "positions_off_by_one";
    case RopeCause::AttentionMissing:
        return "attention_factor_missing";
    case RopeCause::PositionsOffset:
        return "positions_offset";
    case RopeCause::AttentionWrong:
        return "attention_factor_wrong";
    case RopeCause::AttentionSquared:
        return "attention_factor_squared";
    case RopeCause::BaseDefaulted:
        return "base_defaulted";
    case RopeCause::DynamicFrozen:
        return "dynamic_frozen";
    case RopeCause::LongropeSide:
        return "longrope_other_factor";
    case RopeCause::ScalingMissing:
        return "scaling_not_applied";
    case RopeCause::OtherScaling:
        return "other_scaling";
    case RopeCause::LowPrecisionFreq:
        return "low_precision_frequencies";
    case RopeCause::LowPrecisionAngle:
        return "low_precision_angles";
    case RopeCause::Unknown:
        return "unknown";
    }
    return "unknown";
}

} // namespace pelab
