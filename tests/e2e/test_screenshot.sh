# `pelab screenshot` renders offscreen with a real GL context and writes a real PNG, for the
# whole window and for each panel; the README's pictures come from this command.
source "$(dirname "$0")/lib.sh"
e2e_setup screenshot "$@"
for panel in "" waves; do
    name=${panel:-app}
    out="$SHOTS/screenshot_${name}.png"
    rm -f "$out"
    args=(screenshot --out "$out")
    [[ -n "$panel" ]] && args+=(--panel "$panel")
    "$PELAB" "${args[@]}" >/dev/null || e2e_fail "pelab screenshot $panel failed"
    [[ "$(head -c 8 "$out" | od -An -tx1 | tr -d ' \n')" == 89504e470d0a1a0a ]] || e2e_fail "$out is not a PNG"
    [[ "$(identify -format '%wx%h' "$out")" == 1280x800 ]] || e2e_fail "$out has the wrong size"
    e2e_not_blank "$out"
done
# Another size and a larger font for slides.
"$PELAB" screenshot --panel waves --size 1920x1080 --font-scale 1.5 --out "$SHOTS/screenshot_waves_projector.png" >/dev/null
[[ "$(identify -format '%wx%h' "$SHOTS/screenshot_waves_projector.png")" == 1920x1080 ]] || e2e_fail "1920x1080 screenshot has the wrong size"
e2e_pass
