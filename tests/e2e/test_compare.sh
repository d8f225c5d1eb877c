# Compare panel: typing a new pos B (real keyboard) updates the state, the table and the dot
# product, which is checked against a sum computed here from the formula.
source "$(dirname "$0")/lib.sh"
e2e_setup compare "$@"
e2e_start_lab
before=$(e2e_shot compare_before)
e2e_click compare.pos_b_input 0.2 0.5
e2e_type 150
after=$(e2e_shot compare_after_typing_150)
e2e_differ "$before" "$after"
e2e_quit
e2e_check "s['pos_b'] == 150" "typing 150 into pos B should set it"
e2e_check "s['readouts']['compare']['distance'] == 147" "distance |3 - 150|"
e2e_check "abs(s['readouts']['compare']['dot_product'] - sum(math.cos(10000 ** (-2 * i / 512) * 147) for i in range(256))) < 1e-9" \
    "dot product should be the sum of cos(w_i * 147) over the 256 pairs"
e2e_pass
