// web_page.cpp — the page's side of the browser edition, through JavaScript (EM_JS): its size,
// local storage, the address's fragment, downloads, the clipboard. web_page.h declares each
// function for web_main.cpp; the JavaScript lives here alone.
#include "web/web_page.h"

#include <emscripten.h>
#include <imgui.h>

#include <cstdlib>
#include <string>

// ---- The page, through JavaScript (each returns malloc'd text the caller frees) ----
// The JavaScript is kept as written: clang-format would split its arrows and ===.
// clang-format off

// The page's size in the screen's pixels: devicePixelRatio of them per CSS pixel (2 on most
// HiDPI laptops, 1.25 to 2 on Chromebooks, more with the browser's zoom). The canvas has that
// many pixels and fills the page in CSS pixels (shell.html), and the text is scaled by the
// same ratio (Platform::ContentScale), so it is drawn at the screen's resolution.
EM_JS(int, PageWidth, (), {
    return Math.max(1, Math.round(window.innerWidth * (window.devicePixelRatio || 1)));
});
EM_JS(int, PageHeight, (), {
    return Math.max(1, Math.round(window.innerHeight * (window.devicePixelRatio || 1)));
});

EM_JS(char*, StorageGet, (const char* key), {
    let value = null;
    try {
        value = window.localStorage.getItem(UTF8ToString(key));
    } catch (e) {
        // Storage blocked (a private window, file:// in some browsers): nothing kept.
    }
    if (value === null) return 0;
    return allocateUTF8(value);
});

EM_JS(int, StorageSet, (const char* key, const char* value), {
    try {
        window.localStorage.setItem(UTF8ToString(key), UTF8ToString(value));
        return 1;
    } catch (e) {
        return 0; // full, or blocked
    }
});

// Every key of the site's storage that starts with prefix, as a JSON array.
EM_JS(char*, StorageKeys, (const char* prefix_text), {
    const prefix = UTF8ToString(prefix_text);
    const keys = [];
    try {
        for (let i = 0; i < window.localStorage.length; ++i) {
            const key = window.localStorage.key(i);
            if (key !== null && key.startsWith(prefix)) keys.push(key);
        }
    } catch (e) {
    }
    return allocateUTF8(JSON.stringify(keys));
});

EM_JS(void, StorageRemove, (const char* key), {
    try {
        window.localStorage.removeItem(UTF8ToString(key));
    } catch (e) {
    }
});

// The address's fragment once, then only when the person changed it (a pasted link): the page
// keeps the last one it saw or wrote in Module.pelabHash.
EM_JS(char*, TakeNewFragment, (), {
    const hash = window.location.hash || "";
    if (Module.pelabHash === hash) return 0;
    Module.pelabHash = hash;
    return allocateUTF8(hash);
});

EM_JS(void, ReplaceFragment, (const char* fragment), {
    const hash = UTF8ToString(fragment);
    Module.pelabHash = hash;
    const url = window.location.href.split("#")[0] + hash;
    try {
        window.history.replaceState(null, "", url);
    } catch (e) {
        window.location.replace(url); // file:// pages in some browsers
    }
});

// Hands the file to the browser as a download.
EM_JS(void, Download, (const char* path_text), {
    const path = UTF8ToString(path_text);
    const bytes = FS.readFile(path);
    const name = path.substring(path.lastIndexOf("/") + 1);
    const type = name.endsWith(".png") ? "image/png"
               : name.endsWith(".csv") ? "text/csv" : "application/json";
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([bytes], {type: type}));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    if (Module.onPelabDownload) Module.onPelabDownload(name, bytes);
});

EM_JS(void, PublishSession, (void* session), { Module.pelabSession = session; });

EM_JS(void, MarkFirstFrame, (), { Module.pelabFirstFrame = performance.now(); });

// The clipboard through the page (shell.html's pelabClipboard): Emscripten's GLFW has none.
EM_JS(void, PageCopy, (int copy, const char* text), {
    window.pelabClipboard.copy(copy, UTF8ToString(text));
});
// 0: done, 1: not known yet, 2: refused.
EM_JS(int, PageCopyOutcome, (int copy), {
    const outcome = window.pelabClipboard.copies[copy];
    return outcome === "done" ? 0 : outcome === "refused" ? 2 : 1;
});

// The address's query: "?bench", "?rects" and "?onframe" (below) are for the measurements
// and the tests.
EM_JS(char*, PageQuery, (), { return allocateUTF8(window.location.search || ""); });
// clang-format on

namespace pelab {

std::string TakeText(char* text) {
    if (text == nullptr) return {};
    std::string out(text);
    std::free(text);
    return out;
}

} // namespace pelab
