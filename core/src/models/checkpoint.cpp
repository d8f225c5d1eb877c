#include "pelab/models/checkpoint.h"

#include "base/format.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>
#include <utility>

namespace pelab {

namespace fs = std::filesystem;

namespace {

using detail::shown_name;

std::string Size(std::uint64_t bytes) {
    if (bytes % (1u << 20) == 0 && bytes >= (1u << 20)) return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

// Bytes per element of every dtype the safetensors format names; 0 for an unknown name.
std::uint64_t DtypeBytes(const std::string& dtype, TensorType* type) {
    *type = TensorType::Other;
    if (dtype == "F32") return *type = TensorType::F32, 4;
    if (dtype == "F16") return *type = TensorType::F16, 2;
    if (dtype == "BF16") return *type = TensorType::BF16, 2;
    if (dtype == "F64") return *type = TensorType::F64, 8;
    if (dtype == "I64" || dtype == "U64") return 8;
    if (dtype == "I32" || dtype == "U32") return 4;
    if (dtype == "I16" || dtype == "U16") return 2;
    if (dtype == "I8" || dtype == "U8" || dtype == "BOOL" || dtype == "F8_E4M3" ||
        dtype == "F8_E5M2" || dtype == "F8_E8M0")
        return 1;
    return 0;
}

std::uint64_t ReadLittle(const unsigned char* bytes, int count) {
    std::uint64_t value = 0;
    for (int i = count - 1; i >= 0; --i)
        value = (value << 8) | bytes[i];
    return value;
}

// The safetensors header, read as SAX events so that a 16 MiB header builds the tensor table and
// nothing more. Depth 1: a tensor's name (or "__metadata__"); depth 2: its fields; depth 3: the
// numbers of shape and data_offsets.
class HeaderReader : public nlohmann::json_sax<nlohmann::json> {
public:
    HeaderReader(std::uint64_t data_start, std::uint64_t data_bytes)
        : data_start_(data_start), data_bytes_(data_bytes) {}

    std::string error;
    std::vector<TensorInfo> tensors;

    bool null() override { return Value("null"); }
    bool boolean(bool /*value*/) override { return Value("true or false"); }
    bool number_integer(number_integer_t /*value*/) override { return Value("a negative number"); }
    bool number_unsigned(number_unsigned_t value) override {
        if (depth_ == 3 && (field_ == "shape" || field_ == "data_offsets")) {
            numbers_.push_back(value);
            if (numbers_.size() > static_cast<std::size_t>(kMaxTensorRank) + 2)
                return Fail("tensor " + shown_name(name_) + ": field \"" + field_ +
                            "\" has more than " + std::to_string(kMaxTensorRank) + " numbers");
            return true;
        }
        return Value("a number");
    }
    bool number_float(number_float_t /*value*/, const string_t& /*text*/) override {
        return Value("a number with a fraction");
    }
    bool string(string_t& value) override {
        if (depth_ == 2 && in_metadata_) return true;
        if (depth_ == 2 && field_ == "dtype") {
            dtype_ = value;
            seen_dtype_ = true;
            return true;
        }
        return Value("text");
    }
    bool binary(binary_t& /*value*/) override { return Value("binary data"); }
    bool start_object(std::size_t /*count*/) override {
        ++depth_;
        if (depth_ == 1) return true;
        if (depth_ == 2) {
            in_metadata_ = name_ == "__metadata__";
            seen_dtype_ = seen_shape_ = seen_offsets_ = false;
            dtype_.clear();
            return true;
        }
        return Fail(Where() + "an object nested deeper than a tensor's fields");
    }
    bool end_object() override {
        if (depth_ == 2 && !in_metadata_ && !Finish()) return false;
        if (depth_ == 2) in_metadata_ = false;
        --depth_;
        return true;
    }
    bool key(string_t& value) override {
        if (depth_ == 1) {
            if (value.size() > kMaxTensorNameBytes)
                return Fail("a tensor name longer than " + std::to_string(kMaxTensorNameBytes) +
                            " bytes");
            if (!names_.insert(value).second)
                return Fail("tensor " + shown_name(value) + " appears twice");
            if (names_.size() > kMaxTensors + 1)
                return Fail("more than " + std::to_string(kMaxTensors) + " tensors");
            name_ = value;
            return true;
        }
        if (depth_ == 2 && in_metadata_) return true;
        if (value != "dtype" && value != "shape" && value != "data_offsets")
            return Fail("tensor " + shown_name(name_) + ": unknown field " + shown_name(value) +
                        " (a tensor has dtype, shape and data_offsets)");
        // A repeated field would silently win over the first (serde refuses it too).
        if ((value == "dtype" && seen_dtype_) || (value == "shape" && seen_shape_) ||
            (value == "data_offsets" && seen_offsets_))
            return Fail("tensor " + shown_name(name_) + ": field \"" + value + "\" appears twice");
        field_ = value;
        return true;
    }
    bool start_array(std::size_t /*count*/) override {
        ++depth_;
        if (depth_ == 3 && !in_metadata_ && (field_ == "shape" || field_ == "data_offsets")) {
            numbers_.clear();
            return true;
        }
        if (depth_ == 1) return Fail("the header must be a JSON object (got a list)");
        if (depth_ == 2)
            return Fail("tensor " + shown_name(name_) +
                        " must be an object with dtype, shape and "
                        "data_offsets (got a list)");
        return Fail(Where() + "a list where none belongs");
    }
    bool end_array() override {
        if (field_ == "shape") {
            if (numbers_.size() > static_cast<std::size_t>(kMaxTensorRank))
                return Fail("tensor " + shown_name(name_) + ": more than " +
                            std::to_string(kMaxTensorRank) + " dimensions");
            shape_ = numbers_;
            seen_shape_ = true;
        } else {
            if (numbers_.size() != 2)
                return Fail("tensor " + shown_name(name_) + ": data_offsets must be [begin, end]");
            offsets_ = numbers_;
            seen_offsets_ = true;
        }
        --depth_;
        return true;
    }
    bool parse_error(std::size_t position, const std::string& /*token*/,
                     const nlohmann::detail::exception& /*exception*/) override {
        if (error.empty())
            error = "the header is not valid JSON (at byte " + std::to_string(position) +
                    " of the header)";
        return false;
    }

private:
    bool Fail(std::string message) {
        if (error.empty()) error = std::move(message);
        return false;
    }
    std::string Where() const { return depth_ >= 2 ? "tensor " + shown_name(name_) + ": " : ""; }
    bool Value(const char* what) {
        if (depth_ == 0)
            return Fail("the header must be a JSON object (got " + std::string(what) + ")");
        if (depth_ == 2 && in_metadata_)
            return Fail("__metadata__ must map names to texts (got " + std::string(what) + ")");
        if (depth_ == 1)
            return Fail("tensor " + shown_name(name_) +
                        " must be an object with dtype, shape and "
                        "data_offsets (got " +
                        what + ")");
        return Fail("tensor " + shown_name(name_) + ": field \"" + field_ + "\" cannot hold " +
                    what);
    }
    bool Finish() {
        if (!seen_dtype_ || !seen_shape_ || !seen_offsets_)
            return Fail("tensor " + shown_name(name_) + " lacks " +
                        (!seen_dtype_   ? "dtype"
                         : !seen_shape_ ? "shape"
                                        : "data_offsets"));
        TensorInfo tensor;
        tensor.name = name_;
        tensor.dtype = dtype_;
        const std::uint64_t bytes = DtypeBytes(dtype_, &tensor.type);
        if (bytes == 0)
            return Fail("tensor " + shown_name(name_) + ": unknown dtype " + shown_name(dtype_));
        std::uint64_t elements = 1;
        for (std::uint64_t extent : shape_) {
            if (extent != 0 && elements > (std::numeric_limits<std::uint64_t>::max() / 16) / extent)
                return Fail("tensor " + shown_name(name_) +
                            ": its shape holds more elements than "
                            "any file");
            elements *= extent;
            tensor.shape.push_back(static_cast<std::int64_t>(extent));
        }
        const std::uint64_t begin = offsets_[0], end = offsets_[1];
        if (begin > end || end > data_bytes_)
            return Fail("tensor " + shown_name(name_) + ": data_offsets [" + std::to_string(begin) +
                        ", " + std::to_string(end) + "] are not within the " +
                        std::to_string(data_bytes_) + " bytes of data after the header");
        if (end - begin != elements * bytes)
            return Fail("tensor " + shown_name(name_) + ": its shape and dtype need " +
                        std::to_string(elements * bytes) + " bytes, its data_offsets span " +
                        std::to_string(end - begin));
        tensor.begin = data_start_ + begin;
        tensor.end = data_start_ + end;
        tensors.push_back(std::move(tensor));
        return true;
    }

    std::uint64_t data_start_, data_bytes_;
    int depth_ = 0;
    bool in_metadata_ = false;
    std::string name_, field_, dtype_;
    bool seen_dtype_ = false, seen_shape_ = false, seen_offsets_ = false;
    std::vector<std::uint64_t> numbers_, shape_, offsets_;
    std::set<std::string> names_;
};

// The index of a sharded checkpoint: {"metadata": {...}, "weight_map": {name: file}}.
class IndexReader : public nlohmann::json_sax<nlohmann::json> {
public:
    std::string error;
    std::vector<std::pair<std::string, std::string>> entries; ///< name, shard file

    bool null() override { return Value(); }
    bool boolean(bool /*value*/) override { return Value(); }
    bool number_integer(number_integer_t /*value*/) override { return Value(); }
    bool number_unsigned(number_unsigned_t /*value*/) override { return Value(); }
    bool number_float(number_float_t /*value*/, const string_t& /*text*/) override {
        return Value();
    }
    bool string(string_t& value) override {
        if (depth_ == 2 && in_map_) {
            entries.emplace_back(name_, value);
            if (entries.size() > kMaxTensors)
                return Fail("more than " + std::to_string(kMaxTensors) + " tensors");
            return true;
        }
        return Value();
    }
    bool binary(binary_t& /*value*/) override { return Value(); }
    bool start_object(std::size_t /*count*/) override {
        if (++depth_ > 8) return Fail("nested deeper than 8 levels");
        if (depth_ == 2) in_map_ = top_key_ == "weight_map", seen_map_ = seen_map_ || in_map_;
        if (depth_ > 2 && in_map_) return Fail("weight_map must map names to file names");
        return true;
    }
    bool end_object() override {
        if (depth_ == 2) in_map_ = false;
        --depth_;
        return true;
    }
    bool key(string_t& value) override {
        if (depth_ == 1) {
            if (value == "weight_map" && seen_map_) return Fail("weight_map appears twice");
            top_key_ = value;
        }
        if (depth_ == 2 && in_map_) {
            if (value.size() > kMaxTensorNameBytes)
                return Fail("a tensor name longer than " + std::to_string(kMaxTensorNameBytes) +
                            " bytes");
            if (!names_.insert(value).second)
                return Fail("tensor " + shown_name(value) + " appears twice in weight_map");
            name_ = value;
        }
        return true;
    }
    bool start_array(std::size_t /*count*/) override {
        if (++depth_ > 8) return Fail("nested deeper than 8 levels");
        return Value();
    }
    bool end_array() override {
        --depth_;
        return true;
    }
    bool parse_error(std::size_t position, const std::string& /*token*/,
                     const nlohmann::detail::exception& /*exception*/) override {
        return Fail("not valid JSON (at byte " + std::to_string(position) + ")");
    }
    bool seen_map() const { return seen_map_; }

private:
    bool Fail(std::string message) {
        if (error.empty()) error = std::move(message);
        return false;
    }
    bool Value() {
        if (depth_ == 0) return Fail("must be a JSON object with weight_map");
        if (in_map_) return Fail("weight_map must map names to file names");
        if (depth_ == 1 && top_key_ == "weight_map") return Fail("weight_map must be an object");
        return true; // metadata and other fields: ignored
    }

    int depth_ = 0;
    bool in_map_ = false, seen_map_ = false;
    std::string top_key_, name_;
    std::set<std::string> names_;
};

} // namespace

std::int64_t TensorInfo::Elements() const {
    std::int64_t elements = 1;
    for (std::int64_t extent : shape)
        elements *= extent;
    return elements;
}

float HalfToFloat(std::uint16_t bits) {
    const std::uint32_t sign = (bits >> 15) & 1u;
    const std::uint32_t exponent = (bits >> 10) & 31u;
    const std::uint32_t mantissa = bits & 1023u;
    float magnitude = 0;
    if (exponent == 0)
        magnitude = std::ldexp(static_cast<float>(mantissa), -24); // subnormal: m · 2^−24
    else if (exponent == 31)
        magnitude = mantissa == 0 ? std::numeric_limits<float>::infinity()
                                  : std::numeric_limits<float>::quiet_NaN();
    else
        magnitude =
            std::ldexp(static_cast<float>(mantissa | 1024u), static_cast<int>(exponent) - 25);
    return sign ? -magnitude : magnitude;
}

float BfloatToFloat(std::uint16_t bits) {
    const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
    float value = 0;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

// ---- ByteFile ----

ByteFile::~ByteFile() {
    if (descriptor_ >= 0) close(descriptor_);
}

std::string ByteFile::Open(const std::string& path) {
    path_ = path;
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
    descriptor_ = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (descriptor_ < 0) return "cannot open " + shown_name(path) + ": " + std::strerror(errno);
    struct stat status {};
    if (fstat(descriptor_, &status) != 0)
        return "cannot read " + shown_name(path) + ": " + std::strerror(errno);
    if (!S_ISREG(status.st_mode))
        return shown_name(path) + " is not a regular file (a folder, a device or a pipe)";
    size_ = static_cast<std::uint64_t>(status.st_size);
    return {};
}

std::string ByteFile::Read(std::uint64_t offset, std::size_t count, void* out) const {
    if (offset > size_ || count > size_ - offset)
        return shown_name(path_) + " ends at byte " + std::to_string(size_) + ", before byte " +
               std::to_string(offset + count);
    if (count == 0) return {};
    auto* bytes = static_cast<unsigned char*>(out);
    while (count > 0) {
        const ssize_t got = pread(descriptor_, bytes, count, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0)
            return "cannot read " + shown_name(path_) + ": " +
                   (got < 0 ? std::strerror(errno)
                            : "the file became shorter while it was read (at byte " +
                                  std::to_string(offset) + " of the " + std::to_string(size_) +
                                  " it had when opened; is it still being written?)");
        bytes += got, count -= static_cast<std::size_t>(got),
            offset += static_cast<std::uint64_t>(got);
    }
    return {};
}

// ---- parsing ----

std::string ParseSafetensorsHeader(const std::string& header, std::uint64_t data_start,
                                   std::uint64_t data_bytes, std::vector<TensorInfo>* out) {
    HeaderReader reader(data_start, data_bytes);
    const bool parsed = nlohmann::json::sax_parse(header, &reader);
    if (!parsed || !reader.error.empty())
        return reader.error.empty() ? "the header is not valid JSON" : reader.error;
    // No two tensors may share bytes (empty tensors hold none).
    std::vector<const TensorInfo*> by_offset;
    for (const TensorInfo& tensor : reader.tensors)
        if (tensor.end > tensor.begin) by_offset.push_back(&tensor);
    std::sort(by_offset.begin(), by_offset.end(),
              [](const TensorInfo* a, const TensorInfo* b) { return a->begin < b->begin; });
    for (std::size_t i = 1; i < by_offset.size(); ++i)
        if (by_offset[i]->begin < by_offset[i - 1]->end)
            return "tensors " + shown_name(by_offset[i - 1]->name) + " and " +
                   shown_name(by_offset[i]->name) + " overlap in the file";
    for (TensorInfo& tensor : reader.tensors)
        out->push_back(std::move(tensor));
    return {};
}

namespace {

// The Python dict literal of an .npy header: {'descr': '<f4', 'fortran_order': False,
// 'shape': (3, 4), }. Only these forms (NumPy's own) are read.
class NpyDict {
public:
    explicit NpyDict(const std::string& text) : text_(text) {}

    std::string Parse(std::string* descr, bool* fortran, std::vector<std::int64_t>* shape) {
        bool seen_descr = false, seen_order = false, seen_shape = false;
        Skip();
        if (!Take('{')) return "its header is not a Python dict";
        for (;;) {
            Skip();
            if (Take('}')) break;
            std::string key;
            if (!Quoted(&key)) return "its header's keys must be quoted";
            Skip();
            if (!Take(':')) return "its header lacks ':' after " + shown_name(key);
            Skip();
            if (key == "descr") {
                if (!Quoted(descr)) return "its header's 'descr' must be quoted text";
                seen_descr = true;
            } else if (key == "fortran_order") {
                if (Word("True"))
                    *fortran = true;
                else if (Word("False"))
                    *fortran = false;
                else
                    return "its header's 'fortran_order' must be True or False";
                seen_order = true;
            } else if (key == "shape") {
                if (!Take('(')) return "its header's 'shape' must be a tuple";
                for (;;) {
                    Skip();
                    if (Take(')')) break;
                    std::uint64_t extent = 0;
                    int digits = 0;
                    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9' &&
                           digits < 15) {
                        extent = extent * 10 + static_cast<std::uint64_t>(text_[at_++] - '0');
                        ++digits;
                    }
                    if (digits == 0 ||
                        (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9'))
                        return "its header's 'shape' must hold whole numbers below 10^15";
                    shape->push_back(static_cast<std::int64_t>(extent));
                    if (shape->size() > static_cast<std::size_t>(kMaxTensorRank))
                        return "it has more than " + std::to_string(kMaxTensorRank) + " dimensions";
                    Skip();
                    if (Take(')')) break;
                    if (!Take(',')) return "its header's 'shape' is not a tuple of numbers";
                }
                seen_shape = true;
            } else {
                return "its header has an unknown key " + shown_name(key);
            }
            Skip();
            if (Take('}')) break;
            if (!Take(',')) return "its header's entries must be separated by commas";
        }
        Skip();
        if (at_ != text_.size()) return "its header has text after the dict";
        if (!seen_descr || !seen_order || !seen_shape)
            return "its header lacks 'descr', 'fortran_order' or 'shape'";
        return {};
    }

private:
    void Skip() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' ||
                                      text_[at_] == '\t' || text_[at_] == '\r'))
            ++at_;
    }
    bool Take(char c) {
        if (at_ < text_.size() && text_[at_] == c) return ++at_, true;
        return false;
    }
    bool Word(const char* word) {
        const std::size_t length = std::strlen(word);
        if (text_.compare(at_, length, word) != 0) return false;
        at_ += length;
        return true;
    }
    bool Quoted(std::string* out) {
        if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) return false;
        const char quote = text_[at_++];
        const std::size_t end = text_.find(quote, at_);
        if (end == std::string::npos || end - at_ > 64) return false;
        *out = text_.substr(at_, end - at_);
        at_ = end + 1;
        return true;
    }

