# Alternatives panel through the real window: clicks move between tabs (ALiBi, Long context,
# Learned), a typed position looks up the learned table, and the numbers the panel reports are
# checked against formulas evaluated here: ALiBi's slopes 2^(−8h/H), Llama 3's per-pair factors,
# YaRN's temperature, BERT's 512 × 768 parameters, and RoPE's q·k from m − n alone.
source "$(dirname "$0")/lib.sh"
e2e_setup alternatives "$@"
cat >"$E2E_TMP/scene.json" <<'JSON'
{"presented_panel": "alternatives", "alternatives_tab": "rope", "d_model": 64, "base": 10000,
 "pos_a": 40, "pos_b": 12, "scaling_d": 128, "scaling_factor": 8, "scaling_context": 8192}
JSON
e2e_start_lab --scene "$E2E_TMP/scene.json"
rope=$(e2e_shot alternatives_rope)
e2e_click alternatives.tab_alibi
alibi=$(e2e_shot alternatives_alibi)
e2e_differ "$rope" "$alibi"
e2e_click alternatives.tab_t5
e2e_shot alternatives_t5 >/dev/null
e2e_click alternatives.tab_scaling
e2e_shot alternatives_scaling >/dev/null
e2e_click alternatives.tab_table
e2e_shot alternatives_table >/dev/null
e2e_click alternatives.tab_learned
e2e_click alternatives.learned_lookup 0.3 0.5
e2e_type 511
e2e_shot alternatives_learned >/dev/null
e2e_quit
e2e_check "s['alternatives_tab'] == 'learned'" "the last tab clicked is the one shown"
e2e_check "s['learned_lookup'] == 511" "the typed position is looked up"
a="s['readouts']['alternatives']"
e2e_check "$a['learned']['has_entry'] == True and $a['learned']['parameters'] == 512 * 768" \
    "row 511 of a 512-row table exists; 512 × 768 parameters"
e2e_check "$a['alibi']['slopes'] == [2 ** (-8 * h / 8) for h in range(1, 9)]" "ALiBi slopes for 8 heads"
e2e_check "abs($a['rope']['score'] - $a['rope']['score_from_distance']) < 1e-9 and $a['rope']['max_shift_change'] < 1e-9" \
    "RoPE's q·k is the same from the rotations and from m − n, and stays when both move"
# Llama 3's rule evaluated here for d 128, base 10 000, L 8192, factor 8, low 1, high 4.
llama="[1.0 if 2 * math.pi / w < 8192 / 4 else 1 / 8 if 2 * math.pi / w > 8192 else (lambda sm: (1 - sm) / 8 + sm)((8192 / (2 * math.pi / w) - 1) / 3) for w in [10000 ** (-2 * i / 128) for i in range(64)]]"
e2e_check "max(abs(x - y) for x, y in zip($a['scaling']['methods']['llama3']['factors'], $llama)) < 1e-12" \
    "Llama 3 per-pair factors match the reference rule"
e2e_check "abs($a['scaling']['methods']['yarn']['temperature_factor'] - (0.1 * math.log(8) + 1)) < 1e-15" \
    "YaRN temperature 0.1·ln s + 1"
e2e_pass
