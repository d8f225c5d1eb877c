# Candidates panel: a real click on the table's first row plots the raw index; the drowning meter
# then reports ‖PE(100)‖ = 100·√512 against 0.1·√512 (the published course's "adding 100
# obliterates the word"), and a click on ×√d_model scales the embedding to 0.1·512 (as the paper
# does). The table's numbers are checked against arithmetic done here.
source "$(dirname "$0")/lib.sh"
e2e_setup candidates "$@"
cat >"$E2E_TMP/scene.json" <<'JSON'
{"presented_panel": "candidates", "d_model": 512, "base": 10000, "pos_a": 100,
 "candidates_plot": "binary"}
JSON
e2e_start_lab --scene "$E2E_TMP/scene.json"
before=$(e2e_shot candidates_before)
# The table: a header and nine rows of equal height in the first 10 of its ten row slots.
e2e_click candidates.table 0.03 0.15
after=$(e2e_shot candidates_raw_index)
e2e_differ "$before" "$after"
e2e_quit
e2e_check "s['candidates_plot'] == 'raw_index'" "a click on the first row should plot the raw index"
r="s['readouts']['candidates']"
e2e_check "abs($r['pe_norm'] - 100 * math.sqrt(512)) < 1e-9" "‖PE(100)‖ of the raw index is 100·√512"
e2e_check "abs($r['embedding_norm'] - 0.1 * math.sqrt(512)) < 1e-12" "‖embedding‖ is 0.1·√512"
e2e_check "'drowns' in $r['drowning']" "the meter says the position drowns the word"
rows="{row['candidate']: row for row in $r['properties']}"
e2e_check "$rows['raw_index']['max_abs'] == 255 and $rows['raw_index']['verdicts']['bounded'] == 'fails'" \
    "the raw index reaches N − 1 = 255 over 256 positions"
e2e_check "abs($rows['index_over_length']['length_change'] - (5 / 10 - 5 / 100)) < 1e-15" \
    "index / length moves position 5 by 5/10 − 5/100"
e2e_check "all(v == 'ok' for v in $rows['sin_cos']['verdicts'].values())" "sin + cos pairs pass every column"

# Second run: the √d_model checkbox, clicked.
e2e_start_lab --scene "$E2E_TMP/scene.json"
e2e_click candidates.scale_embedding
e2e_shot candidates_scaled >/dev/null
e2e_quit
e2e_check "s['candidates_scale_embedding'] == True" "the click should tick ×√d_model"
e2e_check "abs($r['embedding_norm'] - 0.1 * 512) < 1e-9" "the embedding is scaled by √512"
e2e_pass
