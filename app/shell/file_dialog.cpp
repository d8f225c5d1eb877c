#include "shell/file_dialog.h"
#include "shell/browser_files.h"
#include "shell/chooser_process.h"
#include "widgets/layout.h"

#include "widgets/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace pelab {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPopupId = "###file_dialog"; // the title may change; the id not
// Entries kept for one folder: the first kMaxListing by name (listed through a clipper, so a
// frame draws only the rows in view); folders with more say how many are left out.
constexpr std::size_t kMaxListing = 200000;

bool HasExtension(const std::string& name, const std::vector<std::string>& extensions) {
    if (extensions.empty()) return true;
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const std::string& extension : extensions)
        if (lower.size() >= extension.size() &&
            lower.compare(lower.size() - extension.size(), extension.size(), extension) == 0)
            return true;
    return false;
}

// The folder a path field names: relative paths are taken from the listed folder.
fs::path Resolve(const std::string& folder, const std::string& field) {
    fs::path path(field);
    if (path.is_relative()) path = fs::path(folder) / path;
    return path.lexically_normal();
}

std::string CurrentFolder() {
    std::error_code error;
    const fs::path here = fs::current_path(error);
    return error ? std::string("/") : here.string();
}

} // namespace

std::string ListFolder(const std::string& folder, const std::vector<std::string>& extensions,
                       std::size_t max_entries, std::vector<FolderEntry>* out,
                       std::size_t* left_out) {
    out->clear();
    if (left_out) *left_out = 0;
    std::error_code error;
    fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, error);
    if (error) return "cannot list \"" + folder + "\": " + error.message();
    std::vector<FolderEntry> entries;
    for (; it != fs::directory_iterator(); it.increment(error)) {
        if (error) return "cannot list \"" + folder + "\": " + error.message();
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code type_error;
        if (it->is_directory(type_error))
            entries.push_back({name, true});
        else if (HasExtension(name, extensions))
            entries.push_back({name, false});
    }
    // Folders first, each group by name; then the first max_entries of that order are kept.
    std::sort(entries.begin(), entries.end(), [](const FolderEntry& a, const FolderEntry& b) {
        return a.is_folder != b.is_folder ? a.is_folder : a.name < b.name;
    });
    if (entries.size() > max_entries) {
        if (left_out) *left_out = entries.size() - max_entries;
        entries.resize(max_entries);
    }
    *out = std::move(entries);
    return {};
}

std::vector<std::size_t> FilterEntries(const std::vector<FolderEntry>& entries,
                                       const std::string& filter) {
    const auto lower = [](std::string text) {
        for (char& c : text)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return text;
    };
    const std::string wanted = lower(filter);
    std::vector<std::size_t> shown;
    shown.reserve(entries.size());
    for (std::size_t k = 0; k < entries.size(); ++k)
        if (wanted.empty() || lower(entries[k].name).find(wanted) != std::string::npos)
            shown.push_back(k);
    return shown;
}

FileDialog::~FileDialog() {
    StopChooser();
}

std::string FileDialog::ChooserName() {
    if (kInBrowser) return "browser";
    const char* forced = std::getenv("PELAB_FILE_CHOOSER");
    if (forced && *forced) {
        std::string name = forced;
        if (name == "zenity" || name == "kdialog") return name;
        return "builtin";
    }
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if (!(display && *display) && !(wayland && *wayland)) return "builtin";
    for (const char* program : {"zenity", "kdialog"})
        if (OnPath(program)) return program;
    return "builtin";
}

void FileDialog::Open(const FileDialogRequest& request) {
    StopChooser();
    request_ = request;
    if (request_.folder.empty()) request_.folder = CurrentFolder();
    const std::string chooser = ChooserName();
    if (chooser == "builtin") {
        OpenBuiltin(request_);
        return;
    }
    if (chooser == "browser") {
        StartBrowserChooser();
        return;
    }
    StartChooser(chooser);
}

void FileDialog::StartBrowserChooser() {
    answered_ = false;
    if (request_.save) {
        // The browser asks where downloads go (or puts them in Downloads): the app writes the
        // file where the page hands it over.
        const std::string name = fs::path(request_.suggested_name).filename().string();
        browser_answer_ = (fs::path(kDownloadFolder) / (name.empty() ? "pelab" : name)).string();
        std::error_code ignored;
        fs::create_directories(kDownloadFolder, ignored);
        return;
    }
    // PE Lab's own dialog first: it lists the lessons, scenes and runs the page carries, and
    // its "From your computer…" opens the browser's picker (PickFromComputer).
    OpenBuiltin(request_);
}

