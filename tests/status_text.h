// status_text.h — a core Status in a test's assertions: EXPECT_EQ(reader(...), "") holds when
// the reader worked and prints its message when it did not; `<< status` prints the message.
#pragma once

#include "pelab/base/status.h"

#include <ostream>
#include <string>

namespace pelab {

inline bool operator==(const Status& status, const std::string& text) {
    return status.message() == text;
}
inline bool operator!=(const Status& status, const std::string& text) {
    return !(status == text);
}
inline std::ostream& operator<<(std::ostream& out, const Status& status) {
    return out << (status.ok() ? std::string("ok") : status.message());
}

} // namespace pelab
