// "Did you mean …?": the known names closest to a misspelt one, for the messages that refuse a
// name (an unknown scene field, an unknown widget in a lesson).
#pragma once

#include <string>
#include <vector>

namespace pelab {

/// Edits (insert, delete or replace one byte) that turn a into b.
std::size_t EditDistance(const std::string& a, const std::string& b);

/// The candidates closest to name, at most three, each within a third of name's length (at
/// least 2 edits), quoted and joined: "\"pos_a\", \"pos_b\"". Empty when none is that close,
/// and for a name over kLongestTypo bytes (not a typo; the distance costs length × length).
constexpr std::size_t kLongestTypo = 64;
std::string ClosestNames(const std::string& name, const std::vector<std::string>& candidates);

} // namespace pelab
