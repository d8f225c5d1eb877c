# The first run opens on "Start here": the map of where positions enter a transformer. A real
# click on its "Positional encoding" box presents the waves panel, Esc comes back to the tiles,
# and the next run (settings saved) opens on the tiles.
source "$(dirname "$0")/lib.sh"
e2e_setup start "$@"
rm -f "$XDG_CONFIG_HOME/pelab/imgui.ini" # the very first run
e2e_start_lab
e2e_point start.pe >/dev/null || e2e_fail "the first run does not show the Start here map"
e2e_shot start_first_run >/dev/null
for box in start.tokens start.embeddings start.qkv start.scores start.softmax; do
    e2e_point "$box" >/dev/null || e2e_fail "$box is not on screen"
done
e2e_click start.pe
e2e_point waves.wave_plot >/dev/null || e2e_fail "the Positional encoding box did not open the waves panel"
e2e_shot start_opened_waves >/dev/null
e2e_press Escape
e2e_quit
e2e_check "s['presented_panel'] == ''" "Esc from the panel the map opened comes back to the tiles"
[[ -f "$XDG_CONFIG_HOME/pelab/imgui.ini" ]] || e2e_fail "no settings were saved"
# The next run: not the first, the tiles.
e2e_start_lab
e2e_point waves.pair_slider >/dev/null || e2e_fail "the second run does not open on the tiles"
e2e_quit
e2e_check "s['presented_panel'] == ''" "the second run opens on the tiles"
e2e_pass
