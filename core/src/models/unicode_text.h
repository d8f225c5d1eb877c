// models/unicode_text.h — what the tokenizers' scanners need of Unicode (15.0, the tables of
// core/src/models/unicode_classes.inc): UTF-8 decoding and the classes of their patterns.
#pragma once

#include "pelab/base/status.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pelab::detail {

/// \p{L}, \p{N}, \s (White_Space), and none of the three.
bool IsLetter(char32_t c);
bool IsNumber(char32_t c);
bool IsSpace(char32_t c);
bool IsOther(char32_t c);

/// text in Unicode's Normalization Form C (UAX #15: canonical decomposition, canonical
/// ordering of the combining marks, canonical composition; Hangul computed), the tables of
/// unicode_nfc.inc (Unicode 15.0). ok or where the text stops being UTF-8.
Status ToNfc(const std::string& text, std::string* out);

/// UTF-8 → code points with each one's byte offset (offsets has one more entry: the end). ok or
/// where the text stops being UTF-8.
Status DecodeUtf8(const std::string& text, std::vector<char32_t>* points,
                  std::vector<std::size_t>* offsets);

} // namespace pelab::detail
