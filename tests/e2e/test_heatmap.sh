# The PE heatmap panel in the real window with the real GPU shader: the whole 65 536 × 4 096
# matrix presented, a click in the middle of the picture picks a position near 32 768 and a
# pair near 1 024 (the plot's rectangle includes its axis margins, hence the tolerance), and
# the two layouts side by side change the picture.
source "$(dirname "$0")/lib.sh"
e2e_setup heatmap "$@"
cat >"$E2E_TMP/scene.json" <<'JSON'
{"presented_panel": "heatmap", "heatmap_max_len": 65536, "d_model": 4096, "pos_a": 3, "pair": 0}
JSON
e2e_start_lab --scene "$E2E_TMP/scene.json"
before=$(e2e_shot heatmap_65536x4096)
e2e_not_blank "$before"
e2e_click heatmap.plot 0.5 0.5
e2e_settle
e2e_click heatmap.both_layouts 0.5 0.5
after=$(e2e_shot heatmap_after_click_both_layouts)
e2e_differ "$before" "$after"
e2e_quit
e2e_check "25000 <= s['pos_a'] <= 40000" "a click in the middle of the picture should pick a position near 32 768"
e2e_check "800 <= s['pair'] <= 1250" "a click in the middle should pick a pair near 1 024"
e2e_check "s['heatmap_both_layouts'] is True" "the checkbox should show both layouts"
e2e_check "s['readouts']['heatmap']['cos_column'] == 2 * s['pair'] + 1" "interleaved: pair i's cos is column 2i + 1"
e2e_pass
