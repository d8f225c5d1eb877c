// browser_files.h — files in the browser edition (docs/web.md): the page cannot see the
// computer's folders, so File → Open asks the browser's own file picker, which copies the chosen
// file into the page's file system, and a file the app saves becomes a download. On the desktop
// these do nothing (kInBrowser is false and the file dialog never calls them).
#pragma once

#include <string>
#include <vector>

namespace pelab {

#ifdef __EMSCRIPTEN__
inline constexpr bool kInBrowser = true;
#else
inline constexpr bool kInBrowser = false;
#endif

/// Where the app writes what it saves or exports in the browser: the page hands every file that
/// appears there to the browser as a download (app/web/web_main.cpp).
inline constexpr const char* kDownloadFolder = "/downloads";
/// Where a file chosen in the browser's picker is copied: /uploads/<its name>.
inline constexpr const char* kUploadFolder = "/uploads";

/// Opens the browser's file picker for one file with one of the extensions (".json").
void BrowserPickFile(const std::vector<std::string>& extensions);

enum class BrowserPick { Waiting, Chosen, Cancelled };
/// The picker's answer so far: Chosen (once, with the copy's path), Cancelled, or Waiting.
BrowserPick TakeBrowserPick(std::string* path);

} // namespace pelab
