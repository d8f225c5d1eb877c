# The similarity heatmap's colours fitted to the data: over 128 positions at d_model 512 every
# value of PE(p)·PE(q)/(d/2) lies between about 0.41 and 1, so a −1 … 1 scale paints it almost
# one colour. Fitted, the map's ends are the matrix's own lowest and highest value — checked
# against NumPy's sum of cosines — and the picture shows far more contrast than the fixed one.
source "$(dirname "$0")/lib.sh"
e2e_setup similarity_colours "$@"
run() { # run SCALE: the heatmap presented as the similarity at 1024x768, a shot, the readouts
    echo "{\"presented_panel\": \"heatmap\", \"heatmap_similarity\": true, \"heatmap_max_len\": 128,
           \"d_model\": 512, \"base\": 10000, \"heatmap_colours\": \"$1\"}" >"$E2E_TMP/$1.json"
    "$PELAB" screenshot --scene "$E2E_TMP/$1.json" --panel heatmap --size 1024x768 \
        --out "$SHOTS/similarity_colours_$1.png" >/dev/null || e2e_fail "screenshot ($1) failed"
    e2e_start_lab --scene "$E2E_TMP/$1.json"
    e2e_settle # the similarity table, computed off the frame, is drawn
    e2e_quit
    cp "$E2E_STATE" "$E2E_TMP/state_$1.json"
}
run fitted
run fixed
read -r low high expected_low expected_high < <(/usr/bin/python3 - "$E2E_TMP/state_fitted.json" <<'PY'
import json, sys
import numpy as np
colours = json.load(open(sys.argv[1]))["readouts"]["heatmap"]["similarity_colours"]
d = 512
w = 10000.0 ** (-2 * np.arange(d // 2) / d)
f = np.cos(np.outer(np.arange(128), w)).sum(1) / (d / 2)
print(colours["low"], colours["high"], f.min(), f.max())
PY
)
/usr/bin/python3 -c "import sys; sys.exit(0 if abs($low - $expected_low) < 1e-6 and abs($high - $expected_high) < 1e-6 else 1)" ||
    e2e_fail "fitted colours end at $low … $high; NumPy says $expected_low … $expected_high"
read -r fixed_low fixed_high < <(/usr/bin/python3 -c "import json; c = json.load(open('$E2E_TMP/state_fixed.json'))['readouts']['heatmap']['similarity_colours']; print(c['low'], c['high'])")
[[ "$fixed_low $fixed_high" == "-1.0 1.0" ]] || e2e_fail "the fixed scale ends at $fixed_low … $fixed_high"
# The contrast of the matrix itself (a crop inside the plot): fitted spreads the colours.
spread() { convert "$1" -crop 600x350+250+250 -colorspace Gray -format '%[fx:standard_deviation]' info:; }
fitted=$(spread "$SHOTS/similarity_colours_fitted.png")
fixed=$(spread "$SHOTS/similarity_colours_fixed.png")
/usr/bin/python3 -c "import sys; sys.exit(0 if $fitted > 2 * $fixed else 1)" ||
    e2e_fail "fitted colours are not clearer: spread $fitted against $fixed"
e2e_note "fitted $low … $high (NumPy $expected_low … $expected_high); grey spread $fitted against $fixed"
e2e_pass