    const std::string& text_;
    std::size_t at_ = 0;
};

} // namespace

std::string ParseNpyHeader(const std::string& bytes, std::uint64_t file_size, TensorInfo* out) {
    static constexpr char kMagic[] = "\x93NUMPY";
    if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0)
        return "not a NumPy .npy file (it does not start with \\x93NUMPY)";
    const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
    const int major = raw[6];
    if (major < 1 || major > 3)
        return "a .npy file of version " + std::to_string(major) + " (versions 1 to 3 are read)";
    const int length_bytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + static_cast<std::size_t>(length_bytes)) return "its header is cut short";
    const std::uint64_t header_length = ReadLittle(raw + 8, length_bytes);
    if (header_length > kMaxNpyHeaderBytes)
        return "its header is longer than " + Size(kMaxNpyHeaderBytes);
    const std::uint64_t data_start = 8 + static_cast<std::uint64_t>(length_bytes) + header_length;
    if (bytes.size() < data_start || file_size < data_start) return "its header is cut short";
    std::string descr;
    bool fortran = false;
    std::vector<std::int64_t> shape;
    const std::string header = bytes.substr(8 + static_cast<std::size_t>(length_bytes),
                                            static_cast<std::size_t>(header_length));
    if (std::string error = NpyDict(header).Parse(&descr, &fortran, &shape); !error.empty())
        return error;
    TensorInfo tensor;
    std::uint64_t item = 0;
    if (descr == "<f2" || descr == "=f2")
        tensor.type = TensorType::F16, tensor.dtype = "F16", item = 2;
    else if (descr == "<f4" || descr == "=f4")
        tensor.type = TensorType::F32, tensor.dtype = "F32", item = 4;
    else if (descr == "<f8" || descr == "=f8")
        tensor.type = TensorType::F64, tensor.dtype = "F64", item = 8;
    else if (descr == ">f2" || descr == ">f4" || descr == ">f8")
        return "its numbers are big-endian (" + shown_name(descr) +
               "): save it with "
               "array.astype('<f4')";
    else
        return "its numbers are " + shown_name(descr) +
               ", not float16, float32 or float64 ('<f2', "
               "'<f4', '<f8')";
    if (fortran && shape.size() > 2)
        return "it is a Fortran-order array of " + std::to_string(shape.size()) +
               " dimensions: save it with numpy.ascontiguousarray";
    std::uint64_t elements = 1;
    for (std::int64_t extent : shape) {
        const auto e = static_cast<std::uint64_t>(extent);
        if (e != 0 && elements > (std::numeric_limits<std::uint64_t>::max() / 16) / e)
            return "its shape holds more elements than any file";
        elements *= e;
    }
    if (file_size - data_start != elements * item)
        return "its shape and type need " + std::to_string(elements * item) +
               " bytes of data, the file holds " + std::to_string(file_size - data_start);
    tensor.shape = shape;
    tensor.fortran_order = fortran;
    tensor.begin = data_start;
    tensor.end = file_size;
    *out = std::move(tensor);
    return {};
}

