# `pelab lesson handout`: one chrome-free picture per step (the slide without the lesson bar,
# in the theme asked for) and an index.html with the captions (emphasis kept, HTML escaped) and
# the speaker notes; each picture reopens as its step's scene. `pelab screenshot --theme` draws
# in the theme it names.
source "$(dirname "$0")/lib.sh"
e2e_setup handout "$@"
lesson="$E2E_TMP/three.json"
cat >"$lesson" <<'JSON'
{"format": "pelab-lesson", "version": 1, "title": "Three <steps> & more",
 "steps": [
  {"caption": "The *fast* pair.", "present": "waves", "scene": {"pair": 0},
   "notes": "Say: 6.28 positions per turn & why.", "highlight": ["waves.wave_plot"]},
  {"caption": "Clocks at k = 7.", "present": "clocks", "scene": {"shift_k": 7}},
  {"caption": "Back to waves, fresh.", "present": "waves", "fresh": true}
 ]}
JSON
out="$E2E_TMP/handout"
"$PELAB" lesson handout "$lesson" --out "$out" --theme light --size 1024x768 --font-scale 2 --notes \
    >"$E2E_TMP/handout.out" || e2e_fail "pelab lesson handout failed: $(cat "$E2E_TMP/handout.out")"
for k in 01 02 03; do
    [[ "$(identify -format '%wx%h' "$out/step-$k.png")" == 1024x768 ]] || e2e_fail "step-$k.png is not 1024x768"
    e2e_not_blank "$out/step-$k.png"
    cp "$out/step-$k.png" "$SHOTS/handout_step_$k.png"
done
[[ ! -e "$out/step-04.png" ]] || e2e_fail "a picture for a step the lesson does not have"
html="$out/index.html"
grep -q '<title>Three &lt;steps&gt; &amp; more</title>' "$html" || e2e_fail "the title is not escaped"
grep -q '<p>The <em>fast</em> pair.</p>' "$html" || e2e_fail "the caption's emphasis is lost"
grep -q 'class="notes">Say: 6.28 positions per turn &amp; why.</p>' "$html" || e2e_fail "the notes are missing (--notes)"
[[ $(grep -c '<img src="step-0[123].png"' "$html") == 3 ]] || e2e_fail "index.html does not show 3 pictures"
# Chrome-free and light: the bottom rows (where the lesson bar would be) are the light theme's
# window background, not the bar's; the mean brightness of the whole picture is a light page's.
mean=$(convert "$out/step-02.png" -colorspace Gray -format '%[fx:mean]' info:)
/usr/bin/python3 -c "import sys; sys.exit(0 if float('$mean') > 0.6 else 1)" ||
    e2e_fail "the light handout is dark (mean brightness $mean)"
# Each picture is its step's scene: step 2 presents the clocks with k = 7; step 3 is fresh (the
# defaults: k back to its default, the pair too).
read -r presented k < <("$PELAB" readouts --scene "$out/step-02.png" |
    /usr/bin/python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["presented_panel"], d["shift_k"])')
[[ "$presented $k" == "clocks 7" ]] || e2e_fail "step-02.png reopens as '$presented k=$k'"
default_k=$("$PELAB" readouts | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["shift_k"])')
k3=$("$PELAB" readouts --scene "$out/step-03.png" | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["shift_k"])')
[[ "$k3" == "$default_k" ]] || e2e_fail "the fresh step 3 kept k = $k3 (default $default_k)"
# `pelab screenshot --theme`: the same panel is dark in dark, light in light.
"$PELAB" screenshot --panel compare --theme dark --size 640x480 --out "$E2E_TMP/dark.png" >/dev/null
"$PELAB" screenshot --panel compare --theme light --size 640x480 --out "$E2E_TMP/light.png" >/dev/null
dark=$(convert "$E2E_TMP/dark.png" -colorspace Gray -format '%[fx:mean]' info:)
light=$(convert "$E2E_TMP/light.png" -colorspace Gray -format '%[fx:mean]' info:)
/usr/bin/python3 -c "import sys; sys.exit(0 if float('$light') > float('$dark') + 0.3 else 1)" ||
    e2e_fail "--theme: dark $dark vs light $light"
