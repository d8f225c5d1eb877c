# Shared helpers for the end-to-end tests: a private Xvfb, the real pelab window, real input
# through xdotool, screenshots of the real screen with ImageMagick's `import`.
# Usage in a test: source lib.sh; e2e_setup NAME "$@"; … ; e2e_pass
set -Eeuo pipefail # -E: the ERR trap below also fires inside functions

e2e_fail() { echo "E2E FAIL [$E2E_NAME]: $*" >&2; exit 1; }
e2e_note() { echo "[$E2E_NAME] $*"; }

# Any failing command (set -e) says where, and what pelab printed, before the script ends.
e2e_on_error() {
    echo "E2E FAIL [${E2E_NAME:-?}]: command failed at line $1: $2" >&2
    if [[ -n "${E2E_APP_PID:-}" ]] && ! kill -0 "$E2E_APP_PID" 2>/dev/null; then
        local code=0
        wait "$E2E_APP_PID" || code=$?
        echo "pelab is gone (exit code $code)" >&2
    fi
    [[ -f "${E2E_TMP:-}/app.err" ]] && sed 's/^/pelab stderr: /' "$E2E_TMP/app.err" >&2
    return 0
}
trap 'e2e_on_error $LINENO "$BASH_COMMAND"' ERR

# Stops a child process and waits until it has exited, so that the next test's X server never
# meets this one still shutting down on the same display number. (Both are children of this
# script, so `wait` is exact; CTest's per-test timeout guards against a hang.)
e2e_stop() {
    kill "$1" 2>/dev/null || return 0
    wait "$1" 2>/dev/null || true
}

e2e_cleanup() {
    if [[ -n "${E2E_APP_PID:-}" ]]; then e2e_stop "$E2E_APP_PID"; fi
    if [[ -n "${E2E_XVFB_PID:-}" ]]; then e2e_stop "$E2E_XVFB_PID"; fi
    rm -rf "${E2E_TMP:-/nonexistent}"
}

# e2e_setup NAME PELAB_BINARY SCREENSHOT_DIR
e2e_setup() {
    E2E_NAME=$1
    PELAB=$(realpath "$2")
    SHOTS=$(realpath -m "$3")
    mkdir -p "$SHOTS"
    for tool in Xvfb xdotool import compare identify; do
        command -v "$tool" >/dev/null || e2e_fail "$tool is missing (scripts/test.sh installs it)"
    done
    E2E_TMP=$(mktemp -d)
    trap e2e_cleanup EXIT
    # The waits below nap on a FIFO nobody writes (`read -t`): no `sleep` process per poll.
    mkfifo "$E2E_TMP/tick"
    exec {E2E_TICK}<>"$E2E_TMP/tick"
    # A clean home: no saved layout or settings from the developer's own runs.
    export HOME=$E2E_TMP/home XDG_CONFIG_HOME=$E2E_TMP/home/.config
    mkdir -p "$HOME"
    # Settings that say this is not the first run (which opens on "Start here"): the tests start
    # from the tiled panels, as a returning user does; test_start.sh removes them.
    mkdir -p "$XDG_CONFIG_HOME/pelab"
    printf '[PELab][View]\nTheme=dark\n' >"$XDG_CONFIG_HOME/pelab/imgui.ini"
    # -displayfd: Xvfb picks a free display number and writes it to the descriptor (a FIFO).
    # -noreset: when the last client leaves (one pelab quits, the next starts) the server would
    # reset, and a client connecting during the reset is refused ("Failed to open display").
    mkfifo "$E2E_TMP/display"
    exec {fd}<>"$E2E_TMP/display"
    # E2E_SCREEN: the screen's size (the room: 1024x768x24); 1600x1000 by default.
    Xvfb -displayfd "$fd" -screen 0 "${E2E_SCREEN:-1600x1000x24}" -nolisten tcp -noreset >"$E2E_TMP/xvfb.log" 2>&1 &
    E2E_XVFB_PID=$!
    local number=""
    read -r -t 20 -u "$fd" number || e2e_fail "Xvfb did not start: $(cat "$E2E_TMP/xvfb.log")"
    exec {fd}<&-
    [[ "$number" =~ ^[0-9]+$ ]] || e2e_fail "Xvfb reported display '$number': $(cat "$E2E_TMP/xvfb.log")"
    export DISPLAY=":$number"
    unset WAYLAND_DISPLAY
    e2e_note "Xvfb on $DISPLAY (pid $E2E_XVFB_PID)"
}

