// pelab/base/error.h — what the core throws (docs/architecture.md, "Errors").
//
// Every core function validates its arguments before doing any work. A value outside its
// documented range throws InvalidArgument whose message names the value, the allowed range and,
// where it helps, why ("d_model must be an even number in [2, 16384] (got 7): sinusoidal pairs
// need two dimensions each"). A file that cannot be written throws IoError. Callers map the
// first to "bad usage" (exit 2) and the second to "runtime failure" (exit 1). Input from
// outside that may be wrong (a file read, a config) is not thrown about: its readers return a
// Status (pelab/base/status.h).
#pragma once

#include <stdexcept>
#include <string>

namespace pelab {

class InvalidArgument : public std::invalid_argument {
public:
    explicit InvalidArgument(const std::string& message) : std::invalid_argument(message) {}
};

class IoError : public std::runtime_error {
public:
    explicit IoError(const std::string& message) : std::runtime_error(message) {}
};

} // namespace pelab
