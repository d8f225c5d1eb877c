#include "pelab/export/export.h"

#include "base/format.h"
#include "pelab/base/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <streambuf>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace pelab {

using detail::concat;

namespace {

// Appends value with 9 significant digits (%.9g): every float32 reads back bit-exact.
inline char* append_float(char* cursor, char* end, float value) {
#ifdef __EMSCRIPTEN__
    // The browser edition's libc++ has no floating-point to_chars; %.9g is what it specifies.
    const int written = std::snprintf(cursor, static_cast<std::size_t>(end - cursor), "%.9g",
                                      static_cast<double>(value));
    return cursor + std::min<std::ptrdiff_t>(written, end - cursor);
#else
    return std::to_chars(cursor, end, value, std::chars_format::general, 9).ptr;
#endif
}

std::size_t element_count(const PeExportInfo& info) {
    return static_cast<std::size_t>(info.max_len) * static_cast<std::size_t>(info.d_model);
}

// The stream's failure is the last write(2) that failed, so errno still holds its cause
// (ENOSPC for a full disk or /dev/full, EPIPE for a reader that went away).
void check_stream(std::ostream& out) {
    if (out) return;
    const int cause = errno;
    throw IoError(cause != 0 ? concat("writing failed: ", std::strerror(cause))
                             : std::string("writing failed (disk full or stream closed)"));
}

} // namespace

void write_pe_csv(std::ostream& out, const PeExportInfo& info, const float* values) {
    std::string line = "pos";
    for (int dim = 0; dim < info.d_model; ++dim)
        line += concat(",d", dim);
    line += '\n';
    out << line;
    // One reused buffer per row: at most 16 characters per value plus the position.
    std::vector<char> buffer(static_cast<std::size_t>(info.d_model) * 17 + 32);
    for (int pos = 0; pos < info.max_len; ++pos) {
        char* cursor = buffer.data();
        char* const end = buffer.data() + buffer.size();
        cursor = std::to_chars(cursor, end, pos).ptr;
        const float* row = values + static_cast<std::size_t>(pos) * info.d_model;
        for (int dim = 0; dim < info.d_model; ++dim) {
            *cursor++ = ',';
            cursor = append_float(cursor, end, row[dim]);
        }
        *cursor++ = '\n';
        out.write(buffer.data(), cursor - buffer.data());
    }
    check_stream(out);
}

void write_pe_json(std::ostream& out, const PeExportInfo& info, const float* values) {
    out << "{\"encoding\":\"sinusoidal\",\"max_len\":" << info.max_len
        << ",\"d_model\":" << info.d_model << ",\"base\":" << nlohmann::json(info.base).dump()
        << ",\"layout\":\"" << layout_name(info.layout) << "\",\"shape\":[" << info.max_len << ","
        << info.d_model << "],\n\"values\":[\n";
    std::vector<char> buffer(static_cast<std::size_t>(info.d_model) * 17 + 32);
    for (int pos = 0; pos < info.max_len; ++pos) {
        char* cursor = buffer.data();
        char* const end = buffer.data() + buffer.size();
        *cursor++ = '[';
        const float* row = values + static_cast<std::size_t>(pos) * info.d_model;
        for (int dim = 0; dim < info.d_model; ++dim) {
            if (dim > 0) *cursor++ = ',';
            cursor = append_float(cursor, end, row[dim]);
        }
        *cursor++ = ']';
        if (pos + 1 < info.max_len) *cursor++ = ',';
        *cursor++ = '\n';
        out.write(buffer.data(), cursor - buffer.data());
    }
    out << "]}\n";
    check_stream(out);
}

void write_npy_header(std::ostream& out, const std::string& descr,
                      const std::vector<long long>& shape) {
    // NumPy's tuples: (3, 4), (3,) for one dimension, () for a single number.
    std::string dims;
    for (std::size_t k = 0; k < shape.size(); ++k)
        dims += (k == 0 ? "" : ", ") + std::to_string(shape[k]);
    if (shape.size() == 1) dims += ",";
    std::string header =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    // Magic (6) + version (2) + header length (2) + header, padded with spaces and ended by
    // '\n' so that the data starts on a 64-byte boundary, as NumPy itself writes it.
    const std::size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    const std::uint16_t header_length = static_cast<std::uint16_t>(header.size());
    const unsigned char preamble[10] = {0x93,
                                        'N',
                                        'U',
                                        'M',
                                        'P',
                                        'Y',
                                        1,
                                        0,
                                        static_cast<unsigned char>(header_length & 0xFF),
                                        static_cast<unsigned char>(header_length >> 8)};
    out.write(reinterpret_cast<const char*>(preamble), sizeof preamble);
    out << header;
}

void write_pe_npy(std::ostream& out, const PeExportInfo& info, const float* values) {
    write_npy_header(out, "<f4", {info.max_len, info.d_model});
    static_assert(sizeof(float) == 4, "npy '<f4' needs 32-bit floats");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (std::size_t k = 0; k < element_count(info); ++k) {
        char bytes[4];
        std::memcpy(bytes, values + k, 4);
        std::swap(bytes[0], bytes[3]);
        std::swap(bytes[1], bytes[2]);
        out.write(bytes, 4);
    }
#else
    out.write(reinterpret_cast<const char*>(values),
              static_cast<std::streamsize>(element_count(info) * sizeof(float)));
#endif
    check_stream(out);
}

namespace {
nlohmann::json matrix_json(const Matrix& m) {
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < m.rows; ++r)
        rows.push_back(std::vector<double>(m.row(r), m.row(r) + m.cols));
    return rows;
}
} // namespace

std::string attention_json(const OrderDemoResult& result, const OrderDemoOptions& options) {
    nlohmann::json doc;
    doc["d_model"] = options.d_model;
    doc["base"] = options.positional.base;
    doc["pe"] = options.positional.pe_enabled;
    doc["pe_scale"] = options.positional.pe_scale;
    doc["embedding_scale_sqrt_d"] = options.positional.scale_embeddings;
    doc["embedding"] = options.embedding == EmbeddingKind::OneHot ? "one-hot" : "random";
    doc["tokens_a"] = result.tokens_a;
    doc["tokens_b"] = result.tokens_b;
    doc["vocab"] = result.vocabulary;
    doc["x_a"] = matrix_json(result.x_a);
    doc["x_b"] = matrix_json(result.x_b);
    doc["scores_a"] = matrix_json(result.scores_a);
    doc["scores_b"] = matrix_json(result.scores_b);
    doc["weights_a"] = matrix_json(result.weights_a);
    doc["weights_b"] = matrix_json(result.weights_b);
    doc["same_multiset"] = result.verdict.same_multiset;
    doc["same_up_to_reordering"] = result.verdict.same_up_to_reordering;
    doc["max_reorder_diff"] = result.verdict.max_difference;
    doc["reorder_mapping_b_to_a"] = result.verdict.mapping;
    doc["reorder_matchings"] = result.verdict.matchings;
    doc["reorder_matching_exact"] = result.verdict.matching_exact;
    if (result.verdict.same_multiset)
        doc["largest_difference_at"] = {{"row_b", result.verdict.row_b},
                                        {"col_b", result.verdict.col_b},
                                        {"row_a", result.verdict.row_a},
                                        {"col_a", result.verdict.col_a}};
    doc["equivariance_residual"] = result.equivariance;
    doc["equivariance_permutation"] = result.equivariance_permutation;
    return doc.dump(2) + "\n";
}

} // namespace pelab