// ---- Checkpoint ----

struct Checkpoint::Shard {
    std::string path;
    bool loaded = false;
    std::string error; ///< why it could not be loaded (kept: asked again, the same answer)
    ByteFile file;
    std::map<std::string, TensorInfo> tensors;
};

Checkpoint::Checkpoint() = default;
Checkpoint::~Checkpoint() = default;
Checkpoint::Checkpoint(Checkpoint&&) noexcept = default;
Checkpoint& Checkpoint::operator=(Checkpoint&&) noexcept = default;

std::string Checkpoint::FormatName() const {
    if (format_ == "index") return "safetensors (" + std::to_string(shards_.size()) + " shards)";
    return format_;
}

bool Checkpoint::Has(const std::string& name) const {
    return shard_of_.count(name) > 0;
}

std::size_t Checkpoint::FilesOpened() const {
    std::size_t opened = 0;
    for (const auto& shard : shards_)
        opened += shard->loaded ? 1 : 0;
    return opened;
}

std::vector<std::string> Checkpoint::FilePaths() const {
    std::vector<std::string> paths;
    if (format_ == "index") paths.push_back(path_);
    for (const auto& shard : shards_)
        paths.push_back(shard->path);
    return paths;
}

std::string Checkpoint::Open(const std::string& path) {
    Checkpoint fresh;
    std::string error;
    std::error_code status;
    std::string target = path;
    if (fs::is_directory(path, status)) {
        const fs::path single = fs::path(path) / "model.safetensors";
        const fs::path index = fs::path(path) / "model.safetensors.index.json";
        if (fs::exists(single, status))
            target = single.string();
        else if (fs::exists(index, status))
            target = index.string();
        else
            return "the folder " + shown_name(path) +
                   " holds neither model.safetensors nor "
                   "model.safetensors.index.json";
    }
    fresh.path_ = target;
    // What the file holds decides, not its name, except for the index (JSON text).
    ByteFile probe;
    if (error = probe.Open(target); !error.empty()) return error;
    char magic[6] = {};
    const bool npy = probe.Size() >= 6 && probe.Read(0, 6, magic).empty() &&
                     std::memcmp(magic, "\x93NUMPY", 6) == 0;
    const bool json = target.size() >= 5 && target.compare(target.size() - 5, 5, ".json") == 0;
    // Named .npy but not one: said as such, not read as safetensors ("its header claims …").
    if (!npy && target.size() >= 4 && target.compare(target.size() - 4, 4, ".npy") == 0)
        return shown_name(target) +
               (probe.Size() == 0 ? " is empty (a .npy file starts with \\x93NUMPY and a header)"
                                  : " is not a NumPy .npy file: it does not start with \\x93NUMPY");
    if (npy)
        error = fresh.OpenNpy(target);
    else if (json)
        error = fresh.OpenIndex(target);
    else
        error = fresh.OpenSafetensors(target);
    if (!error.empty()) return error;
    *this = std::move(fresh);
    return {};
}

