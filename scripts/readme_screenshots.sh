#!/usr/bin/env bash
# Regenerates the pictures of the README and the docs/ pages with PE Lab's own screenshot
# command (under xvfb-run when there is no display), all at the room's size: 1024x768, text x2.
# Lesson steps are found by the start of their caption, not by number (numbers shift).
# Usage: scripts/readme_screenshots.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh "$root/build" >/dev/null
out=assets/screenshots
mkdir -p "$out"
run() { if [[ -n "${DISPLAY:-}" ]]; then "$@"; else xvfb-run -a -s "-screen 0 1920x1080x24" "$@"; fi; }
room=(--size 1024x768 --font-scale 2)
shot() { run build/bin/pelab screenshot "${room[@]}" "$@" >/dev/null; }
step_of() { # step_of LESSON CAPTION-START: the step's number, from 1
    /usr/bin/python3 -c 'import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
print(next(k + 1 for k, s in enumerate(steps) if s["caption"].startswith(sys.argv[2])))' "$1" "$2"
}
scene_dir=$(mktemp -d)
trap 'rm -rf "$scene_dir"' EXIT
# Each panel's own picture, assets/screenshots/<id>.png, in the scene its PanelInfo names
# (`pelab panels --json`): the registry is the list, so a new panel gets its picture here.
build/bin/pelab panels --json >"$scene_dir/panels.json"
ids=$(/usr/bin/python3 - "$scene_dir" <<'PY'
import json, sys
folder = sys.argv[1]
for panel in json.load(open(folder + "/panels.json")):
    json.dump(panel["figure_scene"], open(f"{folder}/{panel['id']}.json", "w"))
    print(panel["id"])
PY
)
for id in $ids; do
    shot --panel "$id" --scene "$scene_dir/$id.json" --out "$out/$id.png"
done
# Figures of the docs beyond each panel's own: the tiled window, other modes of a panel.
shot --out "$out/pelab.png"
shot --panel order --scene assets/scenes/order-pe-off.json --out "$out/order_pe_off.png"
echo '{"train_view": "attention"}' >"$scene_dir/train_attention.json"
shot --panel train --scene "$scene_dir/train_attention.json" --out "$out/train_attention.png"
shot --panel alternatives --scene assets/scenes/llama3-long-context.json \
    --out "$out/alternatives_scaling.png"
echo '{"alternatives_tab": "alibi", "alibi_sentence_b": "bites dog man"}' >"$scene_dir/alibi.json"
shot --panel alternatives --scene "$scene_dir/alibi.json" --out "$out/alternatives_alibi.png"
# Teaching: lesson steps as slides (with their bar), the notes, the quiz, beginner mode.
why=assets/lessons/why-positions.json
shot --lesson "$why" --step "$(step_of "$why" "Each pair is one wave")" --out "$out/lesson_step.png"
shot --lesson "$why" --step "$(step_of "$why" "Each pair is one wave")" --notes \
    --out "$out/lesson_notes.png"
shot --lesson "$why" --step "$(step_of "$why" "Attention compares every word")" \
    --out "$out/lesson_order.png"
echo '{"quiz_mode": "teach-back", "teach_back_ticked": [0], "teach_back_text": "A transformer adds position vectors to the word vectors. Without them, adding is commutative and the order is lost. Each position gets a point on many circles."}' >"$scene_dir/teach.json"
shot --panel quiz --scene "$scene_dir/teach.json" --out "$out/teach_back.png"
echo '{"mode": "beginner"}' >"$scene_dir/beginner.json"
shot --panel waves --scene "$scene_dir/beginner.json" --out "$out/waves_beginner.png"
# The two other themes.
shot --panel compare --theme light --out "$out/pelab_light.png"
shot --panel compare --theme high-contrast --out "$out/pelab_high_contrast.png"
echo "pictures in $out/ (1024x768, text x2)"
