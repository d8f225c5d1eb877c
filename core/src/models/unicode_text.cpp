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

struct ClassRange {
    char32_t low, high;
    int combining_class;
};
struct Decomposition {
    char32_t code, first, second; ///< second 0: a singleton
};
struct Composition {
    char32_t first, second, code;
};
#include "unicode_nfc.inc"

int CombiningClass(char32_t c) {
    const auto* end = std::end(kCombiningClasses);
    const auto* at = std::upper_bound(std::begin(kCombiningClasses), end, c,
                                      [](char32_t v, const ClassRange& r) { return v < r.low; });
    return at != std::begin(kCombiningClasses) && c <= (at - 1)->high ? (at - 1)->combining_class
                                                                      : 0;
}

// Hangul's algorithmic syllables (Unicode §3.12).
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount,
                   kSCount = kLCount * kNCount;

void Decompose(char32_t c, std::u32string* out) {
    if (c >= kSBase && c < kSBase + kSCount) {
        const char32_t s = c - kSBase;
        out->push_back(kLBase + s / kNCount);
        out->push_back(kVBase + (s % kNCount) / kTCount);
        if (s % kTCount != 0) out->push_back(kTBase + s % kTCount);
        return;
    }
    const auto* end = std::end(kDecompositions);
    const auto* at =
        std::lower_bound(std::begin(kDecompositions), end, c,
                         [](const Decomposition& d, char32_t v) { return d.code < v; });
    if (at == end || at->code != c) {
        out->push_back(c);
        return;
    }
    Decompose(at->first, out);
    if (at->second != 0) Decompose(at->second, out);
}

// The primary composite of first + second, or 0.
char32_t Compose(char32_t first, char32_t second) {
    if (first >= kLBase && first < kLBase + kLCount && second >= kVBase &&
        second < kVBase + kVCount)
        return kSBase + ((first - kLBase) * kVCount + (second - kVBase)) * kTCount;
    if (first >= kSBase && first < kSBase + kSCount && (first - kSBase) % kTCount == 0 &&
        second > kTBase && second < kTBase + kTCount)
        return first + (second - kTBase);
    const auto* end = std::end(kCompositions);
    const auto* at =
        std::lower_bound(std::begin(kCompositions), end, std::make_pair(first, second),
                         [](const Composition& c, const std::pair<char32_t, char32_t>& v) {
                             return std::make_pair(c.first, c.second) < v;
                         });
    return at != end && at->first == first && at->second == second ? at->code : 0;
}

void AppendUtf8(char32_t c, std::string* out) {
    if (c < 0x80) {
        out->push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out->push_back(static_cast<char>(0xC0 | (c >> 6)));
        out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out->push_back(static_cast<char>(0xE0 | (c >> 12)));
        out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out->push_back(static_cast<char>(0xF0 | (c >> 18)));
        out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

} // namespace

Status ToNfc(const std::string& text, std::string* out) {
    std::vector<char32_t> points;
    std::vector<std::size_t> offsets;
    if (Status error = DecodeUtf8(text, &points, &offsets); !error.ok()) return error;
    std::u32string d;
    for (char32_t c : points)
        Decompose(c, &d);
    // Canonical ordering: each run of non-starters sorted by class, stably.
    for (std::size_t i = 0; i < d.size();) {
        if (CombiningClass(d[i]) == 0) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < d.size() && CombiningClass(d[j]) != 0)
            ++j;
        std::stable_sort(
            d.begin() + static_cast<std::ptrdiff_t>(i), d.begin() + static_cast<std::ptrdiff_t>(j),
            [](char32_t a, char32_t b) { return CombiningClass(a) < CombiningClass(b); });
        i = j;
    }
    // Canonical composition (UAX #15's algorithm): each character joins the last starter
    // unless a character between them blocks it (class 0, or a class at least its own).
    std::size_t kept = 0, starter = 0;
    int last_class = 256;
    for (std::size_t i = 0; i < d.size(); ++i) {
        const int cls = CombiningClass(d[i]);
        if (i > 0 && kept > 0 && (last_class < cls || last_class == 0) &&
            CombiningClass(d[starter]) == 0)
            if (const char32_t composite = Compose(d[starter], d[i]); composite != 0) {
                d[starter] = composite;
                continue;
            }
        if (cls == 0) starter = kept;
        last_class = cls;
        d[kept++] = d[i];
    }
    d.resize(kept);
    std::string result;
    for (char32_t c : d)
        AppendUtf8(c, &result);
    *out = std::move(result);
    return {};
}

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
