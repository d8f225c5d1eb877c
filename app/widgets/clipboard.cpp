#include "widgets/clipboard.h"

#include <imgui.h>

namespace pelab {

long ImmediateClipboard::Copy(const std::string& text) {
    ImGui::SetClipboardText(text.c_str());
    return ++copies_;
}

} // namespace pelab