std::string Checkpoint::LoadShard(std::size_t index) {
    Shard& shard = *shards_[index];
    if (shard.loaded || !shard.error.empty()) return shard.error;
    std::string& error = shard.error;
    const std::string where = shown_name(shard.path);
    if (error = shard.file.Open(shard.path); !error.empty()) return error;
    unsigned char length_bytes[8] = {};
    if (shard.file.Size() < 8)
        return error = where + " is not a safetensors file (shorter than its 8 length bytes)";
    if (error = shard.file.Read(0, 8, length_bytes); !error.empty()) return error;
    const std::uint64_t header_length = ReadLittle(length_bytes, 8);
    if (header_length == 0) return error = where + ": its header is empty (length 0)";
    if (header_length > kMaxSafetensorsHeaderBytes)
        return error = where + ": its header claims " + std::to_string(header_length) +
                       " bytes, more than the " + Size(kMaxSafetensorsHeaderBytes) +
                       " read (is it a safetensors file?)";
    if (header_length > shard.file.Size() - 8)
        return error = where + ": its header claims " + std::to_string(header_length) +
                       " bytes, the file holds " + std::to_string(shard.file.Size() - 8) +
                       " after the length";
    std::string header(static_cast<std::size_t>(header_length), '\0');
    if (error = shard.file.Read(8, header.size(), header.data()); !error.empty()) return error;
    std::vector<TensorInfo> tensors;
    const std::uint64_t data_start = 8 + header_length;
    if (std::string problem =
            ParseSafetensorsHeader(header, data_start, shard.file.Size() - data_start, &tensors);
        !problem.empty())
        return error = where + ": " + problem;
    for (TensorInfo& tensor : tensors) {
        tensor.file = static_cast<int>(index);
        std::string name = tensor.name;
        shard.tensors.emplace(std::move(name), std::move(tensor));
    }
    // Every name the index places in this shard must be there.
    for (const auto& [name, shard_index] : shard_of_)
        if (shard_index == index && shard.tensors.count(name) == 0)
            return error = "the index places tensor " + shown_name(name) + " in " + where +
                           ", which does not hold it";
    shard.loaded = true;
    return {};
}

