# Train: with the real mouse and keyboard, two variants (none, sinusoidal) trained live for 20
# steps from the panel's own controls; the window keeps drawing while the worker trains, and the
# run that ends is the panel's (its readouts, saved on exit: 20 steps each, accuracy at every
# test length, the verdict built from it).
source "$(dirname "$0")/lib.sh"
e2e_setup train "$@"
cat >"$E2E_TMP/scene.json" <<'JSON'
{"presented_panel": "train", "train_view": "curves"}
JSON
e2e_start_lab --scene "$E2E_TMP/scene.json"
before=$(e2e_shot train_built_in_run)
e2e_click train.steps 0.5 0.5
e2e_type 20
for variant in learned rope alibi t5; do
    e2e_click "train.variant_$variant" 0.5 0.5
done
e2e_click train.start 0.5 0.5
# 2 × 20 steps and the measurements: about 3 s on a quiet machine, far longer beside the suite's
# other work (a fixed 8 s was too short, 20 s a guess). The run is over when PE Lab is at rest:
# its worker threads have ended and the last frame (the finished run) is drawn; the checks on
# the saved state below say that it was this run, finished.
e2e_settle 120
after=$(e2e_shot train_live_run_done)
e2e_differ "$before" "$after"
e2e_quit
e2e_check "s['readouts']['train']['source'] == 'your run'" "the panel shows its own run"
e2e_check "s['train_result'] == ''" "no built-in run is named once the panel trained its own"
e2e_check "[v['pe'] for v in s['readouts']['train']['variants']] == ['none', 'sinusoidal']" \
    "the two variants left ticked were trained"
e2e_check "all(v['steps_done'] == 20 for v in s['readouts']['train']['variants'])" \
    "each trained the 20 steps typed"
e2e_check "all(len(v['accuracy_by_length']) == 5 for v in s['readouts']['train']['variants'])" \
    "each was measured at the five test lengths (8, 16, 32, 48, 64)"
e2e_check "s['readouts']['train']['training']['running'] == False" "the run ended"
e2e_check "s['readouts']['train']['claims']['finished'] == 2" "the verdict reads both variants"
e2e_pass
