# Clocks panel: clicking a clock face selects that pair everywhere; Space plays pos A forward at
# the set speed (2 positions per second) and pauses it again.
source "$(dirname "$0")/lib.sh"
e2e_setup clocks "$@"
e2e_start_lab
before=$(e2e_shot clocks_before)
e2e_click clocks.pair_3 0.5 0.25
after=$(e2e_shot clocks_after_click_pair_3)
e2e_differ "$before" "$after"
e2e_press space
# A span of play, measured by the assertion below (positions per second): a duration, not a
# wait for a state, so a sleep.
sleep 1.5
e2e_press_playing space
e2e_shot clocks_after_play >/dev/null
e2e_quit
e2e_check "s['pair'] == 3" "clicking clock i = 3 should select pair 3"
e2e_check "4.5 <= s['pos_a'] <= 8" "about 1.5 s of play at 2 positions/s should move pos A from 3 to ~6"
e2e_pass
