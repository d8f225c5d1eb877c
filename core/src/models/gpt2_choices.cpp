// The position switches by name, the seeded shuffle, and the measures of a pass (its top guesses,
// the distance between two passes' states): pelab/models/gpt2.h.
#include "pelab/models/gpt2.h"

#include "pelab/base/error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace pelab {

namespace {

std::uint64_t SplitMix64(std::uint64_t* state) {
    std::uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace

std::vector<NextGuess> TopNext(const Gpt2Pass& pass, int vocab, int k) {
    if (vocab < 1 || pass.logits.size() < static_cast<std::size_t>(vocab))
        throw InvalidArgument("TopNext needs a pass with a vocabulary's logits");
    const float* last = pass.logits.data() + pass.logits.size() - vocab;
    const double top = *std::max_element(last, last + vocab);
    double sum = 0;
    for (int v = 0; v < vocab; ++v)
        sum += std::exp(last[v] - top);
    std::vector<int> order(static_cast<std::size_t>(vocab));
    for (int v = 0; v < vocab; ++v)
        order[v] = v;
    k = std::clamp(k, 0, vocab);
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
        return last[a] > last[b] || (last[a] == last[b] && a < b);
    });
    std::vector<NextGuess> guesses;
    for (int i = 0; i < k; ++i)
        guesses.push_back({order[i], std::exp(last[order[i]] - top) / sum});
    return guesses;
}

double StateDistance(const Gpt2Pass& a, int ta, const Gpt2Pass& b, int tb, int state, int width) {
    const std::size_t d = static_cast<std::size_t>(width);
    if (width < 1 || ta < 0 || tb < 0 || ta >= a.tokens || tb >= b.tokens || state < 0 ||
        (static_cast<std::size_t>(state) + 1) * a.tokens * d > a.states.size() ||
        (static_cast<std::size_t>(state) + 1) * b.tokens * d > b.states.size())
        throw InvalidArgument("StateDistance: a token or state outside the passes");
    const float* x = a.states.data() + (static_cast<std::size_t>(state) * a.tokens + ta) * d;
    const float* y = b.states.data() + (static_cast<std::size_t>(state) * b.tokens + tb) * d;
    double difference = 0, xx = 0, yy = 0;
    for (std::size_t c = 0; c < d; ++c) {
        const double u = x[c], v = y[c];
        difference += (u - v) * (u - v);
        xx += u * u;
        yy += v * v;
    }
    const double scale = (std::sqrt(xx) + std::sqrt(yy)) / 2;
    return scale > 0 ? std::sqrt(difference) / scale : 0.0;
}

std::vector<double> LastStateDistances(const Gpt2Pass& a, const Gpt2Pass& b, int width) {
    const std::size_t d = static_cast<std::size_t>(std::max(width, 1));
    const std::size_t layers_a = a.tokens > 0 ? a.states.size() / (d * a.tokens) : 0,
                      layers_b = b.tokens > 0 ? b.states.size() / (d * b.tokens) : 0;
    if (width < 1 || a.tokens < 1 || b.tokens < 1 || layers_a != layers_b)
        throw InvalidArgument("LastStateDistances needs two passes of one model");
    std::vector<double> out;
    for (std::size_t layer = 0; layer < layers_a; ++layer)
        out.push_back(
            StateDistance(a, a.tokens - 1, b, b.tokens - 1, static_cast<int>(layer), width));
    return out;
}

std::vector<int> ShuffleOrder(int n, std::uint64_t seed) {
    std::vector<int> order(static_cast<std::size_t>(std::max(n, 0)));
    for (int i = 0; i < n; ++i)
        order[i] = i;
    std::uint64_t state = seed;
    for (int i = n - 1; i > 0; --i) {
        const auto j = static_cast<int>(SplitMix64(&state) % static_cast<std::uint64_t>(i + 1));
        std::swap(order[i], order[j]);
    }
    return order;
}

std::string PositionChoiceName(const PositionChoice& choice) {
    switch (choice.kind) {
    case PositionSwitch::Trained:
        return "trained";
    case PositionSwitch::Zeroed:
        return "zero";
    case PositionSwitch::Shuffled:
        return choice.seed == 1 ? "shuffle" : "shuffle:" + std::to_string(choice.seed);
    case PositionSwitch::Shifted:
        return "shift:" + std::to_string(choice.shift);
    case PositionSwitch::Same:
        return "same:" + std::to_string(choice.same_row);
    case PositionSwitch::MeanRow:
        return "mean";
    case PositionSwitch::Sinusoidal:
        return "sinusoidal";
    }
    return "trained";
}

Status ParsePositionChoice(const std::string& text, PositionChoice* out) {
    PositionChoice choice;
    const std::size_t colon = text.find(':');
    const std::string name = text.substr(0, colon);
    const std::string number = colon == std::string::npos ? "" : text.substr(colon + 1);
    const auto whole = [&](long long low, long long high, long long* value) -> bool {
        if (number.empty() || number.size() > 19 ||
            number.find_first_not_of("0123456789") != std::string::npos)
            return false;
        *value = std::strtoll(number.c_str(), nullptr, 10);
        return *value >= low && *value <= high;
    };
    const std::string names = "trained, zero, shuffle[:SEED], shift:K, same:P, mean or sinusoidal";
    long long value = 0;
    if (name == "trained" || name == "zero" || name == "mean" || name == "sinusoidal") {
        if (colon != std::string::npos)
            return "positions \"" + text + "\": " + name + " takes no number";
        choice.kind = name == "trained" ? PositionSwitch::Trained
                      : name == "zero"  ? PositionSwitch::Zeroed
                      : name == "mean"  ? PositionSwitch::MeanRow
                                        : PositionSwitch::Sinusoidal;
    } else if (name == "shuffle") {
        choice.kind = PositionSwitch::Shuffled;
        if (colon != std::string::npos) {
            if (!whole(0, 999999999999LL, &value))
                return "positions \"" + text +
                       "\": the seed must be a whole number from 0 to "
                       "999 999 999 999";
            choice.seed = static_cast<std::uint64_t>(value);
        }
    } else if (name == "shift" || name == "same") {
        if (!whole(0, 1 << 20, &value))
            return "positions \"" + text + "\": " + name + " needs a whole number " +
                   (name == "shift" ? "of positions to shift by" : "of the row every token gets") +
                   " (" + name + (name == "shift" ? ":K, K" : ":P, P") + " from 0)";
        choice.kind = name == "shift" ? PositionSwitch::Shifted : PositionSwitch::Same;
        (name == "shift" ? choice.shift : choice.same_row) = static_cast<int>(value);
    } else {
        return "positions \"" + text + "\": must be " + names;
    }
    *out = choice;
    return {};
}

} // namespace pelab
