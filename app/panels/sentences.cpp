#include "panels/sentences.h"

#include "panels/alternatives/alternatives_scaling.h"
#include "panels/calculator/panel_calculator.h"
#include "panels/candidates/panel_candidates.h"
#include "panels/compare/panel_compare.h"
#include "panels/precision/panel_precision.h"
#include "panels/worked/panel_worked.h"
#include "pelab/encodings/candidates.h"
#include "pelab/encodings/precision.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pelab {

double Explanation::Value(const std::string& name) const {
    for (const Claim& claim : claims)
        if (claim.name == name) return claim.value;
    return std::numeric_limits<double>::quiet_NaN();
}

std::string PairList(const std::vector<PairTurn>& turns, PairMotion motion) {
    std::vector<int> pairs;
    for (const PairTurn& turn : turns)
        if (turn.motion == motion) pairs.push_back(turn.pair);
    std::string text = pairs.size() == 1 ? "pair " : "pairs ";
    const std::size_t named = std::min<std::size_t>(pairs.size(), 5);
    for (std::size_t k = 0; k < named; ++k) {
        if (k > 0) text += k + 1 == named && named == pairs.size() ? " and " : ", ";
        text += std::to_string(pairs[k]);
    }
    if (named < pairs.size()) text += " and " + std::to_string(pairs.size() - named) + " more";
    return text;
}

nlohmann::json ClaimsJson(const Explanation& explanation) {
    nlohmann::json claims = nlohmann::json::object();
    for (const Claim& claim : explanation.claims)
        claims[claim.name] = claim.value;
    return claims;
}

std::string Capitalised(std::string text) {
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z')
        text[0] = static_cast<char>(text[0] - 32);
    return text;
}

std::vector<SentenceBuilder> SentenceBuilders() {
    return {
        {"compare.explanation",
         [](const SentenceScene& s) {
             return ExplainDifference(s.pos_a, s.pos_b, s.d_model, s.base);
         }},
        {"calculator.summary",
         [](const SentenceScene& s) {
             return CalculatorSummary(s.pos_a, s.pos_b, 0, s.d_model - 1, s.d_model, s.base);
         }},
        {"worked.probe",
         [](const SentenceScene& s) {
             // The worked example's positions are whole: a word's index in the sentence.
             return ProbeSentence("the", static_cast<int>(s.pos_a), static_cast<int>(s.pos_b),
                                  s.d_model, s.base);
         }},
        {"candidates.drowning",
         [](const SentenceScene& s) {
             // One embedding value of 0.1 per dim, not scaled: ‖embedding‖ = 0.1·√d_model.
             const auto candidate = static_cast<Candidate>(s.candidate % kCandidateCount);
             CandidateSettings settings;
             settings.d_model = s.d_model;
             settings.base = s.base;
             settings.length = s.length;
             return DrowningSentence(candidate_name(candidate), s.pos_a, s.length,
                                     0.1 * std::sqrt(static_cast<double>(s.d_model)),
                                     candidate_norm(candidate, s.pos_a, settings));
         }},
        {"precision.meaning",
         [](const SentenceScene& s) {
             // The precision panel inspects whole positions from 1 to 10⁶.
             const double pos = std::clamp(std::round(s.pos_a), 1.0, 1e6);
             int pair = 0;
             const double shift = float32_position_shift(pos, s.d_model, s.base, &pair);
             return PrecisionMeaning(
                 pos, recipe_max_error(PeRecipe::Float32Code, pos, s.d_model, s.base), shift, pair);
         }},
        {"alternatives.scaling",
         [](const SentenceScene& s) {
             ContextScalingOptions options;
             options.d = s.head_d;
             options.base = s.base;
             options.factor = s.scale_factor;
             options.original_context = s.original_context;
             options.yarn_ramp = s.yarn_over_pairs ? YarnRamp::PairIndex : YarnRamp::Turns;
             return ScalingSentence(options);
         }},
    };
}

} // namespace pelab
