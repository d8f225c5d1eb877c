# The layout contact sheets a person looks at: every registered panel presented alone at
# 1024×768, 1280×720, 1920×1080 and 3840×2160, text scales 1, 1.5 and 2, rendered with
# `pelab screenshot` and put side by side per panel (ImageMagick montage) in
# build/screenshots/layout/<panel>.png. The geometric check of the same matrix (nothing past a
# window's edge) is tests/layout_test.cpp; this renders the real thing through GL.
source "$(dirname "$0")/lib.sh"
e2e_setup layout_sheets "$@"
panels=$("$PELAB" readouts | /usr/bin/python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["readouts"]))')
mkdir -p "$SHOTS/layout"
for panel in $panels; do
    tiles=()
    for size in 1024x768 1280x720 1920x1080 3840x2160; do
        for scale in 1 1.5 2; do
            out="$E2E_TMP/${panel}_${size}_${scale}.png"
            "$PELAB" screenshot --panel "$panel" --size "$size" --font-scale "$scale" --out "$out" >/dev/null ||
                e2e_fail "pelab screenshot --panel $panel --size $size --font-scale $scale failed"
            [[ "$(identify -format '%wx%h' "$out")" == "$size" ]] || e2e_fail "$out is not $size"
            e2e_not_blank "$out"
            tiles+=("$out")
        done
    done
    # Rows: 1024×768, 1280×720, 1920×1080, 3840×2160; columns: text scale 1, 1.5, 2.
    montage "${tiles[@]}" -tile 3x4 -geometry 640x400+6+6 -background '#202020' \
        "$SHOTS/layout/$panel.png" || e2e_fail "montage failed for $panel"
done
e2e_note "contact sheets: $SHOTS/layout/ ($panels)"
e2e_pass
