# Shared helpers for the end-to-end tests: a private Xvfb, the real pelab window, real input
# through xdotool, screenshots of the real screen with ImageMagick's `import`.
# Usage in a test: source lib.sh; e2e_setup NAME "$@"; … ; e2e_pass
set -euo pipefail

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

# e2e_start_app [pelab args…]: starts the window and waits for it to be mapped.
e2e_start_app() {
    "$PELAB" "$@" >"$E2E_TMP/app.out" 2>"$E2E_TMP/app.err" &
    E2E_APP_PID=$!
    local waited=0
    E2E_WINDOW=""
    while [[ -z "$E2E_WINDOW" ]]; do
        E2E_WINDOW=$(xdotool search --onlyvisible --name '^PE Lab$' 2>/dev/null | head -1 || true)
        if [[ -n "$E2E_WINDOW" ]]; then break; fi
        kill -0 "$E2E_APP_PID" 2>/dev/null || e2e_fail "pelab exited early: $(cat "$E2E_TMP/app.err")"
        sleep 0.2
        waited=$((waited + 1))
        ((waited < 100)) || e2e_fail "no 'PE Lab' window after 20 s"
    done
    sleep 1.0 # a few frames so the first layout has settled
    e2e_note "pelab window $E2E_WINDOW (pid $E2E_APP_PID) is up"
}

# e2e_shot NAME: the real screen, as a person would see it, to $SHOTS/NAME.png.
e2e_shot() {
    sleep 0.5
    import -window root "$SHOTS/$1.png" || e2e_fail "screen capture failed"
    echo "$SHOTS/$1.png"
}

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

# e2e_quit: Ctrl+Q through the real keyboard; the app must exit 0 within 10 s.
e2e_quit() {
    xdotool key --window "$E2E_WINDOW" ctrl+q
    local waited=0
    while kill -0 "$E2E_APP_PID" 2>/dev/null; do
        sleep 0.2
        waited=$((waited + 1))
        ((waited < 50)) || e2e_fail "pelab did not quit on Ctrl+Q"
    done
    local code=0
    wait "$E2E_APP_PID" || code=$?
    E2E_APP_PID=""
    [[ $code -eq 0 ]] || e2e_fail "pelab exited with $code: $(cat "$E2E_TMP/app.err")"
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
# FX, FY of its width and height (default: the centre).
e2e_point() {
    local name=$1 fx=${2:-0.5} fy=${3:-0.5} waited=0
    until [[ -f "$E2E_RECTS" ]] && grep -q "\"$name\"" "$E2E_RECTS"; do
        sleep 0.2
        waited=$((waited + 1))
        ((waited < 50)) || e2e_fail "widget $name never reported its rectangle"
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

# e2e_click NAME [FX FY]: a real mouse click on the named widget.
e2e_click() {
    local x y
    read -r x y < <(e2e_point "$@")
    xdotool mousemove "$x" "$y"
    sleep 0.15
    xdotool mousedown 1
    sleep 0.1
    xdotool mouseup 1
    sleep 0.2
}

# e2e_drag NAME FX0 FX1: press at fraction FX0 of the widget's width, move to FX1, release.
e2e_drag() {
    local x0 y x1 ignored
    read -r x0 y < <(e2e_point "$1" "$2" 0.5)
    read -r x1 ignored < <(e2e_point "$1" "$3" 0.5)
    xdotool mousemove "$x0" "$y"
    sleep 0.15
    xdotool mousedown 1
    for step in 1 2 3 4 5 6 7 8; do
        xdotool mousemove $((x0 + (x1 - x0) * step / 8)) "$y"
        sleep 0.05
    done
    sleep 0.1
    xdotool mouseup 1
    sleep 0.2
}

# e2e_press KEYS: hold the keys for 100 ms, as a person does (a press and release inside one
# frame is invisible to Dear ImGui 1.86's polled key state).
e2e_press() {
    xdotool keydown --window "$E2E_WINDOW" "$1"
    sleep 0.1
    xdotool keyup --window "$E2E_WINDOW" "$1"
    sleep 0.1
}

# e2e_type TEXT: replace the focused text field's content with TEXT and press Enter.
e2e_type() {
    e2e_press ctrl+a
    xdotool type --window "$E2E_WINDOW" --delay 40 "$1"
    e2e_press Return
}

# e2e_save_as PATH: types PATH into the save dialog's field, presses Enter and waits (30 s) until
# PE Lab has written it. A frame on a loaded machine can outlast the Enter key's 0.1 s, and Dear
# ImGui 1.86 loses a key pressed and released within one frame (a clean clone's run once left the
# dialog open with the whole path typed): while the file is not there and the dialog still
# reports its field, Enter again, every 5 s.
e2e_save_as() {
    e2e_type "$1"
    local tries=0
    until [[ -f "$1" ]]; do
        ((++tries <= 300)) || { e2e_shot "${E2E_NAME}_wait_failed" >/dev/null 2>&1 || true
            e2e_fail "$1 was not written within 30 s"; }
        if ((tries % 50 == 0)) && grep -q '"file.path_typing"' "$E2E_RECTS" 2>/dev/null; then
            e2e_press Return
        fi
        sleep 0.1
    done
}

# e2e_wait_file PATH [SECONDS]: waits (30 s by default) until PE Lab has written PATH. Its writes
# are atomic (a temporary file renamed into place), so a file that is there is whole. A fixed
# sleep was too short when the suite runs the end-to-end scripts side by side.
e2e_wait_file() {
    local limit=$((${2:-30} * 10)) tries=0
    until [[ -f "$1" ]]; do
        # The window as it was when the wait gave up, for a person to look at.
        ((++tries <= limit)) || { e2e_shot "${E2E_NAME}_wait_failed" >/dev/null 2>&1 || true
            e2e_fail "$1 was not written within ${2:-30} s"; }
        sleep 0.1
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