void FileDialog::PickFromComputer() {
    BrowserPickFile(request_.extensions);
    browser_picking_ = true;
}

void FileDialog::OpenBuiltin(const FileDialogRequest& request, std::string message) {
    StopChooser();
    request_ = request;
    if (request_.folder.empty()) request_.folder = CurrentFolder();
    folder_ = fs::path(request_.folder).lexically_normal().string();
    field_ = request_.save ? request_.suggested_name : std::string();
    message_ = std::move(message);
    confirm_replace_ = false;
    answered_ = false;
    builtin_open_ = true;
    popup_pending_ = true;
    frames_owed_ = 3; // a popup shows on the frame after it opens: keep frames coming
    Refresh();
}

void FileDialog::StartChooser(const std::string& program) {
    chooser_program_ = program;
    answered_ = false;
    const std::string start = (fs::path(request_.folder) / request_.suggested_name).string();
    std::string patterns;
    for (const std::string& extension : request_.extensions)
        patterns += (patterns.empty() ? "*" : " *") + extension;
    std::vector<std::string> args{program};
    if (program == "zenity") {
        args.push_back("--file-selection");
        args.push_back("--title=" + request_.title);
        if (request_.save) {
            args.push_back("--save");
            args.push_back("--confirm-overwrite");
        }
        args.push_back("--filename=" + (request_.save ? start : request_.folder + "/"));
        if (!patterns.empty()) args.push_back("--file-filter=" + patterns);
    } else {
        args.push_back(request_.save ? "--getsavefilename" : "--getopenfilename");
        args.push_back(request_.save ? start : request_.folder);
        if (!patterns.empty()) args.push_back(patterns);
        args.push_back("--title");
        args.push_back(request_.title);
    }
    const std::string failed = chooser_.Start(args);
    if (!failed.empty())
        OpenBuiltin(request_,
                    "could not start " + program + " (" + failed + "); using PE Lab's own dialog");
}

void FileDialog::StopChooser() {
    browser_picking_ = false;
    browser_answer_.clear();
    chooser_.Stop();
}

void FileDialog::Close() {
    StopChooser();
    close_pending_ = builtin_open_;
    frames_owed_ = 3;
    builtin_open_ = false;
    answered_ = false;
    message_.clear();
}

void FileDialog::Fail(const std::string& why) {
    if (builtin_open_) {
        message_ = why;
        answered_ = false;
        confirm_replace_ = false;
        return;
    }
    // The desktop's chooser gave a path the app could not use: say why where the user can
    // choose again.
    FileDialogRequest request = request_;
    OpenBuiltin(request, why);
}

void FileDialog::Refresh() {
    listing_error_ = ListFolder(folder_, request_.extensions, kMaxListing, &entries_, &left_out_);
    filter_.clear();
    shown_ = FilterEntries(entries_, filter_);
}

void FileDialog::SetFilter(const std::string& filter) {
    filter_ = filter;
    shown_ = FilterEntries(entries_, filter_);
}

std::vector<std::string> FileDialog::ShownNames() const {
    std::vector<std::string> names;
    for (const std::size_t k : shown_)
        names.push_back(entries_[k].name);
    return names;
}

bool FileDialog::Accept(std::string* path) {
    if (field_.empty()) {
        message_ = request_.save ? "type a file name" : "choose a file";
        return false;
    }
    const fs::path chosen = Resolve(folder_, field_);
    std::error_code error;
    if (fs::is_directory(chosen, error)) {
        folder_ = chosen.string();
        field_.clear();
        message_.clear();
        Refresh();
        return false;
    }
    if (!request_.save && !fs::exists(chosen, error)) {
        message_ = "there is no file \"" + chosen.string() + "\"";
        return false;
    }
    if (request_.save && fs::exists(chosen, error) && !confirm_replace_) {
        message_ = "\"" + chosen.filename().string() + "\" exists: press Replace to write over it";
        confirm_replace_ = true;
        return false;
    }
    *path = chosen.string();
    answered_ = true;
    message_.clear();
    return true;
}

