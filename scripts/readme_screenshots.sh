#!/usr/bin/env bash
# Regenerates the README's pictures with PE Lab's own screenshot command (under xvfb-run when
# there is no display). Usage: scripts/readme_screenshots.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh "$root/build" >/dev/null
out=assets/screenshots
mkdir -p "$out"
run() { if [[ -n "${DISPLAY:-}" ]]; then "$@"; else xvfb-run -a -s "-screen 0 1920x1080x24" "$@"; fi; }
run build/bin/pelab screenshot --out "$out/pelab.png"
run build/bin/pelab screenshot --panel waves --size 1280x760 --out "$out/waves.png"
run build/bin/pelab screenshot --panel compare --scene assets/scenes/compare-3-vs-50.json --size 1280x760 \
    --out "$out/compare.png"
run build/bin/pelab screenshot --panel clocks --size 1280x760 --out "$out/clocks.png"
run build/bin/pelab screenshot --panel order --size 1280x900 --out "$out/order.png"
run build/bin/pelab screenshot --panel order --scene assets/scenes/order-pe-off.json --size 1280x900 \
    --out "$out/order_pe_off.png"
# The "inside the formula" panels.
run build/bin/pelab screenshot --panel calculator --size 1280x760 --out "$out/calculator.png"
run build/bin/pelab screenshot --panel worked --size 1280x900 --out "$out/worked.png"
run build/bin/pelab screenshot --panel rotation --size 1280x900 --out "$out/rotation.png"
run build/bin/pelab screenshot --panel precision --size 1280x760 --out "$out/precision.png"
# Why sinusoids, and what came after.
run build/bin/pelab screenshot --panel candidates --scene assets/scenes/raw-index-drowns.json \
    --size 1280x900 --out "$out/candidates.png"
run build/bin/pelab screenshot --panel alternatives --scene assets/scenes/rope-relative.json \
    --size 1280x900 --out "$out/alternatives_rope.png"
run build/bin/pelab screenshot --panel alternatives --scene assets/scenes/llama3-long-context.json \
    --size 1280x900 --out "$out/alternatives_scaling.png"
echo '{"alternatives_tab": "alibi", "alibi_sentence_b": "bites dog man"}' >"$out/.alibi.json"
run build/bin/pelab screenshot --panel alternatives --scene "$out/.alibi.json" --size 1280x900 \
    --out "$out/alternatives_alibi.png"
rm -f "$out/.alibi.json"
# Teaching: a lesson step as a slide (with its bar), and the quiz.
run build/bin/pelab screenshot --lesson assets/lessons/why-positions.json --step 7 --size 1280x800 \
    --out "$out/lesson_step.png"
echo '{"open_panels": ["quiz"], "quiz_question": 2}' >"$out/.quiz.json"
run build/bin/pelab screenshot --panel quiz --scene "$out/.quiz.json" --size 1280x800 \
    --out "$out/quiz.png"
echo '{"quiz_mode": "teach-back", "teach_back_ticked": [0], "teach_back_text": "A transformer adds position vectors to the word vectors. Without them, adding is commutative and the order is lost. Each position gets a point on many circles."}' >"$out/.quiz.json"
run build/bin/pelab screenshot --panel quiz --scene "$out/.quiz.json" --size 1280x800 \
    --out "$out/teach_back.png"
rm -f "$out/.quiz.json"
# The two other themes, for the README's theme section.
scene_dir=$(mktemp -d)
trap 'rm -rf "$scene_dir"' EXIT
echo '{"theme": "light"}' >"$scene_dir/light.json"
echo '{"theme": "high-contrast"}' >"$scene_dir/high-contrast.json"
run build/bin/pelab screenshot --scene "$scene_dir/light.json" --out "$out/pelab_light.png"
run build/bin/pelab screenshot --scene "$scene_dir/high-contrast.json" --out "$out/pelab_high_contrast.png"