std::string Checkpoint::OpenSafetensors(const std::string& path) {
    format_ = "safetensors";
    auto shard = std::make_unique<Shard>();
    shard->path = path;
    shards_.push_back(std::move(shard));
    if (std::string error = LoadShard(0); !error.empty()) return error;
    std::vector<const TensorInfo*> in_order;
    for (const auto& [name, tensor] : shards_[0]->tensors)
        in_order.push_back(&tensor);
    // The file's own order is the data's order.
    std::sort(in_order.begin(), in_order.end(), [](const TensorInfo* a, const TensorInfo* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->name < b->name;
    });
    for (const TensorInfo* tensor : in_order) {
        names_.push_back(tensor->name);
        shard_of_[tensor->name] = 0;
    }
    return {};
}

std::string Checkpoint::OpenIndex(const std::string& path) {
    format_ = "index";
    ByteFile file;
    if (std::string error = file.Open(path); !error.empty()) return error;
    if (file.Size() > kMaxShardIndexBytes)
        return shown_name(path) + " is larger than " + Size(kMaxShardIndexBytes) +
               " (a shard index is a few KiB)";
    std::string text(static_cast<std::size_t>(file.Size()), '\0');
    if (std::string error = file.Read(0, text.size(), text.data()); !error.empty()) return error;
    IndexReader reader;
    if (!nlohmann::json::sax_parse(text, &reader) || !reader.error.empty())
        return "shard index " + shown_name(path) + ": " +
               (reader.error.empty() ? "not valid JSON" : reader.error);
    if (!reader.seen_map() || reader.entries.empty())
        return shown_name(path) + " is not a shard index (it has no weight_map naming the tensors' "
                                  "files): open the folder, its model.safetensors, or its "
                                  "model.safetensors.index.json";
    const fs::path folder = fs::path(path).parent_path();
    std::map<std::string, std::size_t> shard_by_file;
    for (const auto& [name, file_name] : reader.entries) {
        if (file_name.empty() || file_name.find('/') != std::string::npos ||
            file_name.find('\0') != std::string::npos ||
            file_name.find('\\') != std::string::npos || file_name == "." || file_name == "..")
            return "shard index " + shown_name(path) + ": tensor " + shown_name(name) + "'s file " +
                   shown_name(file_name) + " must be a file name in the index's folder";
        auto [at, added] = shard_by_file.emplace(file_name, shards_.size());
        if (added) {
            if (shards_.size() >= kMaxShards)
                return "shard index " + shown_name(path) + " names more than " +
                       std::to_string(kMaxShards) + " files";
            auto shard = std::make_unique<Shard>();
            shard->path = (folder / file_name).string();
            shards_.push_back(std::move(shard));
        }
        shard_of_[name] = at->second;
        names_.push_back(name);
    }
    std::sort(names_.begin(), names_.end());
    return {};
}

