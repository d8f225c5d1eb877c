# View → Theme → Light (projector) with the real mouse: the window turns white, the scene says
# "light", and the next start remembers it (saved with the layout in the config folder).
source "$(dirname "$0")/lib.sh"
e2e_setup theme "$@"
e2e_start_lab
dark=$(e2e_shot theme_dark)
e2e_click menu.view
e2e_click menu.theme
e2e_click theme.light
light=$(e2e_shot theme_light)
e2e_differ "$dark" "$light"
# The middle of the first panel's body: near black before, near white after.
brightness() { convert "$1" -crop 40x40+300+600 -colorspace Gray -format '%[fx:int(255*mean)]' info:; }
[[ $(brightness "$dark") -lt 80 ]] || e2e_fail "the dark theme should be dark ($(brightness "$dark"))"
[[ $(brightness "$light") -gt 200 ]] || e2e_fail "the light theme should be light ($(brightness "$light"))"
e2e_quit
e2e_check "s['theme'] == 'light'" "the scene should record the light theme"
grep -q '^Theme=light' "$XDG_CONFIG_HOME/pelab/imgui.ini" || e2e_fail "theme not saved in imgui.ini"
# A new start comes up light, with no scene and no option.
e2e_start_lab
again=$(e2e_shot theme_light_again)
[[ $(brightness "$again") -gt 200 ]] || e2e_fail "the theme was not remembered"
# High contrast from a scene overrides the saved theme.
e2e_quit
echo '{"theme": "high-contrast"}' >"$E2E_TMP/hc.json"
e2e_start_lab --scene "$E2E_TMP/hc.json"
e2e_shot theme_high_contrast >/dev/null
e2e_quit
e2e_check "s['theme'] == 'high-contrast'" "a scene's theme wins over the saved one"
e2e_pass