# --- Waiting on what PE Lab and its X server do, never on a fixed sleep -----------------------
# A loaded machine (the suite's other lanes, CI) can hold a frame back for a second or more, so
# the scripts wait for states they can observe. Two come from /proc and need nothing of the app:
#  - at rest (e2e_settle): PE Lab's main thread blocked in ppoll, GLFW's wait for events (between
#    two owed frames it sleeps in clock_nanosleep instead, up to 0.25 s), no thread of PE Lab or
#    of the X server runnable, and not one context switch in either for 3 polls in a row (7 where
#    the system call cannot be read, 0.3 s: longer than any pause between two frames): every
#    input sent has been read, every frame owed to it drawn, and the screen holds the result;
#  - a frame begun on an input (_e2e_send): the main thread has read from its X connection
#    since the event was sent, and made three requests after that. GLFW hands the event to the
#    app and Dear ImGui while it reads its events; the frame then starts with round trips of the
#    ImGui backend (window size, framebuffer size, focus, pointer: four or more, all before
#    ImGui::NewFrame). Only the first key event of a process costs a round trip or two of its
#    own (Xlib fetches the keyboard map while handling it), hence three. A release sent then is
#    handled by the next frame's event loop, never the one that is handling the press.
# Dear ImGui 1.86 polls key state once per frame: a key pressed and released within one pass of
# the event loop is lost, and a key held over slow frames repeats. So a key is sent from rest,
# one event at a time (a combination's keys could be read by two frames), and released as soon as
# a frame has begun on its press.
case $(uname -m) in
aarch64 | arm64) E2E_WAIT_SYSCALLS="73" ;; # ppoll
*) E2E_WAIT_SYSCALLS="271" ;;            # x86_64: ppoll (Xlib's wait for a reply is poll, 7)
esac

e2e_nap() { read -r -t "$1" -u "$E2E_TICK" _ || true; } # SECONDS

# Sets E2E_SC E2E_R E2E_W: the main thread's system call (a number, "running", "unknown" or
# "gone") and its read and write calls so far. The system call is unknown where a ptrace rule
# hides it (Yama's ptrace_scope 1 shows it to ancestors only, and some waits run in subshells).
_e2e_main() {
    local pid=${E2E_APP_PID:-0} key value
    E2E_SC=gone E2E_R=0 E2E_W=0
    if ! read -r E2E_SC _ 2>/dev/null <"/proc/$pid/task/$pid/syscall"; then
        E2E_SC=gone
        [[ -d /proc/$pid/task/$pid ]] || return 0
        E2E_SC=unknown
    fi
    while read -r key value; do
        case $key in
        syscr:) E2E_R=$value ;;
        syscw:) E2E_W=$value ;;
        esac
    done 2>/dev/null <"/proc/$pid/task/$pid/io" || true
}

# Prints "busy", "gone", or how many quiet polls in a row make rest and the context switches of
# PE Lab and the X server so far: 3, or 7 (0.3 s: longer than the longest pause between two
# frames) when the main thread's system call is unknown.
_e2e_activity() {
    local polls=3
    _e2e_main
    case $E2E_SC in
    gone) echo gone; return 0 ;;
    unknown) polls=7 ;;
    *) [[ " $E2E_WAIT_SYSCALLS " == *" $E2E_SC "* ]] || { echo busy; return 0; } ;;
    esac
    cat "/proc/$E2E_APP_PID"/task/*/status "/proc/$E2E_XVFB_PID"/task/*/status 2>/dev/null |
        awk -v polls=$polls '/^State:/ && ($2 == "R" || $2 == "D") { busy = 1 }
             /ctxt_switches:/ { total += $2 }
             END { if (busy) print "busy"; else print polls, total }' || true # a thread may end meanwhile
}

