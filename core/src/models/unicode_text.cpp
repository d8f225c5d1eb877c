#include "models/unicode_text.h"

#include <algorithm>

namespace pelab::detail {

namespace {

struct CodeRange {
    char32_t low, high;
};
#include "unicode_classes.inc"

template <std::size_t N> bool InRanges(const CodeRange (&ranges)[N], char32_t c) {
    const CodeRange* end = ranges + N;
    const CodeRange* at = std::upper_bound(
        ranges, end, c, [](char32_t value, const CodeRange& r) { return value < r.low; });
    return at != ranges && c <= (at - 1)->high;
}

} // namespace

bool IsLetter(char32_t c) {
    return InRanges(kLetters, c);
}
bool IsNumber(char32_t c) {
    return InRanges(kNumbers, c);
}
bool IsSpace(char32_t c) {
    return InRanges(kWhiteSpace, c);
}
bool IsOther(char32_t c) {
    return !IsSpace(c) && !IsLetter(c) && !IsNumber(c);
}

Status DecodeUtf8(const std::string& text, std::vector<char32_t>* points,
                  std::vector<std::size_t>* offsets) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto byte = static_cast<unsigned char>(text[i]);
        int length = 0;
        char32_t c = 0;
        if (byte < 0x80)
            length = 1, c = byte;
        else if ((byte & 0xE0) == 0xC0)
            length = 2, c = byte & 0x1F;
        else if ((byte & 0xF0) == 0xE0)
            length = 3, c = byte & 0x0F;
        else if ((byte & 0xF8) == 0xF0)
            length = 4, c = byte & 0x07;
        else
            return "byte " + std::to_string(i) + " does not start a UTF-8 character";
        if (i + length > text.size())
            return "the text ends inside a UTF-8 character (byte " + std::to_string(i) + ")";
        for (int k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80)
                return "byte " + std::to_string(i + k) + " breaks a UTF-8 character";
            c = (c << 6) | (next & 0x3F);
        }
        const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < smallest[length] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return "bytes " + std::to_string(i) + " on are not a valid UTF-8 character";
        points->push_back(c);
        offsets->push_back(i);
        i += length;
    }
    offsets->push_back(text.size());
    return {};
}

} // namespace pelab::detail
