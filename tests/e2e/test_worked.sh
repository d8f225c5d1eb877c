# Worked example: editing an embedding cell with the real keyboard ("cat", dim 0 → 1.5) changes
# X_final for "cat"@1 to 1.5 + sin(1), computed here; the other cells keep the published
# example's values.
source "$(dirname "$0")/lib.sh"
e2e_setup worked "$@"
cat >"$E2E_TMP/scene.json" <<'JSON'
{"presented_panel": "worked"}
JSON
e2e_start_lab --scene "$E2E_TMP/scene.json"
before=$(e2e_shot worked_before)
e2e_click worked.embedding_1_0 0.5 0.5
e2e_type 1.5
after=$(e2e_shot worked_after_editing_cat_dim_0)
e2e_differ "$before" "$after"
e2e_quit
e2e_check "s['worked_embeddings']['cat'][0] == 1.5" "the edit should be kept under the word 'cat'"
e2e_check "abs(s['readouts']['worked']['x_final'][1][0] - (1.5 + math.sin(1))) < 1e-12" \
    "X_final for cat@1, dim 0 should be 1.5 + sin(1)"
e2e_check "[round(v, 3) for v in s['readouts']['worked']['x_final'][2]] == [0.509, 0.484, 0.22, 0.5]" \
    "sat@2 keeps the document's values (correctly rounded)"
e2e_check "abs(s['readouts']['worked']['x_final'][1][3] - (0.1 + math.cos(1 / 100))) < 1e-12" \
    "cat@1, dim 3 = 0.1 + cos(1/100)"
e2e_pass
