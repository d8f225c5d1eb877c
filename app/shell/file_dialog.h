// file_dialog.h — choosing a file to open or save. The desktop's own chooser (zenity or kdialog)
// runs as a child process when one is installed and a display is set, and the frames go on
// while it is open; when there is none, or it fails, PE Lab's own dialog (a path field and a
// folder listing) does the same job. Missing tools never hang or stop the app.
//
// PELAB_FILE_CHOOSER=builtin | zenity | kdialog chooses one (tests use it); unset: the first of
// zenity, kdialog found on PATH, else the builtin dialog.
#pragma once

#include "shell/chooser_process.h"

#include "widgets/frame.h"

#include <sys/types.h>

#include <string>
#include <vector>

namespace pelab {

struct FileDialogRequest {
    std::string title;                   ///< "Open scene", "Save scene as", …
    bool save = false;                   ///< a file to write (may not exist yet)
    std::vector<std::string> extensions; ///< shown in the listing, e.g. {".json", ".png"}
    std::string folder;                  ///< where to start ("" = the current folder)
    std::string suggested_name;          ///< the file name a save starts with
};

/// One entry of the builtin dialog's folder listing.
struct FolderEntry {
    std::string name;
    bool is_folder = false;
};

/// The folder's visible entries (no dot files): folders first, then files with one of the
/// extensions (all files when none), each group sorted by name; the first max_entries of that
/// order, *left_out (when given) counting the rest. Returns "" or why the folder cannot be
/// listed.
std::string ListFolder(const std::string& folder, const std::vector<std::string>& extensions,
                       std::size_t max_entries, std::vector<FolderEntry>* out,
                       std::size_t* left_out = nullptr);
/// Indices of the entries whose name holds filter, ignoring case (all when filter is "").
std::vector<std::size_t> FilterEntries(const std::vector<FolderEntry>& entries,
                                       const std::string& filter);

class FileDialog {
public:
    FileDialog() = default;
    ~FileDialog();
    FileDialog(const FileDialog&) = delete;
    FileDialog& operator=(const FileDialog&) = delete;

    /// Starts choosing: the desktop's chooser when there is one, else the builtin dialog.
    void Open(const FileDialogRequest& request);
    /// The builtin dialog whatever is installed (after a chooser failed, or for tests).
    void OpenBuiltin(const FileDialogRequest& request, std::string message = {});
    bool IsOpen() const { return builtin_open_ || Waiting(); }
    /// A chooser is running (a child process, or the browser's picker): the session keeps
    /// drawing frames to notice its answer.
    bool Waiting() const {
        return chooser_.Running() || browser_picking_ || !browser_answer_.empty();
    }
    /// Frames are needed now: a chooser runs, or the dialog is appearing or closing.
    bool NeedsFrames() const { return Waiting() || frames_owed_ > 0; }
    /// Draws the dialog (or the "waiting for the chooser" note) while open. Returns true, once,
    /// with the chosen path in *path; the dialog then stays open until Close() (the file was
    /// used) or Fail(why) (it was not: the builtin dialog shows why and lets the user retry).
    bool Draw(FrameContext& frame, std::string* path);
    void Close();
    void Fail(const std::string& why);
    /// Which chooser Open() uses: "builtin", "browser" (the browser edition), or the program's
    /// name.
    static std::string ChooserName();
    /// The builtin dialog's filter, as if typed; and the names it lists now, in order.
    void SetFilter(const std::string& filter);
    std::vector<std::string> ShownNames() const;

private:
    void StartChooser(const std::string& program);
    /// The browser edition: PE Lab's own dialog over the page's files to open (with a button
    /// for the browser's picker); a download of the suggested name to save
    /// (shell/browser_files.h).
    void StartBrowserChooser();
    /// The browser's file picker, for a file on the student's computer.
    void PickFromComputer();
    /// The note shown while a chooser is up, with Cancel.
    void DrawWaitingNote(FrameContext& frame, const std::string& chooser);
    /// Ends the desktop's chooser, or forgets the browser's picker.
    void StopChooser();
    void Refresh();
    bool DrawBuiltin(FrameContext& frame, std::string* path);
    // The built-in dialog's parts: each returns whether a file was chosen (into *path).
    bool DrawListing(FrameContext& frame, std::string* path);
    void DrawCounts(FrameContext& frame) const;
    bool DrawPathField(FrameContext& frame, std::string* path);
    bool Accept(std::string* path);

    FileDialogRequest request_;
    bool builtin_open_ = false;
    bool popup_pending_ = false; ///< OpenPopup on the next Draw (ids must match Begin's)
    bool close_pending_ = false; ///< CloseCurrentPopup on the next Draw
    bool refocus_field_ = false; ///< SetKeyboardFocusHere on the path field next frame
    int frames_owed_ = 0;        ///< frames still to draw for an opening or closing popup
    std::string field_;          ///< the path field
    std::string folder_;         ///< the listing's folder, absolute
    std::vector<FolderEntry> entries_;
    std::size_t left_out_ = 0;       ///< entries past the listing's limit
    std::string filter_;             ///< the filter field
    std::vector<std::size_t> shown_; ///< entries_ indices that hold the filter, in order
    std::string listing_error_;
    std::string message_; ///< why the last choice was refused
    bool confirm_replace_ = false;
    bool answered_ = false;  ///< a path was returned; waiting for Close or Fail
    ChooserProcess chooser_; ///< the desktop's chooser while it runs
    std::string chooser_program_;
    bool browser_picking_ = false; ///< the browser's file picker is up
    std::string browser_answer_;   ///< a save's path in the download folder, for the next Draw
};

} // namespace pelab