# Nothing a handout writes follows a link it did not make (docs/reliability.md): a link named
# step-01.png or index.html is replaced, its target untouched; a FIFO named step-02.png is
# refused at once (it would block forever); a second, shorter handout removes the picture its
# predecessor's page named (step-03.png) and nothing the page did not name (step-07.png).
two="$E2E_TMP/two.json"
cat >"$two" <<'JSON'
{"format": "pelab-lesson", "version": 1, "title": "Two",
 "steps": [{"caption": "One.", "present": "waves"}, {"caption": "Two.", "present": "clocks"}]}
JSON
echo "someone else's file" >"$E2E_TMP/victim.txt"
echo "someone else's page" >"$E2E_TMP/victim.html"
ln -sf "$E2E_TMP/victim.txt" "$out/step-01.png"
ln -sf "$E2E_TMP/victim.html" "$out/index.html"
echo "mine" >"$out/step-07.png"
rm "$out/step-02.png" && mkfifo "$out/step-02.png"
set +e
timeout 60 "$PELAB" lesson handout "$two" --out "$out" --size 640x480 >"$E2E_TMP/fifo.out" 2>&1
status=$?
set -e
[[ $status == 1 ]] || e2e_fail "a FIFO named step-02.png: exit $status (want 1, 124 is a hang): $(cat "$E2E_TMP/fifo.out")"
grep -q 'FIFO' "$E2E_TMP/fifo.out" || e2e_fail "the FIFO refusal does not say why: $(cat "$E2E_TMP/fifo.out")"
[[ "$(cat "$E2E_TMP/victim.txt")" == "someone else's file" ]] || e2e_fail "the handout wrote through the link step-01.png"
[[ -L "$out/index.html" ]] || e2e_fail "an interrupted handout replaced the page before its pictures"
rm "$out/step-02.png"
# The three-step handout again (its page names step-01 to step-03), then the two-step one.
"$PELAB" lesson handout "$lesson" --out "$out" --size 640x480 >/dev/null ||
    e2e_fail "a link as index.html"
[[ "$(cat "$E2E_TMP/victim.html")" == "someone else's page" && ! -L "$out/index.html" ]] ||
    e2e_fail "the handout wrote through the link index.html"
# Without --notes (the students' copy) the speaker notes stay out of the page.
! grep -q 'Say: 6.28' "$out/index.html" || e2e_fail "a students' handout shows the speaker notes"
ln -sf "$E2E_TMP/victim.txt" "$out/step-01.png"
"$PELAB" lesson handout "$two" --out "$out" --size 640x480 >"$E2E_TMP/two.out" ||
    e2e_fail "the second handout failed: $(cat "$E2E_TMP/two.out")"
[[ "$(cat "$E2E_TMP/victim.txt")" == "someone else's file" ]] || e2e_fail "the handout wrote through step-01.png"
[[ ! -L "$out/step-01.png" && "$(identify -format '%w' "$out/step-01.png")" == 640 ]] ||
    e2e_fail "step-01.png is not the handout's own picture"
[[ ! -e "$out/step-03.png" ]] || e2e_fail "step-03.png of the earlier, longer handout is left"
[[ "$(cat "$out/step-07.png")" == mine ]] || e2e_fail "a file the earlier page did not name was removed"
[[ $(grep -c '<img src="step-0[12].png"' "$out/index.html") == 2 ]] || e2e_fail "the new page does not show 2 pictures"
e2e_note "3 pictures and index.html; light mean $mean; screenshot dark $dark, light $light; links replaced, FIFO refused, stale picture removed"
e2e_pass
