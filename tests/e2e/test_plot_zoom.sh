# Regression (reliability issue): hundreds of real Ctrl + wheel notches (the zoom) over the ω
# spectrum, out and back in, then over the wave plot; first, the wheel alone scrolls the page. The app used to hang (a tick loop of ~2³¹ steps) and lose
# the session; now it keeps answering, and the state written on exit is intact.
source "$(dirname "$0")/lib.sh"
e2e_setup plot_zoom "$@"
# Text x2: the panel is taller than the window, so the page has somewhere to scroll.
echo '{"presented_panel": "waves", "pair": 40, "font_scale": 2}' >"$E2E_TMP/waves.json"
e2e_start_lab --scene "$E2E_TMP/waves.json"
before=$(e2e_shot plot_zoom_before)
read -r x y < <(e2e_point waves.spectrum)
e2e_move "$x" "$y"
# The wheel alone scrolls the page (the spectrum moves up the screen); Ctrl + wheel zooms.
xdotool click --repeat 3 --delay 40 5
e2e_settle
read -r x2 y2 < <(e2e_point waves.spectrum)
((y2 < y)) || e2e_fail "the wheel over the spectrum did not scroll the page (y $y, then $y2)"
read -r x y < <(e2e_point waves.spectrum)
e2e_move "$x" "$y"
# 2 400 notches take a loaded CI machine (software rendering, the sanitizer tests beside) more
# than the usual 30 s to digest; a hang (the old tick loop) never settles at all.
E2E_SETTLE_SECONDS=120
xdotool keydown ctrl
xdotool click --repeat 400 --delay 4 5 # Ctrl + wheel down: zoom out
out=$(e2e_shot plot_zoom_spectrum_out)
e2e_differ "$before" "$out"
kill -0 "$E2E_APP_PID" || e2e_fail "pelab died while zooming out"
xdotool click --repeat 800 --delay 4 4 # Ctrl + wheel up: zoom in, past the start
e2e_shot plot_zoom_spectrum_in >/dev/null
read -r x y < <(e2e_point waves.wave_plot)
e2e_move "$x" "$y"
xdotool click --repeat 400 --delay 4 5
xdotool click --repeat 800 --delay 4 4
xdotool keyup ctrl
e2e_shot plot_zoom_wave_in >/dev/null
# Still answering keys after the storm: Up moves the pair from 40 to 41.
e2e_press Up
e2e_quit
e2e_check "s['pair'] == 41" "pelab should still answer keys after 2 400 wheel notches"
e2e_check "s['presented_panel'] == 'waves'" "the session's scene is written intact"
e2e_pass
