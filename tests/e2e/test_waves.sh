# Waves panel through the real window: dragging the pair slider picks a slower pair (state and
# picture change), the arrow keys move pos A, and "many waves" stacks the dimensions.
source "$(dirname "$0")/lib.sh"
e2e_setup waves "$@"
e2e_start_lab
before=$(e2e_shot waves_before)
e2e_drag waves.pair_slider 0.02 0.4
after=$(e2e_shot waves_after_pair_drag)
e2e_differ "$before" "$after"
for _ in 1 2 3; do e2e_press Right; done
e2e_click waves.many_waves 0.04 0.5
many=$(e2e_shot waves_many_waves)
e2e_differ "$after" "$many"
e2e_quit
e2e_check "40 <= s['pair'] <= 230" "dragging the pair slider to 40% of its width should pick a middle pair"
e2e_check "s['pos_a'] == 6" "three Right presses should move pos A from 3 to 6"
# The wavelength readout of the chosen pair, against the formula computed here.
e2e_check "abs(s['readouts']['waves']['wavelength'] - 2 * math.pi * 10000 ** (2 * s['pair'] / 512)) < 1e-9" "wavelength readout"
e2e_pass
