# At rest PE Lab rests: with the four default panels and no input it waits for events instead of
# redrawing (CPU from /proc/PID/stat over 10 s: under 2% of one core); a key press after the rest
# shows within 100 ms; Play draws continuously, the position advances, and CPU stays under one
# core (the frame-rate cap keeps a renderer that ignores vsync from running flat out).
source "$(dirname "$0")/lib.sh"
e2e_setup idle "$@"
e2e_start_lab
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$E2E_APP_PID/stat"; }
e2e_settle # the first frames are drawn and the loop waits for events
before=$(cpu_ticks)
sleep 10 # the span measured
after=$(cpu_ticks)
idle=$(awk -v a="$before" -v b="$after" -v t="$ticks" 'BEGIN { printf "%.2f", 100 * (b - a) / t / 10 }')
e2e_note "at rest: $idle% of one core over 10 s"
awk -v p="$idle" 'BEGIN { exit !(p < 2) }' || e2e_fail "at rest PE Lab used $idle% of a core (limit 2%)"
# A key press right after the rest is on screen 100 ms later. (The sleeps here are what is
# measured: the picture is taken 100 ms after the key, whatever PE Lab has drawn by then.)
rested=$(e2e_shot idle_rested)
xdotool keydown --window "$E2E_WINDOW" Right
sleep 0.05
xdotool keyup --window "$E2E_WINDOW" Right
sleep 0.1
import -window root "$SHOTS/idle_after_key.png"
e2e_differ "$rested" "$SHOTS/idle_after_key.png"
# Play: frames keep coming (two pictures half a second apart differ) at under one core.
e2e_press space
sleep 1 # a second of play before the span measured
before=$(cpu_ticks)
# The span measured is 5 s: 0.5, a picture, 0.5, a picture, 4. (Play never rests, so the pictures
# are taken as they come: two half a second apart must differ.)
sleep 0.5
first=$(e2e_shot_moving idle_playing_1)
sleep 0.5
second=$(e2e_shot_moving idle_playing_2)
e2e_differ "$first" "$second"
sleep 4 # the rest of the span measured
after=$(cpu_ticks)
playing=$(awk -v a="$before" -v b="$after" -v t="$ticks" 'BEGIN { printf "%.1f", 100 * (b - a) / t / 5 }')
e2e_note "playing: $playing% of one core"
awk -v p="$playing" 'BEGIN { exit !(p < 100) }' || e2e_fail "playing used $playing% of a core (limit 100%)"
e2e_press_playing space
e2e_quit
e2e_check "s['pos_a'] > 10" "Play should have moved pos A well past 4 (2 positions/s for ~6 s)"
e2e_check "s['playing'] is False" "the second Space should have paused"
e2e_pass
