# `pelab screenshot` renders offscreen with a real GL context and writes a real PNG: the whole
# window, and every registered panel alone in every theme (the ids come from `pelab readouts`,
# so a new panel is covered here without editing this file). The README's pictures come from
# this command.
source "$(dirname "$0")/lib.sh"
e2e_setup screenshot "$@"
panels=$("$PELAB" readouts | /usr/bin/python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["readouts"]))')
[[ -n "$panels" ]] || e2e_fail "pelab readouts listed no panels"
check_png() {
    [[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" == 89504e470d0a1a0a ]] || e2e_fail "$1 is not a PNG"
    [[ "$(identify -format '%wx%h' "$1")" == "$2" ]] || e2e_fail "$1 is not $2"
    e2e_not_blank "$1"
}
"$PELAB" screenshot --out "$SHOTS/screenshot_app.png" >/dev/null || e2e_fail "pelab screenshot failed"
check_png "$SHOTS/screenshot_app.png" 1280x800
for theme in dark light high-contrast; do
    echo "{\"theme\": \"$theme\"}" >"$E2E_TMP/$theme.json"
    for panel in $panels; do
        out="$SHOTS/screenshot_${panel}_${theme}.png"
        rm -f "$out"
        "$PELAB" screenshot --scene "$E2E_TMP/$theme.json" --panel "$panel" --out "$out" >/dev/null ||
            e2e_fail "pelab screenshot --panel $panel ($theme) failed"
        check_png "$out" 1280x800
    done
done
e2e_note "panels: $panels; themes: dark light high-contrast"
# A figure reopens as its scene: ImageMagick sees the text chunk, and the scene in it presents
# the panel it shows, in its theme.
# (identify's whole output first: grep -q stops reading at the first match, and under pipefail
# identify's SIGPIPE on its remaining lines failed the check now and then.)
described=$(identify -verbose "$SHOTS/screenshot_order_light.png")
grep -q 'pelab-scene:' <<<"$described" || e2e_fail "the PNG carries no pelab-scene text chunk"
read -r presented theme < <("$PELAB" readouts --scene "$SHOTS/screenshot_order_light.png" |
    /usr/bin/python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["presented_panel"], d["theme"])')
[[ "$presented $theme" == "order light" ]] || e2e_fail "figure reopened as '$presented $theme', not 'order light'"
# Another size and a larger font for slides.
"$PELAB" screenshot --panel waves --size 1920x1080 --font-scale 1.5 --out "$SHOTS/screenshot_waves_projector.png" >/dev/null
check_png "$SHOTS/screenshot_waves_projector.png" 1920x1080
e2e_pass
