// explanation.h — a sentence the app shows, with the claims it makes. Every sentence built from
// numbers (the compare explanation, the calculator's summary, the worked example's probe, …)
// comes from a pure function that returns its text and, beside it, each claim the text asserts
// as a named value ("came_round_pairs": 1, "tells_apart": 0). The sweep test
// (tests/sentences_test.cpp) recomputes every claim independently over thousands of scenes and
// checks the text says what the claims say; sentences.h lists the builders.
#pragma once

#include "pelab/encodings/pair_turns.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pelab {

struct Claim {
    std::string name;
    double value = 0; ///< a count, a number shown, or 1/0 for a yes/no claim
};

struct Explanation {
    std::string text;
    std::vector<Claim> claims;

    void Claims(const std::string& name, double value) { claims.push_back({name, value}); }
    /// The value of the claim called name; NaN when the text made no such claim.
    double Value(const std::string& name) const;
};

/// "pair 3" or "pairs 0, 3 and 7": the pairs of turns with that motion (at most five named,
/// then "and N more").
std::string PairList(const std::vector<PairTurn>& turns, PairMotion motion);

/// The claims as a JSON object, name → value (what readouts report beside the text).
nlohmann::json ClaimsJson(const Explanation& explanation);

/// text with its first letter upper case.
std::string Capitalised(std::string text);

} // namespace pelab