bool FileDialog::Draw(FrameContext& frame, std::string* path) {
    if (frames_owed_ > 0) --frames_owed_;
    if (!browser_answer_.empty()) {
        *path = browser_answer_;
        browser_answer_.clear();
        answered_ = true;
        return true;
    }
    if (browser_picking_) {
        switch (TakeBrowserPick(path)) {
        case BrowserPick::Chosen:
            browser_picking_ = false;
            answered_ = true;
            return true;
        case BrowserPick::Cancelled:
            browser_picking_ = false;
            return false;
        case BrowserPick::Waiting:
            DrawWaitingNote(frame, "browser's file picker");
            return false;
        }
    }
    if (chooser_.Running()) {
        int status = 0;
        if (chooser_.Poll(&status)) {
            // zenity and kdialog print the path and exit 0, or exit 1 when cancelled.
            std::string chosen = chooser_.Output();
            while (!chosen.empty() && (chosen.back() == '\n' || chosen.back() == '\r'))
                chosen.pop_back();
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !chosen.empty() &&
                chosen.find('\n') == std::string::npos) {
                *path = chosen;
                answered_ = true;
                return true;
            }
            if (WIFEXITED(status) && WEXITSTATUS(status) == 1) return false; // cancelled
            const std::string why = !WIFEXITED(status) ? "it stopped on a signal"
                                    : WEXITSTATUS(status) != 0
                                        ? "exit status " + std::to_string(WEXITSTATUS(status))
                                    : chosen.empty() ? "it answered with no path"
                                                     : "it answered with more than one line";
            OpenBuiltin(request_, chooser_program_ + " did not work (" + why +
                                      "); using PE Lab's own dialog");
        } else {
            DrawWaitingNote(frame, chooser_program_);
            return false;
        }
    }
    if (close_pending_) {
        // ImGui closes a popup only from inside it.
        close_pending_ = false;
        if (ImGui::BeginPopupModal((request_.title + kPopupId).c_str())) {
            ImGui::CloseCurrentPopup();
            ImGui::EndPopup();
        }
    }
    if (!builtin_open_) return false;
    return DrawBuiltin(frame, path);
}

// A small note while the desktop's dialog (or the browser's picker) is up, with a way out should
// it hide.
void FileDialog::DrawWaitingNote(FrameContext& frame, const std::string& chooser) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(
        ImVec2(viewport->GetCenter().x, viewport->Pos.y + ImGui::GetFrameHeight() * 2),
        ImGuiCond_Always, ImVec2(0.5f, 0.0f));
    ImGui::Begin("##chooser_waiting", nullptr,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoDecoration |
                     ImGuiWindowFlags_NoSavedSettings);
    ImGui::Text("%s: choose the file in the %s window", request_.title.c_str(), chooser.c_str());
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) StopChooser();
    frame.Record("file.chooser_cancel");
    ImGui::End();
}

// The folder's entries (a click selects a file or enters a folder; a double-click opens);
// true when one was opened.
bool FileDialog::DrawListing(FrameContext& frame, std::string* path) {
    bool chosen = false;
    const float footer = ImGui::GetFrameHeightWithSpacing() * 3 + ImGui::GetTextLineHeight() * 2;
    if (ImGui::BeginChild("##listing", ImVec2(0, -footer), true)) {
        if (!listing_error_.empty()) ErrorText(frame, listing_error_.c_str());
        std::string enter_folder;
        // Only the rows in view are drawn: a folder of 100 000 files costs what 30 rows cost.
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(shown_.size()));
        while (clipper.Step())
            for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
                const std::size_t k = shown_[static_cast<std::size_t>(row)];
                const FolderEntry& entry = entries_[k];
                const std::string label = entry.is_folder ? entry.name + "/" : entry.name;
                ImGui::PushID(static_cast<int>(k));
                const bool selected = !entry.is_folder && field_ == entry.name;
                // A double-click opens only the file its first click selected (not the file
                // that moved under the pointer when that click entered a folder).
                if (ImGui::Selectable(label.c_str(), selected,
                                      ImGuiSelectableFlags_AllowDoubleClick)) {
                    if (entry.is_folder) {
                        enter_folder = entry.name;
                    } else {
                        field_ = entry.name;
                        confirm_replace_ = false;
                        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && selected)
                            chosen = Accept(path);
                    }
                }
                if (frame.recorder.enabled) frame.Record(("file.entry." + entry.name).c_str());
                ImGui::PopID();
            }
        if (entries_.empty() && listing_error_.empty())
            ImGui::TextDisabled(request_.extensions.empty() ? "(empty folder)"
                                                            : "(no matching files here)");
        else if (shown_.empty() && listing_error_.empty())
            ImGui::TextDisabled("(no name here holds \"%s\")", filter_.c_str());
        if (!enter_folder.empty()) {
            folder_ = (fs::path(folder_) / enter_folder).string();
            Refresh();
        }
    }
    ImGui::EndChild();
    return chosen;
}

