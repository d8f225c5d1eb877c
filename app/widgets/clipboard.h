// clipboard.h — the clipboard as panels use it, where a copy may take time to happen.
//
// On the desktop a copy is done when it returns (GLFW hands the text to the window system). In
// the browser it is asynchronous and may be refused (no permission, a page served over plain
// http): the page learns a frame or two later whether the browser took the text. A panel that
// says "copied" must say it only then, so it asks for the outcome of its copy.
#pragma once

#include <string>

namespace pelab {

class Clipboard {
public:
    enum class Outcome { Done, Pending, Refused };
    virtual ~Clipboard() = default;
    /// Puts text on the clipboard; returns a number for OutcomeOf.
    virtual long Copy(const std::string& text) = 0;
    /// What became of that copy.
    virtual Outcome OutcomeOf(long copy) const = 0;
};

/// ImGui's clipboard (the window system's on the desktop, ImGui's own in headless tests): each
/// copy is done at once.
class ImmediateClipboard final : public Clipboard {
public:
    long Copy(const std::string& text) override;
    Outcome OutcomeOf(long /*copy*/) const override { return Outcome::Done; }

private:
    long copies_ = 0;
};

} // namespace pelab
