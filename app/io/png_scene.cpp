#include "io/png_scene.h"

#include "io/json_input.h"
#include "io/scene.h"

#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cstdint>

namespace pelab {

namespace {

constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

std::uint32_t ReadBigEndian(const std::string& bytes, std::size_t at) {
    return (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) << 24) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 16) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 2])) << 8) |
           static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 3]));
}

void AppendBigEndian(std::string& out, std::uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<char>((value >> shift) & 0xFF));
}

} // namespace

unsigned long Crc32(const unsigned char* bytes, std::size_t size) {
    // The table of the reflected polynomial 0xEDB88320, built on each call: 256 steps, and
    // figures are written or read once, so no static table is kept.
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t n = 0; n < 256; ++n) {
        std::uint32_t c = n;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
    std::uint32_t crc = 0xFFFFFFFFu;
    for (std::size_t k = 0; k < size; ++k)
        crc = table[(crc ^ bytes[k]) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

bool LooksLikePng(const std::string& bytes) {
    return bytes.size() >= 8 &&
           bytes.compare(0, 8, reinterpret_cast<const char*>(kSignature), 8) == 0;
}

std::string AddPngTextChunk(const std::string& png, const std::string& keyword,
                            const std::string& text) {
    // Signature (8) + IHDR chunk (4 length + 4 type + 13 data + 4 CRC) = 33 bytes.
    const std::size_t after_ihdr = 33;
    std::string chunk = "tEXt" + keyword + std::string(1, '\0') + text;
    std::string out = png.substr(0, after_ihdr);
    AppendBigEndian(out, static_cast<std::uint32_t>(chunk.size() - 4));
    out += chunk;
    AppendBigEndian(out, static_cast<std::uint32_t>(Crc32(
                             reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size())));
    out += png.substr(after_ihdr);
    return out;
}

std::string ReadPngTextChunk(const std::string& png, const std::string& keyword,
                             std::size_t max_text_bytes, std::string* text) {
    if (!LooksLikePng(png)) return "not a PNG file";
    std::size_t at = 8;
    while (at + 12 <= png.size()) {
        const std::uint32_t length = ReadBigEndian(png, at);
        if (length > png.size() - at - 12) return "a PNG chunk runs past the end of the file";
        const std::string type = png.substr(at + 4, 4);
        if (type == "tEXt") {
            const char* data = png.data() + at + 8;
            const std::uint32_t crc = ReadBigEndian(png, at + 8 + length);
            const std::string name(data, std::min<std::size_t>(length, keyword.size() + 1));
            if (name == keyword + std::string(1, '\0')) {
                const std::size_t text_bytes = length - keyword.size() - 1;
                if (text_bytes > max_text_bytes)
                    return "the PNG's \"" + keyword + "\" chunk holds " + SizeText(text_bytes) +
                           " of text; a scene is at most " + SizeText(max_text_bytes) +
                           " (this figure was not written by PE Lab as it is)";
                if (Crc32(reinterpret_cast<const unsigned char*>(png.data() + at + 4),
                          length + 4) != crc)
                    return "the PNG's \"" + keyword + "\" chunk is damaged (CRC mismatch)";
                text->assign(data + keyword.size() + 1, text_bytes);
                return {};
            }
        }
        if (type == "IEND") break;
        at += 12 + static_cast<std::size_t>(length);
    }
    return "this PNG holds no PE Lab scene (no \"" + keyword +
           "\" text chunk: was it made by `pelab screenshot`?)";
}

namespace {

void PngToBuffer(void* context, void* data, int size) {
    auto* bytes = static_cast<std::vector<unsigned char>*>(context);
    bytes->insert(bytes->end(), static_cast<unsigned char*>(data),
                  static_cast<unsigned char*>(data) + size);
}

} // namespace

std::string WritePngFile(const std::string& out, const std::vector<unsigned char>& rgba, int width,
                         int height, const std::string& scene, ExistingName existing) {
    std::vector<unsigned char> png;
    if (!stbi_write_png_to_func(PngToBuffer, &png, width, height, 4, rgba.data(), width * 4))
        return "PNG encoding failed";
    std::string file(png.begin(), png.end());
    if (!scene.empty()) file = AddPngTextChunk(file, kSceneChunkKeyword, scene);
    return SaveTextFile(out, file, existing);
}

} // namespace pelab