// How much of the folder the listing holds, so that nothing is missing without a word.
void FileDialog::DrawCounts(FrameContext& frame) const {
    char counts[200];
    if (left_out_ > 0)
        std::snprintf(counts, sizeof counts,
                      "%zu of %zu entries shown, sorted by name; %zu more are not listed: type to "
                      "filter or a path below",
                      shown_.size(), entries_.size() + left_out_, left_out_);
    else if (!filter_.empty())
        std::snprintf(counts, sizeof counts, "%zu of %zu entries hold \"%s\"", shown_.size(),
                      entries_.size(), filter_.c_str());
    else
        std::snprintf(counts, sizeof counts, "%zu entries, folders first, sorted by name",
                      entries_.size());
    ImGui::TextDisabled("%s", counts);
    frame.Record("file.counts");
}

// The path field (Enter accepts); true when it did.
bool FileDialog::DrawPathField(FrameContext& frame, std::string* path) {
    bool chosen = false;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(request_.save ? "Save as" : "File");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    // Back in the field after a refused Enter, so that Enter again (Replace) works.
    if (ImGui::IsWindowAppearing() || refocus_field_) ImGui::SetKeyboardFocusHere();
    refocus_field_ = false;
    if (ImGui::InputText("##path", &field_, ImGuiInputTextFlags_EnterReturnsTrue)) {
        chosen = Accept(path);
        refocus_field_ = !chosen;
    } else if (ImGui::IsItemEdited())
        confirm_replace_ = false;
    frame.Record("file.path");
    // Typing may start only once the keyboard is in the field: the focus asked for when the
    // dialog appears arrives a frame later, and keys pressed before it go elsewhere.
    if (ImGui::IsItemActive())
        frame.Record("file.path_typing");
    else
        frame.recorder.rects.erase("file.path_typing");
    return chosen;
}

bool FileDialog::DrawBuiltin(FrameContext& frame, std::string* path) {
    if (popup_pending_) {
        ImGui::OpenPopup(kPopupId);
        popup_pending_ = false;
    }
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowPos(viewport->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(em * 40, viewport->Size.x * 0.95f),
                                    std::min(em * 30, viewport->Size.y * 0.9f)),
                             ImGuiCond_Appearing);
    const std::string title = request_.title + std::string(kPopupId);
    bool open = true;
    if (!ImGui::BeginPopupModal(title.c_str(), &open, ImGuiWindowFlags_NoSavedSettings)) {
        builtin_open_ = false; // closed by ImGui (the title bar's ×)
        return false;
    }
    KeepWindowInViewport();
    bool chosen = false;
    if (ImGui::Button("Up")) {
        folder_ = fs::path(folder_).parent_path().string();
        if (folder_.empty()) folder_ = "/";
        Refresh();
    }
    frame.Record("file.up");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", folder_.c_str());
    // Filter as you type: entries whose name holds the text, whatever the case.
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputTextWithHint("##filter", "type to filter this folder", &filter_))
        shown_ = FilterEntries(entries_, filter_);
    frame.Record("file.filter");
    chosen = DrawListing(frame, path) || chosen;
    DrawCounts(frame);
    chosen = DrawPathField(frame, path) || chosen;
    if (!message_.empty())
        ErrorText(frame, message_.c_str());
    else
        ImGui::TextDisabled("A path relative to the folder above, or absolute; Enter accepts.");
    const char* accept_label = request_.save ? (confirm_replace_ ? "Replace" : "Save") : "Open";
    if (ImGui::Button(accept_label)) chosen = Accept(path);
    frame.Record("file.accept");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || !open ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        builtin_open_ = false;
        ImGui::CloseCurrentPopup();
    }
    frame.Record("file.cancel");
    if (kInBrowser && !request_.save && builtin_open_) {
        ImGui::SameLine();
        if (ImGui::Button("From your computer…")) {
            PickFromComputer();
            builtin_open_ = false;
            ImGui::CloseCurrentPopup();
        }
        frame.Record("file.from_computer");
    }
    if (!builtin_open_) {
        ImGui::EndPopup();
        return false;
    }
    ImGui::EndPopup();
    return chosen;
}

} // namespace pelab
