// Internal helper: build error messages that name the value and the allowed range.
#pragma once

#include <sstream>
#include <string>

namespace pelab::detail {

template <typename... Parts> std::string concat(const Parts&... parts) {
    std::ostringstream stream;
    stream.precision(10);
    (stream << ... << parts);
    return stream.str();
}

} // namespace pelab::detail
