// GGUF's header, metadata and tensor table (pelab/models/gguf.h), written from the format's
// specification (docs/gguf.md of the ggml repository).
#include "pelab/models/gguf.h"

#include "base/format.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <utility>

namespace pelab {

namespace {

using detail::shown_name;

// The header read through read_at in pieces of 1 MiB: a tokenizer's 400 000 strings cost a few
// hundred reads, not one each.
class Cursor {
public:
    Cursor(const GgufReadAt& read_at, std::uint64_t size) : read_at_(read_at), size_(size) {}

    std::uint64_t Offset() const { return offset_; }
    std::uint64_t Left() const { return size_ - offset_; }

    Status Bytes(std::size_t count, void* out) {
        auto* bytes = static_cast<unsigned char*>(out);
        while (count > 0) {
            if (offset_ >= size_)
                return "the file ends at byte " + std::to_string(size_) + " inside its header";
            if (offset_ < buffer_at_ || offset_ >= buffer_at_ + buffer_.size())
                if (Status error = Fill(); !error.ok()) return error;
            const std::size_t from = static_cast<std::size_t>(offset_ - buffer_at_);
            const std::size_t take = std::min(count, buffer_.size() - from);
            std::memcpy(bytes, buffer_.data() + from, take);
            bytes += take, count -= take, offset_ += take;
        }
        return {};
    }
    Status Skip(std::uint64_t count) {
        if (count > Left())
            return "the file ends at byte " + std::to_string(size_) + " inside its header";
        offset_ += count;
        return {};
    }
    template <typename T> Status Little(T* out) {
        unsigned char raw[sizeof(T)];
        if (Status error = Bytes(sizeof(T), raw); !error.ok()) return error;
        std::uint64_t value = detail::read_little(raw, static_cast<int>(sizeof(T)));
        std::memcpy(out, &value, sizeof(T)); // little-endian hosts only (CMakeLists.txt)
        return {};
    }

private:
    Status Fill() {
        constexpr std::uint64_t kPiece = 1u << 20;
        buffer_at_ = offset_;
        buffer_.resize(static_cast<std::size_t>(std::min(kPiece, size_ - offset_)));
        return read_at_(offset_, buffer_.size(), buffer_.data());
    }

