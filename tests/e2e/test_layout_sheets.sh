# The layout contact sheets a person looks at: every registered panel presented alone, rendered
# with `pelab screenshot` and put side by side per panel (ImageMagick montage) in
# build/screenshots/layout/<panel>.png. In the test run: five corners of the matrix (1024×768 at
# text scale 1 and 2, 1280×720 at 1.5, 1920×1080 at 1, 3840×2160 at 2), which keeps the suite
# within its time; scripts/layout_sheets.sh (PELAB_LAYOUT_SHEETS=full) renders the whole matrix,
# 1024×768, 1280×720, 1920×1080 and 3840×2160 at text scales 1, 1.5 and 2. The geometric check of the same matrix (nothing past a
# window's edge) is tests/layout_test.cpp; this renders the real thing through GL.
source "$(dirname "$0")/lib.sh"
e2e_setup layout_sheets "$@"
panels=$("$PELAB" readouts | /usr/bin/python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["readouts"]))')
mkdir -p "$SHOTS/layout"
if [[ "${PELAB_LAYOUT_SHEETS:-}" == full ]]; then
    cases=() tile=3x4 # rows: the four sizes; columns: text scale 1, 1.5, 2
    for size in 1024x768 1280x720 1920x1080 3840x2160; do
        for scale in 1 1.5 2; do cases+=("$size:$scale"); done
    done
else
    cases=(1024x768:1 1024x768:2 1280x720:1.5 1920x1080:1 3840x2160:2) tile=3x2
fi
# Three screenshots at a time: each is a short GL render that spends most of its wall time
# starting up and waiting (0.23 s of CPU in 1.44 s), so three keep two cores busy.
shoot() { # PANEL SIZE SCALE OUT: a failure leaves OUT.fail with what pelab said
    "$PELAB" screenshot --panel "$1" --size "$2" --font-scale "$3" --out "$4" >/dev/null 2>"$4.err" ||
        echo "pelab screenshot --panel $1 --size $2 --font-scale $3 failed: $(cat "$4.err")" >"$4.fail"
}
# (The X server is a child of this script too: the screenshots are counted and awaited by pid.)
shots=()
running() { local pid count=0; for pid in "${shots[@]}"; do kill -0 "$pid" 2>/dev/null && count=$((count + 1)); done; echo "$count"; }
for panel in $panels; do
    for case in "${cases[@]}"; do
        size=${case%%:*} scale=${case##*:}
        shoot "$panel" "$size" "$scale" "$E2E_TMP/${panel}_${size}_${scale}.png" &
        shots+=($!)
        while (($(running) >= 3)); do sleep 0.05; done
    done
done
wait "${shots[@]}"
for panel in $panels; do
    tiles=()
    for case in "${cases[@]}"; do
        size=${case%%:*} scale=${case##*:}
        out="$E2E_TMP/${panel}_${size}_${scale}.png"
        [[ ! -f "$out.fail" ]] || e2e_fail "$(cat "$out.fail")"
        [[ "$(identify -format '%wx%h' "$out")" == "$size" ]] || e2e_fail "$out is not $size"
        e2e_not_blank "$out"
        tiles+=("$out")
    done
    montage "${tiles[@]}" -tile "$tile" -geometry 640x400+6+6 -background '#202020' \
        "$SHOTS/layout/$panel.png" || e2e_fail "montage failed for $panel"
done
e2e_note "contact sheets: $SHOTS/layout/ ($panels)"
e2e_pass