std::string Checkpoint::OpenNpy(const std::string& path) {
    format_ = "npy";
    auto shard = std::make_unique<Shard>();
    shard->path = path;
    if (std::string error = shard->file.Open(path); !error.empty()) return error;
    const std::uint64_t size = shard->file.Size();
    std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(size, 12)), '\0');
    if (std::string error = shard->file.Read(0, head.size(), head.data()); !error.empty())
        return error;
    // The header's length decides how much more to read.
    std::uint64_t wanted = head.size();
    if (head.size() >= 12 && head.compare(0, 6, "\x93NUMPY", 6) == 0) {
        const auto* raw = reinterpret_cast<const unsigned char*>(head.data());
        const std::uint64_t length = ReadLittle(raw + 8, raw[6] == 1 ? 2 : 4);
        wanted = std::min<std::uint64_t>(size, 12 + std::min(length, kMaxNpyHeaderBytes + 1));
    }
    std::string bytes(static_cast<std::size_t>(wanted), '\0');
    if (std::string error = shard->file.Read(0, bytes.size(), bytes.data()); !error.empty())
        return error;
    TensorInfo tensor;
    if (std::string error = ParseNpyHeader(bytes, size, &tensor); !error.empty())
        return shown_name(path) + ": " + error;
    tensor.name = fs::path(path).stem().string();
    names_.push_back(tensor.name);
    shard_of_[tensor.name] = 0;
    shard->tensors.emplace(tensor.name, std::move(tensor));
    shard->loaded = true;
    shards_.push_back(std::move(shard));
    return {};
}

