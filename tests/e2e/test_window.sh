# The real window opens at 1280x800 titled "PE Lab", answers real keys and mouse clicks, and
# quits on Ctrl+Q with exit code 0.
source "$(dirname "$0")/lib.sh"
e2e_setup window "$@"
workdir=$E2E_TMP/cwd
mkdir -p "$workdir"
cd "$workdir"
# wait_size W H: waits (30 s) for the window to be W×H and PE Lab at rest; the check after it says
# what it is if it never gets there.
wait_size() {
    local deadline=$((SECONDS + 30)) size
    e2e_settle
    until size=$(xdotool getwindowgeometry --shell "$E2E_WINDOW" | awk -F= '/WIDTH|HEIGHT/ {printf "%s ", $2}') &&
        [[ "$size" == "$1 $2 " ]] || ((SECONDS > deadline)); do
        e2e_nap 0.1
        e2e_settle
    done
}
e2e_start_app
read -r width height < <(xdotool getwindowgeometry --shell "$E2E_WINDOW" | awk -F= '/WIDTH|HEIGHT/ {printf "%s ", $2} END {print ""}')
[[ "$width" == 1280 && "$height" == 800 ]] || e2e_fail "window is ${width}x${height}, expected 1280x800"
before=$(e2e_shot window_opened)
e2e_not_blank "$before"

# Up arrow x20: pair 0 -> 20, a visibly slower wave.
xdotool windowfocus --sync "$E2E_WINDOW" || true
for _ in $(seq 20); do xdotool key --window "$E2E_WINDOW" Up; sleep 0.03; done
after_keys=$(e2e_shot window_after_up_keys)
e2e_differ "$before" "$after_keys"

# A click in the wave plot moves the pos A cursor there.
read -r wx wy < <(xdotool getwindowgeometry --shell "$E2E_WINDOW" | awk -F= '/^X|^Y/ {printf "%s ", $2} END {print ""}')
xdotool mousemove $((wx + 900)) $((wy + 320)) click 1
after_click=$(e2e_shot window_after_click)
e2e_differ "$after_keys" "$after_click"

# Ctrl+=: the text grows (the font atlas is rebuilt at the new size, not stretched).
e2e_press ctrl+equal
larger=$(e2e_shot window_larger_text)
e2e_differ "$after_click" "$larger"

# F11: fullscreen fills the 1600x1000 screen, and F11 again brings the window back.
e2e_press F11
wait_size 1600 1000
read -r width height < <(xdotool getwindowgeometry --shell "$E2E_WINDOW" | awk -F= '/WIDTH|HEIGHT/ {printf "%s ", $2} END {print ""}')
[[ "$width" == 1600 && "$height" == 1000 ]] || e2e_fail "fullscreen window is ${width}x${height}, expected 1600x1000"
e2e_shot window_fullscreen >/dev/null
e2e_press F11
wait_size 1280 800
read -r width height < <(xdotool getwindowgeometry --shell "$E2E_WINDOW" | awk -F= '/WIDTH|HEIGHT/ {printf "%s ", $2} END {print ""}')
[[ "$width" == 1280 && "$height" == 800 ]] || e2e_fail "after F11 again the window is ${width}x${height}"
e2e_quit
# The layout is saved where settings belong, and nothing is left in the working folder.
grep -q '^\[Window\]\[###waves\]' "$XDG_CONFIG_HOME/pelab/imgui.ini" ||
    e2e_fail "window layout not saved to \$XDG_CONFIG_HOME/pelab/imgui.ini"
[[ -z "$(ls -A "$workdir")" ]] || e2e_fail "pelab left files in its working folder: $(ls -A "$workdir" | cat -v)"
e2e_pass
