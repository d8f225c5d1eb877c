# Order demo: with PE on, "dog bites man" and "man bites dog" are told apart; unticking PE (a real
# click) makes B's scores exactly A's re-ordered; a sentence typed on the keyboard is taken.
source "$(dirname "$0")/lib.sh"
e2e_setup order "$@"
e2e_start_lab
with_pe=$(e2e_shot order_with_pe)
e2e_click order.pe_enabled 0.04 0.5
without_pe=$(e2e_shot order_without_pe)
e2e_differ "$with_pe" "$without_pe"
e2e_click order.sentence_b 0.3 0.5
e2e_type "bites man dog"
e2e_shot order_typed_sentence >/dev/null
e2e_quit
e2e_check "s['pe_enabled'] is False" "the PE checkbox should be unticked"
e2e_check "s['sentence_b'] == 'bites man dog'" "the typed sentence should be kept"
e2e_check "s['readouts']['order']['same_up_to_reordering'] is True" "without PE, B must be A re-ordered"
e2e_check "s['readouts']['order']['max_reorder_diff'] == 0" "without PE the re-ordering difference is exactly 0"
e2e_pass
