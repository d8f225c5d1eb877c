#include "pelab/models/checkpoint.h"

#include "base/format.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

// The .npy header: NumPy's Python dict literal (pelab/models/checkpoint.h).

namespace pelab {

using detail::shown_name;

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

Status ParseNpyHeader(const std::string& bytes, std::uint64_t file_size, TensorInfo* out) {
    static constexpr char kMagic[] = "\x93NUMPY";
    if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0)
        return "not a NumPy .npy file (it does not start with \\x93NUMPY)";
    const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
    const int major = raw[6];
    if (major < 1 || major > 3)
        return "a .npy file of version " + std::to_string(major) + " (versions 1 to 3 are read)";
    const int length_bytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + static_cast<std::size_t>(length_bytes)) return "its header is cut short";
    const std::uint64_t header_length = detail::read_little(raw + 8, length_bytes);
    if (header_length > kMaxNpyHeaderBytes)
        return "its header is longer than " + detail::byte_count_text(kMaxNpyHeaderBytes);
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
               "): save it with array.astype('<" + descr.substr(1) + "')";
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

} // namespace pelab
