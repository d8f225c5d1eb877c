# Calculator panel: typing a position (real keyboard) sets pos A; the rows it shows for dims
# 0–7 and its second column (pos + 1) are checked against the formula computed here, and the
# "last 8" button moves the range to the end of the vector.
source "$(dirname "$0")/lib.sh"
e2e_setup calculator "$@"
cat >"$E2E_TMP/scene.json" <<'JSON'
{"presented_panel": "calculator", "d_model": 512, "pos_a": 3}
JSON
e2e_start_lab --scene "$E2E_TMP/scene.json"
before=$(e2e_shot calculator_before)
e2e_click calculator.pos_input 0.3 0.5
e2e_type 2048
after=$(e2e_shot calculator_after_typing_2048)
e2e_differ "$before" "$after"
e2e_click calculator.last_8 0.5 0.5
e2e_shot calculator_last_8 >/dev/null
e2e_quit
e2e_check "s['pos_a'] == 2048" "typing 2048 should set pos A"
e2e_check "[r['dim'] for r in s['readouts']['calculator']['rows']] == list(range(504, 512))" \
    "'last 8' should show dims 504-511"
e2e_check "all(abs(r['value'] - (math.sin if r['dim'] % 2 == 0 else math.cos)(2048 / 10000 ** (2 * (r['dim'] // 2) / 512))) < 1e-12 for r in s['readouts']['calculator']['rows'])" \
    "each value should be sin/cos(2048 / 10000^(2i/512))"
e2e_check "all(abs(r['value_other'] - (math.sin if r['dim'] % 2 == 0 else math.cos)(2049 / 10000 ** (2 * (r['dim'] // 2) / 512))) < 1e-12 for r in s['readouts']['calculator']['rows'])" \
    "the second column should be PE(2049)"
e2e_check "all(abs(r['angle_mod_2pi'] - math.fmod(r['angle'], 2 * math.pi)) < 1e-12 for r in s['readouts']['calculator']['rows'])" \
    "angle mod 2 pi"
e2e_pass
