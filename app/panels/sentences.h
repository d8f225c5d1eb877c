// sentences.h — every sentence builder of PE Lab in one list, for the sweep test
// (tests/sentences_test.cpp): each takes a scene of the shared parameters and returns its text
// with its claims (explanation.h). A builder added here without claims fails that test; a
// sentence built from numbers that is not listed here is a review finding.
#pragma once

#include "panels/explanation.h"

#include <functional>
#include <string>
#include <vector>

namespace pelab {

/// The numbers a sentence may be built from: the shared parameters of a scene, and the settings
/// of the panels whose sentences read more.
struct SentenceScene {
    double pos_a = 0, pos_b = 0;
    int d_model = 512;
    double base = 10000;
    /// The long-context tab: s, the original context L and one head's width.
    double scale_factor = 8, original_context = 8192;
    int head_d = 128;
    bool yarn_over_pairs = false; ///< YaRN's ramp as Hugging Face computes it
    /// The candidates panel: which of the kCandidateCount encodings, and L.
    int candidate = 0, length = 10;
};

struct SentenceBuilder {
    std::string name; ///< "compare.explanation": the panel and the sentence
    std::function<Explanation(const SentenceScene&)> build;
};

/// Every builder, in panel order.
std::vector<SentenceBuilder> SentenceBuilders();

} // namespace pelab
