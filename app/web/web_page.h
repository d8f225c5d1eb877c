// web_page.h — what the browser edition asks of its page (web_page.cpp, in JavaScript): the
// page's size, local storage, the address's fragment, downloads and the clipboard. Functions
// that return text return malloc'd text (TakeText frees it), or null for none.
#pragma once

#include "widgets/clipboard.h"

#include <imgui.h>

#include <cstddef>
#include <string>

extern "C" {
int PageWidth(); ///< the page's size in the screen's pixels (CSS pixels × devicePixelRatio)
int PageHeight();
char* StorageGet(const char* key);                  ///< local storage's value, or null
int StorageSet(const char* key, const char* value); ///< 1 when stored (0: full or blocked)
char* StorageKeys(const char* prefix);              ///< a JSON list of the keys that start so
void StorageRemove(const char* key);
char* TakeNewFragment();                    ///< a fragment pasted into the address, once
void ReplaceFragment(const char* fragment); ///< the address's #…, without a history entry
void Download(const char* path);            ///< a file of the page's file system, downloaded
void PublishSession(void* session);         ///< for the JavaScript hooks (pelab_state_json)
void MarkFirstFrame();
void PageCopy(int copy, const char* text);
int PageCopyOutcome(int copy); ///< 0 done, 1 pending, 2 refused
char* PageQuery();             ///< the address's ?…
}

namespace pelab {

// ---- Keys in local storage ----
constexpr const char* kSettingsKey = "pelab.settings";  // ImGui's ini text: layout and view
constexpr const char* kRecentFileKey = "pelab.recent:"; // + path: the file's bytes, as text
constexpr std::size_t kMaxKeptFileBytes = 1 << 20;      // a scene or lesson is far smaller
// A file delivered as a download moves here, so Open Recent still finds it.
constexpr const char* kSavedFolder = "/pelab/saved";

/// The text, freed; "" for null.
std::string TakeText(char* text);

/// The browser's clipboard. A copy is asked of the browser on the frame of the click or key that
/// made it (the browser allows a copy only just after the person's input) and is done when the
/// browser says so. A paste comes as the browser's paste event (pelab_paste), typed into the
/// active field; ImGui's own Ctrl+V finds nothing to paste, so the text arrives once.
class PageClipboard final : public Clipboard {
public:
    long Copy(const std::string& text) override {
        PageCopy(static_cast<int>(++copies_), text.c_str());
        return copies_;
    }
    Outcome OutcomeOf(long copy) const override {
        switch (PageCopyOutcome(static_cast<int>(copy))) {
        case 0:
            return Outcome::Done;
        case 2:
            return Outcome::Refused;
        default:
            return Outcome::Pending;
        }
    }
    /// Makes ImGui's own copy and paste (Ctrl+C, Ctrl+V in text fields) use this clipboard.
    /// After the GLFW backend is set up, which installs its own (empty in Emscripten) functions.
    void Install() {
        ImGuiIO& io = ImGui::GetIO();
        io.ClipboardUserData = this;
        io.SetClipboardTextFn = [](void* self, const char* text) {
            static_cast<PageClipboard*>(self)->Copy(text);
        };
        io.GetClipboardTextFn = [](void*) { return ""; };
    }

private:
    long copies_ = 0;
};

} // namespace pelab
