# Regression (reliability issue): hundreds of real wheel notches over the ω spectrum, out and
# back in, then over the wave plot. The app used to hang (a tick loop of ~2³¹ steps) and lose
# the session; now it keeps answering, and the state written on exit is intact.
source "$(dirname "$0")/lib.sh"
e2e_setup plot_zoom "$@"
echo '{"presented_panel": "waves", "pair": 40}' >"$E2E_TMP/waves.json"
e2e_start_lab --scene "$E2E_TMP/waves.json"
before=$(e2e_shot plot_zoom_before)
read -r x y < <(e2e_point waves.spectrum)
xdotool mousemove "$x" "$y"
sleep 0.2
xdotool click --repeat 400 --delay 4 5 # wheel down: zoom out
out=$(e2e_shot plot_zoom_spectrum_out)
e2e_differ "$before" "$out"
kill -0 "$E2E_APP_PID" || e2e_fail "pelab died while zooming out"
xdotool click --repeat 800 --delay 4 4 # wheel up: zoom in, past the start
e2e_shot plot_zoom_spectrum_in >/dev/null
read -r x y < <(e2e_point waves.wave_plot)
xdotool mousemove "$x" "$y"
sleep 0.2
xdotool click --repeat 400 --delay 4 5
xdotool click --repeat 800 --delay 4 4
e2e_shot plot_zoom_wave_in >/dev/null
# Still answering keys after the storm: Up moves the pair from 40 to 41.
e2e_press Up
e2e_quit
e2e_check "s['pair'] == 41" "pelab should still answer keys after 2 400 wheel notches"
e2e_check "s['presented_panel'] == 'waves'" "the session's scene is written intact"
e2e_pass
