#include "io/suggest.h"

#include <algorithm>
#include <utility>

namespace pelab {

std::size_t EditDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] =
                std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string ClosestNames(const std::string& name, const std::vector<std::string>& candidates) {
    if (name.size() > kLongestTypo) return {};
    std::vector<std::pair<std::size_t, std::string>> close;
    for (const std::string& candidate : candidates)
        close.emplace_back(EditDistance(name, candidate), candidate);
    std::sort(close.begin(), close.end());
    std::string names;
    for (std::size_t k = 0; k < close.size() && k < 3; ++k)
        if (close[k].first <= std::max<std::size_t>(2, name.size() / 3))
            names += (names.empty() ? "\"" : ", \"") + close[k].second + "\"";
    return names;
}

} // namespace pelab
