// Internal constants shared by core's sources.
#pragma once

namespace pelab::detail {

constexpr double kPi = 3.14159265358979323846;

} // namespace pelab::detail
