# A teacher's lecture with a clicker: the shipped lesson "Why transformers need positions" from
# its first step to its last with PageDown only, through the real window. At each step the widget
# the step highlights must be on screen and whole (read from the widget rectangles the app
# writes, with the share of each in view), the
# state the app writes when a step lands must be that step (its panel and scene fields), and a
# picture of each step goes to build/screenshots/lesson/ to look at. At the end the saved state
# says the last step, with its panel presented. Then PageUp goes back one step, and B blanks the
# screen until a key.
source "$(dirname "$0")/lib.sh"
e2e_setup lesson "$@"
root=$(cd "$(dirname "$0")/../.." && pwd)
lesson=$root/assets/lessons/why-positions.json
mkdir -p "$SHOTS/lesson"
e2e_start_lab --lesson "$lesson"
steps=$(/usr/bin/python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["steps"]))' "$lesson")
for ((step = 1; step <= steps; step++)); do
    # The step's first highlighted widget, named in the lesson file.
    name=$(/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["steps"][int(sys.argv[2]) - 1]; print(s.get("highlight", ["lesson.caption"])[0])' "$lesson" "$step")
    e2e_settle # the glide has landed and its frames are drawn
    e2e_point "$name" >/dev/null || e2e_fail "step $step: $name is not on screen"
    # Every highlight of the step whole in the real window: the share in view that the app
    # writes as each rectangle's fifth number, at least 0.98 (30 s for it, after the rest).
    /usr/bin/python3 - "$lesson" "$step" "$E2E_RECTS" <<'PY' || e2e_fail "step $step: a highlighted widget is not whole on screen"
import json, sys, time
lesson, step, path = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
names = lesson["steps"][step - 1].get("highlight", [])
for attempt in range(300):
    try:
        rects = json.load(open(path))
        shares = {n: rects[n][4] if n in rects else 0 for n in names}
        if all(share >= 0.98 for share in shares.values()):
            break
    except (OSError, ValueError):
        shares = {}
    time.sleep(0.1)
assert shares and all(share >= 0.98 for share in shares.values()) or not names, shares
PY
    # The state the app wrote when the step landed: this step, its panel, its scene fields.
    /usr/bin/python3 - "$lesson" "$step" "$E2E_STATE" <<'PY' || e2e_fail "step $step: the state on screen is not the step's"
import json, sys, time
lesson, step, path = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
present = ""
for s in lesson["steps"][:step]:
    present = s.get("present", present)
for attempt in range(300):  # the file is written once the step's glide has landed (30 s)
    try:
        state = json.load(open(path))
        if state["readouts"]["lesson"]["step"] == step:
            break
    except (OSError, ValueError, KeyError):
        pass
    time.sleep(0.1)
assert state["readouts"]["lesson"]["step"] == step, state["readouts"].get("lesson")
assert state["presented_panel"] == present, (state["presented_panel"], present)
for key, value in lesson["steps"][step - 1].get("scene", {}).items():
    assert state[key] == value, (key, state[key], value)
PY
    e2e_shot "lesson/step_$(printf %02d "$step")" >/dev/null
    ((step < steps)) && e2e_press Page_Down
done
e2e_press Page_Up
e2e_settle
back=$(e2e_shot lesson/back_one)
e2e_press b
blank=$(e2e_shot lesson/blank)
colours=$(identify -format '%k' "$blank")
((colours <= 4)) || e2e_fail "B should blank the screen (the picture has $colours colours)"
e2e_press x
again=$(e2e_shot lesson/after_blank)
e2e_differ "$blank" "$again"
e2e_quit
e2e_check "s['readouts']['lesson']['step'] == $steps - 1" "PageUp after the last step shows the one before"
e2e_check "s['readouts']['lesson']['steps'] == $steps" "the lesson has $steps steps"
e2e_check "s['presented_panel'] == 'train' and s['train_result'] == 'shift-causal'" "the step before the last presents the Train panel's causal shift run"
e2e_check "s['readouts']['lesson']['blank'] == False" "a key brings the screen back"
e2e_pass