const TensorInfo* Checkpoint::Find(const std::string& name, std::string* error) {
    error->clear();
    const auto at = shard_of_.find(name);
    if (at == shard_of_.end()) return nullptr;
    if (std::string problem = LoadShard(at->second); !problem.empty()) {
        *error = problem;
        return nullptr;
    }
    const auto& tensors = shards_[at->second]->tensors;
    const auto found = tensors.find(name);
    return found == tensors.end() ? nullptr : &found->second;
}

template <typename Take>
std::string Checkpoint::ForEachValue(const TensorInfo& tensor, Take&& take) const {
    const std::string where = "tensor " + shown_name(tensor.name) + " of " + shown_name(path_);
    if (!tensor.Readable())
        return where + " holds " + tensor.dtype + " numbers, not floating point ones";
    if (tensor.file < 0 || static_cast<std::size_t>(tensor.file) >= shards_.size() ||
        !shards_[static_cast<std::size_t>(tensor.file)]->loaded)
        return where + " is not in an opened file";
    const ByteFile& file = shards_[static_cast<std::size_t>(tensor.file)]->file;
    const auto count = static_cast<std::uint64_t>(tensor.Elements());
    if (count == 0) return {};
    const std::uint64_t item = (tensor.end - tensor.begin) / count;
    // In chunks of 1 MiB, so a large tensor is never held as bytes and floats at once.
    constexpr std::size_t kChunk = 1u << 20;
    std::vector<unsigned char> buffer(
        static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, count * item)));
    std::uint64_t done = 0;
    while (done < count) {
        const std::uint64_t batch = std::min<std::uint64_t>(count - done, kChunk / item);
        if (std::string error = file.Read(tensor.begin + done * item,
                                          static_cast<std::size_t>(batch * item), buffer.data());
            !error.empty())
            return where + ": " + error;
        for (std::uint64_t i = 0; i < batch; ++i) {
            const unsigned char* at = buffer.data() + i * item;
            float value = 0;
            if (tensor.type == TensorType::F32) {
                std::memcpy(&value, at, 4);
            } else if (tensor.type == TensorType::F16) {
                value = HalfToFloat(static_cast<std::uint16_t>(ReadLittle(at, 2)));
            } else if (tensor.type == TensorType::BF16) {
                value = BfloatToFloat(static_cast<std::uint16_t>(ReadLittle(at, 2)));
            } else {
                double wide = 0;
                std::memcpy(&wide, at, 8);
                if (std::isfinite(wide) && std::fabs(wide) > std::numeric_limits<float>::max())
                    return where + ": element " + std::to_string(done + i) +
                           " is beyond float32's range";
                value = static_cast<float>(wide);
            }
            if (!std::isfinite(value))
                return where + ": element " + std::to_string(done + i) + " is " +
                       (std::isnan(value) ? "NaN" : "infinite") + " (finite numbers were expected)";
            take(done + i, value);
        }
        done += batch;
    }
    return {};
}

