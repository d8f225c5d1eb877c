#include "pelab/models/checkpoint.h"

#include "base/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>

// The safetensors header and the shard index, read as SAX events (pelab/models/checkpoint.h).

namespace pelab {

namespace {

using detail::shown_name;

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
    if (dtype == "F8_E4M3") return *type = TensorType::F8E4M3, 1;
    if (dtype == "F8_E5M2") return *type = TensorType::F8E5M2, 1;
    if (dtype == "F8_E8M0") return *type = TensorType::F8E8M0, 1;
    if (dtype == "I8" || dtype == "U8" || dtype == "BOOL") return 1;
    return 0;
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

Status ParseSafetensorsHeader(const std::string& header, std::uint64_t data_start,
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

Status ParseShardIndex(const std::string& text,
                       std::vector<std::pair<std::string, std::string>>* entries) {
    IndexReader reader;
    if (!nlohmann::json::sax_parse(text, &reader) || !reader.error.empty())
        return reader.error.empty() ? "not valid JSON" : reader.error;
    if (reader.seen_map()) *entries = std::move(reader.entries);
    return {};
}

} // namespace pelab
