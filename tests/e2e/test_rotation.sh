# Rotation panel: dragging the k slider with the real mouse changes k; the matrix R_k it reports
# is cos/sin of ω_i·k computed here, PE(pos A + k) = R_k·PE(pos A) holds to double rounding, and
# the curves from four starts coincide.
source "$(dirname "$0")/lib.sh"
e2e_setup rotation "$@"
cat >"$E2E_TMP/scene.json" <<'JSON'
{"presented_panel": "rotation", "d_model": 128, "pair": 2, "shift_k": 5, "pos_a": 20}
JSON
e2e_start_lab --scene "$E2E_TMP/scene.json"
before=$(e2e_shot rotation_before)
e2e_drag rotation.shift_k 0.52 0.85
after=$(e2e_shot rotation_after_dragging_k)
e2e_differ "$before" "$after"
e2e_quit
e2e_check "s['shift_k'] > 30" "dragging the k slider to the right should raise k from 5"
e2e_check "abs(s['readouts']['rotation']['r_k'][0][0] - math.cos(10000 ** (-2 * 2 / 128) * s['shift_k'])) < 1e-15" \
    "R_k[0][0] = cos(w_2 k)"
e2e_check "abs(s['readouts']['rotation']['r_k'][0][1] - math.sin(10000 ** (-2 * 2 / 128) * s['shift_k'])) < 1e-15" \
    "R_k[0][1] = sin(w_2 k)"
e2e_check "s['readouts']['rotation']['residual_double'] < 1e-13" "the rotation identity holds to rounding"
e2e_check "s['readouts']['rotation']['curve_spread'] < 1e-9" "the curves from four starts coincide"
e2e_pass
