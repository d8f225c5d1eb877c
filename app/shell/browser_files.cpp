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
    // Several files at once: a checkpoint's weights with its config.json beside them.
    input.multiple = true;
    // The pick holds the input: a detached element no one refers to may be collected while
    // the picker is open (seen when a test answered the picker through DevTools: "No node
    // found for given backend id").
    const pick = {state: "waiting", path: "", input: input};
    Module.pelabPick = pick;
    input.addEventListener("cancel", () => { pick.state = "cancelled"; });
    input.addEventListener("change", () => {
        const files = input.files ? Array.from(input.files) : [];
        if (!files.length) {
            pick.state = "cancelled";
            return;
        }
        // The page holds what it opens in memory: at most 1 GiB in all (docs/web.md).
        const total = files.reduce((sum, file) => sum + file.size, 0);
        const limit = 1024 * 1024 * 1024;
        if (total > limit) {
            window.alert("PE Lab in the browser opens at most 1 GiB at a time (it keeps the " +
                         "files in the page's memory); these are " +
                         (total / limit).toFixed(2) + " GiB. Open them in the desktop app.");
            pick.state = "cancelled";
            return;
        }
        Promise.all(files.map((file) => file.arrayBuffer().then((buffer) => [file, buffer])))
            .then((pairs) => {
                FS.mkdirTree("/uploads");
                let path = "";
                let weights = false;
                for (const pair of pairs) {
                    const file = pair[0];
                    const buffer = pair[1];
                    const name = file.name.split(String.fromCharCode(47)).join("_")
                                     .split(String.fromCharCode(92)).join("_");
                    const copy = "/uploads/" + (name || "file");
                    FS.writeFile(copy, new Uint8Array(buffer));
                    const lower = name.toLowerCase();
                    const is_weights = lower.endsWith(".safetensors") || lower.endsWith(".npy") ||
                                       lower.endsWith(".gguf") ||
                                       lower.endsWith(".safetensors.index.json");
                    if (!path || (is_weights && !weights)) path = copy;
                    weights = weights || is_weights;
                }
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
