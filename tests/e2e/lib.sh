# Shared helpers for the end-to-end tests: a private Xvfb, the real pelab window, real input
# through xdotool, screenshots of the real screen with ImageMagick's `import`.
# Usage in a test: source lib.sh; e2e_setup NAME "$@"; … ; e2e_pass
set -euo pipefail

e2e_fail() { echo "E2E FAIL [$E2E_NAME]: $*" >&2; exit 1; }
e2e_note() { echo "[$E2E_NAME] $*"; }

e2e_cleanup() {
    if [[ -n "${E2E_APP_PID:-}" ]] && kill -0 "$E2E_APP_PID" 2>/dev/null; then kill "$E2E_APP_PID" 2>/dev/null || true; fi
    if [[ -n "${E2E_XVFB_PID:-}" ]]; then kill "$E2E_XVFB_PID" 2>/dev/null || true; fi
    rm -rf "${E2E_TMP:-/nonexistent}"
}

# e2e_setup NAME PELAB_BINARY SCREENSHOT_DIR
e2e_setup() {
    E2E_NAME=$1
    PELAB=$2
    SHOTS=$3
    mkdir -p "$SHOTS"
    for tool in Xvfb xdotool import compare identify; do
        command -v "$tool" >/dev/null || e2e_fail "$tool is missing (scripts/test.sh installs it)"
    done
    E2E_TMP=$(mktemp -d)
    trap e2e_cleanup EXIT
    # A clean home: no saved layout or settings from the developer's own runs.
    export HOME=$E2E_TMP/home XDG_CONFIG_HOME=$E2E_TMP/home/.config
    mkdir -p "$HOME"
    # -displayfd: Xvfb picks a free display number and writes it to the pipe.
    exec {fd}<> <(:)
    Xvfb -displayfd "$fd" -screen 0 1600x1000x24 -nolisten tcp >"$E2E_TMP/xvfb.log" 2>&1 &
    E2E_XVFB_PID=$!
    local number=""
    read -r -t 20 -u "$fd" number || e2e_fail "Xvfb did not start: $(cat "$E2E_TMP/xvfb.log")"
    export DISPLAY=":$number"
    unset WAYLAND_DISPLAY
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
    pixels=${pixels%% *}
    [[ "${pixels%.*}" -gt 200 ]] || e2e_fail "expected $1 and $2 to differ (changed pixels: $pixels)"
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
