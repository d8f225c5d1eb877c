# `pelab render pe-heatmap` and `pelab render similarity`: the GPU shaders' pictures checked
# pixel by pixel against an independent double-precision computation
# (tests/e2e/check_pe_pixels.py), up to 65 536 positions × 4 096 dimensions; run from a folder without shaders/ (they are in the binary);
# a broken shader gives exit 1 and its compile log; bad options give exit 2 naming the option.
source "$(dirname "$0")/lib.sh"
e2e_setup render "$@"
here=$(cd "$(dirname "$0")" && pwd)
cd "$E2E_TMP" # no shaders/ folder here
[[ ! -e shaders ]] || e2e_fail "the test folder should have no shaders/"
check() { # W H L D BASE LAYOUT (interleaved, concat, or similarity)
    local out="$E2E_TMP/pe_$1x$2_$3_$4_$6.png" what=(pe-heatmap --layout "$6")
    [[ "$6" == similarity ]] && what=(similarity)
    "$PELAB" render "${what[@]}" --size "$1x$2" --max-len "$3" --d-model "$4" --base "$5" \
        --colormap grey --out "$out" >/dev/null || e2e_fail "render $* failed"
    convert "$out" -depth 8 gray:"$E2E_TMP/grey.raw" || e2e_fail "could not read $out"
    /usr/bin/python3 "$here/check_pe_pixels.py" "$E2E_TMP/grey.raw" "$1" "$2" "$3" "$4" "$5" "$6" ||
        e2e_fail "pixels differ from the exact encoding by more than one level ($*)"
}
check 512 256 128 128 10000 interleaved
check 256 200 1000 64 10000 concat
check 1024 1024 65536 4096 10000 interleaved
check 256 2048 65536 64 10000 interleaved
check 300 700 65536 512 1000000 concat
check 512 512 256 128 10000 similarity
check 400 300 65536 64 10000 similarity
check 256 256 1024 4096 10000 similarity
"$PELAB" render pe-heatmap --size 512x256 --max-len 128 --d-model 128 --colormap diverging \
    --out "$SHOTS/render_pe_diverging.png" >/dev/null || e2e_fail "diverging render failed"
e2e_not_blank "$SHOTS/render_pe_diverging.png"
# A shader that does not compile: exit 1, the compile log on stderr, no file.
code=0
PELAB_TEST_BROKEN_SHADER=1 "$PELAB" render pe-heatmap --max-len 8 --d-model 8 --size 64x64 \
    --out "$E2E_TMP/broken.png" >/dev/null 2>"$E2E_TMP/broken.err" || code=$?
bad=0
"$PELAB" render pe-heatmap --max-len 70000 --d-model 8 --out "$E2E_TMP/x.png" 2>"$E2E_TMP/bad.err" || bad=$?
[[ $code -eq 1 ]] || e2e_fail "a broken shader should exit 1 (got $code)"
grep -q "pe_heatmap.frag did not compile" "$E2E_TMP/broken.err" || e2e_fail "no compile log: $(cat "$E2E_TMP/broken.err")"
[[ ! -e "$E2E_TMP/broken.png" ]] || e2e_fail "a failed render wrote a file"
[[ $bad -eq 2 ]] && grep -q -- "--max-len" "$E2E_TMP/bad.err" || e2e_fail "--max-len 70000 should exit 2 naming the option"
# In the app, the same broken shader costs only the heatmap's picture: the window with every
# panel open still renders, and the log is on stderr.
echo '{"open_panels": ["waves", "compare", "clocks", "order", "heatmap"]}' >"$E2E_TMP/all.json"
PELAB_TEST_BROKEN_SHADER=1 "$PELAB" screenshot --scene "$E2E_TMP/all.json" \
    --out "$SHOTS/render_broken_shader_app.png" >/dev/null 2>"$E2E_TMP/app_broken.err" ||
    e2e_fail "the app should still render with a broken heatmap shader: $(cat "$E2E_TMP/app_broken.err")"
grep -q "pe_heatmap.frag did not compile" "$E2E_TMP/app_broken.err" || e2e_fail "no compile log from the app"
e2e_not_blank "$SHOTS/render_broken_shader_app.png"
e2e_pass
