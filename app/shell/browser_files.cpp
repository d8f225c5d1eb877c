#include "shell/browser_files.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <cstdlib>

namespace {

// The picker's answer lives in Module.pelabPick until it is taken: {state, path}, state
// "waiting", "chosen" or "cancelled" (Chromium tells a closed picker by its "cancel" event).
// The JavaScript is kept as written (clang-format would split its arrows and ===). The file's
// name loses its path separators, named by their codes (no backslash can be written in EM_JS).
// clang-format off
EM_JS(void, OpenPicker, (const char* accept), {
    const input = document.createElement("input");
    input.type = "file";
    input.accept = UTF8ToString(accept);
    const pick = {state: "waiting", path: ""};
    Module.pelabPick = pick;
    input.addEventListener("cancel", () => { pick.state = "cancelled"; });
    input.addEventListener("change", () => {
        const file = input.files && input.files[0];
        if (!file) {
            pick.state = "cancelled";
            return;
        }
        file.arrayBuffer().then((buffer) => {
            FS.mkdirTree("/uploads");
            const name = file.name.split(String.fromCharCode(47)).join("_")
                             .split(String.fromCharCode(92)).join("_");
            const path = "/uploads/" + (name || "file");
            FS.writeFile(path, new Uint8Array(buffer));
            pick.path = path;
            pick.state = "chosen";
        }, () => { pick.state = "cancelled"; });
    });
    input.click();
});

// 0 waiting, 1 chosen (*path: malloc'd), 2 cancelled or nothing asked.
EM_JS(int, TakePick, (char** path), {
    const pick = Module.pelabPick;
    if (!pick || pick.state === "cancelled") {
        Module.pelabPick = null;
        return 2;
    }
    if (pick.state === "waiting") return 0;
    Module.pelabPick = null;
    HEAP32[path >> 2] = allocateUTF8(pick.path);
    return 1;
});
// clang-format on

} // namespace
#endif

namespace pelab {

void BrowserPickFile(const std::vector<std::string>& extensions) {
#ifdef __EMSCRIPTEN__
    std::string accept;
    for (const std::string& extension : extensions)
        accept += (accept.empty() ? "" : ",") + extension;
    OpenPicker(accept.c_str());
#else
    (void)extensions;
#endif
}

BrowserPick TakeBrowserPick(std::string* path) {
#ifdef __EMSCRIPTEN__
    char* chosen = nullptr;
    const int state = TakePick(&chosen);
    if (state == 0) return BrowserPick::Waiting;
    if (state == 2) return BrowserPick::Cancelled;
    *path = chosen;
    std::free(chosen);
    return BrowserPick::Chosen;
#else
    (void)path;
    return BrowserPick::Cancelled;
#endif
}

} // namespace pelab
