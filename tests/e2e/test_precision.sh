# Precision panel: hovering the plot (the real mouse) and clicking picks a position; the errors the
# panel reports there are checked: pelab_core's against float32 rounding of sin/cos computed here
# in double, the float32 code's as clearly larger. The position comes from where the click lands
# on the log axis (1 … 10⁶), so the middle of the plot is near 1 000.
source "$(dirname "$0")/lib.sh"
e2e_setup precision "$@"
cat >"$E2E_TMP/scene.json" <<'JSON'
{"presented_panel": "precision", "d_model": 512, "base": 10000}
JSON
e2e_start_lab --scene "$E2E_TMP/scene.json"
before=$(e2e_shot precision_before)
read -r x y < <(e2e_point precision.plot 0.5 0.5)
e2e_move "$x" "$y"
e2e_shot precision_hover >/dev/null
e2e_click precision.plot 0.5 0.5
after=$(e2e_shot precision_after_click)
e2e_differ "$before" "$after"
e2e_quit
picked="s['readouts']['precision']['errors'][3]"
e2e_check "100 <= s['precision_position'] <= 10000" "a click in the middle of the log axis should pick a position near 1000"
e2e_check "$picked['position'] == s['precision_position']" "the table's last row is the picked position"
e2e_check "abs($picked['pelab_core'] - max(abs(struct.unpack('f', struct.pack('f', f(s['precision_position'] * 10000 ** (-2 * i / 512))))[0] - f(s['precision_position'] * 10000 ** (-2 * i / 512))) for i in range(256) for f in (math.sin, math.cos))) < 1e-12" \
    "pelab_core's error is float32 rounding of the double value"
e2e_check "$picked['float32_code'] > 10 * $picked['pelab_core']" "the float32 code is visibly worse than pelab_core there"
e2e_pass