    const GgufReadAt& read_at_;
    std::uint64_t size_, offset_ = 0, buffer_at_ = 0;
    std::vector<unsigned char> buffer_;
};

Status ReadString(Cursor& cursor, std::uint64_t limit, const char* what, std::string* out) {
    std::uint64_t length = 0;
    if (Status error = cursor.Little(&length); !error.ok()) return error;
    if (length > limit || length > cursor.Left())
        return std::string(what) + " of " + std::to_string(length) + " bytes " +
               (length > cursor.Left() ? "runs past the end of the file"
                                       : "is longer than the " + std::to_string(limit) + " read");
    out->resize(static_cast<std::size_t>(length));
    return cursor.Bytes(out->size(), out->data());
}

std::uint64_t ScalarBytes(GgufValueType type) {
    switch (type) {
    case GgufValueType::U8:
    case GgufValueType::I8:
    case GgufValueType::Bool:
        return 1;
    case GgufValueType::U16:
    case GgufValueType::I16:
        return 2;
    case GgufValueType::U32:
    case GgufValueType::I32:
    case GgufValueType::F32:
        return 4;
    case GgufValueType::U64:
    case GgufValueType::I64:
    case GgufValueType::F64:
        return 8;
    default:
        return 0;
    }
}

bool KnownType(std::uint32_t raw) {
    return raw <= 12;
}

Status ReadScalar(Cursor& cursor, GgufValueType type, GgufValue* out) {
    unsigned char raw[8] = {};
    const std::uint64_t size = ScalarBytes(type);
    if (Status error = cursor.Bytes(static_cast<std::size_t>(size), raw); !error.ok()) return error;
    const std::uint64_t bits = detail::read_little(raw, static_cast<int>(size));
    out->type = type;
    switch (type) {
    case GgufValueType::U8:
    case GgufValueType::U16:
    case GgufValueType::U32:
        out->integer = static_cast<std::int64_t>(bits);
        break;
    case GgufValueType::U64:
        out->unsigned_value = bits;
        out->integer = static_cast<std::int64_t>(
            std::min<std::uint64_t>(bits, std::numeric_limits<std::int64_t>::max()));
        out->number = static_cast<double>(bits);
        return {};
    case GgufValueType::I8:
        out->integer = static_cast<std::int64_t>(bits) - (bits >= 128 ? 256 : 0);
        break;
    case GgufValueType::I16:
        out->integer = static_cast<std::int16_t>(bits);
        break;
    case GgufValueType::I32:
        out->integer = static_cast<std::int32_t>(bits);
        break;
    case GgufValueType::I64:
        out->integer = static_cast<std::int64_t>(bits);
        break;
    case GgufValueType::Bool:
        if (bits > 1) return "a bool byte of " + std::to_string(bits) + " (0 or 1 expected)";
        out->integer = static_cast<std::int64_t>(bits);
        break;
    case GgufValueType::F32: {
        float value = 0;
        const auto narrow = static_cast<std::uint32_t>(bits);
        std::memcpy(&value, &narrow, 4);
        out->number = value;
        return {};
    }
    case GgufValueType::F64:
        std::memcpy(&out->number, &bits, 8);
        return {};
    default:
        return "not a scalar type";
    }
    out->number = static_cast<double>(out->integer);
    return {};
}

Status ReadValue(Cursor& cursor, GgufValueType type, int depth, GgufValue* out);

Status ReadArray(Cursor& cursor, int depth, GgufValue* out) {
    if (depth >= kMaxGgufArrayDepth)
        return "arrays nested deeper than " + std::to_string(kMaxGgufArrayDepth) + " levels";
    std::uint32_t raw = 0;
    std::uint64_t count = 0;
    if (Status error = cursor.Little(&raw); !error.ok()) return error;
    if (!KnownType(raw)) return "an array of value type " + std::to_string(raw) + " (0–12 exist)";
    if (Status error = cursor.Little(&count); !error.ok()) return error;
    const auto element = static_cast<GgufValueType>(raw);
    // Each element takes at least one byte (a string eight): the count cannot exceed what is left.
    const std::uint64_t least = element == GgufValueType::String  ? 8
                                : element == GgufValueType::Array ? 12
                                                                  : ScalarBytes(element);
    if (count > kMaxGgufArrayElements || count > cursor.Left() / std::max<std::uint64_t>(least, 1))
        return "an array of " + std::to_string(count) + " elements " +
               (count > kMaxGgufArrayElements
                    ? "(at most " + std::to_string(kMaxGgufArrayElements) + " are read)"
                    : "runs past the end of the file");
    out->type = GgufValueType::Array;
    out->element = element;
    out->count = count;
    if (element == GgufValueType::String) {
        out->kept = count <= kMaxGgufKeptStrings;
        std::string text;
        for (std::uint64_t k = 0; k < count; ++k) {
            if (Status error = ReadString(cursor, kMaxGgufStringBytes, "a string", &text);
                !error.ok())
                return "element " + std::to_string(k) + ": " + error.message();
            if (out->kept) out->strings.push_back(std::move(text));
        }
        return {};
    }
    if (element == GgufValueType::Array) {
        for (std::uint64_t k = 0; k < count; ++k) {
            GgufValue inner;
            if (Status error = ReadValue(cursor, element, depth + 1, &inner); !error.ok())
                return "element " + std::to_string(k) + ": " + error.message();
            out->numbers.push_back(static_cast<double>(inner.count));
        }
        return {};
    }
    out->kept = count <= kMaxGgufKeptNumbers;
    if (out->kept) out->numbers.reserve(static_cast<std::size_t>(count));
    for (std::uint64_t k = 0; k < count; ++k) {
        GgufValue item;
        if (Status error = ReadScalar(cursor, element, &item); !error.ok())
            return "element " + std::to_string(k) + ": " + error.message();
        if (out->kept) out->numbers.push_back(item.number);
    }
    return {};
}

Status ReadValue(Cursor& cursor, GgufValueType type, int depth, GgufValue* out) {
    if (type == GgufValueType::String) {
        out->type = type;
        return ReadString(cursor, kMaxGgufStringBytes, "a string", &out->text);
    }
    if (type == GgufValueType::Array) return ReadArray(cursor, depth, out);
    return ReadScalar(cursor, type, out);
}

Status ReadMetadata(Cursor& cursor, std::uint64_t count, GgufFile* out) {
    std::map<std::string, std::size_t> seen;
    for (std::uint64_t k = 0; k < count; ++k) {
        const std::string where = "metadata key " + std::to_string(k);
        std::string key;
        if (Status error = ReadString(cursor, kMaxGgufKeyBytes, "a key", &key); !error.ok())
            return where + ": " + error.message();
        if (key.empty()) return where + " is empty";
        std::uint32_t raw = 0;
        if (Status error = cursor.Little(&raw); !error.ok())
            return where + " (" + shown_name(key) + "): " + error.message();
        if (!KnownType(raw))
            return where + " (" + shown_name(key) + ") has value type " + std::to_string(raw) +
                   " (0–12 exist)";
        GgufValue value;
        if (Status error = ReadValue(cursor, static_cast<GgufValueType>(raw), 0, &value);
            !error.ok())
            return where + " (" + shown_name(key) + "): " + error.message();
        if (!seen.emplace(key, k).second)
            return where + " repeats the key " + shown_name(key) + " of key " +
                   std::to_string(seen[key]);
        out->metadata.emplace_back(std::move(key), std::move(value));
    }
    return {};
}

Status ReadTensorInfo(Cursor& cursor, std::uint64_t index, GgufTensor* out) {
    const std::string where = "tensor " + std::to_string(index);
    // The specification's limit (ggml's GGML_MAX_NAME holds 63 bytes and the NUL).
    if (Status error = ReadString(cursor, 64, "a name", &out->name); !error.ok())
        return where + ": " + error.message();
    const std::string named = where + " (" + shown_name(out->name) + ")";
    std::uint32_t dims = 0;
    if (Status error = cursor.Little(&dims); !error.ok()) return named + ": " + error.message();
    if (dims < 1 || dims > kMaxGgufDims)
        return named + " has " + std::to_string(dims) + " dimensions (1 to " +
               std::to_string(kMaxGgufDims) + ")";
    out->ne.resize(dims);
    std::uint64_t elements = 1;
    for (std::uint64_t& extent : out->ne) {
        if (Status error = cursor.Little(&extent); !error.ok())
            return named + ": " + error.message();
        if (extent == 0 || extent > (std::uint64_t{1} << 40) || elements > (1ull << 50) / extent)
            return named + " has an extent of " + std::to_string(extent) +
                   (extent == 0 ? " (an empty tensor)" : " (too large)");
        elements *= extent;
    }
    std::uint32_t type = 0;
    if (Status error = cursor.Little(&type); !error.ok()) return named + ": " + error.message();
    out->type_id = static_cast<int>(std::min<std::uint32_t>(type, 1u << 30));
    out->type = ggml_type_of(out->type_id);
    if (Status error = cursor.Little(&out->offset); !error.ok())
        return named + ": " + error.message();
    if (out->type != nullptr && out->ne[0] % out->type->block != 0)
        return named + " is " + out->type->name + " with rows of " + std::to_string(out->ne[0]) +
               " numbers, not a whole number of its blocks of " + std::to_string(out->type->block);
    return {};
}

// Each tensor's bytes: its type's block bytes × blocks, or for an unknown type up to the next
// tensor's data (or the file's end). Aligned, inside the file, not overlapping.
Status PlaceTensors(std::uint64_t file_size, GgufFile* out) {
    const std::uint64_t data_bytes = file_size - out->data_start;
    std::vector<std::size_t> order(out->tensors.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return out->tensors[a].offset < out->tensors[b].offset;
    });
    for (std::size_t k = 0; k < order.size(); ++k) {
        GgufTensor& tensor = out->tensors[order[k]];
        const std::string named = "tensor " + shown_name(tensor.name);
        if (tensor.offset % out->alignment != 0)
            return named + "'s data offset " + std::to_string(tensor.offset) +
                   " is not a multiple of the alignment " + std::to_string(out->alignment);
        if (tensor.offset > data_bytes)
            return named + "'s data starts at " + std::to_string(tensor.offset) +
                   ", past the data section's " + std::to_string(data_bytes) + " bytes";
        const std::uint64_t next =
            k + 1 < order.size() ? out->tensors[order[k + 1]].offset : data_bytes;
        std::uint64_t size = next - tensor.offset;
        if (tensor.type != nullptr) {
            size = tensor.Elements() / tensor.type->block * tensor.type->bytes;
            if (size > data_bytes - tensor.offset)
                return named + " (" + tensor.type->name + ", " + std::to_string(tensor.Elements()) +
                       " numbers) needs " + std::to_string(size) + " bytes from offset " +
                       std::to_string(tensor.offset) + "; the data section holds " +
                       std::to_string(data_bytes);
            if (tensor.offset + size > next)
                return named + "'s data (bytes " + std::to_string(tensor.offset) + " to " +
                       std::to_string(tensor.offset + size) + ") overlaps tensor " +
                       shown_name(out->tensors[order[k + 1]].name) + "'s, which starts at " +
                       std::to_string(next);
        }
        tensor.begin = out->data_start + tensor.offset;
        tensor.end = tensor.begin + size;
    }
    return {};
}

} // namespace