std::string Checkpoint::ReadFloats(const TensorInfo& tensor, std::vector<float>* out) const {
    const auto count = static_cast<std::uint64_t>(tensor.Elements());
    if (count > kMaxTensorReadElements)
        return "tensor " + shown_name(tensor.name) + " of " + shown_name(path_) + " holds " +
               std::to_string(count) + " numbers; PE Lab reads at most " +
               std::to_string(kMaxTensorReadElements) + " of one tensor";
    std::vector<float> values(static_cast<std::size_t>(count));
    if (std::string error =
            ForEachValue(tensor, [&](std::uint64_t index, float value) { values[index] = value; });
        !error.empty())
        return error;
    if (tensor.fortran_order && tensor.shape.size() == 2) {
        const auto rows = static_cast<std::size_t>(tensor.shape[0]);
        const auto cols = static_cast<std::size_t>(tensor.shape[1]);
        std::vector<float> transposed(values.size());
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                transposed[r * cols + c] = values[c * rows + r];
        values.swap(transposed);
    }
    *out = std::move(values);
    return {};
}

std::string Checkpoint::RowSquares(const TensorInfo& tensor, std::vector<double>* out) const {
    if (tensor.shape.empty() || tensor.shape[0] < 1 || tensor.fortran_order)
        return "tensor " + shown_name(tensor.name) + " of " + shown_name(path_) +
               " is not a row-major table of rows";
    const auto rows = static_cast<std::uint64_t>(tensor.shape[0]);
    const std::uint64_t width = static_cast<std::uint64_t>(tensor.Elements()) / rows;
    if (rows > kMaxTensorReadElements)
        return "tensor " + shown_name(tensor.name) + " of " + shown_name(path_) +
               " has more than " + std::to_string(kMaxTensorReadElements) + " rows";
    std::vector<double> sums(static_cast<std::size_t>(rows), 0.0);
    if (std::string error = ForEachValue(tensor,
                                         [&](std::uint64_t index, float value) {
                                             sums[static_cast<std::size_t>(index / width)] +=
                                                 static_cast<double>(value) * value;
                                         });
        !error.empty())
        return error;
    *out = std::move(sums);
    return {};
}

} // namespace pelab