# What each thread of PE Lab and the X server did over 0.5 s (name, state, switches before and
# after): what kept them from rest, for a test that failed waiting.
_e2e_threads() {
    local pid task
    local -A before
    for pid in "$E2E_APP_PID" "$E2E_XVFB_PID"; do
        for task in /proc/"$pid"/task/*; do
            before[${task##*/}]=$(awk '/ctxt_switches:/ { t += $2 } END { print t }' "$task/status" 2>/dev/null)
        done
    done
    sleep 0.5
    for pid in "$E2E_APP_PID" "$E2E_XVFB_PID"; do
        for task in /proc/"$pid"/task/*; do
            awk -v pid="$pid" -v tid="${task##*/}" -v was="${before[${task##*/}]:-?}" \
                '/^Name:/ { name = $2 } /^State:/ { state = $2 } /ctxt_switches:/ { t += $2 }
                 END { printf "  pid %s thread %s %-16s %s switches %s -> %s\n", pid, tid, name, state, was, t }' \
                "$task/status" 2>/dev/null || true
        done
    done
}

_e2e_gone_message() {
    local code=0
    wait "$E2E_APP_PID" 2>/dev/null || code=$?
    echo "pelab exited (code $code): $(cat "$E2E_TMP/app.err" 2>/dev/null)"
}

# e2e_settle [SECONDS]: waits (E2E_SETTLE_SECONDS, 30 s by default) until PE Lab is at rest (see
# above): after input, before a picture or reading the widget rectangles. Not while something
# animates by itself (Play). A test that sends a storm of input raises E2E_SETTLE_SECONDS for the
# pictures after it: on a loaded machine the X server and a software renderer digest it slowly.
# shellcheck disable=SC2120 # SECONDS is optional
e2e_settle() {
    local limit=${1:-${E2E_SETTLE_SECONDS:-30}} last="" now quiet=0
    local deadline=$((SECONDS + limit))
    while :; do
        now=$(_e2e_activity)
        [[ $now != gone ]] || e2e_fail "waiting for PE Lab to come to rest: $(_e2e_gone_message)"
        if [[ $now != busy && $now == "$last" ]]; then
            ((++quiet < ${now%% *})) || return 0
        else
            quiet=0
        fi
        last=$now
        if ((SECONDS > deadline)); then
            _e2e_main
            _e2e_capture "${E2E_NAME}_settle_failed" >/dev/null 2>&1 || true
            _e2e_threads >&2
            e2e_fail "PE Lab did not come to rest within $limit s (main thread in system call $E2E_SC)"
        fi
        e2e_nap 0.05
    done
}

# _e2e_send WHAT XDOTOOL-ARGS…: sends one input event (one key or button) and waits (30 s) until
# a frame has begun on it (see above). Sent while frames are drawn anyway (Play, frames owed to
# an earlier input), the frame may be one already under way. With E2E_TRACE=FILE each input's
# counters go to FILE, to look into a wait.
_e2e_send() {
    local what=$1 r0 w0 deadline=$((SECONDS + 30))
    shift
    _e2e_main
    r0=$E2E_R w0=$E2E_W
    xdotool "$@"
    _e2e_main
    until ((E2E_R > r0 && E2E_W >= w0 + 3)); do
        [[ $E2E_SC != gone ]] || e2e_fail "waiting for a frame on $what: $(_e2e_gone_message)"
        ((SECONDS <= deadline)) || e2e_fail "PE Lab began no frame within 30 s of $what (main thread in system call $E2E_SC)"
        e2e_nap 0.005
        _e2e_main
    done
    [[ -z "${E2E_TRACE:-}" ]] || echo "TRACE $what: $r0 $w0 -> $E2E_SC $E2E_R $E2E_W" >>"$E2E_TRACE"
}

# _e2e_window_gone WINDOW PID: waits (30 s) until the window of a pelab that has exited is gone
# from the X server (it frees a client's windows when it notices the client left; a new pelab
# may then be given the same window id, which is its own).
_e2e_window_gone() {
    local deadline=$((SECONDS + 30))
    while xdotool search --all --pid "$2" --name '^PE Lab$' 2>/dev/null | grep -qx "$1"; do
        ((SECONDS <= deadline)) || e2e_fail "the window $1 of pelab $2, which has exited, is still on the X server after 30 s"
        e2e_nap 0.1
    done
}

# e2e_start_app [pelab args…]: starts the window, finds the window of this process (its
# _NET_WM_PID, which GLFW sets: a window still on the server from a pelab that has quit is not
# it) and waits until the first frames are drawn and PE Lab is at rest.
e2e_start_app() {
    if [[ -n "${E2E_WINDOW:-}" && -n "${E2E_LAST_PID:-}" ]]; then
        _e2e_window_gone "$E2E_WINDOW" "$E2E_LAST_PID"
    fi
    "$PELAB" "$@" >"$E2E_TMP/app.out" 2>"$E2E_TMP/app.err" &
    E2E_APP_PID=$!
    E2E_LAST_PID=$E2E_APP_PID
    E2E_WINDOW=""
    local deadline=$((SECONDS + 30)) candidate
    while [[ -z "$E2E_WINDOW" ]]; do
        # --all: xdotool 3.2016's default (--any) takes a window matching the pid OR the name.
        # (A search can fail while another client's windows are being destroyed: try again.)
        for candidate in $(xdotool search --all --pid "$E2E_APP_PID" --onlyvisible --name '^PE Lab$' 2>/dev/null || true); do
            if [[ "$(xdotool getwindowpid "$candidate" 2>/dev/null || true)" == "$E2E_APP_PID" ]]; then
                E2E_WINDOW=$candidate
                break
            fi
        done
        if [[ -n "$E2E_WINDOW" ]]; then break; fi
        kill -0 "$E2E_APP_PID" 2>/dev/null || e2e_fail "pelab exited early: $(cat "$E2E_TMP/app.err")"
        ((SECONDS <= deadline)) || e2e_fail "no 'PE Lab' window of pid $E2E_APP_PID after 30 s"
        e2e_nap 0.2
    done
    e2e_settle # the first layout has settled
    e2e_note "pelab window $E2E_WINDOW (pid $E2E_APP_PID) is up"
}

# _e2e_capture NAME: the screen as it is now, to $SHOTS/NAME.png.
_e2e_capture() {
    import -window root "$SHOTS/$1.png" || e2e_fail "screen capture failed"
    echo "$SHOTS/$1.png"
}

# e2e_shot NAME: the real screen, as a person would see it once PE Lab is at rest, to
# $SHOTS/NAME.png.
e2e_shot() {
    e2e_settle
    _e2e_capture "$1"
}

# e2e_shot_moving NAME: the screen now, while something animates (Play: there is no rest).
e2e_shot_moving() { _e2e_capture "$1"; }

# e2e_differ A B: fails unless the two PNGs differ in more than 200 pixels.
e2e_differ() {
    local pixels
    pixels=$(compare -metric AE "$1" "$2" null: 2>&1 || true)
    pixels=$(awk '{ print int($1) }' <<<"${pixels%% *}") # compare may print 1.02338e+06
    [[ "$pixels" -gt 200 ]] || e2e_fail "expected $1 and $2 to differ (changed pixels: $pixels)"
}

# e2e_not_blank FILE: a real picture has many colours, a blank one a handful.
e2e_not_blank() {
    local colours
    colours=$(identify -format '%k' "$1")
    [[ "$colours" -gt 50 ]] || e2e_fail "$1 looks blank ($colours colours)"
}

# e2e_quit: Ctrl+Q through the real keyboard; the app must exit 0 within 30 s, and its window
# leave the X server.
e2e_quit() {
    xdotool key --window "$E2E_WINDOW" ctrl+q
    local deadline=$((SECONDS + 30))
    while kill -0 "$E2E_APP_PID" 2>/dev/null; do
        ((SECONDS <= deadline)) || e2e_fail "pelab did not quit within 30 s of Ctrl+Q"
        e2e_nap 0.1
    done
    local code=0
    wait "$E2E_APP_PID" || code=$?
    E2E_APP_PID=""
    [[ $code -eq 0 ]] || e2e_fail "pelab exited with $code: $(cat "$E2E_TMP/app.err")"
    _e2e_window_gone "$E2E_WINDOW" "$E2E_LAST_PID"
}

e2e_pass() { echo "E2E PASS [$E2E_NAME]"; }

# e2e_start_lab [pelab args…]: the app with the test hooks on: widget rectangles are kept in
# $E2E_RECTS and the final scene (with readouts) is written to $E2E_STATE on exit.
e2e_start_lab() {
    E2E_RECTS=$E2E_TMP/rects.json
    E2E_STATE=$E2E_TMP/state.json
    e2e_start_app --widget-rects "$E2E_RECTS" --state-out "$E2E_STATE" "$@"
}

# e2e_point NAME [FX FY]: screen coordinates of a point inside the named widget, at fractions
# FX, FY of its width and height (default: the centre), read once PE Lab is at rest (so the
# rectangle is the one on screen, not one a re-layout is about to move). Waits 30 s for the
# widget to report its rectangle.
e2e_point() {
    local name=$1 fx=${2:-0.5} fy=${3:-0.5} deadline=$((SECONDS + 30))
    e2e_settle
    until [[ -f "$E2E_RECTS" ]] && grep -q "\"$name\"" "$E2E_RECTS"; do
        ((SECONDS <= deadline)) || e2e_fail "widget $name never reported its rectangle (30 s)"
        e2e_nap 0.1
        e2e_settle
    done
    local wx wy
    read -r wx wy < <(xdotool getwindowgeometry --shell "$E2E_WINDOW" | awk -F= '/^X|^Y/ {printf "%s ", $2} END {print ""}')
    /usr/bin/python3 - "$E2E_RECTS" "$name" "$fx" "$fy" "$wx" "$wy" <<'PY'
import json, sys
path, name, fx, fy, wx, wy = sys.argv[1:]
x0, y0, x1, y1, visible = json.load(open(path))[name]  # visible: the fraction in view
print(int(int(wx) + x0 + (x1 - x0) * float(fx)), int(int(wy) + y0 + (y1 - y0) * float(fy)))
PY
}

# e2e_move X Y: the real pointer to X, Y; returns once PE Lab has drawn the hover there.
e2e_move() {
    xdotool mousemove "$1" "$2"
    e2e_settle
}

# e2e_click NAME [FX FY]: a real mouse click on the named widget: the pointer there (and the
# hover drawn), the button held until a frame has begun on it, released.
e2e_click() {
    local x y
    read -r x y < <(e2e_point "$@")
    e2e_move "$x" "$y"
    _e2e_send "the mouse button pressed on $1" mousedown 1
    _e2e_send "the mouse button released on $1" mouseup 1
}

# e2e_drag NAME FX0 FX1: press at fraction FX0 of the widget's width, move to FX1 in 8 steps,
# each drawn, release.
e2e_drag() {
    local x0 y x1 ignored
    read -r x0 y < <(e2e_point "$1" "$2" 0.5)
    read -r x1 ignored < <(e2e_point "$1" "$3" 0.5)
    e2e_move "$x0" "$y"
    _e2e_send "the mouse button pressed on $1" mousedown 1
    for step in 1 2 3 4 5 6 7 8; do
        e2e_move $((x0 + (x1 - x0) * step / 8)) "$y"
    done
    _e2e_send "the mouse button released on $1" mouseup 1
}

# e2e_press KEYS: KEYS (a key, or a combination such as ctrl+a) pressed from rest and released as
# soon as a frame has begun on the press (see above): the keys before the last one go down one
# at a time, each drawn, then the last one; then all come up.
e2e_press() {
    local keys up=() i
    IFS=+ read -ra keys <<<"$1"
    e2e_settle
    for ((i = 0; i < ${#keys[@]} - 1; i++)); do
        _e2e_send "pressing ${keys[i]} (of $1)" keydown --window "$E2E_WINDOW" "${keys[i]}"
        e2e_settle
    done
    _e2e_send "pressing $1" keydown --window "$E2E_WINDOW" "${keys[-1]}"
    for ((i = ${#keys[@]} - 1; i >= 0; i--)); do up+=("${keys[i]}"); done
    _e2e_send "releasing $1" keyup --window "$E2E_WINDOW" "${up[@]}"
}

# e2e_press_playing KEY: one of PE Lab's own keys (Space, the arrows, PageDown) while something
# animates (Play), where there is no rest to start from. PE Lab's platform layer queues its own
# keys as they come, so these are not lost even when pressed and released within one frame.
e2e_press_playing() {
    _e2e_send "pressing $1" keydown --window "$E2E_WINDOW" "$1"
    _e2e_send "releasing $1" keyup --window "$E2E_WINDOW" "$1"
}

# e2e_type TEXT: replace the focused text field's content with TEXT and press Enter. (Typed
# characters are queued by ImGui, so they need no frame each; e2e_press starts from rest, when
# they are all in.)
e2e_type() {
    e2e_press ctrl+a
    xdotool type --window "$E2E_WINDOW" --delay 40 "$1"
    e2e_press Return
}

# e2e_save_as PATH: types PATH into the save dialog's field, presses Enter and waits (30 s) until
# PE Lab has written it. Should the Enter have been lost all the same (a clean clone's run once
# left the dialog open with the whole path typed, when the press was a fixed 0.1 s), then at
# rest, with the file not there and the dialog still reporting its field, Enter again.
e2e_save_as() {
    e2e_type "$1"
    local deadline=$((SECONDS + 30))
    until [[ -f "$1" ]]; do
        ((SECONDS <= deadline)) || { _e2e_capture "${E2E_NAME}_wait_failed" >/dev/null 2>&1 || true
            e2e_fail "$1 was not written within 30 s"; }
        e2e_settle
        [[ ! -f "$1" ]] || break
        if grep -q '"file.path_typing"' "$E2E_RECTS" 2>/dev/null; then
            e2e_note "at rest, $1 not written and the dialog still open: Enter again"
            e2e_press Return
        fi
        e2e_nap 0.1
    done
}

# e2e_wait_file PATH [SECONDS]: waits (30 s by default) until PE Lab has written PATH. Its writes
# are atomic (a temporary file renamed into place), so a file that is there is whole. A fixed
# sleep was too short when the suite runs the end-to-end scripts side by side.
e2e_wait_file() {
    local deadline=$((SECONDS + ${2:-30}))
    until [[ -f "$1" ]]; do
        # The window as it was when the wait gave up, for a person to look at.
        ((SECONDS <= deadline)) || { _e2e_capture "${E2E_NAME}_wait_failed" >/dev/null 2>&1 || true
            e2e_fail "$1 was not written within ${2:-30} s"; }
        e2e_nap 0.1
    done
}

# e2e_state EXPRESSION: evaluates a Python expression over the saved scene `s` (after e2e_quit).
e2e_state() {
    [[ -f "$E2E_STATE" ]] || e2e_fail "no state file was written on exit"
    /usr/bin/python3 -c 'import json, math, struct, sys; s = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$E2E_STATE" "$1"
}

# e2e_check EXPRESSION MESSAGE: fails with MESSAGE unless the expression over `s` is True.
e2e_check() {
    local value
    value=$(e2e_state "$1")
    [[ "$value" == True ]] || e2e_fail "$2 (state: $(e2e_state "{k: s[k] for k in s if k != 'readouts'}"); readouts: $(e2e_state "s.get('readouts')"))"
}