const char* gguf_value_type_name(GgufValueType type) {
    static const char* const kNames[] = {"u8",   "i8",     "u16",   "i16", "u32", "i32", "f32",
                                         "bool", "string", "array", "u64", "i64", "f64"};
    const auto index = static_cast<std::uint32_t>(type);
    return index < 13 ? kNames[index] : "?";
}

bool GgufValue::IsNumber() const {
    return type != GgufValueType::String && type != GgufValueType::Array;
}

bool GgufValue::IsNumberArray() const {
    return type == GgufValueType::Array && element != GgufValueType::String &&
           element != GgufValueType::Array && kept;
}

std::uint64_t GgufTensor::Elements() const {
    std::uint64_t elements = 1;
    for (std::uint64_t extent : ne)
        elements *= extent;
    return elements;
}

const GgufValue* GgufFile::Find(const std::string& key) const {
    for (const auto& [name, value] : metadata)
        if (name == key) return &value;
    return nullptr;
}

std::string GgufFile::Text(const std::string& key) const {
    const GgufValue* value = Find(key);
    return value && value->type == GgufValueType::String ? value->text : std::string();
}

Status ParseGguf(const GgufReadAt& read_at, std::uint64_t file_size, GgufFile* out) {
    Cursor cursor(read_at, file_size);
    unsigned char magic[4] = {};
    if (file_size < 24)
        return "shorter than a GGUF header (" + std::to_string(file_size) + " bytes; 24 at least)";
    if (Status error = cursor.Bytes(4, magic); !error.ok()) return error;
    if (std::memcmp(magic, "GGUF", 4) != 0) return "not a GGUF file (it does not start with GGUF)";
    GgufFile file;
    if (Status error = cursor.Little(&file.version); !error.ok()) return error;
    const std::uint32_t swapped = __builtin_bswap32(file.version);
    if (file.version > 0xFFFF && swapped >= 1 && swapped <= 3)
        return "a big-endian GGUF file (version " + std::to_string(swapped) +
               " written big-endian, for s390x or POWER); PE Lab reads the little-endian ones "
               "llama.cpp writes on every common machine";
    if (file.version == 1)
        return "GGUF version 1 (2023's first draft, with 32-bit counts): convert it again with a "
               "current llama.cpp; versions 2 and 3 are read";
    if (file.version != 2 && file.version != 3)
        return "GGUF version " + std::to_string(file.version) + " (2 and 3 are read)";
    std::uint64_t tensor_count = 0, key_count = 0;
    if (Status error = cursor.Little(&tensor_count); !error.ok()) return error;
    if (Status error = cursor.Little(&key_count); !error.ok()) return error;
    if (key_count > kMaxGgufKeys)
        return std::to_string(key_count) + " metadata keys (at most " +
               std::to_string(kMaxGgufKeys) + " are read)";
    // A tensor info takes at least 8 + 4 + 8 + 4 + 8 bytes.
    if (tensor_count > 1000000 || tensor_count > cursor.Left() / 32)
        return std::to_string(tensor_count) + " tensors " +
               (tensor_count > 1000000
                    ? "(at most 1000000 are read)"
                    : "cannot fit in the file's " + std::to_string(file_size) + " bytes");
    if (Status error = ReadMetadata(cursor, key_count, &file); !error.ok()) return error;
    if (const GgufValue* alignment = file.Find("general.alignment")) {
        const std::int64_t bytes = alignment->integer;
        if (alignment->type != GgufValueType::U32 || bytes < 1 || (bytes & (bytes - 1)) != 0 ||
            bytes > (1 << 20))
            return "general.alignment must be a u32 power of two (got " +
                   (alignment->IsNumber() ? std::to_string(alignment->integer)
                                          : std::string(gguf_value_type_name(alignment->type))) +
                   ")";
        file.alignment = static_cast<std::uint64_t>(alignment->integer);
    }
    file.tensors.resize(static_cast<std::size_t>(tensor_count));
    std::map<std::string, std::uint64_t> names;
    for (std::uint64_t k = 0; k < tensor_count; ++k) {
        if (Status error = ReadTensorInfo(cursor, k, &file.tensors[k]); !error.ok()) return error;
        if (!names.emplace(file.tensors[k].name, k).second)
            return "tensor " + std::to_string(k) + " repeats the name " +
                   shown_name(file.tensors[k].name);
    }
    file.header_bytes = cursor.Offset();
    file.data_start = (cursor.Offset() + file.alignment - 1) / file.alignment * file.alignment;
    if (tensor_count > 0 && file.data_start > file_size)
        return "the file ends at byte " + std::to_string(file_size) +
               ", before its data section (byte " + std::to_string(file.data_start) + ")";
    file.data_start = std::min(file.data_start, file_size);
    if (Status error = PlaceTensors(file_size, &file); !error.ok()) return error;
    *out = std::move(file);
    return {};
}

} // namespace pelab
