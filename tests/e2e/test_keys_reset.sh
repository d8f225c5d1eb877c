# F1 and Reset all through the real window, as a teacher uses them: in a lesson, F1 opens the
# keyboard help (its first heading is on screen and the picture changes), Esc closes it; Ctrl+R
# asks first (a lesson is on), and a click on "Reset all" ends the lesson and puts every number
# back to the documents' defaults (pos A 3, pos B 50, d_model 512, base 10 000, pair 0).
source "$(dirname "$0")/lib.sh"
e2e_setup keys_reset "$@"
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$SHOTS/classroom"
e2e_start_lab --lesson "$root/assets/lessons/frequencies.json"
e2e_press Page_Down
e2e_press Page_Down
e2e_settle # the step's glide has landed
before=$(e2e_shot classroom/before_help)
e2e_press F1
e2e_point help.keys >/dev/null || e2e_fail "F1 did not show the keyboard help"
help=$(e2e_shot classroom/keyboard_help)
e2e_differ "$before" "$help"
e2e_press Escape
closed=$(e2e_shot classroom/help_closed)
e2e_differ "$help" "$closed"
e2e_press ctrl+r
e2e_point reset.confirm >/dev/null || e2e_fail "Ctrl+R in a lesson did not ask first"
e2e_shot classroom/reset_question >/dev/null
e2e_click reset.confirm
e2e_shot classroom/after_reset >/dev/null
e2e_quit
e2e_check "'lesson' not in s['readouts']" "Reset all ends the lesson"
e2e_check "s['pos_a'] == 3 and s['pos_b'] == 50 and s['d_model'] == 512" "Reset all restores the positions and d_model"
e2e_check "s['base'] == 10000 and s['pair'] == 0 and s['presented_panel'] == ''" "Reset all restores the base, the pair and the tiled panels"
e2e_pass
